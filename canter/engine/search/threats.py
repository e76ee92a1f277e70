"""Castle-entry reach in moves, counting canter chains (for the evaluation).

In Tri-Camelot one piece in the target castle wins, and a canter chain can carry a piece
across the board in one move, so the step distance to the castle says little about how
close a seat is to winning. `Reach.moves_to_target` counts *moves* instead: 1 if a piece
can enter the target castle next move (a step, or a canter chain over its own pieces), 2
if it can reach such a cell next move, else 3 (not nearer than that). Where a win needs
two pieces in the castle (Camelot), it is the next entry that counts: with one piece in,
the moves until a second can follow it into the free cell.

Bit sets only (a few shifts per direction and chain length), no move generation, and
nothing at all where no piece stands within two steps of the castle (most leaves of a
Camelot search: the answer there is 3 whatever the pieces further out do). It is an
estimate: it ignores the duty to capture, the Knight's canter rule, and that the moving
piece no longer serves as a hurdle; the search checks an entry with the real move
generator before scoring it as a win.
"""

from __future__ import annotations

from canter.engine.rules.movegen import leap_origins
from canter.engine.rules.variant import Variant

MEMO_SIZE = 1 << 13  # remembered answers (about 2 MB) before the memo starts afresh


class Reach:
    def __init__(self, variant: Variant) -> None:
        board = variant.board
        self.board = board
        self.mask = board.mask
        self.target = variant.target_bits
        self.need = variant.target_pieces
        # A step or a canter leg never lands in the own castle nor in the forbidden one.
        self.closed = tuple(variant.own_bits[s] | variant.forbidden_bits[s]
                            for s in range(variant.nseats))
        self.memo: dict[tuple[int, int, int, int], int] = {}
        # Every way in ends with a step from, or a leap over, a cell next to the castle,
        # and every way to such a cell likewise one further out: with no piece at all
        # within two steps of a castle, its seat is at least three moves from entering.
        self.zone = tuple(self._steps(self._steps(t)) | self._steps(t) | t
                          for t in self.target)

    def _steps(self, goal: int) -> int:
        steps = 0
        for o in self.board.up_shifts:
            steps |= goal >> o
        for o in self.board.down_shifts:
            steps |= goal << o
        return steps & self.mask

    def _into(self, goal: int, own: int, empty: int) -> int:
        """Cells from which a chain of leaps over `own` (a canter chain, or over enemy
        pieces a jump chain) ends on `goal`."""
        return leap_origins(self.board, goal, own, empty)

    def _one_move(self, goal: int, own: int, movers: int, enemy: int, empty: int,
                  knights: int) -> int:
        """The `movers` that can end on `goal` in one move: a step, a canter chain over
        `own`, a jump chain, or (Knights) a charge."""
        jumps = self._into(goal, enemy, empty) if enemy else 0
        cells = self._steps(goal) | self._into(goal, own, empty) | jumps
        if jumps and knights:
            cells |= self._into(jumps & empty, own, empty) & knights
        return cells & movers

    def moves_to_target(self, occ: list[int], seat: int, allocc: int,
                        kn: list[int] | None = None) -> int:
        if not allocc & self.zone[seat]:
            return 3
        target = self.target[seat]
        own = occ[seat]
        inside = own & target
        if inside and inside.bit_count() >= self.need:
            return 0
        # Pieces already inside stay there: hurdles, not movers. Where more than one must
        # be in, the next entry is into a free cell.
        movers = own & ~target
        if target & allocc:
            if self.need == 1:
                return 3  # occupied (a piece of the seat it belongs to sits there)
            target &= ~allocc
            if not target:
                return 3
        empty = self.mask & ~allocc & ~self.closed[seat]
        # Jumps over enemy pieces that are not sitting in their target castle.
        enemy = allocc & ~own
        for s, bits in enumerate(self.target):
            if s != seat:
                enemy &= ~bits
        knights = kn[seat] & movers if kn is not None else 0
        # A leaf asks for the same arrangement several times (the win-in-one test, the
        # threat test, the evaluation), so answers are remembered, a bounded number.
        memo = (own, allocc, knights, seat)
        known = self.memo.get(memo)
        if known is not None:
            return known
        if len(self.memo) >= MEMO_SIZE:
            self.memo.clear()
        self.memo[memo] = moves = self._moves(target, own, movers, enemy, empty, knights)
        return moves

    def _moves(self, target: int, own: int, movers: int, enemy: int, empty: int,
               knights: int) -> int:
        # Cells from which a step, a canter chain or a jump chain ends on the target: a
        # mover there enters next move; an empty one is a cell to reach first.
        jumps = self._into(target, enemy, empty) if enemy else 0
        cells = self._steps(target) | self._into(target, own, empty) | jumps
        if cells & movers:
            return 1
        if jumps and knights and self._into(jumps & empty, own, empty) & knights:
            return 1  # a Knight's charge: a canter chain onto a jump chain's start
        near = cells & empty
        if near and self._one_move(near, own, movers, enemy, empty, knights):
            return 2
        return 3
