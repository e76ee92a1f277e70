"""The client library against scripted fake engines, through real pipes."""

from __future__ import annotations

import io
import os
import sys
import time
from pathlib import Path

import pytest

from canter.adapters.client.engine import (
    FLOOD_GRACE,
    Engine,
    EngineDied,
    EngineProtocolError,
    EngineStalled,
    EngineStateError,
    Limit,
    position_command,
)
from canter.engine import Position, parse_move

FAKE = str(Path(__file__).parent / "fake_engines" / "scripted.py")


def fake(*args: str) -> list[str]:
    return [sys.executable, FAKE, *args]


def sent(engine: Engine) -> list[str]:
    return [r.line for r in engine.log if r.direction == ">"]


def received(engine: Engine) -> list[str]:
    return [r.line for r in engine.log if r.direction == "<"]


def test_handshake_reads_id_and_options():
    with Engine.start(fake("--name", "Fake One")) as engine:
        assert engine.id == {"name": "Fake One", "author": "canter tests"}
        assert engine.name == "Fake One"
        opts = engine.options
        assert set(opts) == {"hash", "ponder", "style", "uci_variant", "book file", "clear hash"}
        assert (opts["hash"].type, opts["hash"].default) == ("spin", 16)
        assert (opts["hash"].min, opts["hash"].max) == (1, 1024)
        assert opts["ponder"].default is False
        assert opts["style"].var == ("Solid", "Normal", "Wild")
        assert opts["book file"].name == "Book File" and opts["book file"].default == ""
        assert opts["clear hash"].type == "button"
        assert sent(engine) == ["uci"]
    assert engine.exit_code == 0
    assert sent(engine)[-1] == "quit"


@pytest.mark.skipif(not hasattr(os, "getsid"), reason="POSIX sessions")
def test_new_session_keeps_the_engine_out_of_the_terminals_signals():
    # A terminal's Ctrl-C goes to its foreground process group: an engine in a session of
    # its own is not in it, and is stopped by whoever started it.
    with Engine.start(fake()) as plain, Engine.start(fake(), new_session=True) as alone:
        assert os.getpgid(plain.pid) == os.getpgid(0)
        assert os.getsid(alone.pid) == os.getpgid(alone.pid) == alone.pid != os.getsid(0)


@pytest.mark.skipif(not hasattr(os, "getsid"), reason="POSIX sessions")
def test_kill_takes_a_wrapped_engine_with_its_wrapper_in_a_session_of_its_own():
    # `sh -c "engine; true"` keeps the shell as the engine's parent: killing the shell
    # alone left the engine running, answering, and holding the pipes.
    wrapped = ["sh", "-c", f"{sys.executable} {FAKE}; true"]
    engine = Engine.start(wrapped, new_session=True)
    try:
        engine.kill()
        with pytest.raises(EngineDied):
            engine.ping(timeout=5)
    finally:
        engine.close()


@pytest.mark.skipif(not hasattr(os, "getsid"), reason="POSIX sessions")
def test_the_arbiters_engines_run_in_sessions_of_their_own():
    from canter.adapters.arbiter.engines import EngineSpec
    from canter.adapters.arbiter.game import EnginePool, Player, Settings
    from canter.adapters.arbiter.tc import TimeControl

    pool = EnginePool(Settings("camelot"))
    try:
        engine = pool.get(Player(EngineSpec(fake(), name="f"), TimeControl(depth=1), 1.0))
        assert os.getsid(engine.pid) == engine.pid != os.getsid(0)
    finally:
        pool.close()


def test_configure_sends_checked_values():
    with Engine.start(fake()) as engine:
        engine.configure(
            {
                "hash": 64,
                "Ponder": True,
                "style": "wild",
                "Book File": "a b.txt",
                "Clear Hash": None,
            }
        )
        engine.ping()
        assert sent(engine)[1:6] == [
            "setoption name Hash value 64",
            "setoption name Ponder value true",
            "setoption name Style value Wild",
            "setoption name Book File value a b.txt",
            "setoption name Clear Hash",
        ]
        # the fake echoes what it understood
        assert "info string set Book File=a b.txt" in received(engine)
        for bad in ({"Hash": 0}, {"Hash": 2000}, {"Hash": "x"}, {"Style": "Odd"}, {"Nope": 1}):
            with pytest.raises(ValueError):
                engine.configure(bad)
        with pytest.raises(ValueError, match="no option 'Nope'"):
            engine.configure({"Nope": 1})
        assert len(sent(engine)) == 7  # nothing sent for the bad ones


def test_play_returns_move_and_merged_info():
    with Engine.start(fake("--move", "C8-D9", "--infos", "3")) as engine:
        engine.new_game()
        result = engine.play("startpos", Limit(depth=3), moves=["C6-E8-G8", "J11-H11"])
        assert result.move == "C8-D9" and result.ponder is None
        assert sent(engine)[-2:] == ["position startpos moves C6-E8-G8 J11-H11", "go depth 3"]
        # last of three info lines: depth 3, cp 30, nodes 300, time 3 ms
        assert result.info.depth == 3 and result.info.seldepth == 4
        assert result.info.score is not None and result.info.score.cp == 30
        assert str(result.info.score) == "+0.30"
        assert result.info.nodes == 300 and result.info.time == pytest.approx(0.003)
        assert result.info.pv == ["C6-C7", "H11-H10"]
        assert [i.depth for i in result.infos] == [1, 2, 3]
        assert 0 < result.elapsed < 5
        assert engine.analyse("camelot x y", Limit(nodes=5)).depth == 3
        assert sent(engine)[-2:] == ["position camelot x y", "go nodes 5"]


def test_info_callback_sees_every_line():
    seen = []
    with Engine.start(fake("--move", "C8-D9")) as engine:
        engine.play("startpos", Limit(movetime=0.05), info=seen.append)
        assert sent(engine)[-1] == "go movetime 50"
    assert [i.depth for i in seen] == [1, 2]


def test_go_arguments_for_clocks():
    two = Limit(times=(60, 50.5), incs=(1, 0.25), movestogo=40)
    assert two.go_arguments() == ("wtime 60000 btime 50500 winc 1000 binc 250 movestogo 40".split())
    three = Limit(times=(1, 2, 3.5))
    assert three.go_arguments() == "bluetime 1000 redtime 2000 greentime 3500".split()
    assert Limit(depth=4, nodes=10, mate=2).go_arguments() == "depth 4 nodes 10 mate 2".split()
    assert Limit(infinite=True).go_arguments() == ["infinite"]
    four = Limit(times=(1, 2, 3, 4), incs=(0.1, 0.2, 0.3, 0.4))
    assert four.go_arguments() == ("redtime 1000 greentime 2000 bluetime 3000 yellowtime 4000 "
                                   "redinc 100 greeninc 200 blueinc 300 yellowinc 400").split()
    with pytest.raises(ValueError, match="clocks for 5 seats are not supported"):
        Limit(times=(1, 2, 3, 4, 5))  # refused where it is built, not when first sent
    with pytest.raises(ValueError, match="one increment per seat"):
        Limit(times=(1, 2), incs=(1,))
    # a clock may have run below zero (the engine is told 0), but never be no number
    assert Limit(times=(-0.5, 3)).go_arguments()[:2] == ["wtime", "0"]
    with pytest.raises(ValueError, match="finite"):
        Limit(times=(float("nan"), 3))
    # the time bound used for the default timeout: the larger clock plus its increment
    assert two.bound() == pytest.approx(61.0)
    assert Limit(depth=3).bound() is None


@pytest.mark.parametrize(("fields", "needle"), [
    ({"depth": 0}, "depth must be a whole number of at least 1, not 0"),
    ({"depth": -1}, "depth must be"),
    ({"nodes": 0}, "nodes must be"),
    ({"mate": 2.5}, "mate must be"),
    ({"movestogo": True}, "movestogo must be"),
    ({"movetime": -1}, "movetime must be a number of seconds above 0, not -1"),
    ({"movetime": 0}, "movetime must be"),
    ({"movetime": float("inf")}, "movetime must be"),
])
def test_a_limit_no_engine_could_honour_is_refused_when_built(fields, needle):
    with pytest.raises(ValueError, match=needle):
        Limit(**fields)


def test_position_command():
    assert position_command() == "position startpos"
    assert position_command("camelot 2/8 w", ["C8-D9"]) == "position camelot 2/8 w moves C8-D9"
    with pytest.raises(ValueError):
        position_command("startpos", ["C8-D9 E1-E2"])


def test_streaming_analysis_with_ping_and_stop():
    with Engine.start(fake("--move", "C8-D9", "--infos", "2")) as engine:
        with engine.analysis("startpos") as analysis:
            assert sent(engine)[-1] == "go infinite"
            first = next(analysis)
            assert first.depth == 1
            engine.ping()  # isready during the search; the info lines stay with it
            assert engine.searching
            with pytest.raises(EngineStateError):
                engine.play("startpos", Limit(depth=1))
            analysis.stop()
            depths = [info.depth for info in analysis]
            assert depths == [2]
            result = analysis.wait()
        assert result.move == "C8-D9" and result.info.depth == 2
        assert not engine.searching
        assert engine.play("startpos", Limit(depth=1)).move == "C8-D9"


def test_analysis_context_exit_stops_the_search():
    with Engine.start(fake("--move", "C8-D9")) as engine:
        with engine.analysis("startpos"):
            pass
        assert sent(engine)[-1] == "stop" and not engine.searching
        assert received(engine)[-1] == "bestmove C8-D9"


def test_engine_dies_during_search_with_exit_code():
    engine = Engine.start(fake("--die-at", "go", "--exit-code", "7"))
    with pytest.raises(EngineDied) as info:
        engine.play("startpos", Limit(depth=1))
    assert info.value.exit_code == 7 and info.value.step == "search"
    assert not engine.alive and not engine.searching
    engine.close()


def test_engine_dies_on_second_game_only():
    with Engine.start(fake("--die-at", "go:2", "--move", "C8-D9")) as engine:
        assert engine.play("startpos", Limit(depth=1)).move == "C8-D9"
        with pytest.raises(EngineDied) as info:
            engine.play("startpos", Limit(depth=1))
        assert info.value.exit_code == 3


def test_engine_dies_in_handshake():
    with pytest.raises(EngineDied) as info:
        Engine.start(fake("--die-at", "uci", "--exit-code", "5"))
    assert info.value.exit_code == 5 and info.value.step == "handshake"


def test_engine_that_cannot_start():
    with pytest.raises(EngineDied) as info:
        Engine.start(["/nonexistent/engine-binary"])
    assert info.value.step == "start" and info.value.exit_code is None
    assert str(info.value) == ("engine could not be started: "
                               "No such file or directory: /nonexistent/engine-binary")


def test_stall_in_search_then_close():
    engine = Engine.start(fake("--hang-at", "go"))
    t0 = time.monotonic()
    cpu0 = time.process_time()
    with pytest.raises(EngineStalled) as info:
        engine.play("startpos", Limit(depth=1), timeout=0.5)
    wall = time.monotonic() - t0
    # the wait blocks on the pipe instead of polling it
    assert time.process_time() - cpu0 < 0.2
    assert 0.45 <= info.value.elapsed < 5 and 0.45 <= wall < 5
    assert info.value.step == "search" and engine.searching and engine.alive
    with pytest.raises(EngineStalled):
        engine.stop(timeout=0.2)  # it hangs: stop gets no bestmove either
    code = engine.close()
    assert code is not None and code < 0  # killed by a signal
    with pytest.raises(EngineStateError):
        engine.ping()


def test_stall_on_isready():
    with Engine.start(fake("--hang-at", "isready")) as engine:
        engine.timeout = 0.3  # for isready and quit; the handshake had the default
        t0 = time.monotonic()
        with pytest.raises(EngineStalled) as info:
            engine.ping()
        assert info.value.step == "isready" and info.value.timeout == pytest.approx(0.3)
        assert time.monotonic() - t0 < 5
    # quit went unanswered too: killed after the timeout
    assert engine.exit_code is not None and engine.exit_code < 0


def test_slow_move_reports_elapsed_time():
    with Engine.start(fake("--delay", "0.3", "--move", "C8-D9")) as engine:
        result = engine.play("startpos", Limit(movetime=0.1))
        assert result.elapsed >= 0.3  # the arbiter judges the overrun from this
        with pytest.raises(EngineStalled):
            engine.play("startpos", Limit(movetime=0.05), timeout=0.1)
        # stop() resynchronises: the late bestmove is consumed
        late = engine.stop(timeout=2)
        assert late is not None and late.move == "C8-D9"
        assert engine.ping() >= 0


@pytest.mark.parametrize(
    ("event", "text", "step", "reason"),
    [
        ("go", "bestmove zz", "search", "not a move"),
        ("go", "bestmove", "search", "without a move"),
        ("uci", "option name X type bogus", "handshake", "unknown type"),
        ("uci", "id name", "handshake", "id name"),
    ],
)
def test_malformed_lines_are_protocol_errors(event, text, step, reason):
    engine = Engine(fake("--say-at", event, text))
    try:
        with pytest.raises(EngineProtocolError) as info:
            engine.handshake()
            engine.play("startpos", Limit(depth=1), timeout=20)
        assert info.value.line == text and info.value.step == step
        assert reason in info.value.reason
    finally:
        engine.close()


@pytest.mark.parametrize(("text", "reason"), [("info depth x", "integer"),
                                             ("info score cp 1 mate 2", "exactly one")])
def test_a_malformed_info_line_is_passed_over_unless_strict(text, reason):
    said = ["--say-at", "go", text + "\\nbestmove C6-C7"]
    engine = Engine(fake(*said))
    try:
        engine.handshake()
        result = engine.play("startpos", Limit(depth=1), timeout=20)
        assert result.move == "C6-C7"
        (ignored,) = engine.ignored
        assert reason in ignored and ignored.endswith(": " + text)
    finally:
        engine.close()
    engine = Engine(fake(*said), strict=True)
    try:
        with pytest.raises(EngineProtocolError) as info:
            engine.handshake()
            engine.play("startpos", Limit(depth=1), timeout=20)
        assert info.value.line == text and reason in info.value.reason
    finally:
        engine.close()


def test_an_engine_found_dead_on_a_write_leaves_its_last_words_in_the_error():
    # It wrote why it ended to a pipe no one read, then exited; the client learns of it
    # only when a write fails. Its last lines belong in the error's tail all the same.
    engine = Engine.start(fake("--say-at", "ucinewgame", "info string fatal: table corrupt",
                               "--die-at", "debug"))
    try:
        engine.send("ucinewgame")
        engine.send("debug on")
        engine._proc.proc.wait(timeout=10)
        with pytest.raises(EngineDied) as info:
            for _ in range(100):  # (a write may still land in the pipe's buffer once)
                engine.ping(timeout=5)
        assert "info string fatal: table corrupt" in info.value.tail
    finally:
        engine.close()


def test_a_malformed_bestmove_ends_the_search():
    # The error says what was wrong; the search is over all the same, so stop() has
    # nothing to wait for and the engine can search again.
    with Engine.start(fake("--say-at", "go", "bestmove zz")) as engine:
        with pytest.raises(EngineProtocolError):
            engine.play("startpos", Limit(depth=1), timeout=20)
        started = time.monotonic()
        engine.stop(timeout=2)  # raised EngineStalled when it waited for a bestmove
        assert time.monotonic() - started < 1.9  # (it waited the whole 2 s)
        engine.ping(timeout=5)  # and the engine still answers


def test_the_log_tail_is_read_safely_while_stderr_is_logged():
    # An engine that dies while it still writes to stderr: the tail of its output is read
    # as the stderr thread adds to the log.
    import threading

    with Engine.start(fake(), log_limit=None) as engine:
        tail = engine._tail()
        assert tail[-1] == "uciok"
        for _ in range(20_000):  # a long log, and threads switched often: a read without
            engine._record("!", "noise")  # the lock meets an append within a few tries
        done = threading.Event()
        interval = sys.getswitchinterval()
        sys.setswitchinterval(1e-6)

        def chatter() -> None:
            while not done.is_set():
                for _ in range(50):
                    engine._record("!", "noise")
                time.sleep(0)  # (a tight loop could starve the reader of the lock)

        thread = threading.Thread(target=chatter)
        thread.start()
        try:
            for _ in range(100):
                assert engine._tail() == tail
        finally:
            sys.setswitchinterval(interval)
            done.set()
            thread.join()


def test_garbage_lines_ignored_unless_strict():
    say = ["--say-at", "go", "hello there\\nbestmove C8-D9"]
    with Engine.start(fake(*say)) as engine:
        assert engine.play("startpos", Limit(depth=1)).move == "C8-D9"
        assert "hello there" in received(engine)
    with Engine.start(fake(*say), strict=True) as engine:
        with pytest.raises(EngineProtocolError) as info:
            engine.play("startpos", Limit(depth=1))
        assert info.value.line == "hello there"


def test_stderr_is_logged_apart_and_never_protocol(tmp_path):
    records = []
    log_path = tmp_path / "engine.log"
    with Engine.start(
        fake("--stderr", "warming up"), strict=True, on_line=records.append, log_file=log_path
    ) as engine:
        engine.ping()
        deadline = time.monotonic() + 2
        while not any(r.direction == "!" for r in records) and time.monotonic() < deadline:
            time.sleep(0.01)
    directions = [(r.direction, r.line) for r in records]
    assert ("!", "warming up") in directions
    assert directions[0] == (">", "uci") and (">", "quit") in directions
    # named after its command until the handshake gives its id name
    assert records[0].engine == Path(sys.executable).name and records[-1].engine == "Scripted"
    text = log_path.read_text()
    assert " > isready" in text and " < readyok" in text and " ! warming up" in text
    times = [r.elapsed for r in records if r.direction != "!"]
    assert times == sorted(times)


def test_cwd_env_and_log_stream(tmp_path):
    stream = io.StringIO()
    with Engine.start(
        fake(), cwd=tmp_path, extra_env={"FAKE_ENGINE_REPORT": "yes"}, log_file=stream
    ) as engine:
        assert f"info string cwd={os.path.realpath(tmp_path)} report=yes" in received(engine)
    assert "< uciok" in stream.getvalue()


def test_bestmove_none_and_ponder():
    with Engine.start(fake("--say-at", "go", "bestmove (none)")) as engine:
        assert engine.play("startpos", Limit(depth=1)).move is None
    with Engine.start(fake("--say-at", "go", "bestmove C8-D9 ponder H11-F9")) as engine:
        result = engine.play("startpos", Limit(depth=1))
        assert (result.move, result.ponder) == ("C8-D9", "H11-F9")


def test_quit_after_quit_is_refused():
    engine = Engine.start(fake())
    assert engine.quit() == 0
    with pytest.raises(EngineStateError):
        engine.play("startpos", Limit(depth=1))
    engine.close()


def test_fake_engine_plays_legal_moves_of_either_game():
    # the fake engine stands in for real ones in arbiter tests: its default moves are legal
    from canter.engine import Position, get_variant, parse_move

    with Engine.start(fake()) as engine:
        for variant in ("tri-camelot", "camelot"):
            engine.configure({"UCI_Variant": variant})
            pos = Position.start(get_variant(variant))
            moves: list[str] = []
            for _ in range(4):
                move = engine.play("startpos", Limit(depth=1), moves=moves).move
                assert move is not None
                pos.push(parse_move(pos, move))  # raises if illegal
                moves.append(move)


def test_stop_ignored_is_a_stall():
    with Engine.start(fake("--ignore-stop"), timeout=5) as engine:
        analysis = engine.analysis("startpos")
        analysis.stop()
        with pytest.raises(EngineStalled) as info:
            analysis.wait(timeout=0.3)
        assert info.value.step == "analysis" and engine.searching
        engine.close()


def test_kill_from_another_thread_wakes_a_blocked_search():
    import threading

    engine = Engine.start(fake("--hang-at", "go"))
    threading.Timer(0.3, engine.kill).start()
    with pytest.raises(EngineDied) as info:
        engine.play("startpos", Limit(depth=1), timeout=20)
    assert info.value.exit_code is not None and info.value.exit_code < 0
    engine.close()


def test_quit_alone_closes_a_log_file_the_client_opened(tmp_path):
    path = tmp_path / "engine.log"
    engine = Engine.start(fake(), log_file=str(path))
    assert engine.quit() == 0
    assert engine._log_file is None  # closed, not left to the garbage collector
    assert "> quit" in path.read_text()


def test_an_engine_that_prints_without_end_is_stalled_at_its_deadline():
    # Lines keep coming, so the wait never times out; the deadline must still hold.
    engine = Engine.start(fake("--flood"))
    t0 = time.monotonic()
    with pytest.raises(EngineStalled) as info:
        engine.play("startpos", Limit(depth=1), timeout=0.3)
    wall = time.monotonic() - t0
    assert info.value.step == "search" and 0.3 <= wall < 0.3 + FLOOD_GRACE + 3
    assert engine.alive
    engine.close()


def test_an_engine_that_dies_after_a_huge_line_is_quoted_short():
    text = str(EngineDied("handshake", 3, ["x" * 10_000_000]))
    assert text.startswith("engine died during handshake (exit code 3); last output: 'xxx")
    assert text.endswith("... (10,000,000 characters)'") and len(text) < 300


def test_an_engine_killed_by_a_signal_is_named_so():
    assert str(EngineDied("handshake", -11)) == (
        "engine died during handshake (killed by signal 11 (SIGSEGV))")
    assert str(EngineDied("search", None)) == (
        "engine died during search (it closed its output; its process still runs)")
    assert str(EngineDied("search", 2)) == "engine died during search (exit code 2)"


BAD = str(Path(__file__).parent / "bad_engines" / "bad_engine.py")


def test_a_line_written_after_the_answer_never_passes_for_the_next_one():
    # A second bestmove after the first search's: the next search gets its own move, not
    # the stray A1-A2 (which the engine never chose for that position).
    with Engine.start([sys.executable, BAD, "--stray-after-go", "1"]) as engine:
        engine.handshake()
        first = engine.play("startpos", Limit(depth=1), timeout=20)
        time.sleep(0.3)  # (the stray line is in by now)
        second = engine.play("startpos", Limit(depth=1), moves=[first.move], timeout=20)
        assert second.move != "A1-A2"
        pos = Position.start("camelot")
        pos.push(parse_move(pos, first.move))
        assert parse_move(pos, second.move) in pos.legal_moves()
        assert ("<", "bestmove A1-A2") in [(r.direction, r.line) for r in engine.log]


def test_search_output_after_its_search_is_ignored_between_games():
    # An info line that would not parse, written after the game's last search, is no one's
    # search output: the next game's isready is answered, not a protocol error.
    stray = "info depth 99 score cp 99999 pv ZZ"
    with Engine.start([sys.executable, BAD, "--stray-after-go", "1", "--stray", stray]) as engine:
        engine.handshake()
        engine.play("startpos", Limit(depth=1), timeout=20)
        time.sleep(0.3)
        engine.new_game(timeout=10)
        assert engine.play("startpos", Limit(depth=1), timeout=20).move


def bad(*args: str) -> list[str]:
    return [sys.executable, BAD, *args]


def test_a_late_error_line_is_no_refusal_of_the_next_query():
    # An `info string error` written unasked after the last search belongs to no query:
    # the next checked_position must not take it for the engine refusing its position.
    late = "info string error: late complaint"
    with Engine.start(bad("--stray-after-go", "1", "--stray", late)) as engine:
        engine.play("startpos", Limit(depth=1), timeout=20)
        time.sleep(0.2)  # (the stray line is in by now)
        engine.checked_position("startpos", ["D6-F8"])
        assert engine.errors == ["late complaint"]  # still kept, just not blamed on it
    answer = "bestmove C8-D9\\ninfo string error: late complaint"
    with Engine.start(fake("--say-at", "go", answer, "--say-at", "legal", "legal F8-F9")) as engine:
        engine.play("startpos", Limit(depth=1))
        time.sleep(0.2)
        assert engine.legal("F8") == ["F8-F9"]


def test_quit_or_close_during_a_search_ends_it_and_every_call_is_refused():
    for end in ("quit", "close"):
        engine = Engine.start(fake())
        analysis = engine.analysis("startpos")
        assert next(analysis).depth == 1
        getattr(engine, end)()
        assert not engine.searching
        for call in (engine.stop, analysis.stop, analysis.wait, analysis.next,
                     analysis.__next__):
            with pytest.raises(EngineStateError, match="the engine has quit"):
                call()
        engine.close()


def test_a_finished_analysis_stays_readable_after_quit():
    with Engine.start(fake("--move", "C8-D9")) as engine:
        analysis = engine.analysis("startpos", Limit(depth=2))
        result = analysis.wait(timeout=5)
    assert analysis.wait() is result and analysis.next() is not None  # (infos not iterated)


def test_a_non_callable_info_is_refused_before_anything_is_sent():
    with Engine.start(fake()) as engine:
        before = sent(engine)
        with pytest.raises(TypeError, match="info must be a function"):
            engine.play("startpos", Limit(depth=1), info=1)  # type: ignore[arg-type]
        assert sent(engine) == before and not engine.searching


def test_a_raising_info_callback_stops_its_search_and_no_later_call_sees_it_again():
    calls = []

    def callback(info):
        calls.append(info)
        raise RuntimeError("callback broke")

    with Engine.start(fake("--move", "C8-D9", "--infos", "3")) as engine:
        with pytest.raises(RuntimeError, match="callback broke"):
            engine.play("startpos", Limit(depth=3), info=callback)
        assert not engine.searching and len(calls) == 1  # called no more once it raised
        assert sent(engine)[-1] == "stop"
        assert engine.play("startpos", Limit(depth=1)).move == "C8-D9"
        assert len(calls) == 1


def test_analysis_next_keeps_the_deadline_given_to_analysis():
    import threading

    engine = Engine.start(fake("--infos", "1"))
    analysis = engine.analysis("startpos", timeout=0.2)
    assert analysis.next().depth == 1
    outcome: list[BaseException] = []

    def wait_for_next() -> None:
        try:
            analysis.next()  # nothing more comes before the stop that never is sent
        except BaseException as exc:
            outcome.append(exc)

    # (in a thread, so that a next() without a deadline fails the test, not hangs it)
    waiter = threading.Thread(target=wait_for_next, daemon=True)
    waiter.start()
    waiter.join(timeout=3)
    engine.close()
    waiter.join(timeout=3)
    assert outcome and isinstance(outcome[0], EngineStalled), outcome
    assert outcome[0].step == "analysis"


def test_an_error_in_the_analysis_body_is_not_replaced_by_a_stalled_stop():
    with Engine.start(fake("--ignore-stop"), timeout=3) as engine:
        t0 = time.monotonic()
        with pytest.raises(KeyError, match="from the body"):
            with engine.analysis("startpos"):
                raise KeyError("from the body")
        assert time.monotonic() - t0 < 2  # a short stop, not the engine's 3 s
        assert engine.searching  # the stop went unanswered: the search still runs
        engine.close()


def test_stop_returns_the_result_of_a_stalled_play_whose_bestmove_a_ping_read():
    with Engine.start(bad("--slow-at-go", "1", "--delay", "0.4")) as engine:
        with pytest.raises(EngineStalled):
            engine.play("startpos", Limit(depth=1), timeout=0.1)
        engine.ping(timeout=5)  # answered after the late bestmove, which it reads
        assert not engine.searching
        result = engine.stop()
        assert result is not None and result.move is not None
        assert engine.stop() is None  # handed out once
        engine.play("startpos", Limit(depth=1), timeout=5)
        assert engine.stop() is None  # a search that returned its own result owes none


@pytest.mark.parametrize(("fields", "needle"), [
    ({"incs": (1, 1)}, "incs need clock times"),
    ({"movetime": 0.0004}, "at least 0.001 s"),
    ({"movetime": True}, "movetime must be a number of seconds above 0, not True"),
    ({"movetime": "1"}, "movetime must be a number"),
    ({"times": (True, 1)}, "times must be finite numbers"),
    ({"times": 60}, "times must be a sequence"),
    ({"times": (1, 1), "incs": (False, 0)}, "incs must be finite numbers"),
])
def test_a_limit_with_a_mistyped_field_is_refused_when_built(fields, needle):
    with pytest.raises(ValueError, match=needle):
        Limit(**fields)


def test_a_millisecond_movetime_is_still_sent():
    assert Limit(movetime=0.001).go_arguments() == ["movetime", "1"]


def test_a_string_of_moves_is_refused_before_anything_is_sent():
    with Engine.start(fake()) as engine:
        before = sent(engine)
        calls = [
            lambda: engine.play("startpos", Limit(depth=1), moves="D6-F8"),
            lambda: engine.play("startpos", Limit(depth=1), searchmoves="D6-F8"),
            lambda: engine.analysis("startpos", moves="D6-F8"),
            lambda: engine.set_position("startpos", "D6-F8"),
            lambda: engine.checked_position("startpos", "D6-F8"),
        ]
        for call in calls:
            with pytest.raises(TypeError, match="must be a list of moves, not a string"):
                call()
        assert sent(engine) == before and not engine.searching


def test_none_is_no_value_for_a_string_option():
    with Engine.start(fake()) as engine:
        before = sent(engine)
        with pytest.raises(ValueError, match="'Book File' is a string"):
            engine.configure({"Book File": None})
        assert sent(engine) == before


def test_only_error_and_warning_prefixes_with_a_colon_count():
    lines = "\\n".join([
        "info string errors: none so far",
        "info string warning unused",
        "info string error: refused",
        "info string warning: ignored",
        "readyok",
    ])
    with Engine.start(fake("--say-at", "isready", lines)) as engine:
        engine.ping()
        assert (engine.errors, engine.warnings) == (["refused"], ["ignored"])


def test_an_engine_timeout_of_none_is_refused_before_spawning():
    for timeout in (None, 0, float("nan")):
        with pytest.raises(ValueError, match="timeout must be a number of seconds above 0"):
            Engine.start(fake(), timeout=timeout)


def test_a_call_refused_during_a_search_is_named_in_the_message():
    with Engine.start(fake()) as engine, engine.analysis("startpos"):
        for name, call in [
            ("play", lambda: engine.play("startpos", Limit(depth=1))),
            ("analysis", lambda: engine.analysis("startpos")),
            ("legal", engine.legal),
            ("checked_position", engine.checked_position),
            ("set_position", engine.set_position),
        ]:
            with pytest.raises(EngineStateError,
                               match=rf"cannot {name}\(\) while a search runs; stop\(\) it"):
                call()
