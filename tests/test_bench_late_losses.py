"""bench/late_losses.py: how many plies before the end each loser last reported a hopeful
score, read from game records built here with known scores."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import late_losses  # noqa: E402

from canter.adapters.records.format import GameRecord, write_games  # noqa: E402

# Eight legal plies from the start, no capture among them (28 pieces throughout).
MOVES = "D6-F8 H11-F9 C6-E8-G8 J11-H11 H6-H8 E11-G9 J6-H6 C11-E11".split()


def game(players: tuple[str, str], result: str, scores: list[str]) -> GameRecord:
    record = GameRecord.new("camelot", list(players), round="1")
    for move, score in zip(MOVES, scores, strict=True):
        record.add_move(move, score=score, depth=3)
    record.set_result(result)
    return record


# Black (b) loses; its own scores at plies 2, 4, 6, 8: +0.50 +0.20 -0.30 -3.00, so its last
# hopeful move (above -1.00) is ply 6 (index 5): a warning of 8 - 5 = 3 plies.
SEEN_LATE = game(("a", "b"), "1-0", ["+0.1", "+0.50", "+0.1", "+0.20", "+0.1", "-0.30",
                                     "+0.1", "-3.00"])
# White (b again) loses, and never scored itself above -1.00: warned from the start.
SEEN_EARLY = game(("b", "a"), "0-1", ["-2.00", "+2.0", "-2.50", "+2.0", "#-3", "+2.0",
                                      "-4.00", "#2"])
DRAWN = game(("a", "b"), "1/2-1/2", ["+0.1"] * 8)


def test_the_warning_counts_from_the_losers_last_hopeful_move():
    late = late_losses.late_loss(SEEN_LATE, -1.0)
    assert (late.loser, late.warning, late.last_hopeful, late.pieces) == ("b", 3, 5, 28)
    early = late_losses.late_loss(SEEN_EARLY, -1.0)
    assert (early.loser, early.warning, early.last_hopeful, early.pieces) == ("b", 8, None,
                                                                              None)
    assert late_losses.late_loss(DRAWN, -1.0) is None
    # A stricter threshold: -0.30 is no longer hopeful, +0.20 at ply 4 (index 3) is.
    assert late_losses.late_loss(SEEN_LATE, -0.25).warning == 8 - 3


def test_the_report_counts_late_losses_per_loser(tmp_path, capsys):
    path = tmp_path / "games.pgn"
    with open(path, "w", encoding="utf-8") as out:
        write_games([SEEN_LATE, SEEN_EARLY, DRAWN], out)
    assert late_losses.main([str(path), "--within", "3", "--show", "1"]) == 0
    text = capsys.readouterr().out
    assert "2 decided games" in text
    assert "b: 1 of 2 losses; pieces on the board then: median 28, 0 with at most 10" in text
    assert "H6-H8" in text and "-0.30/3" in text  # the shown end of the late loss


def test_a_file_that_is_not_records_is_an_error(tmp_path, capsys):
    path = tmp_path / "notes.txt"
    path.write_text("# notes\n", encoding="utf-8")
    assert late_losses.main([str(path)]) == 1
    assert "notes.txt" in capsys.readouterr().err


def test_a_game_with_an_illegal_move_is_left_out_and_named(tmp_path, capsys):
    bad = game(("a", "b"), "1-0", ["+0.1"] * 8)
    bad.moves[4] = "A1-A2"
    path = tmp_path / "games.pgn"
    with open(path, "w", encoding="utf-8") as out:
        write_games([bad, SEEN_LATE], out)
    assert late_losses.main([str(path)]) == 0
    captured = capsys.readouterr()
    assert "1 decided games" in captured.out
    assert "left out" in captured.err and "A1-A2" in captured.err
