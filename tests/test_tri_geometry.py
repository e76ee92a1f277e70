"""The Tri-Camelot board under its 120° turn (F1 -> K16 -> A16), and perft pinned and
invariant under that turn with the seats permuted (RULES.md §2 Board, §4)."""

from __future__ import annotations

import random

import pytest

from canter.engine import Position
from canter.engine.rules.board import cells_of
from canter.engine.rules.perft import perft
from canter.engine.rules.variant import get_variant

TRI = get_variant("tri-camelot")
BLUE, RED, GREEN = 0, 1, 2


def rotate_name(name: str) -> str:
    """Turn a cell by 120° about F11, the centre of the three castles.

    In axial coordinates q = file, r = (rank - file) / 2 (relative to F11) the six steps
    are the unit hex steps, and the turn is (q, r, s) -> (s, q, r) with s = -q - r."""
    f, rank = ord(name[0]) - ord("A") - 5, int(name[1:]) - 11
    q, r = f, (rank - f) // 2
    s = -q - r
    q, r = s, q
    return f"{chr(ord('A') + q + 5)}{2 * r + q + 11}"


def rotate_cell(cell: int) -> int:
    return TRI.cell(rotate_name(TRI.cell_name(cell)))


def seat_after_turn(seat: int) -> int:
    # Blue's castle F1 goes to K16 (Green's), Red's A16 to F1, Green's K16 to A16.
    return (seat - 1) % 3


def rotate(pos: Position) -> Position:
    out = Position(TRI, pos.rules)
    for cell in TRI.cells:
        code = pos.cells[cell]
        if code >= 0:
            out.put(rotate_cell(cell), seat_after_turn(code >> 1), code & 1)
    out.turn = seat_after_turn(pos.turn)
    for seat, bits in enumerate(pos.duty):
        for cell in cells_of(bits):
            out.duty[seat_after_turn(seat)] |= 1 << rotate_cell(cell)
    out.eliminated = tuple(seat_after_turn(s) for s in pos.eliminated)
    out.reset_derived()
    return out


def test_castles_turn_into_each_other() -> None:
    assert [rotate_name(c) for c in ("F1", "K16", "A16")] == ["K16", "A16", "F1"]
    for seat in range(3):
        (own,) = TRI.own_castle[seat]
        (target,) = TRI.target_castle[seat]
        (forbidden,) = TRI.forbidden_castle[seat]
        turned = seat_after_turn(seat)
        assert TRI.own_castle[turned] == {rotate_cell(own)}
        assert TRI.target_castle[turned] == {rotate_cell(target)}
        assert TRI.forbidden_castle[turned] == {rotate_cell(forbidden)}


def test_turn_maps_cells_neighbours_and_leaps() -> None:
    board = TRI.board
    image = {rotate_cell(c) for c in TRI.cells}
    assert image == set(TRI.cells) and len(TRI.cells) == 73
    for c in TRI.cells:
        assert rotate_cell(rotate_cell(rotate_cell(c))) == c
        assert {rotate_cell(n) for n in board.neighbours[c]} == set(
            board.neighbours[rotate_cell(c)])
        assert {(rotate_cell(o), rotate_cell(la)) for o, la in board.leaps[c]} == set(
            board.leaps[rotate_cell(c)])


def test_board_shape_and_examples() -> None:
    board = TRI.board
    assert [len(board.rank_cells(r)) for r in range(1, 19)] == [
        1, 2, 3, 2, 3, 4, 3, 4, 5, 4, 5, 6, 5, 6, 5, 6, 5, 4]
    names = board.names
    assert {names[n] for n in board.neighbours[TRI.cell("F1")]} == {"F3", "E2", "G2"}
    assert ("F3", "F1") in {(names[o], names[la]) for o, la in board.leaps[TRI.cell("F5")]}
    assert ("E2", "F1") in {(names[o], names[la]) for o, la in board.leaps[TRI.cell("D3")]}
    assert TRI.cell("G2") not in board.neighbours[TRI.cell("E2")]  # two files apart
    # No leap passes over a castle cell.
    castles = {TRI.cell(c) for c in ("F1", "A16", "K16")}
    assert not any(o in castles for c in TRI.cells for o, _ in board.leaps[c])


def test_start_position_turns_into_itself_with_seats_permuted() -> None:
    start = Position.start(TRI)
    turned = rotate(start)
    assert turned.turn == GREEN
    assert turned.cells == start.cells
    assert turned.to_string().replace(" g ", " b ", 1) == start.to_string()


def test_perft_from_the_start() -> None:
    pos = Position.start(TRI)
    assert [perft(pos, d) for d in (1, 2, 3)] == [36, 1296, 46656]


def _midgame(seed: int, plies: int) -> Position:
    rng = random.Random(seed)
    pos = Position.start(TRI)
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))
    return Position.from_string(pos.to_string())


@pytest.mark.parametrize(("seed", "plies", "depth"), [
    (0, 0, 3), (1, 30, 3), (2, 60, 2), (3, 90, 2), (4, 45, 3), (5, 120, 2),
])
def test_perft_is_the_same_after_the_turn(seed: int, plies: int, depth: int) -> None:
    pos = _midgame(seed, plies)
    turned = rotate(pos)
    twice = rotate(turned)
    for d in range(1, depth + 1):
        n = perft(pos, d)
        assert perft(turned, d) == n
        assert perft(twice, d) == n


def test_rotation_of_positions_with_duties_and_eliminations() -> None:
    # Blue on F1 with the exit duty, Green eliminated, Red to move.
    pos = Position(TRI)
    for name, seat in (("F1", BLUE), ("F5", BLUE), ("G10", RED), ("C12", RED), ("E8", BLUE)):
        pos.put(TRI.cell(name), seat, 0)
    pos.duty[BLUE] = 1 << TRI.cell("F1")
    pos.turn = RED
    pos.reset_derived()
    assert pos.eliminated == (GREEN,)
    turned = rotate(pos)
    assert turned.eliminated == (RED,) and turned.duty[GREEN] == 1 << TRI.cell("K16")
    for d in (1, 2, 3, 4):
        assert perft(turned, d) == perft(pos, d)
