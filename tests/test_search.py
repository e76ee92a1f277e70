"""The searcher on hand-built positions: forced wins found, one-move losses avoided, both
games and both three-seat algorithms; determinism; limits and stop latency."""

from __future__ import annotations

import threading
import time

import pytest
from builders import setup

from canter.engine import Position, format_move, parse_move
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher


def search(pos: Position, algorithm: str = "paranoid", **limits):
    s = Searcher()
    s.algorithm = algorithm
    infos = []
    result = s.search(pos, Limits(**limits), infos.append, StopFlag())
    return result, infos


def spelled(pos: Position, move) -> str:
    return format_move(pos.variant, move)


def opponent_wins_at_once(pos: Position, move) -> bool:
    """After `move`, can the next seat win with its reply?"""
    me = pos.turn
    pos.push(move)
    try:
        if pos.outcome() is not None:
            return False
        for reply in pos.legal_moves():
            pos.push(reply)
            out = pos.outcome()
            pos.pop()
            if out is not None and out.winner is not None and out.winner != me:
                return True
        return False
    finally:
        pos.pop()


# ---- Camelot --------------------------------------------------------------------------
# White already has a Man in the black castle (F16); the second one needs 1, 2, 3 steps.
# Black's two Men are far away on the a-file and cannot interfere in time.
@pytest.mark.parametrize("runner,n,depth", [("G15", 1, 2), ("G14", 2, 4), ("G13", 3, 6)])
def test_camelot_castle_entry_in_n(runner, n, depth):
    pos = setup("camelot", w=f"F16 {runner} B4", b="A9 A10")
    result, infos = search(pos, depth=depth)
    assert infos[-1].score_win == n
    pos.push(result.best)
    if n == 1:
        assert pos.outcome() is not None and pos.outcome().winner == 0
    else:
        assert pos.variant.cell_name(result.best.end)[0] in "FGH"  # the runner advanced


def test_camelot_winning_multi_jump_preferred():
    # D4 jumps D5 and D7 (the last black pieces): White wins. C6 takes only one.
    pos = setup("camelot", w="D4 C6 K10", b="D5 D7")
    captures = {spelled(pos, m) for m in pos.legal_moves()}
    assert captures == {"D4xD6xD8", "C6xE8", "C6xE4"}
    result, infos = search(pos, depth=2)
    assert spelled(pos, result.best) == "D4xD6xD8"
    assert infos[-1].score_win == 1


def test_camelot_one_move_loss_avoided():
    # Black (a Man in F1) threatens H2-G1. White may take the Knight on D9 (more material)
    # or the Man on H2; only the latter survives. (J2 keeps H2 from jumping I2.)
    pos = setup("camelot", w="I2 J2 C8 K10 L10", b="F1 H2 KD9 A13")
    moves = pos.legal_moves()
    assert {spelled(pos, m) for m in moves} == {"I2xG2", "C8xE10"}
    assert opponent_wins_at_once(pos, [m for m in moves if spelled(pos, m) == "C8xE10"][0])
    result, _ = search(pos, depth=3)
    assert spelled(pos, result.best) == "I2xG2"


def test_camelot_quiet_move_that_loses_is_avoided():
    # Black: a Man in F1 and one on I3, with J4 behind it. A White piece stepping to H2
    # would be jumped into G1 (I3xH2 ends in the castle: Black wins). Most moves of the
    # far pieces leave H2 occupied by White — and that too loses.
    pos = setup("camelot", w="H2 A8 B8 KL8", b="F1 I3 J4")
    moves = pos.legal_moves()
    losing = [m for m in moves if opponent_wins_at_once(pos, m)]
    assert losing and len(losing) < len(moves)
    result, _ = search(pos, depth=3)
    assert not opponent_wins_at_once(pos, result.best)


# ---- Cam, Camette, Chivalry -------------------------------------------------------------
# Cam: one piece in the castle D13 wins; the runner needs 1, 2, 3 steps and Black's two Men
# on the a-file are much further from White's castle D1.
@pytest.mark.parametrize("runner,n,depth", [("D12", 1, 2), ("D11", 2, 4), ("D10", 3, 6)])
def test_cam_castle_entry_in_n(runner, n, depth):
    pos = setup("cam", w=f"{runner} G4", b="A10 A9")
    result, infos = search(pos, depth=depth)
    assert infos[-1].score_win == n
    pos.push(result.best)
    assert pos.variant.cell_name(result.best.end) == f"D{int(runner[1:]) + 1}"


def test_camette_takes_both_pieces_rather_than_one():
    # Two captures are legal: C3xA5 takes B4 and leaves D5; A3xC5xE5 takes both and wins
    # (capturing everything wins in Camette, whatever is left).
    pos = setup("camette", w="C3 A3", b="B4 D5")
    assert {spelled(pos, m) for m in pos.legal_moves()} == {"C3xA5", "A3xC5xE5"}
    result, infos = search(pos, depth=2)
    assert spelled(pos, result.best) == "A3xC5xE5"
    assert infos[-1].score_win == 1


def test_chivalry_second_piece_into_the_castle():
    pos = setup("chivalry", w="G16 H14 A8", b="N5 N6")
    result, infos = search(pos, depth=4)
    assert infos[-1].score_win == 2
    assert spelled(pos, result.best) in {"H14-H15", "H14-G15", "H14-I15"}


# ---- Tri-Camelot ----------------------------------------------------------------------
# Blue's target is the red castle A16; Blue has only the runner, so Red (E2) and Green (J9),
# one far Man each, cannot delay it by offering a compulsory capture.
@pytest.mark.parametrize("algorithm", ["paranoid", "brs", "brs+", "maxn"])
@pytest.mark.parametrize("runner,n,depth", [("B15", 1, 2), ("B13", 2, 5), ("B11", 3, 7)])
def test_tri_castle_entry_in_n(runner, n, depth, algorithm):
    pos = setup("tri-camelot", turn="b", b=runner, r="E2", g="J9")
    result, infos = search(pos, algorithm, depth=depth)
    assert infos[-1].score_win == n
    if n == 1:
        assert pos.variant.cell_name(result.best.end) == "A16"


@pytest.mark.parametrize("algorithm", ["paranoid", "brs", "brs+", "maxn"])
def test_tri_winning_multi_jump(algorithm):
    # F7 jumps Red's F9 and Green's F13, the last pieces of both: Blue wins. G8xE10 takes
    # only Red's.
    pos = setup("tri-camelot", turn="b", b="F7 G8 D3", r="F9", g="F13")
    moves = {spelled(pos, m) for m in pos.legal_moves()}
    assert moves == {"F7xF11xF15", "G8xE10"}
    result, infos = search(pos, algorithm, depth=2)
    assert spelled(pos, result.best) == "F7xF11xF15"
    assert infos[-1].score_win == 1


@pytest.mark.parametrize("algorithm", ["paranoid", "brs", "brs+", "maxn"])
def test_tri_one_move_loss_avoided(algorithm):
    # Red (next to move) threatens J15-K16, its target. Blue can take that Man (J13xJ17)
    # or Green's Knight (F9xH11); only the first stops Red. (J11 keeps J15 from jumping J13.)
    pos = setup("tri-camelot", turn="b", b="J13 J11 F9 D3", r="J15 B11", g="KG10 A12")
    moves = {spelled(pos, m): m for m in pos.legal_moves()}
    assert set(moves) == {"J13xJ17", "F9xH11"}
    assert opponent_wins_at_once(pos, moves["F9xH11"])
    result, _ = search(pos, algorithm, depth=3)
    assert spelled(pos, result.best) == "J13xJ17"


# ---- determinism, limits, stop ----------------------------------------------------------
MIDGAME = ("D6-F8 H11-F9 C6-E8-G8 J11-H11 H6-H8 E11-G9 J6-H6 C11-E11 I6-I8 D11-D9")


def midgame() -> Position:
    from canter.engine import parse_move

    pos = Position.start("camelot")
    for text in MIDGAME.split():
        pos.push(parse_move(pos, text))
    return pos


@pytest.mark.parametrize("limits", [{"depth": 2}, {"nodes": 3000}])
def test_same_move_and_node_count_every_run(limits):
    runs = []
    for _ in range(2):
        result, infos = search(midgame(), **limits)
        runs.append((spelled(midgame(), result.best), infos[-1].nodes, result.info.nodes))
    assert runs[0] == runs[1]
    if "nodes" in limits:
        assert runs[0][2] <= 3000


def test_tri_node_count_repeats_and_clear_restores_it():
    pos = Position.start("tri-camelot")
    s = Searcher()
    first = s.search(pos, Limits(depth=3), lambda i: None, StopFlag()).info.nodes
    s.clear()
    again = s.search(pos, Limits(depth=3), lambda i: None, StopFlag()).info.nodes
    assert first == again


def test_single_legal_move_answers_at_once():
    pos = setup("camelot", w="D4 K10", b="D5 A13 A12")
    assert len(pos.legal_moves()) == 1
    result, infos = search(pos, depth=20)
    assert result.best == pos.legal_moves()[0]
    assert infos[-1].nodes <= 1


@pytest.mark.parametrize("limits", [{"depth": 6}, {"nodes": 5000},
                                    {"time": {0: 30.0, 1: 30.0}}])
def test_single_legal_move_reports_the_score_searched_after_it(limits):
    """The capture F8xF10 is White's only move. Its score is the move searched (depth 1:
    the move and the quiescence after it), not the static score of the position before
    it, which the shortcut once reported."""
    pos = Position.from_string(
        "camelot 2/8/10/12/12/12/12/5b5b/5w6/12/12/12/4w7/10/8/2 w 0,0 - - 0 30")
    (only,) = pos.legal_moves()
    result, infos = search(pos, **limits)
    assert result.best == only and infos[-1].depth == 1
    _, analysed = search(pos, depth=1, searchmoves=[only])
    assert infos[-1].score_cp == analysed[-1].score_cp
    static = Searcher()._search.evaluator(pos).relative(pos, pos.turn)
    assert infos[-1].score_cp != static


def test_a_single_move_named_by_searchmoves_is_searched_to_the_depth_asked():
    pos = Position.start("camelot")
    move = parse_move(pos, "C6-C7")
    _, infos = search(pos, depth=3, searchmoves=[move])
    assert [i.depth for i in infos] == [1, 2, 3]
    assert all(i.pv[0] == move for i in infos)
    # One move a proof leaves (the searcher narrows the root itself) is no move to
    # analyse: answered at once, as a single legal move is.
    _, infos = search(pos, depth=3, searchmoves=[move], narrowed=True)
    assert [i.depth for i in infos] == [1]


# The single-reply shortcut reports an exact score when its move decides the game.
@pytest.mark.parametrize("string", [
    # F8xF10 takes Black's last piece.
    "camelot 2/8/10/12/12/12/12/5b6/5w6/12/12/12/4w7/10/8/2 w 0,0 - - 0 30",
    # Blue's only move F1xD3xF5 takes Red's and Green's last Men.
    "tri-camelot 4/5/6/5/6/5/6/5/4/5/4/3/4/3/g1/3/r1/b b 0,0,0 - - 0 40",
])
@pytest.mark.parametrize("algorithm", ["paranoid", "brs", "brs+", "maxn"])
def test_single_legal_move_that_wins_is_mate_in_one(string, algorithm):
    pos = Position.from_string(string)
    assert len(pos.legal_moves()) == 1
    result, infos = search(pos, algorithm, depth=3)
    assert [(i.score_win, i.score_cp) for i in infos] == [(1, None)]
    mover = pos.turn
    pos.push(result.best)
    assert pos.outcome().winner == mover


def test_single_legal_move_that_draws_scores_zero():
    # White's Man in the black castle can only step to G16: the 100th quiet ply.
    pos = setup("camelot", w="F16", b="A6 L12 L13")
    pos.quiet = pos.rules.quiet_limit - 1
    assert len(pos.legal_moves()) == 1 and pos.outcome() is None
    result, infos = search(pos, depth=3)
    assert [(i.score_win, i.score_cp) for i in infos] == [(None, 0)]
    pos.push(result.best)
    assert pos.outcome() is not None and pos.outcome().winner is None


def test_leaving_no_move_on_the_hundredth_quiet_ply_wins_not_draws():
    # The quiet-move draw is the rules' sixth ending, no legal move the fourth: L7-L6 on
    # the 100th quiet ply leaves Black walled in, a win; every other move draws.
    pos = Position.from_string("camelot 2/8/10/12/12/12/12/12/12/11w/9w2/10ww/9wwb/9w/7w/b1"
                               " w 0,2 - - 99 120")
    after = pos.copy()
    after.push(next(m for m in pos.legal_moves() if spelled(pos, m) == "L7-L6"))
    assert after.outcome().text() == "white wins: black has no legal move"
    result, infos = search(pos, depth=3)
    assert spelled(pos, result.best) == "L7-L6" and infos[-1].score_win == 1


def test_a_win_is_counted_in_rounds_of_the_seats_still_in_play():
    # Red is out: Green's win in two own moves is four plies of two seats, not of three.
    pos = Position.from_string("tri-camelot 4/5/6/5/5b/5/6/5/4/5/4/3/4/1G1/2/3/2/1 g 0,0,0 "
                               "- r 0 0")
    result, infos = search(pos, depth=4)
    assert infos[-1].score_win == 2


def test_movetime_is_kept():
    started = time.monotonic()
    result, _ = search(Position.start("camelot"), movetime=0.3)
    elapsed = time.monotonic() - started
    assert result.best in Position.start("camelot").legal_moves()
    assert elapsed < 3.0  # (a search that ignored it runs to depth 60: minutes)


def test_stop_is_answered_quickly():
    pos = Position.start("camelot")
    stop = StopFlag()
    s = Searcher()
    out = {}

    def run():
        out["result"] = s.search(pos, Limits(infinite=True), lambda i: None, stop)
        out["done"] = time.monotonic()

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(0.4)
    stopped = time.monotonic()
    stop.set()
    thread.join(5)
    assert not thread.is_alive()
    assert out["done"] - stopped < 1.5  # goal 0.1 s; the margin is for a loaded machine
    assert out["result"].best in pos.legal_moves()


def test_multipv_reports_distinct_lines():
    s = Searcher()
    s.multipv = 3
    infos = []
    s.search(Position.start("camelot"), Limits(depth=2), infos.append, StopFlag())
    last = [i for i in infos if i.depth == 2]
    assert [i.multipv for i in last] == [1, 2, 3]
    assert len({i.pv[0] for i in last}) == 3
    scores = [i.score_cp for i in last]
    assert scores == sorted(scores, reverse=True)


def test_weak_skill_still_legal_and_deterministic():
    s = Searcher()
    s.skill = 2
    pos = midgame()
    infos = []
    a = s.search(pos, Limits(depth=5), infos.append, StopFlag())
    b = s.search(pos, Limits(depth=5), lambda i: None, StopFlag())
    assert a.best in pos.legal_moves() and a.best == b.best
    assert max(i.depth for i in infos) == 1  # skill 2 searches 1 + 2 // 3 plies, not 5


def test_weak_skill_plays_other_moves_than_the_full_strength():
    # Skill 0 draws a bonus of up to 240 points among the four best moves: over a few
    # positions it must leave the full-strength choice at least once, and each choice is
    # a legal move.
    from watching import game_positions

    positions = [p for seed in (1, 2) for p in game_positions("camelot", seed, 24, 6)]
    differ = 0
    for pos in positions:
        best = {}
        for skill in (20, 0):
            s = Searcher()
            s.use_proofs = False
            s.skill = skill
            best[skill] = s.search(pos, Limits(depth=1), lambda i: None, StopFlag()).best
            assert best[skill] in pos.legal_moves()
        differ += best[0] != best[20]
    assert len(positions) >= 6 and differ >= 1


def test_ponder_search_turns_timed_at_ponderhit():
    pos = Position.start("camelot")
    stop = StopFlag()
    stop.pondering = True
    out = {}

    def run():
        limits = Limits(ponder=True, time={0: 2.0, 1: 2.0}, inc={0: 0.0, 1: 0.0})
        out["result"] = Searcher().search(pos, limits, lambda i: None, stop)
        out["done"] = time.monotonic()

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(0.5)
    assert thread.is_alive()  # pondering: no budget applies
    hit = time.monotonic()
    stop.pondering = False  # ponderhit: budgets count from now (hard = 0.3 * 2 s)
    thread.join(5)
    assert not thread.is_alive()
    assert out["done"] - hit < 2.5  # (hard budget 0.6 s; without one it runs on)
    assert out["result"].best in pos.legal_moves()


@pytest.mark.parametrize("variant,algorithm", [("camelot", "paranoid"),
                                               ("cam", "paranoid"),
                                               ("camette", "paranoid"),
                                               ("chivalry", "paranoid"),
                                               ("tri-camelot", "paranoid"),
                                               ("tri-camelot", "brs"),
                                               ("tri-camelot", "brs+"),
                                               ("tri-camelot", "maxn")])
def test_legal_answers_along_random_games(variant, algorithm):
    import random

    rng = random.Random(5)
    s = Searcher()
    s.algorithm = algorithm
    searched = 0
    games = 0
    # Camette's random games are short: play more of them for as many searches.
    while games < 3 or searched < 10:
        games += 1
        pos = Position.start(variant)
        while pos.outcome() is None and len(pos.move_stack) < 120:
            moves = pos.legal_moves()
            if len(pos.move_stack) % 9 == 4:
                result = s.search(pos, Limits(nodes=150), lambda i: None, StopFlag())
                assert result.best in moves
                if result.ponder is not None:
                    pos.push(result.best)
                    assert result.ponder in pos.legal_moves()
                    pos.pop()
                searched += 1
            pos.push(rng.choice(moves))
    assert searched >= 10


def test_searchmoves_restrict_the_root():
    pos = Position.start("camelot")
    allowed = [m for m in pos.legal_moves() if pos.variant.cell_name(m.start) == "J6"]
    result, infos = search(pos, depth=2, searchmoves=allowed)
    assert result.best in allowed
    assert all(i.pv[0] in allowed for i in infos)


def test_finished_game_has_no_best_move():
    pos = setup("camelot", w="F16 G16 A4", b="A9 A10", turn="b")
    assert pos.outcome() is not None
    result, _ = search(pos, depth=2)
    assert result.best is None


def test_brs_plus_principal_variation_is_a_real_line():
    # BRS+ lets the opponent that does not give the searched reply play its plausible
    # move, so the reported line follows the real turn order: root, both opponents, root.
    pos = Position.start("tri-camelot")
    result, infos = search(pos, "brs+", depth=3)
    pv = infos[-1].pv
    assert len(pv) == 4
    for move in pv:
        assert move in pos.legal_moves()
        pos.push(move)
