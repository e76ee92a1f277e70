"""The run's standard output, which a reader that goes away (`| head`, a dead `tee`)
silences instead of stopping the run: the games go on, and the records and summary the
run writes to files keep every result."""

from __future__ import annotations

import os
import sys
from typing import TextIO


class ProgressOut:
    """A text stream for progress lines. The first write or flush that finds its reader
    gone (a broken pipe) turns it silent for good, says so once on standard error, and
    points the stream's file at the null device, so that nothing written later (nor
    Python's flush at exit) fails again."""

    def __init__(self, stream: TextIO, what: str, err: TextIO | None = None) -> None:
        self.stream = stream
        self.what = what  # the command, for the note: "canter match"
        self.err = err if err is not None else sys.stderr
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                self.stream.write(text)
            except BrokenPipeError:
                self._reader_gone()
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self._reader_gone()

    def isatty(self) -> bool:
        try:
            return not self.gone and self.stream.isatty()
        except (AttributeError, ValueError):
            return False

    def _reader_gone(self) -> None:
        self.gone = True
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(null, self.stream.fileno())
            finally:
                os.close(null)
        except (AttributeError, OSError, ValueError):
            pass  # a stream with no file of its own: staying silent is enough
        try:
            self.err.write(f"{self.what}: standard output was closed; the run goes on "
                           "without progress lines (--pgn and --json keep the results)\n")
            self.err.flush()
        except OSError:
            pass
