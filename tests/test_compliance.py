"""`canter compliance` against canter itself (all steps pass) and against scripted engines
that break the protocol in known ways (exactly those steps fail)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BAD = ROOT / "tests" / "bad_engines" / "bad_engine.py"


def compliance(*command: str, timeout: float = 2) -> tuple[int, dict[str, str], str]:
    proc = subprocess.run([sys.executable, "-m", "canter", "compliance", "--timeout",
                           str(timeout), *command],
                          capture_output=True, text=True, timeout=80, cwd=ROOT)
    steps = {}
    for line in proc.stdout.splitlines():
        if line[:4] in ("PASS", "FAIL"):
            steps[line[6:38].strip()] = line[:4]
    return proc.returncode, steps, proc.stdout


def test_canter_passes() -> None:
    # The steps' own bounds (movetime, clocks, stop, ponderhit) do not depend on --timeout:
    # a generous one only spares a loaded machine a stall on a process start.
    code, steps, out = compliance(f"{sys.executable} -m canter", timeout=10)
    assert code == 0, out
    assert len(steps) == 27 and set(steps.values()) == {"PASS"}, out
    assert "27 passed, 0 failed" in out


def test_an_engine_that_cannot_start_fails_once_and_skips_the_rest() -> None:
    code, steps, out = compliance("/no/such/engine --flag")
    assert code == 1, out
    assert steps == {"handshake": "FAIL"}, out
    lines = out.splitlines()
    assert lines[0].endswith("cannot start the engine: No such file or directory: "
                             "/no/such/engine"), out
    assert lines[1] == "SKIP  26 remaining steps (the engine cannot be started)", out
    assert lines[2] == "0 passed, 1 failed: handshake, 26 not run", out
    assert len(lines) == 3 and "exit code None" not in out, out


def test_broken_engine_fails_the_right_steps() -> None:
    code, steps, out = compliance(sys.executable, str(BAD), "--silent-errors",
                                  "--move-when-over", "--bad-exit", "3")
    assert code == 1
    failed = {name for name, mark in steps.items() if mark == "FAIL"}
    assert failed == {
        "terminal position", "error: unknown command", "error: illegal move in position",
        "error: bad position string", "error: bad go argument", "error: unknown option",
        "quit",
    }, out
    # the engine's own output is shown under a failure
    assert "bestmove C6-C7" in out.split("FAIL  terminal position")[1].split("PASS")[0]


def test_malformed_info_lines_fail_the_steps_that_search() -> None:
    # The client passes over an info line it cannot read, as a GUI does; the conformance
    # run still reports it, in each step whose search printed one.
    code, steps, out = compliance(sys.executable, str(BAD), "--bad-info")
    assert code == 1
    failed = {name for name, mark in steps.items() if mark == "FAIL"}
    assert "go depth" in failed and "handshake" not in failed, out
    assert "malformed info line: 'depth' needs an integer" in out, out
    assert "info depth one score cp 0" in out


def test_search_breaches_fail_stop_and_isready_steps() -> None:
    code, steps, out = compliance(sys.executable, str(BAD), "--late-isready")
    assert code == 1
    # A ponder search is a search too: its isready is held back as well. (The ponder step
    # once passed on the readyok held back from the step before, read as its own; the
    # client now drops what was waiting before a search.)
    assert {n for n, m in steps.items() if m == "FAIL"} == {
        "isready during search", "go ponder + ponderhit"}, out
    code, steps, out = compliance(sys.executable, str(BAD), "--ignore-stop")
    failed = {n for n, m in steps.items() if m == "FAIL"}
    # the scripted engine treats ponderhit like stop, so ignoring one ignores both
    assert failed == {"go infinite + stop", "go ponder + ponderhit"}, out


def test_an_illegal_ponder_move_fails_the_search_steps() -> None:
    # `bestmove X ponder Y`: Y must be a legal reply to X, as X a legal move.
    code, steps, out = compliance(sys.executable, str(BAD), "--bad-ponder")
    assert code == 1
    assert steps["position startpos"] == "FAIL" and "ponder move A1-A2 is illegal" in out, out


def test_an_engine_that_answers_a_ponder_search_by_itself_fails_it() -> None:
    # A third of a second: about the hard budget of 1 s clocks, past a 0.2 s look.
    code, steps, out = compliance(sys.executable, str(BAD), "--ponder-timed", "0.3")
    assert code == 1
    assert {n for n, m in steps.items() if m == "FAIL"} == {"go ponder + ponderhit"}, out
    assert "before ponderhit" in out
