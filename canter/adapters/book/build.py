"""Building a book: walk the game from its start, search each position to a fixed depth, and
keep the best move and every move within a margin of it; then go on from each kept move,
breadth first, until the wanted number of plies (or of positions) is reached.

Entries already in the output file are reused, not searched again, so an interrupted build
goes on where it stopped and a finished one can be deepened by building again with more
plies.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from canter.engine.rules.notation import format_move, parse_move
from canter.engine.rules.position import Position
from canter.engine.search.book import Book, BookEntry, format_entry, position_key
from canter.engine.search.limits import Limits, SearchInfo, StopFlag
from canter.engine.search.searcher import Searcher

# A won or lost score is written as this many centipawns less the moves to the end, so the
# line stays a plain number and still sorts above (or below) every ordinary score.
WIN_CP = 100_000
TOP_WEIGHT = 100


@dataclass(frozen=True)
class BuildPlan:
    variant: str
    plies: int
    depth: int
    movetime: float | None = None  # seconds; a cap per position on top of the depth
    margin: int = 15  # centipawns below the best a move may score and still be kept
    alternatives: int = 3  # at most this many moves per position (the search's MultiPV)
    max_positions: int | None = None  # stop after searching this many new positions


def _score(info: SearchInfo) -> int:
    if info.score_win is not None:
        n = info.score_win
        return WIN_CP - n if n > 0 else -WIN_CP - n
    return info.score_cp or 0


def search_entry(searcher: Searcher, pos: Position, plan: BuildPlan) -> BookEntry | None:
    """The entry for one position: the search's best move and those within the margin,
    weighted by how close they came (the best gets TOP_WEIGHT)."""
    searcher.multipv = plan.alternatives
    lines: dict[int, SearchInfo] = {}
    deepest = [0]

    def on_info(info: SearchInfo) -> None:
        if info.depth is None or not info.pv or info.bound is not None:
            return
        if info.depth > deepest[0]:
            deepest[0] = info.depth
            lines.clear()
        if info.depth == deepest[0]:
            lines[info.multipv or 1] = info

    stop = StopFlag()
    if plan.movetime is not None:
        stop.deadline = time.monotonic() + plan.movetime
    result = searcher.search(pos.copy(), Limits(depth=plan.depth, movetime=plan.movetime),
                             on_info, stop)
    if result.best is None or not lines:
        return None
    scored = sorted(((_score(i), n, i.pv[0]) for n, i in lines.items()),
                    key=lambda x: (-x[0], x[1]))
    # The move actually chosen leads, whatever the order of the reports.
    chosen = [s for s, _, m in scored if m == result.best]
    best_score = chosen[0] if chosen else scored[0][0]
    kept: list[tuple[str, int]] = [(format_move(pos.variant, result.best), TOP_WEIGHT)]
    for score, _, move in scored:
        text = format_move(pos.variant, move)
        if move == result.best or any(t == text for t, _ in kept):
            continue
        if score >= best_score - plan.margin:
            weight = max(1, TOP_WEIGHT - 4 * (best_score - score))
            kept.append((text, weight))
    return BookEntry(position_key(pos), tuple(kept), best_score, deepest[0])


def build(plan: BuildPlan, book: Book, write: Callable[[str], None],
          progress: Callable[[str], None]) -> tuple[int, int]:
    """Extend `book` along the plan, writing each new entry's line with `write` as soon as
    it is found. Returns (positions searched now, positions in the book reached)."""
    searcher = Searcher()
    searcher.hash_mb = 64
    start = Position.start(plan.variant)
    queue: deque[tuple[Position, int]] = deque([(start, 0)])
    seen: set[str] = set()
    searched = 0
    started = time.monotonic()
    while queue:
        pos, ply = queue.popleft()
        key = position_key(pos)
        if key in seen or pos.outcome() is not None:
            continue
        seen.add(key)
        entry = book.entries.get(key)
        if entry is None:
            if plan.max_positions is not None and searched >= plan.max_positions:
                progress(f"stopped: {searched} positions searched (--max-positions)")
                break
            t0 = time.monotonic()
            entry = search_entry(searcher, pos, plan)
            if entry is None:
                continue
            searched += 1
            book.add(entry)
            write(format_entry(entry))
            moves = " ".join(t for t, _ in entry.moves)
            progress(f"[{searched}] ply {ply}: {moves} ({entry.score} cp, depth "
                     f"{entry.depth}, {time.monotonic() - t0:.1f} s, "
                     f"{time.monotonic() - started:.0f} s in all)")
        if ply + 1 >= plan.plies:
            continue
        for text, _ in entry.moves:
            try:
                move = parse_move(pos, text)
            except ValueError:
                continue  # a bad line in a resumed file: its subtree is not expanded
            child = pos.copy()
            child.push(move)
            queue.append((child, ply + 1))
    return searched, len(seen)
