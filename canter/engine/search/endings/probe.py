"""The tables a search or a tool uses: found, loaded, or built on request, and probed.

`Endings` does no I/O itself: whoever makes one hands it `load` (class key -> the file's
bytes, or None) and, to keep what it builds, `save` (class key, bytes). The protocol
session reads TablePath (docs/tables.md); `canter tables` reads and writes the cache
directory; a solver may keep everything in memory.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from canter.engine.rules import movegen
from canter.engine.search.endings.build import Progress, build_table
from canter.engine.search.endings.material import Material, material_of
from canter.engine.search.endings.table import DRAW, LOSS, WIN, Table, TableError, rules_key

SHIPPED_DIR = "tables"
SUFFIX = ".ctb"

Load = Callable[[str], bytes | None]
Save = Callable[[str, bytes], None]


def default_table_dir() -> Path:
    """Where built tables are kept: $CANTER_TABLES, else $XDG_CACHE_HOME/canter/tables,
    else ~/.cache/canter/tables (the engine option TablePath overrides it)."""
    env = os.environ.get("CANTER_TABLES", "").strip()
    if env:
        return Path(env).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(cache) if cache else Path.home() / ".cache") / "canter" / "tables"


def shipped(key: str) -> bytes | None:
    """The bytes of a table shipped in the package, or None."""
    try:
        path = resources.files(__package__).joinpath(SHIPPED_DIR, key + SUFFIX)
        return path.read_bytes() if path.is_file() else None
    except (OSError, ModuleNotFoundError):
        return None


def folder_keys(folder: Path) -> list[str]:
    """The class keys of the tables built in `folder` (none if it is missing)."""
    try:
        return sorted(p.name[:-len(SUFFIX)] for p in folder.iterdir()
                      if p.name.endswith(SUFFIX))
    except OSError:
        return []


def folder_table(folder: Path, key: str) -> bytes | None:
    """A table's bytes as built in `folder`, else as shipped, else None. Only a regular
    file is read: a pipe or a device in a table's place would never end its read."""
    file = folder / (key + SUFFIX)
    try:
        if file.is_file():
            return file.read_bytes()
    except OSError:
        pass
    return shipped(key)


def shipped_keys() -> list[str]:
    try:
        folder = resources.files(__package__).joinpath(SHIPPED_DIR)
        return sorted(p.name[:-len(SUFFIX)] for p in folder.iterdir()
                      if p.name.endswith(SUFFIX))
    except (OSError, ModuleNotFoundError):
        return []


class Endings:
    """Tables by class. `probe(pos)` answers for a position whose class has a table
    (loaded on first use); `build(material)` makes a table and the ones it needs.

    `available` lists the class keys `load` can find (so the search knows, without
    loading anything, the most pieces a table holds for each game)."""

    def __init__(self, load: Load | None = None, save: Save | None = None,
                 available: list[str] | None = None, build_missing: bool = False,
                 progress: Callable[[Material], Progress | None] | None = None) -> None:
        self.load = load or shipped
        self.save = save
        self.build_missing = build_missing
        self.progress = progress
        self.tables: dict[str, Table | None] = {}
        self.max_pieces: dict[str, int] = {}
        for key in available if available is not None else shipped_keys():
            self._note(key)
        self.hits = 0

    def _note(self, key: str) -> None:
        from canter.engine.search.endings.material import parse_material

        try:
            m = parse_material(key)
        except ValueError:
            return
        name = m.variant.name
        self.max_pieces[name] = max(self.max_pieces.get(name, 0), m.count)

    def add(self, table: Table) -> None:
        self.tables[table.key] = table
        self._note(table.key)

    def table(self, material: Material) -> Table | None:
        """The table of `material`: in memory, loaded, or (build_missing) built."""
        key = material.key
        if key in self.tables:
            return self.tables[key]
        table = None
        data = self.load(key)
        if data is not None:
            try:
                table = Table.from_bytes(data, key)
            except TableError:
                table = None
        if table is None and self.build_missing:
            table = self.build(material)
        self.tables[key] = table
        return table

    def build(self, material: Material, force: bool = False) -> Table:
        """Build `material`'s table (the smaller classes it needs first, loading them when
        they exist); keep it, and save it if there is `save`."""
        if not force and self.tables.get(material.key) is not None:
            return self.tables[material.key]

        def lookup(sub: Material) -> Table:
            got = self.table(sub)
            return got if got is not None else self.build(sub)

        for sub in material.subclasses():
            lookup(sub)
        progress = self.progress(material) if self.progress is not None else None
        table = build_table(material, lookup, progress)
        self.add(table)
        if self.save is not None:
            self.save(material.key, table.to_bytes())
        return table

    def probe(self, pos) -> tuple[int, int] | None:
        """(result, distance) for the seat to move, result WIN, DRAW or LOSS and distance
        in plies to the end of the game; None when no table holds `pos` (its class has no
        table, the game is not two-sided, other rulings are in force, or its state is not
        one a game reaches)."""
        m = material_of(pos)
        if m is None or pos.turn not in m.seats:
            return None
        table = self.table(m)
        if table is None or rules_key(pos.rules.as_played_in(pos.variant)) != table.rules_key:
            return None
        got = table.probe(pos)
        if got is not None:
            self.hits += 1
        return got

    def best_moves(self, pos) -> list[tuple[object, int, int]]:
        """Every legal move with its value for the seat to move: (move, result, distance),
        best first (the shortest win, then draws, then the longest loss). [] if some move
        leads where no table answers."""
        out = []
        seat = pos.turn
        for m in movegen.generate(pos) if pos.outcome() is None else []:
            pos.push(m)
            ended = pos._ended
            if ended is not None:
                result = DRAW if ended.winner is None else \
                    (WIN if ended.wins_for(seat) else LOSS)
                d = 0
            else:
                got = self.probe(pos)
                if got is None:
                    pos.pop()
                    return []
                result, d = got
                if pos.turn != seat:
                    result = -result
            pos.pop()
            out.append((m, result, d + 1))
        out.sort(key=lambda x: (-x[1], x[2] if x[1] == WIN else -x[2]))
        return out
