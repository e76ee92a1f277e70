"""`canter gui` when something goes wrong: records the referee cannot take, a referee that
fails half way through a new game, hangs or dies, a watched file with a bad game, a result
that does not fit, engine restarts and option bounds. Most run in-process against a real
referee (a canter process); those about the HTTP answers run `canter gui` itself."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner
from guiserver import SCRIPTED, GuiServer, seats

from canter.adapters.client import EngineError, EngineStalled
from canter.adapters.gui import engines, records
from canter.adapters.gui.engines import EngineSlot, Referee, start_referee
from canter.adapters.gui.table import Ending, Seat, Table, TableError

# A Tri-Camelot record whose Position tag holds a carriage return: the record reader splits
# lines at \n only, and no engine command line can carry the \r.
CR_RECORD = b'[Variant "Tri-Camelot"]\n[Position "tri-camelot\rjunk x"]\n\n*\n'


@pytest.fixture(scope="module")
def referee() -> Iterator[Referee]:
    ref = start_referee()
    try:
        yield ref
    finally:
        ref.close()


class FailingReferee:
    """A referee that fails `checked_position` as a stalled one does when `fail(start,
    moves)` says so; everything else goes to the real one."""

    def __init__(self, real: Referee) -> None:
        self.real = real
        self.fail: Callable[[str, list[str]], bool] = lambda start, moves: False

    def checked_position(self, start: str, moves: list[str]) -> None:
        if self.fail(start, moves):
            raise EngineStalled("position", 10.0, 10.0)
        self.real.checked_position(start, moves)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def camelot_table(referee: Any) -> Table:
    """A table on Camelot, one move played, with the referee asked about it."""
    table = Table(referee, [EngineSlot(0, [sys.executable, str(SCRIPTED)])], "camelot")
    with table.lock:
        table.learn_variants()
        table.new_game("camelot", None, None)
        table.human_move("D6-F8")
    return table


def assert_on_camelot(table: Table) -> None:
    """The referee answers for the game on the board: Camelot after D6-F8, Black to move."""
    with table.lock:
        assert table.variant == "camelot" and table.moves == ["D6-F8"]
        assert table.legal("F8") == []  # (White's man: not Black's turn)
        assert table.legal("E11")  # a Black man with moves
        table._snapshots.clear()  # asked afresh, not from the cache
        assert table.snapshot(1)["turn"] == "black"
        assert table.referee.get_position().startswith("camelot ")
        with pytest.raises(TableError):
            table.human_move("B3-B4")  # (no such move in Camelot)
        table.human_move("E11-C9")
        assert table.moves == ["D6-F8", "E11-C9"]


# ---------------------------------------------------------------- 1: the referee's game


def test_a_record_start_no_command_line_can_carry_is_refused_and_the_referee_restored(
        referee):
    table = camelot_table(referee)
    with table.lock, pytest.raises(TableError, match="record refused: .*single words"):
        table.load_moves("tri-camelot", "tri-camelot\rjunk x", [], None)
    assert_on_camelot(table)


@pytest.mark.parametrize("action", ["load", "new", "position"])
def test_a_referee_that_stalls_during_a_new_game_is_brought_back_to_the_board(referee, action):
    failing = FailingReferee(referee)
    table = camelot_table(failing)
    failing.fail = lambda start, moves: start.startswith("tri-camelot") or (
        start == "startpos" and not moves)
    with table.lock, pytest.raises(EngineError):
        if action == "load":
            table.load_moves("tri-camelot", "startpos", [], None)
        elif action == "new":
            table.new_game("tri-camelot", None, None)
        else:
            table.new_game(None, "tri-camelot 4/5/6/5/6/5/6/5/4/5/4/3/4/3/g1/3/r1/b b 0,0,0 "
                           "- - 0 40", None)
    failing.fail = lambda start, moves: False
    assert_on_camelot(table)


def test_a_referee_that_cannot_be_brought_back_is_set_again_at_the_next_question(referee):
    failing = FailingReferee(referee)
    table = camelot_table(failing)
    failing.fail = lambda start, moves: True  # the new game's check and the restore both
    with table.lock, pytest.raises(EngineError):
        table.new_game("tri-camelot", None, None)
    failing.fail = lambda start, moves: False
    assert_on_camelot(table)


def test_a_loaded_record_with_a_carriage_return_in_its_position_is_answered(tmp_path):
    with GuiServer("--human", "all") as gui:
        gui.post("/api/move", {"move": "D6-F8"})
        before = gui.get("/api/legal?cell=E11")["moves"]
        status, body = gui.request("POST", "/api/load", raw=CR_RECORD)
        assert status == 400 and "record refused" in body["error"], body
        state = gui.state()
        assert state["variant"] == "camelot" and state["moves"] == ["D6-F8"]
        assert gui.get("/api/legal?cell=E11")["moves"] == before
        status, body = gui.request("POST", "/api/move", {"move": "B3-B4"})
        assert status == 400, body
        assert gui.post("/api/move", {"move": "E11-C9"})["moves"] == ["D6-F8", "E11-C9"]


GAME = '[Event "m"]\n[Variant "Camelot"]\n[White "a"]\n[Black "b"]\n\n1. {} *\n\n'
BAD_GAME = '[Event "m"]\n[Variant "Camelot"]\n[Position "camelot\rjunk"]\n\n*\n\n'


def test_watching_goes_on_past_a_game_the_referee_refuses(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_text(GAME.format("D6-F8"), encoding="utf-8", newline="")
    with GuiServer("--watch", str(path)) as server:
        server.wait(lambda s: s["moves"] == ["D6-F8"], what="the first game")
        with open(path, "a", encoding="utf-8", newline="") as f:
            f.write(BAD_GAME)
        state = server.wait(lambda s: "game 2" in (s["message"] or ""), what="the report")
        assert "record refused" in state["message"] and state["moves"] == ["D6-F8"]
        with open(path, "a", encoding="utf-8", newline="") as f:
            f.write(GAME.format("C6-C5"))
        server.wait(lambda s: s["moves"] == ["C6-C5"], what="the third game")


def test_watching_a_file_whose_game_is_refused_from_the_start(tmp_path):
    path = tmp_path / "bad.pgn"
    path.write_text(BAD_GAME, encoding="utf-8", newline="")
    with GuiServer("--watch", str(path)) as server:
        state = server.state()
        assert "game 1: record refused" in state["message"], state["message"]
        assert state["watch"]["games"] == 1
        with open(path, "a", encoding="utf-8", newline="") as f:
            f.write(GAME.format("D6-F8"))
        server.wait(lambda s: s["moves"] == ["D6-F8"], what="the next game")


def test_a_watcher_survives_a_look_that_fails(tmp_path):
    table = SimpleNamespace(lock=threading.RLock(), closed=False, watch=None, message=None,
                            publish=lambda: None)
    looks: list[float] = []

    class Failing(records.Watcher):
        def poll(self) -> None:
            looks.append(time.monotonic())
            if len(looks) == 1:
                raise RuntimeError("something unforeseen")

    watcher = Failing(table, str(tmp_path / "games.pgn"))  # type: ignore[arg-type]
    watcher.start()
    try:
        deadline = time.monotonic() + 10
        while len(looks) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(looks) >= 3, "the watcher stopped looking after a failed look"
        assert table.message == "watching games.pgn: RuntimeError: something unforeseen"
    finally:
        table.closed = True
        watcher.wake.set()
        watcher.join(5)


def test_a_first_look_that_fails_is_one_error_line(tmp_path, monkeypatch):
    from canter.adapters.gui.cli import gui

    def fail(self: records.Watcher) -> None:
        raise RuntimeError("cannot look")

    monkeypatch.setattr(records.Watcher, "poll", fail)
    path = tmp_path / "games.pgn"
    path.write_text(GAME.format("D6-F8"), encoding="utf-8")
    result = CliRunner().invoke(gui, ["--no-browser", "--watch", str(path)])
    assert result.exit_code == 1, result.output
    assert f"Error: --watch {path}: RuntimeError: cannot look" in result.output
    assert not isinstance(result.exception, RuntimeError)


# ---------------------------------------------------------------- 2: analysis


def test_an_analysis_has_no_search_deadline(monkeypatch):
    # A search's stall limit (300 s) must not become an analysis's deadline: `go infinite`
    # runs until it is stopped. (Patched short, so the test need not wait 300 s.)
    monkeypatch.setattr(engines, "SEARCH_STALL", 0.5)
    slot = EngineSlot(0, [sys.executable, str(SCRIPTED)])
    try:
        assert slot.process("play").search_timeout == 0.5  # (a seat's search still stalls)
        analysis = slot.prepare("analyse", "camelot", {}).analysis("startpos")
        stopper = threading.Timer(2.0, analysis.stop)
        began = time.monotonic()
        stopper.start()
        infos = list(analysis)  # the scripted engine prints two lines, then waits for stop
        assert time.monotonic() - began >= 1.9
        assert len(infos) == 2 and analysis.wait().move is not None
    finally:
        slot.close()


# ---------------------------------------------------------------- 3: results and saving


def test_a_recorded_result_that_does_not_fit_the_game_played_is_left_out(referee):
    from canter.adapters.records.format import read_games

    table = camelot_table(referee)
    with table.lock:
        position = table.snapshot(0)["position"]
    text = (f'[Variant "Tri-Camelot"]\n[Position "{position}"]\n[Result "1-0-0"]\n\n'
            "1. F7-F8 1-0-0\n")
    (game,) = read_games(text)
    with table.lock:
        records.take(table, game)
        assert table.variant == "camelot" and table.moves == ["F7-F8"]
        assert table.ending is None
        assert "1-0-0 does not fit camelot (2 seats): left out" in table.message
        saved = records.save(table)
    assert '[Result "*"]' in saved


def test_saving_a_game_that_cannot_be_written_is_a_table_error():
    # (However it came about: the page gets a JSON error, never a dropped connection.)
    table = SimpleNamespace(
        seats=[Seat("white"), Seat("black")], engines=[], variant="camelot",
        start="startpos", moves=["D6-F8"],
        ending=Ending("1-0-0 (as recorded)", None, [], token="1-0-0"))
    with pytest.raises(TableError, match="cannot write a record of this game: result"):
        records.save(table)  # type: ignore[arg-type]


def test_a_loaded_record_with_a_result_of_another_game_is_saved():
    with GuiServer("--human", "all") as gui:
        position = gui.get("/api/ply?n=0")["position"]
        record = (f'[Variant "Tri-Camelot"]\n[Position "{position}"]\n[Result "1-0-0"]\n\n'
                  "1. F7-F8 1-0-0\n")
        status, state = gui.request("POST", "/api/load", raw=record.encode())
        assert status == 200, state
        assert state["variant"] == "camelot" and state["result"] is None
        status, text = gui.request("GET", "/api/save")
        assert status == 200 and '[Result "*"]' in text, text


# ---------------------------------------------------------------- 4: a hung referee


def test_a_hung_referee_is_killed_and_started_again(monkeypatch):
    monkeypatch.setattr(engines, "REFEREE_TIMEOUT", 1.0)
    ref = start_referee()
    stopped = ref.engine.pid
    try:
        ref.configure({"UCI_Variant": "tri-camelot"})
        ref.checked_position("startpos", [])
        first = ref.legal()[0]
        ref.checked_position("startpos", [first])
        expected = ref.legal()
        os.kill(stopped, signal.SIGSTOP)
        began = time.monotonic()
        assert ref.legal() == expected  # the same game, asked of a new process
        assert time.monotonic() - began < 8
        assert ref.restarts == 1 and ref.engine.pid != stopped
        began = time.monotonic()
        assert ref.legal() == expected
        assert time.monotonic() - began < 0.9  # no more waits
        with pytest.raises(EngineError, match="refused|legal"):
            ref.legal("A1-A2")  # a refusal is an answer: passed on, no restart
        assert ref.restarts == 1
    finally:
        try:
            os.kill(stopped, signal.SIGKILL)
        except OSError:
            pass
        ref.close()


# ---------------------------------------------------------------- 5: restarting an engine


def test_restarting_an_engine_keeps_its_running_analysis():
    slot = EngineSlot(0, [sys.executable, str(SCRIPTED)])
    try:
        play = slot.process("play")
        analyse = slot.process("analyse")
        slot.restart()
        assert not play.alive and slot.process("play") is not play
        assert analyse.alive and slot.process("analyse") is analyse
        analyse.kill()
        deadline = time.monotonic() + 10  # (SIGKILL is sent, not waited for)
        while analyse.alive and time.monotonic() < deadline:
            time.sleep(0.02)
        slot.restart()  # a dead analysis process goes too (the page shows it dead)
        assert slot.process("analyse") is not analyse and slot.alive()
    finally:
        slot.close()


def test_restart_engine_on_the_page_leaves_the_analysis_running():
    with GuiServer("--human", "all") as gui:
        gui.post("/api/new", {"seats": seats("human", "human")})
        gui.post("/api/analysis", {"action": "start", "multipv": 1})
        gui.wait(lambda s: s["analysis"]["lines"], what="analysis lines")
        state = gui.post("/api/restart", {"engine": 0})
        assert state["analysis"]["running"] is True
        time.sleep(1.0)
        state = gui.state()
        assert state["analysis"]["running"] is True, state["message"]
        assert state["message"] == f"{state['engines'][0]['name']} restarted"
        gui.post("/api/analysis", {"action": "stop"})


# ---------------------------------------------------------------- 6: option bounds


@pytest.mark.parametrize("value", ["5000", "3600.5"])
def test_a_movetime_beyond_the_boards_limit_is_a_bad_option(value):
    from canter.adapters.gui.cli import gui

    result = CliRunner().invoke(gui, ["--no-browser", "--movetime", value])
    assert result.exit_code == 2, result.output
    assert "'--movetime'" in result.output and "at most 3600" in result.output
