"""Tri-Camelot endings (RULES.md §2 "End of the game"): elimination, passes, draws, results
and rankings, and the position-string fields that carry them."""

from __future__ import annotations

import pytest

from canter.engine import Position, PositionError, format_move, parse_move
from canter.engine.rules.outcome import ranking_for
from canter.engine.rules.variant import KNIGHT, MAN, Rules, get_variant

TRI = get_variant("tri-camelot")
BLUE, RED, GREEN = 0, 1, 2


def tri(spec: str, turn: int = BLUE, rules: Rules | None = None) -> Position:
    pos = Position(TRI, rules)
    for item in spec.split():
        letter, cell = item.split(":")
        pos.put(TRI.cell(cell), TRI.seat_index(letter.lower()),
                KNIGHT if letter.isupper() else MAN)
    pos.turn = turn
    pos.reset_derived()
    return pos


def play(pos: Position, *moves: str) -> Position:
    for text in moves:
        pos.push(parse_move(pos, text))
    return pos


def ends(pos: Position, start: str) -> set[str]:
    return {TRI.cell_name(m.end) for m in pos.legal_moves() if m.start == TRI.cell(start)}


# Red's only piece, K12, is walled in by Green: K14 J13 J11 are taken, and the cells beyond
# them (K16, Green's castle and Red's target; I14; I10) are taken too. Green cannot jump K12
# (nothing lies beyond it). Blue D5 is far away.
RED_STUCK = "b:D5 r:K12 g:K14 g:J13 g:J11 g:I14 g:I10 g:K16"


# ---- elimination ---------------------------------------------------------------------------

def test_eliminated_seat_is_skipped_and_its_castle_stays() -> None:
    pos = tri("b:F9 r:F11 g:B15 b:K12")
    play(pos, "F9xF13")
    assert pos.eliminated == (RED,)
    assert pos.turn == GREEN  # Red is skipped
    assert pos.outcome() is None
    assert pos.to_string().split()[5] == "r"
    # A16 is still a castle: Green (Red is on Green's right) still may not enter it.
    assert ends(pos, "B15") == {"B17", "B13", "C16", "A14", "C14"}
    play(pos, "B15-B13")
    assert pos.turn == BLUE
    play(pos, "K12-J13")
    assert pos.turn == GREEN


def test_target_castle_of_an_eliminated_seat_still_wins() -> None:
    pos = tri("b:F9 r:F11 b:B15 g:K12")
    play(pos, "F9xF13", "K12-J13", "B15-A16")
    out = pos.outcome()
    assert out.text() == "blue wins: a piece in the red castle"
    assert out.ranking == ((BLUE,), (GREEN,), (RED,))


def test_last_seat_with_pieces_wins_whatever_its_count() -> None:
    pos = tri("b:F9 g:F11")  # Red has no pieces: eliminated at set-up
    assert pos.eliminated == (RED,)
    play(pos, "F9xF13")
    out = pos.outcome()
    assert out.winner == BLUE and pos.occ[BLUE].bit_count() == 1
    assert out.text() == "blue wins: red and green have no pieces left"
    assert out.ranking == ((BLUE,), (GREEN,), (RED,))  # Green went out last: ranked higher
    assert pos.legal_moves() == []


def test_elimination_order_decides_the_ranking() -> None:
    pos = tri("b:F9 r:F11")  # Green has no pieces: eliminated at set-up, before Red
    assert pos.eliminated == (GREEN,)
    play(pos, "F9xF13")
    assert pos.eliminated == (GREEN, RED)
    out = pos.outcome()
    assert out.text() == "blue wins: red and green have no pieces left"
    assert out.ranking == ((BLUE,), (RED,), (GREEN,))


def test_one_chain_eliminating_both_opponents_ranks_them_together() -> None:
    pos = tri("b:H5 r:H7 g:G10")
    play(pos, "H5xH9xF11")
    out = pos.outcome()
    assert out.winner == BLUE
    assert out.ranking == ((BLUE,), (RED, GREEN))


# ---- passes and stalemates -------------------------------------------------------------------

def test_a_seat_that_cannot_move_is_passed_automatically() -> None:
    pos = tri(RED_STUCK)
    play(pos, "D5-D7")
    assert pos.turn == GREEN  # Red had no legal move
    assert pos.outcome() is None
    assert [TRI.cell_name(m.start) for m in pos.move_stack] == ["D5"]  # no pass recorded
    assert pos.quiet == 1 and pos.ply == 1
    assert pos.to_string().split()[2] == "g"
    # Green opens I10; after Blue's move Red can jump J11 into it and is not passed.
    play(pos, "I10-I8", "D7-D9")
    assert pos.turn == RED
    # K12 over J11 to I10, then over I8 (Green, just moved there) to I6.
    assert [format_move(TRI, m) for m in pos.legal_moves()] == ["K12xI10xI6"]
    pos.pop()
    pos.pop()
    assert pos.turn == GREEN
    pos.pop()
    assert pos.turn == BLUE and pos.to_string() == tri(RED_STUCK).to_string()


def test_set_up_with_a_seat_that_cannot_move_passes_it() -> None:
    pos = tri(RED_STUCK, turn=RED)
    assert pos.turn == GREEN
    # The set-up position is the first of its repetitions (its hash after the pass).
    assert pos.repetitions() == 1
    assert pos.hash == pos.compute_hash()


def _full_board() -> str:
    """Every cell taken: each castle by its owner, the rest dealt round the seats."""
    items = ["b:F1", "r:A16", "g:K16"]
    rest = [c for c in TRI.cells if TRI.cell_name(c) not in ("F1", "A16", "K16")]
    for i, c in enumerate(rest):
        items.append(f"{'brg'[i % 3]}:{TRI.cell_name(c)}")
    return " ".join(items)


def test_no_seat_can_move_is_a_draw() -> None:
    pos = tri(_full_board())
    out = pos.outcome()
    assert out is not None and out.winner is None
    assert out.text() == "draw: no seat can move"
    assert out.ranking == ((BLUE, RED, GREEN),)
    assert pos.legal_moves() == []


def test_no_move_lose_eliminates_the_stuck_seat() -> None:
    rules = TRI.default_rules.with_option("no_move", "lose")
    pos = tri(RED_STUCK, rules=rules)
    before = pos.to_string()
    play(pos, "D5-D7")
    assert pos.eliminated == (RED,)
    assert pos.occ[RED] == 0 and pos.piece_at(TRI.cell("K12")) is None
    assert pos.turn == GREEN and pos.outcome() is None
    assert pos.hash == pos.compute_hash()
    again = Position.from_string(pos.to_string(), rules)
    assert again.to_string() == pos.to_string()
    pos.pop()
    assert pos.to_string() == before and pos.hash == pos.compute_hash()
    assert pos.piece_at(TRI.cell("K12")) == (RED, "man")


def test_no_move_lose_removes_the_pieces_of_the_stuck_seat() -> None:
    rules = TRI.default_rules.with_option("no_move", "lose")
    pos = tri(_full_board(), rules=rules)
    # Blue (to move) cannot move and is out; its pieces leave, so Red now has moves.
    assert pos.eliminated == (BLUE,) and pos.occ[BLUE] == 0
    assert pos.turn == RED and pos.outcome() is None and pos.legal_moves()


def test_no_move_lose_last_seat_left_wins() -> None:
    rules = TRI.default_rules.with_option("no_move", "lose")
    # Blue is out already (no pieces); Green moves a spare piece and Red, stuck, is out.
    pos = tri(RED_STUCK.replace("b:D5 ", "g:C8 "), turn=GREEN, rules=rules)
    assert pos.eliminated == (BLUE,)
    play(pos, "C8-C10")
    out = pos.outcome()
    assert out.text() == "green wins: red has no legal move"
    assert out.ranking == ((GREEN,), (RED,), (BLUE,))
    # Out one after the other, not to one move: a comma, and a parse ranks them so too.
    assert pos.to_string().split()[5] == "b,r"
    assert Position.from_string(pos.to_string(), rules).outcome().ranking == out.ranking


# ---- draws -----------------------------------------------------------------------------------

SHUFFLE = ("D5-D7", "B11-B13", "J11-J13", "D7-D5", "B13-B11", "J13-J11")


def test_third_repetition_is_a_draw() -> None:
    pos = tri("b:D5 r:B11 g:J11")
    play(pos, *SHUFFLE)
    assert pos.repetitions() == 2 and pos.outcome() is None
    play(pos, *SHUFFLE[:-1])
    assert pos.outcome() is None
    play(pos, SHUFFLE[-1])
    assert pos.repetitions() == 3
    out = pos.outcome()
    assert out.text() == "draw: third repetition"
    assert out.ranking == ((BLUE, RED, GREEN),)


def test_repetition_options() -> None:
    claim = tri("b:D5 r:B11 g:J11", rules=TRI.default_rules.with_option("repetition", "claim"))
    play(claim, *SHUFFLE, *SHUFFLE)
    assert claim.outcome() is None and claim.can_claim_draw()
    off = tri("b:D5 r:B11 g:J11", rules=TRI.default_rules.with_option("repetition", "off"))
    play(off, *SHUFFLE, *SHUFFLE)
    assert off.outcome() is None and off.legal_moves()


def test_repetition_draw_ranks_an_eliminated_seat_last() -> None:
    pos = tri("b:D5 g:J11")  # Red eliminated at set-up
    cycle = ("D5-D7", "J11-J13", "D7-D5", "J13-J11")
    play(pos, *cycle, *cycle)
    out = pos.outcome()
    assert out.text() == "draw: third repetition"
    assert out.ranking == ((BLUE, GREEN), (RED,))


def test_repetition_key_holds_duties() -> None:
    without = tri("b:F1 r:A12 g:K12")
    fields = without.to_string().split()
    fields[4] = "F1"
    with_duty = Position.from_string(" ".join(fields))
    assert with_duty.duty[BLUE] == 1 << TRI.cell("F1")
    assert with_duty.hash != without.hash
    assert with_duty.hash == with_duty.compute_hash()


def _placement(spec: str) -> str:
    return tri(spec).to_string().split()[1]


def test_quiet_limit_is_150_moves_without_capture() -> None:
    pos = tri("b:D5 r:B11 g:J11")
    assert pos.rules.quiet_limit == 150
    pos.quiet = 149
    play(pos, "D5-D7")
    assert pos.outcome().text() == "draw: 150 plies without capture"
    assert pos.outcome().ranking == ((BLUE, RED, GREEN),)
    pos = tri("b:F9 r:F11 g:J11 r:B11")
    pos.quiet = 149
    play(pos, "F9xF13")
    assert pos.quiet == 0 and pos.outcome() is None
    off = tri("b:D5 r:B11 g:J11", rules=TRI.default_rules.with_option("quiet_limit", 0))
    off.quiet = 500
    play(off, "D5-D7")
    assert off.outcome() is None


# ---- rankings and position strings ----------------------------------------------------------

@pytest.mark.parametrize(("winner", "eliminated", "together", "want"), [
    (0, (), 1, ((0,), (1, 2))),
    (None, (), 1, ((0, 1, 2),)),
    (None, (2,), 1, ((0, 1), (2,))),
    (1, (2,), 1, ((1,), (0,), (2,))),
    (0, (2, 1), 1, ((0,), (1,), (2,))),
    (0, (1, 2), 2, ((0,), (1, 2))),
    (2, (0, 1), 1, ((2,), (1,), (0,))),
])
def test_ranking_for(winner, eliminated, together, want) -> None:
    assert ranking_for(3, winner, eliminated, together) == want


def test_position_string_keeps_elimination_order() -> None:
    placement = _placement("b:F9 b:D5")
    gr = Position.from_string(f"tri-camelot {placement} b 0,0,0 - g,r 0 9")
    rg = Position.from_string(f"tri-camelot {placement} b 0,0,0 - r,g 0 9")
    assert gr.eliminated == (GREEN, RED) and rg.eliminated == (RED, GREEN)
    assert gr.to_string().split()[5] == "g,r"
    assert gr.outcome().ranking == ((BLUE,), (RED,), (GREEN,))
    assert rg.outcome().ranking == ((BLUE,), (GREEN,), (RED,))


def test_seats_one_chain_eliminates_are_joined_in_the_string() -> None:
    """The chain H5xH9xF11 takes Red's and Green's last pieces: they share second place,
    and a position parsed from the string (`r+g`) ranks them the same way."""
    pos = play(tri("b:H5 r:H7 g:G10"), "H5xH9xF11")
    text = pos.to_string()
    assert text.split()[5] == "r+g"
    again = Position.from_string(text)
    assert again.eliminated == (RED, GREEN) and again.out_together == 2
    assert again.outcome().ranking == pos.outcome().ranking == ((BLUE,), (RED, GREEN))
    assert again.to_string() == text
    # One string per position: the seats of a group are written in seat order.
    assert Position.from_string(text.replace(" r+g ", " g+r ")).to_string() == text
    pos.pop()
    assert pos.out_together == 1 and pos.to_string().split()[5] == "-"


def test_seats_eliminated_one_by_one_are_joined_by_commas() -> None:
    pos = play(tri("b:H5 r:H7 g:K12 g:J11"), "H5xH9")  # Red's last piece
    assert pos.to_string().split()[5] == "r" and pos.out_together == 1
    assert Position.from_string(pos.to_string()).out_together == 1


@pytest.mark.parametrize(("field", "why"), [
    ("r+g,b", "only the last seats"),  # a move eliminating two ends the game
    ("r+", "'' is not a seat letter"),
    ("r+r", "listed twice"),
])
def test_joined_eliminations_that_cannot_be_are_refused(field: str, why: str) -> None:
    text = f"tri-camelot {_placement('b:F9')} b 0,0,0 - {field} 0 9"
    with pytest.raises(PositionError) as err:
        Position.from_string(text)
    assert err.value.field == "eliminated" and why in err.value.reason


@pytest.mark.parametrize(("tail", "field"), [
    ("b 0,0,0 - r 0 1", "eliminated"),  # Red still has pieces
    ("r 0,0,0 - - 0 1", None),
    ("b 0,0 - - 0 1", "castle-moves"),
    ("b 0,0,1 - - 0 1", "castle-moves"),  # Tri-Camelot has no Castle Moves
    ("b 0,0,0 A16 - 0 1", "duties"),  # no Red piece on A16
    ("b 0,0,0 - x 0 1", "eliminated"),
])
def test_position_string_errors(tail: str, field: str | None) -> None:
    text = f"tri-camelot {_placement('b:F9 r:A12 g:K12')} {tail}"
    if field is None:
        assert Position.from_string(text).turn == RED
        return
    with pytest.raises(PositionError) as err:
        Position.from_string(text)
    assert err.value.field == field


def test_turn_of_an_eliminated_seat_is_refused() -> None:
    text = f"tri-camelot {_placement('b:F9 g:K12')} r 0,0,0 - r 0 1"
    with pytest.raises(PositionError) as err:
        Position.from_string(text)
    assert err.value.field == "turn"


def test_a_won_position_string_stays_won() -> None:
    pos = tri("b:B15 r:C12 g:K12")
    play(pos, "B15-A16")
    again = Position.from_string(pos.to_string())
    assert again.to_string() == pos.to_string()
    assert again.outcome() == pos.outcome()
    assert again.legal_moves() == []


def test_a_piece_in_its_forbidden_castle_is_refused() -> None:
    # Blue may never enter K16 (Green's castle, on Blue's right).
    text = f"tri-camelot {_placement('b:F9 r:A12 g:K12 b:D5')} b 0,0,0 - - 0 1"
    fields = text.split()
    ranks = fields[1].split("/")
    assert ranks[2] == "6"  # rank 16: A16 C16 E16 G16 I16 K16, all empty
    ranks[2] = "5b"
    fields[1] = "/".join(ranks)
    with pytest.raises(PositionError, match="K16") as err:
        Position.from_string(" ".join(fields))
    assert err.value.field == "placement"
