"""The rules library: variants, positions, legal moves, notation, perft. No I/O."""

from canter.engine.move import Move
from canter.engine.notation import (
    AmbiguousMoveError,
    IllegalMoveError,
    NotationError,
    format_move,
    parse_move,
)
from canter.engine.outcome import Outcome
from canter.engine.position import Position
from canter.engine.posstring import PositionError
from canter.engine.variant import VARIANT_NAMES, Rules, Variant, get_variant

__all__ = [
    "AmbiguousMoveError", "IllegalMoveError", "Move", "NotationError", "Outcome", "Position",
    "PositionError", "Rules", "VARIANT_NAMES", "Variant", "format_move", "get_variant",
    "parse_move",
]
