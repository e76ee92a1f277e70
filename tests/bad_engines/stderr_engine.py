#!/usr/bin/env python3
"""A minimal engine that writes to stderr, for the client's stderr reader tests.

  --echo       write `debug: got <command>` to stderr on every command (as many engines do
               in a debug mode); a stderr write that fails (a reader that closed the
               pipe) ends the engine, as it would a real one
  --flood N    on each `isready`, write N lines of 99 `x` to stderr before `readyok`
  --last TEXT  on `quit`, write TEXT to stderr without a newline before exiting

Answers `uci`, `isready`, `go` (one info line, then `bestmove C6-C7`) and `quit`.
"""

from __future__ import annotations

import argparse
import sys


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--echo", action="store_true")
    ap.add_argument("--flood", type=int, default=0)
    ap.add_argument("--last")
    args = ap.parse_args()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if args.echo:
            sys.stderr.write(f"debug: got {line}")
            sys.stderr.flush()
        if words[0] == "uci":
            print("id name stderr engine\nuciok", flush=True)
        elif words[0] == "isready":
            if args.flood:
                sys.stderr.write(("x" * 99 + "\n") * args.flood)
                sys.stderr.flush()
            print("readyok", flush=True)
        elif words[0] == "go":
            print("info depth 1 score cp 0 pv C6-C7\nbestmove C6-C7", flush=True)
        elif words[0] == "quit":
            if args.last:
                sys.stderr.write(args.last)
                sys.stderr.flush()
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
