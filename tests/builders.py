"""Hand-built positions for rules tests: `setup("camelot", w="KF5 F6", b="F8")`.

A token is a cell name, prefixed with K for a Knight (a bare cell is a Man). Keyword
arguments are seat letters; `turn` is the seat letter to move.
"""

from __future__ import annotations

from canter.engine import Position, format_move, get_variant
from canter.engine.rules.variant import KNIGHT, MAN


def setup(variant: str = "camelot", turn: str = "w", duty: str | None = None,
          castle_moves: tuple[int, ...] | None = None, rules=None, **seats: str) -> Position:
    v = get_variant(variant)
    pos = Position(v, rules)
    for letter, spec in seats.items():
        seat = v.seat_index(letter)
        for token in spec.split():
            kind = KNIGHT if token[0] in "Kk" and len(token) > 1 and token[1].isalpha() else MAN
            name = token[1:] if kind == KNIGHT else token
            pos.put(v.cell(name), seat, kind)
    pos.turn = v.seat_index(turn)
    if castle_moves:
        pos.castle_moves = list(castle_moves)
    if duty:
        cell = v.cell(duty)
        pos.duty[v.castle_owner[cell]] |= 1 << cell
    pos.reset_derived()
    return pos


def spellings(pos: Position, start: str | None = None) -> set[str]:
    """Canonical spellings of the legal moves (of the piece on `start`, if given)."""
    v = pos.variant
    moves = pos.legal_moves()
    if start is not None:
        moves = [m for m in moves if m.start == v.cell(start)]
    return {format_move(v, m) for m in moves}


def ends(pos: Position, start: str) -> set[str]:
    v = pos.variant
    return {v.cell_name(m.end) for m in pos.legal_moves() if m.start == v.cell(start)}
