"""The opening example of docs/client.md, run for real against canter: it must work as
written and print a legal move, a legal expected reply and a principal variation."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from canter.engine import Position, get_variant, parse_move

ROOT = Path(__file__).resolve().parent.parent


def _first_example() -> str:
    text = (ROOT / "docs" / "client.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", text, re.S)
    assert block is not None
    # the same command, run with this interpreter (canter may not be on PATH)
    code = block.group(1).replace('Engine.start(["canter"])',
                                  f'Engine.start([{sys.executable!r}, "-m", "canter"])')
    assert code != block.group(1), "the example no longer starts ['canter']"
    return code


def test_the_opening_example_runs_and_prints_legal_moves() -> None:
    proc = subprocess.run([sys.executable, "-c", _first_example()], capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 4, proc.stdout
    assert lines[0].startswith("canter ") and "'uci_variant'" in lines[0]
    move, ponder = lines[1].split()
    pos = Position.start(get_variant("camelot"))
    for m in ("D6-F8", "H11-F9", move):
        pos.push(parse_move(pos, m))
    if ponder != "None":
        parse_move(pos, ponder)  # raises if the expected reply is illegal
    score, depth, _nodes, pv = lines[2].split(" ", 3)
    assert depth == "3" and re.fullmatch(r"[+-]\d+\.\d\d|#-?\d+", score), lines[2]
    assert pv.startswith(f"['{move}'"), lines[2]
    assert re.fullmatch(r"\d+\.\d{3} s", lines[3]), lines[3]
