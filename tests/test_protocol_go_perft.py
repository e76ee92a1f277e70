"""`go perft N`, Stockfish's spelling, answers exactly as `perft N` and starts no search."""

from __future__ import annotations

import re
import subprocess
import sys

from canter.engine import Position, parse_move
from canter.engine.rules.perft import perft


def answers(*commands: str) -> list[str]:
    data = "".join(c + "\n" for c in ("uci", *commands, "isready")).encode()
    proc = subprocess.run([sys.executable, "-m", "canter"], input=data, capture_output=True,
                          timeout=60)
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr
    lines = proc.stdout.decode("ascii").splitlines()
    return lines[lines.index("uciok") + 1:]


def without_times(lines: list[str]) -> list[str]:
    return [re.sub(r" time \d+ nps \d+$", "", line) for line in lines]


def test_go_perft_is_perft():
    spelled_go = answers("position startpos moves d6f8", "go perft 2")
    spelled_plain = answers("position startpos moves d6f8", "perft 2")
    assert without_times(spelled_go) == without_times(spelled_plain)
    pos = Position.start("camelot")
    pos.push(parse_move(pos, "D6-F8"))
    total = perft(pos, 2)
    assert spelled_go[-2].startswith(f"perft 2 nodes {total} ")
    assert spelled_go[-1] == "readyok"
    assert not [line for line in spelled_go if line.startswith(("bestmove", "info"))]


def test_go_perft_case_and_zero():
    assert without_times(answers("GO PERFT 0")) == ["perft 0 nodes 1", "readyok"]
