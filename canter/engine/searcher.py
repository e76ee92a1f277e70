"""TEMPORARY searcher: a fixed one-ply rule standing in until the real search (issue 7).

The rule: among the allowed moves (all legal moves, or `searchmoves`), play a capture that
takes the most pieces; among equals, the first in canonical order of the official spelling.
It looks no further than that, reports one `info` line, and returns at once, so every limit
(depth, nodes, movetime, clocks, stop) is trivially honoured.

The interface is the contract with the session (see `canter.engine.limits`); the real
searcher keeps it: attributes `hash_mb`, `multipv`, `skill` (0..20), `algorithm`
("paranoid" | "brs"), and methods `clear`, `search`, `evaluate`.
"""

from __future__ import annotations

import time

from canter.engine.limits import InfoCallback, Limits, SearchInfo, SearchResult, StopFlag
from canter.engine.notation import format_move
from canter.engine.position import Position
from canter.engine.variant import KNIGHT

PIECE_VALUE = {0: 100, KNIGHT: 200}  # centipawn-like units; a Man is 100


class Searcher:
    def __init__(self) -> None:
        self.hash_mb = 16
        self.multipv = 1
        self.skill = 20
        self.algorithm = "paranoid"

    def clear(self) -> None:
        """New game: nothing is remembered between searches by this rule."""

    def search(self, pos: Position, limits: Limits, on_info: InfoCallback,
               stop: StopFlag) -> SearchResult:
        started = time.monotonic()
        moves = pos.legal_moves() if pos.outcome() is None else []
        if limits.searchmoves:
            moves = [m for m in moves if m in limits.searchmoves] or moves
        if not moves:
            return SearchResult(None)
        v = pos.variant
        best = min(moves, key=lambda m: (-m.capture_bits.bit_count(), format_move(v, m)))
        mover = pos.turn
        pos.push(best)
        score = self._material(pos, mover)[0]
        pos.pop()
        info = SearchInfo(depth=1, seldepth=1, score_cp=score, nodes=len(moves),
                          time=time.monotonic() - started, pv=[best])
        on_info(info)
        return SearchResult(best, None, info)

    def _material(self, pos: Position, me: int) -> tuple[int, list[str]]:
        v = pos.variant
        totals, lines = [], []
        for seat in range(v.nseats):
            counts = [0, 0]
            for cell in pos.pieces(seat):
                counts[pos.cells[cell] & 1] += 1
            total = sum(PIECE_VALUE[k] * n for k, n in enumerate(counts))
            totals.append(total)
            lines.append(f"{v.seats[seat].name}: men {counts[0]}, knights {counts[1]}, "
                         f"material {total}")
        others = [t for s, t in enumerate(totals) if s != me]
        return totals[me] - max(others), lines

    def evaluate(self, pos: Position) -> tuple[int, str]:
        """Material for the side to move minus that of the strongest opponent (Man 100,
        Knight 200), with a per-seat breakdown."""
        score, lines = self._material(pos, pos.turn)
        lines.append(f"score for {pos.variant.seats[pos.turn].name}: {score} "
                     "(own material minus the strongest opponent's)")
        return score, "\n".join(lines)
