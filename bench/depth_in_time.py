"""Depth completed from each start position in a fixed time (default 1 s).

    python bench/depth_in_time.py [seconds]
"""

from __future__ import annotations

import sys
import time

from canter.engine import Position
from canter.engine.limits import Limits, StopFlag
from canter.engine.searcher import Searcher


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    for variant, algorithms in (("camelot", ("alpha-beta",)),
                                ("tri-camelot", ("paranoid", "brs"))):
        for algorithm in algorithms:
            searcher = Searcher()
            if algorithm != "alpha-beta":
                searcher.algorithm = algorithm
            infos = []
            started = time.monotonic()
            result = searcher.search(Position.start(variant), Limits(movetime=seconds),
                                     infos.append, StopFlag())
            elapsed = time.monotonic() - started
            depth = max(i.depth or 0 for i in infos)
            nodes = result.info.nodes
            print(f"{variant:12} {algorithm:10} depth {depth}  nodes {nodes:6}  "
                  f"{elapsed:.2f} s  {nodes / elapsed:.0f} nps")


if __name__ == "__main__":
    main()
