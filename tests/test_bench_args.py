"""The bench scripts' shared argument types, and scripts refusing bad arguments with one
`error:` line before any work (an unknown switch was ignored, a limit of 0 ran for ever)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import benchargs  # noqa: E402


def test_counts_and_seconds():
    assert benchargs.positive_int("12") == 12
    assert benchargs.positive_float("0.25") == 0.25
    for bad in ("0", "-3", "x", "1.5", "\uff11", "9" * 13, ""):
        with pytest.raises(argparse.ArgumentTypeError):
            benchargs.positive_int(bad)
    for bad in ("0", "-1", "nan", "inf", "soon"):
        with pytest.raises(argparse.ArgumentTypeError):
            benchargs.positive_float(bad)


def test_search_options_are_known_and_in_range():
    assert benchargs.search_options("qdepth=2,killers=0 oppk=3") == {
        "qdepth": 2, "killers": 0, "oppk": 3}
    assert benchargs.search_options("") == {}
    for bad, needle in (("bogus=1", "unknown search option 'bogus'"),
                        ("lmr", "lmr takes a whole number from 0 to 1"),
                        ("lmr=2", "from 0 to 1"), ("qdepth=x", "from 0 to 32")):
        with pytest.raises(argparse.ArgumentTypeError, match=needle):
            benchargs.search_options(bad)


def test_evaluation_weights_are_search_options_too():
    """`--off w_hanging=0` (docs/search.md's weight screens) is a weight of the search's
    evaluator: a known weight and a signed whole number."""
    assert benchargs.search_options("w_hanging=0,w_race_step=-5") == {
        "w_hanging": 0, "w_race_step": -5}
    for bad, needle in (("w_nope=1", "unknown weight 'w_nope'"),
                        ("w_race=1", "unknown weight"),  # (a tuple: no single number)
                        ("w_hanging=x", "w_hanging takes a whole number")):
        with pytest.raises(argparse.ArgumentTypeError, match=needle):
            benchargs.search_options(bad)


def test_variant_and_file():
    assert benchargs.variant("tri-camelot") == "tri-camelot"
    with pytest.raises(argparse.ArgumentTypeError, match="unknown variant 'camelott'"):
        benchargs.variant("camelott")
    with pytest.raises(argparse.ArgumentTypeError, match="no such file"):
        benchargs.existing_file(str(BENCH / "nothing.pgn"))
    with pytest.raises(argparse.ArgumentTypeError, match="a folder"):
        benchargs.existing_file(str(BENCH))


# (script and arguments, the status, what the error line says): 2 for an argument
# argparse refuses, 1 for what is found wrong when the work starts.
SCRIPT_ERRORS = [
    (["selfplay.py", "--off", "bogus=1"], 2, "unknown search option 'bogus'"),
    (["selfplay.py", "--games", "0"], 2, "--games: expected a whole number of at least 1"),
    (["depth_in_time.py", "0.1", "--switch", "bogus=1"], 2, "unknown search option"),
    (["threads.py", "--depth", "0"], 2, "--depth: expected a whole number"),
    (["ordering_nodes.py", "0"], 2, "depth: expected a whole number"),
    (["read_rate.py", "--nodes", "0"], 2, "--nodes: expected a whole number"),
    (["make_book.py", "camelott"], 2, "unknown variant 'camelott'"),
    (["tactics.py", "--st", "0"], 2, "--st: expected a number above 0"),
    (["tactics.py", "nothing.txt"], 2, "nothing.txt: no such file"),
    (["texel_tune.py", "nothing.texel"], 2, "nothing.texel: no such file"),
    (["arbiter_overhead.py", "--games", "0"], 2, "--games: expected a whole number"),
    (["find_tactics.py", "bench/records/chiv-race-tc.pgn", "--out", "/nonexistent/f.txt"], 2,
     "--out /nonexistent/f.txt: the folder /nonexistent does not exist"),
    (["recheck_tactics.py", "bench/tactics-camelot.txt", "--out", "/nonexistent/f.txt"], 2,
     "--out /nonexistent/f.txt: the folder /nonexistent does not exist"),
    (["weak_engine.py", "greddy"], 1, "expected one of random, greedy"),
    (["protocol_latency.py", "--cmd", "/nonexistent/engine", "--runs", "1"], 1,
     "Error: --cmd /nonexistent/engine: No such file or directory"),
    (["tactics.py", "--engine", "/nonexistent/engine"], 1,
     "Error: --engine /nonexistent/engine"),
    (["texel_tune.py", "bench/benchargs.py", "--variant", "camette"], 1,
     "not a data file of bench/texel_data.py"),
    (["find_tactics.py", "bench/benchargs.py", "--out", "unused.txt"], 1,
     "no position to examine in bench/benchargs.py"),
]


@pytest.mark.parametrize("args, status, needle", SCRIPT_ERRORS,
                         ids=[" ".join(c[0]) for c in SCRIPT_ERRORS])
def test_scripts_stop_with_one_error_line_before_any_work(args, status, needle):
    done = subprocess.run([sys.executable, str(BENCH / args[0]), *args[1:]],
                          capture_output=True, text=True, timeout=60, cwd=BENCH.parent)
    assert done.returncode == status, done.stderr
    assert needle in done.stderr and "Traceback" not in done.stderr
