"""Position strings (docs/position-format.md): exact round trips, named errors."""

import pytest

from canter.engine import Position, PositionError, parse_move

START = ("camelot 2/8/10/12/12/2BbbbbbbB2/3BbbbbB3/12/12/3WwwwwW3/2WwwwwwwW2/12/12/10/8/2"
         " w 0,0 - - 0 0")
LATE = "camelot 2/8/10/12/12/12/12/12/12/12/12/12/w10b/10/8/W1 b"


def test_start_position_string():
    assert Position.start("camelot").to_string() == START
    assert Position.from_string(START).to_string() == START


def test_tri_camelot_start_round_trips():
    s = Position.start("tri-camelot").to_string()
    assert s.startswith("tri-camelot ") and Position.from_string(s).to_string() == s


def test_state_fields_round_trip():
    s = "camelot 2/8/10/12/12/12/12/12/12/12/12/12/w10b/10/8/W1 b 2,1 F1 - 17 40"
    pos = Position.from_string(s)
    assert pos.to_string() == s
    assert pos.turn == 1 and pos.castle_moves == [2, 1] and pos.quiet == 17 and pos.ply == 40
    assert pos.duty[0] == 1 << pos.variant.cell("F1")


def test_hash_depends_on_duty_and_castle_moves():
    a = Position.from_string(LATE + " 2,1 F1 - 0 0")
    b = Position.from_string(LATE + " 2,1 - - 0 0")
    c = Position.from_string(LATE + " 1,1 - - 0 0")
    assert len({a.hash, b.hash, c.hash}) == 3


def test_moves_played_from_a_string():
    pos = Position.from_string(START)
    pos.push(parse_move(pos, "D6-F8"))
    assert pos.to_string().split()[2:] == ["b", "0,0", "-", "-", "1", "1"]


@pytest.mark.parametrize(
    "text, field, reason",
    [
        ("", "variant", "empty"),
        ("chess 8/8 w", "variant", "unknown variant"),
        ("camelot 2/8 w 0,0 - - 0 0", "placement", "16 ranks"),
        (START.replace("2BbbbbbbB2", "2BbbbbbbB3"), "placement", "rank 11 has 12 cells"),
        (START.replace("2BbbbbbbB2", "2BbbbbbbB1"), "placement", "rank 11 has 12 cells"),
        # pieces past a full rank's end are counted, never dropped
        (START.replace("2BbbbbbbB2", "2BbbbbbbB2b"), "placement",
         "rank 11 has 12 cells, the string describes 13"),
        (START.replace("/8/2 w", "/8/2ww w"), "placement", "rank 1 has 2 cells, the string "
         "describes 4"),
        (START.replace("2BbbbbbbB2", "2BbbbqbbB2"), "placement", "unknown piece letter 'q'"),
        (START.replace(" w 0,0", " x 0,0"), "turn", "not a seat letter"),
        (START.replace(" 0,0 ", " 0 "), "castle-moves", "expected 2 whole numbers"),
        (START.replace(" 0,0 ", " 3,0 "), "castle-moves", "limit is 2"),
        (START.replace(" - - ", " F5 - "), "duties", "not a castle cell"),
        (START.replace(" - - ", " F1 - "), "duties", "no white piece on F1"),
        (START.replace(" - - ", " Z9 - "), "duties", "unknown cell"),
        (START.replace(" - - ", " - b "), "eliminated", "still has pieces"),
        (START.replace(" 0 0", " x 0"), "quiet", "whole number"),
        (START.replace(" 0 0", " 00 0"), "quiet", "whole number"),
        (START.replace(" 0 0", " \u00b2 0"), "quiet", "whole number"),  # isdigit, no int
        (START.replace("2BbbbbbbB2", "\u00b2BbbbbbbB2"), "placement", "letter"),
        # digits of other scripts are no numbers here (they are isdecimal, and int reads them)
        (START.replace(" 0 0", " \uff10 0"), "quiet", "whole number"),
        (START.replace(" 0 0", " 0 \u0661"), "ply", "whole number"),
        (START.replace("2BbbbbbbB2", "\uff12BbbbbbbB2"), "placement", "letter"),
        (START.replace(" 0,0 ", " 0,\uff10 "), "castle-moves", "whole numbers"),
        (START.replace(" 0 0", " 5 2"), "quiet", "cannot exceed"),
        (START.replace(" 0 0", " 0 01"), "ply", "whole number"),
        (START.replace(" 0,0 ", " 0,01 "), "castle-moves", "whole numbers"),
        (START.replace("/8/2 w", "/8/02 w"), "placement", "written '02'"),
        (START + " extra", "fields", "expected 8 fields"),
    ],
)
def test_malformed_strings_name_the_field(text, field, reason):
    with pytest.raises(PositionError) as info:
        Position.from_string(text)
    assert info.value.field == field
    assert reason in str(info.value)


@pytest.mark.parametrize("text", [None, 123, b"camelot"])
def test_a_position_string_that_is_no_text_is_refused(text):
    with pytest.raises(PositionError, match="a position string is text"):
        Position.from_string(text)


def _start_with(field: int, value: str) -> str:
    parts = Position.start("camelot").to_string().split()
    parts[field] = value
    return " ".join(parts)


@pytest.mark.parametrize("field, value", [
    (0, "x" * 5000), (2, "q" * 5000), (3, "7," * 3000), (4, "Z" * 5000), (7, "9x" * 3000),
])
def test_a_long_bad_field_is_quoted_cut_short(field, value):
    with pytest.raises(PositionError) as err:
        Position.from_string(_start_with(field, value))
    message = str(err.value)
    assert "..." in message and len(message) < 200, message


def test_cells_that_do_not_exist_are_named_with_the_game():
    from canter.engine import CellError, get_variant

    v = get_variant("camelot")
    assert v.cell_name(v.cell("f1")) == "F1" and v.file_rank(v.cell("F1")) == (5, 1)
    for ask, arg, why in [(v.cell, "A1", "camelot: no cell named 'A1' on this board"),
                          (v.cell, None, "no cell named 'None'"),
                          # a negative number counted from the end of the table before
                          (v.cell_name, -1, "camelot: -1 is not a cell number"),
                          (v.cell_name, 0, "0 is not a cell number"),
                          (v.file_rank, 0, "0 is not a cell number"),
                          (v.cell_name, 10**6, "1000000 is not a cell number"),
                          # a position's piece_at as well (it answered None, or IndexError)
                          (Position.start("camelot").piece_at, -1, "-1 is not a cell"),
                          (Position.start("camelot").piece_at, 0, "0 is not a cell"),
                          (Position.start("camelot").piece_at, 202, "202 is not a cell")]:
        with pytest.raises(CellError) as info:
            ask(arg)
        assert isinstance(info.value, KeyError) and why in str(info.value)


def test_pop_without_a_move_says_so():
    pos = Position.start("camelot")
    with pytest.raises(IndexError, match="no move to take back"):
        pos.pop()
