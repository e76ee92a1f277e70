"""The searcher's cheap passes (canter/engine/passes.py) must agree with the rules library:
`has_move` with the move generator, `SearchPosition` with `Position` move by move."""

from __future__ import annotations

import random

import pytest

from canter.engine import Position, movegen
from canter.engine.passes import has_move, searchable_copy


@pytest.mark.parametrize("variant", ["camelot", "tri-camelot"])
def test_has_move_agrees_with_the_generator_along_random_games(variant):
    rng = random.Random(7)
    checked = 0
    for _ in range(25):
        pos = Position.start(variant)
        for _ in range(150):
            for seat in range(pos.variant.nseats):
                if seat not in pos.eliminated:
                    assert has_move(pos, seat) == bool(movegen.generate(pos, seat))
                    checked += 1
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
    assert checked > 3000


def test_search_position_plays_exactly_like_position():
    rng = random.Random(11)
    for _ in range(20):
        real = Position.start("tri-camelot")
        fast = searchable_copy(real)
        for _ in range(200):
            moves = real.legal_moves()
            assert moves == fast.legal_moves()
            if not moves:
                break
            m = rng.choice(moves)
            real.push(m)
            fast.push(m)
            assert (fast.turn, fast.hash, fast.eliminated) == (real.turn, real.hash,
                                                               real.eliminated)
            assert str(fast.outcome()) == str(real.outcome())
        while real.move_stack:
            real.pop()
            fast.pop()
            assert (fast.turn, fast.hash) == (real.turn, real.hash)
