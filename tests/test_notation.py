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
        ("F5F6F7", NotationError, "joined by"),
        ("F5F6", IllegalMoveError, "no piece on F5"),
        ("d6", NotationError, "at least two cells"),
        ("d6f", NotationError, "joined by"),
        ("d6f8x", NotationError, "joined by"),
        ("d6f8-", NotationError, "joined by"),
        ("d6-f8x", NotationError, "ends with"),
        ("z9a1", NotationError, "unknown cell Z9"),
        ("d6m8", NotationError, "unknown cell M8"),
        ("D6D9", IllegalMoveError, "^illegal move D6D9: no legal move goes from D6 to D9$"),
        # a reason about the start stands, far ends or not
        ("A5-A9", IllegalMoveError, "^illegal move A5-A9: no piece on A5$"),
        ("D11-D7", IllegalMoveError, "the piece on D11 is black's; it is white's turn$"),
        ("C6-C11", IllegalMoveError, "C11 is occupied$"),
        ("E6E7", IllegalMoveError, "occupied"),
        ("F5-", NotationError, "ends with"),
        ("hello", NotationError, "malformed"),
        ("F5", NotationError, "at least two cells"),
        ("", NotationError, "empty"),
        ("A5-A6", IllegalMoveError, "no piece on A5"),
        ("D11-D9", IllegalMoveError, "black's"),
        # a short form may stand for many legs: no one leg is blamed
        ("D6-D9", IllegalMoveError, "^illegal move D6-D9: no legal plain move or canter goes "
         "from D6 to D9$"),
        ("C6-I8", IllegalMoveError, "no legal plain move or canter goes from C6 to I8$"),
        ("D6xH8", IllegalMoveError, "no legal jump or Knight's Charge goes from D6 to H8$"),
        # a move of one leg is not quoted twice; a leg of a longer route is named
        ("D6xF8", IllegalMoveError, "^illegal move D6xF8: there is no enemy piece on E7"),
        ("d6 x f8", IllegalMoveError, "^illegal move D6xF8: there is no enemy piece on E7"),
        ("C6-E8-G8-I8", IllegalMoveError, "^illegal move C6-E8-G8-I8: E8-G8: a canter leaps"),
        # text that is not a string is a NotationError, as position strings' PositionError
        (None, NotationError, "a move is text, not NoneType"),
        (b"D6-F8", NotationError, "a move is text, not bytes"),
        ("D7-D9", IllegalMoveError, "holds none"),
        ("E6-E7", IllegalMoveError, "occupied"),
        ("F6xF8", IllegalMoveError, "no enemy piece"),
        # A plain move is a whole move: no leg follows it, and none comes before it.
        ("C6-B5-B4", IllegalMoveError, "C6-B5 is a plain move, which is a whole move"),
        ("D6-D5-D4", IllegalMoveError, "D6-D5 is a plain move, which is a whole move"),
        ("C6-E8-E9", IllegalMoveError, "E8-E9 is a plain move, which is a whole move"),
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


# ---- two cells without a separator, as UCI GUIs send moves ---------------------------------
@pytest.mark.parametrize("text, canonical", [
    ("d6f8", "D6-F8"), ("D6F8", "D6-F8"), (" c6b5 ", "C6-B5"), ("C6b5", "C6-B5"),
])
def test_two_cells_without_a_separator_at_the_start(text, canonical):
    pos = Position.start(V)
    assert format_move(V, parse_move(pos, text)) == canonical


def test_bare_cells_with_two_digit_ranks_split_on_the_letter():
    pos = Position.start(V)
    pos.push(parse_move(pos, "d6f8"))
    move = parse_move(pos, "h11f9")  # H11 and F9, not H1 and 1F9
    assert format_move(V, move) == "H11-F9"
    pos.push(move)
    # A two-leg canter given by start and end only, as C6-G8 is.
    assert parse_move(pos, "c6g8") == parse_move(pos, "C6-E8-G8") == parse_move(pos, "C6-G8")


def test_bare_cells_take_a_jump_chain_by_its_ends():
    pos = setup(w="D4 L5", b="D5 D7 E9")
    assert format_move(V, parse_move(pos, "d4f10")) == "D4xD6xD8xF10"
    assert parse_move(pos, "D4F10") == parse_move(pos, "d4xf10")


def test_bare_cells_from_a_ten_to_an_eight():
    # F10 to F8 over an own piece on F9: the ten's two digits end at the next letter.
    pos = setup(w="F10 F9 L5", b="A13 B13")
    assert format_move(V, parse_move(pos, "f10f8")) == "F10-F8"


def test_bare_cells_matching_several_moves_are_ambiguous():
    pos = setup(w="F12 L8", b="G13 G15 E13 E15")
    with pytest.raises(AmbiguousMoveError) as info:
        parse_move(pos, "f12f16")
    assert info.value.candidates == ["F12xD14xF16", "F12xH14xF16"]


def test_bare_cells_explain_a_jump_that_is_not_allowed():
    # F8 over the enemy on F9 to F10 is a jump, but the capture elsewhere is compulsory...
    pos = setup(w="F8 L8", b="F9 A13")
    assert format_move(V, parse_move(pos, "f8f10")) == "F8xF10"
    # ... and a step where a capture is due gets the rules' reason.
    with pytest.raises(IllegalMoveError, match="a capture is compulsory"):
        parse_move(pos, "l8l9")


def test_refusals_quote_at_most_forty_characters_of_the_text():
    pos = Position.start(V)
    with pytest.raises(NotationError) as info:
        parse_move(pos, "Q" * 500)
    assert "Q" * 41 not in str(info.value) and "Q" * 40 + "..." in str(info.value)
