"""Reading the opponents (three seats). An opponent that has made its likeliest move
(`likely_key`: castle entry, then the biggest capture, then the longest advance) at
every recent real choice plays by that rule, so the search tries that move alone for it.
Anyone else keeps the `Three Seat Opponent Moves` width. The evidence is the game's own
move list, so a position sent without its moves reads nobody."""

from __future__ import annotations

from canter.engine.rules import movegen
from canter.engine.rules.position import Position


def likely_key(m, target: int, dist: list[int]) -> int:
    """How likely a purposeful player is to make `m`: castle entry, pieces taken, steps
    gained towards the target castle (`dist`), compared in that order. Packed into one
    int (the search ranks every opponent move with it, and ints compare fastest)."""
    return ((target >> m.end & 1) << 40 | m.capture_bits.bit_count() << 20
            | dist[m.start] - dist[m.end] + 1024)


# The last RECENT choices of a seat are read. It is predictable when its last STREAK
# choices were all its likeliest move and at most a quarter of the RECENT ones were not
# (the quarter forgives an opening move from a book or a random start).
RECENT = 12
STREAK = 3


def predictable_seats(pos: Position, dist: list[list[int]]) -> list[bool]:
    """For each seat: has it been making its likeliest move? `dist[s]` gives the steps from
    every cell to seat s's target castle. Only choices count: a position where every legal
    move ranks the same (a lone forced capture, say) tells nothing."""
    n = pos.variant.nseats
    hits: list[list[bool]] = [[] for _ in range(n)]  # most recent first
    target_bits = pos.variant.target_bits
    # Read back only as far as needed: until every seat still in play has RECENT choices
    # (an eliminated seat would otherwise send the walk to the first move).
    live = [s for s in range(n) if pos.occ[s] and s not in pos.eliminated]
    work = pos.copy()
    while work.move_stack and min((len(hits[s]) for s in live), default=RECENT) < RECENT:
        m = work.pop()
        seat = work.turn
        if len(hits[seat]) >= RECENT:
            continue
        moves = movegen.generate(work)
        if len(moves) < 2:
            continue
        t, d = target_bits[seat], dist[seat]
        keys = [likely_key(x, t, d) for x in moves]
        best = max(keys)
        if min(keys) != best:
            hits[seat].append(likely_key(m, t, d) == best)
    return [len(h) >= STREAK and all(h[:STREAK]) and h.count(False) <= len(h) // 4
            for h in hits]
