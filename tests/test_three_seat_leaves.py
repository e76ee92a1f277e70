"""Three seats, at the leaves: the quiescence search tries only an opponent's likeliest
captures, and where an opponent can enter a castle next move the root seat's quiet answers
are searched instead of trusting the static score (`alphabeta.THREAT_PLIES`)."""

from __future__ import annotations

from builders import setup

from canter.engine.search.alphabeta import Search
from canter.engine.search.common import INF
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.tt import TranspositionTable


def leaf_value(pos, options: dict) -> int:
    """The quiescence value of `pos` for the seat to move, searching as that seat."""
    s = Search(TranspositionTable(1))
    s.options = options
    s.run(pos, Limits(depth=1), lambda i: None, StopFlag(), opponent_moves=3)
    s.pos = pos.copy()
    return s.qsearch(-INF, INF, 0)


def test_a_parry_of_an_entry_threat_is_found_at_the_leaf():
    # Green's F5 can jump Blue's F3 into F1 (Blue's castle: Green's target). Blue cannot
    # take F5 (F7 behind it is Green's), but moving F3 away removes the jump. The static
    # score counts the threat; searching Blue's quiet moves (on by default,
    # THREAT_PLIES) finds the parry.
    pos = setup("tri-camelot", turn="b", b="F3 D9 H9", r="B13 C14", g="F5 F7 J13")
    static = leaf_value(pos, {"threat_ext": 0})
    searched = leaf_value(pos, {})
    assert searched - static > 150  # more than the difference of threat1 and threat2


def test_no_threat_no_search():
    # The same pieces with Green's jump blocked (F1's approach F3 is empty and F5 has no
    # Blue piece to jump): the leaf is quiet and the static score stands.
    pos = setup("tri-camelot", turn="b", b="E4 D9 H9", r="B13 C14", g="F7 F9 J13")
    assert leaf_value(pos, {}) == leaf_value(pos, {"threat_ext": 0})


def test_an_opponents_captures_are_narrowed_in_quiescence():
    # Green (the root) moves; then Blue must capture and has five single captures of Red
    # Men around F9. With one opponent move kept, the quiescence search tries one of them.
    pos = setup("tri-camelot", turn="g", b="F9 E4", r="F11 E10 G10 E8 G8 B13", g="J13 I14")
    counts = []
    for options in ({}, {"qlikely": 0}):
        s = Search(TranspositionTable(1))
        s.options = options
        result = s.run(pos, Limits(depth=1), lambda i: None, StopFlag(), opponent_moves=1)
        counts.append(result.info.nodes)
    assert counts[0] < counts[1]
