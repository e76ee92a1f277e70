"""How a game ended: winner (or draw), reason, and a ranking of the seats."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    winner: int | None  # seat index, None for a draw
    reason: str
    ranking: tuple[tuple[int, ...], ...]  # best first; seats sharing a rank share a tuple
    seat_names: tuple[str, ...] = ()

    def text(self) -> str:
        if self.winner is None:
            return f"draw: {self.reason}"
        return f"{self.seat_names[self.winner]} wins: {self.reason}"

    def __str__(self) -> str:
        return self.text()


def ranking_for(
    nseats: int, winner: int | None, eliminated: tuple[int, ...], last_together: int = 1
) -> tuple[tuple[int, ...], ...]:
    """Winner first; then seats still in play (sharing a rank); then eliminated seats,
    the last eliminated ranked highest. The last `last_together` eliminated seats lost
    their last pieces in one move, so they share a rank."""
    ranks: list[tuple[int, ...]] = []
    rest = [s for s in range(nseats) if s != winner and s not in eliminated]
    if winner is not None:
        ranks.append((winner,))
    if rest:
        ranks.append(tuple(rest))
    together = max(1, last_together)
    if len(eliminated) >= together > 1:
        ranks.append(tuple(sorted(s for s in eliminated[-together:] if s != winner)))
        eliminated = eliminated[:-together]
    for s in reversed(eliminated):
        if s != winner:
            ranks.append((s,))
    return tuple(ranks)
