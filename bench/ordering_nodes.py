"""Nodes the searcher needs to complete a fixed depth on the `bench` positions, with each
move-ordering switch off in turn: what killers, history, the table move and PVS save.

    python bench/ordering_nodes.py 3
    python bench/ordering_nodes.py 4      # a few minutes
"""

from __future__ import annotations

import argparse

from canter.engine.bench import bench_positions
from canter.engine.limits import Limits, StopFlag
from canter.engine.searcher import Searcher

SWITCHES = ({}, {"killers": 0}, {"history": 0}, {"ttmove": 0}, {"pvs": 0},
            {"killers": 0, "history": 0, "ttmove": 0})


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
        name = ",".join(f"{k}=0" for k in off) or "all on"
        print(f"{name:30} camelot {nodes[2]:>9} ({100 * nodes[2] / base[2] - 100:+.1f} %)"
              f"   tri-camelot {nodes[3]:>9} ({100 * nodes[3] / base[3] - 100:+.1f} %)")


if __name__ == "__main__":
    main()
