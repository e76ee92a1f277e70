"""An engine process on the far side of pipes, read line by line with deadlines.

Plain pipes (no pty), as an arbiter or GUI talks to an engine: a thread drains stdout into
a queue so that a reader can wait with a timeout, and another keeps the tail of stderr for
failure reports. Shared by the transcript runner and recorder.
"""

from __future__ import annotations

import os
import queue
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Sequence

EOF = None  # what read_line returns once stdout is closed


class EngineGone(RuntimeError):
    """Writing to the engine failed because it closed its input or exited."""


def default_engine() -> list[str]:
    """The canter engine itself, run by the same interpreter as this program."""
    return [sys.executable, "-m", "canter"]


def split_command(command: str | None) -> list[str]:
    """A shell-style command line as argv (no shell is involved: no pipes, no globbing)."""
    if command is None:
        return default_engine()
    argv = shlex.split(command)
    if not argv:
        raise ValueError("the engine command is empty")
    return argv


class EngineProcess:
    """One engine process. Not thread-safe for callers: one reader, one writer."""

    def __init__(self, argv: Sequence[str], stderr_keep: int = 40) -> None:
        self.argv = list(argv)
        # A session of its own so that stop() also reaches any children the engine forked.
        self._proc = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            start_new_session=True,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stdout_done = False
        self.stderr_tail: deque[str] = deque(maxlen=stderr_keep)
        self._threads = [
            threading.Thread(target=self._drain_stdout, daemon=True),
            threading.Thread(target=self._drain_stderr, daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    # -- reading -----------------------------------------------------------------------

    def _drain_stdout(self) -> None:
        assert self._proc.stdout is not None
        for raw in iter(self._proc.stdout.readline, b""):
            self._lines.put(_decode_line(raw))
        self._lines.put(EOF)

    def _drain_stderr(self) -> None:
        assert self._proc.stderr is not None
        for raw in iter(self._proc.stderr.readline, b""):
            self.stderr_tail.append(_decode_line(raw))

    def read_line(self, timeout: float | None) -> str | None:
        """The next stdout line (without its line end), or EOF once stdout is closed.

        Raises TimeoutError when nothing arrives in `timeout` seconds.
        """
        if self._stdout_done:
            return EOF
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError from None
        if line is EOF:
            self._stdout_done = True
        return line

    # -- writing -----------------------------------------------------------------------

    def send(self, data: str, timeout: float | None = None) -> None:
        """Write `data` to the engine's input. TimeoutError when the engine has not taken
        it all within `timeout` seconds (a hung engine stops reading, and once the pipe is
        full a plain write would wait for ever)."""
        stdin = self._proc.stdin
        if stdin is None or stdin.closed:
            raise EngineGone("the engine's input is already closed")
        payload = data.encode("utf-8")
        try:
            if timeout is None:
                stdin.write(payload)
                stdin.flush()
                return
            deadline = time.monotonic() + timeout
            fd = stdin.fileno()
            poller = select.poll()  # (select() cannot wait on descriptors past 1023)
            poller.register(fd, select.POLLOUT)
            while payload:
                left = max(0.0, deadline - time.monotonic())
                if not poller.poll(left * 1000):
                    raise TimeoutError
                # A pipe that polls as writable takes PIPE_BUF bytes without blocking (and
                # one whose reader has gone fails the write: EngineGone below).
                payload = payload[os.write(fd, payload[:select.PIPE_BUF]):]
        except (BrokenPipeError, ConnectionResetError, OSError) as exc:
            if isinstance(exc, TimeoutError):
                raise
            raise EngineGone(f"the engine no longer reads its input ({exc.strerror})") from None

    def close_input(self) -> None:
        stdin = self._proc.stdin
        if stdin is not None and not stdin.closed:
            try:
                stdin.close()
            except OSError:
                pass  # already gone: closing is all we wanted

    # -- lifetime ----------------------------------------------------------------------

    def wait(self, timeout: float | None) -> int | None:
        """Exit code, or None if the engine is still running after `timeout` seconds."""
        try:
            return self._proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    @property
    def returncode(self) -> int | None:
        return self._proc.poll()

    @property
    def pid(self) -> int:
        return self._proc.pid

    def stop(self, grace: float = 0.5) -> int | None:
        """End the engine: close its input, give it `grace` seconds, then kill it. What
        it started and left behind is killed either way (its process group, of which it
        is the leader): a child holding the engine's output open would also hold up the
        readers."""
        self.close_input()
        code = self.wait(grace)
        try:
            os.killpg(self._proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            if code is None:
                self._proc.kill()
        if code is None:
            code = self.wait(5)
        for thread in self._threads:
            thread.join(timeout=1)
        for stream in (self._proc.stdout, self._proc.stderr):
            if stream is not None:
                stream.close()
        return code

    def __enter__(self) -> EngineProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _decode_line(raw: bytes) -> str:
    if raw.endswith(b"\n"):
        raw = raw[:-1]
        if raw.endswith(b"\r"):
            raw = raw[:-1]
    return raw.decode("utf-8", errors="replace")


def now() -> float:
    return time.monotonic()
