"""A killer tried before the move list is built (`Search._killer_first`, switch `stage`):
the same search as building the list first, only faster. Same nodes, move, score and
principal variation with it on and off, under every search switch; each staged move is
the first the full order would have searched; and the test that no castle entry or
Knight's charge exists (`movegen.may_enter_or_charge`) is never wrong when it says so."""

from __future__ import annotations

import pytest
from watching import game_positions, watched

from canter.engine import Position
from canter.engine.rules import movegen
from canter.engine.search.common import order_key
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher

TWO_SIDED = ("camelot", "cam", "chivalry", "camette")
SWITCHES = ({}, {"selective": 1}, {"nullmove": 1}, {"ttmove": 1},
            {"jump_ext": 1, "qthreat": 1}, {"pvs": 1, "lmr": 1, "prune": 1},
            {"selective": 1, "lmrlog": 2, "lmr_threat": 1, "order_adv": 1},
            {"selective": 1, "hist_malus": 1, "fresh_offers": 1})


def _search(pos, depth, **switches):
    staged: list = []

    def note(kind, at, move, remaining, search):
        if kind == "staged":
            staged.append((at.copy(), move, tuple(search.killers[at.ply - search.root_pos.ply])))

    result = watched(pos, depth, note, **switches)
    info = result.info
    return staged, (info.nodes, result.best, info.score_cp, info.score_win, info.pv)


# Depth 4 where a switch needs it to act: late-move reductions from remaining depth 3,
# aspiration windows from iteration 4.
CASES = [(v, {}, 3) for v in TWO_SIDED] + [("camelot", s, 4 if "lmr" in s or "selective" in s
                                             else 3) for s in SWITCHES if s]


@pytest.mark.parametrize("variant, switches, depth", CASES,
                         ids=[f"{v}-{','.join(s) or 'play'}-{d}" for v, s, d in CASES])
def test_the_staged_search_is_the_same_search(variant, switches, depth):
    used = 0
    # (Camette's random games are short; depth 4 searches fewer positions.)
    every = 3 if variant == "camette" else 15 if depth == 3 else 30
    for pos in game_positions(variant, seed=7, plies=60, every=every):
        staged, on = _search(pos, depth, **switches)
        _, off = _search(pos, depth, stage=0, **switches)
        assert on == off, pos
        used += len(staged)
    assert used, "no killer was ever staged: the test checked nothing"


def test_each_staged_move_is_a_killer_and_the_first_of_the_full_order():
    checked = 0
    for pos in game_positions("camelot", seed=7, plies=60, every=10):
        staged, _ = _search(pos, 3)
        for at, move, killers in staged[::4]:
            assert move._key in killers
            moves = movegen.generate(at)
            assert move in moves and len(moves) > 1
            assert not movegen.must_capture(at) and not movegen.duty_pieces(at, at.turn)
            target = at.variant.target_bits[at.turn]
            kn = at.kn[0] | at.kn[1]
            # Nothing the order puts before killers: no entry, no capture (a charge).
            assert not [m for m in moves if m.capture_bits or target >> m.end & 1]
            k1, k2 = killers
            keys = [order_key(m, at.turn, target, kn, None, k1, k2, {}) for m in moves]
            assert order_key(move, at.turn, target, kn, None, k1, k2, {}) == max(keys)
            checked += 1
    assert checked > 20


def test_after_a_killer_that_does_not_cut_the_rest_keep_the_order_of_before_its_search():
    """The killer's search changes the history; the moves after it are still searched in
    the order the full list had when the killer was tried (the journal of history
    changes), as the search without staging does."""
    expected: dict[int, list] = {}
    resumed = 0

    def note(kind, at, move, remaining, search):
        nonlocal resumed
        ply = at.ply - search.root_pos.ply
        if kind == "staged":
            expected[ply] = search._order(at, movegen.generate(at), None, ply)
        elif kind == "resumed":
            assert expected[ply][0] not in move
            assert [m.key for m in move] == [m.key for m in expected[ply][1:]]
            resumed += 1

    for pos in game_positions("camelot", seed=7, plies=60, every=30):
        watched(pos, 4, note)
    assert resumed > 50


def test_the_rest_is_ordered_by_the_history_of_before_the_killers_search():
    """What the journal is for: a history entry raised during the killer's search does
    not move its move up in the rest of the list (in the games above such a raise seldom
    reorders anything, so this sets one up)."""
    pos = Position.start("camelot")
    searcher = Searcher()
    searcher.search(pos, Limits(depth=1), lambda info: None, StopFlag())
    search = searcher._search
    search.history = {}
    moves = movegen.generate(pos)
    staged, late = moves[3], moves[-1]
    search.killers[1] = [staged.key, None]
    unchanged = [m for m in search._order(pos, moves, None, 1) if m != staged]
    mark = len(search.journal)
    search.staged_open += 1
    search._reward(pos.turn, late, 4, 7)  # as a cut-off deeper in the killer's search
    assert search._order(pos, moves, None, 1)[1] == late  # raised above every other
    assert search._rest_after(pos, staged, None, 1, mark) == unchanged
    assert search.staged_open == 0 and search.journal == []


@pytest.mark.parametrize("variant", ("camelot", "cam", "chivalry", "camette", "tri-camelot",
                                     "grand-cam"))
def test_no_entry_or_charge_is_missed_where_the_test_says_none(variant):
    said_none = said_maybe = 0
    for seed in range(3):
        for pos in game_positions(variant, seed=seed, plies=160, every=1):
            seat = pos.turn
            if movegen.duty_pieces(pos, seat) or movegen.must_capture(pos):
                continue
            sv = movegen.SeatView(pos, seat)
            special = [m for m in movegen.generate(pos)
                       if m.capture_bits or sv.target >> m.end & 1]
            if movegen.may_enter_or_charge(pos, sv):
                said_maybe += 1
            else:
                assert not special, (pos, special)
                said_none += 1
    assert said_none and said_maybe
