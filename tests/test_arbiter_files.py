"""The files the arbiter writes (docs/arbiter.md, "Results, resume"): only its own game
records are appended to, a cut-off last game is set aside in a side file (never deleted),
the summary is replaced by a rename, and writers killed at random moments leave every
complete game, the old or the new summary, and every complete log line."""

from __future__ import annotations

import functools
import inspect
import json
import os
import random
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from canter.adapters.arbiter.results import (
    ResultsFile,
    ResumeError,
    parse_contents,
    write_summary,
)
from canter.adapters.files import replace_file
from canter.adapters.records.format import (
    GameRecord,
    RecordError,
    read_games,
    read_games_file,
    write_game,
)

ROOT = Path(__file__).resolve().parent.parent
CANTER = f"cmd={sys.executable} -m canter"
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} game (-|\d+) \S+ [<>!] ")
# a line cut by a kill, ended by the next run: never run together with the next line
CUT_LOG_LINE = re.compile(r"^[\d: .-]*( game( [^ ]*( [^ ]*( [<>!]( y*| go \d* y*)?)?)?)?)?$")


def _log_line_ok(line: str) -> bool:
    return bool(LOG_LINE.match(line) or CUT_LOG_LINE.match(line))


def _record(number: int, white: str = "a", moves: int = 1) -> GameRecord:
    game = GameRecord.new("camelot", [white, "b"], round=str(number), event="t")
    for ply in range(moves):
        game.add_move("C6-B5" if ply % 2 == 0 else "B5-C6", score="+0.10", depth=3, time=0.5)
    game.set_result("1-0", termination="normal", reason="x")
    game.tags["Schedule"] = f"{number:016x}"
    return game


def _file_of(tmp_path: Path, *numbers: int) -> tuple[Path, bytes]:
    path = tmp_path / "g.pgn"
    results = ResultsFile(str(path))
    for number in numbers:
        results.append(_record(number))
    return path, path.read_bytes()


# ---------------------------------------------------------------- recognising records


@pytest.mark.parametrize("cut", [
    b"[Ev",  # cut inside the first tag
    b'[Event "t"]\n[Site "?"]\n[Da',  # inside the tags
    b'[Event "t"]\n[Site "?"]\n',  # at a line's end
    b'[Event "t"]\n\n1. C6-B5 {+0.10/3 0.5s} B5-C',  # inside the moves
    b'[Event "t"]\n\n1. C6-B5 1-',  # inside the result
    '[Event "t"]\n[White "caf\u00e9"]\n'.encode()[:-3],  # inside a character
])
def test_a_cut_off_game_is_set_aside_in_a_side_file(tmp_path: Path, cut: bytes) -> None:
    path, whole = _file_of(tmp_path, 1, 2)
    results = ResultsFile(str(path))
    path.write_bytes(whole + cut)
    contents = results.read()
    assert path.read_bytes() == whole + cut  # reading changes nothing
    assert [g.tags["Round"] for g in contents.games] == ["1", "2"]
    assert (contents.kept, contents.tail) == (len(whole), cut)
    games, dropped = results.load()
    assert len(games) == 2 and dropped == len(cut)
    assert path.read_bytes() == whole
    assert Path(f"{path}.cut-off").read_bytes() == cut
    # a second one goes next to the first, which is kept
    path.write_bytes(whole + cut)
    results.load()
    assert Path(f"{path}.cut-off").read_bytes() == cut
    assert Path(f"{path}.cut-off.2").read_bytes() == cut
    assert path.read_bytes() == whole


def test_a_first_game_cut_off_alone_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "g.pgn"
    cut = write_game(_record(1)).encode()[:50]
    path.write_bytes(cut)
    games, dropped = ResultsFile(str(path)).load()
    assert games == [] and dropped == 50
    assert path.read_bytes() == b""
    assert Path(f"{path}.cut-off").read_bytes() == cut


def test_complete_games_read_with_their_lines(tmp_path: Path) -> None:
    path, whole = _file_of(tmp_path, 1, 2, 3)
    contents = ResultsFile(str(path)).read()
    assert contents.tail == b"" and contents.kept == len(whole)
    text = whole.decode()
    assert [g.line for g in contents.games] == [g.line for g in read_games(text)]
    assert [g.move_lines for g in contents.games] == [g.move_lines for g in read_games(text)]
    # an empty file (or one of blank lines) is a file made ready for the run
    for blank in (b"", b"\n\n"):
        path.write_bytes(blank)
        assert ResultsFile(str(path)).read().games == []


FOREIGN = {
    "markdown": b"# Notes\n\nThe match of [Event \"x\"] went well.\n" * 200,
    "json": json.dumps({"games": [1, 2, 3]}).encode(),
    "random bytes": random.Random(7).randbytes(5000),
    "latin-1": '[Event "caf\u00e9"]\n'.encode("latin-1") * 5,
    "zeros": b"\0" * 4096,
    "utf-16": '[Event "t"]\n'.encode("utf-16"),
    "notes before a record": b"notes\n" + write_game(_record(1)).encode(),
    "a record then notes": write_game(_record(1)).encode() + b"my notes about it\n",
    "a record then control bytes": write_game(_record(1)).encode() + b"\x01\x02\x03",
    "two cut-off games": b'[Event "t"]\n[Site "?"]\n' * 2,
    "a lone tag, then prose": b'[Event "x"]\nDear diary,\n',
}


@pytest.mark.parametrize("name", sorted(FOREIGN))
def test_a_file_not_of_records_is_refused_and_left_alone(tmp_path: Path, name: str) -> None:
    path = tmp_path / "f.pgn"
    path.write_bytes(FOREIGN[name])
    with pytest.raises(ResumeError, match="not a game-record file|damaged"):
        ResultsFile(str(path)).load()
    assert path.read_bytes() == FOREIGN[name]
    assert sorted(os.listdir(tmp_path)) == ["f.pgn"]  # no side file either


def test_damage_before_the_last_game_is_refused(tmp_path: Path) -> None:
    path, whole = _file_of(tmp_path, 1, 2, 3)
    text = whole.decode()
    second = text.index('[Event', 1)
    cut = (text[:second + 40] + text[text.index('[Event', second + 1):]).encode()
    path.write_bytes(cut)
    with pytest.raises(ResumeError, match="damaged at line"):
        ResultsFile(str(path)).load()
    assert path.read_bytes() == cut


def test_a_file_that_is_not_utf8_is_a_record_error(tmp_path: Path) -> None:
    path = tmp_path / "g.pgn"
    path.write_bytes(b'[Event "t"]\n[White "\xff"]\n')
    with pytest.raises(RecordError, match="line 2: byte 20 is not UTF-8"):
        read_games_file(str(path))
    assert parse_contents(b"", "x").games == []


# Every break str.splitlines knows besides the newline, and other control characters.
ODD_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\x00\x07\x1b"


def test_engine_text_with_odd_line_breaks_keeps_the_file_resumable(tmp_path: Path) -> None:
    # An engine's `info string` text lands in the Reason tag and in comments.
    path = tmp_path / "g.pgn"
    results = ResultsFile(str(path))
    odd = _record(1)
    odd.tags["Reason"] = f"position rejected: a{ODD_BREAKS}b"
    odd.comments[0].text = f"note{ODD_BREAKS}end"
    odd.preamble = f"from{ODD_BREAKS}here"
    results.append(odd)
    results.append(_record(2))
    games, dropped = ResultsFile(str(path)).load()
    assert dropped == 0 and [g.tags["Round"] for g in games] == ["1", "2"]
    assert games[0].tags["Reason"] == "position rejected: a" + " " * len(ODD_BREAKS) + "b"
    assert games[0].comments[0].text.startswith("note") and games[0].moves == odd.moves
    # A file an older writer left with such a break inside a tag still reads: lines end
    # at a newline only.
    text = path.read_text().replace(" " * len(ODD_BREAKS), ODD_BREAKS, 1)
    path.write_text(text)
    games, dropped = ResultsFile(str(path)).load()
    assert dropped == 0 and len(games) == 2
    assert games[0].tags["Reason"] == f"position rejected: a{ODD_BREAKS}b"


@pytest.mark.parametrize("lost", [b"\n\n", b"\n"])
def test_a_record_that_lost_its_closing_blank_line_is_mended_by_the_next(
        tmp_path: Path, lost: bytes) -> None:
    # A writer killed just after the result token: the game is complete, and the next
    # game must still start a line of its own.
    path, whole = _file_of(tmp_path, 1, 2)
    assert whole.endswith(b"\n\n")
    path.write_bytes(whole[: -len(lost)])
    results = ResultsFile(str(path))
    games, dropped = results.load()
    assert [g.tags["Round"] for g in games] == ["1", "2"] and dropped == 0
    results.append(_record(3))
    assert path.read_bytes() == whole + write_game(_record(3)).encode()
    assert [g.tags["Round"] for g in ResultsFile(str(path)).load()[0]] == ["1", "2", "3"]


def test_a_file_that_starts_with_a_byte_order_mark_is_resumed_and_cut_right(tmp_path):
    # Made ready in an editor that writes a byte-order mark: the mark is no game, and the
    # offsets of a cut-off game count its bytes.
    path, whole = _file_of(tmp_path, 1, 2)
    cut = b'[Event "t"]\n[Site "?"]\n[Da'
    path.write_bytes(b"\xef\xbb\xbf" + whole + cut)
    games, dropped = ResultsFile(str(path)).load()
    assert [g.tags["Round"] for g in games] == ["1", "2"] and dropped == len(cut)
    assert path.read_bytes() == b"\xef\xbb\xbf" + whole
    assert Path(f"{path}.cut-off").read_bytes() == cut


def test_a_failed_write_leaves_no_fragment(tmp_path: Path, monkeypatch) -> None:
    import canter.adapters.arbiter.results as results_module

    path, whole = _file_of(tmp_path, 1)
    results = ResultsFile(str(path))

    def short_then_full_disk(fd: int, data: bytes) -> None:
        os.write(fd, data[:30])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(results_module, "write_all", short_then_full_disk)
    with pytest.raises(OSError, match="No space"):
        results.append(_record(2))
    assert path.read_bytes() == whole  # the fragment is cut off again
    monkeypatch.undo()
    results.append(_record(3))
    assert [g.tags["Round"] for g in ResultsFile(str(path)).load()[0]] == ["1", "3"]


# ---------------------------------------------------------------- the summary


def test_the_summary_is_replaced_by_a_rename(tmp_path: Path) -> None:
    target = tmp_path / "s.json"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_summary(str(target), {"variant": "camelot", "seats": 2})
    assert json.loads(target.read_text()) == {"variant": "camelot", "seats": 2}
    assert os.stat(target).st_mode & 0o777 == 0o640
    # through a symbolic link, the file it points to is replaced and the link kept
    link = tmp_path / "link.json"
    link.symlink_to(target)
    replace_file(str(link), "new\n")
    assert link.is_symlink() and target.read_text() == "new\n"
    assert sorted(os.listdir(tmp_path)) == ["link.json", "s.json"]  # no temporary left
    with pytest.raises(OSError):
        replace_file(str(tmp_path / "no" / "s.json"), "x")


# ---------------------------------------------------------------- killed writers

def _length(number: int) -> int:
    """Moves of game `number` of the killed writer: every fourth game long (a longer write
    for a kill to land in), the others short, so that rereading the file stays quick."""
    return 300 + number if number % 4 == 0 else 20 + number % 7


@functools.cache
def _written(number: int) -> bytes:
    return write_game(_record(number, white=f"w{number}", moves=_length(number))).encode()


WRITER = textwrap.dedent("""
    import sys, time
    from canter.adapters.arbiter.log import EngineLog
    from canter.adapters.arbiter.results import ResultsFile, write_summary
    from canter.adapters.client.engine import LogRecord
    from canter.adapters.records.format import GameRecord

    def main():
        pgn, summary, log_path = sys.argv[1:4]
        results = ResultsFile(pgn)
        games, _ = results.load()  # as a resumed run: a cut-off game is set aside
        log = EngineLog(log_path)
        print("ready", flush=True)
        for n in range(len(games) + 1, 10**6):
            results.append(_record(n, white=f"w{n}", moves=_length(n)))
            write_summary(summary, {"variant": "camelot", "seats": 2, "n": n,
                                    "pad": "x" * (50000 + n)})
            for i in range(20):
                log.write(n, LogRecord(time.time(), f"e{n}", ">", f"go {i} " + "y" * 300))
            time.sleep(0.003)  # a pace like a match's, so the file stays small enough to reread
""")



def test_writers_killed_at_random_moments_keep_what_they_wrote(tmp_path: Path) -> None:
    pgn, summary, log = tmp_path / "g.pgn", tmp_path / "s.json", tmp_path / "io.log"
    rng = random.Random(17)
    # the child writes the same games as _record and _length here
    helpers = (_record, _length)
    writer = WRITER + "".join(inspect.getsource(f) for f in helpers) + "main()\n"
    expected = b""  # the complete games so far, byte for byte
    log_lines: list[str] = []
    summary_n = 0
    kills = 0
    deadline = time.monotonic() + 20  # a loaded machine starts Pythons slowly
    while kills < 12 and time.monotonic() < deadline:
        proc = subprocess.Popen(
            [sys.executable, "-c", writer, str(pgn), str(summary), str(log)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"ready\n", proc.stderr.read()
        time.sleep(rng.uniform(0.0, 0.15))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        kills += 1
        data = pgn.read_bytes()
        assert data.startswith(expected)  # every earlier game is still there
        contents = parse_contents(data, str(pgn))  # never refused: ours, at most cut off
        numbers = [int(g.tags["Round"]) for g in contents.games]
        assert numbers == list(range(1, len(numbers) + 1))
        expected = b"".join(_written(n) for n in numbers)
        assert data[: contents.kept] == expected
        if contents.tail:  # the beginning of the next game, nothing else
            assert _written(len(numbers) + 1).startswith(contents.tail)
        if summary.exists():  # the old summary or the new one, whole
            done = json.loads(summary.read_text())
            assert done["pad"] == "x" * (50000 + done["n"])
            # Never ahead of the records, never going back. It may lag by more than one
            # game: a writer killed between a game and its summary leaves the summary
            # behind, and the next one may be killed at the same point again.
            assert summary_n <= done["n"] <= len(numbers)
            summary_n = done["n"]
        text = log.read_text() if log.exists() else ""
        lines = text.split("\n")
        assert all(_log_line_ok(line) for line in lines[:-1]), lines[:3]
        assert lines[: len(log_lines)] == log_lines  # every earlier line, whole
        log_lines = lines[:-1]
    assert kills >= 5
    assert len(expected) > 0
    # a final reader sees every game; any cut-off one was kept in a side file
    games, _ = ResultsFile(str(pgn)).load()
    assert [int(g.tags["Round"]) for g in games] == list(range(1, len(games) + 1))
    for side in tmp_path.glob("g.pgn.cut-off*"):
        assert side.read_bytes().startswith(b'[Event "t"]'[: len(side.read_bytes())])


def _killable_match(args: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "canter", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


@pytest.mark.skipif(os.name != "posix", reason="signals")
def test_a_match_killed_at_random_moments_loses_and_repeats_no_game(tmp_path: Path) -> None:
    pgn, summary, log = tmp_path / "g.pgn", tmp_path / "s.json", tmp_path / "io.log"
    games = 10
    args = ["match", "--engine", CANTER, "--engine", CANTER, "--games", str(games),
            "--depth", "1", "--maxplies", "8", "--pgn", str(pgn), "--json", str(summary),
            "--log", str(log)]
    rng = random.Random(3)
    kept = b""
    killed = finished = 0
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and killed < 5:
        proc = _killable_match(args)
        time.sleep(rng.uniform(0.2, 1.2))
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # the arbiter and its engines, at once
            killed += 1
        out, err = proc.communicate(timeout=30)
        if proc.returncode == 0:
            finished += 1
        else:
            assert proc.returncode == -signal.SIGKILL, err
        data = pgn.read_bytes() if pgn.exists() else b""
        assert data.startswith(kept), "a complete game was changed or lost"
        contents = parse_contents(data, str(pgn))
        kept = data[: contents.kept]
        if summary.exists():
            assert json.loads(summary.read_text())["games_scheduled"] == games
        if log.exists():
            lines = log.read_text().split("\n")
            assert all(_log_line_ok(line) for line in lines[:-1]), lines[:3]
        if finished:
            break
    assert killed >= 1
    proc = subprocess.run([sys.executable, "-m", "canter", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    if kept:
        assert "Resuming:" in proc.stdout
    final = pgn.read_bytes()
    assert final.startswith(kept)
    rounds = [int(g.tags["Round"]) for g in read_games(final.decode())]
    assert sorted(rounds) == list(range(1, games + 1))  # none lost, none twice
    assert json.loads(summary.read_text())["games_played"] == games
    lines = log.read_text().split("\n")
    assert lines[-1] == "" and all(_log_line_ok(line) for line in lines[:-1])


def test_a_record_that_cannot_be_written_stops_the_run_with_its_summary(tmp_path, monkeypatch):
    # A full disk at the second game: the first game stays in --pgn, the summary and
    # --json (on another disk) still say what was played, and the run fails with exit 1.
    import errno

    from click.testing import CliRunner

    from canter.adapters.arbiter import run as run_module
    from canter.cli import main

    appended = []
    real_append = run_module.ResultsFile.append

    def append(self, record):
        if appended:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        appended.append(record)
        real_append(self, record)

    monkeypatch.setattr(run_module.ResultsFile, "append", append)
    pgn, js = tmp_path / "g.pgn", tmp_path / "s.json"
    result = CliRunner().invoke(main, [
        "match", "--engine", CANTER, "--engine", CANTER, "--games", "4", "--depth", "1",
        "--maxplies", "6", "--pgn", str(pgn), "--json", str(js)])
    assert result.exit_code == 1, result.output
    assert "game 2 could not be written (No space left on device)" in result.output
    assert "Games played: 1 of 4" in result.output  # the summary
    summary = json.loads(js.read_text())
    assert summary["games_played"] == 1 and summary["interrupted"] is True
    assert len(read_games_file(str(pgn))) == 1
