"""Retrograde analysis of one class (docs/tables.md).

Every position of the class is set up once and its legal moves are made with the rules
library, so the table plays by exactly the rules the search plays by. A move either ends
the game (its value is the rules' verdict), or captures into a smaller class (its value is
that class's table, built first), or stays in the class: those moves are kept as edges, and
the values are then spread backwards from the decided positions in order of distance, so
that a win takes the shortest way and a loss the longest. What is never decided is a draw
(the game can go round for ever, and the third repetition draws).

Ignored: the quiet-move draw (a table's distance may pass the 100-ply limit) and the history
of repetitions; the table's values are those of the position with a fresh history.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable

from canter.engine.rules import movegen
from canter.engine.rules.board import bits_of, cells_of
from canter.engine.rules.position import EMPTY, Position
from canter.engine.search.endings.material import Indexer, Material, material_of
from canter.engine.search.endings.table import DRAW, LOSS, WIN, Table, encode

# A table of a smaller class, by class (built or loaded by the caller).
Lookup = Callable[[Material], Table]
# Progress: called with (positions done, positions in all) now and then.
Progress = Callable[[int, int], None]

_UNKNOWN, _WON, _LOST, _DRAWN, _NONE = 0, 1, 2, 3, 4


def setup(pos: Position, ix: Indexer, placed, stm: int, code: int, eliminated: tuple) -> None:
    """Put a state of the class on `pos` (reused from state to state; no hash, no history)."""
    cells = pos.cells
    for bits in pos.occ:
        for c in cells_of(bits):
            cells[c] = EMPTY
    n = pos.variant.nseats
    pos.occ = [0] * n
    pos.kn = [0] * n
    for seat, kind, where in placed:
        for c in where:
            pos.put(c, seat, kind)
    pos.turn = stm
    pos.castle_moves = [0] * n
    pos.duty = [0] * n
    ix.set_extra(pos, code)
    pos.eliminated = eliminated
    pos.out_together = 1
    pos.move_stack = []
    pos._undo = []
    pos._hashes = []
    pos._ended = pos._static_ending(None)


def _terminal(pos: Position, seat: int) -> tuple[int, int] | None:
    """(result, 0) for `seat` if the game is over in `pos`."""
    ended = pos._ended
    if ended is None:
        return None
    if ended.winner is None:
        return DRAW, 0
    return (WIN if ended.wins_for(seat) else LOSS), 0


def build_table(material: Material, lookup: Lookup, progress: Progress | None = None) -> Table:
    """The table of `material`; `lookup` gives the tables of the classes a capture leads
    to (`Material.subclasses`)."""
    t0 = time.monotonic()
    v = material.variant
    ix = Indexer(material)
    base_size = ix.base_size
    X = ix.extra_states
    pos = Position(v)
    eliminated = tuple(s for s in range(v.nseats) if s not in material.seats)
    win_min = v.win_min_pieces
    lose_if_stuck = v.nseats == 2 and pos.rules.no_move == "lose"

    # Pass 1: number the rare states after the base ones.
    extra_ids: dict[int, int] = {}
    for pidx, placed in ix.placements():
        for seat, kind, where in placed:
            for c in where:
                pos.put(c, seat, kind)
        codes = ix.extras_for(pos)
        for _, _, where in placed:
            for c in where:
                pos.cells[c] = EMPTY
        pos.occ = [0] * v.nseats
        pos.kn = [0] * v.nseats
        if len(codes) > 1:
            for b in range(2):
                for code in codes[1:]:
                    extra_ids[(pidx * 2 + b) * X + code] = base_size + len(extra_ids)
    n = base_size + len(extra_ids)

    status = bytearray(n)
    dist = array("H", bytes(2 * n))
    stm_of = bytearray(n)  # 0: the first seat moves, 1: the second
    counter = array("H", bytes(2 * n))
    maxext = array("H", bytes(2 * n))  # longest way out by a move leaving the class
    no_loss = bytearray(n)  # a move out of the class draws: never lost
    out_win = bytearray(n)  # a move out of the class wins (the state waits in a bucket)
    aliases: list[tuple[int, int]] = []  # (state, state after the automatic pass)
    buckets: dict[int, list[int]] = {}
    edge_start = array("q", bytes(8 * n))
    edges = array("I")  # 2 * child + (1 if the child's mover is another seat)
    subtables: dict[str, Table] = {}
    done = 0
    report = max(1, n // 200)

    def node_id(p: Position) -> int:
        b = ix.base(p)
        code = ix.extra(p)
        if code < 0:
            # The index has no state for it; no class built so far reaches one.
            raise ValueError(f"{material.key}: a move reaches two exit duties of one "
                             f"seat ({p.to_string()}), which the table cannot hold")
        return b if code == 0 else extra_ids[b * X + code]

    def resolve(node: int, what: int, d: int) -> None:
        status[node] = what
        dist[node] = d
        buckets.setdefault(d, []).append(node)

    forbidden = [v.forbidden_bits[s] for s in material.seats]
    for pidx, placed in ix.placements():
        first = True
        codes = [0]
        if forbidden[0] or forbidden[1]:
            # Tri-Camelot: a piece on the castle it may never enter is no position.
            if any(bits_of(where) & forbidden[material.seats.index(seat)]
                   for seat, _, where in placed):
                setup(pos, ix, placed, material.seats[0], 0, eliminated)
                for b in range(2):
                    status[pidx * 2 + b] = _NONE
                    for code in ix.extras_for(pos)[1:]:
                        status[extra_ids[(pidx * 2 + b) * X + code]] = _NONE
                done += 2
                continue
        for b in range(2):
            stm = material.seats[b]
            if first:
                setup(pos, ix, placed, stm, 0, eliminated)
                codes = ix.extras_for(pos)
                first = False
            for code in codes:
                node = pidx * 2 + b if code == 0 else extra_ids[(pidx * 2 + b) * X + code]
                setup(pos, ix, placed, stm, code, eliminated)
                stm_of[node] = b
                edge_start[node] = len(edges)
                done += 1
                if progress is not None and done % report == 0:
                    progress(done, n)
                ended = _terminal(pos, stm)
                if ended is not None:
                    result, _ = ended
                    if result == DRAW:
                        status[node] = _DRAWN
                    else:
                        resolve(node, _WON if result == WIN else _LOST, 0)
                    continue
                if pos.turn != stm:
                    # Three seats: the seat to move had no move and passed at once.
                    aliases.append((node, node_id(pos)))
                    continue
                moves = movegen.generate(pos)
                if not moves:
                    if lose_if_stuck and pos.occ[material.seats[1 - b]].bit_count() >= win_min:
                        resolve(node, _LOST, 0)
                    else:
                        status[node] = _DRAWN
                    continue
                win_out = -1
                count = 0
                for m in moves:
                    pos.push(m)
                    flip = pos.turn != stm
                    ended = _terminal(pos, pos.turn)
                    if ended is None and pos.eliminated == eliminated and (
                            not m.capture_bits):
                        edges.append(2 * node_id(pos) + flip)
                        count += 1
                        pos.pop()
                        continue
                    if ended is None:
                        sub = material_of(pos)
                        table = subtables.get(sub.key) if sub is not None else None
                        if table is None and sub is not None:
                            table = subtables[sub.key] = lookup(sub)
                        got = table.probe(pos) if table is not None else None
                        if got is None:
                            raise ValueError(f"{material.key}: no value for "
                                             f"{pos.to_string()}")
                        result, d = got
                    else:
                        result, d = ended
                    pos.pop()
                    if flip:
                        result = -result
                    if result == WIN:
                        if win_out < 0 or d + 1 < win_out:
                            win_out = d + 1
                    elif result == LOSS:
                        if d + 1 > maxext[node]:
                            maxext[node] = d + 1
                    else:
                        no_loss[node] = 1
                counter[node] = count
                if win_out >= 0:
                    out_win[node] = 1
                    buckets.setdefault(win_out, []).append(~node)  # a candidate, not final
                elif count == 0:
                    if no_loss[node]:
                        status[node] = _DRAWN
                    else:
                        resolve(node, _LOST, maxext[node])
    built = time.monotonic()

    # The edges backwards: who moves into each state.
    pred_start = array("q", bytes(8 * (n + 1)))
    for e in edges:
        pred_start[(e >> 1) + 1] += 1
    for i in range(n):
        pred_start[i + 1] += pred_start[i]
    fill = array("q", pred_start)
    preds = array("I", bytes(4 * len(edges)))
    for node in range(n):
        # States are not set up in the order of their numbers: a state's edges are the
        # `counter[node]` from `edge_start[node]`.
        first_edge = edge_start[node]
        for k in range(first_edge, first_edge + counter[node]):
            e = edges[k]
            child = e >> 1
            preds[fill[child]] = 2 * node + (e & 1)
            fill[child] += 1
    del edges, fill

    # Spread the values, shortest distance first: a state taken from bucket d is decided
    # at distance d, so its predecessors win in d + 1, or lose in d + 1 or more.
    d = 0
    while buckets:
        level = buckets.pop(d, None)
        if level:
            for q in level:
                if q < 0:  # a win by a move out of the class
                    q = ~q
                    if status[q] != _UNKNOWN:
                        continue
                    status[q] = _WON
                    dist[q] = d
                what = status[q]
                for k in range(pred_start[q], pred_start[q + 1]):
                    e = preds[k]
                    p = e >> 1
                    if status[p] != _UNKNOWN:
                        continue
                    # Good for p: a child lost for p's opponent, or won for p itself.
                    if (what == _LOST) == bool(e & 1):
                        resolve(p, _WON, d + 1)
                    else:
                        counter[p] -= 1
                        if counter[p] == 0 and not no_loss[p] and not out_win[p]:
                            resolve(p, _LOST, max(d + 1, maxext[p]))
        d += 1
    # Passes: the state before the automatic pass has the value of the state after it.
    for node, after in aliases:
        same = stm_of[node] == stm_of[after]
        what = status[after]
        if what in (_WON, _LOST) and not same:
            what = _LOST if what == _WON else _WON
        status[node] = what
        dist[node] = dist[after]

    values = array("B") if max(dist, default=0) < 127 else array("H")
    values.extend(bytes(n) if values.itemsize == 1 else [0] * n)
    counts = {"win": 0, "draw": 0, "loss": 0, "none": 0}
    longest = 0
    for i in range(n):
        s = status[i]
        if s == _WON:
            values[i] = encode(WIN, dist[i])
            counts["win"] += 1
            longest = max(longest, dist[i])
        elif s == _LOST:
            values[i] = encode(LOSS, dist[i])
            counts["loss"] += 1
        elif s == _NONE:
            counts["none"] += 1
        else:
            counts["draw"] += 1
    keys = sorted(extra_ids)
    extra_values = array(values.typecode, (values[extra_ids[k]] for k in keys))
    base = values[:base_size]
    stats = {"states": n, "edges": len(preds), **counts, "longest_win": longest,
             "seconds": round(time.monotonic() - t0, 1),
             "seconds_moves": round(built - t0, 1)}
    if progress is not None:
        progress(n, n)
    return Table(material, base, array("Q", keys), extra_values, stats)

