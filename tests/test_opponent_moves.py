"""Three seats: the search tries only each opponent's likeliest moves (`common.likeliest`,
engine option `Three Seat Opponent Moves`). Green aims at F1 (Blue's castle)."""

from __future__ import annotations

import random

import pytest
from builders import setup

from canter.engine import Position, format_move
from canter.engine.search.common import likeliest
from canter.engine.search.evaluate import _distances
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import OPPONENT_MOVES, Searcher
from canter.protocol.session import Session


def key(pos: Position, m) -> tuple[int, int, int]:
    v = pos.variant
    dist = _distances(v, v.target_castle[pos.turn])
    return (v.target_bits[pos.turn] >> m.end & 1, m.capture_bits.bit_count(),
            dist[m.start] - dist[m.end])


def pick(pos: Position, k: int) -> list:
    v = pos.variant
    dist = _distances(v, v.target_castle[pos.turn])
    return likeliest(pos.legal_moves(), k, v.target_bits[pos.turn], dist)


def test_the_longest_advance_comes_first():
    # F9 canters over F7 to F5, two steps nearer F1; every other move gains one at most.
    pos = setup("tri-camelot", turn="g", g="F9 F7 J13", b="A12", r="C16")
    assert [format_move(pos.variant, m) for m in pick(pos, 1)] == ["F9-F5"]


def test_the_larger_capture_comes_before_the_longer_advance():
    # Green must capture: F9xF5 (Blue's F7) or F9xH7 (Blue's G8); both take one piece,
    # and F9xF5 also gains two steps.
    pos = setup("tri-camelot", turn="g", g="F9 H9 J13", b="F7 G8", r="C16")
    assert {format_move(pos.variant, m) for m in pos.legal_moves()} == {"F9xF5", "F9xH7"}
    assert [format_move(pos.variant, m) for m in pick(pos, 1)] == ["F9xF5"]
    # A castle entry beats any capture: a jump that lands in F1 (F5 over Blue's F3).
    entry = setup("tri-camelot", turn="g", g="F5 H9", b="F3 G8 A12", r="C16")
    assert [format_move(entry.variant, m) for m in pick(entry, 1)] == ["F5xF1"]


def test_kept_moves_outrank_dropped_ones_and_keep_their_order():
    rng = random.Random(5)
    checked = 0
    while checked < 60:
        pos = Position.start("tri-camelot")
        for _ in range(rng.randrange(0, 30)):
            if pos.outcome() is not None:
                break
            pos.push(rng.choice(pos.legal_moves()))
        if pos.outcome() is not None:
            continue
        moves = pos.legal_moves()
        k = rng.randrange(1, 6)
        kept = pick(pos, k)
        assert len(kept) == min(k, len(moves))
        index = [moves.index(m) for m in kept]
        assert index == sorted(index)  # a subsequence of the generator's order
        dropped = [m for m in moves if m not in kept]
        if dropped:
            assert min(key(pos, m) for m in kept) >= max(key(pos, m) for m in dropped)
        checked += 1


def nodes(pos: Position, opponent_moves: int, algorithm: str = "brs") -> int:
    s = Searcher()
    s.algorithm = algorithm
    s.opponent_moves = opponent_moves
    return s.search(pos, Limits(depth=3), lambda i: None, StopFlag()).info.nodes


@pytest.mark.parametrize("algorithm", ["paranoid", "brs", "brs+", "maxn"])
def test_fewer_opponent_moves_make_a_smaller_tree(algorithm):
    pos = Position.start("tri-camelot")
    assert nodes(pos, 1, algorithm) < nodes(pos, 0, algorithm)
    assert nodes(pos, 3, algorithm) == nodes(pos, 3, algorithm)  # still deterministic


def test_the_root_seat_keeps_all_its_moves():
    # With one opponent move per node, Blue still finds its only saving move, a capture
    # that ranks no higher than the other one (see test_search's one-move-loss test).
    pos = setup("tri-camelot", turn="b", b="J13 J11 F9 D3", r="J15 B11", g="KG10 A12")
    s = Searcher()
    s.opponent_moves = 1
    result = s.search(pos, Limits(depth=3), lambda i: None, StopFlag())
    assert format_move(pos.variant, result.best) == "J13xJ17"


def test_the_option_reaches_the_searcher():
    s = Session()
    assert s.searcher().opponent_moves == OPPONENT_MOVES
    s.set_option("Three Seat Opponent Moves", "0")
    assert s.searcher().opponent_moves == 0
