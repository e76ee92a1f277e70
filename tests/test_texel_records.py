"""bench/texel_data.py --records: Texel positions taken from match records."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import texel_data  # noqa: E402

from canter.adapters.records.format import read_games  # noqa: E402
from canter.engine import Position, get_variant, parse_move  # noqa: E402

# White's F7-F8 (from the book), Black's F10-F9 (searched: its position is kept), White's
# compulsory F8xF10xF12 (left out: a capture is due), Black's E11xG13 announcing a loss in
# three (the rest is left out), White's D6-D8.
MOVES = """1. F7-F8 {book} F10-F9 {+0.10/3 0.2s} 2. F8xF10xF12 {+1.00/3 0.2s}
E11xG13 {#-3/4 0.1s} 3. D6-D8 {+9.00/4 0.1s}"""


def record(result: str = "1-0", variant: str = "Camelot", termination: str = "normal") -> str:
    return (f'[Event "t"]\n[Variant "{variant}"]\n[White "a"]\n[Black "b"]\n'
            f'[Result "{result}"]\n[Termination "{termination}"]\n\n{MOVES} {result}\n\n')


def after(*moves: str) -> str:
    pos = Position.start(get_variant("camelot"))
    for word in moves:
        pos.push(parse_move(pos, word))
    return pos.to_string()


def test_only_searched_quiet_positions_before_a_forced_result_are_kept():
    [game] = read_games(record("1-0"))
    assert texel_data.record_lines(game, "camelot") == [f"{after('F7-F8')} ; result 0"]
    [game] = read_games(record("0-1"))
    assert texel_data.record_lines(game, "camelot") == [f"{after('F7-F8')} ; result 1"]
    [game] = read_games(record("1/2-1/2"))
    assert texel_data.record_lines(game, "camelot") == [f"{after('F7-F8')} ; result 0.5"]


def test_records_that_say_nothing_of_the_rules_result_are_skipped():
    for text in (record("*"), record(termination="time forfeit"),
                 record(termination="adjudication")):
        [game] = read_games(text, allow_unterminated=True)
        assert texel_data.record_lines(game, "camelot") is None
    [game] = read_games(record())
    assert texel_data.record_lines(game, "chivalry") is None


def test_a_run_over_records_resumes(tmp_path):
    pgn = tmp_path / "m.pgn"
    pgn.write_text(record("1-0") + record(termination="crash") + record("0-1"),
                   encoding="utf-8")
    out = tmp_path / "d.texel"
    assert texel_data.run_records([str(pgn)], "camelot", str(out), quiet=True) == 2
    text = out.read_text(encoding="utf-8")
    assert text.count("# game") == 2 and "# game 0\n" in text and "# game 2\n" in text
    assert texel_data.run_records([str(pgn)], "camelot", str(out), quiet=True) == 0
    assert out.read_text(encoding="utf-8") == text
