"""The folder of built tables: one `<class>.ctb` file per class, written whole or not at all."""

from __future__ import annotations

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
        """Write a table whole or not at all (a temporary file of its own, synced and
        renamed: two builds into one folder never share one); OSError if it cannot be."""
        from canter.adapters.files import replace_file

        self.path.mkdir(parents=True, exist_ok=True)
        replace_file(str(self.file(key)), data)

    def available(self) -> list[str]:
        return sorted(set(self.keys()) | set(shipped_keys()))
