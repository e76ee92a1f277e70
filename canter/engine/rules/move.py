"""A move: identified by (start, end, captured cells); it also carries one route."""

from __future__ import annotations


class Move:
    """One move of one piece.

    Equality and hashing use the identity of RULES.md §4 — start, end and the set of
    captured cells — so two routes of the same canter are the same move.
    """

    __slots__ = ("start", "end", "capture_bits", "route", "canter_legs", "_key")

    def __init__(
        self, start: int, end: int, capture_bits: int, route: tuple[int, ...], canter_legs: int
    ) -> None:
        self.start = start
        self.end = end
        self.capture_bits = capture_bits
        self.route = route  # landed cells, start first
        self.canter_legs = canter_legs  # leading non-capturing legs; the rest are jumps
        self._key = (start, end, capture_bits)

    @property
    def key(self) -> tuple[int, int, int]:
        return self._key

    @property
    def captures(self) -> tuple[int, ...]:
        out = []
        bits = self.capture_bits
        while bits:
            low = bits & -bits
            out.append(low.bit_length() - 1)
            bits ^= low
        return tuple(out)

    @property
    def is_capture(self) -> bool:
        return self.capture_bits != 0

    @property
    def is_charge(self) -> bool:
        return self.capture_bits != 0 and self.canter_legs > 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return f"Move(route={self.route}, canter_legs={self.canter_legs})"
