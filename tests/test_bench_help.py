"""Every script under bench/ described by its docstring answers `--help` with the docstring's
whole first paragraph (not its first line, cut mid-sentence), and exits 0."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
SCRIPTS = sorted(p for p in BENCH.glob("*.py") if "description=__doc__" in p.read_text())


def _squeezed(text: str) -> str:
    # The help formatter wraps lines, and may break a word after a hyphen.
    return "".join(text.split())


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_help_gives_the_scripts_whole_first_paragraph(script: Path) -> None:
    doc = ast.get_docstring(ast.parse(script.read_text()), clean=False)
    assert doc, f"{script.name} has no docstring to describe it"
    first = doc.split("\n\n")[0]
    run = subprocess.run([sys.executable, str(script), "--help"], capture_output=True,
                         text=True, timeout=60, cwd=BENCH.parent)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("usage:")
    assert _squeezed(first) in _squeezed(run.stdout)


def test_the_scripts_are_found() -> None:
    assert len(SCRIPTS) >= 20
