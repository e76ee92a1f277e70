"""Time use under a clock: the two budgets, and the switches `togo` (moves a game is assumed
to have left) and `iterstop` (the share of the soft budget after which no iteration starts),
which let a strength test play the build against itself with another use of its clock."""

from __future__ import annotations

import time

import pytest

from canter.engine import Position
from canter.engine.search.alphabeta import RootLine, switch_changes
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher
from canter.engine.search.timeman import DEFAULT_MOVES_TO_GO, ITERATION_STOP, budgets

CLOCK = Limits(time={0: 10.0, 1: 10.0}, inc={0: 0.1, 1: 0.1})


def test_budgets_by_hand():
    # 10 s left, 0.1 s increment, 25 moves assumed: soft 10/25 + 0.08; hard three times it
    # (below 0.3 * 10 + 0.05 and half the clock)
    soft, hard = budgets(CLOCK, 0)
    assert DEFAULT_MOVES_TO_GO == 25
    assert soft == pytest.approx(0.48) and hard == pytest.approx(1.44)
    soft, hard = budgets(CLOCK, 0, moves_to_go=20)
    assert soft == pytest.approx(0.58) and hard == pytest.approx(1.74)
    # the clock's own moves-to-go wins over the assumption
    told = Limits(time={0: 10.0}, inc={0: 0.1}, movestogo=10)
    assert budgets(told, 0, moves_to_go=20) == budgets(told, 0) == \
        pytest.approx((1.08, 3.05))
    # a fixed move time does not depend on it
    fixed = Limits(movetime=1.0)
    assert budgets(fixed, 0, moves_to_go=5) == budgets(fixed, 0) == pytest.approx((0.98, 0.98))
    # short of time: hard 0.3 * 0.4 + 0.05, and soft never above it (nor above half the
    # clock, 0.2, though one move to go would ask 0.48)
    low = Limits(time={0: 0.4}, inc={0: 0.1})
    assert budgets(low, 0, moves_to_go=1) == pytest.approx((0.17, 0.17))


def test_time_switches_are_read_and_bounded():
    assert switch_changes("togo=18 iterstop=70") == {"togo": 18, "iterstop": 70}
    for bad in ("togo=101", "iterstop=101", "togo=-3"):
        with pytest.raises(ValueError, match="takes a whole number from 0 to 100"):
            switch_changes(bad)


def _timed(options: dict[str, int]):
    searcher = Searcher()
    searcher._search.options.update(options)
    limits = Limits(depth=1, time=dict(CLOCK.time), inc=dict(CLOCK.inc))
    searcher.search(Position.start("camelot"), limits, lambda info: None, StopFlag())
    return searcher._search


@pytest.mark.parametrize("options,togo,share", [
    ({}, DEFAULT_MOVES_TO_GO, ITERATION_STOP),
    ({"togo": 0, "iterstop": 0}, DEFAULT_MOVES_TO_GO, ITERATION_STOP),  # 0: the default
    ({"togo": 15, "iterstop": 80}, 15, 80),
])
def test_the_search_budgets_with_the_switches(options, togo, share):
    search = _timed(options)
    assert search.soft == pytest.approx(budgets(CLOCK, 0, moves_to_go=togo)[0])
    assert search.hard == pytest.approx(budgets(CLOCK, 0, moves_to_go=togo)[1])
    assert search.iteration_stop == pytest.approx(share / 100)


@pytest.mark.parametrize("iterstop,enough", [(0, True), (50, True), (70, False)])
def test_no_iteration_starts_past_the_share(iterstop, enough):
    search = _timed({"iterstop": iterstop})
    line = RootLine(next(iter(Position.start("camelot").legal_moves())), 0)
    line.score, line.exact = 0, True
    search.soft = 1.0
    search.t0 = time.monotonic() - 0.6  # 60 % of the soft budget spent
    assert search._enough(line, 3, Limits(time={0: 10.0})) is enough


def test_a_ponderhit_with_new_clocks_plans_the_move_with_them():
    """CECP sends the clocks with the opponent's move: the search, begun with a long clock,
    must then plan with the short one it has now (no session deadline here to stop it)."""
    import threading

    stop = StopFlag()
    stop.pondering = True
    long = Limits(ponder=True, time={0: 1000.0, 1: 1000.0})
    done = []
    thread = threading.Thread(target=lambda: done.append(
        Searcher().search(Position.start("camelot"), long, lambda info: None, stop)))
    thread.start()
    try:
        time.sleep(0.3)
        stop.clocks = Limits(time={0: 0.4, 1: 0.4})
        hit = time.monotonic()
        stop.pondering = False
        thread.join(10)
        assert not thread.is_alive() and done[0].best is not None
        # budgets(0.4 s left): hard 0.12 s; the old clocks would have given 300 s.
        assert time.monotonic() - hit < 2.0
    finally:
        stop.set()
