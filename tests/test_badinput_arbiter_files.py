"""Bad input: the arbiter's output files (`canter match` / `canter tournament` with --pgn,
--json, --log). A file that is not the run's own is refused with one line saying why and
left byte for byte as it was; a path that cannot be written is found before any game, with
one line naming the option and the path; never a traceback."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from badinput import FAILURE, ROOT, assert_error, canter

from canter.adapters.records.format import GameRecord, write_game

ENGINE = f"cmd={sys.executable} -m canter"
# the output checks come before the engines start: a command that would fail to start
# shows that (its error would be the one reported otherwise)
MISSING_ENGINE = "cmd=/no/such/engine"


def match(*args: str, engine: str = ENGINE) -> list[str]:
    return ["match", "--engine", engine, "--engine", engine, "--games", "1", "--depth", "1",
            "--maxplies", "2", *args]


def _played_record() -> bytes:
    game = GameRecord.new("camelot", ["x", "y"], event="canter match")  # Round "?"
    game.add_move("C6-B5")
    game.set_result("1-0", termination="normal", reason="x")
    return write_game(game).encode()


NOT_RECORDS = {
    "notes.md": b"# Match notes\n\nEngine A looked strong.\n" * 100,
    "summary.json": json.dumps({"variant": "camelot", "seats": 2}).encode(),
    "random.bin": random.Random(5).randbytes(4096),
    "latin1.pgn": '[Event "caf\u00e9"]\n[Site "?"]\n'.encode("latin-1"),
    "zeros.pgn": b"\0" * 1000,
    "utf16.pgn": '[Event "t"]\n[Site "?"]\n'.encode("utf-16"),
    "crlf-prose.txt": b"line one\r\nline two\r\n",
}


@pytest.mark.parametrize("name", sorted(NOT_RECORDS))
def test_pgn_that_is_not_a_record_file_is_refused_untouched(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(NOT_RECORDS[name])
    proc = canter(*match("--pgn", str(path)))
    assert_error(proc, FAILURE, "--pgn", str(path), "not a game-record file")
    assert path.read_bytes() == NOT_RECORDS[name]
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # no side file


def test_pgn_of_another_program_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "played.pgn"
    path.write_bytes(_played_record())
    proc = canter(*match("--pgn", str(path)))
    assert_error(proc, FAILURE, "--pgn", str(path), "no game number")
    assert path.read_bytes() == _played_record()


def test_pgn_damaged_before_its_last_game_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "g.pgn"
    canter(*match("--games", "3", "--pgn", str(path)), timeout=120).check_returncode()
    text = path.read_text()
    damaged = text.replace("1/2-1/2\n", "1/2-1/2 junk\n", 1).encode()
    path.write_bytes(damaged)
    proc = canter(*match("--games", "3", "--pgn", str(path)))
    assert_error(proc, FAILURE, "--pgn", str(path), "damaged at line")
    assert path.read_bytes() == damaged


def test_tournament_pgn_that_is_not_a_record_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_bytes(NOT_RECORDS["notes.md"])
    proc = canter("tournament", "--engine", ENGINE, "--engine", ENGINE, "--engine", ENGINE,
                  "--depth", "1", "--maxplies", "2", "--pgn", str(path))
    assert_error(proc, FAILURE, "--pgn", "not a game-record file")
    assert path.read_bytes() == NOT_RECORDS["notes.md"]


def _paths(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """Unwritable output paths: (path, words of the error)."""
    regular = tmp_path / "plain.txt"
    regular.write_text("x")
    (tmp_path / "folder").mkdir()
    return {
        "a folder": (str(tmp_path / "folder"), "is a folder"),
        "the current folder": (".", "is a folder"),
        "a missing folder": (str(tmp_path / "no" / "such" / "out"),
                             f"the folder {tmp_path / 'no' / 'such'} does not exist"),
        "under a regular file": (str(regular / "out"), f"{regular} is a file, not a folder"),
        "deeper under a regular file": (str(regular / "a" / "out"),
                                        f"{regular} is a file, not a folder"),
        "an empty name": ("", "the file name is empty"),
    }


PATH_CASES = ["a folder", "the current folder", "a missing folder", "under a regular file",
              "deeper under a regular file", "an empty name"]


@pytest.mark.parametrize("option", ["--pgn", "--json", "--log"])
@pytest.mark.parametrize("case", PATH_CASES)
def test_unwritable_output_path_found_before_any_game(tmp_path: Path, option: str,
                                                      case: str) -> None:
    path, words = _paths(tmp_path)[case]
    before = sorted(p.name for p in tmp_path.iterdir())
    proc = canter(*match(option, path, engine=MISSING_ENGINE), cwd=tmp_path)
    assert_error(proc, FAILURE, option, words)
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing made


@pytest.mark.parametrize("option", ["--pgn", "--json"])
def test_output_that_is_not_a_regular_file(option: str) -> None:
    proc = canter(*match(option, "/dev/null", engine=MISSING_ENGINE))
    assert_error(proc, FAILURE, option, "/dev/null", "not a regular file")


def test_summary_path_fails_before_the_games_not_after(tmp_path: Path) -> None:
    pgn = tmp_path / "g.pgn"
    proc = canter(*match("--pgn", str(pgn), "--json", str(tmp_path / "no" / "s.json")))
    assert_error(proc, FAILURE, "--json", "does not exist")
    assert not pgn.exists()  # no game was played
    assert "Score of" not in proc.stdout


@pytest.mark.parametrize("option,kind", [("--json", "summary"), ("--log", "engine I/O log")])
def test_existing_file_of_another_kind_is_not_overwritten(tmp_path: Path, option: str,
                                                          kind: str) -> None:
    path = tmp_path / "notes.md"
    path.write_bytes(NOT_RECORDS["notes.md"])
    proc = canter(*match(option, str(path), engine=MISSING_ENGINE))
    assert_error(proc, FAILURE, option, str(path), f"not an {kind}"
                 if kind[0] in "aeiou" else f"not a {kind}")
    assert path.read_bytes() == NOT_RECORDS["notes.md"]


def test_log_that_is_not_utf8_is_not_appended_to(tmp_path: Path) -> None:
    path = tmp_path / "io.log"
    path.write_bytes(b"\xff\xfe\x00binary")
    proc = canter(*match("--log", str(path), engine=MISSING_ENGINE))
    assert_error(proc, FAILURE, "--log", "not an engine I/O log")
    assert path.read_bytes() == b"\xff\xfe\x00binary"


@pytest.mark.parametrize("first,second", [("--pgn", "--log"), ("--pgn", "--json"),
                                          ("--json", "--log")])
def test_two_outputs_in_one_file(tmp_path: Path, first: str, second: str) -> None:
    path = str(tmp_path / "out")
    proc = canter(*match(first, path, second, path, engine=MISSING_ENGINE))
    assert_error(proc, FAILURE, f"{first} and {second} name the same file")
    assert not Path(path).exists()


def test_good_outputs_pass_the_checks(tmp_path: Path) -> None:
    # the counterpart of the refusals: an empty --pgn file made ready for the run, an
    # earlier summary and an earlier log are taken, and the run plays
    pgn, summary, log = tmp_path / "g.pgn", tmp_path / "s.json", tmp_path / "io.log"
    pgn.write_bytes(b"")
    first = canter(*match("--json", str(summary), "--log", str(log)), timeout=120)
    assert first.returncode == 0, first.stderr
    size = log.stat().st_size
    proc = canter(*match("--pgn", str(pgn), "--json", str(summary), "--log", str(log)),
                  timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert pgn.read_text().startswith('[Event "canter match"]')
    assert json.loads(summary.read_text())["games_played"] == 1
    assert log.stat().st_size > size and log.read_bytes()[size - 1:size] == b"\n"


@pytest.mark.skipif(os.name != "posix", reason="file locks and signals")
def test_a_second_run_on_the_same_file_at_once_is_refused(tmp_path: Path) -> None:
    pgn = tmp_path / "g.pgn"
    first = subprocess.Popen([sys.executable, "-m", "canter", *match(
        "--games", "200", "--maxplies", "40", "--pgn", str(pgn))], cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 20
        while not pgn.exists() and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert first.poll() is None and pgn.exists()
        proc = canter(*match("--games", "200", "--maxplies", "40", "--pgn", str(pgn)))
        assert_error(proc, FAILURE, "--pgn", str(pgn), "another run is writing to it")
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()


def test_a_run_refused_leaves_no_empty_record_file(tmp_path: Path) -> None:
    pgn = tmp_path / "g.pgn"
    proc = canter(*match("--pgn", str(pgn), engine=MISSING_ENGINE))
    assert_error(proc, FAILURE, "/no/such/engine")
    assert not pgn.exists()
