"""The folder of built tables: one `<class>.ctb` file per class, written whole or not at all."""

from __future__ import annotations

import json
from pathlib import Path

from canter.engine.search.endings import (
    SUFFIX,
    default_table_dir,
    folder_keys,
    folder_table,
    shipped_keys,
)


class Folder:
    def __init__(self, path: str | None) -> None:
        self.path = Path(path).expanduser() if path else default_table_dir()

    def keys(self) -> list[str]:
        return folder_keys(self.path)

    def file(self, key: str) -> Path:
        return self.path / (key + SUFFIX)

    def load(self, key: str) -> bytes | None:
        """A built table's bytes, else the shipped one's, else None."""
        return folder_table(self.path, key)

    def save(self, key: str, data: bytes) -> None:
        """Write a table whole or not at all (a temporary file of its own, synced and
        renamed: two builds into one folder never share one); OSError if it cannot be."""
        from canter.adapters.files import replace_file

        self.path.mkdir(parents=True, exist_ok=True)
        target = self.file(key)
        if target.is_file() and not is_table_file(target):
            # A damaged table is built again; a file of another kind under a table's name
            # is someone's, and is kept.
            raise OSError(f"{target} is not a table file; it is kept (move it away to build "
                          "this table)")
        replace_file(str(target), data)

    def available(self) -> list[str]:
        return sorted(set(self.keys()) | set(shipped_keys()))


def is_table_file(path: Path) -> bool:
    """Could the file be a table, of any version or damaged past its header? Its first line
    is JSON (a table's header); a file whose first line is not (notes, a picture) is not."""
    try:
        with open(path, "rb") as f:
            head = f.read(65536)
    except OSError:
        return False
    first, newline, _ = head.partition(b"\n")
    if not newline:
        return False
    try:
        json.loads(first)
    except (ValueError, RecursionError):
        return False
    return True
