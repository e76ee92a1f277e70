"""The castle race of two pieces alone, in moves (for the evaluation of endings).

In an ending the game is often a race: each side brings pieces into the other's castle while
the other does the same. The evaluation's distance terms count steps, but two pieces of one
side that leapfrog (each cantering over the other in turn) cover two cells a move, so a pair
that stays together races about twice as fast as the steps say. `PairRace` counts the moves
exactly for two pieces with the board to themselves: the fewest moves of the pair (steps, and
leaps over each other) until as many pieces as a win needs stand in the target castle.

The table holds every ordered pair of cells, found by one breadth-first search backwards
from the finished races (the moves are their own reverses, but for a castle entry, which
ends a piece's travel). It ignores every other piece on the board (hurdles that would help,
blockers and captures that would hinder); the search sees those.

Where one piece in the castle wins (Cam, Camette), a side's last piece still races: alone
it only steps, so its count is its distance in steps.
"""

from __future__ import annotations

import os
import threading
from array import array

from canter.engine.rules.variant import Variant

FAR = 31  # moves: no finish (a piece stuck in its own castle) or further than counted


class PairRace:
    def __init__(self, variant: Variant, seat: int) -> None:
        board = variant.board
        size = board.size
        self.size = size
        need = variant.target_pieces
        target = variant.target_castle[seat]
        closed = variant.own_castle[seat] | variant.forbidden_castle[seat]
        cells = [c for c in variant.cells if c not in closed]
        table = array("B", [FAR]) * (size * size)
        # A pair is two cells in either order, and the table is symmetric: the search below
        # keeps each pair once, in one order, and writes both entries (half the work of
        # keeping both orders). The cells a piece may have come from are listed beforehand:
        # never out of the target castle, never from a closed cell.
        shut = target | closed
        steps_in = [[c for c in board.neighbours[x] if c not in shut] for x in range(size)]
        leaps_in: list[dict[int, int]] = [
            {over: land for over, land in board.leaps[x] if land not in shut}
            for x in range(size)]
        frontier = []
        for i, a in enumerate(cells):
            for b in cells[i + 1:]:
                if (a in target) + (b in target) >= need:
                    table[a * size + b] = table[b * size + a] = 0
                    frontier.append((a, b))
        moves = 0
        while frontier:
            moves += 1
            if moves >= FAR:
                break
            nxt = []
            for a, b in frontier:
                # Either piece may have moved last: where could it have come from?
                for mover, other in ((a, b), (b, a)):
                    row = other * size
                    for c in steps_in[mover]:
                        if c != other and table[row + c] == FAR:
                            table[row + c] = table[c * size + other] = moves
                            nxt.append((c, other))
                    c = leaps_in[mover].get(other)
                    if c is not None and table[row + c] == FAR:
                        table[row + c] = table[c * size + other] = moves
                        nxt.append((c, other))
            frontier = nxt
        self.table = table
        # One piece wins: a lone piece's moves, stepping, from every cell (FAR if closed).
        self.solo: list[int] | None = None
        if need == 1:
            solo = [FAR] * size
            ring = list(target)  # (a target castle is never a closed cell)
            for c in ring:
                solo[c] = 0
            moves = 0
            while ring:  # (no board of the family is 31 steps across)
                moves += 1
                nxt = []
                for c in ring:
                    for n in board.neighbours[c]:
                        if solo[n] == FAR and n not in closed and n not in target:
                            solo[n] = moves
                            nxt.append(n)
                ring = nxt
            self.solo = solo

    def moves(self, cells: list[int]) -> int:
        """The fewest moves in which some two of `cells` (one side's pieces) finish the
        race alone; FAR with fewer than two, unless one piece wins (then a lone piece
        counts its steps)."""
        best = FAR
        if self.solo is not None and len(cells) == 1:
            return self.solo[cells[0]]
        size = self.size
        table = self.table
        for i, a in enumerate(cells):
            row = a * size
            for b in cells[i + 1:]:
                m = table[row + b]
                if m < best:
                    best = m
        return best


# Built once per game and seat for the whole process (about 0.02 s a table in Camelot and
# Chivalry: bench/race_tables.py), not again by each new Searcher, each helper of
# Threads > 1 or each position of a bench.
_BUILT: dict[tuple[int, int], tuple[Variant, PairRace]] = {}
_BUILDING = threading.Lock()
# A helper process forked (Threads > 1) while another thread held the lock would wait on
# it for ever: the child starts with a lock of its own.
os.register_at_fork(after_in_child=lambda: globals().update(_BUILDING=threading.Lock()))


def race_table(variant: Variant, seat: int) -> PairRace:
    """The seat's `PairRace` for this game, built at its first use."""
    key = (id(variant), seat)
    got = _BUILT.get(key)
    if got is None or got[0] is not variant:
        with _BUILDING:
            got = _BUILT.get(key)
            if got is None or got[0] is not variant:
                got = _BUILT[key] = (variant, PairRace(variant, seat))
    return got[1]
