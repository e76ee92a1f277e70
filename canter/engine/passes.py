"""Cheap automatic passes for the searcher (Tri-Camelot, RULES.md §2 End 3).

`Position.push` hands the turn on only after generating the next seat's whole move list to
see whether it must pass, which costs more than the rest of the move. The searcher instead
works on a private copy whose rules say `no_move="lose"` (so `push` skips that step; with
three seats that ruling has no other effect) and calls `apply_passes` after each push. It
needs only to know whether a seat has *some* legal move, which bit operations answer:

- a jump (then a capture is legal), or a plain step, or one canter leg. A first canter leg
  always gives a legal move: a Man may stop there; a Knight landing where a jump is offered
  must capture, and then that charge is legal.
- The own-castle exit duty only narrows the moves to the duty piece when it has some, so it
  never turns "some move" into "no move".

The turn change is the one `Position` makes (hash included), so `pop` undoes it.
"""

from __future__ import annotations

from dataclasses import replace

from canter.engine.position import Position


def searchable_copy(pos: Position) -> Position:
    """A copy the searcher may push on; with three seats, passes are left to us."""
    work = pos.copy()
    if pos.variant.nseats > 2 and pos.rules.no_move == "pass":
        work.rules = replace(pos.rules, no_move="lose")
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


def apply_passes(pos: Position) -> bool:
    """Hand the turn on past seats that cannot move; False when no seat can move."""
    n = pos.variant.nseats
    keys = pos._keys
    for _ in range(n):
        if pos.turn not in pos.eliminated and has_move(pos, pos.turn):
            return True
        t = pos.turn
        pos.turn = (t + 1) % n
        pos.hash ^= keys.turn[t] ^ keys.turn[pos.turn]
    return False
