"""The referee queries a rules-free GUI uses (`board`, `pieces`, `turn`, `ranking`, `legal
<move>`), through the client library and in both dialects; the client's parsers refuse
malformed answers. The plain answers are pinned in tests/transcripts/drawing.txt."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from canter.adapters.client import Engine, EngineRefused, Limit
from canter.adapters.client.parse import LineError
from canter.adapters.client.referee import (
    parse_board,
    parse_pieces,
    parse_ranking,
    parse_result,
    parse_turn,
)
from canter.engine import Position, format_move, get_variant

CANTER = [sys.executable, "-m", "canter"]
AMBIGUOUS = ("camelot 2/8/10/1b5b4/2b4b2B1/6b1bB2/3bb1b3b1/1BB9/6www3/3W8/3wwwww1W2/5W3w2/"
             "W11/1w8/8/2 w 0,0 - - 32 32")


@pytest.fixture(scope="module")
def engine():
    with Engine.start(CANTER) as e:
        yield e


@pytest.mark.parametrize("variant", ["camelot", "tri-camelot"])
def test_the_board_answer_describes_the_variant_of_the_rules_library(engine, variant):
    engine.configure({"UCI_Variant": variant})
    engine.checked_position("startpos")
    layout = engine.board()
    v = get_variant(variant)
    assert layout.variant == variant
    assert layout.shape == ("hex" if variant == "tri-camelot" else "square")
    assert layout.seats == tuple(s.name for s in v.seats)
    assert [(c.name, c.file, c.rank) for c in layout.cells] == [
        (v.cell_name(c), *v.board.coords[c]) for c in v.cells]
    for seat, cells in zip(v.seats, v.own_castle, strict=True):
        assert set(layout.castles[seat.name]) == {v.cell_name(c) for c in cells}
    # Every cell has a distinct place, so a GUI can draw the board from this alone.
    places = set()
    for cell in layout.cells:
        if layout.shape == "hex":
            places.add((1.5 * cell.file, round(math.sqrt(3) / 2 * cell.rank, 6)))
        else:
            places.add((cell.file, cell.rank))
    assert len(places) == len(layout.cells)


def test_pieces_turn_and_legal_follow_the_position(engine):
    engine.configure({"UCI_Variant": "camelot"})
    moves = ["D6-F8", "E11-C9", "F8-F9"]
    engine.checked_position("startpos", moves)
    pos = Position.start("camelot")
    for text in moves:
        pos.push(next(m for m in pos.legal_moves() if format_move(pos.variant, m) == text))
    v = pos.variant
    expected = {}
    for cell in v.cells:
        piece = pos.piece_at(cell)
        if piece is not None:
            expected[v.cell_name(cell)] = (v.seats[piece[0]].name, piece[1])
    assert {c: (p.seat, p.kind) for c, p in engine.pieces().items()} == expected
    assert engine.turn() == "black"
    assert engine.ranking() is None
    assert engine.result() == (None, False)
    for cell in ("F9", "C9", "D10"):
        mine = sorted(format_move(v, m) for m in pos.legal_moves()
                      if v.cell_name(m.start) == cell)
        assert engine.legal(cell) == mine


def test_legal_with_a_move_text_gives_the_canonical_spelling_or_the_candidates(engine):
    engine.configure({"UCI_Variant": "camelot"})
    engine.checked_position("startpos")
    assert engine.legal("d6f8") == ["D6-F8"]
    assert engine.legal("d6-f8") == ["D6-F8"]
    engine.checked_position(AMBIGUOUS)
    assert engine.legal("f5d11") == ["F5-F7-H9xF11xD9xD11", "F5-H7-F9xH11xF11xD9xD11"]
    with pytest.raises(EngineRefused, match=r"illegal: C3-C5: a canter leaps over a piece"):
        engine.legal("C3-C5")
    # The refusal changed nothing: the engine answers the next query.
    assert engine.turn() == "white"


def test_a_refused_position_is_reported_and_the_old_one_kept(engine):
    engine.configure({"UCI_Variant": "camelot"})
    engine.checked_position("startpos", ["D6-F8"])
    with pytest.raises(EngineRefused, match=r"move 2 \(F8-F9\)"):
        engine.checked_position("startpos", ["D6-F8", "F8-F9"])
    assert engine.turn() == "black"
    assert "F8" in engine.pieces()


def test_ranking_of_a_finished_three_seat_game(engine):
    engine.configure({"UCI_Variant": "tri-camelot"})
    start = "tri-camelot 4/5/6/5/5r/5/6/5/1g2/5/4/3/4/1b1/b1/3/2/1 r 0,0,0 - - 0 0"
    engine.checked_position(start, ["K14-K16"])
    assert engine.turn() is None
    assert engine.ranking() == [["red"], ["blue", "green"]]
    assert engine.result() == ("red wins: a piece in the green castle", False)
    assert engine.legal() == []


def test_the_queries_are_answered_during_a_search():
    with Engine.start(CANTER) as e:
        e.checked_position("startpos")
        analysis = e.analysis("startpos")
        e.send("pieces")
        e.send("turn")
        next(iter(analysis))
        analysis.stop()
        result = analysis.wait()
        assert result.move is not None
        lines = [r.line for r in e.log if r.direction == "<"]
        assert any(line.startswith("pieces C6:white:knight") for line in lines)
        assert "turn white" in lines
        # and a normal query works once the search is over
        assert e.play("startpos", Limit(depth=1)).move in e.legal()


def test_the_xboard_dialect_answers_as_comments():
    commands = "xboard\nprotover 2\nturn\nranking\npieces\nboard\nlegal d6f8\nquit\n"
    out = subprocess.run(CANTER, input=commands, capture_output=True, text=True,
                         timeout=30).stdout.splitlines()
    assert "# turn white" in out
    assert "# ranking none" in out
    assert "# legal D6-F8" in out
    assert any(line.startswith("# pieces C6:white:knight D6:white:man") for line in out)
    assert any(line.startswith("# board camelot square seats white black") for line in out)


@pytest.mark.parametrize("parser, line", [
    (parse_board, "board camelot square seats white black castles white:F1 cells F1:5"),
    (parse_board, "board camelot square castles cells F1:5:1"),
    (parse_board, "board camelot square seats white castles blue:F1 cells F1:5:1"),
    (parse_board, "board camelot square seats white castles white:F1 cells F1:x:1"),
    (parse_pieces, "pieces F7:white"),
    (parse_turn, "turn"),
    (parse_turn, "turn white black"),
    (parse_ranking, "ranking"),
    (parse_result, "result"),
    (parse_turn, "legal F7"),
])
def test_malformed_answers_are_refused_by_the_parsers(parser, line):
    with pytest.raises(LineError):
        parser(line)


def test_a_strict_client_takes_the_referee_answers():
    # The answers (`legal ...`, `position ...`, `result ...`) are not UCI lines, yet they are
    # what the query waits for: strict refuses stray lines, not these.
    with Engine.start(CANTER, strict=True) as strict:
        strict.checked_position("startpos", ["C6-B5"])
        assert "C11-B10" in strict.legal()
        assert strict.get_position().startswith("camelot ")
        assert strict.result() == (None, False)
