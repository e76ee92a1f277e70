"""Perft counts pinned from the start positions (RULES.md §4)."""

import pytest
from builders import setup

from canter.engine import Position, parse_move
from canter.engine.rules.perft import perft, perft_divide

CAMELOT = {1: 100, 2: 10026, 3: 1070822}


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_camelot_start(depth):
    assert perft(Position.start("camelot"), depth) == CAMELOT[depth]


def test_tri_camelot_start_depth_one():
    assert perft(Position.start("tri-camelot"), 1) == 36


def test_perft_counts_moves_not_routes():
    # The ring of RULES.md §1: two routes to G7, and routes through the start: one move each.
    pos = setup(w="E5 E6 F5 F7 G6", b="A13 L13")
    by_end = {}
    for m in pos.legal_moves():
        by_end.setdefault((m.start, m.end), []).append(m)
    assert all(len(v) == 1 for v in by_end.values())
    assert perft(pos, 1) == len(pos.legal_moves())


def test_divide_sums_to_the_total_and_lists_each_root_move():
    pos = Position.start("camelot")
    pos.push(parse_move(pos, "D6-F8"))
    rows = perft_divide(pos, 2)
    assert len(rows) == len(pos.legal_moves())
    assert sum(n for _, n in rows) == perft(pos, 2)
