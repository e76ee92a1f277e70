"""How late each loser of a two-seat match saw its loss coming, from the scores it reported.

    python bench/late_losses.py RECORDS.pgn ... [--below -1.0] [--within 8] [--show 5]

For every decided game the loser's own reported scores (the `{+0.34/5 0.2s}` comments the
arbiter writes) are read backwards from the end: the *warning* is the number of plies
between the loser's last move scored above `--below` (in Men; a loss in N moves counts as
below) and the end of the game. A short warning means the loss lay beyond the loser's
search and its evaluation did not foresee it either: where most such games come from (few
pieces left, say: the castle races of an ending) is where the evaluation needs knowledge.

Prints the games by warning (plies, in bins of four), then per loser: games lost, lost with
a warning of at most `--within` plies, and the pieces on the board at that last hopeful
move (replayed with the rules library). `--show N` prints the last moves and scores of the
first N such games, for reading them on a board (`canter show`).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass

import benchargs  # noqa: F401  (first: this checkout's canter, not the installed one)

from canter.adapters.records.format import (
    GameRecord,
    ReplayError,
    game_positions,
    read_games_file,
)

LOSER_INDEX = {"1-0": 1, "0-1": 0}  # the loser's seat (its moves are found by replaying)


@dataclass(frozen=True)
class LateLoss:
    record: GameRecord
    loser: str
    warning: int  # plies from the loser's last hopeful move to the end
    last_hopeful: int | None  # that move's index in the game's moves (None: never hopeful)
    pieces: int | None  # pieces on the board before that move


def score_in_men(text: str) -> float:
    if text.startswith("#"):
        return -1e9 if text.startswith("#-") else 1e9
    return float(text)


def late_loss(record: GameRecord, below: float) -> LateLoss | None:
    """The game's loser and its warning, or None for a game not won by a side."""
    seat = LOSER_INDEX.get(record.result)
    if seat is None:
        return None
    loser = record.tags.get("White" if seat == 0 else "Black", "?")
    start, moves, _ = game_positions(record)
    pos = start.copy()
    hopeful = pieces = None
    for i, move in enumerate(moves):
        comment = record.comments[i] if i < len(record.comments) else None
        # Book moves have no score; an unscored move says nothing either way.
        if pos.turn == seat and comment is not None and comment.score is not None \
                and score_in_men(comment.score) > below:
            hopeful = i
            pieces = sum(bits.bit_count() for bits in pos.occ)
        pos.push(move)
    warning = len(moves) - (hopeful if hopeful is not None else 0)
    return LateLoss(record, loser, warning, hopeful, pieces)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", help="game records of two-seat matches")
    parser.add_argument("--below", type=float, default=-1.0,
                        help="a score above this (in Men) is hopeful (default -1.0)")
    parser.add_argument("--within", type=int, default=8,
                        help="a warning of at most this many plies is late (default 8)")
    parser.add_argument("--show", type=int, default=0, metavar="N",
                        help="print the end of the first N late losses")
    args = parser.parse_args(argv)
    losses: list[LateLoss] = []
    for path in args.records:
        try:
            games = read_games_file(path, allow_unterminated=True)
        except (OSError, ValueError) as exc:
            print(f"Error: {path}: {exc}", file=sys.stderr)
            return 1
        for record in games:
            try:
                loss = late_loss(record, args.below)
            except ReplayError as exc:
                print(f"{path}: game at line {record.line} left out: {exc}", file=sys.stderr)
                continue
            if loss is not None:
                losses.append(loss)
    if not losses:
        print("no decided games in the records")
        return 0
    median = statistics.median(x.warning for x in losses)
    print(f"{len(losses)} decided games; warning (plies from the loser's last move scored "
          f"above {args.below:+.2f} to the end), median {median}")
    bins = Counter(min(x.warning // 4 * 4, 40) for x in losses)
    for low in sorted(bins):
        label = f"{low}-{low + 3}" if low < 40 else "40+"
        print(f"  {label:>6} plies: {bins[low]:4d} {'#' * bins[low]}")
    late = [x for x in losses if x.warning <= args.within]
    by_loser: dict[str, list[LateLoss]] = defaultdict(list)
    for x in losses:
        by_loser[x.loser].append(x)
    print(f"lost with a warning of at most {args.within} plies:")
    for name in sorted(by_loser):
        mine = [x for x in by_loser[name] if x.warning <= args.within]
        pieces = [x.pieces for x in mine if x.pieces is not None]
        few = sum(p <= 10 for p in pieces)
        print(f"  {name}: {len(mine)} of {len(by_loser[name])} losses"
              + (f"; pieces on the board then: median {statistics.median(pieces)}, "
                 f"{few} with at most 10" if pieces else ""))
    for x in late[:args.show]:
        r = x.record
        print(f"\nround {r.tags.get('Round', '?')}: {x.loser} lost ({r.tags.get('Reason', '')})")
        for i in range(max(0, len(r.moves) - x.warning - 2), len(r.moves)):
            comment = r.comments[i] if i < len(r.comments) else None
            print(f"  {i + 1:4d} {r.moves[i]:<24} {comment.render() if comment else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
