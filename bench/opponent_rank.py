"""How well the three-seat opponent model predicts the moves searchers really play.

    python bench/opponent_rank.py RECORDS.pgn ... [--games N] [--static]

The paranoid search tries only each opponent's `Three Seat Opponent Moves` likeliest moves
(castle entry, then pieces taken, then steps gained: `opponents.likely_key`). A reply it
never tries is a reply it cannot see coming. This reads Tri-Camelot game records (the
arbiter's, at real time controls) and, at every move an engine searched (a move with a
score comment; book moves have none) where the mover had more than one legal move, ranks
the move played among the legal moves by that key, ties broken as the search breaks them.
It prints the share of moves that were in the top k, for k = 1 to 12: the share of real
replies a search with `Three Seat Opponent Moves` = k would have tried.

`--static` ranks the moves a second way as well, by the mover's static score after each
move (`Evaluator.relative`, a won game first): what a one-ply reader, costing an
evaluation per legal move at every opponent node, would predict.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from benchargs import existing_file, game_records

from canter.adapters.records.format import ReplayError, game_positions
from canter.engine import get_variant
from canter.engine.search.evaluate import Evaluator, _distances
from canter.engine.search.opponents import likely_key

VARIANT = get_variant("tri-camelot")
DIST = [_distances(VARIANT, VARIANT.target_castle[s]) for s in range(VARIANT.nseats)]
TOP = 12


def key_order(legal: list, seat: int) -> list[int]:
    """Indices of `legal`, likeliest first, as `common.likeliest` keeps them (a later move
    of the generator's order wins a tie)."""
    target = VARIANT.target_bits[seat]
    keyed = sorted(((likely_key(m, target, DIST[seat]), i) for i, m in enumerate(legal)),
                   reverse=True)
    return [i for _, i in keyed]


def static_order(pos, legal: list, seat: int, ev: Evaluator) -> list[int]:
    """Indices of `legal` by the mover's static score after each move, a win first."""
    scored = []
    for i, m in enumerate(legal):
        pos.push(m)
        ended = pos.outcome()
        score = 1 << 30 if ended is not None and ended.wins_for(seat) else ev.relative(pos, seat)
        pos.pop()
        scored.append((score, i))
    scored.sort(reverse=True)
    return [i for _, i in scored]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", type=existing_file, help="Tri-Camelot game records")
    parser.add_argument("--games", type=int, default=0, help="read at most N games (0: all)")
    parser.add_argument("--static", action="store_true",
                        help="also rank by the static score after each move (slow)")
    args = parser.parse_args(argv)
    ev = Evaluator(VARIANT)
    by_key: Counter[int] = Counter()
    by_static: Counter[int] = Counter()
    seen = games = legal_total = 0
    for path in args.records:
        for record in game_records(path):
            if args.games and games >= args.games:
                break
            try:
                if record.variant != VARIANT.name:
                    continue
            except ValueError:  # a Variant tag of no game canter knows: not Tri-Camelot
                continue
            try:
                start, moves, _ = game_positions(record)
            except ReplayError as exc:
                print(f"{path}:{record.line}: skipped: {exc}", file=sys.stderr)
                continue
            games += 1
            pos = start.copy()
            for move, comment in zip(moves, record.comments, strict=True):
                legal = pos.legal_moves()
                if comment is not None and len(legal) > 1:
                    played = legal.index(move)
                    by_key[key_order(legal, pos.turn).index(played)] += 1
                    if args.static:
                        by_static[static_order(pos, legal, pos.turn, ev).index(played)] += 1
                    seen += 1
                    legal_total += len(legal)
                pos.push(move)
    if not seen:
        print("no searched Tri-Camelot moves with a choice in these records", file=sys.stderr)
        return 1
    print(f"{games} games, {seen} searched moves with a choice, "
          f"{legal_total / seen:.1f} legal moves on average")
    print("k       " + " ".join(f"{k:>5}" for k in range(1, TOP + 1)))
    rows = [("key", by_key)] + ([("static", by_static)] if args.static else [])
    for name, ranks in rows:
        shares, acc = [], 0
        for k in range(TOP):
            acc += ranks[k]
            shares.append(f"{100 * acc / seen:4.1f}%")
        print(f"{name:<8}" + " ".join(shares))
    return 0


if __name__ == "__main__":
    sys.exit(main())
