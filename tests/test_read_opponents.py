"""Three seats: an opponent that keeps making its likeliest move is read as predictable and
searched with that move alone (`opponents.py`, engine option `Three Seat Read Opponents`)."""

from __future__ import annotations

from canter.engine import Position, get_variant
from canter.engine.search.alphabeta import Search
from canter.engine.search.evaluate import _distances
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.opponents import STREAK, likely_key, predictable_seats
from canter.engine.search.searcher import Searcher
from canter.engine.search.tt import TranspositionTable
from canter.protocol.session import Session

TRI = get_variant("tri-camelot")
DIST = [_distances(TRI, TRI.target_castle[s]) for s in range(3)]
BLUE, RED, GREEN = 0, 1, 2


def _keys(pos: Position) -> list:
    s = pos.turn
    return [(likely_key(m, TRI.target_bits[s], DIST[s]), m) for m in pos.legal_moves()]


def likeliest_move(pos: Position):
    return max(_keys(pos), key=lambda km: km[0])[1]


def unlikeliest_move(pos: Position):
    return min(_keys(pos), key=lambda km: km[0])[1]


def play(plies: int, style: dict) -> Position:
    """A game from the start in which each seat picks by `style[seat]`."""
    pos = Position.start(TRI)
    for _ in range(plies):
        if pos.outcome() is not None:
            break
        pos.push(style[pos.turn](pos))
    return pos


def test_a_position_without_moves_reads_nobody():
    assert predictable_seats(Position.start(TRI), DIST) == [False, False, False]


def test_only_the_seat_making_its_likeliest_moves_reads_as_predictable():
    pos = play(15, {BLUE: unlikeliest_move, RED: likeliest_move, GREEN: unlikeliest_move})
    assert len(pos.move_stack) == 15
    assert predictable_seats(pos, DIST) == [False, True, False]


def test_a_short_record_is_not_enough():
    # Two moves each: fewer choices than the streak asks for.
    assert STREAK > 2
    pos = play(6, {s: likeliest_move for s in range(3)})
    assert predictable_seats(pos, DIST) == [False, False, False]
    pos = play(3 * (STREAK + 1), {s: likeliest_move for s in range(3)})
    assert predictable_seats(pos, DIST) == [True, True, True]


def test_one_early_miss_is_forgiven_but_a_recent_one_is_not():
    # Red's first move is its unlikeliest (an opening move from a book, say), then it plays
    # by the rule: predictable. A miss on its latest move makes it unpredictable again.
    first = {"done": False}

    def red_opening_then_rule(pos: Position):
        if not first["done"]:
            first["done"] = True
            return unlikeliest_move(pos)
        return likeliest_move(pos)

    style = {BLUE: unlikeliest_move, RED: red_opening_then_rule, GREEN: unlikeliest_move}
    pos = play(15, style)
    assert pos.outcome() is None
    assert predictable_seats(pos, DIST)[RED] is True
    while pos.turn != RED:
        pos.push(unlikeliest_move(pos))
    pos.push(unlikeliest_move(pos))
    assert predictable_seats(pos, DIST)[RED] is False


def test_the_search_narrows_only_the_predictable_opponent():
    pos = play(15, {BLUE: likeliest_move, RED: unlikeliest_move, GREEN: unlikeliest_move})
    assert pos.turn == BLUE
    pos.push(likeliest_move(pos))  # now Red searches; Blue reads as predictable, Green not
    search = Search(TranspositionTable(1))
    search.run(pos, Limits(depth=2), lambda i: None, StopFlag(), opponent_moves=3,
               read_opponents=True)
    assert search.seat_k == [1, 0, 3]
    off = Search(TranspositionTable(1))
    off.run(pos, Limits(depth=2), lambda i: None, StopFlag(), opponent_moves=3)
    assert off.seat_k == [3, 0, 3]


def test_reading_changes_the_tree_and_stays_deterministic():
    pos = play(12, {s: likeliest_move for s in range(3)})
    assert pos.outcome() is None
    counts = []
    for read in (True, True, False):
        s = Searcher()
        s.read_opponents = read
        counts.append(s.search(pos, Limits(depth=4), lambda i: None, StopFlag()).info.nodes)
    assert counts[0] == counts[1]
    assert counts[0] < counts[2]


def test_the_option_reaches_the_searcher():
    s = Session()
    assert s.searcher().read_opponents is True
    s.set_option("Three Seat Read Opponents", "false")
    assert s.searcher().read_opponents is False
