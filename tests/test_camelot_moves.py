"""Camelot move rules (RULES.md §1 Moves), on positions built and counted by hand."""

import pytest
from builders import ends, setup, spellings

from canter.engine import IllegalMoveError, Position, format_move, get_variant, parse_move

V = get_variant("camelot")


def test_board_has_160_cells_and_the_castle_neighbours():
    assert len(V.cells) == 160
    f1 = V.cell("F1")
    assert {V.cell_name(n) for n in V.board.neighbours[f1]} == {"E2", "F2", "G2", "G1"}


def test_no_leap_passes_over_a_castle_cell():
    castles = {V.cell(n) for n in ("F1", "G1", "F16", "G16")}
    for cell in V.cells:
        for over, _land in V.board.leaps[cell]:
            assert over not in castles


def test_start_position_has_100_moves_and_no_capture():
    pos = Position.start(V)
    moves = pos.legal_moves()
    assert len(moves) == 100
    assert not any(m.is_capture for m in moves)


def test_plain_moves_reach_every_empty_neighbour():
    pos = setup(w="F8 B5", b="K14 A13")
    assert ends(pos, "F8") == {"E7", "F7", "G7", "E8", "G8", "E9", "F9", "G9"}


def test_plain_moves_at_the_cut_edge():
    pos = setup(w="A4 L8", b="K14 A13")
    assert ends(pos, "A4") == {"A5", "B5", "B4", "B3"}


def test_canter_ends_never_include_the_start_and_routes_are_one_move():
    # E5 with own men on E6, F5, F7, G6: a ring of canters E5-E7-G7-G5-E5.
    pos = setup(w="E5 E6 F5 F7 G6", b="A13 L13")
    assert ends(pos, "E5") == {"E4", "D4", "D5", "D6", "F4", "F6", "E7", "G5", "G7"}
    g7 = [m for m in pos.legal_moves() if m.start == V.cell("E5") and m.end == V.cell("G7")]
    assert len(g7) == 1
    assert parse_move(pos, "E5-E7-G7") == parse_move(pos, "e5-g5-g7") == g7[0]
    # A route through the start cell is a route, but the start is never an end.
    assert parse_move(pos, "E5-E7-E5-G5") == parse_move(pos, "E5-G5")


def test_a_canter_may_not_end_on_its_start():
    pos = setup(w="E5 E6 F5 F7 G6", b="A13 L13")
    with pytest.raises(IllegalMoveError, match="starting cell"):
        parse_move(pos, "E5-E7-G7-G5-E5")


def test_multi_jump_must_continue_and_the_player_picks_the_branch():
    pos = setup(w="D4 L5", b="D5 D7 E9 C9")
    assert spellings(pos) == {"D4xD6xD8xF10", "D4xD6xD8xB10"}
    with pytest.raises(IllegalMoveError, match="must continue from D6"):
        parse_move(pos, "D4xD6")


def test_circular_jump_returns_to_its_start():
    pos = setup(w="E5 L5", b="E6 F7 G6 F5")
    moves = pos.legal_moves()
    assert len(moves) == 1
    (m,) = moves
    assert m.start == m.end == V.cell("E5")
    assert {V.cell_name(c) for c in m.captures} == {"E6", "F7", "G6", "F5"}
    assert parse_move(pos, "E5xG5xG7xE7xE5") == parse_move(pos, "E5xE7xG7xG5xE5") == m
    pos.push(m)
    assert pos.outcome().text() == "white wins: black has no pieces left"


def test_duty_to_capture_forbids_every_other_move():
    pos = setup(w="D4 H8", b="D5 A13")
    assert spellings(pos) == {"D4xD6"}
    with pytest.raises(IllegalMoveError, match="capture is compulsory"):
        parse_move(pos, "H8-H9")


def test_no_duty_to_capture_the_most():
    pos = setup(w="D4 H4", b="D5 H5 H7")
    assert spellings(pos) == {"D4xD6", "H4xH6xH8"}


def test_knight_charge_is_optional_and_creates_no_duty():
    # Knight E4, own man E5, black man E7: E4-E6 would land next to E7 (E8 empty).
    pos = setup(w="KE4 E5", b="E7 A13")
    knight = spellings(pos, "E4")
    assert "E4-E6xE8" in knight
    assert "E4-E6" not in knight  # the Knight's canter rule
    assert len([s for s in knight if "-" in s and "x" not in s and s.count("-") == 1]) == 7
    assert len(knight) == 8
    # The man on E5 has 7 plain moves and a canter over the Knight to E3.
    assert ends(pos, "E5") == {"D4", "F4", "D5", "F5", "D6", "E6", "F6", "E3"}
    with pytest.raises(IllegalMoveError, match="Knight"):
        parse_move(pos, "E4-E6")


def test_a_charge_counts_as_a_capture_when_one_is_compulsory():
    pos = setup(w="KE4 E5 H4", b="E7 H5")
    assert spellings(pos) == {"H4xH6", "E4-E6xE8"}


def test_men_have_no_knight_canter_rule_and_cannot_charge():
    pos = setup(w="E4 E5", b="E7 A13")
    assert "E4-E6" in spellings(pos, "E4")
    assert not any("x" in s for s in spellings(pos))
    with pytest.raises(IllegalMoveError, match="only a Knight"):
        parse_move(pos, "E4-E6xE8")


def test_jump_then_canter_is_never_allowed():
    pos = setup(w="KE4 E5", b="E7 A13")
    with pytest.raises(IllegalMoveError, match="canter leg cannot follow a jump"):
        parse_move(pos, "E4-E6xE8-E10")


def test_knight_canter_legal_when_another_route_avoids_the_offered_jump():
    # Routes to G6: E4-E6-G6 lands on E6 (next to black D7, C8 empty); E4-G4-G6 does not.
    pos = setup(w="KE4 E5 F6 F4 G5", b="D7 A13")
    knight = spellings(pos, "E4")
    assert "E4-G4-G6" in knight
    assert "E4-G4" in knight
    assert "E4-E6xC8" in knight
    assert not any(s.endswith("-E6") for s in knight)
    # The blocked route is still accepted: the move is what counts.
    assert format_move(V, parse_move(pos, "E4-E6-G6")) == "E4-G4-G6"
    with pytest.raises(IllegalMoveError, match="Knight"):
        parse_move(pos, "E4-E6")
