"""`canter gui`'s server through its HTTP API (the page's own requests), without a
browser: safety, play against engines, faults, records, watching, clocks. The page itself is
tested in a real browser in tests/test_gui_browser.py."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from guiserver import SCRIPTED, GuiServer, seats

from canter.engine import Position, format_move, parse_move

AMBIGUOUS = ("camelot 2/8/10/1b5b4/2b4b2B1/6b1bB2/3bb1b3b1/1BB9/6www3/3W8/3wwwww1W2/5W3w2/"
             "W11/1w8/8/2 w 0,0 - - 32 32")
# White's Man on F8 can take Black's last piece on F9.
ONE_CAPTURE_LEFT = "camelot 2/8/10/12/12/12/12/5b6/5w6/12/12/12/4w7/10/8/2 w 0,0 - - 0 30"


@pytest.fixture(scope="module")
def gui():
    with GuiServer("--human", "white", "--depth", "1") as server:
        yield server


def test_the_gui_modules_never_load_the_rules_library():
    code = ("import sys, canter.adapters.gui.cli, canter.adapters.gui.server, "
            "canter.adapters.gui.table, canter.adapters.gui.workers, "
            "canter.adapters.gui.records, canter.adapters.gui.engines\n"
            "loaded = sorted(m for m in sys.modules if m.startswith('canter.engine'))\n"
            "print(loaded)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------- safety


def test_the_server_listens_on_loopback_and_prints_a_token(gui):
    assert gui.host == "127.0.0.1"
    assert len(gui.token) >= 24


@pytest.mark.parametrize("path", ["/", "/api/state", "/api/legal?cell=F7", "/api/save"])
def test_requests_without_the_token_are_refused(gui, path):
    status, body = gui.request("GET", path, token=None)
    assert status == 401 and "token" in body["error"]
    status, body = gui.request("GET", path, token="not-the-token")
    assert status == 401


def test_the_token_in_the_query_is_accepted(gui):
    status, body = gui.request("GET", f"/api/state?token={gui.token}", token=None)
    assert status == 200 and body["variant"] in body["variants"]


def test_a_foreign_host_or_origin_is_refused_even_with_the_token(gui):
    status, body = gui.request("GET", "/api/state", headers={"Host": "evil.example:80"})
    assert status == 403 and "Host" in body["error"]
    status, body = gui.request("POST", "/api/undo", {},
                               headers={"Origin": "http://evil.example"})
    assert status == 403 and "evil.example" in body["error"]
    # the board's own origin is fine
    status, _ = gui.request("GET", "/api/state",
                            headers={"Origin": f"http://127.0.0.1:{gui.port}"})
    assert status == 200


def test_a_method_a_page_does_not_take_gets_a_json_405(gui):
    for method, path, allow in (("PUT", "/api/move", "POST"), ("DELETE", "/api/move", "POST"),
                                ("GET", "/api/move", "POST"), ("PATCH", "/api/state",
                                                               "GET, HEAD")):
        status, body = gui.request(method, path)
        assert status == 405, (method, path, body)
        assert isinstance(body, dict) and f"takes {allow}" in body["error"], body
    status, body = gui.request("GET", "/api/nowhere")
    assert status == 404 and "no such page" in body["error"]


def test_the_http_servers_own_refusals_are_json_too(gui):
    # A garbage request line and a header line too long are refused by the HTTP library
    # before any handler runs; the answer is JSON as every other error, not an HTML page.
    import socket

    long_header = b"GET /api/state HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 70_000 + b"\r\n\r\n"
    for raw, status in ((b"GET /a \"quoted\" HTTP/1.1\r\n\r\n", 400), (long_header, 431)):
        with socket.create_connection((gui.host, gui.port), timeout=10) as sock:
            sock.sendall(raw)
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.") and f" {status} ".encode() in head.split(b"\r\n")[0]
        assert b"Content-Type: application/json" in head, head
        assert isinstance(json.loads(body)["error"], str), body


def test_bodies_are_bounded_and_checked(gui):
    status, body = gui.request("POST", "/api/move", raw=b"{" + b" " * 70_000 + b"}")
    assert status == 413
    status, body = gui.request("POST", "/api/move", raw=b"not json")
    assert status == 400 and "JSON" in body["error"]
    status, body = gui.request("POST", "/api/move", raw=b"[1, 2]")
    assert status == 400 and "object" in body["error"]
    status, body = gui.request("POST", "/api/move", raw=b"[" * 5000)  # nested too deep
    assert status == 400 and "JSON" in body["error"]
    status, body = gui.request("POST", "/api/new", {"variant": "chess"})
    assert status == 400 and "unknown variant" in body["error"]
    status, body = gui.request("POST", "/api/new", {"seats": [{"player": "engine",
                                                              "engine": 7}] * 2})
    assert status == 400 and "no engine 7" in body["error"]
    status, body = gui.request("POST", "/api/new", {"seats": [{"player": "robot"}] * 2})
    assert status == 400
    status, body = gui.request("GET", "/api/nothing")
    assert status == 404


def test_static_files_are_served_and_nothing_else(gui):
    status, text = gui.request("GET", "/static/gui.js", token=None)
    assert status == 200 and "function" in text
    status, _ = gui.request("GET", "/static/../table.py", token=None)
    assert status == 404
    status, _ = gui.request("GET", "/static/gui.js", token=None,
                            headers={"Host": "evil.example"})
    assert status == 403


def test_the_page_cannot_name_a_program():
    # The API has no field that takes a command: an engine is picked by its number, and a
    # number beyond the command line's engines is refused (above). Unknown fields are ignored.
    with GuiServer("--human", "all") as server:
        state = server.post("/api/new", {"seats": [{"player": "engine", "engine": 0,
                                                    "command": "touch /tmp/pwned"}] * 2})
        assert [e["index"] for e in state["engines"]] == [0]


# ---------------------------------------------------------------- play


def test_targets_are_the_referees_legal_moves_of_the_cell(gui):
    gui.post("/api/new", {"variant": "camelot", "seats": seats("human", "engine")})
    pos = Position.start("camelot")
    for cell in ("F7", "C6", "D6", "F10"):
        expected = sorted(format_move(pos.variant, m) for m in pos.legal_moves()
                          if pos.variant.cell_name(m.start) == cell)
        assert gui.get(f"/api/legal?cell={cell}")["moves"] == expected


def test_a_move_is_answered_by_the_engine_and_can_be_taken_back(gui):
    gui.post("/api/new", {"variant": "camelot", "seats": seats("human", "engine")})
    state = gui.post("/api/move", {"move": "d6f8"})
    assert state["moves"][0] == "D6-F8"
    state = gui.wait(lambda s: len(s["moves"]) == 2, what="the engine's reply")
    assert state["current"]["turn"] == "white"
    assert state["seats"][1]["player"] == "engine"
    snap = gui.get("/api/ply?n=1")
    assert snap["move"] == "D6-F8" and snap["turn"] == "black"
    assert snap["pieces"]["F8"] == {"seat": "white", "kind": "man"}
    state = gui.post("/api/undo")
    assert state["moves"] == []  # back to White, the human
    status, body = gui.request("GET", "/api/ply?n=5")
    assert status == 404


def test_illegal_and_ambiguous_moves(gui):
    gui.post("/api/new", {"variant": "camelot", "seats": seats("human", "engine")})
    status, body = gui.request("POST", "/api/move", {"move": "F7-F9"})
    assert status == 400 and "F8 holds none" in body["error"]
    status, body = gui.request("POST", "/api/move", {"move": "Z1-Z2"})
    assert status == 400 and "Z1" in body["error"]
    gui.post("/api/position", {"position": AMBIGUOUS})
    status, body = gui.request("POST", "/api/move", {"move": "F5xD11"})
    assert status == 409
    assert body["candidates"] == ["F5-F7-H9xF11xD9xD11", "F5-H7-F9xH11xF11xD9xD11"]
    state = gui.post("/api/move", {"move": body["candidates"][1]})
    assert state["moves"] == ["F5-H7-F9xH11xF11xD9xD11"]
    status, body = gui.request("POST", "/api/position", {"position": "camelot 2/8 w"})
    assert status == 400 and "position refused" in body["error"]


def test_capturing_everything_ends_the_game_with_the_referees_result(gui):
    gui.post("/api/new", {"variant": "camelot", "position": ONE_CAPTURE_LEFT,
                          "seats": seats("human", "engine")})
    # A cell alone is offered its piece's moves, even the only one, and plays nothing.
    status, body = gui.request("POST", "/api/move", {"move": "F8"})
    assert status == 409 and body["candidates"] == ["F8xF10"]
    assert gui.get("/api/state")["moves"] == []
    state = gui.post("/api/move", {"move": "F8xF10"})
    assert state["result"]["text"] == "white wins: black has no pieces left"
    assert state["result"]["ranking"] == [["white"], ["black"]]
    assert state["seats"][1]["out"] is True
    status, body = gui.request("POST", "/api/move", {"move": "F10-F11"})
    assert status == 400 and "over" in body["error"]
    record = gui.get("/api/save")
    assert "1-0" in record and "F8xF10" in record and "[Position " in record


def test_resign_and_a_claimed_draw():
    with GuiServer("--human", "all", "--rule", "Repetition=claim") as server:
        state = server.post("/api/resign", {"seat": "white"})
        assert state["result"]["winner"] == "black"
        assert state["result"]["text"] == "black wins: white resigned"
        server.post("/api/new", {"seats": seats("human", "human")})
        status, body = server.request("POST", "/api/claim")
        assert status == 400 and "no draw" in body["error"]
        for _ in range(2):
            for move in ("C6-C5", "C11-C12", "C5-C6", "C12-C11"):
                state = server.post("/api/move", {"move": move})
        assert state["claimable"] is True
        state = server.post("/api/claim")
        assert state["result"]["text"].startswith("draw: claimed by white")


def test_three_seats_with_an_elimination():
    # Blue's Man on E4 must take Red's only piece (E4xE8 over E6); Green is next.
    with GuiServer("--variant", "tri-camelot", "--human", "all") as server:
        state = server.state()
        assert state["board"]["shape"] == "hex" and len(state["board"]["cells"]) == 73
        assert [s["name"] for s in state["seats"]] == ["blue", "red", "green"]
        position = "tri-camelot 4/5/6/5/6/5/2gg2/5/4/5/4/3/1r2/3/b1/1b1/2/1 b 0,0,0 - - 0 0"
        server.post("/api/position", {"position": position})
        legal = server.get("/api/legal?cell=E4")["moves"]
        assert legal == ["E4xE8"]
        state = server.post("/api/move", {"move": "E4xE8"})
        red = next(s for s in state["seats"] if s["name"] == "red")
        assert red["out"] is True and red["pieces"] == 0
        assert state["current"]["turn"] == "green"  # Red is skipped


def test_engine_against_engine_runs_to_a_result_and_pauses():
    with GuiServer("--human", "none", "--depth", "1") as server:
        state = server.post("/api/new", {"position": ONE_CAPTURE_LEFT,
                                         "seats": seats("engine", "engine")})
        state = server.wait(lambda s: s["result"] is not None, what="the engines' game")
        assert state["result"]["winner"] == "white"
        server.post("/api/new", {"seats": seats("engine", "engine")})
        server.wait(lambda s: len(s["moves"]) >= 2, what="two engine moves")
        state = server.post("/api/pause")
        assert state["paused"] is True
        count = len(server.state()["moves"])
        time.sleep(1.0)
        assert len(server.state()["moves"]) <= count + 1  # a search cut short may land once
        server.post("/api/resume")
        server.wait(lambda s: len(s["moves"]) >= count + 2, what="play after resume")


def test_a_human_clock_runs_out():
    with GuiServer("--human", "all") as server:
        clock = {"base": 1, "inc": 0}
        state = server.post("/api/new", {"seats": seats("human", "human", clock=clock)})
        assert state["seats"][0]["running"] is True and state["seats"][0]["time_left"] <= 1
        state = server.wait(lambda s: s["result"] is not None, timeout=10, what="a flag")
        assert state["result"]["text"] == "black wins: white lost on time"


# ---------------------------------------------------------------- faults


def test_an_engine_that_dies_is_reported_and_can_be_restarted():
    engine = f"{sys.executable} {SCRIPTED} --die-at go:2"
    with GuiServer("--engine", engine, "--human", "white") as server:
        server.post("/api/new", {"seats": seats("human", "engine")})
        server.post("/api/move", {"move": "D6-F8"})
        server.wait(lambda s: len(s["moves"]) == 2, what="the engine's first move")
        server.post("/api/move", {"move": "F8-F9"})
        state = server.wait(lambda s: s["fault"] is not None, what="the fault")
        assert "died" in state["fault"]["reason"] or "exit" in state["fault"]["reason"]
        assert state["moves"][:3] == ["D6-F8", state["moves"][1], "F8-F9"]  # game kept
        state = server.post("/api/restart", {"engine": 0})
        assert state["fault"] is None
        # the restarted engine is fresh: its first go is answered again
        server.wait(lambda s: len(s["moves"]) == 4, what="play after the restart")


def test_the_clocks_stand_while_an_engines_fault_is_shown():
    engine = f"{sys.executable} {SCRIPTED} --die-at go:2"
    with GuiServer("--engine", engine, "--human", "white") as server:
        server.post("/api/new", {"seats": seats("human", "engine",
                                                clock={"base": 60, "inc": 0})})
        server.post("/api/move", {"move": "D6-F8"})
        server.wait(lambda s: len(s["moves"]) == 2, what="the engine's first move")
        server.post("/api/move", {"move": "F8-F9"})
        state = server.wait(lambda s: s["fault"] is not None, what="the fault")
        black = state["seats"][1]
        time.sleep(0.6)
        later = server.get("/api/state")["seats"][1]
        assert not later["running"] and later["time_left"] == black["time_left"]
        state = server.post("/api/restart", {"engine": 0})
        assert state["seats"][1]["time_left"] == pytest.approx(black["time_left"], abs=0.05)


def test_an_engine_that_plays_an_illegal_move_is_reported():
    engine = f"{sys.executable} {SCRIPTED} --illegal-at 1"
    with GuiServer("--engine", engine, "--human", "white") as server:
        server.post("/api/new", {"seats": seats("human", "engine")})
        server.post("/api/move", {"move": "D6-F8"})
        state = server.wait(lambda s: s["fault"] is not None, what="the fault")
        assert "referee refused" in state["fault"]["reason"]
        assert state["moves"] == ["D6-F8"]


def test_an_engine_that_stalls_is_reported():
    engine = f"{sys.executable} {SCRIPTED} --hang-at go:1"
    with GuiServer("--engine", engine, "--human", "white") as server:
        server.post("/api/new", {"seats": seats("human", "engine",
                                                limit={"movetime": 0.2})})
        server.post("/api/move", {"move": "D6-F8"})
        state = server.wait(lambda s: s["fault"] is not None, timeout=30, what="the fault")
        assert "stalled" in state["fault"]["reason"].lower() or \
            "no answer" in state["fault"]["reason"].lower() or "timed" in \
            state["fault"]["reason"].lower(), state["fault"]


# ---------------------------------------------------------------- records


def test_load_navigate_and_save_a_record(gui, tmp_path):
    gui.post("/api/new", {"variant": "camelot", "seats": seats("human", "human")})
    for move in ("D6-F8", "E11-C9", "F8-F9"):
        gui.post("/api/move", {"move": move})
    saved = gui.get("/api/save")
    gui.post("/api/new", {"variant": "camelot", "seats": seats("human", "human")})
    status, state = gui.request("POST", "/api/load", raw=saved.encode())
    assert status == 200, state
    assert state["moves"] == ["D6-F8", "E11-C9", "F8-F9"]
    assert gui.get("/api/ply?n=2")["move"] == "E11-C9"
    assert gui.get("/api/save").split("\n\n", 1)[1] == saved.split("\n\n", 1)[1]


def test_a_loaded_game_is_saved_with_its_recorded_result(gui):
    # Ended by something no position shows (a resignation, time): the result stays.
    record = ('[Variant "Camelot"]\n[Result "0-1"]\n[Termination "resignation"]\n\n'
              '1. D6-F8 E11-C9 0-1\n')
    status, state = gui.request("POST", "/api/load", raw=record.encode())
    assert status == 200, state
    saved = gui.get("/api/save")
    assert '[Result "0-1"]' in saved and saved.rstrip().endswith("0-1")


def test_a_bad_record_is_refused_with_the_reason(gui):
    status, body = gui.request("POST", "/api/load", raw=b"\xff\xfe not text")
    assert status == 400 and "UTF-8" in body["error"]
    bad = '[Variant "Camelot"]\n\n1. D6-F8 D6-F8 *\n'
    status, body = gui.request("POST", "/api/load", raw=bad.encode())
    assert status == 400 and "move 2" in body["error"]
    status, body = gui.request("POST", "/api/load?game=3", raw=b'[Variant "Camelot"]\n\n*\n')
    assert status == 400 and "no game 3" in body["error"]


def test_a_record_whose_position_names_another_game_is_loaded_as_that_game(gui):
    # The Variant tag says Camelot, the position string is Tri-Camelot's: the referee plays
    # the position's game, and the board must be its board.
    tri = "tri-camelot 4/5/6/5/6/5/6/5/4/5/4/3/4/3/g1/3/r1/b b 0,0,0 - - 0 40"
    record = f'[Variant "Camelot"]\n[SetUp "1"]\n[Position "{tri}"]\n\n*\n'
    status, state = gui.request("POST", "/api/load", raw=record.encode())
    assert status == 200, state
    assert state["variant"] == "tri-camelot" and len(state["seats"]) == 3


def test_an_engine_slot_resets_what_an_earlier_seat_or_game_set():
    # A seat with a skill, then one without: the option goes back to the engine's default;
    # every new game is a `ucinewgame`.
    from canter.adapters.gui.engines import EngineSlot

    slot = EngineSlot(0, [sys.executable, str(SCRIPTED)])
    try:
        engine = slot.prepare("play", "camelot", {"Style": "Wild"})
        slot.prepare("play", "camelot", {})
        sent = [r.line for r in engine.log if r.direction == ">"]
        assert sent[-2:] == ["setoption name Style value Wild", "setoption name Style value "
                             "Normal"], sent
        slot.new_game()
        slot.prepare("play", "camelot", {})
        sent = [r.line for r in engine.log if r.direction == ">"]
        assert "ucinewgame" in sent[-3:], sent
        assert sent.count("setoption name Style value Normal") == 1  # not sent again
        # Set in one game, not asked for in the next: reset across the new game too.
        slot.prepare("play", "camelot", {"Style": "Solid"})
        slot.new_game()
        slot.prepare("play", "camelot", {})
        sent = [r.line for r in engine.log if r.direction == ">"]
        assert sent[-1] == "setoption name Style value Normal", sent
    finally:
        slot.close()


def test_watching_a_file_that_holds_no_game_yet_is_watching(tmp_path):
    # A match makes its record file empty at its start: until the first game is in, the
    # board is watching all the same (no moves of its own, no engines playing on it).
    path = tmp_path / "games.pgn"
    path.write_text("", encoding="utf-8")
    with GuiServer("--watch", str(path)) as server:
        state = server.get("/api/state")
        assert state["watch"] == {"file": "games.pgn", "games": 0, "game": None,
                                  "following": True}
        status, body = server.request("POST", "/api/move", {"move": "D6-F8"})
        assert status == 400 and "watching" in body["error"]
        for action in ("/api/resign", "/api/claim"):  # (the page disables them too)
            status, body = server.request("POST", action, {})
            assert status == 400 and "watching" in body["error"], action


def test_a_file_to_watch_may_appear_after_the_board_starts(tmp_path):
    """`canter match ... --pgn games.pgn & canter gui --watch games.pgn`: the match may not
    have made its file yet; the board waits for it and shows its game when it comes."""
    path = tmp_path / "games.pgn"
    with GuiServer("--watch", str(path)) as server:
        assert server.get("/api/state")["watch"]["games"] == 0
        path.write_text('[Event "m"]\n[Variant "Camelot"]\n[White "a"]\n[Black "b"]\n\n'
                        "1. D6-F8 *\n", encoding="utf-8")
        server.wait(lambda s: s["moves"] == ["D6-F8"], what="the file's game")


def test_an_engine_slot_describes_itself_while_an_engine_starts():
    # Starting an engine holds the slot's lock through its handshake (up to seconds); the
    # page's state describes every slot meanwhile, and must not wait for it.
    import threading

    from canter.adapters.gui.engines import EngineSlot

    slot = EngineSlot(0, [sys.executable, str(SCRIPTED)], name="f")
    described: list = []
    with slot.lock:  # as `process` holds it during a handshake
        asker = threading.Thread(target=lambda: described.append(slot.describe()))
        asker.start()
        asker.join(2)
        assert described == [{"index": 0, "name": "f", "alive": True}]


def test_watch_follows_a_record_file_as_it_grows(tmp_path):
    path = tmp_path / "games.pgn"
    header = '[Event "m"]\n[Variant "Camelot"]\n[White "a"]\n[Black "b"]\n\n'
    path.write_text(header + "1. D6-F8 E11-C9 *\n", encoding="utf-8")
    with GuiServer("--watch", str(path)) as server:
        state = server.wait(lambda s: s["moves"] == ["D6-F8", "E11-C9"], what="the file")
        assert state["watch"]["games"] == 1
        path.write_text(header + "1. D6-F8 E11-C9 2. F8-F9 *\n", encoding="utf-8")
        state = server.wait(lambda s: len(s["moves"]) == 3, what="the new move")
        status, body = server.request("POST", "/api/move", {"move": "C9-C8"})
        assert status == 400 and "watching" in body["error"]
        path.write_text(header + "1. D6-F8 E11-C9 2. F8-F9 *\n\n" + header + "1. C6-C5 *\n",
                        encoding="utf-8")
        state = server.wait(lambda s: s["moves"] == ["C6-C5"], what="the second game")
        # The answer is the board with the game chosen, not the one shown before.
        state = server.post("/api/watch", {"game": 0})
        assert state["watch"]["game"] == 0 and state["watch"]["following"] is False
        assert len(state["moves"]) == 3
        state = server.post("/api/watch", {"game": None})
        assert state["watch"]["following"] is True and state["moves"] == ["C6-C5"]
        server.post("/api/watch", {"game": 0})
        # A game the file does not hold, or no number, is refused; the game shown stays.
        for bad, needle in ((5, "no game 5: the file holds 2 (numbered from 0)"),
                            (-1, "no game -1"), (True, "game must be a whole number"),
                            ("1", "game must be a whole number")):
            status, body = server.request("POST", "/api/watch", {"game": bad})
            assert status == 400 and needle in body["error"], (bad, body)
        assert server.state()["watch"]["game"] == 0


def test_events_stream_the_state(gui):
    import http.client

    conn = http.client.HTTPConnection(gui.host, gui.port, timeout=10)
    conn.request("GET", f"/api/events?token={gui.token}",
                 headers={"Host": f"{gui.host}:{gui.port}"})
    response = conn.getresponse()
    assert response.status == 200
    assert response.getheader("Content-Type") == "text/event-stream"
    line = response.fp.readline().decode()
    assert line.startswith("data: ")
    state = json.loads(line[len("data: "):])
    assert state["variant"] in state["variants"]
    conn.close()


def test_analysis_lines_and_multipv(gui):
    gui.post("/api/new", {"variant": "camelot", "seats": seats("human", "human")})
    gui.post("/api/analysis", {"action": "start", "multipv": 3, "ply": 0})
    # Lines of two depths show together while an iteration is reported, but a stale line
    # that repeats a new line's first move is not shown (test_gui_analysis_lines.py).
    state = gui.wait(lambda s: len(s["analysis"]["lines"]) == 3, what="three lines")
    firsts = {line["pv"][0] for line in state["analysis"]["lines"]}
    assert len(firsts) == 3  # three different first moves
    state = gui.post("/api/analysis", {"action": "stop"})
    assert state["analysis"]["running"] is False
    status, body = gui.request("POST", "/api/analysis", {"action": "start", "multipv": 9})
    assert status == 400


def test_a_running_analysis_moves_back_with_an_undo(gui):
    gui.post("/api/new", {"variant": "camelot", "seats": seats("human", "human")})
    gui.post("/api/move", {"move": "D6-F8"})
    gui.post("/api/move", {"move": "H11-F9"})
    gui.post("/api/analysis", {"action": "start", "multipv": 1})
    gui.wait(lambda s: s["analysis"]["lines"] and s["analysis"]["ply"] == 2,
             what="lines after two moves")
    state = gui.post("/api/undo")
    assert state["moves"] == ["D6-F8"]
    assert state["analysis"]["running"] is True and state["analysis"]["ply"] == 1
    state = gui.wait(lambda s: s["analysis"]["lines"], what="lines after the undo")
    assert state["analysis"]["ply"] == 1
    gui.post("/api/analysis", {"action": "stop"})


# ---------------------------------------------------------------- review findings


def test_control_characters_never_reach_the_referee(gui):
    gui.post("/api/new", {"variant": "camelot", "seats": seats("human", "engine")})
    for text in ("F7\rquit", "F7\nquit", "F7-F8\x00", "F7 F8", "F7;quit"):
        status, body = gui.request("POST", "/api/move", {"move": text})
        assert status == 400 and "official notation" in body["error"], text
    # the referee is alive and the game goes on
    assert gui.get("/api/legal?cell=F7")["moves"]


def test_a_refused_new_game_leaves_the_game_on_the_board(gui):
    gui.post("/api/new", {"variant": "camelot", "seats": seats("human", "human")})
    gui.post("/api/move", {"move": "D6-F8"})
    for body in ({"variant": "tri-camelot", "seats": seats("human", "human")},
                 {"variant": "tri-camelot", "seats": seats("human", "engine", "engine",
                                                           limit={"depth": 99})},
                 {"position": "tri-camelot 1/2/3 b"},
                 {"position": "chess 8/8 w"}):
        status, _ = gui.request("POST", "/api/new", body)
        assert status == 400, body
        state = gui.state()
        assert state["variant"] == "camelot" and state["moves"] == ["D6-F8"]
    state = gui.post("/api/move", {"move": "E11-C9"})
    assert state["moves"] == ["D6-F8", "E11-C9"]
    # a record with an illegal move is refused the same way
    bad = '[Variant "Tri-Camelot"]\n\n1. E4-E4 *\n'
    status, _ = gui.request("POST", "/api/load", raw=bad.encode())
    assert status == 400
    assert gui.post("/api/move", {"move": "F8-F9"})["moves"][-1] == "F8-F9"


def test_a_stalled_depth_search_is_killed_when_the_game_moves_on():
    engine = f"{sys.executable} {SCRIPTED} --hang-at go:2"
    with GuiServer("--engine", engine, "--human", "white", "--depth", "3") as server:
        server.post("/api/new", {"seats": seats("human", "engine", depth=3)})
        server.post("/api/move", {"move": "D6-F8"})
        state = server.wait(lambda s: len(s["moves"]) == 2, what="the first reply")
        pos = Position.start("camelot")
        for move in state["moves"]:
            pos.push(next(m for m in pos.legal_moves()
                          if format_move(pos.variant, m) == move))
        mine = sorted(format_move(pos.variant, m) for m in pos.legal_moves())[0]
        server.post("/api/move", {"move": mine})
        server.wait(lambda s: s["thinking"] is not None, what="the second search")
        server.post("/api/undo")  # the hung search is stopped, then killed after the grace
        server.post("/api/move", {"move": mine})
        state = server.wait(lambda s: len(s["moves"]) == 4, timeout=30,
                            what="a fresh engine's reply")
        assert state["fault"] is None


def _board(host: str, port: int):
    """A server's address checks alone, with no table behind them."""
    from canter.adapters.gui.server import Board

    board = Board(table=None, analyser=None, watcher=None, token="t")  # type: ignore[arg-type]
    board.listen_on(host, port)
    return board


def test_listening_on_every_address_answers_ip_hosts_only():
    board = _board("0.0.0.0", 8080)
    assert board.host_allowed("192.168.1.7:8080") and board.host_allowed("[::1]:8080")
    assert board.host_allowed("localhost:8080")
    assert not board.host_allowed("rebind.example:8080")
    assert not board.host_allowed("192.168.1.7:9999")
    assert board.origin_allowed("http://10.0.0.2:8080")
    assert not board.origin_allowed("http://evil.example:8080")
    board.listen_on("127.0.0.1", 8080)
    assert not board.host_allowed("192.168.1.7:8080")


def test_on_port_80_the_host_without_its_port_is_answered():
    # Browsers leave the default port out of Host and Origin.
    board = _board("127.0.0.1", 80)
    assert board.host_allowed("127.0.0.1") and board.host_allowed("localhost:80")
    assert board.origin_allowed("http://localhost")
    assert not board.host_allowed("evil.example")
    board.listen_on("0.0.0.0", 80)
    assert board.host_allowed("192.168.1.7") and board.host_allowed("[::1]")
    assert not board.host_allowed("rebind.example")
    board.listen_on("127.0.0.1", 8080)
    assert not board.host_allowed("127.0.0.1")


def _children(pid: int) -> list[tuple[int, str]]:
    """The processes `pid` started, with their command lines (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append((int(entry.name), cmdline))
    return found


def test_a_referee_that_dies_is_started_again_and_the_game_goes_on():
    # Tri-Camelot, so a new referee that lost its UCI_Variant would read the moves as
    # Camelot's; and a rules option, so its replay is exercised too.
    engine = f"{sys.executable} {SCRIPTED}"
    with GuiServer("--engine", engine, "--variant", "tri-camelot",
                   "--rule", "Rule Repetition=claim") as server:
        server.post("/api/new", {"seats": seats("human", "engine", "engine")})
        pos = Position.start("tri-camelot")
        first = format_move(pos.variant, pos.legal_moves()[0])
        server.post("/api/move", {"move": first})
        state = server.wait(lambda s: len(s["moves"]) == 3, what="the engines' first moves")
        for text in state["moves"]:
            pos.push(parse_move(pos, text))
        (referee,) = [pid for pid, cmd in _children(server.proc.pid)
                      if "-m canter" in cmd and "scripted" not in cmd]
        os.kill(referee, signal.SIGKILL)
        time.sleep(0.2)
        fourth = format_move(pos.variant, pos.legal_moves()[0])
        status, state = server.request("POST", "/api/move", {"move": fourth})
        assert status == 200, state
        state = server.wait(lambda s: len(s["moves"]) == 6, what="play after the referee died")
        assert state["moves"][3] == fourth and state["fault"] is None
        for text in state["moves"][3:]:
            pos.push(parse_move(pos, text))
        assert state["current"]["position"] == pos.to_string()
        # One referee again, a new one (a zombie's command line is empty: not counted)
        (again,) = [pid for pid, cmd in _children(server.proc.pid)
                    if "-m canter" in cmd and "scripted" not in cmd]
        assert again != referee


# ---------------------------------------------------------------- second review


def test_a_post_to_a_page_that_takes_get_is_405(gui):
    for path, allow in (("/api/state", "GET, HEAD"), ("/", "GET, HEAD"),
                        ("/api/events", "GET")):
        status, body = gui.request("POST", path, {})
        assert status == 405 and f"takes {allow}" in body["error"], (path, body)


def test_a_loaded_ending_keeps_its_reason_and_termination_through_saves(gui):
    record = ('[Variant "Camelot"]\n[Result "0-1"]\n[Termination "time forfeit"]\n'
              '[Reason "white ran out of time"]\n\n1. D6-F8 E11-C9 0-1\n')
    for _ in range(2):  # saved, loaded again, saved again: the same tags
        status, state = gui.request("POST", "/api/load", raw=record.encode())
        assert status == 200, state
        record = gui.get("/api/save")
        assert '[Reason "white ran out of time"]' in record, record
        assert '[Termination "time forfeit"]' in record, record


def test_a_refused_request_leaves_a_running_analysis_running(gui):
    gui.post("/api/new", {"variant": "camelot", "seats": seats("human", "human")})
    gui.post("/api/analysis", {"action": "start", "multipv": 1})
    gui.wait(lambda s: s["analysis"]["lines"], what="analysis lines")
    for path, body in (("/api/position", {"position": "camelot not-a-position"}),
                       ("/api/analysis", {"action": "start", "multipv": True})):
        status, _ = gui.request("POST", path, body)
        assert status == 400, (path, body)
        assert gui.state()["analysis"]["running"] is True, (path, body)
    status, _ = gui.request("POST", "/api/load", raw=b'[Variant "Camelot"]\n\n1. E4-E4 *\n')
    assert status == 400
    assert gui.state()["analysis"]["running"] is True
    gui.post("/api/analysis", {"action": "stop"})


def test_the_analysis_engine_is_given_the_games_rulings(tmp_path):
    # Each engine process the board starts writes what it is sent to a file of its own.
    log = tmp_path / "sent"
    engine = f"sh -c 'tee {log}.$$ | exec {sys.executable} -m canter'"
    with GuiServer("--engine", engine, "--rule", "Repetition=claim", "--human", "all") as gui:
        gui.post("/api/analysis", {"action": "start", "multipv": 2})
        gui.wait(lambda s: s["analysis"]["lines"], what="analysis lines")
        gui.post("/api/analysis", {"action": "stop"})
    sent = [p.read_text() for p in tmp_path.glob("sent.*")]
    [analysing] = [text for text in sent if "go infinite" in text]
    assert "setoption name Rule Repetition value claim" in analysing, analysing
    assert "setoption name MultiPV value 2" in analysing, analysing


def test_a_second_interrupt_while_stopping_kills_what_is_left(tmp_path):
    # Engines that never answer again make the board's stop slow (each gets its `quit`
    # timeout); a second SIGTERM (or Ctrl-C) then kills them at once, never leaves them.
    import shutil

    if shutil.which("pgrep") is None:
        pytest.skip("needs pgrep to find the engine processes")
    hanger = tmp_path / f"hanger_{os.getpid()}.py"
    shutil.copy(SCRIPTED, hanger)
    engine = f"{sys.executable} {hanger} --ignore-stop --hang-at quit"
    server = GuiServer("--engine", engine, "--human", "all")
    try:
        server.post("/api/analysis", {"action": "start", "multipv": 1})
        server.wait(lambda s: s["analysis"]["running"], what="the analysis")
        server.proc.send_signal(signal.SIGTERM)
        time.sleep(0.7)
        server.proc.send_signal(signal.SIGTERM)
        server.proc.wait(timeout=20)
    finally:
        server.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        left = subprocess.run(["pgrep", "-f", str(hanger)], capture_output=True, text=True)
        if not left.stdout.strip():
            break
        time.sleep(0.2)
    else:
        subprocess.run(["pkill", "-9", "-f", str(hanger)])
        pytest.fail(f"engine processes left running: {left.stdout.split()}")


def test_an_engine_slow_to_start_never_holds_up_the_board(tmp_path):
    # While the seat's engine thinks, its analysis process takes seconds to start;
    # meanwhile Undo (which stops the seat's search) and the state are answered at once.
    import threading

    mark = tmp_path / "slow"
    engine = (f"sh -c 'if [ -e {mark} ]; then sleep 6; fi; "
              f"exec {sys.executable} -m canter'")
    with GuiServer("--engine", engine, "--human", "white") as server:
        server.post("/api/new", {"seats": seats("human", "engine",
                                                limit={"movetime": 20})})
        server.post("/api/move", {"move": "D6-F8"})
        server.wait(lambda s: s["thinking"], what="the engine thinking")
        mark.write_text("")
        answers: list[int] = []
        starting = threading.Thread(target=lambda: answers.append(server.request(
            "POST", "/api/analysis", {"action": "start", "multipv": 1})[0]))
        starting.start()
        time.sleep(1.0)  # the analysis process is starting
        began = time.monotonic()
        state = server.post("/api/undo")
        server.state()
        took = time.monotonic() - began
        starting.join(timeout=30)
        assert state["moves"] == ["D6-F8"] or state["moves"] == [], state["moves"]
        assert took < 3.0, f"the board waited {took:.1f} s for an engine to start"
        assert answers and answers[0] in (200, 409), answers
