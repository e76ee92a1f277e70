"""The evaluation's grain (switch `grain=N`, off by default): static scores rounded to
multiples of N, alike for a score and its negation, so that negamax stays symmetric."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from watching import game_positions

from canter.engine.search.common import STATIC_CAP, to_grain
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.maxn import MaxN
from canter.engine.search.searcher import Searcher


@given(st.integers(-STATIC_CAP, STATIC_CAP), st.integers(2, 64))
def test_a_score_rounds_to_the_nearest_multiple_alike_for_either_side(value, grain):
    r = to_grain(value, grain)
    assert r % grain == 0
    assert abs(r - value) <= grain // 2
    assert to_grain(-value, grain) == -r
    assert to_grain(r, grain) == r


def test_rounding_by_hand():
    assert [to_grain(v, 8) for v in (0, 3, 4, 5, 12, -3, -4, -12, -13)] == [
        0, 0, 8, 8, 16, 0, -8, -16, -16]
    assert [to_grain(v, 4) for v in (1, 2, -1, -2, 6, -6)] == [0, 4, 0, -4, 8, -8]


def statics(grain: int | None, variant: str = "camelot",
            algorithm: str = "paranoid") -> list[tuple[int, int]]:
    """(static score, its unrounded value) at every leaf of depth-2 searches along a seeded
    game."""
    out = []
    for pos in game_positions(variant, 7, plies=40, every=10):
        searcher = Searcher()
        searcher.algorithm = algorithm
        if grain is not None:
            searcher._search.options["grain"] = grain
        search = searcher._search
        plain = type(search)._static

        def spy(pos, search=search, plain=plain):
            value = plain(search, pos)
            grain_was, search.grain = search.grain, 0
            exact = plain(search, pos)
            search.grain = grain_was
            out.append((value, exact))
            return value

        search._static = spy
        searcher.search(pos, Limits(depth=2), lambda info: None, StopFlag())
    assert out, "no leaf was scored"
    return out


def test_the_search_scores_its_leaves_in_grains_only_when_asked():
    rounded = statics(8)
    assert all(v % 8 == 0 and abs(v - exact) <= 4 for v, exact in rounded)
    assert any(v != exact for v, exact in rounded)
    # Off by default, and grain=1 is no grain.
    for grain in (None, 1):
        assert all(v == exact for v, exact in statics(grain))


@pytest.mark.parametrize("algorithm", ["paranoid", "brs"])
def test_three_seat_searches_score_their_leaves_in_grains(algorithm):
    rounded = statics(8, "tri-camelot", algorithm)
    assert all(v % 8 == 0 and abs(v - exact) <= 4 for v, exact in rounded)
    assert any(v != exact for v, exact in rounded)


def test_max_n_rounds_each_seats_score():
    seen = []
    for pos in game_positions("tri-camelot", 7, plies=40, every=10):
        searcher = Searcher()
        searcher.algorithm = "maxn"
        searcher._search.options["grain"] = 8
        plain = MaxN._static

        def spy(self, plain=plain):
            out = plain(self)
            seen.append((out, self.s.ev.vector(self.s.pos)))
            return out

        MaxN._static = spy
        try:
            searcher.search(pos, Limits(depth=2), lambda info: None, StopFlag())
        finally:
            MaxN._static = plain
    assert seen, "no max-n leaf was scored"
    for out, exact in seen:
        assert all(v % 8 == 0 and abs(v - x) <= 4 for v, x in zip(out, exact, strict=True))
    assert any(out != exact for out, exact in seen)
