"""Faults found in `canter play` and `canter show`, each fixed with the test here.

`canter play` runs in a pseudo-terminal as in tests/test_play.py (or through pipes where a
terminal would get in the way: a pty's line discipline caps a line at 4096 bytes); the
pieces that need no engine process are tested directly.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner

from canter.adapters.pictures.cli import show
from canter.adapters.play.game import (
    MAX_LINE,
    DrawClaimed,
    EngineSettings,
    LineReader,
    LineTooLong,
    Resigned,
    TerminalGame,
    parse_clock,
)
from canter.adapters.records.format import read_games_file
from canter.engine import Position, Rules, parse_move

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 30
SCRIPTED = ROOT / "tests" / "fake_engines" / "scripted.py"


def spawn(*args: str) -> pexpect.spawn:
    import signal

    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    return pexpect.spawn(sys.executable, ["-m", "canter", "play", *args], cwd=str(ROOT),
                         env=env, encoding="utf-8", timeout=TIMEOUT, dimensions=(60, 200),
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def run_play(*args: str, stdin: bytes = b"", shell_redirect: str = ""
             ) -> subprocess.CompletedProcess:
    """`canter play ARGS` through pipes; `shell_redirect` (e.g. '<&-') through a shell."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    command = [sys.executable, "-m", "canter", "play", *args]
    if shell_redirect:
        import shlex

        command = ["sh", "-c", f"exec {shlex.join(command)} {shell_redirect}"]
    return subprocess.run(command, input=None if shell_redirect else stdin,
                          capture_output=True, timeout=TIMEOUT, cwd=ROOT, env=env)


ONE_MOVE = '[Event "canter play"]\n[Variant "Camelot"]\n{rules}[Result "*"]\n\n1. C6-C7 *\n'


# ------------------------------------------------------------------ 1, 2: load FILE
def test_load_of_a_ruling_the_engine_refuses_is_an_engine_failure_not_a_crash(
        tmp_path) -> None:
    # The record is good, but its quiet limit is beyond the range canter's engine declares
    # for 'Rule Quiet Limit'. The load used to reconfigure the live engine after taking
    # the record: a traceback, and --save wrote the loaded record for the game played.
    record = tmp_path / "big.cgr"
    record.write_text(ONE_MOVE.format(rules='[Rules "quiet_limit=200000"]\n'))
    saved = tmp_path / "out.cgr"
    child = spawn("--human", "white", "--depth", "1", "--save", str(saved))
    child.expect("white> ")
    child.sendline(f"load {record}")
    child.expect("loaded 1 move from")
    # Black (the engine) is to move: a fresh engine is started and refuses the ruling; the
    # game stays and the person may move for it.
    child.expect("engine error: .*Rule Quiet Limit.*200000")
    child.expect("black> ")
    child.sendline("C11-C10")
    child.expect("white> ")
    child.sendline("quit")
    assert finish(child) == 0
    assert "Traceback" not in child.before
    [game] = read_games_file(str(saved))
    assert game.moves == ["C6-C7", "C11-C10"] and game.tags["Rules"] == "quiet_limit=200000"


def test_hint_after_loading_a_ruling_the_engine_refuses_says_so(tmp_path) -> None:
    record = tmp_path / "big.cgr"
    record.write_text(ONE_MOVE.format(rules='[Rules "quiet_limit=200000"]\n'))
    child = spawn("--human", "all", "--depth", "1")
    child.expect("white> ")
    child.sendline("hint")  # the engine is running when the record comes
    child.expect(r"hint: \S+")
    child.expect("white> ")
    child.sendline(f"load {record}")
    child.expect("loaded 1 move from")
    child.expect("black> ")
    child.sendline("hint")
    child.expect("no hint: engine error: .*200000")
    child.expect("black> ")
    child.sendline("quit")
    assert finish(child) == 0


# An engine that exits right after its first move: it is dead, idle, when 'load' comes.
EXITS_AFTER_ITS_MOVE = """\
import sys
for line in sys.stdin:
    word = line.split()[:1]
    if word == ["uci"]:
        print("id name once"); print("uciok", flush=True)
    elif word == ["isready"]:
        print("readyok", flush=True)
    elif word == ["go"]:
        print("bestmove C11-C12", flush=True)
        sys.exit(0)
    elif word == ["quit"]:
        break
"""


def test_load_after_the_engine_died_idle_goes_on_with_a_fresh_engine(tmp_path) -> None:
    engine = tmp_path / "once.py"
    engine.write_text(EXITS_AFTER_ITS_MOVE)
    record = tmp_path / "one.cgr"
    record.write_text(ONE_MOVE.format(rules=""))
    saved = tmp_path / "out.cgr"
    child = spawn("--human", "white", "--engine", f"{sys.executable} {engine}",
                  "--save", str(saved))
    child.expect("white> ")
    child.sendline("J6-K6")
    child.expect("black plays C11-C12")
    child.expect("white> ")
    # It used to end the whole game here: 'engine error', status 1, the record saved.
    child.sendline(f"load {record}")
    child.expect("loaded 1 move from")
    child.expect("starting engine")
    child.expect("black plays C11-C12")
    child.expect("white> ")
    child.sendline("quit")
    assert finish(child) == 0
    assert "engine error" not in child.before
    [game] = read_games_file(str(saved))
    assert game.moves == ["C6-C7", "C11-C12"]


# ------------------------------------------------------------------ 3: the clock
def _clock(text: str, seat: str) -> float:
    """Seconds on `seat`'s clock in the last clocks line of `text`."""
    minutes, seconds = re.findall(rf"{seat} (\d+):(\d+(?:\.\d)?)", text)[-1]
    return 60 * int(minutes) + float(seconds)


def test_time_spent_before_undo_or_load_is_charged_to_the_clock(tmp_path) -> None:
    record = tmp_path / "one.cgr"
    record.write_text(ONE_MOVE.format(rules=""))
    child = spawn("--human", "all", "--clock", "0.05")  # 3 s each
    child.expect("white> ")
    child.sendline("C6-C7")
    child.expect("black> ")
    time.sleep(1.2)
    child.sendline("undo")  # it used to stop black's clock: wait, undo, a full clock again
    child.expect("took back C6-C7")
    child.expect("white> ")
    assert _clock(child.before, "black") <= 1.85
    assert _clock(child.before, "white") >= 2.5
    time.sleep(1.2)
    child.sendline(f"load {record}")
    child.expect("loaded 1 move")
    child.expect("black> ")
    assert _clock(child.before, "white") <= 1.85
    child.sendline("quit")
    assert finish(child) == 0


# ------------------------------------------------------------------ 4: resign, draw
def test_resign_at_the_failed_engines_seat_resigns_the_person(tmp_path) -> None:
    saved = tmp_path / "resigned.cgr"
    child = spawn("--human", "white", "--engine", f"{sys.executable} {SCRIPTED} --die-at go",
                  "--save", str(saved))
    child.expect("white> ")
    child.sendline("C6-B5")
    child.expect("engine error")
    child.expect("black> ")
    child.sendline("resign")  # it used to resign for black: the person won by giving up
    child.expect("game over: black wins: white resigns")
    assert finish(child) == 0
    [game] = read_games_file(str(saved))
    assert game.result == "0-1" and game.tags["Termination"] == "resignation"


def _game(start: Position, humans: set[int], said: list[str]) -> TerminalGame:
    return TerminalGame(start, [], humans, EngineSettings(["x"]), reader=object(),
                        write=said.append)


def test_resign_and_draw_at_an_engine_seat_speak_for_the_one_person_or_are_refused() -> None:
    said: list[str] = []
    tri = _game(Position.start("tri-camelot"), {0, 1}, said)
    tri.pos.turn = 2  # green, the engine's seat, prompted after it failed
    assert tri.cmd_resign([]) is False
    assert said[-1] == ("resign: green is the engine's seat and several people play "
                        "(blue, red): resign at your own prompt")
    one = _game(Position.start("tri-camelot"), {1}, said)
    one.pos.turn = 2
    with pytest.raises(Resigned) as resigned:
        one.cmd_resign([])
    assert resigned.value.args[0] == 1

    start = Position.start("camelot", Rules(repetition="claim"))
    shuffled = start.copy()
    for text in ["C6-C7", "C11-C10", "C7-C6", "C10-C11"] * 2:
        shuffled.push(parse_move(shuffled, text))
    game = _game(start, {1}, said)  # the person plays black; white (the engine) to move
    game.pos = shuffled
    with pytest.raises(DrawClaimed) as claimed:  # it used to be claimed for white
        game.cmd_draw([])
    assert claimed.value.args[0] == 1


# ------------------------------------------------------------------ 5: long lines
def test_a_long_line_is_read_in_linear_time_and_dropped(tmp_path) -> None:
    data = tmp_path / "input"
    data.write_bytes(b"a" * (16 << 20) + b"\nquit\n" + b"b" * MAX_LINE + b"\n"
                     + b"c" * (MAX_LINE + 1))
    fd = os.open(data, os.O_RDONLY)
    try:
        reader = LineReader(fd)
        began = time.monotonic()
        with pytest.raises(LineTooLong):
            reader.readline()
        assert time.monotonic() - began < 10  # (quadratic, 16 MB took 92 s)
        assert reader.readline() == "quit"
        assert reader.readline() == "b" * MAX_LINE  # the longest line kept
        with pytest.raises(LineTooLong):  # too long, cut off by the end of input
            reader.readline()
        assert reader.readline() is None
    finally:
        os.close(fd)


def test_a_long_line_is_dropped_across_a_timeout() -> None:
    read_end, write_end = os.pipe()
    try:
        reader = LineReader(read_end)
        # (more than a pipe holds: written from a thread while the reader drains it)
        writer = threading.Thread(target=os.write, args=(write_end, b"x" * (MAX_LINE * 2)))
        writer.start()
        while True:  # no newline yet: every call times out, and what came is dropped
            with pytest.raises(TimeoutError):
                reader.readline(0.3)
            if not writer.is_alive():
                break
        with pytest.raises(TimeoutError):  # the last of it
            reader.readline(0.3)
        assert reader.dropping and len(reader.buffer) <= MAX_LINE
        os.write(write_end, b"tail\nboard\n")
        with pytest.raises(LineTooLong):
            reader.readline(TIMEOUT)
        assert reader.readline(TIMEOUT) == "board"
    finally:
        os.close(read_end)
        os.close(write_end)


def test_play_ignores_a_long_line_and_goes_on() -> None:
    done = run_play("--human", "all", "--no-color",
                    stdin=b"C" * (200 * 1024) + b"\nC6-C7\nquit\n")
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr
    assert "a line of more than 65,536 bytes: ignored" in out
    assert "white plays C6-C7" in out and "CCCC" not in out


# ------------------------------------------------------------------ 6: show's frames
@pytest.mark.parametrize("option, name", [("--svg", "000.svg"), ("--html", "001.svg"),
                                          ("--svg", "./0001.svg")])
def test_show_refuses_a_picture_over_one_of_its_frames(tmp_path, option, name) -> None:
    frames = tmp_path / "fr"
    frames.mkdir()
    target = os.path.join(str(frames), name)
    result = CliRunner().invoke(show, ["--move", "C6-C7", "--svg-dir", str(frames),
                                       option, target])
    assert result.exit_code == 2, result.output
    assert f"{target} is a frame --svg-dir" in result.output
    assert list(frames.iterdir()) == []  # nothing drawn
    other = CliRunner().invoke(show, ["--move", "C6-C7", "--svg-dir", str(frames), option,
                                      str(tmp_path / "board.svg")])
    assert other.exit_code == 0, other.output
    assert "last move C6-C7" not in (frames / "000.svg").read_text()


# ------------------------------------------------------------------ 7: closed streams
@pytest.mark.parametrize("humans, redirect, said", [
    ("all", "<&-", "standard input is closed"),
    ("all", ">&-", "standard output is closed"),
    ("none", ">&-", "standard output is closed"),
])
def test_play_with_a_closed_stream_says_so(humans, redirect, said) -> None:
    done = run_play("--human", humans, "--depth", "1", shell_redirect=redirect)
    err = done.stderr.decode()
    assert done.returncode == 1 and f"Error: {said}" in err and "Traceback" not in err


def test_the_engine_plays_itself_with_input_closed() -> None:
    done = run_play("--variant", "camette", "--human", "none", "--depth", "1",
                    shell_redirect="<&-")
    assert done.returncode == 0, done.stderr.decode()
    assert "game over" in done.stdout.decode()


# ------------------------------------------------------------------ 8, 9
@pytest.mark.parametrize("text", ["\u0661", "\uff15", "5+\u0663", "\u0661.5"])
def test_a_clock_takes_ascii_digits_only(text) -> None:
    with pytest.raises(ValueError, match="is not MINUTES or MINUTES"):
        parse_clock(text)


def test_play_help_lists_every_command() -> None:
    from canter.adapters.play.cli import play

    text = " ".join(CliRunner().invoke(play, ["--help"]).output.split())
    listed = re.search(r"lists the commands \(([^)]*)\)", text).group(1)
    words = {item.split()[0] for item in listed.split(", ")}
    commands = set(TerminalGame.COMMANDS) - {"?"} | {"quit"}
    assert words == commands
