"""Tri-Camelot rules (RULES.md §2, §3) on hand-built positions with hand-counted moves.

Geometry reminder for counting by hand: the neighbours of (file, rank) are (file, rank±2)
and (file±1, rank±1); a leap repeats the step twice. Blue's own castle is F1, its target
(Red, on its left) A16, its forbidden castle (Green, on its right) K16.
"""

from __future__ import annotations

import pytest

from canter.engine import IllegalMoveError, Position, format_move, parse_move
from canter.engine.rules.variant import KNIGHT, MAN, Rules, get_variant

TRI = get_variant("tri-camelot")
BLUE, RED, GREEN = 0, 1, 2


def tri(spec: str, turn: int = BLUE, rules: Rules | None = None,
        duty: str | None = None) -> Position:
    """`spec` like "b:F9 B:F5 r:F11 g:K12": seat letter (upper case = Knight) and cell."""
    pos = Position(TRI, rules)
    for item in spec.split():
        letter, cell = item.split(":")
        pos.put(TRI.cell(cell), TRI.seat_index(letter.lower()),
                KNIGHT if letter.isupper() else MAN)
    pos.turn = turn
    if duty:
        pos.duty[TRI.castle_owner[TRI.cell(duty)]] = 1 << TRI.cell(duty)
    pos.reset_derived()
    return pos


def spelled(pos: Position, start: str | None = None) -> set[str]:
    return {format_move(TRI, m) for m in pos.legal_moves()
            if start is None or m.start == TRI.cell(start)}


def ends(pos: Position, start: str) -> set[str]:
    return {TRI.cell_name(m.end) for m in pos.legal_moves() if m.start == TRI.cell(start)}


def play(pos: Position, *moves: str) -> Position:
    for text in moves:
        pos.push(parse_move(pos, text))
    return pos


# ---- §3 notation examples, on the Tri-Camelot board -------------------------------------

def test_plain_move_example() -> None:
    pos = tri("b:C8 r:A12 g:K12")
    # C8 (file 2, rank 8): C10 C6 D9 B9 D7 (B7 is off the board: file B starts at 9).
    assert ends(pos, "C8") == {"C10", "C6", "D9", "B9", "D7"}
    m = parse_move(pos, "C8-D9")
    assert (m.is_capture, format_move(TRI, m)) == (False, "C8-D9")
    pos.push(m)
    assert pos.piece_at(TRI.cell("D9")) == (BLUE, "man") and pos.turn == RED


def test_canter_example() -> None:
    pos = tri("b:E6 b:D7 b:C10 r:A12 g:K12")
    m = parse_move(pos, "E6-C8-C12")
    assert format_move(TRI, m) == "E6-C8-C12" and not m.is_capture
    # E6 canters over D7 to C8 and over C10 to C12: C8 on the way is also a move of its own.
    assert {"C8", "C12"} <= ends(pos, "E6")
    pos.push(m)
    assert pos.piece_at(TRI.cell("C12")) == (BLUE, "man")


def test_jump_example_takes_pieces_of_both_opponents() -> None:
    pos = tri("b:H5 r:H7 g:G10 r:A12 g:K12")
    # H5 over H7 (Red) to H9, then over G10 (Green) to F11; nothing else is legal.
    assert spelled(pos) == {"H5xH9xF11"}
    m = parse_move(pos, "h5xh9xf11")
    pos.push(m)
    assert {TRI.cell_name(c) for c in m.captures} == {"H7", "G10"}
    assert pos.piece_at(TRI.cell("H7")) is None and pos.piece_at(TRI.cell("G10")) is None
    # The short form names the same move; stopping after one jump is not a move.
    pos.pop()
    assert parse_move(pos, "H5xF11") == m
    with pytest.raises(IllegalMoveError, match="continue"):
        parse_move(pos, "H5xH9")


def test_charge_example() -> None:
    # Knight F5 canters over F7 and G10 (own), then jumps G12 (Red) and E12 (Green).
    # G14 (own) keeps G10 from jumping G12, so the charge is a free choice, not a duty.
    pos = tri("B:F5 b:F7 b:G10 b:G14 r:G12 g:E12 r:A12 g:K12")
    assert not pos.must_capture()
    m = parse_move(pos, "F5-F9-H11xF13xD11")
    assert m.is_charge and format_move(TRI, m) == "F5-F9-H11xF13xD11"
    assert {TRI.cell_name(c) for c in m.captures} == {"G12", "E12"}
    pos.push(m)
    assert pos.piece_at(TRI.cell("D11")) == (BLUE, "knight")


def test_a_man_cannot_charge() -> None:
    pos = tri("b:F5 b:F7 b:G10 b:G14 r:G12 g:E12 r:A12 g:K12")
    with pytest.raises(IllegalMoveError, match="Knight"):
        parse_move(pos, "F5-F9-H11xF13xD11")


# ---- canters over own pieces only; jumps over either opponent -----------------------------

def test_canters_leap_own_pieces_only() -> None:
    # Blue F9 and G10; Red E8 with Red D7 behind it (so no jump); Green far away.
    pos = tri("b:F9 b:G10 r:E8 r:D7 g:K12")
    # F9: plain F11 F7 G8 E10; canter over G10 to H11 (5). G10: plain G12 G8 H11 H9 F11;
    # no canter over F9 since E8 is taken (5). Nothing leaps over E8.
    assert len(pos.legal_moves()) == 10
    assert ends(pos, "F9") == {"F11", "F7", "G8", "E10", "H11"}
    assert ends(pos, "G10") == {"G12", "G8", "H11", "H9", "F11"}
    # Over an enemy piece the leg is a jump, not a canter: the error says how to write it.
    with pytest.raises(IllegalMoveError, match="G10 holds an enemy piece; a jump is written"):
        parse_move(tri("b:F9 r:G10 r:D7 g:K12"), "F9-H11")
    with pytest.raises(IllegalMoveError, match="piece of one's own"):
        parse_move(tri("b:F9 r:D7 g:K12"), "F9-H11")


def test_leaping_an_opponent_is_a_capture() -> None:
    for other in ("r", "g"):
        pos = tri(f"b:F9 {other}:E8 b:G10 r:A12 g:K12")
        assert spelled(pos) == {"F9xD7"}


def test_red_canters_over_red_only() -> None:
    # Red Man C10 with Red C12 and Blue D11 beside both; D11's far sides (E12 from C10,
    # E10 from C12) are Green, so no jump.
    pos = tri("r:C10 r:C12 b:D11 g:E12 g:E10 b:F5 g:K12", turn=RED)
    # C10: plain C8 B11 D9 B9 (C12, D11 taken); canter over C12 to C14 (5).
    # C12: plain C14 B13 D13 B11 (C10, D11 taken); canter over C10 to C8 (5).
    assert ends(pos, "C10") == {"C8", "B11", "D9", "B9", "C14"}
    assert ends(pos, "C12") == {"C14", "B13", "D13", "B11", "C8"}
    assert len(pos.legal_moves()) == 10


# ---- duty to capture ---------------------------------------------------------------------

def test_duty_to_capture_but_not_the_most() -> None:
    pos = tri("b:F9 r:G10 b:C6 g:D7 r:E10 b:B11 g:K12")
    assert pos.must_capture()
    # F9 over G10 to H11, or over E10 to D11: one piece each, nothing more from there.
    # C6 over D7 (Green) to E8 must go on over E10 (Red) to E12: two pieces, both
    # opponents. Capturing fewer is as legal as capturing more; B11 may not move.
    assert spelled(pos) == {"F9xH11", "F9xD11", "C6xE8xE12"}
    with pytest.raises(IllegalMoveError, match="continue"):
        parse_move(pos, "C6xE8")


def test_duty_to_capture_chain_of_two_is_optional_length_free() -> None:
    pos = tri("b:D7 g:E8 r:G10 b:B11 g:K12 r:A12")
    # D7 over E8 to F9, then over G10 to H11: the chain must continue; B11 may not move.
    assert spelled(pos) == {"D7xF9xH11"}
    with pytest.raises(IllegalMoveError, match="continue"):
        parse_move(pos, "D7xF9")
    with pytest.raises(IllegalMoveError, match="compulsory"):
        parse_move(pos, "B11-B13")


def test_an_available_charge_creates_no_duty() -> None:
    # Knight F5 could canter over F7 to F9 and jump G10 (Red) to H11: a charge, not a duty.
    pos = tri("B:F5 b:F7 r:G10 g:K12")
    assert not pos.must_capture()
    # Knight F5: plain F3 G6 E4 G4 E6 (5) + charge F5-F9xH11 (1); the canter to F9 lands
    # beside G10 with H11 empty, so the Knight's canter rule forbids it as a quiet move.
    assert spelled(pos, "F5") == {"F5-F3", "F5-G6", "F5-E4", "F5-G4", "F5-E6", "F5-F9xH11"}
    # Man F7: plain F9 G8 E6 G6 E8 (5) + canter over F5 to F3 (1).
    assert ends(pos, "F7") == {"F9", "G8", "E6", "G6", "E8", "F3"}
    assert len(pos.legal_moves()) == 12


def test_men_have_no_canter_rule() -> None:
    pos = tri("b:F5 b:F7 r:G10 g:K12")
    # The same position with a Man on F5: it may canter to F9, and has no charge.
    assert ends(pos, "F5") == {"F3", "G6", "E4", "G4", "E6", "F9"}
    assert len(pos.legal_moves()) == 12


# ---- Knight's canter rule ----------------------------------------------------------------

def test_knight_canter_rule_needs_one_clean_route() -> None:
    # Knight F5; own F7 G6 H9 G10; Red E10 with D11 empty. F9 (over F7) offers the jump
    # E10 -> D11; H7 (over G6) and H11 (over H9 from H7, or over G10 from F9) do not.
    pos = tri("B:F5 b:F7 b:G6 b:H9 b:G10 r:E10 g:K12")
    assert not pos.must_capture()
    # Plain: F3 E4 G4 E6 (F7, G6 own). Canter: H7, H11 (clean via H7); not F9.
    # Charge: to F9 by any route, then x D11 (the route is not part of the move).
    assert spelled(pos, "F5") == {"F5-F3", "F5-E4", "F5-G4", "F5-E6", "F5-H7", "F5-H7-H11",
                                  "F5-F9xD11"}
    # The charge may also be written over the longer route, and a canter over the dirty
    # route to H11 is accepted because the clean one makes the same move legal.
    assert parse_move(pos, "F5-H7-H11-F9xD11") == parse_move(pos, "F5-F9xD11")
    assert parse_move(pos, "F5-F9-H11") == parse_move(pos, "F5-H7-H11")
    with pytest.raises(IllegalMoveError, match="Knight"):
        parse_move(pos, "F5-F9")


def test_knight_canter_rule_ignores_jumps_into_the_forbidden_castle() -> None:
    # Knight I10 canters over own J11 to K12. K12's only enemy neighbour is Green K14, and
    # beyond it lies K16, Blue's forbidden castle: no jump, so the canter is legal.
    pos = tri("B:I10 b:J11 g:K14 r:A12")
    assert not pos.must_capture()
    assert "K12" in ends(pos, "I10")
    # Contrast: Green on J13 with I14 empty is a real jump from K12, so the Knight may not
    # stop there (and has the charge I10-K12xI14 instead). Green J15 keeps J11 from
    # jumping J13, so nothing is compulsory.
    pos = tri("B:I10 b:J11 g:J13 g:J15 r:A12")
    assert not pos.must_capture()
    assert "K12" not in {TRI.cell_name(m.end) for m in pos.legal_moves()
                         if m.start == TRI.cell("I10") and not m.is_capture}
    assert "I10-K12xI14" in spelled(pos, "I10")


# ---- castles -------------------------------------------------------------------------------

def test_own_castle_never_entered_by_a_step_or_canter() -> None:
    pos = tri("b:F3 b:F5 r:A12 g:K12")
    # F3: plain F1? no (own castle); G4 E2 G2 E4 (F5 own) -> 4; canter over F5 to F7 -> 1.
    # F5: plain F7 G6 E4 G4 E6 -> 5; canter over F3 to F1? no (own castle).
    assert ends(pos, "F3") == {"G4", "E2", "G2", "E4", "F7"}
    assert ends(pos, "F5") == {"F7", "G6", "E4", "G4", "E6"}
    with pytest.raises(IllegalMoveError, match="own castle"):
        parse_move(pos, "F5-F1")
    with pytest.raises(IllegalMoveError, match="own castle"):
        parse_move(pos, "F3-F1")


def test_own_castle_entered_by_a_jump_sets_the_exit_duty() -> None:
    pos = tri("b:F5 r:F3 b:J11 r:A12 g:E18")
    # F5 over F3 to F1, the own castle; F1's other leaps (over E2, G2) find no enemy.
    # The capture is compulsory, so J11 may not move.
    assert spelled(pos) == {"F5xF1"}
    play(pos, "F5xF1")
    assert pos.duty[BLUE] == 1 << TRI.cell("F1")
    assert pos.to_string().split()[4] == "F1"
    assert Position.from_string(pos.to_string()).to_string() == pos.to_string()
    play(pos, "A12-A14", "E18-E16")
    # Blue's turn: only the F1 piece moves, although J11 has moves. F1: plain F3 E2 G2
    # (no canter: F3 is empty now).
    assert pos.turn == BLUE
    assert spelled(pos) == {"F1-F3", "F1-E2", "F1-G2"}
    play(pos, "F1-E2")
    assert pos.duty[BLUE] == 0


def test_a_jump_into_the_own_castle_continues_if_it_can() -> None:
    pos = tri("b:F5 r:F3 g:E2 r:A12 g:K12")
    # F5 x F3 lands on F1 and must go on over E2 (Green) to D3: one chain, two opponents.
    assert spelled(pos) == {"F5xF1xD3"}
    with pytest.raises(IllegalMoveError, match="continue"):
        parse_move(pos, "F5xF1")


def test_exit_duty_replaces_the_duty_to_capture_elsewhere() -> None:
    # Blue on F1 with the duty; Blue F9 could take F11 (Red), but the F1 piece must leave.
    pos = tri("b:F1 b:F9 r:F11 r:A12 g:K12", duty="F1")
    assert spelled(pos) == {"F1-F3", "F1-E2", "F1-G2"}
    # If the castle piece can jump, it must capture: Red on E2 with D3 empty.
    pos = tri("b:F1 b:F9 r:F11 r:E2 g:K12", duty="F1")
    assert spelled(pos) == {"F1xD3"}


def test_exit_duty_knight_may_charge_out() -> None:
    # Knight on F1 with the duty; own F3 lets it canter to F5, which is beside Red G6 with
    # H7 empty: so it may not stop on F5, but it may charge F1-F5xH7.
    pos = tri("B:F1 b:F3 r:G6 r:A12 g:K12", duty="F1")
    assert spelled(pos) == {"F1-E2", "F1-G2", "F1-F5xH7"}


def test_exit_duty_when_the_castle_piece_cannot_move() -> None:
    # F1 hemmed in by Blue's own F3 (no canter: F5 taken) and Red E2, G2 (D3, H3 taken).
    spec = "b:F1 b:F3 b:F5 r:E2 r:G2 r:D3 r:H3 r:A12 g:K12"
    pos = tri(spec, duty="F1")
    # Normal rules for this turn: F3 and F5 may move; F3 may jump? F3 beside E2 (D1: no
    # cell) and G2 (H1: no cell) -> no. F3 plain: G4 E4; F5 plain F7 G6 E4 G4 E6;
    # canter F5 over F3 to F1? own castle, no; F3 over F5 to F7.
    assert spelled(pos) == {"F3-G4", "F3-E4", "F3-F7", "F5-F7", "F5-G6", "F5-E4", "F5-G4",
                            "F5-E6"}
    play(pos, "F5-F7")
    assert pos.duty[BLUE] == 1 << TRI.cell("F1")  # the duty stays (exit_duty_persists)
    lapse = tri(spec, duty="F1", rules=TRI.default_rules.with_option("exit_duty_persists",
                                                                      "false"))
    play(lapse, "F5-F7")
    assert lapse.duty[BLUE] == 0


def test_forbidden_castle_is_never_entered() -> None:
    # Blue K12 and K14: K14 may not step or canter into K16 (Green's castle, Blue's right).
    pos = tri("b:K12 b:K14 r:A12 g:E18")
    # K12: plain J13 J11 (K14 own; no canter over K14 to K16). K14: plain J15 J13.
    assert spelled(pos) == {"K12-J13", "K12-J11", "K14-J15", "K14-J13"}
    with pytest.raises(IllegalMoveError, match="right"):
        parse_move(pos, "K12-K16")
    with pytest.raises(IllegalMoveError, match="right"):
        parse_move(pos, "K14-K16")


def test_a_jump_into_the_forbidden_castle_does_not_exist() -> None:
    # Green K14 in front of its castle: Blue K12 cannot jump it (K16 is forbidden to Blue),
    # so there is no duty to capture: K12 steps to J13 or J11, D5 moves freely.
    pos = tri("b:K12 g:K14 b:D5 r:A12")
    assert not pos.must_capture()
    # D5: D7 D3 E6 C6? (C has even ranks from 6: C6 yes) E4 C4? no -> D7 D3 E6 C6 E4.
    assert spelled(pos) == {"K12-J13", "K12-J11", "D5-D7", "D5-D3", "D5-E6", "D5-C6",
                            "D5-E4"}
    with pytest.raises(IllegalMoveError, match="right"):
        parse_move(pos, "K12xK16")


def test_a_jump_chain_stops_before_the_forbidden_castle() -> None:
    # I10 over J11 (Red) to K12; the next leg over K14 (Green) would land on K16: it does
    # not exist, so the chain ends on K12 and takes J11 alone.
    pos = tri("b:I10 r:J11 g:K14 r:A12 b:D5")
    assert spelled(pos) == {"I10xK12"}


def test_red_and_green_castles_forbidden_in_turn() -> None:
    # Red's right is Blue: Red never enters F1. Green's right is Red: never A16.
    pos = tri("r:F3 b:K12 g:K14", turn=RED)
    assert "F1" not in ends(pos, "F3")
    pos = tri("g:B15 b:F5 r:D13", turn=GREEN)
    assert "A16" not in ends(pos, "B15")
    assert ends(pos, "B15") == {"B17", "B13", "C16", "A14", "C14"}


# ---- the target castle ----------------------------------------------------------------------

def test_one_piece_in_the_target_castle_wins() -> None:
    pos = tri("b:B15 r:C12 g:K12")
    assert "A16" in ends(pos, "B15")
    play(pos, "B15-A16")
    out = pos.outcome()
    assert out is not None and out.winner == BLUE
    assert out.text() == "blue wins: a piece in the red castle"
    assert out.ranking == ((BLUE,), (RED, GREEN))
    assert pos.legal_moves() == []


def test_entering_the_target_by_canter_ends_the_move() -> None:
    # Blue C12 canters over B13 into... no: C14 over B15 lands on A16, the target.
    pos = tri("b:C14 b:B15 b:A12 r:D17 g:K12")
    assert "A16" in ends(pos, "C14")
    play(pos, "C14-A16")
    assert pos.outcome().winner == BLUE


def test_a_jump_into_the_target_ends_the_chain_and_wins() -> None:
    # C14 over B15 (Red) into A16; from there A14 (Green) with A12 empty would be a
    # further jump, but entering the castle ends the move.
    pos = tri("b:C14 r:B15 g:A14 g:K12")
    assert spelled(pos) == {"C14xA16"}
    play(pos, "C14xA16")
    assert pos.outcome().winner == BLUE


def test_a_non_capturing_entry_is_illegal_when_a_capture_is_compulsory() -> None:
    pos = tri("b:B15 b:F9 r:F11 g:K12")
    assert spelled(pos) == {"F9xF13"}
    with pytest.raises(IllegalMoveError, match="compulsory"):
        parse_move(pos, "B15-A16")


def test_red_and_green_targets() -> None:
    pos = tri("r:J15 b:F5 g:D13", turn=RED)
    play(pos, "J15-K16")
    assert pos.outcome().text() == "red wins: a piece in the green castle"
    pos = tri("g:E2 b:F9 r:D13", turn=GREEN)
    play(pos, "E2-F1")
    assert pos.outcome().text() == "green wins: a piece in the blue castle"
    assert pos.outcome().ranking == ((GREEN,), (BLUE, RED))


def test_a_chain_that_can_go_on_into_the_target_must() -> None:
    # E12 over D13 (Red) to C14; from there B15 (Green) with A16, the target, behind it:
    # the chain must continue, and entering A16 wins.
    pos = tri("b:E12 r:D13 g:B15 r:A12 g:K12")
    assert spelled(pos) == {"E12xC14xA16"}
    with pytest.raises(IllegalMoveError, match="continue"):
        parse_move(pos, "E12xC14")
    play(pos, "E12xC14xA16")
    assert pos.outcome().text() == "blue wins: a piece in the red castle"
