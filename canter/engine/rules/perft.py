"""Perft: the number of distinct move sequences of a given length (RULES.md §4).

Moves are counted by identity, never by route; the last ply is counted without making the
moves; repetition and quiet-move draws are not applied."""

from __future__ import annotations

from canter.engine.rules.notation import format_move
from canter.engine.rules.position import Position


def perft(pos: Position, depth: int) -> int:
    if depth <= 0:
        return 1
    if depth == 1:
        return pos.count_legal_moves()
    total = 0
    for move in pos.legal_moves():
        pos.push(move)
        total += perft(pos, depth - 1)
        pos.pop()
    return total


def perft_divide(pos: Position, depth: int) -> list[tuple[str, int]]:
    """One (move, count) per root move, in canonical order of the spelling."""
    rows = []
    for move in pos.legal_moves():
        pos.push(move)
        rows.append((format_move(pos.variant, move), perft(pos, depth - 1)))
        pos.pop()
    rows.sort()
    return rows
