"""The transposition table and the single-reply extension: a forced node (one legal move)
is searched a ply deeper, and stored at the depth it was asked for. Stored at the raised
depth, it answered a probe one ply deeper, whose own search would have extended once more,
and a forced line came up a ply short."""

from __future__ import annotations

from canter.engine import Position, format_move
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher

# White to move in Camette. D3-E3 loses in four of White's moves (C6-A4, then the only
# reply E3xE5, ...); found by a plain minimax with the same extensions at depth 4, and by
# the engine at depth 6. B2-B3 is the best move at depth 4, scored -55.
FORCED = "camette 1/1B1/bb3/4b/w2w1/wW1/1 w 0,0 - - 4 4"


def search(text: str, depth: int, moves: list[str] | None = None, **switches):
    pos = Position.from_string(text)
    searcher = Searcher()
    searcher.switches = dict(switches)
    wanted = None
    if moves is not None:
        wanted = [m for m in pos.legal_moves() if format_move(pos.variant, m) in moves]
    result = searcher.search(pos, Limits(depth=depth, searchmoves=wanted), lambda info: None,
                             StopFlag())
    return format_move(pos.variant, result.best), result.info


def test_a_forced_line_is_searched_to_its_end_through_the_table():
    move, info = search(FORCED, 4)
    assert (move, info.score_cp) == ("B2-B3", -55)
    # D3-E3 is lost: the deeper search proves it
    move, info = search(FORCED, 6, ["D3-E3"])
    assert move == "D3-E3" and info.score_win == -4


def test_stored_at_the_raised_depth_the_table_cut_the_forced_line_short():
    # The old storing (switch store_extended=1) took a depth-2 entry of the node after
    # C6-A4 (only move E3xE5) for a depth-2 probe, and scored the lost D3-E3 best at -11.
    move, info = search(FORCED, 4, store_extended=1)
    assert (move, info.score_cp) == ("D3-E3", -11)
