"""The transposition table's node lookup: a cutoff only when the stored depth and bound
settle the window, the stored move always."""

from canter.engine.search.tt import EXACT, LOWER, UPPER, TranspositionTable

WIN_BOUND = 10_000
MOVE = (12, 34, 0)


def table_with(depth: int, bound: int, score: int) -> TranspositionTable:
    tt = TranspositionTable(1)
    tt.store(99, depth, bound, score, MOVE)
    return tt


def test_missing_key_gives_nothing():
    assert TranspositionTable(1).lookup(99, 1, -50, 50, 0, WIN_BOUND) == (None, None)


def test_exact_entry_deep_enough_settles_the_node():
    assert table_with(3, EXACT, 20).lookup(99, 3, -50, 50, 0, WIN_BOUND) == (20, MOVE)


def test_shallower_entry_gives_only_its_move():
    assert table_with(2, EXACT, 20).lookup(99, 3, -50, 50, 0, WIN_BOUND) == (None, MOVE)


def test_bounds_settle_only_their_side_of_the_window():
    assert table_with(3, LOWER, 60).lookup(99, 3, -50, 50, 0, WIN_BOUND) == (60, MOVE)
    assert table_with(3, LOWER, 40).lookup(99, 3, -50, 50, 0, WIN_BOUND) == (None, MOVE)
    assert table_with(3, UPPER, -60).lookup(99, 3, -50, 50, 0, WIN_BOUND) == (-60, MOVE)
    assert table_with(3, UPPER, -40).lookup(99, 3, -50, 50, 0, WIN_BOUND) == (None, MOVE)


def test_win_scores_come_back_relative_to_the_node():
    # Stored as "win in 4 plies from the node"; read 3 plies from the root: 7 from the root.
    value, _ = table_with(3, EXACT, WIN_BOUND + 100 - 4).lookup(99, 3, -50, 50, 3, WIN_BOUND)
    assert value == WIN_BOUND + 100 - 7
