"""Camelot castle rules (RULES.md §1 Castles), on positions built and counted by hand."""

import pytest
from builders import ends, setup, spellings

from canter.engine import (
    IllegalMoveError,
    Position,
    PositionError,
    Rules,
    get_variant,
    parse_move,
)

V = get_variant("camelot")


def test_own_castle_is_never_entered_by_a_plain_move():
    pos = setup(w="F2 L8", b="K14 A13")
    assert ends(pos, "F2") == {"E2", "G2", "E3", "F3", "G3"}
    with pytest.raises(IllegalMoveError, match="own castle"):
        parse_move(pos, "F2-F1")


def test_the_opponents_castle_may_be_stepped_into():
    pos = setup(turn="b", w="L8 A8", b="F2 A13")
    assert {"F1", "G1"} <= ends(pos, "F2")


def test_own_castle_is_never_entered_by_a_canter_leg():
    pos = setup(w="F3 F2 L8", b="K14 A13")
    assert "F1" not in ends(pos, "F3")
    with pytest.raises(IllegalMoveError, match="own castle"):
        parse_move(pos, "F3-F1")


def test_a_jump_may_enter_the_own_castle_and_then_the_piece_must_leave():
    pos = setup(w="F3 L8", b="F2 A13 A12")
    assert spellings(pos) == {"F3xF1"}
    pos.push(parse_move(pos, "F3xF1"))
    assert pos.duty[0] == 1 << V.cell("F1")
    pos.push(parse_move(pos, "A12-A11"))
    # Only the castle piece may move: E2, F2 (emptied by the capture) or G2; not G1.
    assert spellings(pos) == {"F1-E2", "F1-F2", "F1-G2"}
    with pytest.raises(IllegalMoveError, match="must leave its castle"):
        parse_move(pos, "L8-L9")
    pos.push(parse_move(pos, "F1-G2"))
    assert pos.duty[0] == 0


def test_a_jump_into_the_own_castle_continues_when_it_can():
    pos = setup(w="F3 L8", b="F2 G2 A13")
    assert spellings(pos) == {"F3xF1xH3"}


def test_exit_duty_replaces_the_duty_to_capture_elsewhere():
    pos = setup(w="F1 K8", b="K9 A13", duty="F1")
    assert spellings(pos) == {"F1-E2", "F1-F2", "F1-G2"}


def test_exit_duty_piece_must_capture_when_it_can():
    pos = setup(w="F1 K8", b="F2 A13", duty="F1")
    assert spellings(pos) == {"F1xF3"}
    with pytest.raises(IllegalMoveError, match="must capture"):
        parse_move(pos, "F1-G2")


def test_exit_duty_allows_a_knights_charge():
    # Knight on F1 may canter over own E2 to D3 and jump black C4 (to B5).
    pos = setup(w="KF1 E2 K8", b="C4 A13", duty="F1")
    assert "F1-D3xB5" in spellings(pos)
    assert spellings(pos) == {"F1-F2", "F1-G2", "F1-D3xB5"}


def test_exit_duty_with_no_legal_move_keeps_normal_rules_and_stays():
    # F1 is walled in by own pieces with nothing to canter onto.
    walled = "F1 E2 F2 G2 D3 F3 H3 K8"
    pos = setup(w=walled, b="L13 A13", duty="F1")
    moves = spellings(pos)
    assert moves and not any(m.startswith("F1") for m in moves)
    pos.push(parse_move(pos, "K8-K9"))
    assert pos.duty[0] == 1 << V.cell("F1")


def test_exit_duty_lapses_under_the_other_ruling():
    walled = "F1 E2 F2 G2 D3 F3 H3 K8"
    rules = Rules.for_variant(V).with_option("exit_duty_persists", "false")
    pos = setup(w=walled, b="L13 A13", duty="F1", rules=rules)
    pos.push(parse_move(pos, "K8-K9"))
    assert pos.duty[0] == 0


def test_two_pieces_may_owe_an_exit_and_neither_duty_is_lost():
    # F1 owes an exit but is walled in, so White plays as usual: I3 jumps H2 into G1,
    # which owes one too. Black's E2 is forced away (E2xC4), freeing F1. Either piece may
    # leave; once G1 has gone, F1 still must (RULES.md: the duty stays until the piece has
    # left, so no piece settles in its own castle).
    pos = setup(w="F1 F2 G2 D3 F3 H3 I3", b="E2 H2 A13", duty="F1")
    assert spellings(pos) == {"F2xD2", "G2xI2", "I3xG1"}
    pos.push(parse_move(pos, "I3xG1"))
    assert pos.duty[0] == 1 << V.cell("F1") | 1 << V.cell("G1")
    assert pos.to_string().split()[4] == "F1,G1"
    assert pos.hash == pos.compute_hash()
    pos.push(parse_move(pos, "E2xC4"))
    assert spellings(pos) == {"F1-E2", "G1-E3", "G1-G3", "G1-G3-I3", "G1-H2"}
    pos.push(parse_move(pos, "G1-H2"))
    pos.push(parse_move(pos, "A13-A12"))
    assert spellings(pos) == {"F1-E2"}
    with pytest.raises(IllegalMoveError, match="the piece on F1 must leave its castle"):
        parse_move(pos, "F3-F4")
    pos.pop()
    pos.pop()
    assert pos.duty[0] == 1 << V.cell("F1") | 1 << V.cell("G1")
    assert pos.hash == pos.compute_hash()


def test_with_two_exits_owed_a_jump_by_either_piece_is_compulsory():
    # The project's ruling where the law is silent: the duty to capture, narrowed to the
    # pieces that must leave. G1 can jump H2; F1 could step out but must not.
    pos = _two_duties(w="F1 G1 L8", b="H2 A13")
    assert spellings(pos) == {"G1xI3"}
    with pytest.raises(IllegalMoveError, match="must be a capture by the piece on G1$"):
        parse_move(pos, "F1-E2")
    with pytest.raises(IllegalMoveError, match="the piece on G1 must leave its castle"):
        parse_move(pos, "L8-L9")
    # Only the pieces that can move are named: F1 walled in, G1 free.
    walled = _two_duties(w="F1 G1 E2 F2 G2 D3 F3 H3 L8", b="A13 B13")
    with pytest.raises(IllegalMoveError, match=": the piece on G1 must leave its castle"):
        parse_move(walled, "L8-L9")
    # A jump by a third piece does not count: only the pieces bound to leave.
    pos = _two_duties(w="F1 G1 L8", b="L9 A13")
    assert "L8xL10" not in spellings(pos)
    assert spellings(pos) >= {"F1-E2", "G1-H2"}
    with pytest.raises(IllegalMoveError, match="a piece on F1 or G1 must leave its castle"):
        parse_move(pos, "L8xL10")


def _two_duties(**pieces):
    pos = setup(duty="F1", **pieces)
    pos.duty[0] |= 1 << V.cell("G1")
    pos.reset_derived()
    return pos


def test_a_position_string_names_each_duty_once():
    text = _two_duties(w="F1 G1 L8", b="L9 A13").to_string()
    assert text.split()[4] == "F1,G1"
    assert Position.from_string(text).duty == [1 << V.cell("F1") | 1 << V.cell("G1"), 0]
    with pytest.raises(PositionError, match="F1 is named twice"):
        Position.from_string(text.replace("F1,G1", "F1,F1"))


def test_entering_the_opponents_castle_ends_the_move():
    # H14 jumps G15 into F16; jumping E15 on to D14 would be possible but the move ends.
    pos = setup(w="H14 L8", b="G15 E15 A4")
    assert spellings(pos) == {"H14xF16"}


def test_a_piece_in_the_opponents_castle_only_makes_castle_moves():
    pos = setup(w="F16 L8", b="A4 B4")
    assert spellings(pos, "F16") == {"F16-G16"}
    pos.push(parse_move(pos, "F16-G16"))
    assert pos.castle_moves == [1, 0]


def test_castle_moves_are_limited_to_two():
    pos = setup(w="F16 L8", b="A4 B4", castle_moves=(2, 0))
    assert spellings(pos, "F16") == set()
    with pytest.raises(IllegalMoveError, match="Castle Moves have been used"):
        parse_move(pos, "F16-G16")


def test_a_castle_move_is_illegal_when_a_capture_is_compulsory():
    pos = setup(w="F16 L8", b="L9 A4")
    assert spellings(pos) == {"L8xL10"}


def test_a_piece_in_the_opponents_castle_never_creates_a_duty():
    # Black E15 stands next to white F16 with D14 empty: no duty, F16 cannot capture.
    pos = setup(w="F16 L8", b="E15 A4")
    assert "F16-G16" in spellings(pos)


def test_entry_is_not_a_castle_move():
    pos = setup(w="F15 L8", b="A4 B4")
    pos.push(parse_move(pos, "F15-F16"))
    assert pos.castle_moves == [0, 0]
