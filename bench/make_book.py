"""Write an opening book: distinct random starts that a search finds level.

    python bench/make_book.py cam > canter/adapters/arbiter/books/cam.txt
    python bench/make_book.py grand-cam 100 > bench/openings-grand-cam-4ply.txt
    python bench/make_book.py camelot 600 --plies 2 --jobs 2 > bench/openings-camelot-2ply.txt

The built-in books are 2-ply starts (4 in Grand Cam: a move of each seat). A long match
needs more openings than those: engines that search by the clock still replay much the same
game from the same start, so a book smaller than half the games spends games on repeats
(docs/search.md, "Openings").

Starts are drawn with a fixed seed (so the book is reproducible) and kept only when the game
is still on and a fixed-depth search of the position finds no forced win and less than a
Man's edge for either side: on the small boards some random starts are already lost, and a
lost start makes a match measure the book, not the players.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import random
import sys
from collections.abc import Callable, Iterator

import benchargs

from canter.engine import Position, format_move, parse_move
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher

COUNT = 50
PLIES = 2
# Grand Cam: one round, a move of each of the four seats.
PLIES_OF = {"grand-cam": 4}
DEPTH = {"cam": 5, "camette": 7, "chivalry": 3, "grand-cam": 4}
EDGE = 100  # centipawns: a Man
EXHAUSTED = 10_000  # repeated draws in a row after which no new start is looked for


def level(pos: Position, depth: int, searcher: Searcher) -> bool:
    searcher.clear()
    last: list = []
    result = searcher.search(pos, Limits(depth=depth), last.append, StopFlag())
    info = result.info or (last[-1] if last else None)
    if info is None:
        return False
    return info.score_win is None and abs(info.score_cp or 0) < EDGE


def candidates(variant: str, plies: int, seed: str) -> Iterator[list[str]]:
    """Distinct random starts of `plies` plies, in the order the seed gives them."""
    rng = random.Random(seed)
    seen: set[tuple[str, ...]] = set()
    misses = 0
    # Draws that only repeat starts already seen: past this many in a row, the starts
    # are taken to be all found (a short game or few plies has few), and the run ends.
    while misses < max(EXHAUSTED, 20 * len(seen)):
        pos = Position.start(variant)
        line = []
        for _ in range(plies):
            if pos.outcome() is not None:
                break
            moves = sorted(pos.legal_moves(), key=lambda m: format_move(pos.variant, m))
            move = rng.choice(moves)
            line.append(format_move(pos.variant, move))
            pos.push(move)
        key = tuple(line)
        if key in seen:
            misses += 1
            continue
        misses = 0
        seen.add(key)
        yield line


_worker: tuple[str, int, Searcher] | None = None


def _start_worker(variant: str, depth: int) -> None:
    global _worker
    _worker = (variant, depth, Searcher())


def _checked(line: list[str]) -> tuple[list[str], bool]:
    """The start, and whether the game is still on there and level (in a worker)."""
    assert _worker is not None
    variant, depth, searcher = _worker
    pos = Position.start(variant)
    for text in line:
        pos.push(parse_move(pos, text))
    return line, pos.outcome() is None and level(pos, depth, searcher)


def book(variant: str, count: int = COUNT, plies: int | None = None,
         depth: int | None = None, jobs: int = 1,
         progress: Callable[[int, int], None] | None = None) -> list[list[str]]:
    """The first `count` level starts of the seeded sequence: the same book whatever `jobs`
    (the searches are checked in the sequence's order). `progress(kept, examined)` is
    called after each start checked."""
    if plies is None:
        plies = PLIES_OF.get(variant, PLIES)
        seed = f"canter-book-{variant}"  # the built-in books' seed, so they stay reproducible
    else:
        seed = f"canter-book-{variant}-{plies}"
    depth = depth or DEPTH.get(variant, 3)
    out: list[list[str]] = []
    lines = candidates(variant, plies, seed)
    with contextlib.ExitStack() as stack:
        if jobs <= 1:
            _start_worker(variant, depth)
            checked: Iterator[tuple[list[str], bool]] = map(_checked, lines)
        else:
            pool = stack.enter_context(
                multiprocessing.Pool(jobs, _start_worker, (variant, depth)))
            checked = pool.imap(_checked, lines, chunksize=2)
        for examined, (line, ok) in enumerate(checked, 1):
            if ok:
                out.append(line)
            if progress is not None:
                progress(len(out), examined)
            if len(out) == count:
                break
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", type=benchargs.variant)
    parser.add_argument("count", nargs="?", type=benchargs.positive_int, default=COUNT,
                        help=f"openings to write (default {COUNT})")
    parser.add_argument("--plies", type=benchargs.positive_int,
                        help="random plies from the start (default 2; Grand Cam 4)")
    parser.add_argument("--depth", type=benchargs.positive_int,
                        help="depth of the search that checks a start is level "
                             "(default per game: 3 in Camelot)")
    parser.add_argument("--jobs", type=benchargs.positive_int, default=1,
                        help="searches at once (the book is the same whatever the number)")
    args = parser.parse_args(argv)
    variant = args.variant
    plies = args.plies or PLIES_OF.get(variant, PLIES)
    depth = args.depth or DEPTH.get(variant, 3)
    v = Position.start(variant).variant
    title = v.name.title().replace("-", " ")
    colours = ("on both sides" if v.is_team_game else
               "in every seat rotation" if v.nseats > 2 else "with both colours")

    def progress(kept: int, examined: int) -> None:
        if kept == args.count or (examined % 100 == 0):
            print(f"\r{kept} of {args.count} kept, {examined} starts examined",
                  end="\n" if kept == args.count else "", file=sys.stderr, flush=True)

    lines = book(variant, args.count, args.plies, args.depth, args.jobs, progress)
    if len(lines) < args.count:
        print(f"\nonly {len(lines)} level starts of {plies} plies exist (found after every "
              f"start was drawn): the book holds {len(lines)}, not {args.count}",
              file=sys.stderr)
    # The header, then the book, written once it is whole: the header's count is the book's.
    print(f"# canter's {title} openings: {len(lines)} distinct random {plies}-ply starts "
          f"that a depth-{depth}\n# search finds level (bench/make_book.py). A match plays "
          f"each of them\n# {colours} (docs/arbiter.md).")
    for line in lines:
        print(" ".join(line))


if __name__ == "__main__":
    main()
