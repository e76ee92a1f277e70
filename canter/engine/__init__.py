"""canter's engine: the rules library (`canter.engine.rules`) and the searcher
(`canter.engine.search`). No I/O; nothing here prints.

This package exports the public rules API (docs/engine-api.md), so `from canter.engine import
Position, parse_move` is all most programs need. The searcher is imported on its own, from
`canter.engine.search.searcher`, so that a program that only needs the rules never loads it.
"""

from canter.engine.rules import (
    VARIANT_NAMES,
    AmbiguousMoveError,
    IllegalMoveError,
    Move,
    NotationError,
    Outcome,
    Position,
    PositionError,
    Rules,
    Variant,
    format_move,
    get_variant,
    parse_move,
)

__all__ = [
    "AmbiguousMoveError", "IllegalMoveError", "Move", "NotationError", "Outcome", "Position",
    "PositionError", "Rules", "VARIANT_NAMES", "Variant", "format_move", "get_variant",
    "parse_move",
]
