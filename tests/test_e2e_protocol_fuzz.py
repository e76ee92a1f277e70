"""Protocol fuzz: thousands of random and mutated lines through a real pipe, both dialects.

UCI-style: after every burst the engine must still answer `isready`, every `go` it saw must
have had exactly one `bestmove`, every output line must be a protocol line in printable
ASCII with no internal error, and every `bestmove` must be a legal move (checked with the
rules library) of a position the engine reported. CECP-style: after every burst the engine
answers `ping`, every line is a protocol line in printable ASCII with no internal error, and
a known position gets the one right move and result claim.

Seeded: the seed is printed (and named in the failure) so that a failure can be rerun with
CANTER_FUZZ_SEED=<seed>. 5,000 lines per dialect always run; 100,000 per dialect are `slow`.
"""

from __future__ import annotations

import os
import random
import re
from contextlib import contextmanager

import pytest
from pipe_engine import PipeEngine
from test_e2e_protocol import AMBIGUOUS, CAPTURE_DUTY, Engine

from canter.engine import Position, format_move, parse_move

SEED = int(os.environ.get("CANTER_FUZZ_SEED", "20240604"))
LINES_PER_BURST = 60
GAME_POOL = 120  # random games per run, drawn on again and again
# A search running in the engine makes each command wait for the interpreter lock, so most
# searches are stopped by the next line (as a GUI's `stop`); the rest run on among the fuzz.
STOP_SOON = 0.7
SHORT, LONG = 5_000, 100_000  # lines per dialect: always, and in the slow run

TRI_START = Position.start("tri-camelot").to_string()

VALID = [
    "uci", "isready", "ucinewgame", "position startpos", "position startpos moves C6-B5 H11-F9",
    "position startpos moves D6-F8 H11-F9 C6-E8-G8 J11-H11 H6-H8",
    f"position {CAPTURE_DUTY}", f"position {CAPTURE_DUTY} moves F8xF10",
    f"position {AMBIGUOUS}", f"position fen {TRI_START} moves E4-E8", f"position {TRI_START}",
    "go depth 1", "go depth 2", "go nodes 100", "go movetime 20",
    "go wtime 300 btime 300 winc 10 binc 10", "go bluetime 300 redtime 300 greentime 300",
    "go infinite", "go ponder wtime 1000 btime 1000", "go searchmoves C6-B5 I6-K6 depth 1",
    "go mate 1", "go", "go depth 1 searchmoves", "stop", "stop", "ponderhit", "legal",
    "legal F6", "legal E4", "result", "getposition", "d", "perft 1", "perft 2", "eval", "help",
    "go movetime 5", "go depth 1", "go perft 1", "position startpos moves d6f8 h11f9",
    "go searchmoves d6f8 c6b5 depth 1",
    "setoption name UCI_Variant value tri-camelot", "setoption name UCI_Variant value camelot",
    "setoption name MultiPV value 2", "setoption name Skill Level value 5",
    "setoption name Move Overhead value 0", "setoption name Clear Hash", "debug on",
    "register later",
]
WORDS = ["go", "position", "startpos", "moves", "fen", "depth", "nodes", "movetime",
         "infinite", "ponder", "searchmoves", "wtime", "btime", "bluetime", "setoption", "name",
         "value", "legal", "perft", "stop", "isready", "d", "eval", "mate", "movestogo"]
NUMBERS = ["0", "1", "-1", "2", "007", "99999999999999999999", "1e3", "0x10", "-0", "", "3.5"]
CELLS = [f"{f}{r}" for f in "ABCDEFGHIJKLZ" for r in (1, 2, 5, 6, 8, 9, 10, 16, 17, 99)]
BYTES = [b"\x00", b"\xff", b"\x1b", b"\t", b"\x0b", b"\x0c", b"\xc2\x85", b"\xe2\x80\xa8",
         b" ", b"  ", b"\r", b"\x7f", b"\xfe\xfe"]


def random_game_line(rng: random.Random) -> str:
    variant = rng.choice(["camelot", "tri-camelot"])
    pos = Position.start(variant)
    texts = []
    for _ in range(rng.randrange(0, 30)):
        moves = pos.legal_moves()
        if not moves or pos.outcome() is not None:
            break
        move = rng.choice(moves)
        texts.append(format_move(pos.variant, move))
        pos.push(move)
    head = "position startpos" if variant == "camelot" else f"position {TRI_START}"
    return head + (" moves " + " ".join(texts) if texts else "")


def random_move(rng: random.Random) -> str:
    cells = [rng.choice(CELLS) for _ in range(rng.randrange(1, 5))]
    return "".join(c + rng.choice(["-", "x", "X", "", "--"]) for c in cells[:-1]) + cells[-1]


def mutate(rng: random.Random, line: str) -> bytes:
    tokens = line.split()
    for _ in range(rng.randrange(0, 4)):
        op = rng.randrange(7)
        i = rng.randrange(len(tokens)) if tokens else 0
        if op == 0 and tokens:
            del tokens[i]
        elif op == 1 and tokens:
            tokens.insert(i, tokens[i])
        elif op == 2 and len(tokens) > 1:
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif op == 3:
            tokens.insert(i, rng.choice(WORDS + NUMBERS))
        elif op == 4:
            tokens.insert(i, random_move(rng))
        elif op == 5 and tokens:
            tokens[i] = tokens[i].upper() if rng.random() < 0.5 else tokens[i].swapcase()
        elif op == 6 and tokens:
            tokens[i] = tokens[i][: rng.randrange(len(tokens[i]) + 1)]
    data = rng.choice([" ", "\t", "  ", " \t "]).join(tokens).encode()
    if rng.random() < 0.3:
        for _ in range(rng.randrange(1, 4)):
            k = rng.randrange(len(data) + 1)
            data = data[:k] + rng.choice(BYTES) + data[k:]
    if rng.random() < 0.05:
        data = data * rng.randrange(2, 40)
    return data


def engine_view(data: bytes) -> list[list[str]]:
    """The commands the engine will see in `data` (its line and token rules)."""
    return [part.decode("utf-8", "replace").split() for part in re.split(rb"\r\n|\r|\n", data)]


def searches(tokens: list[str]) -> bool:
    """A UCI `go` that searches (and so answers bestmove); `go perft N` does not."""
    return bool(tokens) and tokens[0].lower() == "go" and not (
        len(tokens) > 1 and tokens[1].lower() == "perft")


def clean(line: str) -> None:
    """What no output line may ever be: non-ASCII, unprintable, or an internal error."""
    assert line.isascii() and line.isprintable(), f"not printable ASCII: {line!r}"
    assert "internal error" not in line and "Traceback" not in line, line


@contextmanager
def reported(seed: int, dialect: str, lines: int):
    """Name the seed on failure, so the run can be repeated."""
    print(f"protocol fuzz: {dialect}, {lines} lines, seed {seed} (CANTER_FUZZ_SEED={seed})")
    try:
        yield
    except AssertionError as exc:
        raise AssertionError(f"[{dialect} fuzz, seed {seed}, rerun with CANTER_FUZZ_SEED="
                             f"{seed}] {exc}") from exc


def acceptable(commands: list[list[str]]) -> bool:
    """Leave out what would end the session or take long by design (covered elsewhere):
    quit, bench, deep perft, huge hash tables, rules changes (the legality check below uses
    the default rules)."""
    for tokens in commands:
        if not tokens:
            continue
        head = tokens[0].lower()
        text = " ".join(tokens).lower()
        if head in ("quit", "bench"):
            return False
        if head in ("perft", "go") and "perft" in text and any(
                t.lstrip("-").isdigit() and int(t) > 2 for t in tokens[1:]):
            return False
        if head == "setoption" and ("hash" in text or "rule" in text):
            return False
    return True


def legal_somewhere(move_text: str, positions: list[str]) -> bool:
    for text in reversed(positions):  # the latest is the likeliest
        pos = Position.from_string(text)
        if pos.outcome() is not None:
            continue
        try:
            move = parse_move(pos, move_text)
        except ValueError:
            continue
        if format_move(pos.variant, move) == move_text:
            return True
    return False


def run_uci_fuzz(total: int, seed: int) -> None:
    rng = random.Random(seed)
    # Random games are made once (making one costs the rules library some milliseconds).
    games = [random_game_line(rng) for _ in range(GAME_POOL)]
    engine = Engine()
    engine.send("uci")
    engine.until("uciok")
    bestmoves_expected = 0
    bestmoves_seen = 0
    sent = 0
    bursts = total // LINES_PER_BURST
    try:
        for burst in range(bursts):
            positions = []
            engine.send("getposition")
            for _ in range(LINES_PER_BURST):
                r = rng.random()
                if r < 0.15:
                    data = rng.choice(games).encode()
                elif r < 0.3:
                    data = rng.choice(VALID).encode()
                else:
                    data = mutate(rng, rng.choice(VALID + [rng.choice(games)]))
                commands = engine_view(data)
                if not acceptable(commands):
                    continue
                gos = sum(1 for t in commands if searches(t))
                if gos:
                    engine.send("getposition")  # the position this go will search
                bestmoves_expected += gos
                engine.send_bytes(data + rng.choice([b"\n", b"\r\n", b"\r"]))
                sent += 1
                if gos and rng.random() < STOP_SOON:
                    engine.send("stop")
            # Fuzzed lines may hold their own isready: a marker no fuzz line can contain
            # (an unknown command, so answered by an error line naming it) ends the burst.
            marker = f"endofburst{burst}n{rng.randrange(10**9)}"
            engine.send("stop")
            engine.send(marker)
            engine.send("isready")
            lines_out: list[str] = []
            while not lines_out or marker not in lines_out[-1]:
                lines_out.append(engine.read(timeout=30))
            assert engine.read(timeout=10) == "readyok"
            for line in lines_out:
                clean(line)
                if line.startswith("position "):
                    positions.append(line[len("position "):])
                elif line.startswith("bestmove"):
                    bestmoves_seen += 1
                    move = line.split()[1]
                    if move != "(none)":
                        assert legal_somewhere(move, positions), (burst, line, positions[-3:])
            assert engine.proc.poll() is None, "the engine died"
            assert bestmoves_seen == bestmoves_expected, (burst, bestmoves_seen,
                                                          bestmoves_expected)
            # An exact check after each burst: a known position, a fresh answer.
            engine.send("setoption name UCI_Variant value camelot")
            engine.send("position startpos moves C6-B5")
            engine.send("go depth 1")
            best = engine.until("bestmove")[-1].split()[1]
            pos = Position.start("camelot")
            pos.push(parse_move(pos, "C6-B5"))
            assert best in {format_move(pos.variant, m) for m in pos.legal_moves()}
        assert sent > bursts * LINES_PER_BURST * 0.8
    finally:
        code = engine.close()
    assert code == 0
    stderr = b"".join(engine.stderr).decode("utf-8", "replace")
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr


# ---- CECP-style ------------------------------------------------------------------------------
MOVE = r"[A-L]\d{1,2}(?:[-x][A-L]\d{1,2})+"
POINTS = r"(?:1|0|1/2|1/3)"
CECP_GRAMMAR = re.compile(
    rf"^(feature .+|pong( .*)?|move {MOVE}|resign|offer draw|Hint: {MOVE}"
    rf"|{POINTS}(?:-{POINTS}){{1,2}} \{{.+\}}"
    rf"|-?\d+ -?\d+ \d+ \d+ {MOVE}(?: {MOVE})*|stat01: \d+ \d+ \d+ \d+ \d+"
    r"|Illegal move \(.+\): .*|Error \(.+\): .+|# .*)$"
)
CECP_VALID = [
    "new", "force", "variant camelot", "variant tri-camelot", "go", "playother", "undo",
    "remove", "sd 1", "sd 2", "st 0.02", "time 500", "otim 500", "seattime red 300",
    "seattime white 300", "?", "ping 5", "draw", "hard", "easy", "post", "nopost", "analyze",
    "exit", ".", "hint", "option MultiPV=2", "option Skill Level=5", "option Clear Hash",
    "option Resign Threshold=300", "option Three Seat Search=brs", "legal", "legal F6",
    "getposition", "d", "help", "result 1-0 {White mates}", "usermove C6-B5", "C6-B5",
    "usermove d6f8", "d6f8", "h11f9", f"setboard {CAPTURE_DUTY}", f"setboard {AMBIGUOUS}",
    f"setboard {TRI_START}", "protover 2", "accepted usermove", "random", "computer",
]
CECP_WORDS = ["usermove", "setboard", "variant", "option", "sd", "st", "time", "otim",
              "seattime", "legal", "ping", "result", "go", "new", "force", "analyze"]


def random_setboard(rng: random.Random) -> bytes:
    """A real position of a random game and a legal move in it: real commands that land."""
    variant = rng.choice(["camelot", "tri-camelot"])
    pos = Position.start(variant)
    for _ in range(rng.randrange(0, 30)):
        moves = pos.legal_moves()
        if not moves or pos.outcome() is not None:
            break
        pos.push(rng.choice(moves))
    lines = [f"setboard {pos.to_string()}"]
    if pos.outcome() is None and pos.legal_moves():
        move = format_move(pos.variant, rng.choice(pos.legal_moves()))
        if rng.random() < 0.5:
            move = move.lower()
        lines.append(f"usermove {move}")
    return "\n".join(lines).encode()


def cecp_mutate(rng: random.Random, line: str) -> bytes:
    tokens = line.split()
    for _ in range(rng.randrange(0, 4)):
        op = rng.randrange(5)
        i = rng.randrange(len(tokens)) if tokens else 0
        if op == 0 and tokens:
            del tokens[i]
        elif op == 1:
            tokens.insert(i, rng.choice(CECP_WORDS + NUMBERS + ["inf", "nan", "1e400"]))
        elif op == 2:
            tokens.insert(i, random_move(rng))
        elif op == 3 and tokens:
            tokens[i] = tokens[i][: rng.randrange(len(tokens[i]) + 1)]
        elif op == 4 and tokens:
            tokens[i] = tokens[i].swapcase()
    data = rng.choice([" ", "\t", "  "]).join(tokens).encode()
    if rng.random() < 0.3:
        for _ in range(rng.randrange(1, 4)):
            k = rng.randrange(len(data) + 1)
            data = data[:k] + rng.choice(BYTES) + data[k:]
    if rng.random() < 0.03:
        data = data * rng.randrange(2, 40)
    return data


def cecp_acceptable(rng: random.Random, commands: list[list[str]]) -> bool:
    """Leave out what would end the session (quit) or make the run slow by design: clocks
    that let the engine think for seconds (`level`, long `st`), huge hash tables, and most
    hints (each is a search of up to half a second)."""
    for tokens in commands:
        if not tokens:
            continue
        head = tokens[0].lower()
        text = " ".join(tokens).lower()
        if head in ("quit", "level") or "hash=" in text.replace(" ", ""):
            return False
        if head == "st" and not (len(tokens) == 2 and tokens[1] in ("0.02", "0.01")):
            return False
        if head == "hint" and rng.random() < 0.9:
            return False
    return True


class CecpEngine(PipeEngine):
    def __init__(self) -> None:
        super().__init__(CECP_GRAMMAR)

    def send(self, *texts: str) -> None:
        self.send_bytes("".join(t + "\n" for t in texts).encode())

    def until(self, pattern: str, timeout: float = 30.0) -> list[str]:
        out = []
        while True:
            line = self.read(timeout)
            clean(line)
            out.append(line)
            if re.fullmatch(pattern, line):
                return out


def run_cecp_fuzz(total: int, seed: int) -> None:
    rng = random.Random(seed)
    boards = [random_setboard(rng) for _ in range(GAME_POOL)]
    engine = CecpEngine()
    engine.send("xboard", "protover 2")
    engine.until("feature done=1")
    sent = 0
    bursts = total // LINES_PER_BURST
    claim = "1-0 {White wins: black has no pieces left}"
    try:
        for burst in range(bursts):
            # Short thinking for whatever the burst makes the engine do (`new` keeps st).
            engine.send("st 0.02", "sd 3")
            for _ in range(LINES_PER_BURST):
                r = rng.random()
                if r < 0.1:
                    data = rng.choice(boards)
                elif r < 0.3:
                    data = rng.choice(CECP_VALID).encode()
                else:
                    data = cecp_mutate(rng, rng.choice(CECP_VALID))
                if not cecp_acceptable(rng, engine_view(data)):
                    continue
                engine.send_bytes(data + rng.choice([b"\n", b"\r\n", b"\r"]))
                sent += 1
            marker = f"endofburst{burst}n{rng.randrange(10**9)}"
            engine.send(marker, f"ping {burst}")
            engine.until(rf"Error \(unknown command\): {marker}")
            engine.until(rf"pong {burst}")
            assert engine.proc.poll() is None, "the engine died"
            # An exact check after each burst: the one move of a known position, and the
            # result claim it earns (the halt in `new` cancels whatever the burst started).
            engine.send("new", "force", "exit", "easy", f"setboard {CAPTURE_DUTY}", "sd 1",
                        "go")
            engine.until(r"move F8xF10")
            engine.until(re.escape(claim))
        assert sent > bursts * LINES_PER_BURST * 0.7
    finally:
        code = engine.close()
    assert code == 0
    stderr = b"".join(engine.stderr).decode("utf-8", "replace")
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr


# ---- the tests -------------------------------------------------------------------------------
RUNS = {"uci": run_uci_fuzz, "xboard": run_cecp_fuzz}


@pytest.mark.parametrize("dialect", RUNS)
def test_fuzzed_lines_never_break_the_engine(dialect):
    with reported(SEED, dialect, SHORT):
        RUNS[dialect](SHORT, SEED)


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("dialect", RUNS)
def test_a_hundred_thousand_fuzzed_lines_never_break_the_engine(dialect):
    seed = SEED + 1  # other lines than the short run's
    with reported(seed, dialect, LONG):
        RUNS[dialect](LONG, seed)
