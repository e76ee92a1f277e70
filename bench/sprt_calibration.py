"""How often the arbiter's SPRT decides wrongly, by simulated matches.

    python bench/sprt_calibration.py [--elo0 0] [--elo1 5] [--draws 0.3] [--runs 400]

Each run plays simulated game pairs (two independent games each, a win, draw or loss
drawn from the logistic Elo model with the given draw rate) until `sprt` over the
pentanomial counts decides, once with the true Elo at elo0 and once at elo1. It prints
the share of runs that accepted the wrong hypothesis (nominal: alpha at elo0, beta at
elo1) and the median pairs to a decision. A run still undecided after `--max-pairs` is
counted apart.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from benchargs import number_where, positive_int, share

from canter.adapters.arbiter.stats import score_from_elo, sprt


def game_probs(elo: float, draws: float) -> tuple[float, float, float]:
    """(win, draw, loss) with the given draw rate and mean score of `elo`."""
    score = score_from_elo(elo)
    win = score - draws / 2
    if not 0 <= win <= 1 - draws:
        raise SystemExit(f"Error: a draw rate of {draws} cannot give Elo {elo}")
    return win, draws, 1 - win - draws


def one_run(rng: random.Random, probs, args) -> tuple[str | None, int]:
    penta = [0, 0, 0, 0, 0]
    win, draw, _ = probs
    for pairs in range(1, args.max_pairs + 1):
        points = 0
        for _ in range(2):
            x = rng.random()
            points += 2 if x < win else 1 if x < win + draw else 0
        penta[points] += 1
        result = sprt(args.elo0, args.elo1, args.alpha, args.beta, penta=penta)
        if result.decision:
            return result.decision, pairs
    return None, args.max_pairs


def elo(text: str) -> float:
    """A finite Elo difference."""
    return number_where(text, math.isfinite, "an Elo difference")


def probability(text: str) -> float:
    """An error rate strictly between 0 and 1 (0 or 1 would make a bound infinite)."""
    return number_where(text, lambda v: 0.0 < v < 1.0, "a number between 0 and 1")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--elo0", type=elo, default=0.0)
    parser.add_argument("--elo1", type=elo, default=5.0)
    parser.add_argument("--alpha", type=probability, default=0.05)
    parser.add_argument("--beta", type=probability, default=0.05)
    parser.add_argument("--draws", type=share, default=0.3,
                        help="draw rate per game, from 0 to below 1")
    parser.add_argument("--runs", type=positive_int, default=400, help="runs per hypothesis")
    parser.add_argument("--max-pairs", type=positive_int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.elo0 >= args.elo1:  # the SPRT tells elo0 from a higher elo1, no other way
        parser.error(f"--elo0 ({args.elo0:g}) must be below --elo1 ({args.elo1:g})")
    rng = random.Random(args.seed)
    for true, wrong, nominal in ((args.elo0, "H1", args.alpha), (args.elo1, "H0", args.beta)):
        probs = game_probs(true, args.draws)
        outcomes = [one_run(rng, probs, args) for _ in range(args.runs)]
        wrongs = sum(1 for d, _ in outcomes if d == wrong)
        open_ = sum(1 for d, _ in outcomes if d is None)
        median = statistics.median(p for _, p in outcomes)
        print(f"true Elo {true:+g}: accepted {wrong} in {wrongs} of {args.runs} runs "
              f"({100 * wrongs / args.runs:.1f} %, nominal {100 * nominal:.0f} %); "
              f"median {median:g} pairs; undecided {open_}", flush=True)


if __name__ == "__main__":
    main()
