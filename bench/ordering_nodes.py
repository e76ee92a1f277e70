"""Nodes the searcher needs to complete a fixed depth on the `bench` positions, with each
move-ordering switch flipped in turn: what killers and history save, and what the table
move first and PVS (both off by default) would change.

    python bench/ordering_nodes.py 3
    python bench/ordering_nodes.py 4      # a few minutes
"""

from __future__ import annotations

import argparse

from canter.engine.search.bench import bench_positions
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher

SWITCHES = ({}, {"killers": 0}, {"history": 0}, {"ttmove": 1}, {"pvs": 1},
            {"killers": 0, "history": 0})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("depth", type=int, nargs="?", default=3)
    depth = ap.parse_args().depth
    base = None
    for off in SWITCHES:
        nodes = {2: 0, 3: 0}
        for pos in bench_positions():
            searcher = Searcher()
            searcher._search.options = dict(off)
            result = searcher.search(pos, Limits(depth=depth), lambda info: None, StopFlag())
            nodes[pos.variant.nseats] += result.info.nodes
        if base is None:
            base = nodes
        name = ",".join(f"{k}={v}" for k, v in off.items()) or "defaults"
        print(f"{name:30} camelot {nodes[2]:>9} ({100 * nodes[2] / base[2] - 100:+.1f} %)"
              f"   tri-camelot {nodes[3]:>9} ({100 * nodes[3] / base[3] - 100:+.1f} %)")


if __name__ == "__main__":
    main()
