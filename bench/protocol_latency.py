"""Protocol latencies through real pipes: start -> uciok, isready during a search,
stop -> bestmove. Goals (issue 4): < 300 ms, < 50 ms, < 100 ms.

    python bench/protocol_latency.py [--runs N] [--cmd "canter"]

Each figure is measured N times (fresh process for start-up; a `go infinite` search of the
start position for the other two) and reported as median and worst.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import time


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
                                   "stop -> bestmove": []}
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
        p.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--cmd", default=None, help="engine command (default: python -m canter)")
    args = parser.parse_args()
    cmd = shlex.split(args.cmd) if args.cmd else [sys.executable, "-m", "canter"]
    results = measure(cmd, args.runs)
    print(f"engine: {' '.join(cmd)}   runs: {args.runs}")
    for name, values in results.items():
        ms = sorted(v * 1000 for v in values)
        print(f"{name:24s} median {statistics.median(ms):7.1f} ms   worst {ms[-1]:7.1f} ms")


if __name__ == "__main__":
    main()
