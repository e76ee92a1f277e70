"""Text boards compared with boards written out by hand."""

from __future__ import annotations

import re

from canter.engine import Position, get_variant, parse_move
from canter.engine.rules.textboard import render
from canter.engine.rules.variant import KNIGHT, MAN

CAMELOT_START = """\
    A  B  C  D  E  F  G  H  I  J  K  L
16                [.][.]                16
15        .  .  .  .  .  .  .  .        15
14     .  .  .  .  .  .  .  .  .  .     14
13  .  .  .  .  .  .  .  .  .  .  .  .  13
12  .  .  .  .  .  .  .  .  .  .  .  .  12
11  .  .  B  b  b  b  b  b  b  B  .  .  11
10  .  .  .  B  b  b  b  b  B  .  .  .  10
 9  .  .  .  .  .  .  .  .  .  .  .  .  9
 8  .  .  .  .  .  .  .  .  .  .  .  .  8
 7  .  .  .  W  w  w  w  w  W  .  .  .  7
 6  .  .  W  w  w  w  w  w  w  W  .  .  6
 5  .  .  .  .  .  .  .  .  .  .  .  .  5
 4  .  .  .  .  .  .  .  .  .  .  .  .  4
 3     .  .  .  .  .  .  .  .  .  .     3
 2        .  .  .  .  .  .  .  .        2
 1                [.][.]                1
    A  B  C  D  E  F  G  H  I  J  K  L
pieces: white w/W  black b/B (man/knight)
castles [ ]: white F1+G1  black F16+G16
white to move; castle moves used: white 0/2, black 0/2"""

TRI_START = """\
    A  B  C  D  E  F  G  H  I  J  K
18        .     .     .     .        18
17     .     r     .     g     .     17
16 [.]    R     .     .     G    [.] 16
15     .     r     .     g     .     15
14  .     R     .     .     G     .  14
13     R     r     .     g     G     13
12  .     r     .     .     g     .  12
11     r     .     .     .     g     11
10        .     .     .     .        10
 9     .     .     .     .     .     9
 8        .     .     .     .        8
 7           .     b     .           7
 6        .     b     b     .        6
 5           b     B     b           5
 4              B     B              4
 3           .     .     .           3
 2              .     .              2
 1                [.]                1
    A  B  C  D  E  F  G  H  I  J  K
pieces: blue b/B  red r/R  green g/G (man/knight)
castles [ ]: blue F1  red A16  green K16
blue to move"""

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_camelot_start_board() -> None:
    assert render(Position.start(get_variant("camelot"))) == CAMELOT_START


def test_tri_camelot_start_board() -> None:
    assert render(Position.start(get_variant("tri-camelot"))) == TRI_START


def _camelot_jump_position() -> Position:
    v = get_variant("camelot")
    pos = Position(v)
    for name, seat, kind in (("E5", 0, KNIGHT), ("E6", 1, MAN), ("E8", 1, MAN),
                             ("G16", 0, MAN), ("B13", 1, KNIGHT), ("L4", 1, MAN)):
        pos.put(v.cell(name), seat, kind)
    pos.reset_derived()
    return pos


def test_last_move_marks_start_captures_and_end() -> None:
    pos = _camelot_jump_position()
    move = parse_move(pos, "E5xE7xE9")
    pos.push(move)
    expected = """\
    A  B  C  D  E  F  G  H  I  J  K  L
16                [.][w]                16
15        .  .  .  .  .  .  .  .        15
14     .  .  .  .  .  .  .  .  .  .     14
13  .  B  .  .  .  .  .  .  .  .  .  .  13
12  .  .  .  .  .  .  .  .  .  .  .  .  12
11  .  .  .  .  .  .  .  .  .  .  .  .  11
10  .  .  .  .  .  .  .  .  .  .  .  .  10
 9  .  .  .  . (W) .  .  .  .  .  .  .  9
 8  .  .  .  .  x  .  .  .  .  .  .  .  8
 7  .  .  .  .  .  .  .  .  .  .  .  .  7
 6  .  .  .  .  x  .  .  .  .  .  .  .  6
 5  .  .  .  .  *  .  .  .  .  .  .  .  5
 4  .  .  .  .  .  .  .  .  .  .  .  b  4
 3     .  .  .  .  .  .  .  .  .  .     3
 2        .  .  .  .  .  .  .  .        2
 1                [.][.]                1
    A  B  C  D  E  F  G  H  I  J  K  L
pieces: white w/W  black b/B (man/knight)
castles [ ]: white F1+G1  black F16+G16
last move: E5xE7xE9; black to move; castle moves used: white 0/2, black 0/2"""
    assert render(pos, last_move=move) == expected


def test_tri_camelot_castle_entry_and_result() -> None:
    v = get_variant("tri-camelot")
    pos = Position(v)
    # Blue's man one step from Red's castle (A16, Blue's target); others far away.
    for name, seat, kind in (("B15", 0, MAN), ("F9", 0, KNIGHT), ("E2", 1, MAN),
                             ("K12", 2, KNIGHT)):
        pos.put(v.cell(name), seat, kind)
    pos.reset_derived()
    move = parse_move(pos, "B15-A16")
    pos.push(move)
    expected = """\
    A  B  C  D  E  F  G  H  I  J  K
18        .     .     .     .        18
17     .     .     .     .     .     17
16 [b]    .     .     .     .    [.] 16
15     *     .     .     .     .     15
14  .     .     .     .     .     .  14
13     .     .     .     .     .     13
12  .     .     .     .     .     G  12
11     .     .     .     .     .     11
10        .     .     .     .        10
 9     .     .     B     .     .     9
 8        .     .     .     .        8
 7           .     .     .           7
 6        .     .     .     .        6
 5           .     .     .           5
 4              .     .              4
 3           .     .     .           3
 2              r     .              2
 1                [.]                1
    A  B  C  D  E  F  G  H  I  J  K
pieces: blue b/B  red r/R  green g/G (man/knight)
castles [ ]: blue F1  red A16  green K16
last move: B15-A16; blue wins: a piece in the red castle"""
    assert render(pos, last_move=move) == expected


def test_plain_output_is_ascii_and_colour_only_adds_escapes() -> None:
    for name in ("camelot", "tri-camelot"):
        pos = Position.start(get_variant(name))
        move = pos.legal_moves()[0]
        pos.push(move)
        plain = render(pos, last_move=move)
        assert plain.isascii() and "\x1b" not in plain
        coloured = render(pos, color=True, last_move=move)
        assert "\x1b[" in coloured
        assert ANSI.sub("", coloured) == plain


def test_every_cell_drawn_once() -> None:
    # Count cell marks on the board rows: 160 squares and 73 hexagons.
    for name, count in (("camelot", 160), ("tri-camelot", 73), ("cam", 67), ("camette", 23),
                        ("chivalry", 176)):
        text = render(Position.start(get_variant(name)))
        rows = [line for line in text.splitlines() if line[:2].strip().isdigit()]
        marks = sum(len(re.findall(r"[.wbrgWBRG]", line[3:-3])) for line in rows)
        assert marks == count


def _status(pos: Position) -> str:
    return render(pos).splitlines()[-1]


def test_eliminated_seats_are_listed_in_order_and_one_move_s_together() -> None:
    v = get_variant("tri-camelot")
    pos = Position(v)
    for name, seat in (("H5", 0), ("H7", 1), ("G10", 2)):
        pos.put(v.cell(name), seat, MAN)
    pos.reset_derived()
    pos.push(parse_move(pos, "H5xH9xF11"))  # Red's and Green's last pieces in one chain
    assert _status(pos).endswith("; eliminated: red and green")
    text = pos.to_string()
    assert _status(Position.from_string(text)).endswith("; eliminated: red and green")
    one_by_one = Position.from_string(text.replace(" r+g ", " r,g "))
    assert _status(one_by_one).endswith("; eliminated: red, then green")
    pos.pop()
    assert "eliminated" not in _status(pos)
