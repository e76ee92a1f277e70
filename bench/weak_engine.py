"""A weak opponent for `canter match`: the canter protocol engine with its searcher
replaced by a random mover or the one-ply greedy player of bench/selfplay.py.

    canter match --engine "cmd=canter name=canter" \\
        --engine "cmd=python bench/weak_engine.py greedy name=greedy" --nodes 1500 --games 100

The seed is taken from the position (its hash), so a game is reproducible.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import benchargs  # noqa: F401  (first: this checkout's canter, not the installed one)
from selfplay import GreedyPlayer, RandomPlayer  # noqa: E402

import canter.engine.search.searcher as searcher_module  # noqa: E402
from canter.engine.search.limits import SearchInfo, SearchResult  # noqa: E402

KINDS = ("random", "greedy")
KIND = sys.argv[1] if len(sys.argv) > 1 else "random"
if KIND in ("-h", "--help"):
    print(__doc__.strip())
    print(f"\nusage: python bench/weak_engine.py [{'|'.join(KINDS)}] (default random)")
    sys.exit(0)
if KIND not in KINDS or len(sys.argv) > 2:
    sys.exit(f"weak_engine.py: error: expected one of {', '.join(KINDS)} (default random), "
             f"not {' '.join(sys.argv[1:])!r}")


class WeakSearcher(searcher_module.Searcher):
    def search(self, pos, limits, on_info, stop):
        moves = pos.legal_moves() if pos.outcome() is None else []
        if not moves:
            return SearchResult(None)
        player = (GreedyPlayer if KIND == "greedy" else RandomPlayer)(pos.hash)
        best = player.move(pos)
        info = SearchInfo(depth=1, seldepth=1, score_cp=0, nodes=len(moves), time=0.0,
                          pv=[best])
        on_info(info)
        return SearchResult(best, None, info)


searcher_module.Searcher = WeakSearcher

if __name__ == "__main__":
    from canter.protocol.main import run

    sys.argv = sys.argv[:1]
    sys.exit(run())
