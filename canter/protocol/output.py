"""The one way anything reaches stdout: whole lines, under a lock, flushed at once.

The reading thread and the search thread both answer; the lock keeps their lines whole and
the flush makes each answer visible to the GUI immediately. A GUI that has gone away
(broken pipe) is remembered so the engine can wind down instead of crashing. Every line is
printable ASCII (docs/protocol.md, "Errors"): whatever a client sent that reaches an answer
is escaped here at the latest.
"""

from __future__ import annotations

import select
import sys
import threading
from typing import BinaryIO

from canter.protocol.lines import printable


class Output:
    def __init__(self, stream: BinaryIO | None = None) -> None:
        self._stream = stream if stream is not None else sys.stdout.buffer
        self._lock = threading.Lock()
        self.closed = False  # the reader went away

    def line(self, text: str) -> None:
        self.lines([text])

    def lines(self, texts: list[str]) -> None:
        """Several lines written together, so no other thread's line lands among them."""
        data = "".join(printable(t) + "\n" for t in texts).encode("ascii")
        with self._lock:
            if self.closed:
                return
            try:
                self._stream.write(data)
                self._stream.flush()
            except (BrokenPipeError, ValueError, OSError):
                self.closed = True

    def reader_gone(self) -> bool:
        """Has the reader gone away? Known from a failed write, or asked of a pipe, socket
        or terminal without writing (its write end reports an error or a hang-up once the
        other end is closed): a search between two `info` lines learns it at once."""
        if self.closed:
            return True
        if not hasattr(select, "poll"):
            return False
        try:
            poller = select.poll()
            poller.register(self._stream.fileno(), 0)  # (errors and hang-ups always come)
            events = poller.poll(0)
        except (AttributeError, OSError, ValueError):
            return False  # (a stream with no descriptor: an in-memory buffer)
        return any(ev & (select.POLLERR | select.POLLHUP) for _, ev in events)


def diagnostic(text: str) -> None:
    """For the engine's operator, never for the GUI: stderr."""
    try:
        print(text, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
