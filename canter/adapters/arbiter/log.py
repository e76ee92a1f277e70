"""The engine I/O log of a run (`--log FILE`, like cutechess-cli's debug output or
fastchess's `-log`): every line exchanged with every engine, one per line,

    2025-06-01 14:03:07.512 game 12 canter-2 > go wtime 59450 btime 60000 winc 500 binc 500
    2025-06-01 14:03:07.530 game 12 canter-2 < info depth 1 score cp 12 nodes 41 pv D6-F8

with the wall-clock time (ms), the game number (`-` before the first game: the start-up
check), the engine's name and the direction: `>` sent to the engine, `<` read from its
stdout, `!` read from its stderr. Lines of concurrent games interleave in time order.
Stderr is read by a thread of its own, so a line there is labelled with the game running
when it was read: an engine's start-up chatter may carry the first game's number.
The file is appended to, so a resumed run continues it; each line is written whole and
flushed, so a killed run leaves every line before it complete (a line cut at the very end
is closed with a newline when the next run starts). Only a log (or an empty file) is
appended to, never a file of the user's given by mistake.
"""

from __future__ import annotations

import os
import re
import stat
import threading
import time

from canter.adapters.client.engine import LogRecord

_LINE_RE = re.compile(rb"\A\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} game (?:-|\d+) ")


def log_problem(path: str) -> str | None:
    """Why `path` is not a file to append the log to (None if it is: missing, empty, not
    a regular file such as /dev/null, or a log whose first line reads as one)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as f:
            head = f.read(64)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if not head.strip() or _LINE_RE.match(head):
        return None
    return ("exists and is not an engine I/O log written by canter's arbiter; it is left as "
            "it is: give another --log file")


class EngineLog:
    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self.error: str | None = None  # why writing stopped, once a write failed
        # backslashreplace: whatever an engine sent, the log never stops the run
        self._file = open(path, "a", encoding="utf-8",  # noqa: SIM115 (closed by close())
                          errors="backslashreplace")
        if self._file.seekable() and self._file.tell() > 0:
            with open(path, "rb") as f:
                f.seek(-1, os.SEEK_END)
                if f.read(1) != b"\n":  # a line cut by a killed run: end it
                    self._file.write("\n")
                    self._file.flush()

    def write(self, game: int | None, record: LogRecord) -> None:
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(record.time))
        millis = int((record.time % 1) * 1000)
        number = "-" if game is None else str(game)
        text = (f"{stamp}.{millis:03d} game {number} {record.engine} {record.direction} "
                f"{record.line}\n")
        with self._lock:
            if not self._file.closed and self.error is None:
                try:
                    self._file.write(text)
                    self._file.flush()
                except OSError as exc:
                    # The log never stops the run: it stops itself, and the run says so.
                    self.error = f"{exc.strerror or exc}"
                    self._discard()

    def _discard(self) -> None:
        """Close the file after a failed write (whose unwritten buffer would fail again)."""
        try:
            self._file.close()
        except OSError:
            pass

    def close(self) -> None:
        with self._lock:
            if self.error is None:
                try:
                    self._file.close()
                except OSError as exc:
                    self.error = f"{exc.strerror or exc}"
                    self._discard()
