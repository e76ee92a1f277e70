"""Automatic passes rest on `movegen.has_move`, which must agree with the move generator
for every seat in play, along random games of both variants."""

from __future__ import annotations

import random

import pytest

from canter.engine import Position
from canter.engine.rules import movegen


@pytest.mark.parametrize("variant", ["camelot", "tri-camelot", "cam", "camette", "chivalry"])
def test_has_move_agrees_with_the_generator_along_random_games(variant):
    rng = random.Random(7)
    checked = 0
    games = 0
    # Camette's games are short: play more of them until as many positions are checked.
    while games < 25 or checked <= 3000:
        games += 1
        pos = Position.start(variant)
        for _ in range(150):
            for seat in range(pos.variant.nseats):
                if seat not in pos.eliminated:
                    assert movegen.has_move(pos, seat) == bool(movegen.generate(pos, seat))
                    checked += 1
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
    assert checked > 3000
