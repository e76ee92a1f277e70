"""What the two-seat and paranoid search (`alphabeta`) and Best-Reply Search (`brs`) share:
score bounds, the salts that keep one position's table entries apart under different
searches, move ordering and the opponent model. Both import it; neither imports the other
(alphabeta hands itself to BestReply at run time).
"""

from __future__ import annotations

import random

from canter.engine.search.opponents import likely_key

INF = 1_000_000
WIN = 100_000
WIN_BOUND = WIN - 1000  # scores beyond this are exact wins or losses
STATIC_CAP = WIN_BOUND // 2  # static scores are kept within this (never a won score)

_SALT = random.Random("canter-search-salt")
ROOT_SALT = [_SALT.getrandbits(64) for _ in range(3)]  # paranoid values depend on the root
BRS_SALT = _SALT.getrandbits(64)
MIN_NODE_SALT = _SALT.getrandbits(64)
NO_CUTOFF = 1 << 30  # a depth no table entry reaches: look up the move only
BRS_PLUS_SALT = _SALT.getrandbits(64)
OPPK_SALT = [0] + [_SALT.getrandbits(64) for _ in range(64)]  # values depend on the pruning
READ_SALT = [_SALT.getrandbits(64) for _ in range(3)]  # ... and on which opponents were read
# Best-Reply max nodes score from the root seat's view, where the seat to move there may be
# an opponent; the quiescence search below them stores from the mover's view under the
# unsalted key: the two must not share one.
MAX_NODE_SALT = _SALT.getrandbits(64)


# Stockfish's old Lazy SMP skip pattern: helper i searches an iteration only when
# ((depth + PHASE) // SIZE) is even, so helpers run ahead of the main search at
# staggered depths instead of repeating its tree.
SKIP_SIZE = (1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4)
SKIP_PHASE = (0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7)


def skips(helper: int, depth: int) -> bool:
    """Does helper `helper` (1, 2, ...) leave out the iteration at `depth`? Depth 1, which
    orders the root, is never left out."""
    if depth <= 1:
        return False
    i = (helper - 1) % len(SKIP_SIZE)
    return (depth + SKIP_PHASE[i]) // SKIP_SIZE[i] % 2 == 1


def likeliest(moves: list, k: int, target: int, dist: list[int]) -> list:
    """The k moves a purposeful player is likeliest to make: a castle entry first, then the
    capture taking the most, then the longest advance towards its target castle (`dist`:
    steps from each cell to it). Ties go to the later move of the generator's order, so
    the choice is deterministic. The order of `moves` is kept.

    Searching only these for the opponents is an opponent model, not a proof: a quiet move
    that only spoils the root seat's plan is never tried. In Tri-Camelot, with k = 3, it
    scored ten points more than searching every reply against the greedy players, and as
    much against full-width searchers (docs/search.md)."""
    keyed = [(likely_key(m, target, dist), i) for i, m in enumerate(moves)]
    if k == 1:  # a read opponent: the commonest case, no sort needed
        return [moves[max(keyed)[1]]]
    keyed.sort()
    keep = sorted(i for _, i in keyed[-k:])
    return [moves[i] for i in keep]


def order_key(m, seat: int, target: int, kn: int, tt_move, k1, k2, hist: dict) -> int:
    """How early a move is searched: the table move, castle entries, captures by pieces
    taken (Knights first), the two killers, then history."""
    key = m._key
    if key == tt_move:
        return 1 << 40
    if target >> m.end & 1:
        return 1 << 39
    cb = m.capture_bits
    if cb:
        return (1 << 30) + (cb.bit_count() << 20) + ((cb & kn).bit_count() << 18)
    if key == k1:
        return 1 << 29
    if key == k2:
        return (1 << 29) - 1
    return hist.get((seat, m.start, m.end), 0)


def order_captures(pos, moves: list, tt_move) -> list:
    """`moves`, all captures, in `order_key`'s order (the table move, castle entries, then
    by pieces taken, Knights first; ties keep the generator's order), without its tests for
    killers and history: the quiescence's lists under a capture duty."""
    target = pos.variant.target_bits[pos.turn]
    kn = 0
    for bits in pos.kn:
        kn |= bits
    keyed = []
    for m in moves:
        if m._key == tt_move:
            keyed.append((1 << 40, m))
        elif target >> m.end & 1:
            keyed.append((1 << 39, m))
        else:
            cb = m.capture_bits
            keyed.append(((cb.bit_count() << 20) + ((cb & kn).bit_count() << 18), m))
    keyed.sort(key=first_item, reverse=True)
    return [m for _, m in keyed]


def to_grain(value: int, grain: int) -> int:
    """`value` rounded to the nearest multiple of `grain` (halves away from 0), so that a
    score and its negation round alike and negamax stays symmetric."""
    if value >= 0:
        return (value + grain // 2) // grain * grain
    return -((grain // 2 - value) // grain * grain)


def first_item(pair):
    return pair[0]
