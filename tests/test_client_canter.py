"""The client library against the real canter engine (`python -m canter`), through pipes."""

from __future__ import annotations

import sys

import pytest

from canter.adapters.client.engine import Engine, Limit

pytest.importorskip("canter.protocol.main")

CANTER = [sys.executable, "-m", "canter"]


def legal(position: str, moves: list[str], variant: str = "camelot") -> list[str]:
    from canter.engine import Position, format_move, get_variant, parse_move

    v = get_variant(variant)
    pos = Position.start(v) if position == "startpos" else Position.from_string(position)
    for m in moves:
        pos.push(parse_move(pos, m))
    return [format_move(v, m) for m in pos.legal_moves()]


@pytest.fixture(scope="module")
def canter():
    with Engine.start(CANTER, timeout=30) as engine:
        yield engine


def test_handshake_and_options(canter):
    assert canter.id["name"].startswith("canter")
    assert canter.name == canter.id["name"]
    variant = canter.options["uci_variant"]
    assert variant.type == "combo" and set(variant.var) >= {"camelot", "tri-camelot"}
    assert canter.options["hash"].type == "spin"
    canter.configure({"Hash": canter.options["hash"].min})
    assert canter.ping() > 0
    assert not canter.errors


def test_a_warning_is_kept_apart_from_the_errors(canter):
    canter.configure({"UCI_Variant": "camelot", "Rule Side Castles": "own"})
    canter.ping()
    assert canter.warnings[-1] == ("Rule Side Castles changes nothing in camelot: only team "
                                   "games have side castles")
    assert not canter.errors
    canter.configure({"Rule Side Castles": "closed"})  # back to the default: nothing said
    count = len(canter.warnings)
    canter.ping()
    assert len(canter.warnings) == count


def test_play_a_legal_move_with_info(canter):
    canter.configure({"UCI_Variant": "camelot"})
    canter.new_game()
    moves = ["D6-F8", "H11-F9", "C6-E8-G8"]
    result = canter.play("startpos", Limit(depth=1), moves=moves)
    assert result.move in legal("startpos", moves)
    assert result.info.depth is not None and result.info.score is not None
    assert result.info.pv and result.info.pv[0] == result.move
    assert not result.errors


def test_rejected_position_is_reported(canter):
    canter.configure({"UCI_Variant": "camelot"})
    result = canter.play("startpos", Limit(depth=1), moves=["C6-E8-G8"])  # F8 is empty
    assert result.errors and "position rejected" in result.errors[0]


def test_tri_camelot_clocks_and_analysis(canter):
    canter.configure({"UCI_Variant": "tri-camelot"})
    canter.new_game()
    result = canter.play("startpos", Limit(times=(5, 5, 5), incs=(0.1, 0.1, 0.1)))
    assert result.move in legal("startpos", [], "tri-camelot")
    assert not result.errors  # the per-seat clock keywords were understood
    with canter.analysis("startpos") as analysis:
        first = analysis.next(timeout=20)
        assert first is not None
        analysis.stop()
        done = analysis.wait(timeout=20)
    assert done.move in legal("startpos", [], "tri-camelot")
    canter.configure({"UCI_Variant": "camelot"})


def test_decided_position_answers_none_with_outcome(canter):
    canter.configure({"UCI_Variant": "camelot"})
    won = "camelot w1/4w3/10/12/12/12/12/12/b11/b11/12/12/12/10/8/2 w 0,0 - - 0 0"
    result = canter.play(won, Limit(depth=2), moves=["G15-G16"])
    assert result.move is None
    assert result.outcome == "white wins: two pieces in the black castle"


def test_analysis_stopped_from_other_threads(canter):
    # A GUI's stop button: other threads stop an analysis one thread iterates. `stop` is
    # written once however many threads press it, and the iterating thread reads on to
    # the bestmove.
    import threading

    canter.configure({"UCI_Variant": "camelot"})
    canter.new_game()
    seen: list[object] = []
    mark = len(canter.log)
    with canter.analysis("startpos", moves=["D6-F8"]) as analysis:
        reader = threading.Thread(target=lambda: seen.extend(analysis))
        reader.start()
        gate = threading.Barrier(6)

        def press() -> None:
            gate.wait()
            analysis.stop()

        pressers = [threading.Thread(target=press) for _ in range(6)]
        for t in pressers:
            t.start()
        for t in pressers:
            t.join(timeout=10)
        reader.join(timeout=20)
        assert not reader.is_alive()
        done = analysis.wait(timeout=5)
    assert done.move in legal("startpos", ["D6-F8"])
    sent = [r.line for r in list(canter.log)[mark:] if r.direction == ">"]
    assert sent.count("stop") == 1, sent
    assert canter.ping() > 0
