"""Protocol latencies through real pipes: start -> uciok, isready during a search,
stop -> bestmove. Goals (issue 4): < 300 ms, < 50 ms, < 100 ms. And how long
`go movetime 100` takes to answer in a dense capture position, where making the list of
legal moves alone takes a few tenths of a second.

    python bench/protocol_latency.py [--runs N] [--cmd "canter"]

Each figure is measured N times (fresh process for start-up; a `go infinite` search of the
start position for the next two; then the dense position) and reported as median and
worst.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import time

from benchargs import positive_int

# Chivalry, White to move and bound to capture: 6,691 legal moves, made from many more
# routes (about 0.3 s to generate on the machine of docs/search.md).
DENSE = ("chivalry 2/bb6/1w4W3/bb4b1wb2/5BWwb5/6bb3b2/1bb1b2b6/3b1b3b1b2/1Bbbbb1B2B2b/"
         "7b4b1/1bw2b2bb4/1W3b1b2WB2/1Bbbb1bB4/2W6b/b6b/2 w 0,0 - - 0 0")


class Pipe:
    def __init__(self, cmd: list[str]) -> None:
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     bufsize=0)

    def send(self, text: str) -> float:
        self.proc.stdin.write((text + "\n").encode())
        self.proc.stdin.flush()
        return time.perf_counter()

    def until(self, prefix: str) -> float:
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"engine closed its output waiting for {prefix!r}")
            if line.startswith(prefix.encode()):
                return time.perf_counter()

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(10)


def measure(cmd: list[str], runs: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"start -> uciok": [], "isready during search": [],
                                   "stop -> bestmove": [], "dense: go movetime 100": []}
    for _ in range(runs):
        p = Pipe(cmd)
        p.send("uci")
        out["start -> uciok"].append(p.until("uciok") - p.started)
        p.send("isready")
        p.until("readyok")
        p.send("position startpos")
        p.send("go infinite")
        time.sleep(0.3)  # let the search get going (tables allocated, deep in the tree)
        sent = p.send("isready")
        out["isready during search"].append(p.until("readyok") - sent)
        time.sleep(0.2)
        sent = p.send("stop")
        out["stop -> bestmove"].append(p.until("bestmove") - sent)
        p.send(f"position {DENSE}")
        p.send("isready")
        p.until("readyok")
        sent = p.send("go movetime 100")
        out["dense: go movetime 100"].append(p.until("bestmove") - sent)
        p.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=positive_int, default=10)
    parser.add_argument("--cmd", default=None, help="engine command (default: python -m canter)")
    args = parser.parse_args()
    cmd = shlex.split(args.cmd) if args.cmd else [sys.executable, "-m", "canter"]
    try:
        results = measure(cmd, args.runs)
    except OSError as error:  # a command that cannot be started
        raise SystemExit(f"Error: --cmd {' '.join(cmd)}: {error.strerror or error}") from None
    print(f"engine: {' '.join(cmd)}   runs: {args.runs}")
    for name, values in results.items():
        ms = sorted(v * 1000 for v in values)
        print(f"{name:24s} median {statistics.median(ms):7.1f} ms   worst {ms[-1]:7.1f} ms")


if __name__ == "__main__":
    main()
