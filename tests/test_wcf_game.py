"""RULES.md §5: the WCF 2009 World Championship game replays move by move."""

import re

from canter.engine import Position, format_move, parse_move

GAME = """1.D6-F8 H11-F9 2.C6-E8-G8 J11-H11 3.H6-H8 E11-G9 4.J6-H6 C11-E11 5.I6-I8 D11-D9
6.I8-J9 D10-D8xD6 7.E6xC6 I10xK8 8.E7-G5 G9xE7 9.F6xD8xD10xF12 F11xF13
10.H6-J8xL8 G11-G9 11.G6-I8 I11-G11"""


def moves():
    return [re.sub(r"^\d+\.", "", t) for t in GAME.split()]


def test_every_move_is_legal_and_spelled_canonically():
    pos = Position.start("camelot")
    for text in moves():
        move = parse_move(pos, text)
        assert format_move(pos.variant, move) == text
        pos.push(move)
    assert pos.outcome() is None


def test_black_sixth_is_a_charge_chosen_over_a_plain_jump():
    pos = Position.start("camelot")
    for text in moves()[:11]:
        pos.push(parse_move(pos, text))
    texts = {format_move(pos.variant, m) for m in pos.legal_moves()}
    assert {"D10-D8xD6", "I10xK8"} <= texts
    assert all("x" in t for t in texts)


def test_the_game_reaches_the_stated_position():
    pos = Position.start("camelot")
    for text in moves():
        pos.push(parse_move(pos, text))
    v = pos.variant

    def names(seat, kind):
        return {v.cell_name(c) for c in pos.pieces(seat) if pos.piece_at(c)[1] == kind}

    assert pos.turn == 0
    assert names(0, "knight") == {"G8", "I7", "L8"}
    assert names(0, "man") == {"C6", "F7", "G5", "G7", "H7", "H8", "I8"}
    assert names(1, "knight") == {"H11"}
    assert names(1, "man") == {"E10", "F9", "F10", "F13", "G9", "G10", "G11", "H10"}
