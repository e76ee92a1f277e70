"""Null-move pruning (switch `nullmove`; docs/search.md, "Null move"): the side to move
passes and the other side's reply is searched shallower. Passing is not a legal move, so a
pass may be tried only where it could stand in for one: two seats, no capture duty, no
exit duty, at least NULL_MIN_PIECES pieces of the mover, never right after another pass,
and the position is left exactly as it was."""

from __future__ import annotations

import pytest
from builders import setup
from watching import assert_gated, game_positions, watched

from canter.engine import Position
from canter.engine.rules import movegen
from canter.engine.search.alphabeta import NULL_MIN_PIECES
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher


def passes_seen(pos: Position, depth: int, **switches) -> tuple[list, object]:
    seen: list = []

    def note(kind, at, move, remaining, search):
        if kind == "null":
            seen.append((at.variant.nseats, movegen.must_capture(at), at.duty[at.turn],
                         at.occ[at.turn].bit_count(), remaining, len(at.move_stack)))

    before = (pos.to_string(), pos.hash, pos.turn, len(pos.move_stack))
    result = watched(pos, depth, note, **switches)
    assert (pos.to_string(), pos.hash, pos.turn, len(pos.move_stack)) == before
    return seen, result


@pytest.mark.parametrize("variant,seed,plies", [("camelot", 1, 40), ("camelot", 2, 40),
                                                ("chivalry", 4, 60), ("cam", 5, 24)])
def test_passes_only_where_a_pass_could_stand_in_for_a_move(variant, seed, plies):
    tried = 0
    for pos in game_positions(variant, seed, plies=plies, every=plies // 2):
        seen, result = passes_seen(pos, depth=4, nullmove=1)
        assert result.best in pos.legal_moves()
        for nseats, duty, exit_cell, pieces, remaining, plies in seen:
            assert nseats == 2
            assert not duty, "a pass under a capture duty"
            assert not exit_cell, "a pass under an exit duty"
            assert pieces >= NULL_MIN_PIECES
            assert remaining >= 2
            assert plies > len(pos.move_stack), "a pass at the root"
        tried += len(seen)
    # The searches did pass, so the checks above checked something.
    assert tried > 0


def test_off_by_switch_and_never_in_three_seat_or_team_games():
    pos = game_positions("cam", 5, plies=24, every=12)[0]
    assert_gated(passes_seen, "nullmove", 4, pos, never=(("tri-camelot", 7), ("grand-cam", 9)),
                 never_depth=3)


def test_a_capture_duty_is_never_passed():
    # White must capture (D6 beside D7, D8 empty): every root line starts with a capture,
    # and no pass is tried in the position itself.
    pos = setup("camelot", w="D6 E6 F6 G6 H6 KC6", b="D7 L12 K12 J12 I12 KH12")
    assert movegen.must_capture(pos)
    seen, result = passes_seen(pos, depth=4, nullmove=1)
    assert result.best.capture_bits
    assert all(plies > 0 and not duty for _, duty, _, _, _, plies in seen)


@pytest.mark.parametrize("depth", [2, 3, 4, 5])
def test_a_threatened_castle_entry_is_still_seen(depth):
    # Black to move cannot stop G15-G16: a pass by Black would show the same loss, so
    # passes must not hide it (each root move's subtree must find the entry).
    pos = setup("camelot", turn="b", w="F16 G15 A6 B6 C6", b="L5 K5 L8 K9 J10")
    searcher = Searcher()
    searcher._search.options["nullmove"] = 1
    infos = []
    searcher.search(pos, Limits(depth=depth), infos.append, StopFlag())
    assert infos[-1].score_win == -1


def test_same_moves_and_scores_as_without_passes_in_quiet_positions():
    # Null-move pruning cuts nodes, not results, in ordinary middlegames: at depth 4 the
    # last three Camelot bench positions keep their move and score, and take fewer nodes
    # between them (one alone may take a node or two more: a pass's table entries change
    # the order of what follows).
    from canter.engine.search.bench import bench_positions

    nodes = [0, 0]
    for pos in [p for p in bench_positions() if p.variant.name == "camelot"][2:]:
        results = []
        for on in (0, 1):
            searcher = Searcher()
            searcher.use_proofs = False
            searcher._search.options["nullmove"] = on
            infos = []
            r = searcher.search(pos, Limits(depth=4), infos.append, StopFlag())
            results.append((r.best, infos[-1].score_cp, infos[-1].nodes))
        assert results[0][:2] == results[1][:2]
        nodes[0] += results[0][2]
        nodes[1] += results[1][2]
    assert nodes[1] < nodes[0]


def test_a_pass_flips_the_turn_and_hash_and_is_undone_exactly():
    pos = game_positions("camelot", 1, plies=40, every=20)[0]
    before = (pos.to_string(), pos.hash, pos.turn, len(pos.move_stack))
    pos.push_null()
    assert pos.turn == 1 - before[2]
    assert pos.hash == pos.compute_hash() != before[1]
    assert len(pos.move_stack) == before[3]
    pos.pop_null()
    assert (pos.to_string(), pos.hash, pos.turn, len(pos.move_stack)) == before
