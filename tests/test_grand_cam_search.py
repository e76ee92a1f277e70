"""The searcher on Grand Cam: a team game searched as two sides taking turns. Scores are the
mover's team's; a partner's win is the mover's, an opponent's entry is the team's loss, and
an eliminated seat (one team moving twice in a row) keeps the signs right."""

from __future__ import annotations

from builders import setup

from canter.engine import Position, format_move
from canter.engine.search.evaluate import Evaluator
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher

RED, GREEN, BLUE, YELLOW = range(4)


def search(pos: Position, **limits):
    infos = []
    result = Searcher().search(pos, Limits(**limits), infos.append, StopFlag())
    return result, infos[-1]


def test_partners_share_the_evaluation_and_the_teams_oppose() -> None:
    pos = Position.start("grand-cam")
    pos.push(pos.legal_moves()[0])
    ev = Evaluator(pos.variant)
    red = ev.relative(pos, RED)
    assert ev.relative(pos, BLUE) == red
    assert ev.relative(pos, GREEN) == ev.relative(pos, YELLOW) == -red
    # Blue's extra Man counts for Red as much as one of Red's own would.
    more = setup("grand-cam", turn="r", r="G4", g="G10", b="D7 C7", y="J7")
    less = setup("grand-cam", turn="r", r="G4", g="G10", b="D7", y="J7")
    assert ev.relative(more, RED) - ev.relative(less, RED) >= 100


def test_a_partners_coming_entry_is_a_win_for_the_mover() -> None:
    # Blue's L7 steps into M7 (its target) on Blue's turn, after Red's and Green's; Green's
    # G10 is too far to stop it.
    pos = setup("grand-cam", turn="r", r="G4", g="G10", b="L7", y="D3")
    _, info = search(pos, depth=4)
    assert info.score_win == 1


def test_an_opponents_coming_entry_is_a_loss() -> None:
    # Yellow's B7 steps into A7 (its target) at the fourth ply; nobody can stop it.
    pos = setup("grand-cam", turn="r", r="G4", g="G10", b="J3", y="B7")
    _, info = search(pos, depth=5)
    assert info.score_win == -1


def test_an_eliminated_opponent_gives_one_team_two_turns() -> None:
    # Green is out: Red moves, then Blue at once, whose L7-M7 wins. Without Green between
    # them the two plies are one side's, so the value must not be negated between them.
    pos = setup("grand-cam", turn="r", r="G4", b="L7", y="D3")
    assert pos.eliminated == (GREEN,)
    _, info = search(pos, depth=3)
    assert info.score_win == 1
    pos2 = setup("grand-cam", turn="y", r="G4", b="D8", y="B7 J3")
    assert pos2.eliminated == (GREEN,)
    best, info = search(pos2, depth=2)
    assert format_move(pos2.variant, best.best) == "B7-A7" and info.score_win == 1


def test_the_searcher_plays_only_the_seat_to_move() -> None:
    pos = Position.start("grand-cam")
    pos.push(pos.legal_moves()[0])  # Green to move
    result, _ = search(pos, depth=2)
    assert result.best in pos.legal_moves()
    assert pos.cells[result.best.start] >> 1 == GREEN
