"""The client library when things go wrong around the engine: a child of the engine holding
its pipes, a log callback that raises, an engine that stops reading its input, a malformed
bestmove in a stream, floods of stderr. Real processes, through real pipes."""

from __future__ import annotations

import os
import resource
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from canter.adapters.client.engine import (
    QUICK_STOP,
    Engine,
    EngineDied,
    EngineProtocolError,
    EngineStalled,
    Limit,
    LogRecord,
)
from canter.adapters.client.parse import Option

HERE = Path(__file__).parent
FAKE = str(HERE / "fake_engines" / "scripted.py")
STDERR_ENGINE = str(HERE / "bad_engines" / "stderr_engine.py")

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX shells and sessions")


def fake(*args: str) -> list[str]:
    return [sys.executable, FAKE, *args]


def stderr_engine(*args: str) -> list[str]:
    return [sys.executable, STDERR_ENGINE, *args]


def sent(engine: Engine) -> list[str]:
    return [r.line for r in engine.log if r.direction == ">"]


def within(seconds: float, call: Callable[[], Any]) -> Any:
    """Run `call` on a thread and return what it returned (or raise what it raised); fail
    if it has not ended within `seconds`: the old code blocked for ever on several of these
    faults, and a test must fail then, not hang."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as exc:  # handed to the test's thread
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still blocked after {seconds} s"
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


@contextmanager
def wrapped_with_a_lingering_child(*args: str, timeout: float = 3.0) -> Iterator[Engine]:
    """The fake engine started by a wrapper that leaves a child (`sleep`) holding the
    engine's stdout and stderr open: the pipe does not end when the engine does. Not in a
    session of its own, so that kill() kills the engine alone (a killed group would take
    the child along and end the pipe); the child is killed by its pid afterwards."""
    with tempfile.TemporaryDirectory() as folder:
        pid_file = Path(folder) / "child.pid"
        command = ["sh", "-c", f"sleep 30 & echo $! > '{pid_file}'; "
                               f"exec '{sys.executable}' '{FAKE}' {' '.join(args)}"]
        engine = Engine.start(command, timeout=timeout)
        try:
            yield engine
        finally:
            engine.close()
            try:
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
            except (OSError, ValueError):
                pass


# ---------------------------------------------------------------- 1. death behind a child


@posix_only
def test_an_engine_that_dies_is_seen_dead_though_a_child_holds_its_output():
    # Death was noticed only by the end of stdout, which the child keeps open: the dead
    # engine passed for a stalled one (after the whole search deadline) and stayed
    # `searching`.
    with wrapped_with_a_lingering_child("--die-at", "go", "--move", "C6-C7") as engine:
        started = time.monotonic()
        with pytest.raises(EngineDied) as caught:
            engine.play("startpos", Limit(movetime=0.2))
        assert time.monotonic() - started < 3.0
        assert caught.value.exit_code == 3
        assert not engine.searching and not engine.alive


@posix_only
def test_a_search_without_deadline_ends_when_its_engine_dies_behind_a_child():
    # `go infinite` without timeout= waited for ever on the dead engine.
    with wrapped_with_a_lingering_child("--die-at", "stop") as engine:
        analysis = engine.analysis("startpos")
        analysis.stop()
        with pytest.raises(EngineDied) as caught:
            within(10, analysis.wait)
        assert caught.value.step == "analysis" and caught.value.exit_code == 3
        assert not engine.searching


@posix_only
def test_kill_from_another_thread_wakes_a_blocked_wait_though_a_child_holds_the_pipe():
    # Documented: a call blocked on the engine elsewhere then ends with EngineDied.
    with wrapped_with_a_lingering_child() as engine:
        analysis = engine.analysis("startpos")
        killer = threading.Timer(0.5, engine.kill)
        killer.start()
        started = time.monotonic()
        try:
            with pytest.raises(EngineDied):
                analysis.wait(timeout=10)
        finally:
            killer.cancel()
        assert time.monotonic() - started < 3.0


def test_the_last_words_of_an_engine_that_exits_are_still_read():
    # Seeing the process gone must not cut off what it wrote before it went.
    with Engine.start(fake("--say-at", "go", "info string my last words"),
                      timeout=3) as engine:
        engine.send("go depth 1")
        engine.send("quit")
        engine._proc.proc.wait(timeout=5)
        with pytest.raises(EngineDied) as caught:
            engine.ping()
        assert caught.value.tail[-1] == "info string my last words"


# ---------------------------------------------------------------- 2. log callbacks that raise


def test_an_on_line_that_raises_on_a_stderr_line_leaves_the_stderr_reader_reading():
    # The exception ended the reader thread, which closed the pipe: the engine's next write
    # to stderr failed and it died.
    raised: list[str] = []

    def on_line(record: LogRecord) -> None:
        if record.direction == "!" and "isready" in record.line and not raised:
            raised.append(record.line)
            raise RuntimeError("bug in my logger")

    with Engine.start(stderr_engine("--echo"), on_line=on_line, timeout=3) as engine:
        engine.ping()
        deadline = time.monotonic() + 3
        while not engine.log_errors and time.monotonic() < deadline:
            time.sleep(0.01)
        result = engine.play("startpos", Limit(depth=1))
        assert result.move == "C6-C7"
        engine.ping()
        assert engine.alive
        [error] = engine.log_errors
        assert isinstance(error, RuntimeError) and str(error) == "bug in my logger"
    assert engine.exit_code == 0
    assert [r.line for r in engine.log if r.direction == "!"][-1] == "debug: got quit"


def test_an_on_line_that_raises_on_the_go_line_does_not_wedge_the_search():
    # The line was recorded before it was written: the search was attached, its `go` never
    # sent, and the engine object stayed `searching` with a stop() that could only stall.
    calls = {"go": 0}

    def on_line(record: LogRecord) -> None:
        if record.direction == ">" and record.line.startswith("go"):
            calls["go"] += 1
            raise OSError("log disk full")

    with Engine.start(fake(), on_line=on_line, timeout=3) as engine:
        result = engine.play("startpos", Limit(depth=1))
        assert result.move is not None and not engine.searching
        assert sent(engine)[-1] == "go depth 1"
        assert calls["go"] == 1 and [str(e) for e in engine.log_errors] == ["log disk full"]
        engine.play("startpos", Limit(depth=1))  # still called for later lines
        assert calls["go"] == 2 and len(engine.log_errors) == 2


class _FullDisk:
    """A log stream whose writes fail after the first few."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.lines: list[str] = []

    def write(self, text: str) -> int:
        if len(self.lines) >= self.room:
            raise OSError(28, "No space left on device")
        self.lines.append(text)
        return len(text)

    def flush(self) -> None:
        pass


def test_a_log_file_that_fails_is_reported_not_raised_into_the_protocol():
    disk = _FullDisk(room=2)
    seen: list[str] = []
    with Engine.start(fake(), log_file=disk, on_line=lambda r: seen.append(r.line),  # type: ignore[arg-type]
                      timeout=3) as engine:
        assert engine.play("startpos", Limit(depth=1)).move is not None
        assert len(disk.lines) == 2
        assert engine.log_errors and all(isinstance(e, OSError) for e in engine.log_errors)
        assert "go depth 1" in seen  # the callback is still called after the file failed


# ---------------------------------------------------------------- 3. stderr in chunks


def test_a_flood_of_stderr_is_read_in_chunks_and_logged_whole():
    # Read a byte per system call, 2 MB of stderr took about 2 s of the client's CPU
    # (measured on the old code); in chunks it takes a small fraction of that. CPU time,
    # not wall time, so a busy machine does not make it fail.
    lines = 20_000
    with Engine.start(stderr_engine("--flood", str(lines), "--last", "bye"),
                      timeout=30) as engine:
        before = resource.getrusage(resource.RUSAGE_SELF)
        engine.ping()
        deadline = time.monotonic() + 60
        while (sum(1 for r in engine.log if r.direction == "!") < lines
               and time.monotonic() < deadline):
            time.sleep(0.02)
        after = resource.getrusage(resource.RUSAGE_SELF)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        stderr = [r.line for r in engine.log if r.direction == "!"]
        assert stderr == ["x" * 99] * lines
        assert cpu < 1.0, f"{cpu:.2f} s of CPU for 2 MB of stderr"
    # a last line without its newline is logged too
    assert [r.line for r in engine.log if r.direction == "!"][-1] == "bye"


# ---------------------------------------------------------------- 4. go perft


def test_go_raw_refuses_go_perft_which_never_ends_in_a_bestmove():
    with Engine.start(fake(), timeout=3) as engine:
        for line in ("go perft 1", "go PERFT 2"):
            with pytest.raises(ValueError, match=r"starts none .*engine\.query\("):
                engine.go_raw(line, timeout=1)
        assert sent(engine) == ["uci"] and not engine.searching
        engine.go_raw("go depth 1", timeout=3)  # other go lines as before


# ---------------------------------------------------------------- 5. malformed bestmove


def test_a_malformed_bestmove_in_a_stream_is_raised_again_by_every_later_wait():
    # The iteration raised it, and then wait() waited for a bestmove that had come.
    command = fake("--say-at", "stop", "info depth 1 score cp 0\\nbestmove zz")
    with Engine.start(command, timeout=3) as engine:
        analysis = engine.analysis("startpos")
        analysis.stop()
        with pytest.raises(EngineProtocolError) as first:
            for _ in analysis:
                pass
        assert first.value.line == "bestmove zz"
        assert not engine.searching and not analysis.done
        for later in (lambda: analysis.wait(timeout=3), lambda: analysis.next(timeout=3),
                      analysis.wait):
            with pytest.raises(EngineProtocolError) as again:
                within(10, later)
            assert again.value is first.value
        engine.ping()


def test_a_malformed_bestmove_of_go_raw_is_raised_again_by_read_bestmove():
    with Engine.start(fake("--say-at", "go", "bestmove zz"), timeout=3) as engine:
        with pytest.raises(EngineProtocolError) as first:
            engine.go_raw("go depth 1", timeout=3)
        with pytest.raises(EngineProtocolError) as again:
            engine.read_bestmove(timeout=3)
        assert again.value is first.value and not engine.searching


# ---------------------------------------------------------------- 6. leaving by an exception


def test_leaving_the_with_block_by_an_exception_still_sends_quit(tmp_path: Path):
    note = tmp_path / "quit.txt"
    with pytest.raises(KeyError):
        with Engine.start(fake("--note-quit", str(note))) as engine:
            engine.ping()
            raise KeyError("the caller's own failure")
    assert sent(engine)[-1] == "quit"
    assert note.read_text().startswith("quit ")
    assert engine.exit_code == 0


def test_leaving_by_an_exception_waits_only_briefly_for_an_engine_that_ignores_quit():
    with pytest.raises(KeyError):
        with Engine.start(fake("--hang-at", "quit"), timeout=10) as engine:
            started = time.monotonic()
            raise KeyError("the caller's own failure")
    assert time.monotonic() - started < QUICK_STOP + 3.0  # not the engine's 10 s
    assert engine.exit_code is not None and engine.exit_code < 0  # killed


# ---------------------------------------------------------------- 7. referee query timeouts


def test_every_referee_query_takes_a_timeout():
    calls: dict[str, Callable[..., Any]] = {}
    with Engine.start(fake("--hang-at", "legal"), timeout=10) as engine:
        calls = {"legal": engine.legal, "result": engine.result, "board": engine.board,
                 "pieces": engine.pieces, "turn": engine.turn, "ranking": engine.ranking,
                 "get_position": engine.get_position}
        for name, call in calls.items():
            started = time.monotonic()
            with pytest.raises(EngineStalled) as caught:
                call(timeout=0.2)
            assert time.monotonic() - started < 2.0, name
            assert caught.value.timeout == pytest.approx(0.2), name
        engine.kill()


# ---------------------------------------------------------------- 8. configure and \r


def test_configure_checks_every_value_for_a_carriage_return_before_sending_any():
    with Engine.start(fake(), timeout=3) as engine:
        with pytest.raises(ValueError, match=r"'Book File': a value cannot contain a line end"):
            engine.configure({"Hash": 1, "Book File": "a\rb"})
        assert sent(engine) == ["uci"]
    with pytest.raises(ValueError, match="line end"):
        Option("Path", "string").coerce("x\ry")


# ---------------------------------------------------------------- 9. next(timeout=...)


def test_next_with_a_timeout_reports_the_time_of_the_call_not_of_the_search():
    with Engine.start(fake(), timeout=3) as engine:
        analysis = engine.analysis("startpos")  # go infinite: two infos, then silence
        assert analysis.next(timeout=3) is not None
        assert analysis.next(timeout=3) is not None
        time.sleep(1.0)
        with pytest.raises(EngineStalled) as caught:
            analysis.next(timeout=0.3)
        assert caught.value.timeout == pytest.approx(0.3)
        assert 0.25 < caught.value.elapsed < 0.9
        engine.stop()


# ---------------------------------------------------------------- 10. a path as the command


@posix_only
def test_a_single_program_path_may_be_a_path_object(tmp_path: Path):
    program = tmp_path / "my engine"
    program.write_text(f"#!/bin/sh\nexec '{sys.executable}' '{FAKE}' \"$@\"\n")
    program.chmod(0o755)
    with Engine.start(program, timeout=5) as engine:
        assert engine.command == [str(program)] and engine.name == "Scripted"
    with Engine.start([program, Path("--name"), "Listed"], timeout=5) as engine:
        assert engine.command == [str(program), "--name", "Listed"]
        assert engine.name == "Listed"


# ---------------------------------------------------------------- 11. writes with a timeout


def test_a_write_to_an_engine_that_no_longer_reads_stalls_instead_of_blocking():
    # Once its input pipe was full, every write (quit too) blocked for ever.
    engine = Engine.start(fake("--hang-at", "isready"), timeout=0.5)
    try:
        with pytest.raises(EngineStalled):
            engine.ping()

        def fill() -> None:
            for _ in range(100_000):  # far more than a pipe holds
                engine.set_position("startpos", ["C6-C7"] * 20)

        with pytest.raises(EngineStalled) as caught:
            within(30, fill)
        assert caught.value.writing and caught.value.step == "position"
        assert "read none of its input" in str(caught.value)
        started = time.monotonic()
        within(10, lambda: engine.quit(timeout=0.5))  # gives up on the write, then kills
        assert time.monotonic() - started < 3.0
        assert engine.exit_code is not None and engine.exit_code < 0
    finally:
        engine.close()
