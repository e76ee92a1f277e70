"""bench/ordering_nodes.py: nodes to a fixed depth under sets of search switches."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bench" / "ordering_nodes.py"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)


def rows(out: str) -> dict[str, dict[str, int]]:
    """'name camelot N (+x %) tri-camelot N (+y %)' -> name -> variant -> nodes."""
    table = {}
    for line in out.splitlines():
        name, *rest = line.split()
        table[name] = {rest[i]: int(rest[i + 1]) for i in range(0, len(rest), 4)}
    return table


def test_rows_against_the_defaults_over_the_bench_positions_of_every_game():
    # (the bench positions include four-seat Grand Cam, which the script once tripped on)
    done = run("2", "--switch", "capext_max=1", "--switch", "capext=0,killers=0")
    assert done.returncode == 0, done.stderr
    table = rows(done.stdout)
    assert list(table) == ["defaults", "capext_max=1", "capext=0,killers=0"]
    assert set(table["defaults"]) == {"camelot", "tri-camelot"}
    assert "(+0.0 %)" in done.stdout.splitlines()[0]
    # exchanges chain the extension at depth 2: the cap cuts Camelot's tree, and leaves
    # Tri-Camelot's (no capture extension in three seats) as it is
    assert table["capext_max=1"]["camelot"] < table["defaults"]["camelot"]
    assert table["capext_max=1"]["tri-camelot"] == table["defaults"]["tri-camelot"]


def test_an_unknown_switch_is_refused_before_any_search():
    done = run("2", "--switch", "queen=1")
    assert done.returncode == 2
    assert "unknown switch 'queen'" in done.stderr
    assert done.stdout == ""
