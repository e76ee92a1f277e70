"""A board with levels is data too: Cam 3-D's geometry built here, in the test, and moved on
by the unchanged move generator. (Cam 3-D is not offered as a game: its surviving rules
text leaves cross-level play unsettled; docs/rules.md says so.)

Three levels of 28 squares (files A-E, ranks 1-8; ranks 1 and 8 hold only C, ranks 2 and 7
B-D); level 1 is the top. White's castle 1C1, Black's 3C8. Counts to check against: 141
and 21096 moves at depths 1 and 2 with 26 directions, 101 and 10349 with 18 (the triple
diagonals left out), as an independent generator found them.
"""

from itertools import product

import pytest

from canter.engine import Position
from canter.engine.rules.board import Board
from canter.engine.rules.perft import perft
from canter.engine.rules.variant import KNIGHT, MAN, Rules, Seat, Variant

FILES = "ABCDE"
SPANS = {1: "CC", 2: "BD", 7: "BD", 8: "CC"}


def cam_3d(directions: int) -> Variant:
    coords = []
    for level, rank in product((1, 2, 3), range(1, 9)):
        lo, hi = SPANS.get(rank, "AE")
        coords += [(level, f, rank) for f in range(FILES.index(lo), FILES.index(hi) + 1)]
    steps = [d for d in product((-1, 0, 1), repeat=3) if any(d)]
    if directions == 18:
        steps = [d for d in steps if 0 in d]
    board = Board(FILES, coords, steps)
    c = board.cell
    white, black = frozenset({c("1C1")}), frozenset({c("3C8")})
    start = {}
    for seat, knights, men in (
        (0, "1B2 1C2 1D2", "1B3 1C3 1D3 2B2 2C2 2D2 2B3 2C3 2D3"),
        (1, "3B7 3C7 3D7", "2B6 2C6 2D6 2B7 2C7 2D7 3B6 3C6 3D6"),
    ):
        for name in knights.split():
            start[c(name)] = (seat, KNIGHT)
        for name in men.split():
            start[c(name)] = (seat, MAN)
    return Variant(
        name=f"cam-3d-{directions}", board=board,
        seats=(Seat("white", "w"), Seat("black", "b")),
        own_castle=(white, black), target_castle=(black, white),
        forbidden_castle=(frozenset(), frozenset()), start=start,
        target_pieces=1, castle_move_limit=0, win_min_pieces=1, bare_max_pieces=0,
        entry_resets_quiet=True, default_rules=Rules(),
    )


def test_the_board_has_84_cells_named_by_level():
    board = cam_3d(26).board
    assert len(board.cells) == 84
    assert {board.names[c][0] for c in board.cells} == {"1", "2", "3"}
    assert board.cell("2c5") == board.cell("2C5")


@pytest.mark.parametrize("directions, neighbours", [
    (26, {"1B2", "1C2", "1D2", "2C1", "2B2", "2C2", "2D2"}),
    (18, {"1B2", "1C2", "1D2", "2C1", "2C2"}),
])
def test_neighbours_of_the_top_castle(directions, neighbours):
    board = cam_3d(directions).board
    assert {board.names[n] for n in board.neighbours[board.cell("1C1")]} == neighbours


def test_leaps_cross_the_levels():
    board = cam_3d(26).board
    leaps = {(board.names[o], board.names[t]) for o, t in board.leaps[board.cell("1C1")]}
    assert ("2C2", "3C3") in leaps and ("2D2", "3E3") in leaps
    assert ("2D2", "3E3") not in {(board.names[o], board.names[t])
                                  for o, t in cam_3d(18).board.leaps[board.cell("1C1")]}


def test_shifts_never_wrap_onto_another_rank_or_level():
    # Every cell shifted by every direction lands on exactly its table neighbour (or off
    # the board): the padding does its job in all three dimensions.
    board = cam_3d(26).board
    for cell in board.cells:
        bit = 1 << cell
        for offset, neighbour in zip(board.offsets, board.step[cell], strict=True):
            shifted = board.shift(bit, offset)
            assert shifted == (1 << neighbour if neighbour >= 0 else 0)


@pytest.mark.parametrize("directions, counts", [(26, (141, 21096)), (18, (101, 10349))])
def test_reference_counts(directions, counts):
    pos = Position.start(cam_3d(directions))
    assert (perft(pos, 1), perft(pos, 2)) == counts
