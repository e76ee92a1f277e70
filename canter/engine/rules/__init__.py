"""The rules library: variants as data, boards, positions, move generation, notation,
position strings, endings, perft and the text board. No I/O, no search.

Inside the library modules depend one way: board <- variant <- move <- movegen <- position
<- posstring/notation, and every module imports the others by their full module path, never
through this package, so that importing any one of them never needs this file finished.
"""

from canter.engine.rules.board import CellError
from canter.engine.rules.move import Move
from canter.engine.rules.notation import (
    AmbiguousMoveError,
    IllegalMoveError,
    NotationError,
    format_move,
    parse_move,
)
from canter.engine.rules.outcome import Outcome
from canter.engine.rules.position import Position
from canter.engine.rules.posstring import PositionError
from canter.engine.rules.variant import VARIANT_NAMES, Rules, Variant, get_variant

__all__ = [
    "AmbiguousMoveError", "CellError", "IllegalMoveError", "Move", "NotationError", "Outcome",
    "Position", "PositionError", "Rules", "VARIANT_NAMES", "Variant", "format_move",
    "get_variant", "parse_move",
]
