"""Words in the tools' messages."""

from __future__ import annotations

_PLURALS = {"ply": "plies"}


def count(n: int, noun: str) -> str:
    """`1 game`, `2 games`, `0 plies`: a number with its noun in the right number."""
    return f"{n} {noun if n == 1 else _PLURALS.get(noun, noun + 's')}"
