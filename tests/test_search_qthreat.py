"""Quiescence against multi-jump threats (switch `qthreat`, off in play; docs/search.md): at a
quiet leaf of two seats where the side not to move could take two pieces or more in one
move, the side to move's replies are searched instead of its static score, once per line.
Every such leaf is reported to `Search.watch` and checked here against the rules library."""

from __future__ import annotations

import pytest
from builders import setup
from watching import assert_gated, decisions_along, game_positions, watched

from canter.engine import parse_move
from canter.engine.rules import movegen
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher


def most_taken_by_rules(pos, seat: int) -> int:
    """The most pieces `seat` could take in one move, from the rules library's legal moves
    of a copy where it is `seat`'s turn."""
    other = pos.copy()
    if other.turn != seat:
        other.push_null()
    return max((m.capture_bits.bit_count() for m in other.legal_moves()), default=0)


def evasions(pos, depth: int, **switches) -> tuple[list, object]:
    seen: list = []

    def note(kind, at, move, qply, search):
        if kind == "evasion":
            seen.append((at.copy(), search.evading))

    return seen, watched(pos, depth, note, **switches)


@pytest.mark.parametrize("variant,seed", [("camelot", 1), ("camelot", 2), ("chivalry", 1)])
def test_replies_are_searched_only_at_quiet_leaves_under_a_multi_jump_threat(variant, seed):
    for leaf, nested in decisions_along(evasions, variant, seed, 60, 20, depth=2, qthreat=1):
        assert not nested, "a threat searched inside another one's replies"
        assert not movegen.must_capture(leaf), "the leaf was not quiet"
        assert most_taken_by_rules(leaf, 1 - leaf.turn) >= 2


def test_off_by_switch_and_never_with_three_seats_or_teams():
    pos = game_positions("camelot", 1, plies=60, every=20)[1]
    assert_gated(evasions, "qthreat", 2, pos, never=(("tri-camelot", 7), ("grand-cam", 3)))


def _scores(pos, moves: list[str], depth: int, **switches) -> int:
    searcher = Searcher()
    searcher.use_proofs = False
    searcher._search.options.update(switches)
    infos: list = []
    searcher.search(pos, Limits(depth=depth, searchmoves=[parse_move(pos, m) for m in moves]),
                    infos.append, StopFlag())
    return infos[-1].score_cp


def test_a_double_jump_threat_is_seen_a_ply_earlier():
    # G5-F6 brings a White Man beside Black F7 and G7 with F8 and H8 free: two double jumps
    # (F6xF8xF10 over F7 and F9, F6xH8xH10 over G7 and H9), and no Black reply parries both.
    # F5 and E5 stand behind F6, so Black has no jump of its own. The leaf after G5-F6 is
    # quiet for Black; at depth 1 its static score does not see the threat, the threat
    # search does, and gives what depth 2 (Black's replies, then White's captures) gives.
    pos = setup("camelot", turn="w", w="G5 F5 E5 A6", b="F7 F9 G7 H9 L12 K12")
    after = pos.copy()
    after.push(parse_move(pos, "G5-F6"))
    assert not movegen.must_capture(after) and most_taken_by_rules(after, 0) == 2
    line = ["G5-F6", "A6-A5"]  # two root moves, or the search answers at once
    plain, threat, deeper = (_scores(pos, line, 1), _scores(pos, line, 1, qthreat=1),
                             _scores(pos, line, 2))
    assert threat == deeper
    assert plain != threat
