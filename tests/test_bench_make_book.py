"""bench/make_book.py: reproducible books of level starts, the same with one process or two."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import make_book  # noqa: E402

from canter.adapters.arbiter.openings import load_book  # noqa: E402
from canter.engine import Position, parse_move  # noqa: E402


def test_the_default_seed_writes_the_built_in_book_again() -> None:
    shipped = [o.moves for o in load_book("cam")][:3]
    assert [tuple(line) for line in make_book.book("cam", 3)] == shipped


def test_longer_starts_are_distinct_legal_and_the_same_whatever_the_jobs() -> None:
    one = make_book.book("camelot", 6, plies=4, depth=1, jobs=1)
    two = make_book.book("camelot", 6, plies=4, depth=1, jobs=2)
    assert one == two
    assert len({tuple(line) for line in one}) == 6
    for line in one:
        assert len(line) == 4
        pos = Position.start("camelot")
        for text in line:
            pos.push(parse_move(pos, text))
        assert pos.outcome() is None
    # Another length draws from another seed: not the 2-ply book's first moves.
    assert [line[:2] for line in one] != [list(o.moves) for o in load_book("camelot")][:6]


def test_a_start_a_search_finds_lost_is_left_out() -> None:
    searcher = make_book.Searcher()
    assert make_book.level(Position.start("camelot"), 2, searcher)
    # White with two Knights against Black's whole army: far more than a Man down.
    lost = Position.from_string(
        "camelot 2/8/10/12/12/2BbbbbbbB2/3BbbbbB3/12/12/12/2W6W2/12/12/10/8/2 w 0,0 - - 0 0")
    assert not make_book.level(lost, 2, searcher)


def test_a_book_asked_for_more_starts_than_exist_ends_with_all_there_are(capsys) -> None:
    """Camette has 22 first moves: asking for 100,000 one-ply starts ends (it drew for
    ever) with the level ones, and the header counts what the book holds."""
    make_book.main(["camette", "100000", "--plies", "1", "--depth", "1"])
    out, err = capsys.readouterr()
    lines = [line for line in out.splitlines() if not line.startswith("#")]
    assert 0 < len(lines) <= 22 and len(set(lines)) == len(lines)
    assert f"openings: {len(lines)} distinct random 1-ply starts" in out
    assert f"the book holds {len(lines)}, not 100000" in err
