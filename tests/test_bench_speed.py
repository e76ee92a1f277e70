"""bench/search_speed.py: the same searches timed in two builds, in turn.

The base build is stood in for by a folder whose `venv/bin/python` runs this interpreter
in this checkout (so both sides run this tree's search: equal nodes), or by a Python
that fails."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import frozen  # noqa: E402
import search_speed  # noqa: E402


def _fake_build(tmp_path: Path, python: str) -> frozen.Build:
    bindir = tmp_path / "venv" / "bin"
    bindir.mkdir(parents=True)
    os.symlink(python, bindir / "python")
    return frozen.Build(sha="ab" * 20, rev="fake", directory=tmp_path)


def _this_tree(tmp_path: Path) -> str:
    """A stand-in build's Python that runs this checkout's package whatever is installed:
    it drops the isolation flag the base's probe gets and runs in the checkout."""
    script = tmp_path / "this-tree.sh"
    script.write_text(f'#!/bin/sh\n[ "$1" = "-I" ] && shift\ncd "{ROOT}" && '
                      f'exec "{sys.executable}" "$@"\n')
    script.chmod(0o755)
    return str(script)


def test_equal_searches_report_equal_nodes_and_each_round(tmp_path, monkeypatch, capsys):
    build = _fake_build(tmp_path / "b", _this_tree(tmp_path))
    monkeypatch.setattr(search_speed, "freeze", lambda rev: build)
    assert search_speed.main(["--base", "x", "--depth", "2", "--rounds", "2"]) == 0
    out = capsys.readouterr().out
    rounds = [line for line in out.splitlines() if line.startswith("round ")]
    assert len(rounds) == 4 and rounds[0].split()[2] == "base-abababa"
    counts = {line.split()[4] for line in rounds}
    assert len(counts) == 1 and int(counts.pop().replace(",", "")) > 0
    assert "same nodes" in out and "least cpu: base-abababa" in out
    assert "median cpu: base-abababa" in out


def test_a_base_that_imports_the_working_tree_is_called_out(monkeypatch, capsys):
    """`python -c` from a checkout imports the checkout's package: the base must not."""
    build = frozen.Build(sha="cd" * 20, rev="fake", directory=Path("/nowhere"))
    monkeypatch.setattr(search_speed, "freeze", lambda rev: build)
    calls = []

    def measure(python, cwd, variant, depth):
        calls.append((python, cwd))
        return {"nodes": 10, "cpu": 1.0, "package": "/same/canter"}

    monkeypatch.setattr(search_speed, "measure", measure)
    assert search_speed.main(["--base", "x", "--depth", "1", "--rounds", "1"]) == 0
    assert calls[0] == ("/nowhere/venv/bin/python", None)  # the base: no folder, isolated
    out = capsys.readouterr().out
    assert "warning: both runs imported the package in /same/canter" in out


def test_the_base_probe_runs_isolated_from_the_callers_folder(tmp_path, monkeypatch):
    """A `canter` package in the caller's folder is not what the base's probe imports (a
    probe run in that folder, not isolated, does import it)."""
    (tmp_path / "canter").mkdir()
    (tmp_path / "canter" / "__init__.py").write_text("raise ImportError('the wrong one')\n")
    monkeypatch.chdir(tmp_path)
    got = search_speed.measure(sys.executable, None, "camelot", 1)
    assert got["nodes"] > 0 and not got["package"].startswith(str(tmp_path))
    with pytest.raises(RuntimeError, match="the wrong one"):
        search_speed.measure(sys.executable, str(tmp_path), "camelot", 1)


def test_a_base_that_cannot_search_is_a_one_line_error(tmp_path, monkeypatch, capsys):
    broken = tmp_path / "broken.sh"
    broken.write_text("#!/bin/sh\necho 'ModuleNotFoundError: no canter here' >&2\nexit 1\n")
    broken.chmod(0o755)
    build = _fake_build(tmp_path / "b", str(broken))
    monkeypatch.setattr(search_speed, "freeze", lambda rev: build)
    assert search_speed.main(["--base", "x", "--depth", "1", "--rounds", "1"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"Error: {build.directory}/venv/bin/python failed: "
                   "ModuleNotFoundError: no canter here"]


@pytest.mark.parametrize("args, message", [
    (["--base", "x", "--depth", "0"], "--depth must be at least 1, not 0"),
    (["--base", "x", "--rounds", "0"], "--rounds must be at least 1, not 0"),
])
def test_bad_counts_are_usage_errors(args, message, capsys):
    with pytest.raises(SystemExit) as stop:
        search_speed.main(args)
    assert stop.value.code == 2
    assert capsys.readouterr().err.strip().endswith(f"Error: {message}")
