"""Cheap automatic passes for the searcher (Tri-Camelot, RULES.md §2 End 3).

`Position.push` hands the turn on only after generating the next seat's whole move list to
see whether it must pass, which costs more than the rest of the move. The searcher works on
a private `SearchPosition`, whose turn passing asks only whether a seat has *some* legal
move, which bit operations answer (`has_move`):

- a jump (then a capture is legal), or a plain step, or one canter leg. A first canter leg
  always gives a legal move: a Man may stop there; a Knight landing where a jump is offered
  must capture, and then that charge is legal.
- The own-castle exit duty only narrows the moves to the duty piece when it has some, so it
  never turns "some move" into "no move".
"""

from __future__ import annotations

from canter.engine.outcome import Outcome, ranking_for
from canter.engine.position import Position
from canter.engine.variant import NUMBER_WORDS


class SearchPosition(Position):
    """A Position whose turn passing asks `has_move` instead of generating every move."""

    __slots__ = ()

    def _static_ending(self, mover: int | None) -> Outcome | None:
        """`Position._static_ending` with the pass test done by `has_move` (kept line for
        line the same otherwise; `tests/test_search_passes.py` checks they agree)."""
        v = self.variant
        n = v.nseats
        names = tuple(s.name for s in v.seats)
        k = self._keys
        before = len(self.eliminated)
        eliminated = self._eliminate_empty()
        # Seats whose last pieces one move took share a rank.
        together = len(eliminated) - before
        if mover is not None:
            if (self.occ[mover] & v.target_bits[mover]).bit_count() >= v.target_pieces:
                castle = v.castle_text(v.target_castle[mover])
                words = NUMBER_WORDS.get(v.target_pieces, f"{v.target_pieces} pieces")
                self._advance_turn(mover)
                return Outcome(mover, f"{words} in {castle}",
                               ranking_for(n, mover, eliminated, together), names)
        alive = [s for s in range(n) if s not in eliminated]
        if mover is not None:
            self._advance_turn(mover)
        if len(alive) == 1:
            last = alive[0]
            gone = " and ".join(names[s] for s in range(n) if s != last)
            if self.occ[last].bit_count() >= v.win_min_pieces:
                return Outcome(last, f"{gone} {'has' if n == 2 else 'have'} no pieces left",
                               ranking_for(n, last, eliminated, together), names)
            return Outcome(None, f"{gone} has no pieces left and {names[last]} has too few "
                           "pieces to win", ranking_for(n, None, ()), names)  # a draw ties all
        if not alive:
            return Outcome(None, "no pieces left", ranking_for(n, None, eliminated), names)
        if v.bare_max_pieces and all(
            self.occ[s].bit_count() <= v.bare_max_pieces for s in alive
        ):
            return Outcome(None, "each side has at most one piece",
                           ranking_for(n, None, eliminated), names)
        if n > 2:
            # The turn goes to the next seat in play that can move. One that cannot passes
            # (no_move="pass"), or is eliminated (no_move="lose"): its pieces leave the
            # board, so an eliminated seat is still a seat without pieces.
            for _ in range(n):
                if self.turn not in self.eliminated:
                    if has_move(self, self.turn):
                        return None
                    if self.rules.no_move == "lose":
                        stuck = self.turn
                        eliminated = self._eliminate_stuck(stuck, mover is not None)
                        alive = [s for s in range(n) if s not in eliminated]
                        if len(alive) == 1:
                            self._advance_turn(stuck)
                            return Outcome(alive[0], f"{names[stuck]} has no legal move",
                                           ranking_for(n, alive[0], eliminated), names)
                h = self.hash ^ k.turn[self.turn]
                self.turn = (self.turn + 1) % n
                self.hash = h ^ k.turn[self.turn]
            return Outcome(None, "no seat can move", ranking_for(n, None, eliminated), names)
        return None


def searchable_copy(pos: Position) -> Position:
    """A private copy the searcher may push on (cheap passes with three seats)."""
    work = pos.copy()
    if pos.variant.nseats > 2:
        work.__class__ = SearchPosition
    return work


def has_move(pos: Position, seat: int) -> bool:
    v = pos.variant
    board = v.board
    own = pos.occ[seat]
    allocc = 0
    for bits in pos.occ:
        allocc |= bits
    enemy = allocc & ~own
    empty = board.mask & ~allocc
    forbidden = v.forbidden_bits[seat]
    step_ok = empty & ~v.own_bits[seat] & ~forbidden
    jump_ok = empty & ~forbidden
    active = own & ~v.target_bits[seat]
    if not active:
        return False
    for o in board.up_shifts:
        if (active << o) & step_ok or (active >> o) & step_ok:
            return True
        # A jump lands on jump_ok; a canter leg (over an own piece) on step_ok.
        if ((((active << o) & enemy) << o) & jump_ok or (((active << o) & own) << o) & step_ok
                or (((active >> o) & enemy) >> o) & jump_ok
                or (((active >> o) & own) >> o) & step_ok):
            return True
    return False
