"""Time to depth and nodes per second with Threads = 1, 2, ... over the bench positions.

    python bench/threads.py                       # Threads 1 and 2, depth 4 (Tri-Camelot 5)
    python bench/threads.py --threads 1,2,3,4 --depth 3 --tri-depth 4 --rounds 2

Each position is searched from a cleared table to a fixed depth (the main search's depth;
helpers run ahead of it) by a searcher with the given Threads, helpers started beforehand
(a `go` finds them running). Per Threads value it prints, summed over the positions:
wall seconds to the depth, nodes of all processes and their rate, the main process's nodes,
and two speed-ups against Threads 1:

- `wall`: time to depth on this machine as it is (2 cores, shared with other work);
- `main`: Threads 1's nodes to the depth over the main process's nodes to the same depth.
  The main process searches at one process's speed whenever every process has a core of
  its own, so this is the time-to-depth speed-up on a machine with a core per process.
  With more processes than cores (3 or 4 here), every process runs slower in the same
  proportion, and the node counts, not the wall time, say what more cores would give.

The load average is printed with every run: other work on the machine changes the figures
(docs/search.md, "Threads").
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchargs import positive_int, search_option

from canter.engine.search.bench import BENCH_LINES, bench_positions  # noqa: E402
from canter.engine.search.limits import Limits, StopFlag  # noqa: E402
from canter.engine.search.searcher import Searcher  # noqa: E402


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run(threads: int, positions: list, depths: list[int],
        switches: dict) -> tuple[float, int, int, list]:
    searcher = Searcher()
    searcher.threads = threads
    searcher._search.options.update(switches)
    warm = positions[0]
    searcher.search(warm.copy(), Limits(depth=1), lambda i: None, StopFlag())  # fork now
    wall = 0.0
    total = main = 0
    rows = []
    for pos, depth in zip(positions, depths, strict=True):
        searcher.clear()
        last = []
        started = time.perf_counter()
        searcher.search(pos.copy(), Limits(depth=depth), last.append, StopFlag())
        seconds = time.perf_counter() - started
        info = [i for i in last if i.depth == depth][-1]
        inner = searcher._smp if threads > 1 and searcher._smp is not None else searcher._search
        wall += seconds
        total += info.nodes
        main += inner.nodes
        rows.append((seconds, info.nodes, inner.nodes))
    searcher.close()
    return wall, total, main, rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--threads", default="1,2", help="Threads values, comma-separated")
    ap.add_argument("--depth", type=positive_int, default=4,
                    help="depth for the two-seat positions")
    ap.add_argument("--tri-depth", type=positive_int, default=5, help="depth for Tri-Camelot")
    ap.add_argument("--rounds", type=positive_int, default=1,
                    help="runs of every Threads value, "
                    "interleaved (1 2 1 2 ...) so that load changes hit both alike")
    ap.add_argument("--all", action="store_true", help="every bench position, not only the "
                    "Camelot and Tri-Camelot ones")
    ap.add_argument("--rows", action="store_true", help="one line per position too")
    ap.add_argument("--switch", type=search_option, action="append", default=[],
                    metavar="NAME=VALUE",
                    help="a search switch (Search.options), e.g. smp=2 for the helpers")
    args = ap.parse_args()
    switches = dict(args.switch)
    try:
        counts = [positive_int(t) for t in args.threads.split(",")]
    except argparse.ArgumentTypeError as exc:
        ap.error(f"--threads: {exc} (Threads values, comma-separated, e.g. 1,2)")
    if max(counts) > 64:
        ap.error("--threads: at most 64 (the engine's Threads option)")
    names = [name for name, _ in BENCH_LINES]
    chosen = [i for i, n in enumerate(names) if args.all or n in ("camelot", "tri-camelot")]
    positions = [bench_positions()[i] for i in chosen]
    depths = [args.tri_depth if names[i] == "tri-camelot" else args.depth for i in chosen]
    print(f"{len(positions)} positions, depth {args.depth} (Tri-Camelot {args.tri_depth}), "
          f"{os.cpu_count()} cores")
    results: dict[int, list] = {t: [] for t in counts}
    for r in range(args.rounds):
        for t in counts:
            before = load()
            wall, total, main_nodes, rows = run(t, positions, depths, switches)
            results[t].append((wall, total, main_nodes))
            print(f"round {r + 1} threads {t}: wall {wall:.2f} s, nodes {total}, "
                  f"nps {total / wall:.0f}, main nodes {main_nodes}  "
                  f"(load {before} -> {load()})", flush=True)
            if args.rows:
                for (s, n, m), i in zip(rows, chosen, strict=True):
                    print(f"    {names[i]:12} {s:7.2f} s  nodes {n:8}  main {m:8}")
    base_wall = sum(w for w, _, _ in results[counts[0]])
    base_main = sum(m for _, _, m in results[counts[0]])
    print()
    print("threads | wall s | nodes | nps | main nodes | speed-up wall | speed-up main")
    for t in counts:
        wall = sum(w for w, _, _ in results[t])
        total = sum(n for _, n, _ in results[t])
        main_nodes = sum(m for _, _, m in results[t])
        print(f"{t} | {wall:.2f} | {total} | {total / wall:.0f} | {main_nodes} | "
              f"{base_wall / wall:.2f} | {base_main / main_nodes:.2f}")


if __name__ == "__main__":
    main()
