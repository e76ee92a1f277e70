"""The transposition table: a fixed-size list of slots indexed by the position hash.

One entry is a tuple (key, depth, bound, score, move key, generation); the list never grows,
so `hash_mb` bounds the memory. Replacement: a slot is overwritten by a deeper or equal
search, by a newer search, or by an exact score.
"""

from __future__ import annotations

EXACT, LOWER, UPPER = 0, 1, 2

# Rough cost of one filled slot in CPython: the tuple, its ints, and the list pointer.
ENTRY_BYTES = 160


class TranspositionTable:
    def __init__(self, mb: int = 16) -> None:
        self.resize(mb)

    def resize(self, mb: int) -> None:
        slots = max(1024, mb * 1024 * 1024 // ENTRY_BYTES)
        bits = slots.bit_length() - 1  # a power of two, so the index is a mask
        self.size = 1 << bits
        self.mask = self.size - 1
        self.mb = mb
        self.clear()

    def clear(self) -> None:
        self.slots: list[tuple | None] = [None] * self.size
        self.generation = 0
        self.filled = 0

    def new_search(self) -> None:
        self.generation = (self.generation + 1) & 0xFFFF

    def probe(self, key: int) -> tuple | None:
        entry = self.slots[key & self.mask]
        if entry is not None and entry[0] == key:
            return entry
        return None

    def lookup(self, key: int, depth: int, alpha: int, beta: int, ply: int,
               win_bound: int) -> tuple[int | None, tuple | None]:
        """(stored score if it settles the window at this depth, else None; stored move).
        The one table read of every search node."""
        entry = self.probe(key)
        if entry is None:
            return None, None
        if entry[1] >= depth:
            return cutoff(entry, win_bound, alpha, beta, ply), entry[4]
        return None, entry[4]

    def store(self, key: int, depth: int, bound: int, score: int, move: tuple | None) -> None:
        i = key & self.mask
        old = self.slots[i]
        if old is None:
            self.filled += 1
        elif old[0] == key:
            if move is None:
                move = old[4]  # keep the move of an earlier search of this position
            if depth < old[1] and bound != EXACT and old[5] == self.generation:
                return
        elif old[5] == self.generation and old[1] > depth and bound != EXACT:
            return
        self.slots[i] = (key, depth, bound, score, move, self.generation)

    def store_quiet(self, key: int, bound: int, score: int, move: tuple | None) -> None:
        """A quiescence result: kept only where it displaces no deeper entry of this search."""
        old = self.slots[key & self.mask]
        if old is None or old[1] == 0 or old[5] != self.generation:
            self.store(key, 0, bound, score, move)

    def hashfull(self) -> int:
        return min(1000, self.filled * 1000 // self.size)


def cutoff(entry: tuple, win_bound: int, alpha: int, beta: int, ply: int) -> int | None:
    """The stored score when its bound settles this node's window, else None. Win and
    loss scores are stored relative to the node, so they are moved back to this ply."""
    score = entry[3]
    if score >= win_bound:
        score -= ply
    elif score <= -win_bound:
        score += ply
    bound = entry[2]
    if bound == EXACT or (bound == LOWER and score >= beta) or (bound == UPPER and score <= alpha):
        return score
    return None


def relative(score: int, win_bound: int, ply: int) -> int:
    """A score to store: win and loss distances counted from the node, not the root (the
    inverse of the adjustment in `cutoff`)."""
    if score >= win_bound:
        return score + ply
    if score <= -win_bound:
        return score - ply
    return score


def bound_of(best: int, alpha0: int, beta: int) -> int:
    """Which bound a node's best score is, given the window it was searched with."""
    return LOWER if best >= beta else EXACT if best > alpha0 else UPPER
