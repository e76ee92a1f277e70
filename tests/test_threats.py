"""Castle-entry reach in moves (threats.py) and what the evaluation and the search make of
it, on hand-built Tri-Camelot positions. Blue aims at A16 (Red's castle), Red at K16,
Green at F1."""

from __future__ import annotations

from dataclasses import replace

import pytest
from builders import setup

from canter.engine import Position, get_variant
from canter.engine.search.evaluate import TERM_NAMES, Evaluator
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


@pytest.mark.parametrize("algorithm", ["paranoid", "brs", "brs+", "maxn"])
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


# ---- Camelot: two pieces must be in, so the next entry counts. White aims at F16 G16.

def test_camelot_one_piece_in_and_a_canter_to_follow_is_one_move():
    # F16 is in; G14 canters over G15 into G16.
    pos = setup("camelot", w="F16 G14 G15", b="A5")
    assert reach(pos, "w") == 1


def test_camelot_the_piece_inside_does_not_count_as_the_next_entry():
    # F16 is in and could step to G16 inside the castle, but that enters nothing: the
    # next entry is G14's, two steps away.
    pos = setup("camelot", w="F16 G14", b="A5")
    assert reach(pos, "w") == 2
    # With G14 on G15 instead, it steps in next move.
    assert reach(setup("camelot", w="F16 G15", b="A5"), "w") == 1


def test_camelot_one_in_and_the_other_cell_held_is_no_entry():
    pos = setup("camelot", w="F16 G15", b="G16 A5")
    assert reach(pos, "w") == 3


def test_camelot_two_in_is_done():
    assert reach(setup("camelot", w="F16 G16 C3", b="A5"), "w") == 0


def test_camelot_reach_never_misses_an_entry_of_the_move_generator():
    """Along random Camelot games that favour advancing, every position where the side
    to move has a legal move into a free cell of its target castle has reach 1."""
    import random

    v = get_variant("camelot")
    rng = random.Random(3)
    entries = 0
    for _ in range(40):
        pos = Position.start(v)
        while pos.outcome() is None and len(pos.move_stack) < 160:
            seat = pos.turn
            moves = pos.legal_moves()
            target = v.target_bits[seat]
            allocc = pos.occ[0] | pos.occ[1]
            got = Reach(v).moves_to_target(pos.occ, seat, allocc, pos.kn)
            # (A move inside the castle, from one of its cells to the other, enters
            # nothing.)
            if any(target >> m.end & 1 and not target >> m.start & 1 for m in moves):
                entries += 1
                assert got == 1, pos.to_string()
            # Advance the piece that gets nearest its target, most of the time.
            if rng.random() < 0.7:
                dist = Evaluator(v).target_dist[seat]
                pos.push(min(moves, key=lambda m: (dist[m.end], rng.random())))
            else:
                pos.push(rng.choice(moves))
    assert entries > 30, entries


def test_camelot_reach_terms_score_the_next_entry_only_when_weighted():
    # White can follow F16 into G16 next move; with the hurdle moved off the line, not.
    near = setup("camelot", turn="b", w="F16 G14 G15 C3", b="A5 B5 C5")
    far = setup("camelot", turn="b", w="F16 G14 I15 C3", b="A5 B5 C5")
    plain = Evaluator(near.variant)
    assert plain.reach is None  # off by default in two seats: no cost at the leaves
    weighted = Evaluator(near.variant, replace(plain.w, threat1=300, threat2=100))
    gap_plain = plain.relative(near, 0) - plain.relative(far, 0)
    gap_weighted = weighted.relative(near, 0) - weighted.relative(far, 0)
    assert gap_weighted - gap_plain == 300 - 100  # one move against two
    # The same for Black's side of the score.
    assert weighted.relative(near, 1) - weighted.relative(far, 1) == -gap_weighted
    # For tuning, the reach is two linear terms: one move (threat1) for White.
    counts, _, _ = weighted.terms(near, 0)
    assert counts[TERM_NAMES.index("threat1")] == 1
    assert counts[TERM_NAMES.index("threat2")] == 0


@pytest.mark.parametrize("variant", ["camelot", "tri-camelot"])
def test_the_early_exit_far_from_a_castle_changes_no_answer(variant):
    """With no piece within two steps of a castle the count stops at once (3); along
    advancing random games every seat's answer equals the full count's, and the exit
    both fires and stays out of positions where the full count finds 2."""
    import random

    v = get_variant(variant)
    quick, full = Reach(v), Reach(v)
    full.zone = (v.board.mask,) * v.nseats  # never exits early
    dist = Evaluator(v).target_dist
    rng = random.Random(11)
    exits = twos = 0
    for _ in range(12):
        pos = Position.start(v)
        while pos.outcome() is None and len(pos.move_stack) < 120:
            allocc = 0
            for bits in pos.occ:
                allocc |= bits
            for seat in range(v.nseats):
                if not pos.occ[seat]:
                    continue
                got = quick.moves_to_target(pos.occ, seat, allocc, pos.kn)
                assert got == full.moves_to_target(pos.occ, seat, allocc, pos.kn)
                exits += not allocc & quick.zone[seat]
                twos += got == 2
            moves = pos.legal_moves()
            if rng.random() < 0.7:
                seat = pos.turn
                pos.push(min(moves, key=lambda m: (dist[seat][m.end], rng.random())))
            else:
                pos.push(rng.choice(moves))
    assert exits > 50 and twos > 30, (exits, twos)
