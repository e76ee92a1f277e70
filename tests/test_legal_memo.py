"""`Position.legal_moves` keeps its last long list: a dense capture position is generated
once per `go`, not once per asker; and the list kept is never served for another position."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canter.engine import VARIANT_NAMES, Position
from canter.engine.rules import movegen
from canter.engine.rules import position as position_module

GAMES = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.function_scoped_fixture])


@pytest.fixture
def monkeypatch_memo(monkeypatch):
    """Every list kept, however quick to make, so ordinary positions exercise the memo."""
    monkeypatch.setattr(position_module, "_MEMO_SECONDS", 0.0)
    monkeypatch.setattr(position_module, "_memo", None)


def _keys(moves):
    return [m.key for m in moves]


def _fresh(pos):
    """The list made without the memo (it is put back as it was)."""
    kept = position_module._memo
    position_module._memo = None
    try:
        return _keys(pos.legal_moves())
    finally:
        position_module._memo = kept


@GAMES
@given(variant=st.sampled_from(VARIANT_NAMES), data=st.data())
def test_every_list_served_is_the_position_s_own(variant, data, monkeypatch_memo):
    """With every list kept, each answer equals a fresh generation: along a game, after
    unmaking a move, and in a copy."""
    pos = Position.start(variant)
    for _ply in range(80):
        if pos.outcome() is not None:
            break
        moves = pos.legal_moves()
        assert _keys(moves) == _keys(movegen.generate(pos))
        move = moves[data.draw(st.integers(0, len(moves) - 1), label="move")]
        pos.push(move)
        assert _keys(pos.legal_moves()) == _fresh(pos)
        pos.pop()
        assert _keys(pos.legal_moves()) == _keys(moves)
        assert _keys(pos.copy().legal_moves()) == _keys(moves)
        pos.push(move)


def test_a_kept_list_is_generated_once(monkeypatch_memo, monkeypatch):
    pos = Position.start("camelot")
    calls = []
    real = movegen.generate
    monkeypatch.setattr(movegen, "generate", lambda *a: calls.append(1) or real(*a))
    first = pos.legal_moves()
    first.clear()  # the caller's list is its own
    again = pos.copy().legal_moves()
    assert len(calls) == 1 and again and _keys(again) == _keys(real(pos))


def test_a_quick_list_is_not_kept(monkeypatch):
    monkeypatch.setattr(position_module, "_memo", None)
    monkeypatch.setattr(position_module, "_MEMO_SECONDS", 3600.0)
    Position.start("camelot").legal_moves()
    assert position_module._memo is None


def test_an_equal_hash_is_not_enough(monkeypatch_memo):
    """The kept list is checked against the whole position, not its hash alone."""
    pos = Position.start("camelot")
    pos.legal_moves()
    other = Position.start("camelot")
    move = other.legal_moves()[0]
    other.push(move)
    other.turn = pos.turn
    other.hash = pos.hash  # a forced collision
    assert _keys(other.legal_moves()) == _keys(movegen.generate(other))
    assert _keys(other.legal_moves()) != _keys(pos.legal_moves())


def test_other_rules_are_another_position(monkeypatch_memo, monkeypatch):
    """Same cells, same hash, other rules (which castles a seat may enter): generated
    again."""
    plain = Position.start("grand-cam")
    other = Position.start("grand-cam", plain.rules.with_option(
        "side_castles", "own" if plain.rules.side_castles == "closed" else "closed"))
    assert other.hash == plain.hash and other.rules != plain.rules
    calls = []
    real = movegen.generate
    monkeypatch.setattr(movegen, "generate", lambda *a: calls.append(1) or real(*a))
    plain.legal_moves()
    other.legal_moves()
    plain.legal_moves()
    assert len(calls) == 3


def test_every_variant_starts_with_its_own_list(monkeypatch_memo):
    for name in VARIANT_NAMES:
        pos = Position.start(name)
        assert _keys(pos.legal_moves()) == _keys(movegen.generate(pos))
