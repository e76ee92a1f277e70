"""The capture extension (switch `capext`: on in play in two-sided games, in three seats
only when switched on; docs/search.md): a node at the last ply whose side must capture
and has a choice of captures searches them a ply deeper, as the single-reply extension
does for a node with one move. Every extension is reported to `Search.watch` and checked
here against the rules library."""

from __future__ import annotations

import pytest
from watching import assert_gated, decisions_along, game_positions, seen_kind

from canter.engine.rules import movegen


def _choice(at, moves, remaining) -> tuple:
    legal = movegen.generate(at)
    return (movegen.must_capture(at), len(legal), all(m.capture_bits for m in legal),
            remaining)


extensions = seen_kind("capture-extended", _choice)


def extended_position(variant: str, seed: int):
    """The first position of a seeded random game where the switched-on extension acts."""
    return next(p for p in game_positions(variant, seed, plies=60, every=15)
                if extensions(p, 3, capext=1)[0])


@pytest.mark.parametrize("variant,seed", [("camelot", 1), ("camelot", 3), ("chivalry", 1),
                                          ("tri-camelot", 2)])
def test_only_a_choice_between_compulsory_captures_is_extended(variant, seed):
    seen = decisions_along(extensions, variant, seed, 60, 15, depth=3, capext=1)
    for must, count, all_captures, remaining in seen:
        assert must, "extended a node with no capture duty"
        assert count >= 2, "a single reply is the single-reply extension's"
        assert all_captures
        assert remaining == 2  # only at the last ply, which it makes one deeper


def test_off_by_switch():
    pos = extended_position("camelot", 1)
    assert_gated(extensions, "capext", 3, pos, never=())


def test_three_seats_take_it_only_when_switched_on():
    pos = extended_position("tri-camelot", 2)
    assert extensions(pos, 3)[0] == []


def test_on_by_default_in_two_sided_games():
    pos = extended_position("camelot", 1)
    default, _ = extensions(pos, 3)
    assert default == extensions(pos, 3, capext=1)[0]
