"""How long the pair-race tables take to build, per game and seat (race.py).

    python bench/race_tables.py            # every game, best of 5 builds
    python bench/race_tables.py --runs 20 camelot chivalry

The tables are built once per process, at the engine's first `isready` (or the first ending
a search scores): their time is paid before a game, and a slow build is a slow start.
"""

from __future__ import annotations

import argparse
import time

from benchargs import positive_int
from benchargs import variant as variant_name

from canter.engine import get_variant
from canter.engine.rules.variant import VARIANT_NAMES
from canter.engine.search.race import PairRace


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("games", nargs="*", type=variant_name, default=list(VARIANT_NAMES))
    p.add_argument("--runs", type=positive_int, default=5,
                   help="builds per table; the best counts")
    a = p.parse_args(argv)
    print(f"{'game':<12} {'seat':>4} {'ms':>8}")
    for name in a.games:
        variant = get_variant(name)
        total = 0.0
        for seat in range(variant.nseats):
            best = float("inf")
            for _ in range(max(1, a.runs)):
                started = time.perf_counter()
                PairRace(variant, seat)
                best = min(best, time.perf_counter() - started)
            total += best
            print(f"{name:<12} {seat:>4} {1000 * best:8.1f}")
        print(f"{name:<12} {'all':>4} {1000 * total:8.1f}")


if __name__ == "__main__":
    main()
