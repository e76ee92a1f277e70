"""The `bench` signature: search a fixed set of positions of the games to a fixed depth.

The positions are fixed by move lists (played with the rules library, so they do not depend
on the searcher); the node total is the same on every run and changes only when the search
changes. Used by the protocol's `bench` command and by `canter bench`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from canter.engine.rules.notation import format_move, parse_move
from canter.engine.rules.position import Position
from canter.engine.rules.variant import get_variant
from canter.engine.search.limits import Limits, SearchInfo, StopFlag

BENCH_DEPTH = 3

# WCF World Championship 2009, game 1 (RULES.md §5), and points along it.
_TROYKA_NOLAN = (
    "D6-F8 H11-F9 C6-E8-G8 J11-H11 H6-H8 E11-G9 J6-H6 C11-E11 I6-I8 D11-D9 I8-J9 D10-D8xD6 "
    "E6xC6 I10xK8 E7-G5 G9xE7 F6xD8xD10xF12 F11xF13 H6-J8xL8 G11-G9 G6-I8 I11-G11"
).split()

# (variant, moves from the start, or an int n: n plies chosen by `_fixed_walk`)
BENCH_LINES: tuple[tuple[str, list[str] | int], ...] = (
    ("camelot", []),
    ("camelot", _TROYKA_NOLAN[:6]),
    ("camelot", _TROYKA_NOLAN[:12]),
    ("camelot", _TROYKA_NOLAN),
    ("camelot", 44),  # (40 plies gave a position with one legal move: no search at all)
    ("tri-camelot", []),
    ("tri-camelot", 9),
    ("tri-camelot", 24),
    ("cam", 8),
    ("camette", 4),
    ("chivalry", 14),
    ("grand-cam", 8),  # a team game: 4,272 nodes, about 0.1 s
)


@dataclass(frozen=True)
class BenchResult:
    nodes: int
    seconds: float
    positions: int


def _fixed_walk(pos: Position, plies: int) -> None:
    """Play `plies` moves by a rule of the rules library alone: the capture taking the most,
    else the move at index (7 * ply) modulo the count, in order of canonical spelling."""
    v = pos.variant
    for ply in range(plies):
        if pos.outcome() is not None:
            break
        moves = sorted(pos.legal_moves(), key=lambda m: format_move(v, m))
        most = max(m.capture_bits.bit_count() for m in moves)
        if most:
            moves = [m for m in moves if m.capture_bits.bit_count() == most]
        pos.push(moves[(7 * ply) % len(moves)])


def bench_positions() -> list[Position]:
    out = []
    for name, line in BENCH_LINES:
        pos = Position.start(get_variant(name))
        if isinstance(line, int):
            _fixed_walk(pos, line)
        else:
            for text in line:
                pos.push(parse_move(pos, text))
        out.append(pos)
    return out


def run_bench(depth: int | None = None) -> BenchResult:
    from canter.engine.search.searcher import Searcher

    limits = Limits(depth=depth if depth else BENCH_DEPTH)
    positions = bench_positions()
    searcher = Searcher()
    searcher.use_proofs = False  # the bench measures the search, not the shipped proofs
    nodes = 0
    started = time.perf_counter()
    for pos in positions:
        searcher.clear()  # each position from a clean table: the count must not drift
        last: list[SearchInfo] = []
        result = searcher.search(pos, limits, last.append, StopFlag())
        info = result.info or (last[-1] if last else None)
        nodes += (info.nodes or 0) if info is not None else 0
    return BenchResult(nodes, time.perf_counter() - started, len(positions))
