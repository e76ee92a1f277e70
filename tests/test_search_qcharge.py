"""Optional charges in the quiescence (switch `qcharge`; docs/search.md): a Knight's charge
that is merely available creates no duty to capture (RULES.md), so a leaf where one exists is
quiet; with the switch the side to move there may stand pat or make a charge that takes two
pieces or more."""

from __future__ import annotations

import random

import pytest
from builders import setup

from canter.engine import Position, parse_move
from canter.engine.rules import movegen
from canter.engine.search.alphabeta import INF
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher


@pytest.mark.parametrize("variant", ["camelot", "chivalry", "cam", "camette", "tri-camelot",
                                     "grand-cam"])
def test_optional_charges_are_the_captures_of_a_position_without_a_duty(variant) -> None:
    rng = random.Random(variant)
    checked = found = 0
    for _ in range(12):
        pos = Position.start(variant)
        for _ in range(120):
            if pos.outcome() is not None:
                break
            if not movegen.must_capture(pos):
                want = sorted(m._key for m in movegen.generate(pos) if m.capture_bits)
                assert sorted(m._key for m in movegen.optional_charges(pos)) == want, str(pos)
                checked += 1
                found += bool(want)
            pos.push(rng.choice(pos.legal_moves()))
    assert checked > 100 and found > 0


def test_under_the_exit_duty_only_the_duty_piece_charges() -> None:
    # White's Knight on its own castle cell F1 must leave it; the Knight on D4 could
    # charge (canter over D5, jump D7 and D9) but may not move this turn.
    pos = setup("camelot", turn="w", duty="F1", w="KF1 KD4 D5 A6", b="D7 D9 L12")
    assert movegen.duty_pieces(pos, 0) == 1 << pos.variant.cell("F1")
    assert movegen.optional_charges(pos) == []
    free = setup("camelot", turn="w", w="KF1 KD4 D5 A6", b="D7 D9 L12")
    assert [m.start for m in movegen.optional_charges(free)] == [pos.variant.cell("D4")]


def score(pos: Position, depth: int, moves: list[str] | None = None, **switches) -> int:
    searcher = Searcher()
    searcher.use_proofs = False
    searcher._search.options.update(switches)
    infos: list = []
    limits = Limits(depth=depth,
                    searchmoves=[parse_move(pos, m) for m in moves] if moves else None)
    searcher.search(pos, limits, infos.append, StopFlag())
    return infos[-1].score_cp


def test_a_charge_at_a_quiet_leaf_is_seen_a_ply_earlier() -> None:
    # Black to move. After a move of a far Man, White's Knight on D4 can canter over D5 to
    # D6 and jump D7 and D9 (D8 and D10 free): two Men, and no duty makes it a capture
    # that a quiescence of compulsory captures would look at.
    pos = setup("camelot", turn="b", w="KD4 D5 A6", b="D7 D9 L12 K12")
    after = pos.copy()
    after.push(parse_move(pos, "L12-L11"))
    assert not movegen.must_capture(after)
    assert [m.capture_bits.bit_count() for m in movegen.optional_charges(after)] == [2]
    far = ["L12-L11", "K12-K11"]  # two root moves, or the search answers at once
    deeper = score(pos, 2, far)
    assert score(pos, 1, far, qcharge=1) == deeper
    assert score(pos, 1, far) > deeper + 400  # two Men the plain quiescence does not see


def test_a_charge_of_one_piece_is_left_to_the_search() -> None:
    # The same with one Black Man in the Knight's way: a charge that takes one piece is
    # not searched at the leaf (QCHARGE_TAKES), so depth 1 scores as without the switch.
    pos = setup("camelot", turn="b", w="KD4 D5 A6", b="D7 L12 K12")
    after = pos.copy()
    after.push(parse_move(pos, "L12-L11"))
    assert [m.capture_bits.bit_count() for m in movegen.optional_charges(after)] == [1]
    far = ["L12-L11", "K12-K11"]
    assert score(pos, 1, far, qcharge=1) == score(pos, 1, far)
    assert score(pos, 2, far) < score(pos, 1, far)


def test_a_game_lost_to_a_charge_of_seven() -> None:
    # From a 10+0.1 game: Black played J11-J10, White answered H7-H9 (Black must take it)
    # and then charged D7-F5-H7xJ9xJ11xH11xH9xF9xH11xJ13. At depth 2 the plain search
    # (no capture extension) sees it only with the charges at the leaf; the capture
    # extension, on in play, sees it too: Black's choice of captures is searched deeper.
    pos = Position.start("camelot")
    for text in ("E7-C5 H11-I12 C5-C7 C11-E9 D6-D8 D11-D9 D8-D6 E11-G9 F6-H8 "
                 "J11-J10").split():
        pos.push(parse_move(pos, text))
    assert score(pos, 2, qcharge=1, capext=0) > 500
    assert score(pos, 2, capext=0) < 100
    assert score(pos, 2) > 500


def test_standing_pat_stays_possible() -> None:
    # The side to move is never made to charge: the leaf's value is at least its static
    # score, whatever the charges lose.
    rng = random.Random(3)
    tried = 0
    for _ in range(20):
        pos = Position.start("camelot")
        for _ in range(80):
            if pos.outcome() is not None:
                break
            pos.push(rng.choice(pos.legal_moves()))
            if pos.outcome() is None and not movegen.must_capture(pos) \
                    and movegen.optional_charges(pos):
                searcher = Searcher()
                searcher.use_proofs = False
                searcher._search.options["qcharge"] = 1
                searcher.search(pos, Limits(depth=1), lambda info: None, StopFlag())
                search = searcher._search
                search.pos = pos.copy()
                static = search._static(search.pos)
                assert search._stand_or_charge(-INF, INF, 1, 0) >= static
                tried += 1
    assert tried >= 10


def test_three_seats_never_take_it() -> None:
    pos = Position.start("tri-camelot")
    rng = random.Random(5)
    for _ in range(24):
        pos.push(rng.choice(pos.legal_moves()))
    nodes = []
    for on in (0, 1):
        searcher = Searcher()
        searcher.use_proofs = False
        searcher._search.options["qcharge"] = on
        infos: list = []
        searcher.search(pos, Limits(depth=3), infos.append, StopFlag())
        nodes.append(infos[-1].nodes)
    assert nodes[0] == nodes[1]
