"""Time management: how long one search may think, from the limits of a `go`.

Two budgets: the *soft* one decides whether to start another iteration (one more would
usually take several times the last, so a search stops early once half of it is used); the
*hard* one aborts a running iteration. The session has already taken the Move Overhead off
the mover's clock (`Session.start_search`) and keeps its own, later, deadline as a safety
net (`stop.deadline`), which the searcher honours too.
"""

from __future__ import annotations

from canter.engine.search.limits import Limits

DEFAULT_MOVES_TO_GO = 25  # moves a game is assumed to have left when the clock does not say
ITERATION_STOP = 50  # percent of the soft budget after which no iteration starts
# Both are search switches (`togo`, `iterstop`), so that time use can be tested in play.
MOVETIME_MARGIN = 0.02  # seconds kept back from a fixed move time for answering


def budgets(limits: Limits, seat: int,
            moves_to_go: int = DEFAULT_MOVES_TO_GO) -> tuple[float | None, float | None]:
    """(soft, hard) in seconds, or (None, None) when time does not limit the search;
    `moves_to_go` is assumed when the clock does not say."""
    if limits.infinite:
        return None, None
    if limits.movetime is not None:
        hard = max(limits.movetime - MOVETIME_MARGIN, limits.movetime * 0.5)
        return hard, hard
    if seat not in limits.time:
        return None, None
    left = max(0.0, limits.time[seat])
    inc = limits.inc.get(seat, 0.0)
    togo = limits.movestogo or moves_to_go
    soft = left / togo + 0.8 * inc
    hard = min(3.0 * soft, 0.3 * left + 0.5 * inc)
    # Never plan to use more than half of what is left, whatever the increment says.
    soft = min(soft, 0.5 * left)
    hard = max(min(hard, 0.5 * left), 0.001)
    return min(soft, hard), hard
