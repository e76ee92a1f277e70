"""What a `canter match --cluster` coordinator costs per game, and games per minute with
1, 2 and 4 local workers at tiny node limits.

    python bench/cluster_overhead.py [--games 40] [--nodes 30] [--workers 1 2 4]

The coordinator runs in this process (the arbiter with its Dask client, and for `local:N`
the scheduler too), so `time.process_time()` around the run is its own CPU time: the
workers and engines are other processes. Cluster start-up is measured apart and left out
of the per-game cost. From the cost per game and the length of a game at a real time
control follows how many workers one coordinator can keep busy.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time
from contextlib import redirect_stdout

import benchargs  # noqa: F401  (first: this checkout's canter, not the installed one)

from canter.cli import main as canter

# A game at --tc 10+0.1 lasts at most two 10 s clocks plus 0.1 s a move, some 25 s for a
# game of 100 plies; 20 s is taken, on the safe side, to project how many workers one
# coordinator can keep busy at the time controls people test with.
REAL_GAME_SECONDS = 20.0


def run(workers: int, games: int, nodes: int) -> tuple[float, float, float]:
    """(wall seconds of the games, coordinator CPU seconds, start-up seconds)."""
    engine = f"cmd={sys.executable} -m canter"
    with tempfile.TemporaryDirectory() as folder:
        pgn = os.path.join(folder, "games.pgn")
        args = ["match", "--engine", f"{engine} name=a", "--engine", f"{engine} name=b",
                "--nodes", str(nodes), "--games", str(games), "--maxplies", "60",
                "--progress", "lines", "--pgn", pgn, "--cluster", f"local:{workers}"]
        out = io.StringIO()
        cpu0, wall0 = time.process_time(), time.monotonic()
        with redirect_stdout(out):
            try:
                canter(args, standalone_mode=False)
            except SystemExit as exc:
                if exc.code:
                    raise
        cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
        text = out.getvalue()
    first = next((line for line in text.splitlines() if line.startswith("Cluster ")), None)
    if first is None or f"Games played: {games} of {games}" not in text:
        raise SystemExit(f"the run failed:\n{text}")
    # start-up (the cluster coming up and going down), measured apart, is left out
    startup_wall, startup_cpu = _startup(workers)
    return wall - startup_wall, cpu - startup_cpu, startup_wall


def _startup(workers: int) -> tuple[float, float]:
    """Wall and coordinator CPU seconds of starting and closing a local cluster."""
    from canter.adapters.arbiter.cluster import connect

    cpu0, wall0 = time.process_time(), time.monotonic()
    conn = connect(f"local:{workers}")
    conn.close()
    return time.monotonic() - wall0, time.process_time() - cpu0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--nodes", type=int, default=30)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args()
    print(f"{args.games} games of Camelot at --nodes {args.nodes} (at most 60 plies), "
          f"{os.cpu_count()} cores")
    print(f"{'workers':>7} {'games/min':>10} {'s/game/worker':>14} "
          f"{'coordinator ms/game':>20} {'workers served at 10+0.1':>25}")
    for n in args.workers:
        wall, cpu, _ = run(n, args.games, args.nodes)
        cpu = max(cpu, 0.0)
        per_game = cpu / args.games
        served = REAL_GAME_SECONDS / per_game if per_game > 0 else float("inf")
        print(f"{n:>7} {args.games / wall * 60:>10.1f} {wall * n / args.games:>14.2f} "
              f"{per_game * 1000:>20.1f} {served:>25.0f}")


if __name__ == "__main__":
    main()
