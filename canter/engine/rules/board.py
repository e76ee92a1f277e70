"""Board geometry as data: cells, directions, neighbour and leap tables, bit masks.

A cell is an integer: its bit position in a padded grid `(rank - low_rank) * width + file`,
where `width` is one more than the number of files. The spare column keeps a shifted
bitboard from wrapping onto the next rank, so a whole set of cells can be stepped in one
direction with one shift and one mask (the fast path of move counting).

A board may also have levels: then each coordinate is (level, file, rank), each direction
(level step, file step, rank step), and a level is a padded grid of its own with a spare
rank as well, `level * level_stride` further on, so that no step wraps onto another level
either. Move generation reads only the tables and shifts, so it works on such a board as on
a flat one; cells are then named level digit, file, rank (`1C1`).
"""

from __future__ import annotations

from collections.abc import Iterable

from canter.engine.rules.text import shorten


class CellError(KeyError):
    """No such cell on this board (a KeyError, as a lookup by name always was); its text
    is the message itself, not a quoted key."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class LeapsOver(dict):
    """One cell's leaps by the cells they pass over: `self[bits]` is the tuple of the
    cell's leaps (over bit, land, land bit) over a cell of `bits`, in direction order,
    computed on first use. `bits` must be a subset of the cells the leaps pass over."""

    __slots__ = ("leaps",)

    def __init__(self, leaps: tuple[tuple[int, int, int], ...]) -> None:
        super().__init__()
        self.leaps = leaps

    def __missing__(self, bits: int) -> tuple[tuple[int, int, int], ...]:
        found = self[bits] = tuple(leap for leap in self.leaps if leap[0] & bits)
        return found


class Board:
    def __init__(
        self,
        files: str,
        coords: Iterable[tuple[int, ...]],
        directions: Iterable[tuple[int, ...]],
    ) -> None:
        self.files = files
        # Flat boards give (file, rank); boards with levels (level, file, rank). Inside,
        # every coordinate is (level, file, rank), level 0 on a flat board.
        given = sorted(set(coords), key=lambda c: (c[0], c[-1], c[-2]) if len(c) == 3
                       else (c[1], c[0]))
        self.layered = bool(given) and len(given[0]) == 3
        full = [c if self.layered else (0, *c) for c in given]
        self.width = len(files) + 1
        self.low_rank = min(r for _, _, r in full)
        self.low_level = min(lv for lv, _, _ in full)
        # A spare rank per level (only boards with levels need one).
        spare = 1 if self.layered else 0
        self.level_stride = (max(r for _, _, r in full) - self.low_rank + 1 + spare) * self.width
        self.directions = tuple(directions)
        steps3 = [d if self.layered else (0, *d) for d in self.directions]
        self.size = max(self._index(f, r, lv) for lv, f, r in full) + 1
        self.cells: tuple[int, ...] = tuple(self._index(f, r, lv) for lv, f, r in full)
        self.mask = 0
        self.names: list[str | None] = [None] * self.size
        self.coords: list[tuple[int, int] | None] = [None] * self.size
        self.levels: list[int] = [0] * self.size
        self.by_name: dict[str, int] = {}
        for (lv, f, r), cell in zip(full, self.cells, strict=True):
            self.mask |= 1 << cell
            name = f"{lv}{files[f]}{r}" if self.layered else f"{files[f]}{r}"
            self.names[cell] = name
            self.coords[cell] = (f, r)
            self.levels[cell] = lv
            self.by_name[name] = cell
        # Per direction: the index offset, and the offset split by sign for bit shifts.
        self.offsets = tuple(df + dr * self.width + dl * self.level_stride
                             for dl, df, dr in steps3)
        self.up_shifts = tuple(o for o in self.offsets if o > 0)
        self.down_shifts = tuple(-o for o in self.offsets if o < 0)
        # step[cell][d] = neighbour or -1; leaps[cell] = ((over, land), ...) on the board.
        self.step: list[tuple[int, ...]] = [()] * self.size
        self.neighbours: list[tuple[int, ...]] = [()] * self.size
        self.leaps: list[tuple[tuple[int, int], ...]] = [()] * self.size
        # leap_over[cell]: the bits of the cells a leap from `cell` passes over.
        self.leap_over: list[int] = [0] * self.size
        # leaps_by_over[cell][bits]: the leaps from `cell` over a cell of `bits` (a subset of
        # leap_over[cell]) as (over bit, land, land bit), in the order of `leaps`, filled as
        # asked. Move generation loops over the one or two leaps past an enemy or friend,
        # not over every direction, and tests masks, not shifts.
        self.leaps_by_over: list[LeapsOver] = [LeapsOver(())] * self.size
        for cell in self.cells:
            f, r = self.coords[cell]
            lv = self.levels[cell]
            steps = []
            for dl, df, dr in steps3:
                steps.append(self._at(f + df, r + dr, lv + dl))
            self.step[cell] = tuple(steps)
            self.neighbours[cell] = tuple(n for n in steps if n >= 0)
            leaps = []
            for (dl, df, dr), over in zip(steps3, steps, strict=True):
                land = self._at(f + 2 * df, r + 2 * dr, lv + 2 * dl)
                if over >= 0 and land >= 0:
                    leaps.append((over, land))
            self.leaps[cell] = tuple(leaps)
            self.leaps_by_over[cell] = LeapsOver(
                tuple((1 << over, land, 1 << land) for over, land in leaps))
            for over, _ in leaps:
                self.leap_over[cell] |= 1 << over

    def _index(self, f: int, r: int, level: int = 0) -> int:
        return ((level - self.low_level) * self.level_stride
                + (r - self.low_rank) * self.width + f)

    def _at(self, f: int, r: int, level: int = 0) -> int:
        if not 0 <= f < len(self.files) or level < self.low_level:
            return -1
        if not 0 <= r - self.low_rank < self.level_stride // self.width:
            return -1
        idx = self._index(f, r, level)
        if 0 <= idx < self.size and self.names[idx] is not None:
            return idx
        return -1

    def cell(self, name: str) -> int:
        """The cell called `name` (case-insensitive); CellError (a KeyError) if there is
        none."""
        try:
            return self.by_name[name.strip().upper()]
        except (KeyError, AttributeError):
            raise CellError(f"no cell named '{shorten(str(name))}' on this board") from None

    def name_of(self, cell: int) -> str:
        """The name of `cell`; CellError if the number is no cell of this board (a negative
        number would otherwise count from the end)."""
        if type(cell) is int and 0 <= cell < self.size and self.names[cell] is not None:
            return self.names[cell]
        raise CellError(f"{shorten(repr(cell))} is not a cell number of this board")

    def shift(self, bits: int, offset: int) -> int:
        """All cells of `bits` moved by one step of `offset`, kept on the board."""
        return ((bits << offset) if offset > 0 else (bits >> -offset)) & self.mask

    @property
    def ranks(self) -> list[int]:
        return sorted({r for _, r in (self.coords[c] for c in self.cells)})

    def rank_cells(self, rank: int) -> list[int]:
        """Cells of one rank, by file."""
        return [c for c in self.cells if self.coords[c][1] == rank]


def bits_of(cells: Iterable[int]) -> int:
    mask = 0
    for c in cells:
        mask |= 1 << c
    return mask


def cells_of(bits: int) -> list[int]:
    """The cells in a bit set, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out
