"""`canter play` driven through a pseudo-terminal, the way a person uses it.

The engine seats are played by a real `canter` engine process, started by the terminal game
and driven through the protocol. Positions are one move from the end to keep games short.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import pexpect
import pytest

from canter.adapters.play.game import format_clock, parse_clock, parse_seats
from canter.adapters.records.format import read_games_file
from canter.engine import Position, get_variant, parse_move
from canter.engine.rules.variant import KNIGHT, MAN

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 30


def _position(variant: str, pieces, turn: int = 0) -> str:
    v = get_variant(variant)
    pos = Position(v)
    for name, seat, kind in pieces:
        pos.put(v.cell(name), seat, kind)
    pos.turn = turn
    pos.reset_derived()
    return pos.to_string()


# White: a Man already on G16 and one on F15, so F15-F16 wins (two pieces in the black
# castle). Black's pieces are far away and can neither capture nor reach White's castle.
CASTLE_IN_ONE = [("G16", 0, MAN), ("F15", 0, MAN), ("E5", 0, KNIGHT),
                 ("A13", 1, MAN), ("B13", 1, KNIGHT), ("L4", 1, MAN), ("C3", 1, MAN)]


def _default_ctrl_c() -> None:
    # A suite started in the background of a script inherits Ctrl-C ignored, and so would
    # the game, which then could never be interrupted: a person's terminal delivers it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(*args: str) -> pexpect.spawn:
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    child = pexpect.spawn(sys.executable, ["-m", "canter", "play", *args], cwd=str(ROOT),
                          env=env, encoding="utf-8", timeout=TIMEOUT, dimensions=(60, 200),
                          preexec_fn=_default_ctrl_c)
    return child


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def test_person_wins_by_castle_entry_after_errors_and_moves_list(tmp_path) -> None:
    record = tmp_path / "game.pgn"
    child = spawn("--position", _position("camelot", CASTLE_IN_ONE), "--human", "white",
                  "--save", str(record))
    child.expect("white> ")
    assert "[.][w]" in child.before  # the black castle with White's Man on G16
    child.sendline("F15-F17")
    child.expect("white> ")
    assert "unknown cell F17 in 'F15-F17'" in child.before
    child.sendline("F15-F13")
    child.expect("white> ")
    assert "illegal move F15-F13" in child.before
    child.sendline("moves")
    child.expect("white> ")
    # Knight E5: 8 steps; Man F15: E14 E15 F14 F16 G14 G15; Castle Move G16-F16.
    assert "15 legal moves:" in child.before
    listed = set(re.findall(r"[A-L]\d+-[A-L]\d+", child.before))
    assert {"F15-F16", "G16-F16", "E5-D4", "F15-E14"} <= listed and len(listed) == 15
    child.sendline("f15-f16")
    child.expect("game over: white wins: two pieces in the black castle")
    assert finish(child) == 0
    [game] = read_games_file(str(record))
    assert game.moves == ["F15-F16"] and game.result == "1-0"
    assert game.tags["White"] == "human" and game.tags["Black"] == "canter"
    assert game.tags["Position"] == _position("camelot", CASTLE_IN_ONE)


def test_engine_takes_its_win_and_hint_finds_it() -> None:
    # The person plays Black; White (the engine) is to move and wins at once.
    child = spawn("--position", _position("camelot", CASTLE_IN_ONE), "--human", "black",
                  "--depth", "2")
    child.expect("white plays F15-F16")
    child.expect("game over: white wins: two pieces in the black castle")
    assert finish(child) == 0

    child = spawn("--position", _position("camelot", CASTLE_IN_ONE), "--human", "white",
                  "--depth", "2")
    child.expect("white> ")
    child.sendline("hint")
    child.expect(r"hint: (\S+)")
    assert child.match.group(1) == "F15-F16"
    child.expect("white> ")
    child.sendline("quit")
    child.expect("game left unfinished")
    assert finish(child) == 0


def test_engine_reply_undo_save_and_load(tmp_path) -> None:
    saved = tmp_path / "two.pgn"
    child = spawn("--human", "white", "--depth", "1")
    child.expect("white> ")
    child.sendline("C6-B5")
    child.expect(r"black plays (\S+)")
    reply = child.match.group(1)
    child.expect("white> ")
    child.sendline(f"save {saved}")
    child.expect("saved 2 moves to")
    child.expect("white> ")
    child.sendline("undo")
    child.expect(f"took back C6-B5, {re.escape(reply)}")
    child.expect("white> ")
    child.sendline("undo")
    child.expect("nothing to undo")
    child.expect("white> ")
    child.sendline(f"load {saved}")
    child.expect("loaded 2 moves from")
    child.expect("white> ")
    assert f"last move: {reply}; white to move" in child.before
    child.sendline("quit")
    assert finish(child) == 0
    [game] = read_games_file(str(saved))
    assert game.moves[0] == "C6-B5" and len(game.moves) == 2
    assert game.comments[1] is not None and game.comments[1].depth == 1
    start = Position.start(get_variant("camelot"))
    start.push(parse_move(start, "C6-B5"))
    parse_move(start, reply)  # the engine's reply was legal


def test_three_people_take_turns_and_undo_one_ply() -> None:
    # Tri-Camelot, every seat typed: Blue is one step from Red's castle A16 (its target).
    pos = _position("tri-camelot", [("C14", 0, MAN), ("F9", 0, KNIGHT), ("E2", 1, MAN),
                                    ("D3", 1, MAN), ("K12", 2, KNIGHT), ("J9", 2, MAN)])
    child = spawn("--position", pos, "--human", "all")
    child.expect("blue> ")
    child.sendline("C14-B15")
    child.expect("red> ")
    child.sendline("undo")
    child.expect("took back C14-B15")
    child.expect("blue> ")
    child.sendline("C14-B15")
    child.expect("red> ")
    child.sendline("E2-E4")
    child.expect("green> ")
    child.sendline("K12-K14")
    child.expect("blue> ")
    child.sendline("B15-A16")
    child.expect("game over: blue wins: a piece in the red castle")
    assert finish(child) == 0


def test_clock_runs_out_while_the_person_waits(tmp_path) -> None:
    record = tmp_path / "flag.pgn"
    child = spawn("--human", "all", "--clock", "0.01", "--save", str(record))
    child.expect("clocks: white 0:00.6  black 0:00.6")
    child.expect("white> ")
    child.expect("game over: black wins: white's time ran out")
    assert finish(child) == 0
    [game] = read_games_file(str(record))
    assert game.result == "0-1" and game.tags["Termination"] == "time forfeit"


def test_resign_ends_the_game_for_the_other_side(tmp_path) -> None:
    record = tmp_path / "resigned.pgn"
    child = spawn("--human", "all", "--save", str(record))
    child.expect("white> ")
    child.sendline("D6-F8")
    child.expect("black> ")
    child.sendline("resign")
    child.expect("game over: white wins: black resigns")
    assert finish(child) == 0
    [game] = read_games_file(str(record))
    assert game.result == "1-0" and game.tags["Termination"] == "resignation"


SHUFFLE = ["C6-C7", "C11-C10", "C7-C6", "C10-C11"]


def test_third_repetition_is_claimed_under_claim_rules(tmp_path) -> None:
    record = tmp_path / "claimed.pgn"
    child = spawn("--human", "all", "--setoption", "rule repetition=claim",
                  "--save", str(record))
    child.expect("white> ")
    child.sendline("draw")
    child.expect("white> ")
    assert "no draw to claim: this position has occurred 1 time, a claim needs 3" in child.before
    for move in SHUFFLE * 2:
        child.sendline(move)
        child.expect(r"(white|black)> ")
    # The start position is back for the third time; the game goes on until a claim.
    assert "'draw' claims the draw" in child.before
    child.sendline("draw")
    child.expect("game over: draw: third repetition, claimed by white")
    assert finish(child) == 0
    [game] = read_games_file(str(record))
    assert game.result == "1/2-1/2" and game.moves == SHUFFLE * 2


def test_third_repetition_ends_the_game_by_default_and_bad_rules_are_refused() -> None:
    child = spawn("--human", "all")
    for move in SHUFFLE * 2:
        child.expect(r"(white|black)> ")
        child.sendline(move)
    child.expect("game over: draw: third repetition")
    assert finish(child) == 0
    child = spawn("--human", "all", "--setoption", "Rule Repetition=sometimes")
    child.expect(pexpect.EOF)
    assert "repetition must be one of auto, claim, off, not 'sometimes'" in child.before


def test_clock_and_seat_parsing() -> None:
    assert parse_clock("5") == (300.0, 0.0)
    assert parse_clock("5+3") == (300.0, 3.0)
    assert parse_clock(" 0.5 + 0.25 ") == (30.0, 0.25)
    for bad in ("", "5+", "+3", "five", "0"):
        with pytest.raises(ValueError):
            parse_clock(bad)
    assert format_clock(125.0) == "2:05"
    assert format_clock(9.25) == "0:09.2"
    tri = get_variant("tri-camelot")
    assert parse_seats(tri, "blue,g") == {0, 2}
    assert parse_seats(tri, "all") == {0, 1, 2}
    assert parse_seats(tri, "none") == set()
    with pytest.raises(ValueError, match="unknown seat 'white'"):
        parse_seats(tri, "white")


def test_a_broken_engine_costs_the_hint_not_the_game() -> None:
    # The engine starts (it is started before the first prompt) and dies at its first go.
    scripted = ROOT / "tests" / "fake_engines" / "scripted.py"
    child = spawn("--position", _position("camelot", CASTLE_IN_ONE), "--human", "all",
                  "--engine", f"{sys.executable} {scripted} --die-at go")
    child.expect("white> ")
    child.sendline("hint")
    child.expect("no hint: engine error: engine died")
    child.expect("white> ")
    child.sendline("F15-F16")
    child.expect("game over: white wins: two pieces in the black castle")
    assert finish(child) == 0


@pytest.mark.parametrize("signum, said", [
    (signal.SIGINT, "interrupted: game left unfinished"),  # Ctrl-C
    (signal.SIGHUP, "ended by a signal: game left unfinished"),  # a closed terminal
    (signal.SIGTERM, "ended by a signal: game left unfinished"),
])
def test_an_interrupt_or_a_signal_leaves_the_game_and_still_saves(tmp_path, signum,
                                                                  said) -> None:
    record = tmp_path / "left.pgn"
    child = spawn("--human", "white", "--depth", "1", "--save", str(record))
    child.expect("white> ")
    child.sendline("C6-B5")
    child.expect("black is thinking")
    child.expect("white> ")
    if signum == signal.SIGINT:
        child.sendintr()
    else:
        child.kill(signum)
    child.expect(said)
    assert finish(child) == 128 + signum
    [game] = read_games_file(str(record))
    assert game.moves[0] == "C6-B5" and len(game.moves) == 2 and game.result == "*"


def test_a_word_that_is_no_command_nor_move_is_called_unknown() -> None:
    child = spawn("--position", _position("camelot", CASTLE_IN_ONE), "--human", "white")
    child.expect("white> ")
    child.sendline("foo")
    child.expect("white> ")
    assert "unknown command or move 'foo' (type 'help')" in child.before
    assert "malformed" not in child.before
    child.sendline("F5")  # shaped like a move: the notation error stays
    child.expect("white> ")
    assert "malformed move 'F5': a move names at least two cells" in child.before
    child.sendline("F15xF")
    child.expect("white> ")
    assert "malformed move 'F15xF'" in child.before
    child.sendline("quit")
    assert finish(child) == 0


def test_color_is_kept_when_asked_for_through_a_pipe() -> None:
    import subprocess

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("NO_COLOR", None)
    asked = subprocess.run([sys.executable, "-m", "canter", "play", "--color"], input="quit\n",
                           capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT, env=env)
    assert asked.returncode == 0 and "\x1b[" in asked.stdout, asked.stdout + asked.stderr
    plain = subprocess.run([sys.executable, "-m", "canter", "play"], input="quit\n",
                           capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT, env=env)
    assert plain.returncode == 0 and "\x1b[" not in plain.stdout


@pytest.mark.parametrize("variant, white, black, move, reason", [
    ("cam", "D12 A4", "G10", "D12-D13", "a piece in the black castle"),
    ("camette", "C6 A4", "E3", "C6-C7", "a piece in the black castle"),
    ("chivalry", "G16 H15 A8", "N5 N6", "H15-H16", "two pieces in the black castle"),
])
def test_person_wins_each_two_player_game(tmp_path, variant, white, black, move,
                                          reason) -> None:
    pieces = [(c, 0, MAN) for c in white.split()] + [(c, 1, MAN) for c in black.split()]
    record = tmp_path / "game.pgn"
    child = spawn("--position", _position(variant, pieces), "--human", "white",
                  "--save", str(record))
    child.expect("white> ")
    child.sendline(move.lower())
    child.expect(f"game over: white wins: {reason}")
    assert finish(child) == 0
    [game] = read_games_file(str(record))
    assert game.variant == variant and game.moves == [move] and game.result == "1-0"


def test_engine_answers_from_the_chivalry_start() -> None:
    child = spawn("--variant", "chivalry", "--human", "white", "--depth", "1")
    child.expect("white> ")
    assert "[.][.]" in child.before  # a two-cell castle, drawn empty
    child.sendline("C6-C8")
    child.expect(r"black plays ([A-N]\d+\S*)")
    pos = Position.start("chivalry")
    pos.push(parse_move(pos, "C6-C8"))
    parse_move(pos, child.match.group(1))  # a legal reply
    child.expect("white> ")
    child.sendline("quit")
    child.expect("game left unfinished")
    assert finish(child) == 0


def test_a_game_under_other_rules_is_saved_with_them_and_loads_again(tmp_path) -> None:
    # Under Repetition=off the shuffle goes on past a third repetition; saved without its
    # Rules tag the record would end at the repetition and could not be read back.
    record = tmp_path / "norep.pgn"
    child = spawn("--human", "all", "--setoption", "Rule Repetition=off", "--save",
                  str(record))
    for move in SHUFFLE * 2 + ["D6-D5"]:
        child.expect(r"(white|black)> ")
        child.sendline(move)
    child.expect("black> ")
    child.sendline("quit")
    assert finish(child) == 0
    [game] = read_games_file(str(record))
    assert game.tags["Rules"] == "repetition=off" and len(game.moves) == 9
    child = spawn("--human", "all", "--load", str(record))
    child.expect("black> ")
    child.sendline("quit")
    assert finish(child) == 0
    # Refereed by other rulings the record cannot be replayed: the third repetition ends
    # the game before its last move. Said at once, as for a bad record.
    child = spawn("--human", "all", "--load", str(record), "--setoption",
                  "Rule Repetition=auto")
    child.expect(r"Invalid value for --load: .*norep.pgn: under the Rule options given "
                 r"the game is over before ply 9 \(D6-D5\): draw: third repetition")
    assert finish(child) == 2
    # And so is the in-game `load` command: the game on the board stays.
    child = spawn("--human", "all", "--setoption", "Rule Repetition=auto")
    child.expect("white> ")
    child.sendline(f"load {record}")
    child.expect("cannot load .*norep.pgn: under the Rule options given the game is over "
                 r"before ply 9 \(D6-D5\)")
    child.expect("white> ")
    child.sendline("quit")
    assert finish(child) == 0


CLUB = """[Event "Club final"]
[Site "Camelot club"]
[Date "2026.05.01"]
[Round "3"]
[Variant "Camelot"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]
[Termination "resignation"]
[Reason "black resigns"]

1. D6-F8 1-0
"""


def test_a_loaded_record_keeps_its_tags_and_its_ending_when_saved_over(tmp_path) -> None:
    club = tmp_path / "club.pgn"
    club.write_text(CLUB)
    child = spawn("--human", "all", "--load", str(club), "--save", str(club))
    child.expect("game over: black resigns")  # no move after a resignation
    assert finish(child) == 0
    [game] = read_games_file(str(club))
    assert {k: game.tags[k] for k in ("Event", "Site", "Date", "Round", "White", "Black",
                                      "Termination")} == {
        "Event": "Club final", "Site": "Camelot club", "Date": "2026.05.01", "Round": "3",
        "White": "Alice", "Black": "Bob", "Termination": "resignation"}
    assert game.result == "1-0" and game.moves == ["D6-F8"]


def test_the_engine_is_given_every_ruling_of_the_game() -> None:
    from types import SimpleNamespace

    from canter.adapters.play.game import EngineSettings, TerminalGame
    from canter.engine import Rules

    start = Position.start("camelot", Rules(repetition="off", quiet_limit=40))
    game = TerminalGame(start, [], {0, 1}, EngineSettings(["x"]), reader=object(),
                        write=lambda text: None)
    engine = SimpleNamespace(options={"rule repetition": 1, "rule quiet limit": 1,
                                      "rule exit duty persists": 1})
    assert game._rule_options(engine) == {  # only options the engine declares
        "Rule Repetition": "off", "Rule Quiet Limit": "40",
        "Rule Exit Duty Persists": "true"}


def test_a_side_castles_ruling_changes_the_game_the_terminal_referees() -> None:
    # Grand Cam: A7 is Blue's castle, a side castle to its partner Red. Closed (the
    # default), Red's Man on C7 may not jump Green's Man into it; under "own" the jump
    # is the one legal move (a capture is compulsory) and leaves Red a duty to go out.
    position = "grand-cam 1/3/3b3/9/8g/11/1gr10/11/9/3y5/7/3/1 r 0,0,0,0 - - 0 0"
    child = spawn("--human", "all", "--position", position)
    child.expect("red> ")
    child.sendline("C7xA7")
    child.expect("red> ")
    assert "A7 is a side castle, which may never be entered" in child.before
    child.sendline("quit")
    assert finish(child) == 0
    child = spawn("--human", "all", "--position", position, "--setoption",
                  "Rule Side Castles=own")
    child.expect("red> ")
    child.sendline("C7xA7")
    child.expect("must leave the castle: A7")
    child.expect("green> ")
    child.sendline("quit")
    assert finish(child) == 0
    # The position after that jump is one only the ruling allows: read under it.
    after = "grand-cam 1/3/3b3/9/8g/11/r12/11/9/3y5/7/3/1 g 0,0,0,0 A7 - 0 1"
    child = spawn("--human", "all", "--position", after, "--setoption",
                  "Rule Side Castles=own")
    child.expect("must leave the castle: A7")
    child.expect("green> ")
    child.sendline("quit")
    assert finish(child) == 0


def test_save_to_a_pipe_never_waits_for_a_reader(tmp_path) -> None:
    # A pipe is written in place: neither the check at the start nor the save at the end
    # may wait for ever on a pipe that nobody reads (or reads as stdout).
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    child = spawn("--human", "white", "--depth", "1", "--save", str(pipe))
    child.expect("white> ")
    child.sendline("quit")
    child.expect(f"cannot save {pipe}: a pipe that nobody reads")
    assert finish(child) == 1


def test_save_to_a_pipe_that_is_read_writes_the_record(tmp_path) -> None:
    import threading

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    got: list[bytes] = []
    # The reader must hold the pipe open before the save; it reads until the game closes it.
    fd = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
    reader = threading.Thread(target=lambda: got.append(_read_all(fd)))
    child = spawn("--human", "white", "--depth", "1", "--save", str(pipe))
    child.expect("white> ")
    child.sendline("C6-B5")
    child.expect("white> ")
    reader.start()
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "saved 2 moves" in child.before, child.before
    reader.join(TIMEOUT)
    assert b"C6-B5" in got[0] and b'[Event "canter play"]' in got[0]


def _read_all(fd: int) -> bytes:
    """What a writer puts into the pipe (held open, not blocking, on `fd`), up to its
    close: before any writer came, an empty read means nobody has written yet."""
    import time

    data = b""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            chunk = None  # a writer is there, with nothing written yet
        if chunk:
            data += chunk
        elif chunk == b"" and data:
            break  # the writer closed the pipe
        else:
            time.sleep(0.05)
    os.close(fd)
    return data


def test_a_file_of_several_games_loads_the_game_asked_for(tmp_path) -> None:
    from canter.adapters.records.format import GameRecord, write_game

    record = tmp_path / "two-games.pgn"
    games = []
    for moves in (("C6-B5", "C11-B12"), ("F6-F8", "F11-F9", "G6-G8")):
        game = GameRecord.new("camelot", ["a", "b"])
        for text in moves:
            game.add_move(text)
        game.set_result("*")
        games.append(write_game(game))
    record.write_text("\n".join(games))
    child = spawn("--load", str(record), "--game", "2", "--human", "all")
    child.expect(r"loaded game 2 of 2 \(3 moves\)")
    child.expect("black> ")
    assert "last move: G6-G8; black to move" in child.before
    child.sendline(f"load {record} 1")
    child.expect(r"loaded game 1 of 2 \(2 moves\)")
    child.expect("white> ")
    assert "last move: C11-B12; white to move" in child.before
    child.sendline(f"load {record} 3")
    child.expect("the file holds 2 games, not 3")
    child.expect("white> ")
    for bad in ("x", "\u00b2", "0x1"):
        child.sendline(f"load {record} {bad}")
        child.expect(r"usage: load FILE \[N\]")
    child.sendline("quit")
    assert finish(child) == 0
    bad = spawn("--load", str(record), "--game", "3")
    bad.expect("the file holds 2 games, not 3")
    assert finish(bad) == 2
    alone = spawn("--game", "2")
    alone.expect("--game chooses a game of the file --load reads")
    assert finish(alone) == 2


def test_an_engine_that_fails_on_its_move_leaves_the_game_to_the_person(tmp_path) -> None:
    # It dies at its first search: the game stays; 'retry' asks a fresh one (which dies
    # again), then the person moves for it and the game goes on, to be saved.
    record = tmp_path / "kept.pgn"
    scripted = ROOT / "tests" / "fake_engines" / "scripted.py"
    child = spawn("--human", "white", "--engine", f"{sys.executable} {scripted} --die-at go",
                  "--save", str(record))
    child.expect("white> ")
    child.sendline("retry")
    child.expect("nothing to retry: the engine has not failed")
    child.expect("white> ")
    child.sendline("C6-B5")
    child.expect("engine error: engine died")
    child.expect("'retry' asks a fresh engine for black's move")
    child.expect("black> ")
    child.sendline("retry")
    child.expect("starting engine")
    child.expect("engine error: engine died")
    child.expect("black> ")
    child.sendline("C11-B10")
    child.expect("white> ")  # the person's own seat again
    child.sendline("quit")
    assert finish(child) == 0
    [game] = read_games_file(str(record))
    assert game.moves == ["C6-B5", "C11-B10"] and game.result == "*"


def test_load_of_a_record_the_rulings_refuse_keeps_the_game(tmp_path) -> None:
    # A Grand Cam record under open side castles, with Red's Man in a side castle, loaded
    # into a session whose ruling closes them: refused, and the game on the board stays.
    record = tmp_path / "side.pgn"
    record.write_text(
        '[Variant "Grand Cam"]\n[Rules "side_castles=own"]\n[SetUp "1"]\n'
        '[Position "grand-cam 1/3/3b3/9/8g/11/r12/11/9/3y5/7/3/1 g 0,0,0,0 A7 - 0 1"]\n\n*\n')
    child = spawn("--variant", "grand-cam", "--human", "all", "--setoption",
                  "Rule Side Castles=closed")
    child.expect("red> ")
    child.sendline(f"load {record}")
    child.expect(f"cannot load {record}: .*a castle it may never enter")
    child.expect("red> ")
    child.sendline("quit")
    assert finish(child) == 0


def test_save_and_load_take_quoted_names_with_spaces(tmp_path) -> None:
    record = tmp_path / "my game.pgn"
    child = spawn("--human", "all")
    child.expect("white> ")
    child.sendline("C6-B5")
    child.expect("black> ")
    child.sendline(f'save "{record}"')
    child.expect(f"saved 1 move to {record}")
    child.sendline(f"load '{record}'")
    child.expect(f"loaded 1 move from {record}")
    child.sendline('save "unclosed')
    child.expect("save: No closing quotation")
    child.sendline("quit")
    assert finish(child) == 0
    assert read_games_file(str(record))[0].moves == ["C6-B5"]
