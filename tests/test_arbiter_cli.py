"""The arbiter's command line (docs/arbiter.md): engine fields parsed like cutechess-cli's
(option names with spaces, one field per word), `--each`, the cutechess-cli/fastchess
spellings, `--rounds` against `--games`, the built-in opening books and the warning about
repeated games, and `-h` on every command."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from canter.adapters.arbiter.cli import _repeated_games, match, tournament
from canter.adapters.arbiter.cutechess import cutechess_args
from canter.adapters.arbiter.engines import parse_engine_spec, parse_fields
from canter.adapters.arbiter.game import Player
from canter.adapters.arbiter.openings import Opening, load_book, load_openings
from canter.adapters.arbiter.tc import TimeControl
from canter.cli import SUBCOMMANDS, main
from canter.engine import Position, get_variant, parse_move

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable


# --- engine fields ---------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "cmd=canter option.Three Seat Search=brs",
    "cmd=canter 'option.Three Seat Search=brs'",
    'cmd=canter "option.Three Seat Search=brs"',
    r"cmd=canter option.Three\ Seat\ Search=brs",
    "cmd=canter option.Three  Seat Search=brs",          # runs of spaces in a name are one
    "option.Three Seat Search=brs cmd=canter",
    "canter option.Three Seat Search=brs",              # a bare first word is the command
])
def test_an_option_name_with_spaces_runs_to_its_equals_sign(text: str) -> None:
    spec = parse_engine_spec(text)
    assert spec.command == ["canter"]
    assert spec.options == {"Three Seat Search": "brs"}
    assert spec.name == ""


def test_fields_around_an_option_with_spaces_keep_their_values() -> None:
    spec = parse_engine_spec("cmd=python -m canter name=my engine option.Move Overhead=50 "
                             "option.Hash=16 depth=3 arg=--fast")
    assert spec.command == ["python", "-m", "canter", "--fast"]
    assert spec.name == "my engine"
    assert spec.options == {"Move Overhead": "50", "Hash": "16"}
    assert spec.depth == 3
    # a name that holds a word spelled like a key still runs to its `=`
    assert parse_engine_spec("cmd=x option.Max nodes=5").options == {"Max nodes": "5"}
    # an option's value may be empty (a UCI string option); `=` inside a value is kept
    assert parse_engine_spec("cmd=x option.Book File=").options == {"Book File": ""}
    assert parse_engine_spec("cmd=x option.Args=a=b").options == {"Args": "a=b"}
    # cutechess-cli's proto=uci is what the arbiter speaks anyway
    assert parse_engine_spec("cmd=x proto=uci").command == ["x"]
    # words that are not fields belong to the command
    assert parse_engine_spec("./engine --threads=2 /tmp/a=b").command == [
        "./engine", "--threads=2", "/tmp/a=b"]


@pytest.mark.parametrize(("text", "needle"), [
    ("cmd=canter option.Three Seat Search", "'option.Three Seat Search' has no '=VALUE'"),
    ("cmd=canter option.Hash", "'option.Hash' has no '=VALUE'"),
    ("cmd=canter Hash=16", "unknown field 'Hash=16'"),
    ("cmd=canter Name=a", "keys are lower-case: name="),
    ("cmd=canter restart=on", "cutechess-cli field canter does not support"),
    ("cmd=canter name=", "name= needs a value"),
    ("cmd= name=a", "cmd= needs a value"),
    ("cmd=canter depth=", "depth= needs a value"),
    ("cmd=canter =16", "'=16' has no key"),
    ("cmd=canter option.=16", "names no option"),
    ("cmd=canter proto=xboard", "uci dialect only"),
    ("cmd=canter name=a name=b", "name= given twice"),
    ("cmd='canter", "No closing quotation"),
    ("name=a", "no command"),
    ("cmd=x depth=0", "depth must be at least 1"),
    ("cmd=x timemargin=-5", "timemargin must be a number of milliseconds, at least 0"),
    ("", "empty engine"),
])
def test_unreadable_fields_are_named(text: str, needle: str) -> None:
    with pytest.raises(ValueError) as err:
        parse_engine_spec(text)
    assert needle in str(err.value)
    assert "\n" not in str(err.value)


def test_each_fields_yield_to_an_engines_own() -> None:
    each = parse_fields("cmd=canter tc=10+0.1 option.Hash=16 option.Threads=1 arg=--a "
                        "arg=--b", "--each")
    own = parse_engine_spec("name=x option.Hash=64 arg=--c", each)
    assert own.command == ["canter", "--c"]  # the engine's arg= words replace the shared ones
    assert own.options == {"Hash": "64", "Threads": "1"}
    assert (own.name, own.tc) == ("x", "10+0.1")
    plain = parse_engine_spec("name=y", each)
    assert plain.command == ["canter", "--a", "--b"] and plain.options["Hash"] == "16"
    assert parse_engine_spec("cmd=other tc=1+0", each).command == ["other", "--a", "--b"]
    assert parse_engine_spec("cmd=other tc=1+0", each).tc == "1+0"
    with pytest.raises(ValueError, match="no command"):
        parse_engine_spec("name=z", parse_fields("tc=1+0", "--each"))


# --- cutechess-cli / fastchess spellings --------------------------------------------------------

def _rewrite(command: click.Command, line: str) -> list[str]:
    # the names `canter` gives its commands (click caches a command's help option)
    ctx = click.Context(command, help_option_names=["-h", "--help"])
    return cutechess_args(shlex.split(line), command, ctx)


def test_cutechess_engine_words_become_one_field_string() -> None:
    args = _rewrite(match, "-engine cmd=canter name=a 'option.Three Seat Search=brs' "
                           "-engine 'cmd=python -m canter' name=b -each tc=40/60+0.5 "
                           "option.Hash=16 -concurrency 2")
    assert args[:2] == ["--engine", "cmd=canter name=a 'option.Three Seat Search=brs'"]
    assert parse_engine_spec(args[1]).options == {"Three Seat Search": "brs"}
    assert args[2] == "--engine" and parse_engine_spec(args[3]).command == [
        "python", "-m", "canter"]
    assert args[4:] == ["--each", "tc=40/60+0.5 option.Hash=16", "--concurrency", "2"]
    # canter's one-string form passes unchanged; words after --engine are fields too
    assert _rewrite(match, "--engine 'cmd=canter name=a'") == ["--engine", "cmd=canter name=a"]
    assert _rewrite(match, "--engine cmd=canter name=a") == ["--engine", "cmd=canter name=a"]
    # without unrolled words, option.X with spaces still reads back through shlex
    args = _rewrite(match, "-engine cmd=canter option.Three Seat Search=brs")
    assert parse_engine_spec(args[1]).options == {"Three Seat Search": "brs"}
    # one field alone with a quote in its value: the quote is text, as with several
    args = _rewrite(match, "-engine cmd=canter name=a -each \"option.BookFile=it's.bin\"")
    from canter.adapters.arbiter.engines import parse_fields

    assert parse_engine_spec(args[1], parse_fields(args[3], "--each")).options == {
        "BookFile": "it's.bin"}


def test_cutechess_option_names_map_to_canters() -> None:
    line = ("-variant tri-camelot -tc 40/60 -st 0.5 -depth 3 -nodes 100 -pgnout g.pgn "
            "-srand 7 -event Test -draw movenumber=40 movecount=8 score=10 "
            "-resign movecount=3 score=900 twosided=true -recover -maxplies 200")
    assert _rewrite(match, line) == [
        "--variant", "tri-camelot", "--tc", "40/60", "--st", "0.5", "--depth", "3",
        "--nodes", "100", "--pgn", "g.pgn", "--seed", "7", "--event", "Test",
        "--draw", "movenumber=40 movecount=8 score=10",
        "--resign", "movecount=3 score=900 twosided=true", "--maxplies", "200"]
    assert _rewrite(match, "-sprt elo0=0 elo1=5 alpha=0.05 beta=0.05") == [
        "--sprt", "elo0=0 elo1=5 alpha=0.05 beta=0.05"]
    assert _rewrite(match, "-pgnout file=g.pgn") == ["--pgn", "g.pgn"]
    assert _rewrite(match, "-openings file=b.txt order=random format=epd") == [
        "--openings", "b.txt", "--opening-order", "random"]
    assert _rewrite(match, "-openings b.txt") == ["--openings", "b.txt"]
    assert _rewrite(tournament, "-tournament gauntlet -seeds 2") == [
        "--format", "gauntlet", "--seeds", "2"]
    # values are never taken for options, even when they start with a dash
    assert _rewrite(match, "--event -games -seed -3") == ["--event", "-games", "--seed", "-3"]
    assert _rewrite(match, "-h") == ["-h"]


def test_cutechess_games_and_rounds_multiply() -> None:
    assert _rewrite(match, "-games 2 -rounds 50 -repeat") == ["--games", "100"]
    assert _rewrite(match, "-rounds 50") == ["--games", "50"]
    assert _rewrite(tournament, "-games 7") == ["--games", "7"]
    assert _rewrite(match, "-repeat 2 -games 2 -rounds 3") == ["--games", "6"]
    # canter's own spellings are left to canter's meaning
    assert _rewrite(match, "--rounds 5 --games 10") == ["--rounds", "5", "--games", "10"]


@pytest.mark.parametrize(("line", "needle"), [
    ("-maxmoves 100", "--maxplies"),
    ("-noswap", "every seat arrangement"),
    ("-debug", "--log FILE"),
    ("-frobnicate 3", "no such option: -frobnicate"),
    ("-tournament gauntlet",
     "-tournament (--format) is an option of 'canter tournament', not of 'canter match'"),
    ("-games 2 --games 4", "count games differently"),
    ("-rounds 5 -repeat", "-games 2"),
    ("-repeat 3", "-repeat 3"),
    ("-games two", "not a whole number"),
    ("-rounds 0", "not a whole number"),
    ("-pgnout g.pgn min", "'min' is not supported"),
    ("-pgnout", "needs a FILE"),
    ("-openings file=b.txt plies=4", "'plies=4' is not supported"),
    ("-openings order=random", "needs file=FILE"),
    ("-engine cmd=python -m canter", "no such option: -m (an engine's command"),
    ("-engine", "--engine needs key=value fields"),
])
def test_cutechess_spellings_canter_cannot_honour_are_refused(line: str, needle: str) -> None:
    with pytest.raises(click.UsageError) as err:
        _rewrite(match, line)
    assert needle in err.value.message


def test_sprt_is_no_tournament_option() -> None:
    with pytest.raises(click.UsageError, match="-sprt is an option of 'canter match', not of "
                                               "'canter tournament'"):
        _rewrite(tournament, "-sprt elo0=0 elo1=5")


# --- help ------------------------------------------------------------------------------------

@pytest.mark.parametrize("words", [[], *[[name] for name in SUBCOMMANDS],
                                   ["transcript", "run"], ["transcript", "record"]])
def test_every_command_takes_dash_h(words: list[str]) -> None:
    short = CliRunner().invoke(main, [*words, "-h"])
    long = CliRunner().invoke(main, [*words, "--help"])
    assert short.exit_code == 0, short.output
    assert short.output == long.output
    assert short.output.startswith("Usage: ") and "-h, --help" in short.output


def test_match_help_names_the_cutechess_spellings_and_books() -> None:
    out = CliRunner().invoke(main, ["match", "-h"]).output
    for text in ("-engine cmd=canter", "-each", "-pgnout", "-games G -rounds R", "--rounds",
                 "built-in book", "'none'"):
        assert text in out, text


# --- openings and schedules ---------------------------------------------------------------------

@pytest.mark.parametrize(("variant", "count", "plies"), [("camelot", 50, 2),
                                                        ("tri-camelot", 100, 3)])
def test_built_in_books_are_distinct_legal_starts(variant: str, count: int, plies: int) -> None:
    book = load_book(variant)
    assert len(book) == count
    ends = set()
    for opening in book:
        assert opening.position is None and len(opening.moves) == plies
        pos = Position.start(get_variant(variant))
        for text in opening.moves:
            pos.push(parse_move(pos, text))
        assert pos.outcome() is None
        ends.add(pos.to_string())
    assert len(ends) == count  # distinct positions, not only distinct move lists


def test_an_openings_file_of_the_other_game_is_named(tmp_path: Path) -> None:
    tri = tmp_path / "tri.txt"
    tri.write_text("G4-H3 C14-E16 H17-I18\n")
    with pytest.raises(ValueError, match="is a tri-camelot opening, but the match plays camelot"):
        load_openings(str(tri), "camelot")
    cam = tmp_path / "cam.txt"
    cam.write_text("# two-seat starts\nE6-D5 I10-J10\n")
    with pytest.raises(ValueError, match="line 2: E6-D5 I10-J10 is a camelot opening"):
        load_openings(str(cam), "tri-camelot")


def _player(control: TimeControl) -> Player:
    return Player(parse_engine_spec("cmd=x"), control, 0.0)


def test_repeated_games_warning() -> None:
    depth, clock = TimeControl(depth=2), TimeControl.parse("10+0.1")
    start, two = [Opening(None)], [Opening(None, ("C6-B5",)), Opening(None, ("C6-C7",))]
    assert _repeated_games([_player(depth)] * 2, start, 1) is None
    assert "2 games per encounter" in _repeated_games([_player(depth)] * 2, start, 2)
    assert _repeated_games([_player(depth)] * 2, two, 2) is None
    assert "3 games" in _repeated_games([_player(TimeControl(nodes=50))] * 2, two, 3)
    # a duplicate line in a book is not a second opening
    assert "1 distinct opening," in _repeated_games([_player(depth)] * 2, [two[0]] * 4, 2)
    # one engine on a clock (or fixed time) makes the games differ
    assert _repeated_games([_player(depth), _player(clock)], start, 5) is None
    st = TimeControl(movetime=0.1, depth=3)
    assert _repeated_games([_player(st)] * 2, start, 5) is None


def _canter(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", "canter", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def test_rounds_and_games_relate_or_are_refused() -> None:
    for cmd, engines in (("match", 2), ("tournament", 3)):
        proc = _canter(cmd, *["--engine", "cmd=canter"] * engines, "--depth", "1",
                       "--rounds", "3", "--games", "5")
        assert proc.returncode == 2
        assert "--games 5 and --rounds 3 disagree: 3 rounds of 2 games" in proc.stderr


def test_a_cutechess_command_line_plays_the_built_in_book(tmp_path: Path) -> None:
    """Separate-word engine fields, -each, -games x -rounds, -pgnout, an option whose name
    has spaces: the engines get it, the games start from the book."""
    from canter.adapters.records.format import read_games_file

    pgn, log = tmp_path / "g.pgn", tmp_path / "io.log"
    proc = _canter("match", "-engine", f"cmd={PY} -m canter", "name=a",
                   "option.Three Seat Search=brs", "-engine", "name=b",
                   "-each", f"cmd={PY} -m canter", "depth=1", "-games", "2", "-rounds", "2",
                   "-repeat", "-maxplies", "4", "-pgnout", str(pgn), "-concurrency", "2",
                   "--log", str(log), "--progress", "lines")
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.splitlines()[0]
    assert first.startswith("canter match: camelot, 2 engines (a, b), 4 games")
    assert first.endswith("openings: built-in camelot book (50 openings)")
    assert "Warning" not in proc.stderr
    games = read_games_file(str(pgn))
    book = load_book("camelot")
    by_round = {int(g.tags["Round"]): g for g in games}
    assert sorted(by_round) == [1, 2, 3, 4]
    for number, game in by_round.items():
        opening = book[(number - 1) // 2]  # each opening with both colours, in file order
        assert tuple(game.moves[:2]) == opening.moves
    sent = log.read_text()
    assert "a > setoption name Three Seat Search value brs" in sent
    assert "b > setoption name Three Seat Search" not in sent


def test_no_openings_plays_from_the_start_and_warns_of_repeats(tmp_path: Path) -> None:
    from canter.adapters.records.format import read_games_file

    pgn = tmp_path / "g.pgn"
    proc = _canter("match", "--engine", "name=a", "--engine", "name=b", "--depth", "1",
                   "--rounds", "2", "--maxplies", "4", "--openings", "none", "--pgn", str(pgn),
                   "--progress", "lines", "--each", f"cmd={PY} -m canter")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0].endswith("openings: start position only")
    warnings = [ln for ln in proc.stderr.splitlines() if ln.startswith("Warning:")]
    assert len(warnings) == 1 and "deterministic engines will repeat games" in warnings[0]
    games = {int(g.tags["Round"]): g for g in read_games_file(str(pgn))}
    assert sorted(games) == [1, 2, 3, 4]
    # what the warning foretold: the second round repeats the first, move for move
    assert games[1].players == games[3].players and games[1].moves == games[3].moves
    assert games[2].players == games[4].players and games[2].moves == games[4].moves
    assert games[1].moves[:2] != games[2].moves[:2] or games[1].players != games[2].players


def _documented(line_start: str) -> list[list[str]]:
    """The command lines of README.md and docs/arbiter.md that start with `line_start`,
    backslash continuations joined."""
    found = []
    for doc in (ROOT / "README.md", ROOT / "docs" / "arbiter.md"):
        text = doc.read_text().replace("\\\n", " ")
        found += [shlex.split(ln.split("#")[0])[2:] for ln in text.splitlines()
                  if ln.startswith(line_start)]
    return found


def test_the_documented_cutechess_command_lines_read() -> None:
    lines = _documented("canter match -engine")
    assert len(lines) >= 2
    for words in lines:
        args = _rewrite(match, " ".join(shlex.quote(w) for w in words))
        each = [f for i, a in enumerate(args) if a == "--each"
                for f in parse_fields(args[i + 1], "--each")]
        specs = [parse_engine_spec(args[i + 1], each) for i, a in enumerate(args)
                 if a == "--engine"]
        assert len(specs) == 2 and all(s.tc == "40/60+0.5" for s in specs)
        assert args[args.index("--games") + 1] == "100"


BAD = ROOT / "tests" / "bad_engines" / "bad_engine.py"


def test_a_full_disk_on_standard_output_silences_the_run_not_stops_it(tmp_path: Path) -> None:
    # `> /dev/full`: every write to standard output fails with ENOSPC (a terminal that hung
    # up fails with EIO alike). The games are played, --pgn and --json written, exit 0.
    pgn, js = tmp_path / "g.pgn", tmp_path / "s.json"
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [PY, "-m", "canter", "match", "--engine", f"cmd={PY} {BAD} name=a",
             "--engine", f"cmd={PY} {BAD} name=b", "--games", "2", "--depth", "1",
             "--openings", "none", "--pgn", str(pgn), "--json", str(js)],
            stdout=full, stderr=subprocess.PIPE, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr
    notes = [ln for ln in proc.stderr.splitlines() if "standard output" in ln]
    assert notes == ["canter match: standard output failed (No space left on device); the run "
                     "goes on without progress lines (--pgn and --json keep the results)"]
    assert json.loads(js.read_text())["games_played"] == 2
    assert pgn.read_text().count("[Round ") == 2


def test_an_engine_that_refuses_its_option_on_a_restart_forfeits_that_game(
        tmp_path: Path) -> None:
    # It declares Hash on its first start (the preflight takes option.Hash=16), crashes at
    # its second go, and declares no Hash once started again: its games are forfeits, the
    # run plays on to the end.
    flaky = tmp_path / "flaky.py"
    flaky.write_text(f"""
import os, subprocess, sys, threading
marker = {str(tmp_path / "started")!r}
first = not os.path.exists(marker)
open(marker, "a").close()
p = subprocess.Popen([sys.executable, {str(BAD)!r}, "--crash-at-go", "2"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def pump():
    for line in p.stdout:
        if first or not line.startswith("option name Hash"):
            sys.stdout.write(line)
            sys.stdout.flush()
    os._exit(p.wait())
threading.Thread(target=pump, daemon=True).start()
for line in sys.stdin:
    p.stdin.write(line)
    p.stdin.flush()
""")
    pgn, js = tmp_path / "g.pgn", tmp_path / "s.json"
    proc = _canter("match", "--engine", f"cmd={PY} {BAD} name=a",
                   "--engine", f"cmd={PY} {flaky} option.Hash=16 name=b", "--games", "3",
                   "--depth", "1", "--openings", "none", "--pgn", str(pgn), "--json", str(js))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(js.read_text())
    assert data["games_played"] == 3 and data["error"] is None
    assert data["terminations"] == {"crash": 3}
    assert "black crashed while searching (exit code 7)" in proc.stdout
    assert "white could not be started again: engine 'b' has no option 'Hash' (it has: " \
           "UCI_Variant)" in proc.stdout
