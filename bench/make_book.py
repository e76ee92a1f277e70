"""Write a built-in opening book: distinct random 2-ply starts that a search finds level.

    python bench/make_book.py cam > canter/adapters/arbiter/books/cam.txt
    python bench/make_book.py grand-cam 100 > bench/openings-grand-cam-4ply.txt

Starts are drawn with a fixed seed (so the book is reproducible) and kept only when the game
is still on and a fixed-depth search of the position finds no forced win and less than a
Man's edge for either side: on the small boards some random starts are already lost, and a
lost start makes a match measure the book, not the players.
"""

from __future__ import annotations

import random
import sys

from canter.engine import Position, format_move
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher

COUNT = 50
PLIES = 2
# Grand Cam: one round, a move of each of the four seats.
PLIES_OF = {"grand-cam": 4}
DEPTH = {"cam": 5, "camette": 7, "chivalry": 3, "grand-cam": 4}
EDGE = 100  # centipawns: a Man


def level(pos: Position, depth: int, searcher: Searcher) -> bool:
    searcher.clear()
    last: list = []
    result = searcher.search(pos, Limits(depth=depth), last.append, StopFlag())
    info = result.info or (last[-1] if last else None)
    if info is None:
        return False
    return info.score_win is None and abs(info.score_cp or 0) < EDGE


def book(variant: str, count: int = COUNT) -> list[list[str]]:
    rng = random.Random(f"canter-book-{variant}")
    searcher = Searcher()
    seen: set[tuple[str, ...]] = set()
    out: list[list[str]] = []
    while len(out) < count:
        pos = Position.start(variant)
        line = []
        for _ in range(PLIES_OF.get(variant, PLIES)):
            moves = sorted(pos.legal_moves(), key=lambda m: format_move(pos.variant, m))
            move = rng.choice(moves)
            line.append(format_move(pos.variant, move))
            pos.push(move)
        key = tuple(line)
        if key in seen:
            continue
        seen.add(key)
        if pos.outcome() is None and level(pos, DEPTH.get(variant, 3), searcher):
            out.append(line)
    return out


def main() -> None:
    variant = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else COUNT
    title = Position.start(variant).variant.name.title().replace("-", " ")
    colours = "on both sides" if variant == "grand-cam" else "with both colours"
    print(f"# canter's built-in {title} book: {count} distinct random "
          f"{PLIES_OF.get(variant, PLIES)}-ply starts that a depth-{DEPTH.get(variant, 3)}\n"
          "# search finds level (bench/make_book.py). A match without --openings plays each "
          f"of them\n# {colours} (docs/arbiter.md).")
    for line in book(variant, count):
        print(" ".join(line))


if __name__ == "__main__":
    main()
