"""The run's standard output, which a reader that goes away (`| head`, a dead `tee`, a
terminal that hung up) or a file that cannot take more (a full disk) silences instead of
stopping the run: the games go on, and the records and summary the run writes to files
keep every result."""

from __future__ import annotations

import errno
import os
import sys
from typing import TextIO


class ProgressOut:
    """A text stream for progress lines. The first write or flush that fails (a broken
    pipe, EIO from a terminal that hung up, ENOSPC from a full disk: any OSError) turns it
    silent for good, says so once on standard error, and points the stream's file at the
    null device, so that nothing written later (nor Python's flush at exit) fails again."""

    def __init__(self, stream: TextIO, what: str, err: TextIO | None = None) -> None:
        self.stream = stream
        self.what = what  # the command, for the note: "canter match"
        self.err = err if err is not None else sys.stderr
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                self.stream.write(text)
            except OSError as exc:
                self._reader_gone(exc)
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self.stream.flush()
            except OSError as exc:
                self._reader_gone(exc)

    def isatty(self) -> bool:
        try:
            return not self.gone and self.stream.isatty()
        except (AttributeError, ValueError):
            return False

    def _reader_gone(self, exc: OSError) -> None:
        self.gone = True
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(null, self.stream.fileno())
            finally:
                os.close(null)
        except (AttributeError, OSError, ValueError):
            pass  # a stream with no file of its own: staying silent is enough
        if isinstance(exc, BrokenPipeError) or exc.errno == errno.EPIPE:
            what = "was closed"
        else:
            what = f"failed ({exc.strerror or exc})"
        try:
            self.err.write(f"{self.what}: standard output {what}; the run goes on "
                           "without progress lines (--pgn and --json keep the results)\n")
            self.err.flush()
        except (OSError, ValueError):
            pass  # standard error gone too (the same terminal): nothing is left to tell
