"""Random three-player games: every game ends with a result and a full ranking, never
raises, and make/unmake, hashes and position strings stay consistent all the way."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canter.engine import Position, format_move, parse_move
from canter.engine.rules.outcome import Outcome
from canter.engine.rules.variant import get_variant

TRI = get_variant("tri-camelot")

RULE_SETS = [
    TRI.default_rules,
    TRI.default_rules.with_option("no_move", "lose"),
    TRI.default_rules.with_option("quiet_limit", 30),
    TRI.default_rules.with_option("exit_duty_persists", "false"),
]


def check_outcome(pos: Position) -> None:
    out = pos.outcome()
    assert out is not None
    flat = [s for rank in out.ranking for s in rank]
    assert sorted(flat) == [0, 1, 2]  # every seat ranked exactly once
    place = {s: i for i, rank in enumerate(out.ranking) for s in rank}
    first = 0
    if out.winner is None:
        assert out.text().startswith("draw: ")
    else:
        assert out.ranking[0] == (out.winner,) and out.winner not in pos.eliminated
        assert out.text().startswith(f"{TRI.seats[out.winner].name} wins: ")
        first = 1
    # Seats still in play share the next rank; eliminated seats follow, a seat eliminated
    # later never below one eliminated earlier.
    in_play = [s for s in range(3) if s != out.winner and s not in pos.eliminated]
    assert all(place[s] == first for s in in_play)
    gone = pos.eliminated
    assert all(place[s] > first - (not in_play) for s in gone)
    assert all(place[gone[i]] >= place[gone[i + 1]] for i in range(len(gone) - 1))
    if out.reason not in ("third repetition",) and "plies" not in out.reason:
        assert pos.legal_moves() == []


def play_random_game(seed: int, rules_index: int, checks: bool) -> Outcome:
    rng = random.Random(seed)
    pos = Position.start(TRI, RULE_SETS[rules_index])
    strings = []
    while pos.outcome() is None:
        moves = pos.legal_moves()
        assert moves, pos.to_string()
        # Prefer captures now and then so that eliminations happen.
        captures = [m for m in moves if m.is_capture]
        move = rng.choice(captures if captures and rng.random() < 0.7 else moves)
        if checks:
            strings.append(pos.to_string())
            assert parse_move(pos, format_move(TRI, move)) == move
            assert pos.hash == pos.compute_hash()
            again = Position.from_string(pos.to_string(), pos.rules)
            assert again.to_string() == pos.to_string()
            assert again.count_legal_moves() == len(moves)
        pos.push(move)
        assert pos.turn not in pos.eliminated
    check_outcome(pos)
    out = pos.outcome()
    if checks:
        for text in reversed(strings):
            pos.pop()
            assert pos.to_string() == text and pos.hash == pos.compute_hash()
        assert pos.to_string() == Position.start(TRI).to_string()
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rules_index=st.integers(0, len(RULE_SETS) - 1))
def test_random_games_end_with_a_ranking(seed: int, rules_index: int) -> None:
    play_random_game(seed, rules_index, checks=False)


def test_random_games_with_full_checks() -> None:
    reasons = set()
    for seed in range(6):
        out = play_random_game(seed, seed % len(RULE_SETS), checks=True)
        reasons.add("castle" if "castle" in out.reason else out.reason)
    assert len(reasons) >= 2  # the games do not all end the same way
