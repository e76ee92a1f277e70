"""Check the positions of a tactics suite again with a longer search: does the suite's
move stay best, by the suite's margins, when the engine thinks for a minute?

    python bench/recheck_tactics.py bench/tactics-camelot.txt --st 60 --sample 50 \
        --seed 1 --out tactics-camelot-60s.txt --seen camelot-60s.seen

The suites of bench/ were found by short searches (bench/find_tactics.py at 4 s, checked
at 8 s): a tactic a longer search refutes, or finds a second way to win, is not a tactic.
Each position (all of them, or --sample N drawn at random with --seed) gets one MultiPV-2
search of --st seconds, read as bench/find_tactics.py reads it. Its verdict is one of:

- `holds`: the suite's move is still best, at least --gain above the side's static
  standing and --gap above the second move. The line is written to --out in the suite
  format, with the gap, gain, score and depth of this search, `checked <st> s`, and the
  suite line's `source`.
- `other move M`: the longer search prefers M.
- `margins fell`: the move is still best but wins less than --gain or beats the second
  move by less than --gap (the gap and gain found are printed).
- `no reading`: the engine reported no two scored lines.

Every position checked is appended to --seen with its verdict, and positions already in
--out or --seen are skipped, so a stopped run goes on where it stopped (keep the same
--sample and --seed). `--part K/N` takes every N-th position of the draw, from the K-th:
N runs with parts 1/N to N/N, one per core, share one suite and may share --out and
--seen (each line is appended whole). Progress goes to standard error; the counts of
each verdict end the run on standard output.
"""

from __future__ import annotations

import argparse
import random
import shlex
import sys
import time
from collections import Counter

from benchargs import DEFAULT_ENGINE, check_outputs, engine_env, existing_path, positive_float
from find_tactics import already, read
from tactics import Entry, same_move, suite_entries

from canter.adapters.client import Engine


def chosen(count: int, sample: int, seed: int) -> list[int]:
    """The indices of the lines to check, in suite order: all, or `sample` of them drawn
    with `seed` (the same draw on every run, so that a run resumes)."""
    if sample <= 0 or sample >= count:
        return list(range(count))
    return sorted(random.Random(seed).sample(range(count), sample))


def to_check(lines: list[Entry], sample: int, seed: int, share: tuple[int, int],
             done: set[str]) -> list[Entry]:
    """The suite lines this run checks: the draw's indices in `share` (K, N), that is
    every N-th from the K-th, less the positions in `done`. A position listed twice is
    checked once, at its first line in the draw, whichever share that falls in."""
    k, n = share
    drawn = chosen(len(lines), sample, seed)
    first: dict[str, int] = {}
    for i in drawn:
        first.setdefault(lines[i][0], i)
    return [lines[i] for i in drawn
            if i % n == k - 1 and first[lines[i][0]] == i and lines[i][0] not in done]


def part(text: str) -> tuple[int, int]:
    """`K/N` as (K, N), with 1 <= K <= N."""
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not K/N, e.g. 1/2") from None
    if not 1 <= k <= n:
        raise argparse.ArgumentTypeError(f"{text!r}: K must be from 1 to N")
    return k, n


def main() -> None:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("suite", type=existing_path, help="a suite file (bench/tactics-*.txt)")
    parser.add_argument("--st", type=positive_float, default=60.0, help="seconds per position")
    parser.add_argument("--sample", type=int, default=0,
                        help="check this many positions drawn at random (0: all)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the --sample draw")
    parser.add_argument("--gain", type=int, default=100, help="centipawns won at least")
    parser.add_argument("--gap", type=int, default=100, help="over the second move, at least")
    parser.add_argument("--seen", default="",
                        help="file of checked positions: appended to, and skipped on resume")
    parser.add_argument("--part", type=part, default=(1, 1), metavar="K/N",
                        help="check only the K-th of N interleaved shares of the positions, "
                             "so that N runs on N cores share a suite (default 1/1)")
    parser.add_argument("--engine", default=DEFAULT_ENGINE,
                        help="the engine's command (default: this checkout's)")
    parser.add_argument("--out", required=True, help="where the lines that hold are written")
    args = parser.parse_args()
    if args.st <= 0:
        parser.error("--st must be above 0")
    if args.sample < 0:
        parser.error("--sample cannot be negative")

    check_outputs(parser, (("--out", args.out), ("--seen", args.seen)))
    lines = suite_entries(args.suite)
    todo = to_check(lines, args.sample, args.seed, args.part,
                    already(args.out) | already(args.seen))
    print(f"{args.suite}: {len(lines)} positions, checking {len(todo)} at {args.st:g} s",
          file=sys.stderr)
    verdicts: Counter[str] = Counter()
    depths: list[int] = []
    started = time.monotonic()
    with Engine.start(shlex.split(args.engine), search_margin=max(5.0, args.st),
                      env=engine_env(args.engine)) as engine:
        engine.configure({"MultiPV": 2})
        for index, (position, best, source) in enumerate(todo, start=1):
            reading = read(engine, position, args.st)
            if reading is None:
                kind, verdict = "no reading", "no reading"
            else:
                depths.append(reading.depth)
                if not same_move(position, reading.move, best):
                    kind, verdict = "other move", f"other move {reading.move}"
                elif not reading.holds(args.gain, args.gap):
                    kind = "margins fell"
                    verdict = f"margins fell (gap {reading.gap}, gain {reading.gain})"
                else:
                    kind = verdict = "holds"
                    with open(args.out, "a", encoding="utf-8") as f:
                        f.write(f"{position} bm {best} ; gap {reading.gap} ; gain "
                                f"{reading.gain} ; score {reading.first} ; depth "
                                f"{reading.depth} ; checked {args.st:g} s"
                                + (f" ; source {source}" if source else "") + "\n")
            verdicts[kind] += 1
            if args.seen:
                with open(args.seen, "a", encoding="utf-8") as f:
                    f.write(f"{position} ; {verdict} ; source {source}\n")
            spent = time.monotonic() - started
            print(f"[{index}/{len(todo)}] {source or position}: bm {best}: {verdict}"
                  f"{f', depth {reading.depth}' if reading else ''} ({spent:.0f} s)",
                  file=sys.stderr)
    checked = sum(verdicts.values())
    mean = sum(depths) / len(depths) if depths else 0.0
    held = verdicts["holds"]
    print(f"{args.suite.name}: {held} of {checked} hold at {args.st:g} s"
          f" ({100.0 * held / checked if checked else 0.0:.1f} %); other move "
          f"{verdicts['other move']}, margins fell {verdicts['margins fell']}, no reading "
          f"{verdicts['no reading']}; mean depth {mean:.1f}")


if __name__ == "__main__":
    main()
