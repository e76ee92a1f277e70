"""bench/book_balance.py: which openings of a book one colour wins whoever plays it, counted
from game records built here with known results, and the book written without them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import book_balance  # noqa: E402

from canter.adapters.arbiter.openings import load_book, load_openings  # noqa: E402
from canter.adapters.records.format import GameRecord, write_games  # noqa: E402

BOOK = [o.moves for o in load_book("camelot")]
LOPSIDED, LEVEL, FEW = BOOK[3], BOOK[7], BOOK[11]


def game(opening: tuple[str, ...], round_no: int, result: str,
         players: tuple[str, str] = ("a", "b")) -> GameRecord:
    record = GameRecord.new("camelot", list(players), round=str(round_no),
                            time_control="10+0.1")
    for move in opening:
        record.add_move(move, text="book")
    # A searched move after the book: not part of the opening.
    record.add_move("D6-F8" if len(opening) % 2 == 0 else "H11-F9", score="+0.10", depth=3)
    record.set_result(result)
    return record


@pytest.fixture
def records(tmp_path) -> Path:
    """Rounds in colour-swapped pairs, as the arbiter plays them:
    - LOPSIDED: 20 pairs, White wins every game (every pair split), 40 games;
    - LEVEL: 20 pairs; the first 8 split (White wins both), the other 12 won twice by
      the same player (1-0 then 0-1), so White scores 28 of 40 = 0.70;
    - FEW: 2 pairs, White wins all four (too few games to judge).
    """
    games = []
    n = 0
    for pair in range(20):
        games += [game(LOPSIDED, n + 1, "1-0"), game(LOPSIDED, n + 2, "1-0", ("b", "a"))]
        n += 2
        second = "1-0" if pair < 8 else "0-1"
        games += [game(LEVEL, n + 1, "1-0"), game(LEVEL, n + 2, second, ("b", "a"))]
        n += 2
    for _ in range(2):
        games += [game(FEW, n + 1, "1-0"), game(FEW, n + 2, "1-0", ("b", "a"))]
        n += 2
    games.append(GameRecord.new("camelot", ["a", "b"], round=str(n + 1)))  # unfinished
    path = tmp_path / "games.pgn"
    with open(path, "w", encoding="utf-8") as out:
        write_games(games, out)
    return path


def test_tallies_count_games_first_player_points_and_split_pairs(records) -> None:
    tallies, controls = book_balance.tally([str(records)], "camelot")
    assert controls == {"10+0.1"}
    lop, level, few = tallies[LOPSIDED], tallies[LEVEL], tallies[FEW]
    assert (lop.games, lop.first, lop.pairs, lop.split) == (40, 40, 20, 20)
    assert (level.games, level.first, level.pairs, level.split) == (40, 28, 20, 8)
    assert (few.games, few.first, few.pairs, few.split) == (4, 4, 2, 2)
    assert sum(t.games for t in tallies.values()) == 84  # the unfinished game is not counted
    assert book_balance.one_sided(lop, 0.15, 30)
    assert not book_balance.one_sided(level, 0.15, 30)
    assert book_balance.one_sided(level, 0.35, 30)  # 0.70 is above 1 - 0.35
    assert not book_balance.one_sided(few, 0.15, 30)  # 4 games: not judged
    assert book_balance.one_sided(few, 0.15, 4)


def test_the_written_book_is_the_book_without_its_one_sided_openings(records, tmp_path,
                                                                    capsys) -> None:
    out = tmp_path / "kept.txt"
    assert book_balance.main([str(records), "--write", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "84 finished games in 1 file(s); 50 openings in the book" in printed
    assert f"   40   1.00    20   1.00  {' '.join(LOPSIDED)}   one-sided" in printed
    assert f"   40   0.70    20   0.40  {' '.join(LEVEL)}\n" in printed
    assert "split pairs: 30 of 42 (71.4%); without the one-sided openings 10 of 22" in printed
    assert "one-sided: 1 of 50 openings" in printed
    kept = [o.moves for o in load_openings(str(out), "camelot")]
    assert kept == [m for m in BOOK if m != LOPSIDED]  # in the book's order
    header = out.read_text(encoding="utf-8").splitlines()[:3]
    assert all(line.startswith("#") for line in header)
    assert "49 openings of the built-in book" in header[0] and "10+0.1" in header[1]


def test_openings_outside_the_book_and_other_games_are_left_out(tmp_path, capsys) -> None:
    stranger = ("E6-D5", "I10-I9")
    assert stranger not in BOOK
    games = [game(stranger, 1, "1-0"), game(stranger, 2, "0-1", ("b", "a"))]
    tri = GameRecord.new("tri-camelot", ["a", "b", "c"], round="3")
    path = tmp_path / "g.pgn"
    with open(path, "w", encoding="utf-8") as out:
        write_games(games + [tri], out)
    assert book_balance.main([str(path)]) == 0
    printed = capsys.readouterr().out
    assert "2 finished games" in printed
    assert "1 opening(s) of the records are not in the book; ignored" in printed
    assert "one-sided: 0 of 50 openings" in printed


@pytest.mark.parametrize("args, message", [
    (["--edge", "0.5"], "--edge must be at least 0 and below 0.5"),
    (["--book", "missing.txt"], "missing.txt: no such file"),
])
def test_bad_arguments_are_one_line_errors(records, args, message, capsys) -> None:
    try:
        code = book_balance.main([str(records), *args])
    except SystemExit as stopped:
        code = stopped.code
    assert code in (1, 2)
    assert message in capsys.readouterr().err


def test_replays_are_games_that_repeat_an_earlier_game_of_their_file(records,
                                                                     tmp_path) -> None:
    tallies, _ = book_balance.tally([str(records)], "camelot")
    # Every game of the fixture repeats the first one of its opening and seats: of the 20
    # games of each opening in each seating, 19 are replays; FEW has 2 in each seating.
    assert (tallies[LOPSIDED].replays, tallies[LEVEL].replays) == (38, 38)
    assert tallies[FEW].replays == 2
    # Another move after the opening, or the same game with the seats swapped, is new;
    # the same game in another file is not a replay of this one.
    other = game(FEW, 1, "1-0")
    other.moves[-1] = "D7-D8"
    swapped = game(FEW, 2, "1-0", ("b", "a"))
    again = game(FEW, 3, "1-0", ("b", "a"))
    path = tmp_path / "more.pgn"
    with open(path, "w", encoding="utf-8") as out:
        write_games([game(FEW, 0, "1-0"), other, swapped, again], out)
    tallies, _ = book_balance.tally([str(path)], "camelot")
    assert tallies[FEW].replays == 1
    tallies, _ = book_balance.tally([str(records), str(path)], "camelot")
    assert tallies[FEW].replays == 3


def test_the_book_is_never_written_over_an_input(records, tmp_path) -> None:
    # `--write` naming one of the match records (or the book) would destroy it: refused
    # before any work, the file kept.
    before = records.read_bytes()
    with pytest.raises(SystemExit) as exit_info:
        book_balance.main([str(records), "--write", str(records)])
    assert exit_info.value.code == 2
    assert records.read_bytes() == before


def test_the_book_replaces_only_an_openings_file(records, tmp_path, capsys) -> None:
    """A file of the user's under `--write` is refused before any work and kept; a book
    written before (its first line says so) is replaced."""
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    with pytest.raises(SystemExit) as exit_info:
        book_balance.main([str(records), "--write", str(notes)])
    assert exit_info.value.code == 2
    assert "is not an openings file" in capsys.readouterr().err
    assert notes.read_text() == "my notes\n"
    book = tmp_path / "book.txt"
    assert book_balance.main([str(records), "--write", str(book)]) == 0
    first = book.read_text()
    assert first.startswith("# camelot: ")
    assert book_balance.main([str(records), "--write", str(book)]) == 0  # its own: replaced
    assert book.read_text() == first
