"""How one-sided each opening of a two-seat book is in played games; a book of the others.

    python bench/book_balance.py RECORDS.pgn ... [--book FILE] [--edge 0.15]
        [--min-games 30] [--write FILE]

A strength test plays each opening twice, the engines swapping colours. An opening that
the first player (or the second) wins whoever plays it gives a split pair, one win each,
however strong either engine is: its two games tell the test nothing. Such openings only
make a test longer. This script reads the records of matches (the `{book}` moves of each
game are its opening) and prints, for each opening of the book, the games played from it,
the first player's score, and the share of its colour-swapped pairs (rounds 2k-1 and 2k)
that were split. An opening is **one-sided** when it has at least `--min-games` games and
the first player's score is below `--edge` or above 1 - `--edge`. With `--write`, the book
without its one-sided openings is written, in the book's order, with a header saying how
it was chosen. The book is the variant's built-in one unless `--book` names a file.

It also counts the *replays*: games of a file that repeat an earlier game of the same file
move for move, same players in the same seats. Engines that search by the clock still
replay much of the same game from the same start, so a book played more than once in each
seat spends games on repeats that add nothing to the evidence while the error bars shrink
as if they did.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import benchargs  # noqa: F401  (first: this checkout's canter, not the installed one)

from canter.adapters.arbiter.openings import Opening, load_book, load_openings
from canter.adapters.records.format import read_games_file
from canter.engine.rules.variant import VARIANT_NAMES

FIRST_WINS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


@dataclass
class Tally:
    games: int = 0
    first: float = 0.0  # the first player's points
    pairs: int = 0
    split: int = 0
    replays: int = 0  # games that repeat an earlier game of their file move for move

    @property
    def first_score(self) -> float:
        return self.first / self.games if self.games else 0.5


def opening_of(record) -> tuple[str, ...]:
    """The leading moves marked `{book}`: the opening the arbiter played."""
    moves = []
    for move, comment in zip(record.moves, record.comments, strict=False):
        if comment is None or comment.text != "book":
            break
        moves.append(move)
    return tuple(moves)


def tally(paths: list[str], variant: str) -> tuple[dict[tuple[str, ...], Tally], set[str]]:
    """Each opening's tally, and the time controls the games were played at."""
    out: dict[tuple[str, ...], Tally] = {}
    controls: set[str] = set()
    for path in paths:
        rounds: dict[int, tuple[tuple[str, ...], str]] = {}
        played: set[tuple] = set()
        for record in read_games_file(path, allow_unterminated=True):
            if record.tags.get("Variant", "").lower() != variant or record.tags.get("Position"):
                continue
            token = record.result
            if token not in FIRST_WINS:
                continue  # unfinished
            key = opening_of(record)
            controls.add(record.tags.get("TimeControl", "no clock"))
            t = out.setdefault(key, Tally())
            t.games += 1
            t.first += FIRST_WINS[token]
            game = (record.tags.get("White"), record.tags.get("Black"), tuple(record.moves))
            t.replays += game in played
            played.add(game)
            if record.tags.get("Round", "").isdigit():
                rounds[int(record.tags["Round"])] = (key, token)
        for number, (key, token) in rounds.items():
            partner = rounds.get(number + 1)
            if number % 2 == 1 and partner is not None and partner[0] == key:
                t = out[key]
                t.pairs += 1
                # The colours swap between the two games: a split pair is one won by the
                # same colour twice.
                t.split += token == partner[1] and token != "1/2-1/2"
    return out, controls


def one_sided(t: Tally, edge: float, min_games: int) -> bool:
    return t.games >= min_games and not edge <= t.first_score <= 1 - edge


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("records", nargs="+", help="game records (PGN-style) of two-seat matches")
    p.add_argument("--variant", default="camelot", choices=VARIANT_NAMES)
    p.add_argument("--book", help="the book the games were played from (default: built-in)")
    p.add_argument("--edge", type=float, default=0.15,
                   help="one-sided below this first-player score or above 1 minus it")
    p.add_argument("--min-games", type=int, default=30,
                   help="games an opening needs before it can be judged (default 30)")
    p.add_argument("--write", metavar="FILE", help="write the book without one-sided openings")
    args = p.parse_args(argv)
    if not 0 <= args.edge < 0.5:
        p.error("--edge must be at least 0 and below 0.5")
    if args.write:  # never one of the run's own inputs, and checked before the work
        from canter.adapters.files import OutputPathError, check_output_file, same_file

        for given in [*args.records, args.book]:
            if given and same_file(args.write, given):
                p.error(f"--write {args.write} is one of the inputs: writing it would "
                        "destroy it")
        try:
            check_output_file(args.write)
            # Only a book replaces a book: the first line of canter's openings files
            # (the built-in books, make_book.py's, this script's own) says what it is.
            from canter.adapters.files import check_own_file

            check_own_file(args.write, (b"# canter's ", *(f"# {v}: ".encode()
                                                        for v in VARIANT_NAMES)),
                           "an openings file (its first line '# canter's ...' or "
                           "'# VARIANT: ...')")
        except OutputPathError as exc:
            p.error(f"--write {exc}")
    try:
        book: list[Opening] = (load_openings(args.book, args.variant) if args.book
                               else load_book(args.variant))
        tallies, controls = tally(args.records, args.variant)
    except (OSError, ValueError) as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    if any(o.position is not None for o in book):
        print("Error: the book has position strings; only move openings are judged",
              file=sys.stderr)
        return 1
    games = sum(t.games for t in tallies.values())
    strangers = [k for k in tallies if k not in {o.moves for o in book}]
    print(f"{games:,} finished games in {len(args.records)} file(s); {len(book)} openings "
          f"in the book")
    if strangers:
        print(f"{len(strangers)} opening(s) of the records are not in the book; ignored")
    print(f"{'games':>5} {'first':>6} {'pairs':>5} {'split':>6}  opening")
    pairs = split = kept_pairs = kept_split = 0
    for o in sorted(book, key=lambda o: tallies.get(o.moves, Tally()).first_score):
        t = tallies.get(o.moves, Tally())
        dropped = one_sided(t, args.edge, args.min_games)
        share = f"{t.split / t.pairs:6.2f}" if t.pairs else f"{'-':>6}"
        print(f"{t.games:5d} {t.first_score:6.2f} {t.pairs:5d} {share}  {' '.join(o.moves)}"
              + ("   one-sided" if dropped else ""))
        pairs += t.pairs
        split += t.split
        if not dropped:
            kept_pairs += t.pairs
            kept_split += t.split
    kept: list[Opening] = [o for o in book if not one_sided(tallies.get(o.moves, Tally()),
                                                            args.edge, args.min_games)]
    if pairs:
        print(f"split pairs: {split} of {pairs} ({split / pairs:.1%}); without the one-sided "
              f"openings {kept_split} of {kept_pairs} ({kept_split / max(kept_pairs, 1):.1%})")
    print(f"one-sided: {len(book) - len(kept)} of {len(book)} openings")
    replays = sum(t.replays for t in tallies.values())
    print(f"replays: {replays} of {games:,} games repeat an earlier game of their file move "
          "for move")
    if args.write:
        header = [
            f"# {args.variant}: the {len(kept)} openings of {args.book or 'the built-in book'}"
            f" that were not one-sided in {games:,} games",
            f"# (time control {', '.join(sorted(controls))}; "
            f"{', '.join(Path(r).name for r in args.records)}), by bench/book_balance.py.",
            f"# One-sided: {args.min_games} games or more, and a first-player score below "
            f"{args.edge:g} or above {1 - args.edge:g}.",
        ]
        lines = header + [" ".join(o.moves) for o in kept]
        from canter.adapters.files import replace_file

        try:  # whole or not at all
            replace_file(args.write, "\n".join(lines) + "\n")
        except OSError as exc:
            print(f"Error: --write {args.write}: cannot be written ({exc.strerror})",
                  file=sys.stderr)
            return 1
        print(f"wrote {args.write} ({len(kept)} openings)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
