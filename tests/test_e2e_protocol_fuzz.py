"""Protocol fuzz: thousands of random and mutated lines through a real pipe.

After every burst the engine must still answer `isready`, every `go` it saw must have had
exactly one `bestmove`, every output line must be a protocol line, and every `bestmove` must
be a legal move (checked with the rules library) of a position the engine reported.
"""

from __future__ import annotations

import random
import re

from test_e2e_protocol import AMBIGUOUS, CAPTURE_DUTY, Engine

from canter.engine import Position, format_move, parse_move

SEED = 20240604
BURSTS = 40
LINES_PER_BURST = 60

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
        if head == "perft" and any(t.lstrip("-").isdigit() and int(t) > 2 for t in tokens[1:]):
            return False
        if head == "setoption" and ("hash" in text or "rule" in text):
            return False
    return True


def legal_somewhere(move_text: str, positions: list[str]) -> bool:
    for text in positions:
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


def test_fuzzed_lines_never_break_the_engine():
    rng = random.Random(SEED)
    engine = Engine()
    engine.send("uci")
    engine.until("uciok")
    bestmoves_expected = 0
    bestmoves_seen = 0
    sent = 0
    try:
        for burst in range(BURSTS):
            positions = []
            engine.send("getposition")
            lines_out: list[str] = []
            for _ in range(LINES_PER_BURST):
                r = rng.random()
                if r < 0.15:
                    data = random_game_line(rng).encode()
                elif r < 0.3:
                    data = rng.choice(VALID).encode()
                else:
                    data = mutate(rng, rng.choice(VALID + [random_game_line(rng)]))
                commands = engine_view(data)
                if not acceptable(commands):
                    continue
                gos = sum(1 for t in commands if t and t[0].lower() == "go")
                if gos:
                    engine.send("getposition")  # the position this go will search
                bestmoves_expected += gos
                engine.send_bytes(data + rng.choice([b"\n", b"\r\n", b"\r"]))
                sent += 1
            # Fuzzed lines may hold their own isready: a marker no fuzz line can contain
            # (an unknown command, so answered by an error line naming it) ends the burst.
            marker = f"endofburst{burst}n{rng.randrange(10**9)}"
            engine.send("stop")
            engine.send(marker)
            engine.send("isready")
            lines_out = []
            while not lines_out or marker not in lines_out[-1]:
                lines_out.append(engine.read(timeout=30))
            assert engine.read(timeout=10) == "readyok"
            for line in lines_out:
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
        assert sent > BURSTS * LINES_PER_BURST * 0.8
    finally:
        code = engine.close()
    assert code == 0
    assert not any(b"Traceback" in line for line in engine.stderr), \
        b"".join(engine.stderr).decode()
