"""The client's raw search calls, `go_raw()` and `read_bestmove()`, against the scripted
engine of tests/bad_engines through real pipes (go ponder + ponderhit, a malformed go)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from canter.adapters.client.engine import Engine, EngineStalled, EngineStateError, Limit
from canter.engine import Position, get_variant, parse_move

BAD = str(Path(__file__).parent / "bad_engines" / "bad_engine.py")


def bad(*args: str) -> list[str]:
    return [sys.executable, BAD, *args]


def test_malformed_go_gets_its_lines_up_to_bestmove() -> None:
    with Engine.start(bad()) as engine:
        engine.set_position("startpos", ["D6-F8"])
        lines = engine.go_raw("go depth x movetime 200", timeout=5)
        assert lines[0] == "info string error: go: depth needs a number"
        assert lines[-1].startswith("bestmove ")
        pos = Position.start(get_variant("camelot"))
        pos.push(parse_move(pos, "D6-F8"))
        parse_move(pos, lines[-1].split()[1])  # a legal answer for Black
        assert not engine.searching
        assert engine.errors == ["go: depth needs a number", "go: unknown keyword 'x'"]
        # read_bestmove after the end gives the same lines again, at once
        assert engine.read_bestmove(timeout=0) == lines


def test_go_ponder_waits_for_ponderhit() -> None:
    with Engine.start(bad()) as engine:
        engine.set_position("startpos", ["D6-F8"])
        assert engine.go_raw("go ponder wtime 1000 btime 1000", wait=False) == []
        assert engine.searching
        time.sleep(0.1)
        engine.ping(timeout=2)  # reads the info line, which stays with the search
        assert engine.searching
        with pytest.raises(EngineStateError):
            engine.go_raw("go depth 1")  # one search at a time
        engine.send("ponderhit")
        lines = engine.read_bestmove(timeout=2)
        # every stdout line of the search, the readyok read by ping() included
        assert [w.split()[0] for w in lines] == ["info", "readyok", "bestmove"]
        assert not engine.searching


def test_a_raw_search_that_does_not_end_stalls_and_can_be_stopped() -> None:
    with Engine.start(bad()) as engine:
        with pytest.raises(EngineStalled):
            engine.go_raw("go infinite", timeout=0.2)
        assert engine.searching
        result = engine.stop(timeout=2)
        assert result is not None and result.move is not None
        assert engine.read_bestmove()[-1] == f"bestmove {result.move}"


def test_raw_go_refuses_other_commands() -> None:
    with Engine.start(bad()) as engine:
        with pytest.raises(EngineStateError):
            engine.read_bestmove()
        for line in ("position startpos", "", "go depth 1\nquit"):
            with pytest.raises(ValueError):
                engine.go_raw(line)
        assert not engine.searching


def test_a_raw_search_never_takes_a_stray_bestmove_for_its_own() -> None:
    with Engine.start(bad("--stray-after-go", "1")) as engine:
        engine.play("startpos", Limit(depth=1), timeout=20)
        time.sleep(0.2)  # (the stray `bestmove A1-A2` is in by now)
        lines = engine.go_raw("go depth 1", timeout=5)
        assert "bestmove A1-A2" not in lines
        assert lines[-1].startswith("bestmove ")
        parse_move(Position.start(get_variant("camelot")), lines[-1].split()[1])
