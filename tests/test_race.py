"""The pair race (race.py): the fewest moves in which two pieces alone finish the castle
race, counted by hand on Camelot positions and checked against a search of the rules
library's own moves; and what the evaluation makes of it (weight `pair_race`)."""

from __future__ import annotations

import itertools
import random

from builders import setup

from canter.engine import Position, get_variant
from canter.engine.rules import movegen
from canter.engine.search.evaluate import (
    RACE_HORIZON,
    TERM_NAMES,
    Evaluator,
    Weights,
    weight_changes,
)
from canter.engine.search.race import FAR, PairRace

CAMELOT = get_variant("camelot")
WHITE, BLACK = PairRace(CAMELOT, 0), PairRace(CAMELOT, 1)


def cells(names: str) -> list[int]:
    return [CAMELOT.cell(n) for n in names.split()]


def test_two_pieces_next_to_the_castle_need_a_move_each():
    assert WHITE.moves(cells("F15 G15")) == 2


def test_a_piece_inside_waits_for_the_other():
    # G14-G15-G16; F16 is no hurdle (no leap passes over a castle cell).
    assert WHITE.moves(cells("F16 G14")) == 2
    assert WHITE.moves(cells("F16 G16")) == 0


def test_a_leapfrogging_pair_covers_two_ranks_a_move():
    # F11 over F12 to F13, F12 over F13 to F14, F13 over F14 to F15, F14 over F15 into F16,
    # F15-G16: five moves. Nine ranks to cover, two at most a move: no fewer. Stepping
    # alone would take nine.
    assert WHITE.moves(cells("F11 F12")) == 5


def test_black_races_the_other_way():
    assert BLACK.moves(cells("F2 G2")) == 2
    # The board is symmetric end to end: Black from F15 G15 as White from F2 G2, which
    # must cover 14 ranks each, two at most a move.
    assert BLACK.moves(cells("F15 G15")) == WHITE.moves(cells("F2 G2")) >= 14


def test_fewer_than_two_pieces_or_one_in_its_own_castle_never_finish():
    assert WHITE.moves(cells("F15")) == FAR
    assert WHITE.moves(cells("F1 F2")) == FAR  # F1 is White's own castle


def test_the_fastest_pair_counts():
    assert WHITE.moves(cells("A4 F15 L4 G15")) == 2


def test_the_table_is_symmetric():
    size = WHITE.size
    for a in CAMELOT.cells:
        for b in CAMELOT.cells:
            assert WHITE.table[a * size + b] == WHITE.table[b * size + a]


def _rules_count(a: int, b: int, limit: int) -> int | None:
    """Moves until both stand in Black's castle, by breadth-first search over the rules
    library's legal moves of White with the two pieces alone on the board (Black, without
    pieces, never moves); None if not within `limit`."""
    target = CAMELOT.target_bits[0]
    frontier = {frozenset((a, b))}
    seen = set(frontier)
    for moves in range(limit + 1):
        if any(all(target >> c & 1 for c in pair) for pair in frontier):
            return moves
        nxt = set()
        for pair in frontier:
            pos = setup("camelot", turn="w",
                        w=" ".join(CAMELOT.cell_name(c) for c in pair))
            for m in movegen.generate(pos):
                after = frozenset(pair - {m.start} | {m.end})
                if after not in seen:
                    seen.add(after)
                    nxt.add(after)
        frontier = nxt
    return None


def test_the_table_agrees_with_the_rules_library():
    rng = random.Random(5)
    near = [c for c in CAMELOT.cells if CAMELOT.board.coords[c][1] >= 11
            and c not in CAMELOT.target_castle[0]]
    for _ in range(12):
        a, b = rng.sample(near, 2)
        want = WHITE.moves([a, b])
        assert _rules_count(a, b, min(want, 7)) == (want if want <= 7 else None), (
            CAMELOT.cell_name(a), CAMELOT.cell_name(b))


def test_the_evaluation_weighs_the_race_difference_in_endings_only():
    # Black's Knights C8 D7 leapfrog home in 8 moves; White's I13 G7 need 9.
    pos = setup("camelot", turn="b", w="I13 G7", b="KC8 KD7")
    plain, raced = Evaluator(pos.variant, Weights()), Evaluator(pos.variant, Weights(pair_race=40))
    assert plain.race_moves(pos) == (9, 8)
    assert raced.relative(pos, 1) - plain.relative(pos, 1) == 40 * (9 - 8)
    assert raced.relative(pos, 0) - plain.relative(pos, 0) == -40 * (9 - 8)
    # A side without a pair counts as RACE_HORIZON moves away.
    lone = setup("camelot", turn="b", w="I13", b="KC8 KD7")
    assert raced.relative(lone, 1) - plain.relative(lone, 1) == 40 * (RACE_HORIZON - 8)
    # More than ten pieces on the board: no race term.
    crowd = setup("camelot", turn="b", w="I13 G7 A4 A5 A6 A7", b="KC8 KD7 L4 L5 L6")
    assert raced.race_moves(crowd) is None
    assert raced.relative(crowd, 1) == plain.relative(crowd, 1)
    # In the tuner's linear form: one count, the moves Black is ahead, whatever the weight.
    for ev in (plain, raced):
        assert ev.terms(pos, 1)[0][TERM_NAMES.index("pair_race")] == 9 - 8
        assert ev.terms(crowd, 1)[0][TERM_NAMES.index("pair_race")] == 0


def test_race_pieces_sets_how_few_pieces_make_an_ending():
    # Cam's board: White D9 A4 against Black D6 E6 A10 (5 pieces).
    pos = setup("cam", turn="w", w="D9 A4", b="D6 E6 A10")
    counted = Evaluator(pos.variant, Weights(pair_race=80, race_pieces=5))
    assert counted.race_moves(pos) is not None
    assert Evaluator(pos.variant, Weights(pair_race=80, race_pieces=4)).race_moves(pos) is None
    # The built-in limit is ten (Camelot and Chivalry, where the race was measured), and
    # an EvalFile may set it like any weight.
    assert Evaluator(pos.variant).race_moves(pos) == counted.race_moves(pos)
    assert weight_changes({"race_pieces": 5, "pair_race": 80}) == {
        "race_pieces": 5, "pair_race": 80}
    crowd = setup("camelot", turn="b", w="I13 G7 A4 A5 A6 A7", b="KC8 KD7 L4 L5 L6")
    assert Evaluator(crowd.variant, Weights(race_pieces=11)).race_moves(crowd) is not None


def test_the_built_in_weights_race_in_camelot_and_chivalry_only():
    # An ending of each game: White's first two pieces of the start (in cell order)
    # against the first two Black Men (in cell order) that make the race uneven, so that
    # the weight shows in the score.
    for name, race in (("camelot", True), ("chivalry", True), ("cam", False),
                       ("camette", False)):
        start = Position.start(name)
        variant = start.variant
        white = [c for c in variant.cells if start.occ[0] >> c & 1][:2]
        w = " ".join(("K" if start.kn[0] >> c & 1 else "") + variant.cell_name(c)
                     for c in white)
        ev, plain = Evaluator(variant), Evaluator(variant, Weights())
        for pair in itertools.combinations([c for c in variant.cells if c not in white], 2):
            end = setup(name, turn="w", w=w, b=" ".join(map(variant.cell_name, pair)))
            moves = ev.race_moves(end)
            if moves is not None and moves[0] != moves[1]:
                break
        else:
            raise AssertionError(f"{name}: no uneven race found")
        gap = ev.relative(end, 0) - plain.relative(end, 0)
        assert gap == ((moves[1] - moves[0]) * 80 if race else 0), name


def test_where_one_piece_wins_a_lone_piece_races_by_its_steps():
    # Cam's White aims at D13, Camette's at C7. A pair already counted a lone runner (the
    # other piece may wait); the last piece of a side counted as never finishing.
    cam, camette = get_variant("cam"), get_variant("camette")
    white = PairRace(cam, 0)
    for names, moves in (("D12", 1), ("D9", 4), ("A10", 3), ("D9 A4", 4)):
        assert white.moves([cam.cell(n) for n in names.split()]) == moves, names
    assert white.moves([cam.cell("D1")]) == FAR  # its own castle: never leaves by a race
    assert PairRace(camette, 0).moves([camette.cell("C5")]) == 2
    assert PairRace(camette, 1).moves([camette.cell("C5")]) == 4  # Black aims at C1
    # Camelot still needs two in the castle.
    assert WHITE.moves(cells("G15")) == FAR


def test_a_race_table_is_built_once_per_game_and_seat_for_the_process() -> None:
    from dataclasses import replace

    from canter.engine.rules.variant import MAN
    from canter.engine.search.evaluate import RACE_WEIGHTS, Evaluator
    from canter.engine.search.race import race_table

    chivalry = get_variant("chivalry")
    first = race_table(chivalry, 0)
    assert race_table(chivalry, 0) is first
    assert race_table(chivalry, 1) is not first
    # Two evaluators (two searchers, two helper threads) share it.
    pos = Position(chivalry)
    for n, seat in ((60, 0), (61, 0), (80, 1), (81, 1)):
        pos.put(n, seat, MAN)
    pos.reset_derived()
    tables = []
    for _ in range(2):
        ev = Evaluator(chivalry, RACE_WEIGHTS)
        assert ev.race_moves(pos) is not None
        tables.append(ev.pair_races)
    assert tables[0][0] is first and tables[1][0] is first
    # Another game object (as a rules option may make) gets its own table.
    other = replace(chivalry)
    assert race_table(other, 0) is not first
    assert race_table(other, 0).table == first.table
