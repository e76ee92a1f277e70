"""The lone runner of three seats (evaluate.py, `lone_runner`): a seat's fastest piece within
LONE_HORIZON steps of its target castle, nearer that castle than every piece of the seat
that owns it. Hand-built Tri-Camelot positions: Blue aims at A16 (Red's castle), Red at
K16 (Green's), Green at F1 (Blue's). Steps are counted on the hexagons, pieces ignored."""

from __future__ import annotations

from dataclasses import replace

from builders import setup

from canter.engine.search.evaluate import LONE_HORIZON, Evaluator, weights_for

W = 40


def evaluator(pos, weight: int = W) -> Evaluator:
    v = pos.variant
    return Evaluator(v, replace(weights_for(v), lone_runner=weight))


def test_a_runner_two_steps_out_with_no_defender_near_scores_per_step():
    # Blue A12 is two steps from A16; Red's only piece, E2, is nine from its castle. Green's
    # K12 and Red's E2 are more than six steps from their targets.
    pos = setup("tri-camelot", turn="b", b="A12", r="E2", g="K12")
    assert evaluator(pos).lone_runners(pos) == [W * (LONE_HORIZON + 1 - 2), 0, 0]


def test_a_defender_as_near_its_castle_as_the_runner_stops_it():
    # Red C14 is two steps from A16, as near as Blue's runner.
    pos = setup("tri-camelot", turn="b", b="A12", r="E2 C14", g="K12")
    assert evaluator(pos).lone_runners(pos)[0] == 0


def test_a_defender_a_step_farther_out_does_not():
    # Red D13 is three steps from A16: the runner gets there first.
    pos = setup("tri-camelot", turn="b", b="A12", r="E2 D13", g="K12")
    assert evaluator(pos).lone_runners(pos)[0] == W * (LONE_HORIZON + 1 - 2)


def test_a_runner_past_the_horizon_scores_nothing():
    # Blue F7 is seven steps from A16.
    pos = setup("tri-camelot", turn="b", b="F7", r="E2", g="K12")
    assert evaluator(pos).lone_runners(pos) == [0, 0, 0]


def test_the_fastest_piece_counts_and_the_defender_is_the_target_castles_owner():
    # Blue's F9 (six steps) is not its fastest piece; A12 (two) is. Green's piece beside
    # A16 does not defend Red's castle for Red.
    pos = setup("tri-camelot", turn="b", b="A12 F9", r="E2", g="K12 A14")
    assert evaluator(pos).lone_runners(pos)[0] == W * (LONE_HORIZON + 1 - 2)


def test_the_score_is_own_runner_minus_the_largest_opponents():
    pos = setup("tri-camelot", turn="b", b="A12", r="E2", g="K12")
    with_term, without = evaluator(pos), evaluator(pos, 0)
    lone = W * (LONE_HORIZON + 1 - 2)
    for seat, change in ((0, lone), (1, -lone), (2, -lone)):
        assert with_term.relative(pos, seat) - without.relative(pos, seat) == change
    # max-n's leaves score every seat at once, the same way.
    assert [a - b for a, b in zip(with_term.vector(pos), without.vector(pos),
                                  strict=True)] == [lone, -lone, -lone]


def test_off_by_default_and_never_in_two_seats():
    pos = setup("tri-camelot", turn="b", b="A12", r="E2", g="K12")
    assert Evaluator(pos.variant).lone == 0
    cam = setup("camelot", turn="w", w="F14", b="F3")
    assert evaluator(cam).lone == 0
