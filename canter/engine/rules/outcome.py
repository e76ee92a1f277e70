"""How a game ended: winner (or draw), reason, and a ranking of the seats."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    winner: int | None  # seat index, None for a draw
    reason: str
    ranking: tuple[tuple[int, ...], ...]  # best first; seats sharing a rank share a tuple
    seat_names: tuple[str, ...] = ()
    # Team games: every seat of the winning team (a win for either partner is the team's);
    # empty otherwise.
    winners: tuple[int, ...] = ()

    def text(self) -> str:
        if self.winner is None:
            return f"draw: {self.reason}"
        if len(self.winners) > 1:
            return f"{' and '.join(self.seat_names[s] for s in self.winners)} win: {self.reason}"
        return f"{self.seat_names[self.winner]} wins: {self.reason}"

    def wins_for(self, seat: int) -> bool:
        """Did `seat` win (alone, or as one of the winning team)?"""
        return seat in self.winners if self.winners else seat == self.winner

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


def team_ranking(
    teams: tuple[int, ...], winner: int | None
) -> tuple[tuple[int, ...], ...]:
    """A team game ranks teams, not seats: the winner's team first, then the other; a draw
    ties every seat (Ruling R18: partners share the result whoever was eliminated)."""
    seats = range(len(teams))
    if winner is None:
        return (tuple(seats),)
    mine = tuple(s for s in seats if teams[s] == teams[winner])
    return (mine, tuple(s for s in seats if teams[s] != teams[winner]))
