"""The folder of built tables: one `<class>.ctb` file per class, written whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path

from canter.engine.search.endings import SUFFIX, default_table_dir, shipped, shipped_keys


class Folder:
    def __init__(self, path: str | None) -> None:
        self.path = Path(path).expanduser() if path else default_table_dir()

    def keys(self) -> list[str]:
        try:
            return sorted(p.name[:-len(SUFFIX)] for p in self.path.iterdir()
                          if p.name.endswith(SUFFIX))
        except OSError:
            return []

    def file(self, key: str) -> Path:
        return self.path / (key + SUFFIX)

    def load(self, key: str) -> bytes | None:
        """A built table's bytes, else the shipped one's, else None."""
        try:
            with open(self.file(key), "rb") as f:
                return f.read()
        except OSError:
            return shipped(key)

    def save(self, key: str, data: bytes) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        tmp = self.path / (key + SUFFIX + ".part")
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, self.file(key))

    def available(self) -> list[str]:
        return sorted(set(self.keys()) | set(shipped_keys()))
