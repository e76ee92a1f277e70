"""The multi-jump threat extension (switch `jump_ext`, off in play; docs/search.md): a
quiet move after which its side could take two pieces or more in one move, with the reply
under no capture duty, is searched a ply deeper. Every extension is reported to
`Search.watch` and checked here against the rules library."""

from __future__ import annotations

import pytest
from watching import assert_gated, decisions_along, game_positions, seen_kind

from canter.engine.rules import movegen


def _threat(at, move, remaining) -> tuple:
    mover = at.turn
    after = at.copy()
    after.push(move)
    most = max((m.capture_bits.bit_count() for m in movegen.generate(after, mover)),
               default=0)
    return (bool(move.capture_bits), bool(at.variant.target_bits[mover] >> move.end & 1),
            most, movegen.must_capture(after), remaining)


extensions = seen_kind("extended", _threat)


@pytest.mark.parametrize("variant,seed", [("camelot", 1), ("camelot", 2), ("chivalry", 1)])
def test_only_quiet_moves_that_threaten_a_multi_jump_are_extended(variant, seed):
    seen = decisions_along(extensions, variant, seed, 60, 20, depth=3, jump_ext=1)
    for capture, entry, most, reply_must, remaining in seen:
        assert not capture and not entry
        assert most >= 2, "extended a move that threatens less than two pieces"
        assert not reply_must, "extended a move whose reply must capture"
        assert remaining >= 2


def test_off_by_switch_and_never_with_three_seats():
    pos = game_positions("camelot", 1, plies=60, every=20)[1]
    assert_gated(extensions, "jump_ext", 3, pos, never=(("tri-camelot", 7),))


def test_most_taken_counts_the_longest_jump_chain():
    from builders import setup

    # White D6 below black D7 and D9, free D8 and D10: a double jump, if White moved.
    # Black D7 has no jump: D5 behind D6 is taken.
    pos = setup("camelot", turn="b", w="D5 D6 A8", b="D7 D9 L12 K12")
    assert movegen.most_taken(pos, 0) == 2
    assert movegen.most_taken(pos, 1) == 0
