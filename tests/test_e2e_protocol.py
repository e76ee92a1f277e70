"""End to end through real pipes, the way an arbiter drives an engine: `python -m canter`
(and the installed `canter` script) as a child process, bytes in, lines out."""

from __future__ import annotations

import queue
import random
import re
import shutil
import subprocess
import time

import pytest
from pipe_engine import ENGINE_CMD, PipeEngine

from canter.engine import Position, format_move, get_variant, parse_move
from canter.engine.rules.perft import perft

# Every line the UCI-style dialect may print starts like one of these (docs/protocol.md).
OUTPUT_GRAMMAR = re.compile(
    r"^(id (name|author) .+|option name .+ type (check|spin|combo|button|string)( .*)?|uciok"
    r"|readyok|info( .*)?|bestmove (\(none\)|[A-L]\d{1,2}([-x][A-L]\d{1,2})+)"
    r"( ponder [A-L]\d{1,2}([-x][A-L]\d{1,2})+)?|legal( [A-L]\d{1,2}([-x][A-L]\d{1,2})+)*"
    r"|result (none( claimable)?|draw: .+|\w+ wins: .+)|position \S+ \S+ .+"
    r"|divide \S+ \d+|perft \d+ nodes \d+ time \d+ nps \d+|eval (cp -?\d+|none)"
    r"|bench nodes \d+ time \d+ nps \d+)$"
)

# White F12 can reach the black castle by two jump routes taking different pieces.
AMBIGUOUS = "camelot 2/2bb4/10/b3bb5b/5w6/12/12/12/12/12/12/12/w10w/10/8/2 w 0,0 - - 0 0"
CAPTURE_DUTY = "camelot 2/8/10/12/12/12/12/5b6/5w6/12/12/12/4w7/10/8/2 w 0,0 - - 0 30"


class Engine(PipeEngine):
    def __init__(self, cmd: list[str] | None = None) -> None:
        super().__init__(OUTPUT_GRAMMAR, cmd)

    def send(self, text: str, end: str = "\n") -> None:
        self.send_bytes((text + end).encode("utf-8"))

    def until(self, prefix: str, timeout: float = 10.0) -> list[str]:
        """Lines up to and including the first starting with `prefix`."""
        out = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.read(max(0.01, deadline - time.monotonic()))
            out.append(line)
            if line.startswith(prefix):
                return out

    def quiet(self, seconds: float) -> list[str]:
        """Whatever arrives within `seconds` (expected: nothing)."""
        out = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                self.lines.put(None)
                break
            out.append(line)
        return out

    def ask(self, command: str, prefix: str) -> str:
        self.send(command)
        return self.until(prefix)[-1]

    def between(self, command: str | bytes) -> list[str]:
        """Send a command, then isready; every line the command produced before readyok."""
        if isinstance(command, bytes):
            self.send_bytes(command)
        else:
            self.send(command)
        self.send("isready")
        return self.until("readyok")[:-1]


@pytest.fixture
def engine():
    e = Engine()
    yield e
    assert e.close() == 0
    assert not any(b"Traceback" in line for line in e.stderr), b"".join(e.stderr).decode()


# ---- handshake, start and end ------------------------------------------------------------------
def test_silent_until_spoken_to_then_handshake(engine):
    assert engine.quiet(0.3) == []
    lines = engine.between("uci")
    assert lines[0].startswith("id name canter ")
    assert lines[1] == "id author the canter developers"
    assert lines[-1] == "uciok"
    names = {re.match(r"option name (.+?) type", line).group(1) for line in lines[2:-1]}
    assert {"UCI_Variant", "Hash", "MultiPV", "Ponder", "Move Overhead", "Skill Level",
            "Rule Repetition", "Rule Quiet Limit", "Rule Exit Duty Persists",
            "Rule No Move"} <= names
    variant = next(line for line in lines if "UCI_Variant" in line)
    assert variant.endswith(
        "default camelot var camelot var tri-camelot var cam var camette var chivalry "
        "var grand-cam")


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_installed_script_through_pexpect():
    from pexpect.popen_spawn import PopenSpawn

    script = shutil.which("canter")
    if script is None:
        pytest.skip("the canter script is not installed on PATH")
    child = PopenSpawn([script], timeout=20, encoding="utf-8")
    child.sendline("uci")
    child.expect("uciok")
    child.sendline("position startpos")
    child.sendline("go depth 1")
    child.expect(r"bestmove (\S+)")
    move = child.match.group(1)
    parse_move(Position.start("camelot"), move)  # a legal move of the start position
    child.sendline("quit")
    child.expect(pexpect_eof())
    assert child.wait() == 0


def pexpect_eof():
    import pexpect

    return pexpect.EOF


def test_eof_lets_a_finite_search_answer_and_exits_zero():
    e = Engine()
    e.send_bytes(b"position startpos\ngo depth 1")  # no final line end either
    e.proc.stdin.close()
    lines = e.until("bestmove")
    assert e.proc.wait(10) == 0
    parse_move(Position.start("camelot"), lines[-1].split()[1])


@pytest.mark.parametrize("first, answer", [("xboard\nprotover 2", "feature "),
                                           ("uci", "uciok")])
def test_a_byte_order_mark_before_the_first_command_is_ignored(first, answer):
    # Some Windows tools begin a file with one; it made 'xboard' an unknown command and
    # chose the UCI dialect for good.
    proc = subprocess.run(ENGINE_CMD, input=b"\xef\xbb\xbf" + first.encode() + b"\nquit\n",
                          capture_output=True, timeout=20)
    lines = proc.stdout.decode().splitlines()
    assert any(line.startswith(answer) for line in lines), lines
    assert not any("error" in line.lower() for line in lines), lines


@pytest.mark.parametrize("commands", [
    "setoption name OwnBook value false\nposition startpos moves C6-E8\ngo depth 30\n",
    "xboard\nprotover 2\noption OwnBook=0\nsd 30\nnew\nusermove C6-E8\n"])
def test_a_long_search_stops_when_the_client_closes_both_ends(commands):
    """A crashed GUI closes the engine's input and output: the engine exits at once instead
    of searching to depth 30 for hours with no one to read its move."""
    proc = subprocess.Popen(ENGINE_CMD, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    proc.stdin.write(commands.encode())
    proc.stdin.flush()
    time.sleep(1.0)  # searching
    proc.stdin.close()
    proc.stdout.close()
    try:
        assert proc.wait(10) == 0
    finally:
        proc.kill()


@pytest.mark.parametrize("commands", ["go", "go infinite", "go ponder", "go ponder\nponderhit",
                                      "go movestogo 10", "go infinite depth 3"])
def test_eof_stops_a_search_without_a_finite_limit(commands):
    """An arbiter's engine must never hang at end of input: one bestmove, then exit 0."""
    started = time.monotonic()
    proc = subprocess.run(ENGINE_CMD, input=f"position startpos\n{commands}\n",
                          capture_output=True, text=True, timeout=20)
    assert proc.returncode == 0, proc.stderr
    assert time.monotonic() - started < 10
    lines = proc.stdout.splitlines()
    assert all(OUTPUT_GRAMMAR.match(line) for line in lines), lines
    best = [line for line in lines if line.startswith("bestmove")]
    assert len(best) == 1 and lines[-1] == best[0], lines
    parse_move(Position.start("camelot"), best[0].split()[1])


@pytest.mark.parametrize("command", ["go infinite", "go ponder"])
def test_eof_answers_a_held_go_on_a_decided_game(command):
    proc = subprocess.run(ENGINE_CMD, input=f"position {CAPTURE_DUTY} moves F8xF10\n"
                          f"{command}\n", capture_output=True, text=True, timeout=20)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "info string result white wins: black has no pieces left", "bestmove (none)"]


def test_eof_lets_a_ponderhit_search_with_clocks_answer():
    proc = subprocess.run(ENGINE_CMD, input="go ponder wtime 3000 btime 3000\nponderhit\n",
                          capture_output=True, text=True, timeout=20)
    assert proc.returncode == 0, proc.stderr
    assert [x for x in proc.stdout.splitlines() if x.startswith("bestmove")] != []
    # finished on its own clock budget, so it reported at least one completed depth
    assert any(x.startswith("info depth") for x in proc.stdout.splitlines())


@pytest.mark.parametrize("commands,moves", [
    ("xboard\nprotover 2\nanalyze\n", 0),  # analysis has no end of its own
    ("xboard\nprotover 2\nnew\nhard\nst 0.3\ngo\n", 1),  # plays its move, then ponders
])
def test_cecp_eof_plays_a_pending_move_but_stops_analysis_and_pondering(commands, moves):
    started = time.monotonic()
    proc = subprocess.run(ENGINE_CMD, input=commands, capture_output=True, text=True,
                          timeout=20)
    assert proc.returncode == 0, proc.stderr
    assert time.monotonic() - started < 10
    played = [x for x in proc.stdout.splitlines() if x.startswith("move ")]
    assert len(played) == moves, proc.stdout
    if moves:
        parse_move(Position.start("camelot"), played[0].split()[1])


def test_quit_during_infinite_search_answers_then_exits_zero():
    e = Engine()
    e.send("go infinite")
    assert not any(x.startswith("bestmove") for x in e.quiet(0.2))
    e.send("quit")
    rest = e.until("bestmove")
    assert sum(line.startswith("bestmove") for line in e.seen) == 1, rest
    assert e.proc.wait(10) == 0


# ---- search control ----------------------------------------------------------------------------
def test_isready_and_stop_during_go_infinite(engine):
    engine.between("uci")  # started and ready: the bound below is the search's alone
    engine.send("position startpos moves C6-B5")
    engine.send("go infinite")
    engine.send("isready")
    # A readyok held back until the search ends never comes: go infinite does not end.
    lines = engine.until("readyok", timeout=5)
    assert not any(line.startswith("bestmove") for line in lines)
    assert not any(x.startswith("bestmove") for x in engine.quiet(0.3))
    engine.send("stop")
    best = engine.until("bestmove", timeout=2)[-1]
    pos = Position.start("camelot")
    pos.push(parse_move(pos, "C6-B5"))
    parse_move(pos, best.split()[1])
    assert engine.quiet(0.3) == []  # exactly one bestmove
    assert engine.between("stop") == []  # nothing to stop: silently ignored


def test_go_during_a_search_answers_the_first_then_the_second(engine):
    engine.send("go infinite")
    engine.send("go depth 1")
    engine.send("isready")
    lines = engine.until("readyok")
    lines += engine.quiet(0.3)
    assert sum(line.startswith("bestmove") for line in lines) == 2


def test_ponder_then_ponderhit(engine):
    engine.send("position startpos moves C6-B5 H11-F9")
    engine.send("go ponder wtime 5000 btime 5000")
    assert not any(x.startswith("bestmove") for x in engine.quiet(0.3))
    engine.send("ponderhit")
    assert engine.until("bestmove", timeout=5)[-1].startswith("bestmove ")
    assert engine.between("ponderhit") == [
        "info string error: ponderhit ignored: no ponder search is running"]


def test_go_on_a_finished_game(engine):
    engine.send(f"position {CAPTURE_DUTY} moves F8xF10")
    engine.send("go wtime 1000 btime 1000")
    assert engine.until("bestmove") == [
        "info string result white wins: black has no pieces left", "bestmove (none)"]
    assert engine.ask("result", "result") == "result white wins: black has no pieces left"
    assert engine.between("legal") == ["legal"]
    # A draw by third repetition: both Knights step out and back twice.
    engine.send("position startpos moves C6-B5 C11-B12 B5-C6 B12-C11 C6-B5 C11-B12 B5-C6 "
                "B12-C11")
    # Infinite and ponder say the result at once, but answer only when told to, as a
    # search would (a GUI that pondered on a game its move ended sends ponderhit or stop).
    engine.send("go infinite")
    assert engine.quiet(0.3) == ["info string result draw: third repetition"]
    engine.send("stop")
    assert engine.until("bestmove", timeout=2) == ["bestmove (none)"]
    engine.send("go ponder wtime 1000 btime 1000")
    assert engine.quiet(0.3) == ["info string result draw: third repetition"]
    engine.send("ponderhit")
    assert engine.until("bestmove", timeout=2) == ["bestmove (none)"]  # and no error line
    engine.send("go infinite")
    engine.send("go depth 1")  # a go answers the one before first
    assert engine.until("bestmove", timeout=2)[-1] == "bestmove (none)"
    assert engine.until("bestmove", timeout=2)[-1] == "bestmove (none)"
    # While held, the session is searching: ponderhit does not end an infinite one,
    # options wait, and ucinewgame answers it (before its readyok, as for a search).
    engine.send("go infinite")
    assert engine.between("ponderhit") == [
        "info string result draw: third repetition",
        "info string error: ponderhit ignored: no ponder search is running"]
    assert engine.between("setoption name Hash value 8")[0].startswith(
        "info string error: option 'Hash' not set: a search is running")
    assert engine.between("ucinewgame") == ["bestmove (none)"]


def test_a_rule_option_the_game_never_consults_is_set_with_a_warning(engine):
    assert engine.between("setoption name Rule Side Castles value own") == [
        "info string warning: Rule Side Castles changes nothing in camelot: only team "
        "games have side castles"]
    # Set all the same: Grand Cam, which consults it, is told nothing.
    assert engine.between("setoption name UCI_Variant value grand-cam") == []
    assert engine.between("setoption name Rule Side Castles value closed") == []


def test_go_with_every_limit_form_answers_once(engine):
    engine.send("position startpos")
    for args in ["depth 2", "nodes 500", "movetime 50", "wtime 1000 btime 1000 winc 10 "
                 "binc 10 movestogo 5", "whitetime 300 blacktime 300",
                 "searchmoves I6-K6 J6-K7 depth 1"]:
        lines = engine.between("go " + args)
        lines += engine.until("bestmove") if not any(
            x.startswith("bestmove") for x in lines) else []
        assert sum(x.startswith("bestmove") for x in lines) == 1, args
        assert not any("error" in x for x in lines), (args, lines)
        if args.startswith("searchmoves"):
            assert lines[-1].split()[1] in ("I6-K6", "J6-K7")
    # Open-ended searches (no limit; a win to find) end with stop, answered once.
    for args in ["", "mate 3"]:
        engine.send("go " + args)
        assert not any(x.startswith("bestmove") for x in engine.quiet(0.2))
        engine.send("stop")
        engine.until("bestmove", timeout=3)
        assert engine.quiet(0.2) == []


# ---- referee and diagnostics -------------------------------------------------------------------
def test_referee_commands_agree_with_the_rules_library(engine):
    moves = ["D6-F8", "H11-F9", "C6-E8-G8", "J11-H11"]
    engine.send("position startpos moves " + " ".join(moves))
    pos = Position.start("camelot")
    for text in moves:
        pos.push(parse_move(pos, text))
    legal = engine.ask("legal", "legal").split()[1:]
    assert legal == sorted(format_move(pos.variant, m) for m in pos.legal_moves())
    from_f8 = engine.ask("legal f8", "legal").split()[1:]
    assert from_f8 == [t for t in legal if t.startswith("F8")]
    assert engine.ask("getposition", "position") == "position " + pos.to_string()
    assert engine.ask("result", "result") == "result none"
    board = engine.between("d")
    assert all(x.startswith("info string ") for x in board[:-1])
    assert board[-1] == "position " + pos.to_string()
    # getposition's answer is itself a valid position command.
    engine.send("position " + pos.to_string())
    assert engine.ask("getposition", "position") == "position " + pos.to_string()


def test_perft_and_divide_match_the_reference_counts(engine):
    lines = engine.between("perft 1")
    assert len(lines) == 101 and lines[-1].startswith("perft 1 nodes 100 ")  # RULES.md §4
    lines = engine.between("perft 2")
    assert sum(int(x.split()[2]) for x in lines[:-1]) == perft(Position.start("camelot"), 2)
    assert lines[-1].startswith(f"perft 2 nodes {perft(Position.start('camelot'), 2)} ")
    engine.send("setoption name UCI_Variant value tri-camelot")
    assert engine.between("perft 1")[-1].startswith("perft 1 nodes 36 ")
    assert engine.between("perft 0")[-1].startswith("perft 0 nodes 1 ")


def test_eval_and_bench(engine):
    from canter.engine.search.searcher import Searcher

    score, text = Searcher().evaluate(Position.start("camelot"))
    lines = engine.between("eval")
    assert lines[-1] == f"eval cp {score}"
    assert lines[:-1] == ["info string " + " ".join(row.split())
                          for row in text.splitlines() if row.strip()]
    first = engine.ask("bench 1", "bench").split()
    second = engine.ask("bench 1", "bench").split()
    assert first[2] == second[2] and int(first[2]) > 0  # the same node count every run
    engine.send(f"position {CAPTURE_DUTY} moves F8xF10")
    assert engine.between("eval") == [
        "info string result white wins: black has no pieces left", "eval none"]


# ---- malformed input, one class at a time ------------------------------------------------------
ERROR = "info string error: "

MALFORMED = [
    ("unknown command", "frobnicate now", "unknown command 'frobnicate'"),
    ("unknown command, odd bytes", b"\x00\xff\x1b[31m\n", "unknown command '\\x00"),
    ("position without argument", "position", "needs 'startpos'"),
    ("position junk after startpos", "position startpos C6-B5", "expected 'moves'"),
    ("illegal move in list", "position startpos moves C6-B5 H11-F9 B5-B3",
     "move 3 (B5-B3)"),
    ("malformed move in list", "position startpos moves C6--B5", "move 1 (C6--B5)"),
    ("ambiguous short form", f"position {AMBIGUOUS} moves F12xF16",
     "move 1 (F12xF16): ambiguous move F12xF16: could be F12xD14xF16, F12xF14xF16"),
    ("bad position string", "position camelot 2/8 w", "bad position string"),
    ("unknown variant", "position chess 8/8 w - - 0 1", "bad position string"),
    ("setoption without name", "setoption Hash value 3", "setoption needs"),
    ("setoption unknown", "setoption name Colour value red", "unknown option 'Colour'"),
    ("setoption bad spin", "setoption name Hash value huge", "whole number"),
    ("setoption out of range", "setoption name MultiPV value 0", "takes 1 to 64"),
    ("setoption bad check", "setoption name Ponder value yes", "true or false"),
    ("setoption bad combo", "setoption name UCI_Variant value chess", "takes one of"),
    ("perft without depth", "perft", "needs a depth"),
    ("perft bad depth", "perft deep", "whole number"),
    ("perft negative", "perft -1", "must not be negative"),
    ("legal bad cell", "legal Q99", "no cell 'Q99'"),
    ("legal two cells", "legal A4 A5", "at most one cell or move"),
    ("ponderhit at wrong time", "ponderhit", "no ponder search"),
    ("xboard after the first command", "xboard", "CECP dialect"),
    ("overlong line", b"go " + b"9" * 70000 + b"\n", "dropped"),
]


@pytest.mark.parametrize("name,line,message", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_input_gets_one_error_line_and_changes_nothing(engine, name, line, message):
    engine.send("uci")
    engine.until("uciok")
    engine.send("position startpos moves C6-B5")
    before = engine.ask("getposition", "position")
    lines = engine.between(line)
    assert len(lines) == 1 and lines[0].startswith(ERROR) and message in lines[0], lines
    assert engine.ask("getposition", "position") == before


def test_bad_go_parts_are_reported_but_the_go_still_answers(engine):
    lines = engine.between("go depth x nodes -3 bluetime 5 frob movetime 200 searchmoves Z9 "
                           "C6-B5")
    lines += [] if any(x.startswith("bestmove") for x in lines) else engine.until("bestmove")
    errors = [x for x in lines if x.startswith(ERROR)]
    assert len(errors) == 5, errors  # depth x, nodes -3, bluetime 5, frob, Z9
    # the one valid searchmove, searched (a move to analyse), so with a ponder move
    assert lines[-1].split()[:2] == ["bestmove", "C6-B5"], lines[-1]


def test_tri_camelot_refuses_camelot_clock_keywords_by_name(engine):
    engine.send("setoption name UCI_Variant value tri-camelot")
    lines = engine.between("go wtime 100 bluetime 1000 redtime 1000 greentime 1000")
    lines += [] if any(x.startswith("bestmove") for x in lines) else engine.until("bestmove")
    assert [x for x in lines if x.startswith(ERROR)] == [
        ERROR + "go: 'wtime' is a Camelot clock keyword; in tri-camelot use bluetime blueinc, "
        "redtime redinc, greentime greeninc"]


def test_line_ends_whitespace_and_blank_lines(engine):
    engine.send_bytes(b"\n\r\n   \t \r\n")  # blank lines: no answer at all
    engine.send_bytes(b"isready\r\n")
    assert engine.read() == "readyok"
    engine.send_bytes(b"isready\r")  # a lone CR is a line end, answered at once
    assert engine.read(timeout=2) == "readyok"
    engine.send_bytes(b"\t position \t startpos   moves\tc6-b5  H11-F9 \r\n")
    engine.send_bytes(b"GetPosition\n")
    expected = Position.start("camelot")
    for text in ("C6-B5", "H11-F9"):
        expected.push(parse_move(expected, text))
    assert engine.read() == "position " + expected.to_string()
    assert engine.between(b"setoption  name   move\toverhead  value 0\n") == []


def test_stdout_carries_nothing_but_protocol_lines():
    proc = subprocess.run(
        ENGINE_CMD, input=b"uci\nd\nperft 1\neval\nbench 1\nfoo\ngo depth 1\nquit\n",
        capture_output=True, timeout=60,
    )
    assert proc.returncode == 0
    for line in proc.stdout.decode().split("\n")[:-1]:
        assert OUTPUT_GRAMMAR.match(line), line
    assert b"\r" not in proc.stdout


# ---- whole games ---------------------------------------------------------------------------------
def play_game(variant_name: str, seed: int, engine_seats: set[int], max_plies: int = 3000):
    """The engine plays `engine_seats` with `go` and clocks; a seeded random player plays
    the others; every move goes through `position startpos moves ...`. Each step checks the
    engine's `legal` against the rules library; the end checks the result."""
    rng = random.Random(seed)
    variant = get_variant(variant_name)
    pos = Position.start(variant)
    moves: list[str] = []
    e = Engine()
    try:
        e.send(f"setoption name UCI_Variant value {variant_name}")
        e.send("ucinewgame")
        # depth 1 keeps the game quick; the clocks are there to be parsed, not used up.
        clocks = "depth 1 " + " ".join(f"{s.name}time 60000 {s.name}inc 100"
                                        for s in variant.seats)
        while len(moves) < max_plies:
            e.send("position startpos moves " + " ".join(moves))
            legal = sorted(format_move(variant, m) for m in pos.legal_moves()) \
                if pos.outcome() is None else []
            if len(moves) % 10 == 0 or not legal:
                assert e.ask("legal", "legal").split()[1:] == legal
            if pos.turn in engine_seats or not legal:
                lines = e.ask("go " + clocks, "bestmove")
                answer = lines.split()[1]
                if answer == "(none)":
                    break
                move = parse_move(pos, answer)  # raises if illegal
                assert format_move(variant, move) == answer  # canonical spelling
            else:
                move = rng.choice(pos.legal_moves())
                answer = format_move(variant, move)
            pos.push(move)
            moves.append(answer)
        outcome = pos.outcome()
        assert outcome is not None, "the game did not end"
        assert e.seen[-2] == f"info string result {outcome.text()}"
        assert e.ask("result", "result") == f"result {outcome.text()}"
    finally:
        assert e.close() == 0
    return moves, outcome


def test_a_whole_camelot_game_through_the_protocol():
    moves, outcome = play_game("camelot", seed=4, engine_seats={0})
    assert len(moves) > 10


def test_a_whole_tri_camelot_game_through_the_protocol():
    try:
        get_variant("tri-camelot")
    except KeyError:
        pytest.skip("tri-camelot is not available in the rules library yet")
    moves, outcome = play_game("tri-camelot", seed=8, engine_seats={0, 2})
    assert len(moves) > 10


def test_engine_against_itself_in_two_processes():
    """Two engine processes, as an arbiter runs a match (short clocks, fixed depth)."""
    variant = get_variant("camelot")
    players = [Engine(), Engine()]
    pos = Position.start(variant)
    moves: list[str] = []
    try:
        while len(moves) < 300:
            e = players[pos.turn]
            e.send("position startpos moves " + " ".join(moves))
            answer = e.ask("go depth 1 wtime 10000 btime 10000", "bestmove").split()[1]
            if answer == "(none)":
                break
            pos.push(parse_move(pos, answer))
            moves.append(answer)
        assert len(moves) == 300 or pos.outcome() is not None
    finally:
        for e in players:
            assert e.close() == 0


@pytest.mark.slow
def test_many_random_games_soak():
    for seed in range(50):
        play_game("camelot" if seed % 2 else "tri-camelot", seed, {0})
