"""In-process matches for the searcher (until `canter match` exists): against a random
mover, a one-ply greedy player, or itself with a feature switched off; and the three-seat
algorithm comparison over all seat assignments.

    python bench/selfplay.py --variant camelot --opponent random --games 100 --nodes 800
    python bench/selfplay.py --variant camelot --opponent greedy --games 100 --nodes 1500
    python bench/selfplay.py --variant camelot --opponent ablation --off qdepth=2 --games 200
    python bench/selfplay.py --variant tri-camelot --opponent random --games 60
    python bench/selfplay.py --variant tri-camelot --opponent algorithms --games 60
    python bench/selfplay.py --variant tri-camelot --opponent algorithms \
        --algorithms paranoid,brs,brs+ --games 240

Games are reproducible: the random and greedy players and the opening plies are seeded by
the game number; the searcher runs under a node limit, so it never looks at the clock.
Points: a win 1, a draw 1/2 (two seats) or 1/3 (three seats), a loss 0; in a team game
(Grand Cam) both partners of the winning team score 1, and a draw is 1/2 to every seat.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from multiprocessing import Pool

from benchargs import positive_int, search_options, variant

from canter.engine import Position, format_move, get_variant
from canter.engine.search.evaluate import _distances
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher

MAX_PLIES = 400


class RandomPlayer:
    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def move(self, pos: Position):
        return self.rng.choice(pos.legal_moves())


class GreedyPlayer:
    """One ply: a winning move if there is one, else the capture taking the most, else
    the move bringing its piece nearest the target castle (ties at random, seeded)."""

    name = "greedy"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.dist: dict = {}

    def move(self, pos: Position):
        v = pos.variant
        seat = pos.turn
        key = (v.name, seat)
        if key not in self.dist:
            self.dist[key] = _distances(v, v.target_castle[seat])
        dist = self.dist[key]
        best, best_val = [], None
        for m in pos.legal_moves():
            pos.push(m)
            out = pos.outcome()
            pos.pop()
            won = out is not None and out.wins_for(seat)  # a partner's win is ours too
            val = (won, m.capture_bits.bit_count(), dist[m.start] - dist[m.end])
            if best_val is None or val > best_val:
                best, best_val = [m], val
            elif val == best_val:
                best.append(m)
        return self.rng.choice(best)


class SearchPlayer:
    def __init__(self, nodes: int, algorithm: str = "paranoid", options: dict | None = None,
                 depth: int | None = None) -> None:
        self.searcher = Searcher()
        self.searcher.algorithm = algorithm
        self.searcher._search.options = dict(options or {})
        self.limits = Limits(nodes=nodes, depth=depth)
        self.name = f"search({algorithm}{',' + option_text(options) if options else ''})"

    def move(self, pos: Position):
        return self.searcher.search(pos, self.limits, lambda i: None, StopFlag()).best


def option_text(options: dict[str, int] | None) -> str:
    """Search options as they are typed (`qdepth=2,lmr=0`), for the result line."""
    return ",".join(f"{name}={value}" for name, value in (options or {}).items())


def play(variant: str, players: list, opening_seed: int, opening_plies: int,
         report: list | None = None) -> list[float]:
    """One game; returns points per seat. `report`, if given, receives the final position
    and the last moves (for --show-losses)."""
    pos = Position.start(get_variant(variant))
    n = pos.variant.nseats
    rng = random.Random(opening_seed)
    for _ in range(opening_plies):
        if pos.outcome() is not None:
            break
        pos.push(rng.choice(pos.legal_moves()))
    for p in players:
        if isinstance(p, SearchPlayer):
            p.searcher.clear()
    while pos.outcome() is None and len(pos.move_stack) < MAX_PLIES:
        pos.push(players[pos.turn].move(pos))
    out = pos.outcome()
    if report is not None:
        # the moves as a player writes them (a Move's repr is its route of cell numbers)
        last = [format_move(pos.variant, m) for m in pos.move_stack[-6:]]
        report.append(f"{out or 'unfinished'} after {len(pos.move_stack)} plies; "
                      f"last moves {' '.join(last)}\n{pos}")
    if out is None or out.winner is None:
        # a team game is drawn between two teams: each seat has half, as in two seats
        teams = len(set(pos.variant.team_of))
        return [1 / teams] * n
    # wins_for: in a team game the winner's partner has won too
    return [1.0 if out.wins_for(s) else 0.0 for s in range(n)]


def _job(args) -> tuple[int, list[float], str]:
    """(game index, points per seat, report) for one game of the match."""
    index, variant, kind, nodes, off, opening, base, algorithm, depth, algos = args
    n = get_variant(variant).nseats
    seed = 1000 + index
    if kind == "algorithms":
        combos = _assignments(n, algos)
        players = [_searcher(nodes, a) for a in combos[index % len(combos)]]
    else:
        me = index % n  # the searcher's seat rotates
        players = []
        for s in range(n):
            if s == me:
                players.append(SearchPlayer(nodes, algorithm, options=base, depth=depth))
            elif kind == "random":
                players.append(RandomPlayer(seed * 7 + s))
            elif kind == "greedy":
                players.append(GreedyPlayer(seed * 7 + s))
            else:  # ablation: the others are the searcher with a feature switched off
                players.append(SearchPlayer(nodes, algorithm, options=off))
    report: list = []
    points = play(variant, players, seed, opening, report)
    return index, points, report[0]


def _searcher(nodes: int, spec: str) -> SearchPlayer:
    """A tournament entrant: an algorithm, optionally with search options after a colon
    (`brs:oppk=3`)."""
    name, _, options = spec.partition(":")
    return SearchPlayer(nodes, name, options=search_options(options.replace("/", ",")))


def _assignments(n: int, algos: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every assignment of the algorithms to the seats in which all of them play (so every
    algorithm sits in every seat and turn position equally often), in a fixed order."""
    out = [()]
    for _ in range(n):
        out = [c + (a,) for c in out for a in algos]
    return [c for c in out if len(set(c)) == len(algos)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", type=variant, default="camelot")
    ap.add_argument("--opponent", choices=("random", "greedy", "ablation", "algorithms"),
                    default="random")
    ap.add_argument("--games", type=positive_int, default=100)
    ap.add_argument("--nodes", type=positive_int, default=1000)
    ap.add_argument("--algorithms", default="paranoid,brs",
                    help="--opponent algorithms: the three-seat searches that meet, each "
                         "with options after a colon if wanted (brs:oppk=3/qdepth=4)")
    ap.add_argument("--depth", type=positive_int, default=None,
                    help="also limit the tested searcher to this depth")
    ap.add_argument("--off", type=search_options, default={},
                    help="ablation: search options, e.g. qdepth=2")
    ap.add_argument("--opening", type=int, default=None,
                    help="random plies before the game (default 0 vs random, else 2)")
    ap.add_argument("--jobs", type=positive_int, default=2)
    ap.add_argument("--first", type=int, default=0, help="number of the first game")
    ap.add_argument("--base", type=search_options, default={},
                    help="search options of the tested build")
    ap.add_argument("--algorithm", default="paranoid", choices=("paranoid", "brs", "brs+"),
                    help="three-seat search of the tested build")
    ap.add_argument("--show-losses", action="store_true",
                    help="print how every game the searcher did not win ended")
    a = ap.parse_args(argv)
    off, base = a.off, a.base
    opening = a.opening if a.opening is not None else (0 if a.opponent == "random" else 2)
    n = get_variant(a.variant).nseats
    algos = tuple(a.algorithms.split(","))
    for spec in algos:  # checked here, not in a worker halfway through the games
        name, _, options = spec.partition(":")
        if name not in ("paranoid", "brs", "brs+", "maxn"):
            ap.error(f"--algorithms: no search '{name}' (paranoid, brs, brs+, maxn)")
        try:
            search_options(options.replace("/", ","))
        except argparse.ArgumentTypeError as exc:
            ap.error(f"--algorithms: {spec}: {exc}")
    # Every game seats every algorithm (_assignments): more of them than seats, or one named
    # twice, leaves no assignment at all, and the games would divide by zero.
    if a.opponent == "algorithms":
        if len(set(algos)) < len(algos):
            ap.error(f"--algorithms {a.algorithms}: an algorithm is named twice")
        if len(algos) > n:
            ap.error(f"--algorithms {a.algorithms}: {len(algos)} algorithms, but {a.variant} "
                     f"has {n} seats")
    jobs = [(i, a.variant, a.opponent, a.nodes, off, opening, base, a.algorithm, a.depth, algos)
            for i in range(a.first, a.first + a.games)]
    started = time.time()
    total = {algo: [0.0, 0] for algo in algos}
    score = wins = losses = 0.0
    with Pool(a.jobs) as pool:
        for index, points, report in pool.imap_unordered(_job, jobs):
            if a.opponent == "algorithms":
                combos = _assignments(n, algos)
                for s, algo in enumerate(combos[index % len(combos)]):
                    total[algo][0] += points[s]
                    total[algo][1] += 1
            else:
                p = points[index % n]
                score += p
                wins += p == 1.0
                losses += p == 0.0
                if a.show_losses and p < 1.0:
                    seat = get_variant(a.variant).seats[index % n].name
                    sys.stderr.write(f"\ngame {index} (searcher {seat}): {report}\n")
            sys.stderr.write(".")
            sys.stderr.flush()
    sys.stderr.write("\n")
    secs = time.time() - started
    if a.opponent == "algorithms":
        for algo, (pts, seats) in total.items():
            print(f"{algo}: {pts:.1f} points in {seats} seat-games ({100 * pts / seats:.1f} %)")
    else:
        alg = f" {a.algorithm}" if n > 2 else ""
        print(f"{a.variant} searcher({alg.strip() + ' ' if alg else ''}nodes={a.nodes}"
              f"{f' depth={a.depth}' if a.depth else ''}"
              f"{' ' + option_text(a.base) if a.base else ''})"
              f" vs {a.opponent}"
              f"{' ' + option_text(a.off) if a.off else ''}: {score:.1f}/{a.games} "
              f"({100 * score / a.games:.1f} %), +{wins:.0f} -{losses:.0f} "
              f"={a.games - wins - losses:.0f}")
    print(f"{secs:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
