"""The transposition table shared by the processes of a search with `Threads` > 1.

The same interface as `tt.TranspositionTable`, over a flat array of 64-bit words in an
anonymous shared mapping (`mmap`), which forked helper processes inherit: every process
reads and writes the same slots, with no lock. A slot is three words:

    check = key ^ data ^ move      data = used | score | generation | bound | depth
                                   move = start, end and up to six captured cells, a byte each

A reader recomputes `check ^ data ^ move` and takes the slot only when that is its key, so
a slot torn by two processes writing at once reads as a miss, never as a wrong entry
(Hyatt's lockless hashing). Entries come back as the tuples of the list table, so the search
code is the same for both. A move that captures more than six pieces is stored without its
move (the table move only orders moves; the score is kept).
"""

from __future__ import annotations

import mmap

from canter.engine.search.tt import EXACT, TranspositionTable

WORDS = 3  # words a slot
SLOT_BYTES = 8 * WORDS
USED = 1 << 63
SCORE_OFFSET = 1 << 23  # scores are within +-INF (10**6) < 2**23
MAX_CAPTURES = 6
CLEAR_CHUNK = 1 << 20


def pack_move(key: tuple | None) -> int:
    """A move key (start, end, capture bits) as one word; 0 = no move."""
    if key is None:
        return 0
    start, end, captures = key
    word = (start + 1) | (end + 1) << 8
    shift = 16
    while captures:
        if shift >= 16 + 8 * MAX_CAPTURES:
            return 0
        low = captures & -captures
        word |= low.bit_length() << shift  # the cell index + 1
        shift += 8
        captures ^= low
    return word


def unpack_move(word: int) -> tuple | None:
    if not word:
        return None
    captures = 0
    rest = word >> 16
    while rest:
        captures |= 1 << ((rest & 255) - 1)
        rest >>= 8
    return ((word & 255) - 1, (word >> 8 & 255) - 1, captures)


class SharedTable:
    """A table in shared memory. The process that made it (`owner`) starts each search's
    generation; a helper is told the generation with its job (`generation` attribute)."""

    def __init__(self, mb: int = 16) -> None:
        self.owner = True
        self.resize(mb)

    def resize(self, mb: int) -> None:
        slots = max(1024, mb * 1024 * 1024 // SLOT_BYTES)
        bits = slots.bit_length() - 1
        self.size = 1 << bits
        self.mask = self.size - 1
        self.mb = mb
        self.close()
        # Anonymous and MAP_SHARED: the pages are shared with every process forked later.
        self._map = mmap.mmap(-1, self.size * SLOT_BYTES)
        self.words = memoryview(self._map).cast("Q")
        self.generation = 0

    def close(self) -> None:
        words = getattr(self, "words", None)
        if words is not None:
            words.release()
            self._map.close()
            self.words = None

    def clear(self) -> None:
        """Zero every slot (only between searches: helpers are idle then), a megabyte at a
        time (Hash may be gigabytes)."""
        size = len(self._map)
        zeros = bytes(min(size, CLEAR_CHUNK))
        for start in range(0, size, CLEAR_CHUNK):
            end = min(size, start + CLEAR_CHUNK)
            self._map[start:end] = zeros[: end - start]
        self.generation = 0

    def new_search(self) -> None:
        if self.owner:
            self.generation = (self.generation + 1) & 0xFFFF

    def probe(self, key: int) -> tuple | None:
        i = (key & self.mask) * WORDS
        w = self.words
        data = w[i + 1]
        move = w[i + 2]
        if not data or w[i] ^ data ^ move != key:
            return None
        return (key, data & 255, data >> 8 & 3, (data >> 26 & 0xFFFFFF) - SCORE_OFFSET,
                unpack_move(move), data >> 10 & 0xFFFF)

    # The same read as the list table's: only `probe` differs.
    lookup = TranspositionTable.lookup

    def store(self, key: int, depth: int, bound: int, score: int, move: tuple | None) -> None:
        i = (key & self.mask) * WORDS
        w = self.words
        old = w[i + 1]
        gen = self.generation
        word = pack_move(move)
        if old:
            old_move = w[i + 2]
            old_depth = old & 255
            same_gen = (old >> 10 & 0xFFFF) == gen
            if w[i] ^ old ^ old_move == key:
                if move is None:
                    word = old_move  # keep the move of an earlier search of this position
                if depth < old_depth and bound != EXACT and same_gen:
                    return
            elif same_gen and old_depth > depth and bound != EXACT:
                return
        data = (USED | (score + SCORE_OFFSET) << 26 | gen << 10 | bound << 8
                | min(max(depth, 0), 255))
        w[i + 1] = data
        w[i + 2] = word
        w[i] = key ^ data ^ word

    def store_quiet(self, key: int, bound: int, score: int, move: tuple | None) -> None:
        """A quiescence result: kept only where it displaces no deeper entry of this search."""
        old = self.words[(key & self.mask) * WORDS + 1]
        if not old or not old & 255 or (old >> 10 & 0xFFFF) != self.generation:
            self.store(key, 0, bound, score, move)

    def hashfull(self) -> int:
        """Per mille of the first thousand slots in use (the slots are not counted as they
        fill: several processes write them)."""
        w = self.words
        n = min(1000, self.size)
        used = sum(1 for i in range(n) if w[i * WORDS + 1])
        return used * 1000 // n
