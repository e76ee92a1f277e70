"""The exclusions of the search's selectivity (docs/search.md, "Selectivity"): a move is
pruned (futility, late-move pruning) or reduced (LMR) only when it is quiet — no capture,
no entry into the mover's target castle — and never in a position under a capture duty;
an offer (a move after which the reply must capture) may be reduced but is never pruned.
Every pruned or reduced move is reported to `Search.watch`; these tests watch searches along
seeded random games of every two-sided game and check each report against the rules
library."""

from __future__ import annotations

import random

import pytest
from builders import setup

from canter.engine import Position
from canter.engine.rules import movegen
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher


def watched_search(pos: Position, depth: int, **switches) -> tuple[list, object]:
    searcher = Searcher()
    searcher._search.options.update(switches)
    seen: list = []

    def watch(kind, at, move, remaining):
        target = at.variant.target_bits[at.turn]
        after = at.copy()
        after.push(move)
        seen.append((kind, remaining, bool(move.capture_bits), bool(target >> move.end & 1),
                     movegen.must_capture(at), movegen.must_capture(after)))

    searcher._search.watch = watch
    result = searcher.search(pos, Limits(depth=depth), lambda info: None, StopFlag())
    return seen, result


def game_positions(variant: str, seed: int, plies: int, every: int) -> list[Position]:
    """Positions of a seeded random game (captures preferred, so exchanges happen)."""
    rng = random.Random(seed)
    pos = Position.start(variant)
    out = []
    for ply in range(plies):
        if pos.outcome() is not None:
            break
        moves = pos.legal_moves()
        pos.push(rng.choice(moves))
        if ply % every == every - 1 and pos.outcome() is None:
            out.append(pos.copy())
    return out


@pytest.mark.parametrize("variant,seed", [("camelot", 1), ("camelot", 2), ("cam", 3),
                                          ("chivalry", 4), ("grand-cam", 5)])
def test_only_quiet_moves_are_pruned_or_reduced(variant, seed):
    kinds = set()
    for pos in game_positions(variant, seed, plies=48, every=16):
        seen, result = watched_search(pos, depth=4)
        assert result.best is not None
        for kind, remaining, capture, entry, duty, offer in seen:
            kinds.add(kind)
            assert not capture, f"{kind} a capture at depth {remaining}"
            assert not entry, f"{kind} a castle entry at depth {remaining}"
            assert not duty, f"{kind} a move under a capture duty at depth {remaining}"
            # An offer (the reply must capture) may be reduced, never pruned.
            assert not (offer and kind == "pruned"), f"pruned an offer at depth {remaining}"
    # The watch saw the rules at work, so the checks above checked something.
    assert kinds == {"pruned", "reduced"} if variant == "camelot" else "reduced" in kinds


def test_capture_duty_position_searches_every_capture():
    # White must capture: D4 can jump D5 (and on over D7), C6 can jump D7.
    pos = setup("camelot", w="D4 C6 K10 A8 B8", b="D5 D7 L12 K12")
    assert movegen.must_capture(pos)
    seen, result = watched_search(pos, depth=5)
    assert result.best.capture_bits
    assert all(not duty for *_, duty, _ in seen)


def test_winning_castle_entry_found_behind_many_quiet_moves():
    # White has a Man in the black castle (F16) and one next to it: G15-G16 wins at once,
    # with a dozen quiet moves of far pieces beside it; Black can do nothing in time.
    pos = setup("camelot", w="F16 G15 A6 B6 C6 D6 E6 A7 B7", b="L5 K5")
    for depth in (1, 2, 3, 4):
        seen, result = watched_search(pos, depth=depth)
        pos.push(result.best)
        assert pos.outcome() is not None and pos.outcome().winner == 0, depth
        pos.pop()


@pytest.mark.parametrize("algorithm", ["paranoid", "brs", "brs+"])
def test_three_seats_neither_prune_nor_reduce(algorithm):
    pos = game_positions("tri-camelot", 7, plies=12, every=12)[0]
    searcher = Searcher()
    searcher.algorithm = algorithm
    seen = []
    searcher._search.watch = lambda *args: seen.append(args)
    searcher.search(pos, Limits(depth=4), lambda info: None, StopFlag())
    assert seen == []


def test_switches_turn_selectivity_off():
    pos = game_positions("camelot", 8, plies=24, every=24)[0]
    seen, _ = watched_search(pos, depth=4)
    assert seen
    seen, _ = watched_search(pos, depth=4, lmr=0, prune=0)
    assert seen == []
