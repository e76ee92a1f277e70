"""Depth completed in a fixed time (default 1 s) from the start positions and from the
bench positions of Camelot and Tri-Camelot.

    python bench/depth_in_time.py [seconds] [--switch NAME=VALUE ...]

Each position is searched without a time manager (`infinite`, stopped by a timer), from a
cleared table, so the figure is what the search completes in that time, not what the time
manager would choose to start. The depth reported is the last iteration finished within
the time; the time each iteration finished is printed too. `--switch` sets a search switch
(`lmr=0`, `prune=0`, `pvs=0`, `ttmove=0`, `entry_ext=0`, `extend=0`: docs/search.md) to
compare builds of the search in one run.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time

from benchargs import positive_float, search_option

from canter.engine.search.bench import BENCH_LINES, bench_positions
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher

VARIANTS = ("camelot", "tri-camelot")


def depth_in(pos, seconds: float, options: dict, algorithm: str = "paranoid"):
    """(depth completed, nodes, [(depth, seconds)]) of an infinite search cut at `seconds`."""
    searcher = Searcher()
    searcher.algorithm = algorithm
    searcher._search.options.update(options)
    finished: list[tuple[int, float, int]] = []
    started = time.monotonic()

    def on_info(info) -> None:
        if info.depth and (not finished or info.depth > finished[-1][0]):
            finished.append((info.depth, time.monotonic() - started, info.nodes or 0))

    stop = StopFlag()
    timer = threading.Timer(seconds, stop.set)
    timer.start()
    try:
        searcher.search(pos, Limits(infinite=True), on_info, stop)
    finally:
        timer.cancel()
    inside = [f for f in finished if f[1] <= seconds]
    depth, _, nodes = inside[-1] if inside else (0, 0.0, 0)
    return depth, nodes, [(d, t) for d, t, _ in finished]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seconds", nargs="?", type=positive_float, default=1.0,
                        help="search time per position (default 1)")
    parser.add_argument("--switch", type=search_option, action="append", default=[],
                        help="a search switch NAME=VALUE (repeatable)")
    args = parser.parse_args()
    options = dict(args.switch)
    positions = bench_positions()
    for variant in VARIANTS:
        depths = []
        for (name, line), pos in zip(BENCH_LINES, positions, strict=True):
            if name != variant:
                continue
            plies = len(line) if isinstance(line, list) else line
            where = f"after {plies} plies" if plies else "start"
            depth, nodes, marks = depth_in(pos, args.seconds, options)
            depths.append(depth)
            times = " ".join(f"d{d}:{t:.2f}s" for d, t in marks)
            print(f"{variant:12} {where:16} depth {depth}  nodes {nodes:7}  ({times})",
                  flush=True)
        print(f"{variant:12} mean depth {statistics.mean(depths):.1f}, "
              f"least {min(depths)}", flush=True)


if __name__ == "__main__":
    main()
