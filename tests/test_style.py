"""The tree is `ruff check` clean (the project's style gate runs with the tests)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_reports_nothing():
    ruff = shutil.which("ruff")
    command = [ruff] if ruff else [sys.executable, "-m", "ruff"]
    try:
        done = subprocess.run([*command, "check", "."], cwd=ROOT, capture_output=True,
                              text=True, timeout=120)
    except FileNotFoundError:
        pytest.fail("ruff is not installed: install the test extra, pip install -e '.[test]'")
    assert done.returncode == 0, done.stdout + done.stderr
