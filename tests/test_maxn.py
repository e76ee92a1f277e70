"""Max-n for three seats (`Three Seat Search = maxn`, maxn.py): each opponent picks the
move best for itself, where paranoid search has it pick the move worst for the root seat;
the leaves score every seat at once (`Evaluator.vector`)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from builders import setup
from hypothesis import given, settings
from hypothesis import strategies as st

from canter.engine import Position, format_move
from canter.engine.search.evaluate import Evaluator, weights_for
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher


def line_of(pos: Position, algorithm: str, moves: list, depth: int):
    s = Searcher()
    s.algorithm = algorithm
    infos = []
    s.search(pos, Limits(depth=depth, searchmoves=moves), infos.append, StopFlag())
    work = pos.copy()
    spelled = []
    for m in infos[-1].pv:
        spelled.append(format_move(work.variant, m))
        work.push(m)
    return infos[-1].score_cp, spelled


def test_an_opponent_takes_what_is_best_for_itself():
    # Blue moves D3 (the root is held to those moves). Red's F9 must then capture: Blue's
    # Man F7 (F9xF5) or Green's Knight F11 (F9xF13). Paranoid search has Red take Blue's
    # Man, the capture worst for Blue; under max-n Red takes the Knight, which is worth
    # more to Red (its score is its own minus the mean of the others'), and Blue is ahead.
    pos = setup("tri-camelot", turn="b", b="F7 D3", r="F9", g="KF11 J13")
    d3 = [m for m in pos.legal_moves() if format_move(pos.variant, m).startswith("D3")]
    assert len(d3) == 3
    after = pos.copy()
    after.push(d3[0])
    assert {format_move(after.variant, m) for m in after.legal_moves()} == {"F9xF5", "F9xF13"}
    paranoid, paranoid_line = line_of(pos, "paranoid", d3, 2)
    maxn, maxn_line = line_of(pos, "maxn", d3, 2)
    assert paranoid_line[1] == "F9xF5"
    assert maxn_line[1] == "F9xF13"
    assert paranoid < 0 < maxn
    assert maxn - paranoid > 150  # a Man lost against a Knight gone from an opponent


def test_same_move_and_node_count_every_run():
    pos = Position.start("tri-camelot")
    runs = []
    for _ in range(2):
        s = Searcher()
        s.algorithm = "maxn"
        result = s.search(pos, Limits(depth=2), lambda i: None, StopFlag())
        runs.append((result.best, result.info.nodes, result.info.score_cp))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("versus", [{}, {"versus_max": 1}, {
    "left_material": 100, "left_position": 0, "right_material": -30, "right_position": 130}])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 90))
def test_the_vector_is_each_seats_relative_score(versus, seed, plies):
    rng = random.Random(seed)
    pos = Position.start("tri-camelot")
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves or pos.outcome() is not None:
            break
        pos.push(rng.choice(moves))
    ev = Evaluator(pos.variant, replace(weights_for(pos.variant), **versus))
    assert ev.vector(pos) == [ev.relative(pos, s) for s in range(3)]


def test_the_root_seats_own_width_keeps_its_castle_entry():
    # Blue's runner B13 enters the red castle A16 in two moves; under `maxn_width` Blue's
    # moves below the root are its likeliest only, and the entry is the likeliest.
    pos = setup("tri-camelot", turn="b", b="B13", r="E2", g="J9")
    nodes = {}
    for width in (0, 1):
        s = Searcher()
        s.algorithm = "maxn"
        s.switches = {"maxn_width": width}
        infos = []
        s.search(pos, Limits(depth=5), infos.append, StopFlag())
        assert infos[-1].score_win == 2
        nodes[width] = infos[-1].nodes
    assert nodes[1] < nodes[0]
