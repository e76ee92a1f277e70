"""The engine I/O log of a run (`--log FILE`, like cutechess-cli's debug output or
fastchess's `-log`): every line exchanged with every engine, one per line,

    2025-06-01 14:03:07.512 game 12 canter-2 > go wtime 59450 btime 60000 winc 500 binc 500
    2025-06-01 14:03:07.530 game 12 canter-2 < info depth 1 score cp 12 nodes 41 pv D6-F8

with the wall-clock time (ms), the game number (`-` before the first game: the start-up
check), the engine's name and the direction: `>` sent to the engine, `<` read from its
stdout, `!` read from its stderr. Lines of concurrent games interleave in time order.
The file is appended to, so a resumed run continues it.
"""

from __future__ import annotations

import threading
import time

from canter.adapters.client.engine import LogRecord


class EngineLog:
    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._file = open(path, "a", encoding="utf-8")  # noqa: SIM115 (closed by close())

    def write(self, game: int | None, record: LogRecord) -> None:
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(record.time))
        millis = int((record.time % 1) * 1000)
        number = "-" if game is None else str(game)
        text = (f"{stamp}.{millis:03d} game {number} {record.engine} {record.direction} "
                f"{record.line}\n")
        with self._lock:
            if not self._file.closed:
                self._file.write(text)
                self._file.flush()

    def close(self) -> None:
        with self._lock:
            self._file.close()
