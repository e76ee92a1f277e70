"""Grand Cam (FAMILY-RULES §6): four seats in two teams. Hand-built positions for each team
rule: canters over partners, no jumps over them, chains through both opponents, eliminated
seats skipped, blockades, castle entries, repetition; the start's counts (§11)."""

from __future__ import annotations

import pytest
from builders import setup, spellings

from canter.engine import Position, PositionError, format_move, parse_move
from canter.engine.rules import movegen
from canter.engine.rules.notation import IllegalMoveError
from canter.engine.rules.perft import perft
from canter.engine.rules.variant import Rules, get_variant

GC = get_variant("grand-cam")
RED, GREEN, BLUE, YELLOW = range(4)

# FAMILY-RULES §11: Red's 26 openings.
RED_OPENINGS = set("""F2-E3 F2-F4 F2-H4 F3-E3 F3-E4 F3-F4 F3-H5 G2-E4 G2-I4 G3-E3 G3-F4 G3-G5
G3-H4 G3-I3 G4-F4 G4-F5 G4-G5 G4-H4 G4-H5 H2-F4 H2-H4 H2-I3 H3-F5 H3-H4 H3-I3 H3-I4""".split())


def gc(turn: str = "r", rules: Rules | None = None, **seats: str) -> Position:
    return setup("grand-cam", turn=turn, rules=rules, **seats)


def play(pos: Position, *moves: str) -> Position:
    for text in moves:
        pos.push(parse_move(pos, text))
    return pos


# ---- the board and the start -------------------------------------------------------------

def test_board_has_93_cells_and_no_k3() -> None:
    assert len(GC.cells) == 93
    with pytest.raises(KeyError):
        GC.cell("K3")  # Ruling R2
    assert [GC.cell_name(next(iter(c))) for c in GC.own_castle] == ["G1", "G13", "A7", "M7"]
    assert [GC.cell_name(next(iter(c))) for c in GC.target_castle] == ["G13", "G1", "M7", "A7"]
    assert GC.partners == ((RED, BLUE), (GREEN, YELLOW), (RED, BLUE), (GREEN, YELLOW))


def test_start_counts_match_the_law() -> None:
    pos = Position.start("grand-cam")
    assert spellings(pos) == RED_OPENINGS
    assert [perft(pos, d) for d in (1, 2, 3, 4)] == [26, 676, 17654, 461041]
    # Each seat has 26 moves at the start (the set-up is symmetric under the quarter turn).
    for seat in range(4):
        assert len(movegen.generate(pos, seat)) == 26


# ---- partners: canter yes, jump no (Ruling R13) -----------------------------------------------

def test_canter_over_a_partner_and_a_charge_through_one() -> None:
    # Red Knight E5; Blue Man F6 (partner) with G7 free beyond; Green Man H8 with I9 free.
    pos = gc(r="KE5", b="F6", g="H8", y="L7")
    # The canter over F6 lands on G7 next to a jumpable Green Man, so it must go on
    # (Knight's canter rule): seven steps and the charge, no plain canter to G7.
    assert spellings(pos, "E5") == {"E5-D4", "E5-D5", "E5-D6", "E5-E4", "E5-E6", "E5-F4",
                                    "E5-F5", "E5-G7xI9"}
    charge = parse_move(pos, "E5-G7xI9")
    assert charge.captures == (GC.cell("H8"),)


def test_a_man_canters_over_a_partner_but_never_jumps_one() -> None:
    # Red Man G5, Blue Man G6, G7 free: a canter, not a capture, and no duty to capture.
    pos = gc(r="G5", b="G6", g="G11", y="K7")
    assert not pos.must_capture()
    assert "G5-G7" in spellings(pos, "G5")
    assert all(not m.capture_bits for m in pos.legal_moves())
    with pytest.raises(IllegalMoveError, match="partner"):
        parse_move(pos, "G5xG7")


def test_a_jump_chain_stops_at_a_partner() -> None:
    # E5 jumps Green E6 to E7; Blue's E8 beyond cannot be jumped, and a canter leg may not
    # follow a jump, so the chain ends on E7.
    pos = gc(r="E5", g="E6", b="E8", y="K7")
    assert pos.must_capture()
    assert spellings(pos) == {"E5xE7"}


def test_one_chain_takes_pieces_of_both_opponents() -> None:
    pos = gc(r="E5", g="E6 G11", y="F8 K7", b="C5")
    assert spellings(pos) == {"E5xE7xG9"}
    play(pos, "E5xE7xG9")
    assert pos.piece_at(GC.cell("E6")) is None and pos.piece_at(GC.cell("F8")) is None


def test_duty_to_capture_looks_at_the_movers_pieces_only() -> None:
    # Blue could jump Green's F6 from F5, but it is Red's turn and Red has no jump.
    pos = gc(r="J4", b="F5", g="F6", y="K8")
    assert not pos.must_capture()
    assert len(spellings(pos)) > 1


# ---- castles ------------------------------------------------------------------------------

def test_entering_the_opposite_castle_wins_for_the_team() -> None:
    pos = gc(r="G12", g="D9", b="C5", y="K7")
    play(pos, "G12-G13")
    out = pos.outcome()
    assert out is not None and out.winner == RED and out.winners == (RED, BLUE)
    assert out.text() == "red and blue win: red entered the green castle"
    assert out.ranking == ((RED, BLUE), (GREEN, YELLOW))
    assert out.wins_for(BLUE) and not out.wins_for(GREEN)


def test_side_castles_are_closed_by_default_and_open_as_own_by_option() -> None:
    # Red Man C7 next to Green Man B7; beyond is A7, Blue's castle: a side castle for Red.
    spec = {"r": "C7", "g": "B7 G11", "b": "D3", "y": "K7"}
    pos = gc(**spec)
    assert not pos.must_capture()  # a jump into a closed castle does not exist
    assert "C7xA7" not in spellings(pos)
    with pytest.raises(IllegalMoveError, match="side castle"):
        parse_move(pos, "C7xA7")
    opened = gc(rules=Rules(repetition="auto", quiet_limit=200, side_castles="own"), **spec)
    assert opened.must_capture() and spellings(opened) == {"C7xA7"}
    play(opened, "C7xA7")
    assert opened.to_string().split()[4] == "A7"  # Red must leave Blue's castle next turn
    again = Position.from_string(opened.to_string(), opened.rules)
    assert again.to_string() == opened.to_string() and again.duty[RED] == 1 << GC.cell("A7")
    # Like the own castle: never entered by a plain step.
    stepper = gc(rules=opened.rules, r="B8", g="G11", b="D3", y="K7")
    assert "B8-A7" not in spellings(stepper)


# ---- eliminations, passes and blockades (R16-R18) -------------------------------------------

def test_an_eliminated_seat_is_skipped_and_its_castle_stays() -> None:
    pos = gc(r="E5 G4", g="E6", b="C5", y="K7")
    play(pos, "E5xE7")
    assert pos.eliminated == (GREEN,) and pos.outcome() is None
    assert pos.turn == BLUE
    assert pos.to_string().split()[2:6] == ["b", "0,0,0,0", "-", "g"]
    play(pos, "C5-C4", "K7-K6")
    assert pos.turn == RED  # Yellow -> Red: Green is skipped
    play(pos, "E7-E8")
    assert pos.turn == BLUE


def test_one_chain_eliminating_both_opponents_joins_them_by_plus() -> None:
    pos = play(gc(r="E5 G4", g="E6", b="C5", y="E8"), "E5xE7xE9")
    assert pos.eliminated == (GREEN, YELLOW)
    text = pos.to_string()
    assert text.split()[5] == "g+y"
    again = Position.from_string(text)
    assert again.to_string() == text
    out, back = pos.outcome(), again.outcome()
    assert out.winners == back.winners == (RED, BLUE)
    assert out.ranking == back.ranking and out.reason == back.reason


def test_seats_of_both_teams_without_pieces_at_set_up_went_out_apart() -> None:
    pos = gc(r="E5 G4", y="E8")  # Green and Blue have no pieces: the game goes on
    assert pos.outcome() is None and pos.eliminated == (GREEN, BLUE)
    text = pos.to_string()
    assert text.split()[5] == "g,b"
    pos.push(pos.legal_moves()[0])
    pos.pop()
    assert pos.to_string() == text
    # '+' says that one move took them both, which would have ended the game.
    joined = text.replace(" g,b ", " g+b ")
    with pytest.raises(PositionError) as err:
        Position.from_string(joined)
    assert err.value.field == "eliminated" and "goes on" in err.value.reason


def test_the_castle_of_an_eliminated_seat_still_wins() -> None:
    pos = gc(turn="r", r="G12", b="C5", y="K7")  # Green is already out
    assert pos.eliminated == (GREEN,)
    play(pos, "G12-G13")
    assert pos.outcome().winners == (RED, BLUE)


def test_taking_both_opponents_wins_whatever_is_left() -> None:
    # Red is out; Blue takes Yellow's last piece; Green is out too.
    pos = gc(turn="b", b="I7", y="J7")
    assert pos.eliminated == (RED, GREEN)
    play(pos, "I7xK7")
    out = pos.outcome()
    assert out.winners == (RED, BLUE) and out.reason == "green and yellow have no pieces left"


# Green's only piece is in its own castle G13, walled in by Red: F12 G12 H12 next to it and
# E11 G11 I11 beyond them are all Red. Yellow's only piece is in M7, walled in by Blue the
# same way (L6 L7 L8, and K5 K7 K9 beyond). Red G4 moves freely.
WALLED = {"r": "F12 G12 H12 E11 G11 I11 G4", "g": "G13", "b": "L6 L7 L8 K5 K7 K9", "y": "M7"}


def test_a_team_with_no_move_is_blockaded_and_loses() -> None:
    pos = gc(**WALLED)
    assert not movegen.has_move(pos, GREEN) and not movegen.has_move(pos, YELLOW)
    play(pos, "G4-G5")
    out = pos.outcome()
    assert out is not None and out.winners == (RED, BLUE)
    assert out.reason == "green and yellow blockaded"
    assert out.ranking == ((RED, BLUE), (GREEN, YELLOW))


def test_a_stuck_seat_passes_while_its_partner_can_move() -> None:
    spec = dict(WALLED, y="M7 J3")  # Yellow's J3 is free to move
    pos = gc(**spec)
    play(pos, "G4-G5")
    assert pos.outcome() is None and pos.turn == BLUE  # Green passed, automatically
    play(pos, "K5-J5")  # Blue may leave the wall: nothing of Yellow's is jumpable there
    assert pos.turn == YELLOW
    assert len(pos.move_stack) == 2  # no pass is recorded (Ruling R26)


def test_pass_only_option_lets_a_blockaded_team_pass() -> None:
    spec = dict(WALLED, b=WALLED["b"] + " D3")  # a Blue Man that moves without opening M7
    pos = gc(rules=Rules(repetition="auto", quiet_limit=200, no_move="pass"), **spec)
    play(pos, "G4-G5")
    assert pos.outcome() is None and pos.turn == BLUE  # Green passed
    play(pos, "D3-D4")
    assert pos.turn == RED  # Yellow passed too


def test_a_set_up_whose_seat_to_move_is_stuck_passes_on() -> None:
    # Green to move but walled in (and Yellow too), pass only: the turn goes on to Blue.
    pos = gc(turn="g", rules=Rules(repetition="auto", quiet_limit=200, no_move="pass"),
             **WALLED)
    assert pos.outcome() is None and pos.turn == BLUE


# ---- draws (R25) ------------------------------------------------------------------------------

def test_third_repetition_with_four_seats() -> None:
    pos = gc(r="G4", g="G10", b="D7", y="J7")
    cycle = ("G4-G5", "G10-G9", "D7-D6", "J7-J6", "G5-G4", "G9-G10", "D6-D7", "J6-J7")
    play(pos, *cycle)
    assert pos.repetitions() == 2 and pos.outcome() is None
    play(pos, *cycle[:-1])
    assert pos.outcome() is None
    play(pos, cycle[-1])
    out = pos.outcome()
    assert out is not None and out.winner is None and out.reason == "third repetition"
    assert out.ranking == ((RED, GREEN, BLUE, YELLOW),)


def test_two_hundred_quiet_plies_draw() -> None:
    pos = gc(r="G4", g="G10", b="D7", y="J7")
    assert pos.rules.quiet_limit == 200
    text = pos.to_string().split()
    text[6], text[7] = "199", "199"
    pos = Position.from_string(" ".join(text))
    play(pos, "G4-G5")
    assert pos.outcome().reason == "200 plies without capture"


def test_moves_round_trip_through_notation() -> None:
    pos = Position.start("grand-cam")
    for text in ("G3-G5", "G11-G9", "C7-E7", "K7-I7"):
        move = parse_move(pos, text)
        assert format_move(GC, move) == text
        pos.push(move)
    assert pos.turn == RED and pos.ply == 4


@pytest.mark.parametrize("mover, setup_args, move", [
    (BLUE, dict(turn="b", b="I7", y="J7"), "I7xK7"),  # Red out: Blue alone
    (BLUE, dict(turn="b", r="C5", b="I7", y="J7"), "I7xK7"),  # the turn passes to Red
    (RED, dict(turn="r", r="I7", b="C5", y="J7"), "I7xK7"),  # ... and to Blue
])
def test_the_winner_of_a_won_game_is_the_same_read_back(mover, setup_args, move) -> None:
    # The seat whose move took the last piece wins; the string written of the finished
    # game names the same winner (it named the team's first seat).
    pos = gc(**setup_args)
    play(pos, move)
    again = Position.from_string(pos.to_string())
    assert pos.outcome().winner == mover == again.outcome().winner
    assert again.outcome() == pos.outcome()


def test_an_exit_duty_that_does_not_persist_lapses_with_a_pass():
    # RULES.md §1 (option): with exit_duty_persists off the duty binds the owner's next
    # turn only. Red's G1 must leave its castle but Red is walled in and passes (R17):
    # that pass is Red's turn, so on its next turn D3 may move too.
    rules = Rules(exit_duty_persists=False)
    start = "grand-cam 1/3/7/9/8g/11/10y2/11/1y1y5/yyy6/rbbb1b1/bbb/r y 0,0,0,0 G1 - 0 0"
    pos = Position.from_string(start, rules=rules)
    for text in ("K7-K6", "K9-K10", "E3xE5xG5", "K6-K5"):
        pos.push(parse_move(pos, text))
        assert pos.hash == Position.from_string(str(pos), rules=rules).hash
    assert str(pos).split()[2] == "r" and pos.duty == [0, 0, 0, 0]
    assert {format_move(pos.variant, m) for m in pos.legal_moves()} == {
        "G1-E3", "D3-E3", "D3-E4"}
    # By default the duty persists: G1 alone moves.
    kept = Position.from_string(start)
    for text in ("K7-K6", "K9-K10", "E3xE5xG5", "K6-K5"):
        kept.push(parse_move(kept, text))
    assert {format_move(kept.variant, m) for m in kept.legal_moves()} == {"G1-E3"}
    while pos.move_stack:
        pos.pop()
    assert str(pos) == start


def test_the_eliminated_seats_print_in_seat_order():
    # One string per position: the order of a team game's eliminated seats changes neither
    # its ranking nor its repetition key.
    texts = [f"grand-cam 1/3/7/9/9/11/1b11/5y5/9/9/7/3/1 b 0,0,0,0 - {out} 0 0"
             for out in ("g,r", "r,g")]
    a, b = (Position.from_string(t) for t in texts)
    assert str(a) == str(b) == texts[1] and a.hash == b.hash
