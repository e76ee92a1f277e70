"""Official notation (RULES.md §3): canonical output, every accepted input, clear errors."""

import pytest
from builders import setup

from canter.engine import (
    AmbiguousMoveError,
    IllegalMoveError,
    NotationError,
    Position,
    format_move,
    get_variant,
    parse_move,
)

V = get_variant("camelot")


def test_spellings_of_each_move_kind():
    pos = Position.start(V)
    pos.push(parse_move(pos, "D6-F8"))
    pos.push(parse_move(pos, "H11-F9"))
    canter = parse_move(pos, "C6-E8-G8")
    assert format_move(V, canter) == "C6-E8-G8" and canter.canter_legs == 2


def test_a_charge_spells_its_canter_legs_before_its_jumps():
    # F5 canters over F6, F8 and G10 to H11, then jumps G12 and E12.
    pos = setup(w="KF5 F6 F8 G10 A4", b="G12 E12 L13")
    m = parse_move(pos, "f5-f7-f9-h11xf13xd11")
    assert format_move(V, m) == "F5-F7-F9-H11xF13xD11"
    assert m.canter_legs == 3 and m.is_charge
    assert {V.cell_name(c) for c in m.captures} == {"G12", "E12"}
    assert parse_move(pos, "F5xD11") == m


def test_input_is_case_insensitive_and_short_forms_work():
    pos = Position.start(V)
    pos.push(parse_move(pos, "d6-f8"))
    pos.push(parse_move(pos, "h11-f9"))
    assert parse_move(pos, "c6-e8-g8") == parse_move(pos, "C6-G8")
    assert format_move(V, parse_move(pos, " i6-h5 ")) == "I6-H5"


def test_short_capture_form_resolves_a_unique_capture():
    pos = setup(w="D4 L5", b="D5 D7 E9")
    assert format_move(V, parse_move(pos, "d4xf10")) == "D4xD6xD8xF10"


def test_short_form_matching_several_moves_is_ambiguous():
    # Two chains from F12 enter the black castle at F16 with different captures.
    pos = setup(w="F12 L8", b="G13 G15 E13 E15")
    with pytest.raises(AmbiguousMoveError) as info:
        parse_move(pos, "F12xF16")
    assert info.value.candidates == ["F12xD14xF16", "F12xH14xF16"]


@pytest.mark.parametrize(
    "text, error, message",
    [
        ("M5-M6", NotationError, "unknown cell M5"),
        ("A1-A2", NotationError, "unknown cell A1"),
        ("F5F6", NotationError, "joined by"),
        ("F5-", NotationError, "ends with"),
        ("hello", NotationError, "malformed"),
        ("F5", NotationError, "at least two cells"),
        ("", NotationError, "empty"),
        ("A5-A6", IllegalMoveError, "no piece on A5"),
        ("D11-D9", IllegalMoveError, "black's"),
        ("D6-D9", IllegalMoveError, "neither a step"),
        ("D7-D9", IllegalMoveError, "holds none"),
        ("E6-E7", IllegalMoveError, "occupied"),
        ("F6xF8", IllegalMoveError, "no enemy piece"),
    ],
)
def test_errors_name_the_problem(text, error, message):
    pos = Position.start(V)
    with pytest.raises(error, match=message):
        parse_move(pos, text)


def test_a_jump_written_as_a_canter_is_explained():
    pos = setup(w="F8 L8", b="F9 A13")
    with pytest.raises(IllegalMoveError, match=r"F9 holds an enemy piece; a jump is written "
                                               r"with 'x' \(F8xF10\)"):
        parse_move(pos, "F8-F10")


def test_moves_after_the_end_are_refused_with_the_result():
    pos = setup(w="F16 G16 L8", b="A4 B4", turn="b")
    pos.reset_derived()
    pos2 = setup(w="F16 G15 L8", b="A4 B4")
    pos2.push(parse_move(pos2, "G15-G16"))
    with pytest.raises(IllegalMoveError, match="game is over"):
        parse_move(pos2, "A4-A5")
