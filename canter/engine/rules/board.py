"""Board geometry as data: cells, directions, neighbour and leap tables, bit masks.

A cell is an integer: its bit position in a padded grid `(rank - low_rank) * width + file`,
where `width` is one more than the number of files. The spare column keeps a shifted
bitboard from wrapping onto the next rank, so a whole set of cells can be stepped in one
direction with one shift and one mask (the fast path of move counting).
"""

from __future__ import annotations

from collections.abc import Iterable


class Board:
    def __init__(
        self,
        files: str,
        coords: Iterable[tuple[int, int]],
        directions: Iterable[tuple[int, int]],
    ) -> None:
        self.files = files
        coords = sorted(set(coords), key=lambda fr: (fr[1], fr[0]))
        self.width = len(files) + 1
        self.low_rank = min(r for _, r in coords)
        self.directions = tuple(directions)
        self.size = max(self._index(f, r) for f, r in coords) + 1
        self.cells: tuple[int, ...] = tuple(self._index(f, r) for f, r in coords)
        self.mask = 0
        self.names: list[str | None] = [None] * self.size
        self.coords: list[tuple[int, int] | None] = [None] * self.size
        self.by_name: dict[str, int] = {}
        for (f, r), cell in zip(coords, self.cells, strict=True):
            self.mask |= 1 << cell
            name = f"{files[f]}{r}"
            self.names[cell] = name
            self.coords[cell] = (f, r)
            self.by_name[name] = cell
        # Per direction: the index offset, and the offset split by sign for bit shifts.
        self.offsets = tuple(df + dr * self.width for df, dr in self.directions)
        self.up_shifts = tuple(o for o in self.offsets if o > 0)
        self.down_shifts = tuple(-o for o in self.offsets if o < 0)
        # step[cell][d] = neighbour or -1; leaps[cell] = ((over, land), ...) on the board.
        self.step: list[tuple[int, ...]] = [()] * self.size
        self.neighbours: list[tuple[int, ...]] = [()] * self.size
        self.leaps: list[tuple[tuple[int, int], ...]] = [()] * self.size
        for cell in self.cells:
            f, r = self.coords[cell]
            steps = []
            for df, dr in self.directions:
                steps.append(self._at(f + df, r + dr))
            self.step[cell] = tuple(steps)
            self.neighbours[cell] = tuple(n for n in steps if n >= 0)
            leaps = []
            for (df, dr), over in zip(self.directions, steps, strict=True):
                land = self._at(f + 2 * df, r + 2 * dr)
                if over >= 0 and land >= 0:
                    leaps.append((over, land))
            self.leaps[cell] = tuple(leaps)

    def _index(self, f: int, r: int) -> int:
        return (r - self.low_rank) * self.width + f

    def _at(self, f: int, r: int) -> int:
        if not 0 <= f < len(self.files):
            return -1
        idx = self._index(f, r)
        if 0 <= idx < self.size and self.names[idx] is not None:
            return idx
        return -1

    def cell(self, name: str) -> int:
        """The cell called `name` (case-insensitive); KeyError if there is none."""
        return self.by_name[name.strip().upper()]

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
