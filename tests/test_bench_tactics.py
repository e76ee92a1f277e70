"""The tactics tools of bench/: the suite format, the solver and the finder, on positions
whose one winning move is known by hand."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

from tactics import read_suite, same_move  # noqa: E402

# White's Man on F8 takes Black's last piece on F9 (F8xF10): the only winning move.
LAST_CAPTURE = "camelot 2/8/10/12/12/12/12/5b6/5w6/12/12/12/4w7/10/8/2 w 0,0 - - 0 30"


def test_the_suite_format(tmp_path):
    suite = tmp_path / "s.txt"
    suite.write_text(f"# a comment\n\n{LAST_CAPTURE} bm f8xf10 ; gap 99999 ; source x\n",
                     encoding="utf-8")
    assert read_suite(suite) == [(LAST_CAPTURE, "f8xf10")]
    assert same_move(LAST_CAPTURE, "F8xF10", "f8f10")
    assert not same_move(LAST_CAPTURE, "F8xF10", "E4-E5")
    suite.write_text(f"{LAST_CAPTURE} F8xF10\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(BENCH / "tactics.py"), str(suite)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "expected '<position string> bm <move>'" in done.stderr


def test_the_solver_counts_a_solved_and_a_missed_position(tmp_path):
    suite = tmp_path / "tactics-test.txt"
    # the second line names a legal but losing move as "best": it must count as missed
    suite.write_text(f"{LAST_CAPTURE} bm F8xF10\n{LAST_CAPTURE} bm E4-E5\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(BENCH / "tactics.py"), str(suite),
                           "--st", "0.2"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "1 of 2 solved (50.0 %)" in done.stdout
    assert "missed: " in done.stdout and "bm E4-E5, played F8xF10" in done.stdout


# Cam, Black to move; after any Black move White's Man on D12 enters Black's castle D13 and
# wins at once, while every other White move wins nothing.
ENTRY_NEXT = "cam 1/1w1/5/7/7/7/7/7/w5b/7/5/3/1 b 0,0 - - 0 0"


def test_the_finder_keeps_only_a_move_the_alternatives_fall_short_of(tmp_path):
    games = tmp_path / "g.pgn"
    games.write_text(f'[Variant "Cam"]\n[SetUp "1"]\n[Position "{ENTRY_NEXT}"]\n\n'
                     "1... G5-G6 *\n", encoding="utf-8")
    out = tmp_path / "found.txt"
    args = [sys.executable, str(BENCH / "find_tactics.py"), str(games), "--st", "0.2",
            "--verify", "0.3", "--skip", "0", "--out", str(out)]
    # Every White move wins by force (Black cannot stop the entry): not a tactic.
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert not out.exists()
    # Asked for any gap at all, the entry (a win in one, against a win in two) is kept.
    args += ["--gap", "1", "--gain", "1"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = read_suite(out)
    assert len(found) == 1 and found[0][1] == "D12-D13"
    assert found[0][0].startswith("cam ") and " w " in found[0][0]
    again = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and read_suite(out) == found
