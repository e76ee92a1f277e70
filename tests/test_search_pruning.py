"""The exclusions of the search's selectivity (docs/search.md, "Selectivity"; on in the play of
Camelot, Chivalry and Cam, off in the other games, switched on here with `selective=1`): a move
is pruned (futility, late-move pruning) or reduced (LMR) only when it is quiet — no capture,
no entry into the mover's target castle — and never in a position under a capture duty; an
offer (a move after which the reply must capture; with `fresh_offers`, on in Camelot, only
where the other side could not capture before it) may be reduced but is never pruned. Every
pruned or reduced move is reported to `Search.watch`; these tests watch searches along
seeded random games of every two-sided game and check each report against the rules library."""

from __future__ import annotations

import pytest
from builders import setup
from watching import game_positions, watched

from canter.engine import Position
from canter.engine.rules import movegen
from canter.engine.search.alphabeta import LMR_DEPTH, ROOT_LMR_FROM
from canter.engine.search.common import INF, NO_CUTOFF, WIN_BOUND
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher


def watched_search(pos: Position, depth: int, **switches) -> tuple[list, object]:
    """A search with the selectivity on (whatever the game's default) and every decision
    recorded."""
    seen: list = []

    def note(kind, at, move, remaining, search):
        if kind not in ("pruned", "reduced"):
            return  # (the search reports other decisions too: passes, staged killers)
        target = at.variant.target_bits[at.turn]
        after = at.copy()
        after.push(move)
        # With `fresh_offers` (on in Camelot) only a fresh offer counts: one where the
        # other side could not capture before the move.
        offer = movegen.must_capture(after) and not (
            search.fresh_offers and movegen.must_capture(at, 1 - at.turn))
        seen.append((kind, remaining, bool(move.capture_bits), bool(target >> move.end & 1),
                     movegen.must_capture(at), offer))

    return seen, watched(pos, depth, note, **{"selective": 1, **switches})


@pytest.mark.parametrize("variant,seed", [("camelot", 1), ("camelot", 2), ("cam", 3),
                                          ("chivalry", 4), ("grand-cam", 5)])
def test_only_quiet_moves_are_pruned_or_reduced(variant, seed):
    kinds = set()
    for pos in game_positions(variant, seed, plies=48, every=16):
        seen, result = watched_search(pos, depth=4)
        assert result.best is not None
        for kind, remaining, capture, entry, duty, offer in seen:
            kinds.add(kind)
            assert not capture, f"{kind} a capture at depth {remaining}"
            assert not entry, f"{kind} a castle entry at depth {remaining}"
            assert not duty, f"{kind} a move under a capture duty at depth {remaining}"
            # An offer (the reply must capture) may be reduced, never pruned.
            assert not (offer and kind == "pruned"), f"pruned an offer at depth {remaining}"
    # The watch saw the rules at work, so the checks above checked something.
    assert kinds == {"pruned", "reduced"} if variant == "camelot" else "reduced" in kinds


def test_fresh_offers_prune_an_offer_only_where_a_capture_already_stood():
    # `fresh_offers`: a quiet move after which the reply must capture counts as an offer
    # (never pruned) only if the other side could not capture before it. With the switch,
    # every offer pruned leaves a capture standing, and captures, castle entries and moves
    # under a capture duty are still never pruned.
    pruned_offers = 0

    def note(kind, at, move, remaining, search):
        nonlocal pruned_offers
        if kind != "pruned":
            return
        target = at.variant.target_bits[at.turn]
        assert not move.capture_bits and not target >> move.end & 1
        assert not movegen.must_capture(at)
        after = at.copy()
        after.push(move)
        if movegen.must_capture(after):
            assert movegen.must_capture(at, 1 - at.turn), f"pruned a fresh offer {move}"
            pruned_offers += 1

    for seed in (1, 2):
        for pos in game_positions("camelot", seed, plies=48, every=16):
            watched(pos, 4, note, selective=1, fresh_offers=1)
    assert pruned_offers > 0, "no offer was pruned: the test checked nothing"


def test_duty_pat_stands_only_under_a_capture_duty_and_far_above_beta():
    # `duty_pat=N`: a quiescence node whose side to move must capture takes its static
    # score only when that score is N or more above beta; a quiet node never reports it.
    margin = 100
    stands = []

    def note(kind, at, move, remaining, search):
        if kind == "duty-pat":
            static, beta = move
            assert movegen.must_capture(at), "stood pat where no capture was compulsory"
            assert static - beta >= margin, f"stood pat {static - beta} above beta"
            assert static == search._static(at)
            stands.append(remaining)

    for seed in (1, 2):
        for pos in game_positions("camelot", seed, plies=48, every=16):
            watched(pos, 4, note, duty_pat=margin)
    assert stands, "no node stood pat: the test checked nothing"


@pytest.mark.parametrize("variant,switches", [("camelot", {}), ("tri-camelot", {"duty_pat": 100})])
def test_duty_pat_is_off_by_default_and_for_three_seats(variant, switches):
    kinds = set()
    for pos in game_positions(variant, 1, plies=24, every=12):
        watched(pos, 3, lambda kind, *rest: kinds.add(kind), **switches)
    assert "duty-pat" not in kinds


def test_one_reply_extension_at_the_pruning_horizon_does_not_break_the_search():
    # Two plies on, White has a single quiet move at remaining depth 3 of a depth-4 search:
    # the single-reply extension raises that node to depth 4, beyond the late-move table.
    pos = Position.from_string("camelot 2/8/10/5W6/12/7W4/3w8/8b3/12/4w2wWw2/5w6/3w1w2ww2/"
                               "12/10/8/1B b 0,0 - - 4 33")
    for depth in (3, 4, 5):
        seen, result = watched_search(pos, depth=depth)
        assert result.best in pos.legal_moves()


def test_weights_beyond_reason_never_pose_as_a_forced_win():
    # A Knight worth a million (options bypass the EvalFile bounds): the static score is
    # capped, so no search reports a win that is not there.
    pos = setup("camelot", w="KD6 KE6 KF6 A8", b="L12")
    searcher = Searcher()
    searcher._search.options.update({"w_knight": 10**6, "selective": 1})
    infos = []
    searcher.search(pos, Limits(depth=2), infos.append, StopFlag())
    assert all(info.score_win is None for info in infos)
    assert infos[-1].score_cp is not None and infos[-1].score_cp > 1000


@pytest.mark.parametrize("depth", [2, 3, 4])
def test_a_castle_entry_inside_the_tree_is_seen_from_every_root_move(depth):
    # Black to move cannot stop G15-G16 (White's second piece into the castle): every Black
    # move loses, so each root move's null-window subtree (pruning allowed) must find the
    # entry, or some move would look safe.
    pos = setup("camelot", turn="b", w="F16 G15 A6 B6 C6", b="L5 K5 L8 K9 J10")
    infos = []
    searcher = Searcher()
    searcher._search.options["selective"] = 1
    searcher.search(pos, Limits(depth=depth), infos.append, StopFlag())
    assert infos[-1].score_win == -1


def test_three_seats_neither_prune_nor_reduce():
    # (Best-Reply Search has its own tree and never calls negamax: paranoid is the case.)
    pos = game_positions("tri-camelot", 7, plies=12, every=12)[0]
    searcher = Searcher()
    seen = []
    searcher._search.watch = lambda kind, *args: kind in ("pruned", "reduced") and seen.append(
        args)
    searcher.search(pos, Limits(depth=4), lambda info: None, StopFlag())
    assert seen == []


def _played(pos: Position, depth: int) -> list:
    """What a search as the engine plays (the game's own defaults) prunes or reduces."""
    seen: list = []
    searcher = Searcher()
    searcher._search.watch = lambda kind, *args: kind in ("pruned", "reduced") and seen.append(
        args)
    searcher.search(pos, Limits(depth=depth), lambda info: None, StopFlag())
    return seen


def test_switches_turn_selectivity_off_and_play_has_it_in_camelot_chivalry_and_cam_only():
    pos = game_positions("camelot", 8, plies=24, every=24)[0]
    seen, _ = watched_search(pos, depth=4)
    assert seen
    seen, _ = watched_search(pos, depth=4, lmr=0, prune=0)
    assert seen == []
    # Kept by the strength test at 10+0.1 in Camelot, Chivalry and Cam.
    assert _played(pos, 4)
    assert _played(game_positions("chivalry", 4, plies=16, every=8)[0], 4)
    assert _played(game_positions("cam", 3, plies=16, every=8)[0], 4)
    # Camette scored flat with it: full width.
    for variant, seed, plies in (("camette", 3, 8),):
        other = game_positions(variant, seed, plies=plies, every=8)[0]
        assert watched_search(other, depth=4)[0]  # the position has moves to prune
        assert _played(other, 4) == []


@pytest.mark.parametrize("seed", [7, 8])
def test_logarithmic_reductions_keep_the_exclusions_and_reach_depth_two(seed):
    # `lmrlog` reduces from remaining depth 2 (the plain LMR from 3), by more plies the
    # later the move: the same exclusions must hold there.
    depths = set()
    for pos in game_positions("camelot", seed, plies=48, every=16):
        seen, result = watched_search(pos, depth=4, lmrlog=1)
        assert result.best is not None
        for kind, remaining, capture, entry, duty, offer in seen:
            assert not (capture or entry or duty), f"{kind} a non-quiet move at {remaining}"
            assert not (offer and kind == "pruned"), f"pruned an offer at {remaining}"
            if kind == "reduced":
                depths.add(remaining)
    assert 2 in depths


def test_logarithmic_reduction_table():
    from canter.engine.search.alphabeta import lmr_log_table
    # round(ln(depth) * ln(index) / n), at least one ply.
    one, two, three = (lmr_log_table(n) for n in (1, 2, 3))
    assert one[2][3] == 1 and one[2][20] == 2  # 0.76 -> 1; 2.08 -> 2
    assert one[6][20] == 5 and two[6][20] == 3  # 5.37; 2.68
    assert three[4][4] == 1  # 0.64 -> at least one


def _threat_reductions(seed: int, **switches) -> tuple[int, int]:
    """(moves reduced, those of them after which the mover could capture if it moved
    again) over the searches along a seeded random Camelot game."""
    reduced = threats = 0

    def note(kind, at, move, remaining, search):
        nonlocal reduced, threats
        if kind == "reduced":
            after = at.copy()
            after.push(move)
            reduced += 1
            threats += movegen.must_capture(after, at.turn)

    for pos in game_positions("camelot", seed, plies=48, every=16):
        watched(pos, 4, note, selective=1, lmrlog=2, **switches)
    return reduced, threats


def test_lmr_threat_never_reduces_a_move_that_threatens_a_capture():
    # Reduced from remaining depth 2, such a move's reply would be a quiescence leaf where
    # the threat is never carried out. Without the switch such moves are reduced.
    assert _threat_reductions(7)[1] > 0
    reduced, threats = _threat_reductions(7, lmr_threat=1)
    assert reduced > 0 and threats == 0


@pytest.mark.parametrize("game, switch, on", [
    ("camelot", 0, False), ("camelot", 1, True), ("camelot", None, True),
    ("chivalry", None, True), ("chivalry", 0, False), ("cam", None, False), ("cam", 1, True),
])
def test_root_reductions_take_only_late_quiet_root_moves(game, switch, on):
    # `root_lmr`: a root move is searched a ply shallower first only from the order's
    # ROOT_LMR_FROM-th move, at depth LMR_DEPTH or more, and never a capture (so never
    # under a capture duty) or a castle entry. On by default in Camelot and Chivalry
    # (switch None: the game's default). Chivalry's bigger board searches slower: fewer
    # positions, a ply less (root reductions start at LMR_DEPTH, 3); Cam's as many.
    reduced = []
    positions = [Position.start(game)]
    for seed in (1, 2, 6) if game != "chivalry" else (1,):
        positions += game_positions(game, seed, plies=40, every=10)
    depth = 4 if game == "camelot" else LMR_DEPTH
    for pos in positions:

        def note(kind, at, move, remaining, search, pos=pos):
            if kind != "root-reduced":
                return
            assert at.hash == pos.hash  # reported from the root itself
            target = at.variant.target_bits[at.turn]
            index = search.currmovenumber - 1
            reduced.append((remaining, index, bool(move.capture_bits),
                            bool(target >> move.end & 1), movegen.must_capture(at)))

        switches = {} if switch is None else {"root_lmr": switch}
        watched(pos, depth, note, **switches)
    assert len(positions) >= 4
    if not on:
        assert reduced == []
        return
    assert reduced, "no root move was reduced: the test checked nothing"
    for remaining, index, capture, entry, duty in reduced:
        assert remaining >= LMR_DEPTH and index >= ROOT_LMR_FROM
        assert not capture and not entry and not duty


def scripted_root(worth: dict[str, int], margin: int) -> tuple[list, list[str]]:
    """One root iteration over moves named by letters, each child search answering from
    `worth` within its window (fail-hard), with `root_margin` at `margin`: the root lines,
    and the moves searched again with a full window."""
    from canter.engine.search.alphabeta import RootLine, Search
    from canter.engine.search.tt import TranspositionTable

    search = Search(TranspositionTable(1))
    search.root_margin, search.root_lmr, search.watch = margin, False, None
    search.pv = [[], []]
    again = []

    def child(line, depth, alpha, beta):
        if beta - alpha > 1:
            again.append(line.move)
        value = worth[line.move]
        return value if alpha < value < beta else (alpha if value <= alpha else beta)

    search.child = child
    search._first_child = lambda line, depth, k: worth[line.move]
    lines = [RootLine(m, i) for i, m in enumerate(worth)]
    search._iterate(lines, 5, 1)
    return lines, again


@pytest.mark.parametrize("margin, searched_again, best", [
    (0, ["b", "c"], "c"),  # b beats the floor by 3: searched again, then c
    (4, ["c"], "c"),  # b's 3 points are within the margin; c's 20 are not
    (25, [], "a"),  # nothing beats the first move by more than 25
])
def test_a_root_margin_searches_again_only_moves_that_beat_the_floor_by_more(
        margin, searched_again, best):
    # `root_margin=N`: a later root move's null window is set N points above the best
    # score so far; a move that stays within it is held at the floor (an upper bound may
    # not pass for the best exact score), and one that beats it gets a full window.
    worth = {"a": 10, "b": 13, "c": 30, "d": 5}
    lines, again = scripted_root(worth, margin)
    assert again == searched_again
    top = max((x for x in lines if x.exact), key=lambda x: x.score)
    assert top.move == best and top.score == worth[best]
    assert all(x.score <= top.score for x in lines)
    b = lines[1]
    assert (b.exact, b.score) == ((True, 13) if margin == 0 else (False, 10))


def test_no_root_margin_beside_a_won_score():
    # Between wins a few points are plies: a faster win found later is always taken.
    from canter.engine.search.alphabeta import WIN

    lines, _ = scripted_root({"a": WIN - 7, "b": WIN - 3}, 8)
    assert (lines[1].exact, lines[1].score) == (True, WIN - 3)


def test_internal_iterative_reduction_only_where_the_table_has_no_move():
    # `iir=3`: a node of remaining depth 3 or more with no table move is searched a ply
    # shallower. Each one reported must be that deep, and the table must hold no move for
    # it at that moment (the reduction is decided right after the table is read).
    reduced = []

    def note(kind, at, move, remaining, search):
        if kind != "iir":
            return
        assert remaining >= 3, f"reduced at remaining depth {remaining}"
        stored = search.tt.lookup(at.hash ^ search.salt, NO_CUTOFF, -INF, INF, 0, WIN_BOUND)
        assert stored[1] is None, "reduced a node the table holds a move for"
        reduced.append(remaining)

    for pos in game_positions("camelot", 3, plies=40, every=10):
        result = watched(pos, 5, note, iir=3)
        assert result.best in pos.legal_moves()
    assert reduced, "no node was reduced: the test checked nothing"


@pytest.mark.parametrize("variant,switches", [("camelot", {}), ("tri-camelot", {"iir": 3})])
def test_internal_iterative_reduction_is_off_by_default_and_for_three_seats(variant, switches):
    kinds = set()
    for pos in game_positions(variant, 1, plies=24, every=12):
        watched(pos, 4, lambda kind, *rest: kinds.add(kind), **switches)
    assert "iir" not in kinds
