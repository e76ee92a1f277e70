"""An engine process on real pipes for end-to-end tests: a thread reads its output so reads
can time out, and every line is checked against the dialect's output grammar."""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading

ENGINE_CMD = [sys.executable, "-m", "canter"]


class PipeEngine:
    def __init__(self, grammar: re.Pattern[str], cmd: list[str] | None = None) -> None:
        self.grammar = grammar
        self.proc = subprocess.Popen(cmd or ENGINE_CMD, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self.stderr: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True).start()

    def _read(self) -> None:
        for raw in iter(self.proc.stdout.readline, b""):
            line = raw.decode("utf-8")
            assert line.endswith("\n"), f"unterminated output: {line!r}"
            self.lines.put(line[:-1])
        self.lines.put(None)

    def send_bytes(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def read(self, timeout: float = 10.0) -> str:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no output within {timeout} s; seen: {self.seen[-8:]}") \
                from None
        if line is None:
            self.lines.put(None)
            raise AssertionError(f"the engine closed its output; seen: {self.seen[-8:]}")
        self.seen.append(line)
        assert self.grammar.match(line), f"stray output line: {line!r}"
        return line

    def close(self) -> int:
        """quit (if still running), then the exit code; killed if it does not end."""
        if self.proc.poll() is None:
            try:
                self.send_bytes(b"quit\n")
            except (BrokenPipeError, OSError):
                pass
        try:
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
