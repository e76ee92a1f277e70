"""bench/opponent_rank.py: where the move played ranks by the three-seat search's
likeliest-move key, read from Tri-Camelot records built here with known choices."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import opponent_rank  # noqa: E402

from canter.adapters.records.format import GameRecord, write_games  # noqa: E402
from canter.engine import Position, format_move, get_variant  # noqa: E402
from canter.engine.search.common import likeliest  # noqa: E402

TRI = get_variant("tri-camelot")


def record_of(choose, book: int, plies: int) -> GameRecord:
    """A game of `plies` moves, `choose(pos, legal)` picking each; the first `book` moves
    carry no score comment, as an arbiter writes a book's moves."""
    pos = Position.start(TRI)
    record = GameRecord.new("tri-camelot", ["a", "b", "c"], round="1")
    for ply in range(plies):
        move = choose(pos, pos.legal_moves())
        record.add_move(format_move(TRI, move), **({} if ply < book else
                                                    {"score": "+0.10", "depth": 3}))
        pos.push(move)
    record.set_result("*")
    return record


def likeliest_move(pos, legal):
    # The search's own choice for a read opponent (k = 1): the oracle the ranks must match.
    return likeliest(legal, 1, TRI.target_bits[pos.turn], opponent_rank.DIST[pos.turn])[0]


def least_likely(pos, legal):
    target, dist = TRI.target_bits[pos.turn], opponent_rank.DIST[pos.turn]
    kept = set(map(id, likeliest(legal, len(legal) - 1, target, dist)))
    return next(m for m in legal if id(m) not in kept)


def shares(text: str, row: str) -> list[str]:
    line = next(x for x in text.splitlines() if x.startswith(row))
    return line.split()[1:]


def test_the_likeliest_move_ranks_first_and_book_moves_are_not_read(tmp_path, capsys):
    path = tmp_path / "games.pgn"
    with open(path, "w", encoding="utf-8") as out:
        write_games([record_of(likeliest_move, book=3, plies=9)], out)
    assert opponent_rank.main([str(path), "--static"]) == 0
    text = capsys.readouterr().out
    assert "1 games, 6 searched moves with a choice" in text
    assert shares(text, "key") == ["100.0%"] * opponent_rank.TOP
    assert len(shares(text, "static")) == opponent_rank.TOP


def test_the_least_likely_move_is_outside_every_top_k(tmp_path, capsys):
    # Every seat has more than twelve legal moves in the opening, so the move the key
    # ranks last is in no top-12; mixed with as many likeliest moves, the shares are half.
    low = record_of(least_likely, book=0, plies=6)
    high = record_of(likeliest_move, book=0, plies=6)
    path = tmp_path / "games.pgn"
    with open(path, "w", encoding="utf-8") as out:
        write_games([low, high], out)
    assert opponent_rank.main([str(path)]) == 0
    text = capsys.readouterr().out
    assert "2 games, 12 searched moves with a choice" in text
    assert shares(text, "key") == ["50.0%"] * opponent_rank.TOP
    assert opponent_rank.main([str(path), "--games", "1"]) == 0
    assert shares(capsys.readouterr().out, "key") == ["0.0%"] * opponent_rank.TOP


def test_records_without_a_searched_tri_camelot_move_are_an_error(tmp_path, capsys):
    path = tmp_path / "games.pgn"
    cam = GameRecord.new("camelot", ["a", "b"], round="1")
    cam.add_move("D6-F8", score="+0.1", depth=3)
    cam.set_result("*")
    with open(path, "w", encoding="utf-8") as out:
        write_games([cam, record_of(likeliest_move, book=6, plies=6)], out)
    assert opponent_rank.main([str(path)]) == 1
    assert "no searched Tri-Camelot moves" in capsys.readouterr().err
