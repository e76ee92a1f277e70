"""The quiescence's order of captures (`order_captures`) is the full move order's
(`Search._order`) for every list a capture duty leaves, whatever the killers and history
say: killers and history only rank quiet moves."""

from __future__ import annotations

import random

import pytest

from canter.engine import Position
from canter.engine.rules import movegen
from canter.engine.search.common import order_captures
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher


def duty_positions(variant: str, seed: int, games: int = 12) -> list[Position]:
    """Positions of seeded random games where the side to move must capture, has no exit
    duty and has two moves or more."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        pos = Position.start(variant)
        for _ply in range(160):
            if pos.outcome() is not None:
                break
            moves = pos.legal_moves()
            if (len(moves) > 1 and movegen.must_capture(pos)
                    and not pos.duty[pos.turn]):
                out.append(pos.copy())
            pos.push(rng.choice(moves))
    return out


@pytest.mark.parametrize("variant", ["camelot", "tri-camelot", "chivalry", "grand-cam"])
def test_captures_are_ordered_as_the_full_order_orders_them(variant):
    rng = random.Random(5)
    searcher = Searcher()
    # A real search fills the killers and history that the full order reads.
    searcher.search(Position.start(variant), Limits(depth=3), lambda info: None, StopFlag())
    search = searcher._search
    positions = duty_positions(variant, 11)
    assert len(positions) > 20, "too few capture duties met to check anything"
    differ = 0
    for pos in positions:
        moves = movegen.generate(pos)
        assert all(m.capture_bits for m in moves)
        for tt_move in (None, rng.choice(moves)._key):
            ply = rng.randrange(4)
            # The killers named may be these very moves: still no effect on captures.
            search.killers[ply] = [rng.choice(moves)._key, rng.choice(moves)._key]
            want = search._order(pos, list(moves), tt_move, ply)
            got = order_captures(pos, list(moves), tt_move)
            assert [m.route for m in got] == [m.route for m in want]
            differ += [m.route for m in got] != [m.route for m in moves]
    assert differ, "every list was already in order: the test checked nothing"


def random_positions(variant: str, seed: int, games: int = 6) -> list[Position]:
    """Positions of seeded random games with two legal moves or more."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        pos = Position.start(variant)
        for _ply in range(120):
            if pos.outcome() is not None:
                break
            moves = pos.legal_moves()
            if len(moves) > 1:
                out.append(pos.copy())
            pos.push(rng.choice(moves))
    return out


@pytest.mark.parametrize("variant", ["camelot", "chivalry", "tri-camelot"])
@pytest.mark.parametrize("order_adv", [False, True])
def test_packed_order_is_the_order_of_the_keys(variant, order_adv):
    """`_order` packs each key and index into one int; `_order_pairs` sorts (key, move)
    pairs. They agree on every list, with history above the cap, below zero and tied, the
    killers and the table move among the moves."""
    rng = random.Random(7)
    searcher = Searcher()
    searcher.search(Position.start(variant), Limits(depth=2), lambda info: None, StopFlag())
    search = searcher._search
    search.order_adv = order_adv
    positions = random_positions(variant, 3)
    assert len(positions) > 100
    moved = 0
    for pos in positions:
        moves = movegen.generate(pos)
        search.history = {}
        for m in moves:
            if rng.random() < 0.6:
                search.history[(pos.turn, m.start, m.end)] = rng.choice(
                    [0, 1, 4, 9, -25, 1 << 26, (1 << 24) - 1, rng.randrange(-100, 5000)])
        ply = rng.randrange(4)
        search.killers[ply] = [rng.choice(moves)._key, rng.choice(moves)._key]
        tt_move = rng.choice([None, rng.choice(moves)._key])
        got = search._order(pos, list(moves), tt_move, ply)
        want = search._order_pairs(pos, list(moves), tt_move, ply)
        assert [m.route for m in got] == [m.route for m in want]
        moved += [m.route for m in got] != [m.route for m in moves]
    assert moved > len(positions) // 2, "most lists were already in order: nothing checked"
