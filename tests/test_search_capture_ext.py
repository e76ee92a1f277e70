"""The capture extension (switch `capext`: on in play in two-sided games, in three seats
only when switched on; docs/search.md): a node at the last ply whose side must capture
and has a choice of captures searches them a ply deeper, as the single-reply extension
does for a node with one move. Every extension is reported to `Search.watch` and checked
here against the rules library."""

from __future__ import annotations

import pytest
from watching import assert_gated, decisions_along, game_positions, seen_kind, watched

from canter.engine.rules import movegen
from canter.engine.search.bench import bench_positions


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


def _longest_chain(pos, depth: int, **switches: int) -> int:
    """The most capture extensions met along one line of one iteration: each extension is
    noted with the iteration and the hashes of the game up to the node, so the extended
    nodes above a node are those whose record is a prefix of its own."""
    seen: set[tuple] = set()

    def note(kind, at, move, remaining, search):
        if kind == "capture-extended":
            seen.add((search.depth_now, *at._hashes))

    watched(pos, depth, note, **switches)
    return max((sum(rec[:k] in seen for k in range(2, len(rec) + 1)) for rec in seen),
               default=0)


def _exchanges():
    """A Camelot bench position whose exchanges chain the extension (8 deep at depth 3)."""
    return next(p for p in bench_positions()
                if p.variant.name == "camelot" and _longest_chain(p, 3) >= 4)


@pytest.mark.parametrize("cap", [1, 2])
def test_capext_max_caps_the_extensions_of_a_line(cap):
    pos = _exchanges()
    assert _longest_chain(pos, 3, capext_max=cap) == cap


def test_no_cap_by_default():
    pos = _exchanges()
    assert _longest_chain(pos, 3) == _longest_chain(pos, 3, capext_max=0) >= 4
