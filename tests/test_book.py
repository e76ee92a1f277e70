"""The engine's opening book: the format, the probe in the session (a book move on the clock,
never in analysis, pondering or a fixed-depth search), bad books, and `canter book`."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from answers import Answers
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from canter.adapters.book.cli import book as book_command
from canter.engine import Position, format_move, parse_move
from canter.engine.search.book import (
    BookEntry,
    BookError,
    book_moves,
    format_entry,
    key_position,
    parse_book,
    parse_line,
    position_key,
    shipped_book,
)
from canter.engine.search.limits import Limits, SearchResult
from canter.protocol.session import ProtocolError, Session

START = "camelot 2/8/10/12/12/2BbbbbbbB2/3BbbbbB3/12/12/3WwwwwW3/2WwwwwwwW2/12/12/10/8/2 w 0,0 - -"
# C6-B5 is a legal first move the searcher never prefers; F6-F9 is not a legal move at all.
BOOK_TEXT = f"""# a test book
{START} F6-F9 500 C6-B5 100 J6-K7 40 ; 17 9
"""


@pytest.fixture
def book_file(tmp_path):
    path = tmp_path / "book.txt"
    path.write_text(BOOK_TEXT, encoding="utf-8")
    return str(path)


# ---- the format ----------------------------------------------------------------------------
def test_the_key_drops_only_the_counters():
    pos = Position.start("camelot")
    assert position_key(pos) == START
    later = Position.from_string(START + " 7 31")
    assert position_key(later) == START
    assert key_position(START).to_string() == START + " 0 0"


move_text = st.from_regex(r"[A-L][1-9][0-6]?-[A-L][1-9]", fullmatch=True)


@given(st.lists(st.tuples(move_text, st.integers(1, 1_000_000)), min_size=1, max_size=6),
       st.integers(-1_000_000, 1_000_000), st.integers(0, 1000))
def test_a_line_round_trips(moves, score, depth):
    entry = BookEntry(START, tuple(moves), score, depth)
    assert parse_line(format_entry(entry), 1) == entry


def test_comments_and_blank_lines_are_skipped():
    book = parse_book("# head\n\n" + BOOK_TEXT)
    assert len(book) == 1
    entry = book.get(Position.start("camelot"))
    assert entry.moves == (("F6-F9", 500), ("C6-B5", 100), ("J6-K7", 40))
    assert (entry.score, entry.depth) == (17, 9)
    # a byte-order mark before the first entry (some editors write one) is no part of it
    marked = parse_book("\ufeff" + BOOK_TEXT).get(Position.start("camelot"))
    assert marked is not None and marked.moves == entry.moves


@pytest.mark.parametrize("line, reason", [
    (f"{START} C6-B5 100", "no ';'"),
    (f"{START} C6-B5 ; 3 4", "has no weight"),
    (f"{START} C6-B5 0 ; 3 4", "weight of C6-B5 0 is not from 1"),
    (f"{START} C6-B5 x ; 3 4", "weight of C6-B5 'x' is not a whole number"),
    (f"{START} C6-B5 \u00b2 ; 3 4", "is not a whole number"),  # isdigit, but no int
    (f"{START} ; 3 4", "no moves"),
    (f"{START} C6-B5 5 ; 3", "exactly a score and a depth"),
    (f"{START} C6-B5 5 ; 3 -1", "depth '-1'"),
    (f"{START} C6-B5 {'9' * 5000} ; 3 4", "weight of C6-B5 '99999"),  # int() refuses
    (f"{START} C6-B5 5 ; -{'9' * 5000} 4", "is not from"),
    ("camelot 2/8 w C6-B5 5 ; 3 4", "needs 6 fields, found 5"),
])
def test_a_bad_line_is_named_by_its_number(line, reason):
    with pytest.raises(BookError) as info:
        parse_book(f"# ok\n{BOOK_TEXT}{line}\n")
    assert info.value.line == 4
    assert str(info.value).startswith("line 4: ") and reason in str(info.value)


def test_a_book_file_that_never_ends_is_refused_not_read_for_ever():
    # /dev/zero holds no newline and never ends: read up to the bound, then refused.
    result = CliRunner().invoke(book_command, ["show", "/dev/zero"])
    assert result.exit_code == 1 and "/dev/zero: more than 64 MB: not a book" in result.output
    s, _ = session(None)
    with pytest.raises(ProtocolError, match="more than 64 MB"):
        s.set_option("BookFile", "/dev/zero")


def test_a_position_twice_is_refused():
    with pytest.raises(BookError, match="line 3: the position is already in the book"):
        parse_book(BOOK_TEXT + BOOK_TEXT.splitlines()[1])


def test_illegal_moves_are_reported_not_offered():
    pos = Position.start("camelot")
    moves, problems = book_moves(parse_book(BOOK_TEXT).get(pos), pos)
    assert [(format_move(pos.variant, m), w) for m, w in moves] == [("C6-B5", 100),
                                                                    ("J6-K7", 40)]
    assert len(problems) == 1 and problems[0].startswith("book move F6-F9 ignored")


@pytest.mark.parametrize("variant", ["camelot", "tri-camelot"])
def test_the_shipped_books_load_and_every_move_is_legal(variant):
    book = shipped_book(variant)
    assert book is not None and len(book) > 0
    assert book.get(Position.start(variant)) is not None
    for entry in book.entries.values():
        pos = key_position(entry.key)
        assert pos.variant.name == variant
        moves, problems = book_moves(entry, pos)
        assert problems == [] and len(moves) == len(entry.moves)


# ---- the probe in the session ----------------------------------------------------------------
class CountingSearcher:
    """Plays the last legal move (never a book move here) and counts its searches."""

    hash_mb = multipv = skill = 0

    def __init__(self) -> None:
        self.searches = 0

    def clear(self):
        pass

    def search(self, pos, limits, on_info, stop):
        self.searches += 1
        return SearchResult(sorted(pos.legal_moves(), key=str)[-1])


def session(book_file: str | None) -> tuple[Session, CountingSearcher]:
    s = Session()
    if book_file is not None:
        s.set_option("BookFile", book_file)
    searcher = CountingSearcher()
    s._searcher = searcher
    return s, searcher


def answer(s: Session, limits: Limits) -> tuple[str, Answers]:
    a = Answers()
    assert s.start_search(limits, a.on_info, a.on_done, a.on_error)
    if limits.infinite or limits.ponder:
        assert not a.event.wait(0.2)  # held until stop, book or not
        s.stop_search()
    assert a.event.wait(10)
    s.stop_search()
    assert len(a.done) == 1
    return s.fmt(a.done[0][0]), a


CLOCK = Limits(time={0: 60.0, 1: 60.0})


@pytest.mark.parametrize("limits", [CLOCK, Limits(movetime=30.0)])
def test_a_book_move_is_played_on_the_clock_without_a_search(book_file, limits):
    s, searcher = session(book_file)
    move, a = answer(s, limits)
    assert move == "C6-B5" and searcher.searches == 0
    assert [i.string for i in a.infos if i.string] == ["book move"]
    scored = [i for i in a.infos if i.pv]
    assert len(scored) == 1 and scored[0].score_cp == 17
    assert [s.fmt(m) for m in scored[0].pv] == ["C6-B5"]
    # the illegal entry was reported, and not played
    assert a.errors == ["book move F6-F9 ignored: not a legal move here"] or \
        a.errors[0].startswith("book move F6-F9 ignored")


@pytest.mark.parametrize("limits", [
    Limits(infinite=True), Limits(ponder=True, time={0: 60.0, 1: 60.0}), Limits(depth=2),
    Limits(nodes=100, movetime=30.0), Limits(mate=2, time={0: 60.0, 1: 60.0}), Limits(),
], ids=["infinite", "ponder", "depth", "nodes", "mate", "bare"])
def test_analysis_and_search_requests_never_use_the_book(book_file, limits):
    s, searcher = session(book_file)
    move, a = answer(s, limits)
    assert searcher.searches == 1 and move != "C6-B5"
    assert not any(i.string == "book move" for i in a.infos)


def test_own_book_false_searches(book_file):
    s, searcher = session(book_file)
    s.set_option("OwnBook", "false")
    move, _ = answer(s, CLOCK)
    assert searcher.searches == 1 and move != "C6-B5"
    s.set_option("OwnBook", "true")
    assert answer(s, CLOCK)[0] == "C6-B5"


def test_searchmoves_pick_among_the_allowed_book_moves(book_file):
    s, searcher = session(book_file)
    only = s.parse_moves(["J6-K7", "I6-K6"])[0]
    assert answer(s, Limits(time={0: 60.0}, searchmoves=only))[0] == "J6-K7"
    assert searcher.searches == 0
    none = s.parse_moves(["I6-K6"])[0]
    assert answer(s, Limits(time={0: 60.0}, searchmoves=none))[0] == "I6-K6"
    assert searcher.searches == 1


def test_a_book_of_only_illegal_moves_is_never_played(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(f"{START} F6-F9 500 Z1-A1 3 ; 0 1\n", encoding="utf-8")
    s, searcher = session(str(path))
    move, a = answer(s, CLOCK)
    assert searcher.searches == 1 and move not in ("F6-F9", "Z1-A1")
    assert len(a.errors) == 2 and all("ignored" in e for e in a.errors)


def test_a_position_off_the_book_is_searched(book_file):
    s, searcher = session(book_file)
    s.set_position(None, ["C6-B5"])
    answer(s, CLOCK)
    assert searcher.searches == 1


def test_a_corrupt_book_file_is_refused_naming_the_line(tmp_path, book_file):
    bad = tmp_path / "corrupt.txt"
    bad.write_text(BOOK_TEXT + f"{START[:-4]} C6-B5 ; 1 1\n", encoding="utf-8")
    s, _ = session(book_file)
    with pytest.raises(ProtocolError, match=r"option 'BookFile' not set: .*: line 3: "):
        s.set_option("BookFile", str(bad))
    with pytest.raises(ProtocolError, match=r"No such file"):
        s.set_option("BookFile", str(tmp_path / "missing.txt"))
    assert answer(s, CLOCK)[0] == "C6-B5"  # the book it had stays


def test_the_shipped_book_is_the_default_and_left_out_under_other_rules():
    s, searcher = session(None)
    entry = shipped_book("camelot").get(s.position)
    move, _ = answer(s, CLOCK)
    assert searcher.searches == 0 and move in [t for t, _ in entry.moves]
    spec = next(x for x in s.option_specs() if x.rule_field is not None
                and x.kind == "check")
    s.set_option(spec.name, "false" if spec.default else "true")
    answer(s, CLOCK)
    assert searcher.searches == 1


def test_a_ruling_the_game_never_consults_keeps_the_shipped_book():
    s, searcher = session(None)
    assert s.set_option("Rule No Move", "pass")  # a warning: two players never pass
    entry = shipped_book("camelot").get(s.position)
    move, _ = answer(s, CLOCK)
    assert searcher.searches == 0 and move in [t for t, _ in entry.moves]


# ---- through a real engine process ------------------------------------------------------------
def engine(lines: list[str]) -> str:
    proc = subprocess.run([sys.executable, "-m", "canter"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_uci_answers_a_book_position_at_once(book_file):
    # movetime 100 s: had it searched, the engine would not answer within the timeout.
    out = engine(["uci", f"setoption name BookFile value {book_file}", "position startpos",
                  "go movetime 100000"]).splitlines()
    assert "option name OwnBook type check default true" in out
    assert "option name BookFile type string default <empty>" in out
    assert out[-3:] == ["info string book move",
                        "info depth 1 score cp 17 nodes 0 time 0 pv C6-B5",
                        "bestmove C6-B5"]


def test_uci_reports_a_corrupt_book(tmp_path):
    bad = tmp_path / "corrupt.txt"
    bad.write_text("# c\nnonsense\n", encoding="utf-8")
    out = engine([f"setoption name BookFile value {bad}", "isready"]).splitlines()
    assert out[0].startswith("info string error: option 'BookFile' not set: ")
    assert out[0].endswith("line 2: no ';' before the score and depth")


def test_cecp_plays_the_book_move(book_file):
    out = engine(["xboard", "protover 2", f"option BookFile={book_file}", "new", "st 100",
                  "go"])
    assert "move C6-B5" in out.splitlines()


# ---- canter book ------------------------------------------------------------------------------
def run(*args):
    return CliRunner().invoke(book_command, list(args))


def test_probe_prints_the_legal_book_moves(book_file):
    result = run("probe", "--file", book_file)
    assert result.exit_code == 0
    # the key, labelled as such: the position string without its two counters
    assert result.stdout.splitlines() == [f"key {START}", "C6-B5 100", "J6-K7 40",
                                          "score 17 depth 9"]
    assert "book move F6-F9 ignored" in result.stderr
    off = run("probe", "--file", book_file, "--moves", "C6-B5")
    assert off.exit_code == 0 and off.stdout.splitlines()[-1] == "not in book"


def test_probe_of_the_shipped_book_by_position_and_moves():
    first = shipped_book("camelot").get(Position.start("camelot")).moves[0][0]
    result = run("probe", "--position", START + " 0 0")
    assert result.exit_code == 0 and f"{first} 100" in result.stdout.splitlines()
    pos = Position.start("camelot")
    pos.push(parse_move(pos, first))
    reply = shipped_book("camelot").get(pos)
    again = run("probe", "--moves", first)
    assert again.exit_code == 0
    assert f"{reply.moves[0][0]} {reply.moves[0][1]}" in again.stdout.splitlines()
    tri = run("probe", "--variant", "tri-camelot")
    assert tri.exit_code == 0 and "not in book" not in tri.stdout


def test_show_and_bad_input(tmp_path, book_file):
    shown = run("show", book_file)
    assert shown.exit_code == 0
    assert shown.stdout.splitlines()[1:5] == ["positions 1", "depths 9: 1", "moves 3",
                                              "games camelot"]
    bad = tmp_path / "corrupt.txt"
    bad.write_text(BOOK_TEXT + "x\n", encoding="utf-8")
    for args in (("show", str(bad)), ("probe", "--file", str(bad))):
        result = run(*args)
        assert result.exit_code == 1 and "line 3: no ';'" in result.stderr
    illegal = run("probe", "--moves", "D6-D9")
    assert illegal.exit_code == 2 and "illegal move D6-D9" in illegal.stderr
    assert run("show", "--variant", "cam").exit_code == 1  # no book shipped for Cam
    # A file that cannot be opened is bad usage (2), as in every command; an empty one is
    # no book (1), not a book that knows no position.
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    for args, code, why in [(("show", str(tmp_path / "none.txt")), 2, "No such file"),
                            (("probe", "--file", str(tmp_path / "none.txt")), 2, "No such"),
                            (("show", str(tmp_path)), 2, "directory"),
                            (("probe", "--file", str(tmp_path)), 2, "directory"),
                            (("show", str(empty)), 1, "holds no book entry"),
                            (("probe", "--file", str(empty)), 1, "holds no book entry")]:
        result = run(*args)
        assert result.exit_code == code and why in result.stderr, (args, result.stderr)


def test_build_writes_a_book_and_resumes(tmp_path):
    out = tmp_path / "camette.txt"
    first = run("build", "--variant", "camette", "--plies", "1", "--depth", "1",
                "--out", str(out))
    assert first.exit_code == 0, first.stderr
    book = parse_book(out.read_text(encoding="utf-8"))
    assert len(book) == 1 and "positions searched 1" in first.stderr
    second = run("build", "--variant", "camette", "--plies", "2", "--depth", "1",
                 "--alternatives", "1", "--out", str(out))
    assert second.exit_code == 0, second.stderr
    grown = parse_book(out.read_text(encoding="utf-8"))
    # the start entry was reused, and each of its moves was answered
    assert grown.get(Position.start("camette")) == book.get(Position.start("camette"))
    assert len(grown) == 1 + len(book.get(Position.start("camette")).moves)
    for entry in grown.entries.values():
        pos = key_position(entry.key)
        assert book_moves(entry, pos)[1] == []


def test_build_extends_a_book_whose_last_line_has_no_end(tmp_path):
    # A book edited by hand may end without a newline: the next entry must not be glued
    # onto its last line.
    out = tmp_path / "camette.txt"
    first = run("build", "--variant", "camette", "--plies", "1", "--depth", "1",
                "--out", str(out))
    assert first.exit_code == 0, first.stderr
    out.write_bytes(out.read_bytes().rstrip(b"\n"))
    second = run("build", "--variant", "camette", "--plies", "2", "--depth", "1",
                 "--alternatives", "1", "--out", str(out))
    assert second.exit_code == 0, second.stderr
    grown = parse_book(out.read_text(encoding="utf-8"))
    assert len(grown) == 1 + len(grown.get(Position.start("camette")).moves)
    assert run("show", str(out)).exit_code == 0


def test_build_refuses_a_pipe_as_its_book(tmp_path):
    # The book is read, then added to: a pipe holds none, and reading one that nobody
    # writes would wait for ever.
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    result = run("build", "--plies", "1", "--depth", "1", "--out", str(pipe))
    assert result.exit_code == 2
    assert f"Invalid value for --out: {pipe} is not a regular file" in result.output


def test_a_build_the_disk_cannot_take_keeps_whole_lines_and_resumes(tmp_path):
    # A file size limit stands for a full disk: the entry that does not fit is cut off
    # again, so the book still reads, and the same build goes on from it.
    import resource

    out = tmp_path / "camette.txt"
    command = [sys.executable, "-m", "canter", "book", "build", "--variant", "camette",
               "--plies", "10", "--depth", "1", "--margin", "100", "--out", str(out)]

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (1000, resource.RLIM_INFINITY))

    cut = subprocess.run(command, capture_output=True, text=True, timeout=120,
                         preexec_fn=small_files)
    assert cut.returncode == 1, cut.stderr
    assert "the entries before it are kept" in cut.stderr and "Traceback" not in cut.stderr
    text = out.read_text(encoding="utf-8")
    assert text.endswith("\n") and 0 < len(text) <= 1000
    kept = parse_book(text)
    assert len(kept) > 1
    more = run("build", "--variant", "camette", "--plies", "3", "--depth", "1",
               "--margin", "100", "--out", str(out))
    assert more.exit_code == 0, more.stderr
    assert len(parse_book(out.read_text(encoding="utf-8"))) >= len(kept)
