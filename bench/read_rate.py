"""How often each kind of Tri-Camelot player makes its likeliest move (the key that
`Three Seat Read Opponents` reads, `opponents.likely_key`), counted over whole games at every
real choice (a position where the legal moves do not all rank the same).

    python bench/read_rate.py --games 20 --nodes 1500

Half the games put one searcher against two greedy players, half three searchers (all
opponent moves, k = 3, k = 1). Prints, per kind of player, choices seen and the share of
them that were the likeliest move.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from multiprocessing import Pool

from benchargs import positive_int
from selfplay import GreedyPlayer, SearchPlayer

from canter.engine import Position, get_variant
from canter.engine.rules import movegen
from canter.engine.search.evaluate import _distances
from canter.engine.search.opponents import likely_key

VARIANT = get_variant("tri-camelot")
DIST = [_distances(VARIANT, VARIANT.target_castle[s]) for s in range(3)]


def _game(args) -> list[tuple[str, int, int]]:
    index, nodes = args
    seed = 1000 + index
    if index % 2:
        players = [SearchPlayer(nodes, "paranoid", options={"oppk": k}) for k in (0, 3, 1)]
        kinds = ["searcher k=all", "searcher k=3", "searcher k=1"]
    else:
        me = index // 2 % 3
        players = [SearchPlayer(nodes, "paranoid") if s == me else GreedyPlayer(seed * 7 + s)
                   for s in range(3)]
        kinds = ["searcher (default)" if s == me else "greedy" for s in range(3)]
    pos = Position.start(VARIANT)
    rng = random.Random(seed)
    for _ in range(2):
        pos.push(rng.choice(pos.legal_moves()))
    seen, hits = [0] * 3, [0] * 3
    while pos.outcome() is None and len(pos.move_stack) < 300:
        seat = pos.turn
        moves = movegen.generate(pos)
        m = players[seat].move(pos)
        target = VARIANT.target_bits[seat]
        keys = [likely_key(x, target, DIST[seat]) for x in moves]
        if min(keys) != max(keys):
            seen[seat] += 1
            hits[seat] += likely_key(m, target, DIST[seat]) == max(keys)
        pos.push(m)
    return [(kinds[s], seen[s], hits[s]) for s in range(3)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=positive_int, default=20)
    ap.add_argument("--nodes", type=positive_int, default=1500)
    ap.add_argument("--jobs", type=positive_int, default=2)
    a = ap.parse_args()
    seen, hits = Counter(), Counter()
    with Pool(a.jobs) as pool:
        for rows in pool.imap_unordered(_game, [(i, a.nodes) for i in range(a.games)]):
            for kind, s, h in rows:
                seen[kind] += s
                hits[kind] += h
    for kind in sorted(seen):
        share = hits[kind] / seen[kind] if seen[kind] else 0.0
        print(f"{kind:20} choices {seen[kind]:5}  likeliest {hits[kind]:5}  ({share:.1%})")


if __name__ == "__main__":
    main()
