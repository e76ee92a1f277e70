"""Shared by the bad-input sweep (tests/test_badinput_*.py): run a canter command as a user
would and check that it failed the way users are promised (docs: CONTRIBUTING.md,
"Standards"): one clear line naming the problem, exit status 2 for a usage error or 1 for a
failure, and never a Python traceback on either stream."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
USAGE, FAILURE = 2, 1


def canter(*args: str, stdin: str | bytes | None = None, cwd: Path | str | None = None,
           timeout: float = 60) -> subprocess.CompletedProcess:
    """`python -m canter ARGS...` with text output (undecodable bytes replaced)."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    proc = subprocess.run([sys.executable, "-m", "canter", *args], input=data,
                          capture_output=True, timeout=timeout, cwd=cwd or ROOT)
    return subprocess.CompletedProcess(
        proc.args, proc.returncode, proc.stdout.decode("utf-8", "replace"),
        proc.stderr.decode("utf-8", "replace"))


def no_traceback(proc: subprocess.CompletedProcess) -> None:
    for stream in (proc.stdout, proc.stderr):
        assert "Traceback (most recent call last)" not in stream, stream
        assert "Exception ignored" not in stream, stream


def assert_error(proc: subprocess.CompletedProcess, status: int, *needles: str) -> str:
    """The command failed with `status`, said so in one error line that contains every
    needle (case-insensitive), and printed no traceback. Returns that line."""
    no_traceback(proc)
    assert proc.returncode == status, (
        f"exit {proc.returncode}, wanted {status}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith(("Error:", "error:"))]
    assert len(errors) == 1, f"wanted one error line on stderr, got:\n{proc.stderr}"
    line = errors[0]
    for needle in needles:
        assert needle.lower() in line.lower(), f"{needle!r} not in {line!r}"
    return line
