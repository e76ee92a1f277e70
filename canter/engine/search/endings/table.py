"""One built class: its values, their bytes (the file format) and the probe of a position.

A value is one byte (two when some distance needs it): 0 a draw, `1 + 2d` a win for the
seat to move in d plies, `2 + 2d` a loss in d plies. Distances count plies to the end of
the game (a castle entry, the last capture, a blockade) with the winner taking the shortest
way and the loser the longest, through captures into smaller classes: distance to mate.

The file (docs/tables.md) is a header line of JSON, then the zlib-compressed base values,
then the zlib-compressed rare states (Castle Moves used, exit duties) as sorted
(key, value) pairs, key = base index * extra states + extra code.
"""

from __future__ import annotations

import json
import sys
import zlib
from array import array
from bisect import bisect_left

from canter.engine.search.endings.material import Indexer, Material, parse_material

MAGIC = "canter-endings"
FORMAT_VERSION = 1
DRAW, WIN, LOSS = 0, 1, -1
# Files are little-endian on every machine; arrays are in the machine's order.
NATIVE_LITTLE = sys.byteorder == "little"


class TableError(ValueError):
    """A table file that cannot be read."""


def encode(result: int, distance: int) -> int:
    if result == DRAW:
        return 0
    return 1 + 2 * distance if result == WIN else 2 + 2 * distance


def decode(value: int) -> tuple[int, int]:
    """(result, distance) for the seat to move: result WIN, DRAW or LOSS."""
    if value == 0:
        return DRAW, 0
    return (WIN if value & 1 else LOSS), (value - 1) >> 1


class Table:
    """The values of one class: `base` (an array indexed by base index) and `extra` (the
    rare states: sorted keys, their values). `stats` is what the build measured."""

    def __init__(self, material: Material, base, extra_keys, extra_values,
                 stats: dict | None = None) -> None:
        self.material = material
        self.indexer = Indexer(material)
        self.base = base
        self.extra_keys = extra_keys
        self.extra_values = extra_values
        self.stats = stats or {}
        self.rules_key = rules_key(material.variant.default_rules)

    @property
    def key(self) -> str:
        return self.material.key

    def value_at(self, pos) -> int | None:
        """The raw value of `pos` (its class must be this one), or None when its state is
        not one the table holds."""
        ix = self.indexer
        base = ix.base(pos)
        code = ix.extra(pos)
        if code == 0:
            return self.base[base]
        if code < 0:
            return None
        key = base * ix.extra_states + code
        keys = self.extra_keys
        i = bisect_left(keys, key)
        if i < len(keys) and keys[i] == key:
            return self.extra_values[i]
        return None

    def probe(self, pos) -> tuple[int, int] | None:
        value = self.value_at(pos)
        return None if value is None else decode(value)

    # ---- bytes ----------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        wide = self.base.itemsize > 1 or any(v > 255 for v in self.extra_values)
        base = self.base if not wide else array("H", self.base)
        header = {
            "format": MAGIC, "version": FORMAT_VERSION, "class": self.key,
            "positions": len(self.base), "extras": len(self.extra_keys),
            "width": 2 if wide else 1, "rules": self.rules_key, "stats": self.stats,
        }
        body = zlib.compress(_little(base), 9)
        keys = _little(array("Q", self.extra_keys))
        values = _little(array("H" if wide else "B", self.extra_values))
        rare = zlib.compress(keys + values, 9)
        head = json.dumps(header, sort_keys=True).encode() + b"\n"
        return head + len(body).to_bytes(8, "little") + body + rare

    @classmethod
    def from_bytes(cls, data: bytes, key: str | None = None) -> Table:
        """The table in a file's bytes; TableError for anything else, including (with
        `key`) the table of another class than the one looked for."""
        if not data:
            raise TableError("damaged table: the file is empty")
        if b"\n" not in data[:4096]:
            raise TableError("not a canter endings table (no header line)")
        try:
            line, rest = data.split(b"\n", 1)
            try:
                header = json.loads(line)
            except (ValueError, RecursionError):  # (what is wrong is the kind of file)
                raise TableError("not a canter endings table (its header is not the "
                                 "format's JSON)") from None
            if not isinstance(header, dict):
                raise TableError("not a canter endings table (its header is no object)")
            if header.get("format") != MAGIC or header.get("version") != FORMAT_VERSION:
                raise TableError("not a canter endings table of this version")
            if not isinstance(header.get("class"), str):
                raise TableError(f"damaged table: its class {header.get('class')!r:.40} is no "
                                 "class name")
            material = parse_material(header["class"])
            if key is not None and material.key != key:
                raise TableError(f"{key}: the file holds the table of {material.key}")
            if header["width"] not in (1, 2):
                raise TableError(f"{material.key}: width {header['width']!r} is not 1 or 2")
            wide = header["width"] == 2
            count = header["extras"]
            if type(count) is not int or count < 0:
                raise TableError(f"{material.key}: extras {count!r} is not a count")
            stats = header.get("stats")
            if stats is not None and not isinstance(stats, dict):
                raise TableError(f"{material.key}: stats is not an object")
            n = int.from_bytes(rest[:8], "little")
            # Never inflate more than the class can hold: a small hostile file could
            # otherwise ask for gigabytes before the sizes are checked.
            width = 2 if wide else 1
            raw = _inflate(rest[8:8 + n], material.base_size * width)
            base = _from_little("H" if wide else "B", raw)
            rare = _inflate(rest[8 + n:], count * (8 + width))
            keys = _from_little("Q", rare[:8 * count])
            values = _from_little("H" if wide else "B", rare[8 * count:])
        except TableError:
            raise  # (a ValueError itself, already saying what is wrong)
        except (ValueError, KeyError, TypeError, zlib.error, EOFError, RecursionError) as exc:
            raise TableError(f"damaged table: {exc}"[:300]) from None
        if len(base) != material.base_size or len(values) != count:
            raise TableError(f"{material.key}: the sizes do not match the class")
        table = cls(material, base, keys, values, stats)
        if header.get("rules") != table.rules_key:
            raise TableError(f"{material.key}: built under other rules")
        _check_rare_keys(table)
        return table


def _check_rare_keys(table: Table) -> None:
    """The probe bisects the rare keys: out of order, or naming no rare state of the class,
    they would give wrong answers instead of an error."""
    keys = table.extra_keys
    states = table.indexer.extra_states
    limit = len(table.base) * states
    previous = -1
    for key in keys:
        if key <= previous or key >= limit or key % states == 0:
            raise TableError(f"{table.key}: its rare states are out of order or out of "
                             "range")
        previous = key


def _little(values: array) -> bytes:
    if NATIVE_LITTLE or values.itemsize == 1:
        return values.tobytes()
    swapped = array(values.typecode, values)
    swapped.byteswap()
    return swapped.tobytes()


def _from_little(typecode: str, raw: bytes) -> array:
    values = array(typecode)
    values.frombytes(raw)
    if not NATIVE_LITTLE and values.itemsize > 1:
        values.byteswap()
    return values


def _inflate(data: bytes, size: int) -> bytes:
    """zlib-decompress at most `size` bytes; TableError if the data holds more or less."""
    inflater = zlib.decompressobj()
    out = inflater.decompress(data, size + 1)
    if len(out) != size or not inflater.eof:
        raise TableError(f"damaged table: a compressed part is not the {size} bytes the "
                         "class needs")
    return out


def rules_key(rules) -> str:
    """The rulings a table depends on (the draws by repetition and quiet moves it ignores)."""
    return (f"exit_duty_persists={rules.exit_duty_persists} no_move={rules.no_move} "
            f"parker_1887={rules.parker_1887}")
