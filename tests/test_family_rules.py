"""Cam, Camette and Chivalry (docs/rules.md §6-§8): boards, starts, each move kind, each
ending, and the reference counts from the start positions."""

import pytest
from builders import setup, spellings

from canter.engine import Position, get_variant, parse_move
from canter.engine.rules.perft import perft


def play(pos, *moves):
    for text in moves:
        pos.push(parse_move(pos, text))
    return pos


def names(variant: str) -> set[str]:
    v = get_variant(variant)
    return {v.cell_name(c) for c in v.cells}


def span(files: str, lo: str, hi: str, rank: int) -> set[str]:
    return {f"{f}{rank}" for f in files[files.index(lo):files.index(hi) + 1]}


# ---------------------------------------------------------------------- boards and starts


def test_cam_board_is_the_corrected_list():
    files = "ABCDEFG"
    want = {"D1", "D13"} | span(files, "C", "E", 2) | span(files, "C", "E", 12)
    want |= span(files, "B", "F", 3) | span(files, "B", "F", 11)
    for rank in range(4, 11):
        want |= span(files, "A", "G", rank)
    assert names("cam") == want
    assert len(want) == 67
    v = get_variant("cam")
    # Ruling R1: D2 and E2 exist, so the castle D1 has three neighbours.
    assert {v.cell_name(n) for n in v.board.neighbours[v.cell("D1")]} == {"C2", "D2", "E2"}


def test_camette_board():
    files = "ABCDE"
    want = {"C1", "C7"} | span(files, "B", "D", 2) | span(files, "B", "D", 6)
    for rank in range(3, 6):
        want |= span(files, "A", "E", rank)
    assert names("camette") == want
    assert len(want) == 23
    v = get_variant("camette")
    assert {v.cell_name(n) for n in v.board.neighbours[v.cell("C1")]} == {"B2", "C2", "D2"}


def test_chivalry_board():
    files = "ABCDEFGHIJKLMN"
    want = {"G1", "H1", "G16", "H16"}
    for lo, hi, low_rank in (("D", "K", 2), ("C", "L", 3), ("B", "M", 4)):
        want |= span(files, lo, hi, low_rank) | span(files, lo, hi, 17 - low_rank)
    for rank in range(5, 13):
        want |= span(files, "A", "N", rank)
    assert names("chivalry") == want
    assert len(want) == 176


@pytest.mark.parametrize("variant, white, black", [
    ("cam", {"D1"}, {"D13"}),
    ("camette", {"C1"}, {"C7"}),
    ("chivalry", {"G1", "H1"}, {"G16", "H16"}),
])
def test_castles(variant, white, black):
    v = get_variant(variant)
    assert {v.cell_name(c) for c in v.own_castle[0]} == white
    assert {v.cell_name(c) for c in v.own_castle[1]} == black
    assert v.target_castle == (v.own_castle[1], v.own_castle[0])


@pytest.mark.parametrize("variant, knights, men", [
    ("cam", "C4 E4", "B5 C5 D5 E5 F5"),
    ("camette", "C2", "B3 C3 D3"),
    ("chivalry", "C6 D6 K6 L6 C7 D7 K7 L7", "E6 E7 F6 F7 G6 G7 H6 H7 I6 I7 J6 J7"),
])
def test_start_is_white_and_its_mirror(variant, knights, men):
    pos = Position.start(variant)
    v = pos.variant
    top = max(v.board.ranks) + 1
    white = {**{c: "knight" for c in knights.split()}, **{c: "man" for c in men.split()}}
    for seat, flip in ((0, False), (1, True)):
        got = {}
        for cell in pos.pieces(seat):
            f, r = v.file_rank(cell)
            got[f"{v.board.files[f]}{top - r if flip else r}"] = pos.piece_at(cell)[1]
        assert got == white
    assert pos.turn == 0


# ---------------------------------------------------------------------- reference counts

# FAMILY-RULES §11 (an independent generator) for depths 1-2; deeper ones are canter's own.
COUNTS = {"cam": (54, 2916), "camette": (22, 345), "chivalry": (132, 17470)}


@pytest.mark.parametrize("variant", sorted(COUNTS))
@pytest.mark.parametrize("depth", [1, 2])
def test_reference_counts(variant, depth):
    assert perft(Position.start(variant), depth) == COUNTS[variant][depth - 1]


# canter's own deeper counts (docs/rules.md §4), pinned so that a change shows.
@pytest.mark.parametrize("variant, depth, nodes", [
    ("cam", 3, 166212), ("camette", 3, 4926), ("camette", 4, 65908),
    ("chivalry", 3, 2456802),
])
def test_deeper_counts(variant, depth, nodes):
    assert perft(Position.start(variant), depth) == nodes


def test_camette_opening_moves_are_the_listed_22():
    listed = ("B3-A3 B3-A4 B3-B2 B3-B4 B3-C4 C2-B2 C2-D2 C2-A4 C2-C4 C2-E4 C3-A3 C3-B2 C3-B4 "
              "C3-C4 C3-D2 C3-D4 C3-E3 D3-C4 D3-D2 D3-D4 D3-E3 D3-E4").split()
    assert spellings(Position.start("camette")) == set(listed)


# ---------------------------------------------------------------------- move kinds


def test_plain_moves_go_eight_ways_and_never_into_the_own_castle():
    assert spellings(setup("cam", w="D2", b="A10")) == {
        "D2-C2", "D2-E2", "D2-C3", "D2-D3", "D2-E3"}  # not D1, the own castle


def test_canter_over_own_pieces_in_several_legs():
    pos = setup("cam", w="D5 D6 D8", b="G10")
    # D5 over D6 to D7, then over D8 to D9; D7 itself is a landing too.
    assert {"D5-D7", "D5-D7-D9"} <= spellings(pos, "D5")


def test_jump_is_compulsory_with_a_free_choice():
    assert spellings(setup("camette", w="C3", b="B4 D4")) == {"C3xA5", "C3xE5"}


def test_jump_chains_must_continue():
    pos = setup("cam", w="B4", b="B5 C7 G10")
    assert spellings(pos) == {"B4xB6xD8"}


def test_knights_canter_rule_forces_the_charge():
    pos = setup("cam", w="KC4 C5 A4", b="C7 G10")
    moves = spellings(pos, "C4")
    assert "C4-C6xC8" in moves
    assert "C4-C6" not in moves  # it lands next to C7 with C8 empty: it must capture


def test_own_castle_entered_by_a_jump_then_left_next_turn():
    pos = play(setup("cam", w="D3 A10", b="D2 G10"), "D3xD1")
    assert pos.to_string().split()[4] == "D1"  # the exit duty
    play(pos, "G10-G9")
    assert spellings(pos) == {"D1-C2", "D1-D2", "D1-E2"}


def test_chivalry_jumps_along_file_n():
    assert spellings(setup("chivalry", w="N5 A8", b="N6 B12")) == {"N5xN7"}


# ---------------------------------------------------------------------- Cam family endings


@pytest.mark.parametrize("variant, white, black, move", [
    ("cam", "D12 A4", "G10", "D12-D13"),
    ("camette", "C6 A4", "E3", "C6-C7"),
])
def test_a_plain_move_into_the_castle_wins(variant, white, black, move):
    pos = play(setup(variant, w=white, b=black), move)
    out = pos.outcome()
    assert out.winner == 0
    assert out.text() == "white wins: a piece in the black castle"
    assert pos.legal_moves() == []


def test_a_canter_may_enter_the_castle_and_wins():
    pos = play(setup("camette", w="C5 C6", b="A3"), "C5-C7")
    assert pos.outcome().text() == "white wins: a piece in the black castle"


def test_a_jump_chain_ends_on_entering_the_castle():
    # From D13 the chain could go on over C12 to B11, but entry ends the move (R3).
    pos = setup("cam", w="D11 A4", b="D12 C12 G9")
    assert spellings(pos) == {"D11xD13"}
    assert play(pos, "D11xD13").outcome().winner == 0


def test_a_charge_into_the_castle_wins():
    pos = play(setup("camette", w="KC3 C4", b="C6 A3"), "C3-C5xC7")
    assert pos.outcome().text() == "white wins: a piece in the black castle"


def test_non_capturing_entry_is_illegal_when_a_capture_is_due():
    # R7: D12-D13 would win, but A5xA7 is compulsory.
    assert spellings(setup("cam", w="D12 A5", b="A6 G10")) == {"A5xA7"}


def test_capturing_everything_wins_with_one_piece_left():
    pos = play(setup("cam", w="D4", b="D5"), "D4xD6")
    assert pos.outcome().text() == "white wins: black has no pieces left"


def test_one_piece_each_plays_on():
    pos = play(setup("cam", w="D4", b="D5 G10"), "D4xD6")
    assert pos.outcome() is None
    assert pos.legal_moves()


def test_no_legal_move_loses():
    pos = setup("cam", turn="b", w="A5 B5 B4 B3 A6 C6 C4 C2", b="A4")
    assert pos.legal_moves() == []
    assert pos.outcome().text() == "white wins: black has no legal move"


def test_third_repetition_draws():
    pos = setup("camette", w="KA3", b="KE5")
    play(pos, "A3-A4", "E5-E4", "A4-A3", "E4-E5", "A3-A4", "E5-E4", "A4-A3")
    assert pos.outcome() is None
    play(pos, "E4-E5")
    assert pos.outcome().text() == "draw: third repetition"


def test_quiet_limit_draws():
    rules = get_variant("cam").default_rules.with_option("quiet_limit", 3)
    pos = play(setup("cam", w="KA4", b="KG10", rules=rules), "A4-A5", "G10-G9", "A5-A6")
    assert pos.outcome().text() == "draw: 3 plies without capture or castle entry"


# ---------------------------------------------------------------------- Chivalry endings


def test_chivalry_needs_two_pieces_in_the_castle():
    assert play(setup("chivalry", w="H15 A8", b="N5 N6"), "H15-H16").outcome() is None
    pos = play(setup("chivalry", w="G16 H15 A8", b="N5 N6"), "H15-H16")
    assert pos.outcome().text() == "white wins: two pieces in the black castle"


def test_chivalry_castle_moves_two_per_game():
    assert spellings(setup("chivalry", w="G16 A8", b="N5 N6"), "G16") == {"G16-H16"}
    assert spellings(setup("chivalry", w="G16 A8", b="N5 N6", castle_moves=(2, 0)), "G16") == set()


def test_chivalry_capture_all_with_one_piece_is_a_draw():
    pos = play(setup("chivalry", w="D4", b="D5 D7"), "D4xD6xD8")
    assert pos.outcome().winner is None
    assert "too few pieces" in pos.outcome().reason


def test_chivalry_two_against_one_plays_on_by_default():
    assert play(setup("chivalry", w="D4 L8", b="D5 N12"), "D4xD6").outcome() is None


def test_parker_1887_one_piece_against_two_loses():
    rules = get_variant("chivalry").default_rules.with_option("parker_1887", True)
    pos = play(setup("chivalry", w="D4 L8", b="D5 N12", rules=rules), "D4xD6")
    out = pos.outcome()
    assert out.text() == "white wins: black has one piece left"
    assert out.ranking == ((0,), (1,))
    # One against one stays a draw under the option.
    assert setup("chivalry", w="D4", b="N12", rules=rules).outcome().text() == (
        "draw: each side has at most one piece")


def test_chivalry_one_piece_each_is_a_draw():
    pos = play(setup("chivalry", w="D4", b="D5 N12"), "D4xD6")
    assert pos.outcome().text() == "draw: each side has at most one piece"


def test_chivalry_no_legal_move_loses():
    # Black's A5 (rank 4 has no A) is walled in by White pieces it cannot jump.
    pos = setup("chivalry", turn="b", w="A6 B6 B5 B4 A7 C7 C5 C3 N12", b="A5")
    assert pos.legal_moves() == []
    assert pos.outcome().text() == "white wins: black has no legal move"


def test_chivalry_keeps_both_exit_duties_of_its_two_cell_castle():
    # G1 owes an exit but cannot move, so White plays as usual: H3xH1 sends a second piece
    # into the castle. Once H1 has gone, G1 (now free to go) must still leave.
    pos = Position.from_string(
        "chivalry 2/8/10/12/13b/14/14/14/14/14/14/14/12/2w1www3/2wwb3/w1 w 0,0 G1 - 0 0")
    assert spellings(pos) == {"G2xI2", "H3xH1"}
    play(pos, "H3xH1")
    assert pos.to_string().split()[4] == "G1,H1"
    play(pos, "N12-N11", "H1-I2", "N11-N10")
    assert pos.to_string().split()[4] == "G1"
    assert spellings(pos) == {"G1-H2"}
