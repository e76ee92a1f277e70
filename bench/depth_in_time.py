"""Depth completed from each start position in a fixed time (default 1 s).

    python bench/depth_in_time.py [seconds]
"""

from __future__ import annotations

import argparse
import time

from canter.engine import Position
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seconds must be a number, not {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"seconds must be more than 0, not {text}")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seconds", nargs="?", type=positive_seconds, default=1.0,
                        help="search time per start position and algorithm (default 1)")
    seconds = parser.parse_args().seconds
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
