"""Castle-entry reach in moves (threats.py) and what the evaluation and the search make of
it, on hand-built Tri-Camelot positions. Blue aims at A16 (Red's castle), Red at K16,
Green at F1."""

from __future__ import annotations

import pytest
from builders import setup

from canter.engine import Position, get_variant
from canter.engine.search.evaluate import Evaluator
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher
from canter.engine.search.threats import Reach


def reach(pos, seat: str) -> int:
    v = pos.variant
    allocc = 0
    for bits in pos.occ:
        allocc |= bits
    return Reach(v).moves_to_target(pos.occ, v.seat_index(seat), allocc, pos.kn)


def test_a_canter_over_an_own_piece_into_the_castle_is_one_move():
    # A12 over A14 lands on A16: one move, though two steps.
    assert reach(setup("tri-camelot", turn="b", b="A12 A14", r="E2", g="J9"), "b") == 1


def test_two_steps_without_a_hurdle_are_two_moves():
    assert reach(setup("tri-camelot", turn="b", b="A12", r="E2", g="J9"), "b") == 2


def test_a_far_piece_is_not_near():
    assert reach(setup("tri-camelot", turn="b", b="F7", r="E2", g="J9"), "b") == 3


def test_a_two_leg_canter_counts_as_one_move():
    # Green: F9 over F7 to F5, over F3 to F1 (Blue's castle), in one move.
    pos = setup("tri-camelot", turn="g", g="F9 F7 F3", b="A12", r="C16")
    assert reach(pos, "g") == 1


def test_a_jump_into_the_castle_counts():
    # Green F5 jumps the Red man on F3 and lands on F1.
    assert reach(setup("tri-camelot", turn="g", g="F5", r="F3", b="A12"), "g") == 1


def test_an_occupied_target_cannot_be_entered():
    pos = setup("tri-camelot", turn="b", b="A12 A14", r="A16 E2", g="J9")
    assert reach(pos, "b") == 3


def test_an_opponents_canter_threat_on_the_other_castle_costs_us():
    # Red's score, with Green one canter away from Blue's castle, against the same
    # pieces with Green's hurdle moved out of line (two moves away).
    threat = setup("tri-camelot", turn="r", g="F5 F3", b="C6", r="C16")
    calm = setup("tri-camelot", turn="r", g="F5 H3", b="C6", r="C16")
    ev = Evaluator(threat.variant)
    assert ev.relative(threat, 1) < ev.relative(calm, 1) - 100


@pytest.mark.parametrize("algorithm", ["paranoid", "brs", "brs+"])
@pytest.mark.parametrize("depth", [1, 2])
def test_red_stops_greens_canter_into_blues_castle(algorithm, depth):
    # Green (next to move after Red) threatens F5 over F3 to F1, which ends the game for
    # Red too. Red can take two Blue Knights (H11xH15xJ17) or break the threat with
    # E2xG4xE6 (both Green men); only the second does not lose at once.
    pos = setup("tri-camelot", turn="r", r="E2 H11", g="F5 F3", b="KH13 KI16 C6")
    s = Searcher()
    s.algorithm = algorithm
    best = s.search(pos, Limits(depth=depth), lambda info: None, StopFlag()).best
    assert best.start == pos.variant.cell("E2")


def test_remembered_answers_match_fresh_ones():
    """The memo keys on everything an answer depends on: the same arrangement asked with
    and without Knights, by every seat, in positions of random games."""
    import random

    v = get_variant("tri-camelot")
    shared = Reach(v)
    rng = random.Random(7)
    asked = 0
    for _ in range(12):
        pos = Position.start(v)
        while pos.outcome() is None and len(pos.move_stack) < 60:
            allocc = pos.occ[0] | pos.occ[1] | pos.occ[2]
            for seat in range(3):
                for kn in (pos.kn, None):
                    again = shared.moves_to_target(pos.occ, seat, allocc, kn)
                    assert again == Reach(v).moves_to_target(pos.occ, seat, allocc, kn)
                    asked += 1
            pos.push(rng.choice(pos.legal_moves()))
    assert asked > 1000
