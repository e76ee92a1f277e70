"""Arbiter overhead per move: wall time of a game minus the time spent inside engines
(from writing `go` to reading `bestmove`), divided by the moves played. Goal: < 5 ms.

It covers everything the arbiter does around a search: building and writing the
`position` line, checking the move with the rules, the game-over test, clocks, the record.

    python bench/arbiter_overhead.py [--games 4] [--maxplies 120] [--variant camelot]
"""

from __future__ import annotations

import argparse
import sys
import time

from benchargs import positive_int

from canter.adapters.arbiter.engines import EngineSpec
from canter.adapters.arbiter.game import (
    Adjudication,
    EnginePool,
    Player,
    Settings,
    play_game,
)
from canter.adapters.arbiter.openings import Opening
from canter.adapters.arbiter.tc import TimeControl


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=positive_int, default=4)
    p.add_argument("--maxplies", type=positive_int, default=120)
    p.add_argument("--variant", default="camelot", choices=["camelot", "tri-camelot"])
    p.add_argument("--depth", type=positive_int, default=1)
    args = p.parse_args()
    seats = 2 if args.variant == "camelot" else 3
    control = TimeControl.parse("600+1").with_limits(depth=args.depth)
    players = [Player(EngineSpec([sys.executable, "-m", "canter"], name=f"canter-{i + 1}"),
                      control, 0.1) for i in range(seats)]
    settings = Settings(args.variant, Adjudication(maxplies=args.maxplies))
    pool = EnginePool(settings)
    for player in players:  # start-up is not per-move overhead
        pool.get(player)
    wall = inside = 0.0
    plies = 0
    try:
        for n in range(args.games):
            order = players[n % seats:] + players[:n % seats]
            started = time.perf_counter()
            result = play_game(n + 1, order, Opening(None), settings, pool)
            wall += time.perf_counter() - started
            inside += result.engine_time
            plies += result.plies
    finally:
        pool.close()
    per_move = (wall - inside) / plies * 1000
    print(f"{args.variant}: {args.games} games, {plies} moves, wall {wall:.2f} s, "
          f"inside engines {inside:.2f} s")
    print(f"arbiter overhead per move: {per_move:.2f} ms (goal < 5 ms)")


if __name__ == "__main__":
    main()
