"""What `nodes` counts: each position the search enters, once. A node at depth 0 is
searched by quiescence without being counted a second time, so a node limit (`go nodes`,
the arbiter's `--nodes`) bounds the positions searched, and nps is positions a second."""

from __future__ import annotations

import sys

import pytest
from watching import game_positions

from canter.engine import Position
from canter.engine.search.bench import bench_positions
from canter.engine.search.limits import Limits, SearchResult, StopFlag
from canter.engine.search.searcher import Searcher

# Without the selectivity (on in the play of Camelot and Chivalry): its pruning plays a
# move only to look whether it offers a piece, and its reductions search some children
# twice, so there a move played is not one node.
SWITCHES = tuple({"selective": 0, **s} for s in (
    {}, {"nullmove": 1}, {"qthreat": 1, "jump_ext": 1}, {"stage": 0, "ttmove": 1}))


def _entered(monkeypatch) -> list[int]:
    """Count every move or pass the search plays on its board. The reports' check that a
    principal variation is legal (`_report`) plays its moves too, and enters no node."""
    count = [0]

    def outside_reports() -> bool:
        frame = sys._getframe(2)
        while frame is not None:
            if frame.f_code.co_name == "_report":
                return False
            frame = frame.f_back
        return True

    push, push_null = Position.push, Position.push_null

    def counted_push(self, move):
        if outside_reports():
            count[0] += 1
        push(self, move)

    def counted_null(self):
        if outside_reports():
            count[0] += 1
        push_null(self)

    monkeypatch.setattr(Position, "push", counted_push)
    monkeypatch.setattr(Position, "push_null", counted_null)
    return count


def _search(pos: Position, **switches: int) -> SearchResult:
    # Not `watching.watched`: its reports take a move back and play it again.
    searcher = Searcher()
    searcher._search.options.update(switches)
    return searcher.search(pos, Limits(depth=3), lambda info: None, StopFlag())


@pytest.mark.parametrize(
    "switches", SWITCHES,
    ids=lambda s: ",".join(k for k in s if k != "selective") or "full-width")
def test_nodes_are_the_positions_entered(monkeypatch, switches):
    # Two-seat games only: Best-Reply Search plays two moves into some of its nodes.
    # (The later Camelot bench positions: the first two cost more and show nothing new.)
    bench = bench_positions()
    positions = bench[2:5] + [p for p in bench if p.variant.name == "chivalry"]
    positions += game_positions("camelot", seed=11, plies=60, every=20)
    count = _entered(monkeypatch)
    for pos in positions:
        count[0] = 0
        result = _search(pos, **switches)
        assert result.info.nodes == count[0], pos


def test_three_seats_and_teams_count_the_same_way(monkeypatch):
    count = _entered(monkeypatch)
    for pos in bench_positions():
        if pos.variant.name not in ("tri-camelot", "grand-cam"):
            continue
        count[0] = 0
        result = _search(pos)
        assert result.info.nodes == count[0], pos
