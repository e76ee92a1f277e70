"""Bad input to the arbiter's command line (`canter match`, `canter tournament`): engine
fields that cannot be read, `--each` likewise, cutechess-cli/fastchess spellings canter
cannot honour, `--rounds` against `--games`, and openings files that are missing, a
directory, not UTF-8, binary, empty, or of the other game. Each is refused before any engine
starts, with one error line naming the problem and exit status 2, never a traceback."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from badinput import USAGE, assert_error, canter

E = "cmd=canter"
TWO = ["--engine", E, "--engine", E, "--depth", "1"]
THREE = ["--engine", E, "--engine", E, "--engine", E, "--depth", "1"]
TRI_LINE = "G4-H3 C14-E16 H17-I18\n"
CAMELOT_LINE = "E6-D5 I10-J10\n"
TRI_POSITION = ("tri-camelot 4/1r1g1/1R2G1/1r1g1/1R2G1/Rr1gG/1r2g1/r3g/4/5/4/1b1/1bb1/bBb/BB/"
                "3/2/1 b 0,0,0 - - 0 0\n")


def _file(name: str, data: bytes) -> Callable[[Path], str]:
    def make(tmp: Path) -> str:
        path = tmp / name
        path.write_bytes(data)
        return str(path)
    return make


def _dir(tmp: Path) -> str:
    (tmp / "book.d").mkdir()
    return str(tmp / "book.d")


OPENINGS: list[tuple[str, Callable[[Path], str], list[str], tuple[str, ...]]] = [
    ("missing", lambda tmp: str(tmp / "nope.txt"), TWO, ("--openings", "nope.txt",
                                                          "no such file")),
    ("directory", _dir, TWO, ("book.d", "is a directory")),
    ("latin-1", _file("l1.txt", "C6-B5 H11-F9 # caf\xe9\n".encode("latin-1")), TWO,
     ("l1.txt", "not a UTF-8 text file", "0xe9")),
    ("utf-16", _file("u16.txt", "C6-B5\n".encode("utf-16")), TWO,
     ("u16.txt", "not a UTF-8 text file")),
    ("binary", _file("b.bin", b"C6-B5\x00\x01\x02\n"), TWO, ("b.bin", "binary file")),
    ("empty", _file("empty.txt", b""), TWO, ("empty.txt", "no openings")),
    ("comments only", _file("c.txt", b"# nothing yet\n\n"), TWO, ("c.txt", "no openings")),
    ("tri book for camelot", _file("t.txt", TRI_LINE.encode()), TWO,
     ("t.txt line 1", "is a tri-camelot opening, but the match plays camelot")),
    ("camelot book for tri", _file("c2.txt", CAMELOT_LINE.encode()),
     ["--variant", "tri-camelot", *THREE],
     ("c2.txt line 1", "is a camelot opening, but the match plays tri-camelot")),
    ("tri position for camelot", _file("p.txt", TRI_POSITION.encode()), TWO,
     ("p.txt line 1", "a tri-camelot position, but the match plays camelot")),
    ("illegal second move", _file("i.txt", b"C6-B5\nC6-B5 C6-B5\n"), TWO,
     ("i.txt line 2", "move 2 (C6-B5)")),
    ("game record of the other game", _file("g.pgn", b'[Variant "Tri-Camelot"]\n\n'
                                                     b"1. G4-H3 C14-E16 H17-I18 *\n"), TWO,
     ("g.pgn game 1", "tri-camelot game, but the match plays camelot")),
    ("empty name", lambda tmp: "", TWO, ("--openings", "empty: give a FILE, or none")),
]


@pytest.mark.parametrize(("make", "base", "needles"), [c[1:] for c in OPENINGS],
                         ids=[c[0] for c in OPENINGS])
def test_bad_openings_file(tmp_path: Path, make: Callable[[Path], str], base: list[str],
                           needles: tuple[str, ...]) -> None:
    path = make(tmp_path)
    for spelling in (["--openings", path], ["-openings", f"file={path}"]):
        assert_error(canter("match", *base, *spelling), USAGE, *needles)


ENGINE_FIELDS = [
    ("cmd=canter option.Three Seat Search", "--engine", "option.Three Seat Search",
     "has no '=VALUE'"),
    ("cmd=canter option.Hash", "--engine", "'option.Hash' has no '=VALUE'"),
    ("cmd=canter Hash=16", "--engine", "unknown field 'Hash=16'", "option.NAME=VALUE"),
    ("cmd=canter Name=a", "--engine", "unknown field 'Name=a'", "lower-case"),
    ("cmd=canter conf=canter", "--engine", "'conf=canter'", "cutechess-cli field"),
    ("cmd=canter name=", "--engine", "name= needs a value"),
    ("cmd=canter tc=", "--engine", "tc= needs a value"),
    ("cmd=canter =16", "--engine", "'=16' has no key"),
    ("cmd=canter option.=16", "--engine", "names no option"),
    # the game and its rules are the arbiter's: an engine told others would be forfeited
    ("cmd=canter option.UCI_Variant=tri-camelot", "--engine", "set by the arbiter",
     "--variant"),
    ("cmd=canter option.Rule Quiet Limit=4", "--engine", "option.Rule Quiet Limit",
     "may not be given other rules"),
    ("cmd=canter proto=xboard", "--engine", "uci dialect only"),
    ("cmd=canter 'name=a", "--engine", "No closing quotation"),
    # a lone field with a quote in it is echoed as given, not escaped
    ("cmd='canter", "--engine", "engine \"cmd='canter\": cmd=\"'canter\": No closing"),
    ("name=alone", "--engine", "no command (cmd=...)"),
    ("cmd=canter depth=0", "--engine", "depth must be at least 1"),
    ("cmd=canter nodes=many", "--engine", "nodes='many'"),
    ("cmd=canter st=-1", "--engine", "st must be a number of seconds above 0"),
    ("cmd=canter st=nan", "--engine", "st must be a number of seconds above 0"),
    ("cmd=canter st=inf", "--engine", "st must be a number of seconds above 0"),
    ("cmd=canter timemargin=nan", "--engine", "timemargin must be a number of milliseconds"),
    ("cmd=canter timemargin=-5", "--engine", "timemargin must be a number of milliseconds"),
    ("cmd=canter tc=40/", "--engine", "time control '40/'"),
    ("cmd=canter timemargin=soon", "--engine", "timemargin='soon': timemargin must be a "
                                               "number of milliseconds, such as 50"),
    ("cmd=canter st=abc", "--engine", "st='abc': st must be a number of seconds, such as 0.5"),
    ("cmd=canter name=a name=b", "--engine", "name= given twice"),
    ("", "--engine", "empty engine"),
]


@pytest.mark.parametrize(("field", "needles"), [(c[0], c[1:]) for c in ENGINE_FIELDS],
                         ids=[c[0] or "empty" for c in ENGINE_FIELDS])
def test_unreadable_engine_fields(field: str, needles: tuple[str, ...]) -> None:
    assert_error(canter("match", "--engine", field, "--engine", E, "--depth", "1"),
                 USAGE, *needles)


EACH = [
    (["--each", "Hash=16"], ("--each", "unknown field 'Hash=16'")),
    (["--each", "option.Three Seat"], ("--each", "'option.Three Seat' has no '=VALUE'")),
    (["--each", "depth=0"], ("--each", "depth must be at least 1")),
    (["--each", "depth=x"], ("--each 'depth=x'", "depth must be a whole number")),
    (["--each", "tc=soon"], ("time control 'soon'",)),
    (["--each", ""], ("--each", "empty --each")),
    (["-each"], ("--each needs key=value fields",)),
    (["--each", "name=x name=y"], ("--each", "name= given twice")),
    (["--each", "option.Rule Quiet Limit=4"], ("--each", "may not be given other rules")),
]


@pytest.mark.parametrize(("args", "needles"), EACH, ids=[" ".join(c[0]) for c in EACH])
def test_bad_each(args: list[str], needles: tuple[str, ...]) -> None:
    assert_error(canter("match", *TWO, *args), USAGE, *needles)


def test_each_without_a_command_for_an_engine() -> None:
    assert_error(canter("match", "--engine", "name=a", "--engine", "name=b", "--each",
                        "depth=1"), USAGE, "engine 'name=a'", "no command")


CUTECHESS = [
    ("match", ["-maxmoves", "100"], ("-maxmoves", "--maxplies")),
    ("match", ["-noswap"], ("-noswap", "every seat arrangement")),
    ("match", ["-tb", "/syzygy"], ("-tb", "tablebases")),
    ("match", ["-debug"], ("-debug", "--log FILE")),
    ("match", ["-frobnicate"], ("no such option: -frobnicate",)),
    # an option of the other command: named, with the command that takes it
    ("match", ["-tournament", "gauntlet"],
     ("-tournament (--format) is an option of 'canter tournament', not of 'canter match'",)),
    ("match", ["-seeds", "2"], ("-seeds is an option of 'canter tournament'",)),
    ("tournament", ["-sprt", "elo0=0", "elo1=5"],
     ("-sprt is an option of 'canter match', not of 'canter tournament'",)),
    ("tournament", ["--sprt", "elo0=0 elo1=5"], ("--sprt is an option of 'canter match'",)),
    ("match", ["-pgnout", "g.pgn", "min"], ("-pgnout 'min' is not supported",)),
    ("match", ["-pgnout", "g.pgn", "fi"], ("-pgnout 'fi' is not supported",)),
    ("match", ["-pgnout"], ("-pgnout needs a FILE",)),
    ("match", ["-openings", "file=o.txt", "format=epd", "plies=8"], ("'plies=8'",)),
    ("match", ["-openings", "order=random"], ("-openings needs file=FILE",)),
    ("match", ["-repeat", "4"], ("-repeat 4 is not supported",)),
    ("match", ["-rounds", "10", "-repeat"], ("-repeat with -rounds", "-games 2")),
    ("match", ["-games", "ten"], ("-games 'ten'", "whole number")),
    ("match", ["-rounds", "0"], ("-rounds '0'", "whole number")),
    ("match", ["-games", "2", "--games", "4"], ("--games and cutechess-cli's -games/-rounds",)),
    ("match", ["-rounds", "2", "--rounds", "4"], ("--rounds and cutechess-cli's",)),
    ("match", ["-concurrency", "0"], ("--concurrency",)),
    ("match", ["-variant", "chess"], ("--variant", "'chess'")),
    ("match", ["-draw", "movecount=4"], ("--draw", "give movecount= and score=")),
    ("match", ["-resign", "moves=4", "score=600"], ("--resign", "'moves=4'")),
    ("match", ["-sprt", "elo0=0", "elo1=5", "model=normalized"], ("--sprt", "'model=normalized'")),
    ("tournament", ["-tournament", "knockout"], ("--format", "'knockout'")),
]


@pytest.mark.parametrize(("command", "args", "needles"), CUTECHESS,
                         ids=[f"{c[0]} {' '.join(c[1])}" for c in CUTECHESS])
def test_cutechess_spellings_canter_cannot_honour(command: str, args: list[str],
                                                  needles: tuple[str, ...]) -> None:
    base = TWO if command == "match" else THREE
    assert_error(canter(command, *base, *args), USAGE, *needles)


def test_an_engine_command_split_over_words() -> None:
    # cutechess-cli's form: each word is a field, so a command with options must be quoted
    proc = canter("match", "-engine", "cmd=python", "-m", "canter", "-engine", E,
                  "-depth", "1")
    assert_error(proc, USAGE, "no such option: -m", "cmd=python -m canter", "arg=-m")


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_rounds_and_games_that_disagree(command: str) -> None:
    base = TWO if command == "match" else THREE
    assert_error(canter(command, *base, "--rounds", "3", "--games", "5"), USAGE,
                 "--games 5 and --rounds 3 disagree", "6 games")
    tri = ["--variant", "tri-camelot", *THREE] + (["--engine", E] if command != "match" else [])
    assert_error(canter(command, *tri, "--rounds", "2", "--games", "4"), USAGE,
                 "2 rounds of 3 games", "6 games")
    assert_error(canter(command, *tri, "--all-orders", "--rounds", "2", "--games", "6"),
                 USAGE, "2 rounds of 6 games", "12 games")


@pytest.mark.parametrize(("option", "value"), [
    ("--st", "nan"), ("--st", "inf"), ("--st", "0"), ("--st", "-1"),
    ("--search-timeout", "nan"), ("--search-timeout", "0"),
    ("--ready-timeout", "-5"), ("--ready-timeout", "inf"),
])
def test_times_that_are_no_number_of_seconds(option: str, value: str) -> None:
    assert_error(canter("match", "--engine", E, "--engine", E, "--games", "1", option, value),
                 USAGE, option)


def test_sprt_refuses_team_games_of_four_engines() -> None:
    # Four engines in two teams: a team's result is not one engine's. (Two engines playing
    # a team each, --teams, are tested like two seats: tests/test_match_teams.py.)
    four = ["--variant", "grand-cam", *THREE, "--engine", E]
    assert_error(canter("match", *four, "--sprt", "elo0=0 elo1=5"), USAGE,
                 "--sprt", "SPRT in a team game needs --teams and two engines")


HUGE_NUMBER = "9" * 5000  # more digits than Python's int() reads by default

ADJUDICATION_AND_LIMITS = [
    (["--sprt", "elo0=-1e300 elo1=1e300"], ("--sprt", "from -1000 to 1000")),
    (["--sprt", "elo0=-inf elo1=inf"], ("--sprt", "from -1000 to 1000")),
    (["--sprt", "elo0=0 elo1=5 alpha=0.99 beta=0.99"], ("--sprt", "alpha + beta < 1")),
    (["--sprt", ""], ("--sprt", "empty: give key=value fields")),
    (["--resign", "movecount=1 score=-1000"], ("--resign", "'score=-1000'", "at least 1")),
    (["--resign", "movecount=3 movecount=4 score=5"], ("--resign", "movecount given twice")),
    (["--resign", ""], ("--resign", "empty")),
    (["--resign", f"movecount={HUGE_NUMBER} score=5"], ("--resign", "at most 9 digits")),
    (["--draw", "movecount=3 score=-5"], ("--draw", "'score=-5'", "at least 0")),
    (["--tc", f"{HUGE_NUMBER}/60"], ("--tc", "too long: at most 40 characters")),
    (["--tc", ""], ("--tc", "empty: give a clock")),
    (["--games", "1000000000000"], ("1,000,000,000,000 games", "at most 1,000,000")),
    (["--rounds", "1000000000"], ("2,000,000,000 games", "at most 1,000,000")),
]


@pytest.mark.parametrize(("args", "needles"), ADJUDICATION_AND_LIMITS,
                         ids=[" ".join(c[0])[:50] for c in ADJUDICATION_AND_LIMITS])
def test_adjudication_sprt_and_limits_out_of_reason(args: list[str],
                                                   needles: tuple[str, ...]) -> None:
    line = assert_error(canter("match", *TWO, "--openings", "none", *args), USAGE, *needles)
    assert len(line) < 300  # a value of thousands of digits is not echoed whole


@pytest.mark.parametrize("field, needles", [
    (f"depth={HUGE_NUMBER}", ("depth must be a whole number of at most 12 digits",)),
    ("depth=1e300", ("depth must be a whole number of at most 12 digits",)),
    (f"tc={HUGE_NUMBER}", ("too long",)),
])
def test_engine_fields_of_thousands_of_digits(field: str, needles: tuple[str, ...]) -> None:
    line = assert_error(canter("match", "--engine", f"{E} {field}", "--engine", E,
                               "--depth", "1"), USAGE, *needles)
    assert len(line) < 400


def test_openings_that_never_end_are_read_only_so_far() -> None:
    assert_error(canter("match", *TWO, "--openings", "/dev/zero"), USAGE,
                 "/dev/zero: more than 64 MB: not an openings file")


def test_a_folder_as_an_engine_command_is_said_to_be_one(tmp_path: Path) -> None:
    proc = canter("match", "--engine", f"cmd={tmp_path}", "--engine", E, "--depth", "1",
                  "--openings", "none")
    assert proc.returncode == 1 and f"{tmp_path} is a folder, not a program" in proc.stderr


def test_a_log_that_cannot_be_written_stops_itself_not_the_run(tmp_path: Path) -> None:
    summary = tmp_path / "s.json"
    proc = canter("match", *TWO, "--openings", "none", "--games", "2", "--log", "/dev/full",
                  "--json", str(summary))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "Warning: --log /dev/full: writing stopped (No space left on device); the games " \
        "and results are kept" in proc.stdout + proc.stderr
    assert json.loads(summary.read_text())["games_played"] == 2


@pytest.mark.parametrize(("args", "needles"), [
    (["--st", "0.0004"], ("--st", "0.0004 seconds: must be at least 0.001")),
    (["--tc", "0.0004"], ("--tc", "'0.0004': the time must be at least 0.001 s")),
    (["--tc", "1+0.00001"], ("--tc", "the increment must be 0 or at least 0.001 s")),
    (["--engine", f"{E} st=0.0009", "--engine", E], ("--engine", "st must be at least 0.001 s")),
    (["--engine", f"{E} tc=0.0001", "--engine", E], ("--engine", "the time must be at least")),
], ids=["--st", "--tc time", "--tc increment", "st=", "tc="])
def test_times_under_a_millisecond_are_refused_before_any_engine_starts(
        args: list[str], needles: tuple[str, ...]) -> None:
    # Sent in whole milliseconds they would be 0: `--st 0.0004` stopped the run at the first
    # move with a ValueError; a clock of 0.0004 s lost every game on time.
    engines = [] if "--engine" in args else ["--engine", E, "--engine", E]
    assert_error(canter("match", *engines, *args, "--games", "1", "--maxplies", "2",
                        "--openings", "none"), USAGE, *needles)
