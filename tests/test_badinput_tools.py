"""The bad-input sweep of the tools: `replay`, `transcript run|record`, `play`, `show`,
`perft`, `bench` and `compliance`, given what users get wrong (missing, empty, a folder,
not UTF-8, a file of another kind, cut off, the wrong variant, out of range, an output
path that cannot be written, an engine that is missing, exits at once or never answers).
Each fails with one line naming the problem and status 2 (usage) or 1 (failure), never a
traceback; output paths are checked before any work. docs: CONTRIBUTING.md, "Standards".

Engines that never answer get short timeouts; nothing here searches deeper than depth 1.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from badinput import FAILURE, USAGE, assert_error, canter, no_traceback

ROOT = Path(__file__).resolve().parent.parent
# A transcript an earlier recording wrote: the recorder's to replace, and kept when a
# recording fails.
OLD_TRANSCRIPT = "# recorded with: canter transcript record --engine x\n> uci\n< uciok\n"
SCRIPTED = f"{shlex.quote(sys.executable)} {ROOT / 'tests' / 'fake_engines' / 'scripted.py'}"
HANDSHAKE = str(ROOT / "tests" / "scripted_engines" / "pass" / "handshake.txt")
EXITS_AT_ONCE = f"{shlex.quote(sys.executable)} -c pass"
NEVER_ANSWERS = f"{SCRIPTED} --hang-at uci"

TAGS = '[Event "x"]\n[Variant "Camelot"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n\n'
GAME = TAGS + "1. C6-E8 C11-E9 2. D6-D8 E9xC7 *\n"
# E16 and F17 are Tri-Camelot cells, not Camelot ones
TRI_CELLS_GAME = TAGS + "1. C6-E8 C11-E9 2. E16-F17 *\n"
TRI_START = ("tri-camelot 4/1r1g1/1R2G1/1r1g1/1R2G1/Rr1gG/1r2g1/r3g/4/5/4/1b1/1bb1/bBb/BB/3/2/1"
             " b 0,0,0 - - 0 0")
CAMELOT_WITH_TRI_PLACEMENT = "camelot" + TRI_START[len("tri-camelot"):]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, str]:
    """Inputs of every kind, by name."""
    folder = tmp_path_factory.mktemp("inputs")
    contents: dict[str, bytes] = {
        "game": GAME.encode(),
        "latin1": (TAGS.replace('"a"', '"Jos\u00e9"') + "1. C6-E8 *\n").encode("latin-1"),
        "random": bytes(range(256)) * 3,
        "empty": b"",
        "json": b'{"variant": "camelot", "moves": ["C6-E8"]}\n',
        "transcript": b"> uci\n<* id name *\n< uciok\n",
        "cut_tag": GAME[:30].encode(),             # stops inside [Variant "Cam
        "cut_move": (TAGS + "1. C6-E8 C11-E").encode(),
        "cut_comment": (TAGS + "1. C6-E8 {+0.1/3 ").encode(),
        "tri_cells": TRI_CELLS_GAME.encode(),
        "bad_variant": GAME.replace("Camelot", "Hexchess").encode(),
    }
    paths = {}
    for name, data in contents.items():
        path = folder / f"{name}.cgr"
        path.write_bytes(data)
        paths[name] = str(path)
    (folder / "folder").mkdir()
    paths["folder"] = str(folder / "folder")
    paths["missing"] = str(folder / "missing.cgr")
    paths["nowhere"] = str(folder / "no-such-folder" / "out.txt")
    paths["under_file"] = str(folder / "game.cgr" / "out.txt")
    return paths


# ---------------------------------------------------------------- canter replay

@pytest.mark.parametrize("name, needles", [
    ("latin1", ["latin1.cgr", "not UTF-8"]),
    ("random", ["random.cgr", "not UTF-8"]),
    ("empty", ["empty.cgr", "no game"]),
    ("json", ["json.cgr", "cannot read"]),
    ("transcript", ["transcript.cgr", "cannot read"]),
    ("cut_tag", ["cut_tag.cgr", "line 2"]),
    ("cut_move", ["cut_move.cgr", "line 7", "C11-E"]),
    ("cut_comment", ["cut_comment.cgr", "never closed"]),
    ("bad_variant", ["bad_variant.cgr", "Hexchess"]),
    ("folder", ["folder", "directory"]),
    ("missing", ["missing.cgr"]),
])
def test_replay_refuses_what_is_not_a_game_record(files, name, needles) -> None:
    assert_error(canter("replay", files[name]), USAGE, *needles)


@pytest.mark.parametrize("rules, needle", [
    ("quiet_limit=abc", "quiet_limit must be a whole number"),
    ("quiet_limit=-5", "quiet_limit must not be negative"),
    ("repetition=sometimes", "repetition must be one of"),
    ("no_such_rule=1", "unknown rules option"),
    ("quiet_limit=" + "9" * 5000, "is too large"),  # (int() refuses 4,300 digits)
    # digits of other scripts are no number here, though int() reads them
    ("quiet_limit=\u0663", "quiet_limit must be a whole number"),
    ("quiet_limit=\uff13", "quiet_limit must be a whole number"),
    ("quiet_limit=5 quiet_limit=6", "'quiet_limit' is given twice"),
])
def test_replay_checks_the_rules_tag_like_the_rules_options(rules, needle) -> None:
    done = canter("replay", "-", stdin=GAME.replace("[Event", f'[Rules "{rules}"]\n[Event', 1))
    no_traceback(done)
    assert done.returncode == FAILURE and "bad Rules tag" in done.stderr and needle in done.stderr


def test_replay_takes_rules_values_in_any_case() -> None:
    # `False` and `Auto` are the values false and auto, not texts that read as true.
    done = canter("replay", "-", stdin=GAME.replace(
        "[Event", '[Rules "exit_duty_persists=False repetition=Auto"]\n[Event', 1))
    assert done.returncode == 0, done.stderr
    # (The game replays under either value: the values themselves, read as the tag is.)
    from canter.adapters.records.format import game_positions, read_games

    game = next(read_games(GAME.replace(
        "[Event", '[Rules "exit_duty_persists=False repetition=Auto"]\n[Event', 1)))
    rules = game_positions(game)[0].rules
    assert rules.exit_duty_persists is False and rules.repetition == "auto"


def test_replay_reads_a_byte_order_mark_comments_between_games_and_names_the_right_game():
    two = "\ufeff" + GAME + "{a comment after the result}\n\n" + GAME
    done = canter("replay", "-", stdin=two.encode())
    assert done.returncode == 0, done.stderr
    assert "2 games, 0 invalid" in done.stderr
    bad = GAME + '\n[Event "x]\n'  # a malformed tag that starts game 2
    assert_error(canter("replay", "-", stdin=bad), USAGE, "game 2", "malformed tag")


@pytest.mark.parametrize("rules, needle", [
    ("quiet_limit=true", "quiet_limit must be a whole number"),
    ("exit_duty_persists=5", "exit_duty_persists must be true or false"),
])
def test_replay_refuses_a_rules_value_of_the_wrong_kind(rules, needle) -> None:
    done = canter("replay", "-", stdin=GAME.replace("[Event", f'[Rules "{rules}"]\n[Event', 1))
    assert done.returncode == FAILURE and needle in done.stderr


def test_play_saves_over_a_loaded_record_that_starts_with_a_byte_order_mark(tmp_path):
    one = tmp_path / "one.cgr"
    one.write_bytes(b"\xef\xbb\xbf" + GAME.encode())  # as some editors save it
    done = canter("play", "--human", "all", "--load", str(one), "--save", str(one),
                  stdin="quit\n")
    assert done.returncode == 0, done.stderr
    assert "saved 4 moves" in done.stdout


def test_show_takes_its_mark_only_at_the_start_of_a_file(files, tmp_path) -> None:
    # A user's page that has a canter picture pasted into it is the user's page.
    page = tmp_path / "page.html"
    text = "<html><body><p>my page</p>\n<p>more</p>\n<!-- drawn by canter show -->\n<svg/>\n"
    page.write_text(text)
    done = canter("show", files["game"], "--html", str(page))
    assert_error(done, USAGE, "is not a picture or page canter show drew")
    assert page.read_text() == text


@pytest.mark.parametrize("token", ["2/3-1/3", "01-0", "2/4-2/4"])
def test_replay_refuses_a_result_no_game_ends_with(token) -> None:
    done = canter("replay", "-", stdin=TAGS.replace('"*"', f'"{token}"') + f"1. C6-E8 {token}\n")
    assert done.returncode == USAGE and "share one point equally" in done.stderr


def test_replay_refuses_a_team_result_that_splits_partners() -> None:
    # Grand Cam's partners are Red and Blue, Green and Yellow: Red and Green share nothing.
    tags = ('[Event "x"]\n[Variant "Grand Cam"]\n[Red "a"]\n[Green "b"]\n[Blue "c"]\n'
            '[Yellow "d"]\n')
    done = canter("replay", "-", stdin=tags + "\n1/2-1/2-0-0\n")
    assert done.returncode == FAILURE and "one team" in done.stderr, done.stderr
    done = canter("replay", "-", stdin=tags + "\n1/2-0-1/2-0\n")
    assert done.returncode == 0, done.stderr


def test_replay_reads_the_bare_two_cell_spelling() -> None:
    done = canter("replay", "-", stdin=TAGS + "1. d6f8 e11c9 *\n")
    assert done.returncode == 0, done.stderr
    assert "1 game, 0 invalid" in done.stderr


def test_replay_of_a_file_of_comments_only_is_no_game() -> None:
    assert_error(canter("replay", "-", stdin="; only a comment\n% and an escape\n"), USAGE,
                 "no game in the file")


def test_replay_reads_stdin_bytes_that_are_not_text() -> None:
    assert_error(canter("replay", "-", stdin=b"\xff\xfe\x00junk\n"), USAGE, "not UTF-8")


def test_replay_names_a_tri_camelot_cell_in_a_camelot_game(files) -> None:
    done = canter("replay", files["tri_cells"])
    no_traceback(done)
    assert done.returncode == FAILURE
    assert "game 1: INVALID at ply 3" in done.stderr and "E16" in done.stderr


def test_replay_goes_on_after_an_unreadable_file(files) -> None:
    done = canter("replay", files["latin1"], files["game"])
    line = assert_error(done, USAGE, "latin1.cgr")
    assert "game.cgr: game 1:" in done.stdout, line


# ---------------------------------------------------------------- canter show

@pytest.mark.parametrize("name, needles", [
    ("latin1", ["latin1.cgr", "not UTF-8"]),
    ("random", ["random.cgr", "not UTF-8"]),
    ("empty", ["empty.cgr", "no game"]),
    ("json", ["json.cgr", "not a game-record file"]),
    ("transcript", ["transcript.cgr"]),
    ("cut_tag", ["cut_tag.cgr", "tag"]),
    ("tri_cells", ["tri_cells.cgr", "E16"]),
    ("bad_variant", ["Hexchess"]),
    ("folder", ["folder", "not a game-record file"]),
    ("missing", ["missing.cgr", "no such file"]),
])
def test_show_refuses_what_is_not_a_game_record(files, name, needles) -> None:
    assert_error(canter("show", files[name]), USAGE, *needles)


@pytest.mark.parametrize("args, needles", [
    (["--ply", "5"], ["--ply", "4 plies", "-4..4"]),
    (["--ply", "-5"], ["--ply", "-5"]),
    (["--ply", "99999999999999999999999"], ["--ply"]),
    (["--game", "2"], ["--game", "1 game,", "not 2"]),
    (["--game", "0"], ["--game"]),
    (["--game", "99999999999999999999999"], ["--game"]),
    (["--move", "Z99-Z100"], ["--move", "Z99"]),
    (["--move", "E16-F17"], ["--move", "E16"]),
])
def test_show_refuses_numbers_and_moves_out_of_range(files, args, needles) -> None:
    assert_error(canter("show", files["game"], *args), USAGE, *needles)


@pytest.mark.parametrize("args, needles", [
    (["--variant", "hexchess"], ["--variant", "hexchess"]),
    (["--ply", "1"], ["--ply", "0 is the only ply"]),
    ([CAMELOT_WITH_TRI_PLACEMENT], ["position string"]),
    (["camelot", "2/8", "w"], ["position", "8 fields"]),
    ([f"camette 1/1B1/5/5/5/1W1/1 w 0,0 - - 0 {'9' * 5000}"], ["ply", "too large"]),
    ([f"camette 1/1B1/5/{'9' * 5000}/5/1W1/1 w 0,0 - - 0 0"], ["longer than the rank"]),
    (["--game", "3"], ["--game", "a position string or the start has none"]),
])
def test_show_refuses_bad_positions(args, needles) -> None:
    assert_error(canter("show", *args), USAGE, *needles)


@pytest.mark.parametrize("option, target, needles", [
    ("--svg", "nowhere", ["--svg", "does not exist"]),
    ("--svg", "folder", ["--svg", "is a folder"]),
    ("--svg", "under_file", ["--svg", "is a file, not a folder"]),
    ("--html", "nowhere", ["--html", "does not exist"]),
    ("--html", "folder", ["--html", "is a folder"]),
    ("--svg-dir", "game", ["--svg-dir", "is a file, not a folder"]),
    ("--svg-dir", "under_file", ["--svg-dir", "is a file, not a folder"]),
])
def test_show_checks_its_outputs(files, option, target, needles) -> None:
    assert_error(canter("show", files["game"], option, files[target]), USAGE, *needles)


def test_show_checks_every_output_before_writing_any(files, tmp_path) -> None:
    pictures = tmp_path / "pictures"
    done = canter("show", files["game"], "--svg-dir", str(pictures), "--html", "")
    assert_error(done, USAGE, "--html", "empty")
    assert not pictures.exists()
    # a bad source is found before anything is written, too
    done = canter("show", files["latin1"], "--svg-dir", str(pictures / "frames"))
    assert_error(done, USAGE, "not UTF-8")
    assert not pictures.exists()
    # a folder where a frame goes: refused before the first frame is written
    (pictures / "002.svg").mkdir(parents=True)
    done = canter("show", files["game"], "--svg-dir", str(pictures))
    assert_error(done, USAGE, "--svg-dir", "002.svg is a folder")
    assert sorted(p.name for p in pictures.iterdir()) == ["002.svg"]


def test_show_replaces_an_old_picture_whole_and_leaves_no_temporary(files, tmp_path) -> None:
    out = tmp_path / "board.svg"
    done = canter("show", files["game"], "--svg", str(out), "--ply", "0")
    assert done.returncode == 0, done.stderr
    old = out.read_text()
    out.chmod(0o640)
    done = canter("show", files["game"], "--svg", str(out))
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert text.startswith("<!-- drawn by canter show -->\n<svg"), text[:40]
    assert text != old
    assert out.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.svg"]


@pytest.mark.parametrize("option", ["--svg", "--html", "--svg-dir"])
def test_show_never_replaces_a_file_it_did_not_draw(files, tmp_path, option) -> None:
    mine = tmp_path / ("frames" if option == "--svg-dir" else "board.out")
    target = mine / "000.svg" if option == "--svg-dir" else mine
    target.parent.mkdir(exist_ok=True)
    target.write_text("<svg>my own drawing</svg>\n")
    done = canter("show", files["game"], option, str(mine))
    assert_error(done, USAGE, "is not a picture or page canter show drew", "left as it is")
    assert target.read_text() == "<svg>my own drawing</svg>\n"
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]


# ---------------------------------------------------------------- canter play

@pytest.mark.parametrize("name, needles", [
    ("latin1", ["--load", "latin1.cgr", "not UTF-8"]),
    ("random", ["--load", "not UTF-8"]),
    ("empty", ["--load", "no game"]),
    ("json", ["--load", "not a game-record file"]),
    ("transcript", ["--load", "transcript.cgr"]),
    ("cut_tag", ["--load", "tag"]),
    ("tri_cells", ["--load", "E16"]),
    ("folder", ["--load", "folder"]),
    ("missing", ["--load", "No such file"]),
])
def test_play_refuses_a_bad_record_to_load(files, name, needles) -> None:
    assert_error(canter("play", "--load", files[name], stdin=""), USAGE, *needles)


@pytest.mark.parametrize("args, needles", [
    (["--position", "camelot 2/8 w"], ["--position", "8 fields"]),
    (["--position", CAMELOT_WITH_TRI_PLACEMENT], ["--position"]),
    (["--variant", "hexchess"], ["--variant", "hexchess"]),
    (["--human", "purple"], ["purple"]),
    (["--clock", "abc"], ["clock", "abc"]),
    (["--clock", "0"], ["clock"]),
    (["--clock", "99999999"], ["clock", "at most"]),
    (["--depth", "0"], ["--depth"]),
    (["--depth", "99999999999999999999"], ["--depth"]),
    (["--nodes", "0"], ["--nodes"]),
    (["--nodes", "99999999999999999999"], ["--nodes"]),
    (["--movetime", "nan"], ["--movetime", "finite"]),
    (["--movetime", "1e400"], ["--movetime", "finite"]),
    (["--movetime", "0"], ["--movetime"]),
    (["--setoption", "Skill Level"], ["--setoption", "NAME=VALUE"]),
    (["--setoption", "Rule Repetition=maybe"], ["--setoption", "maybe"]),
    (["--engine", ""], ["--engine", "empty"]),
    (["--engine", "'unclosed"], ["--engine", "quotation"]),
    (["--human", ""], ["no seat named", "'none'"]),  # (not "no human seat")
    (["--human", ",,"], ["no seat named"]),
    (["--position", ""], ["--position", "empty"]),  # (not the start position)
    (["--load", ""], ["--load", "empty"]),
])
def test_play_refuses_bad_options(files, args, needles) -> None:
    assert_error(canter("play", *args, stdin=""), USAGE, *needles)


def test_play_refuses_position_and_load_together(files) -> None:
    done = canter("play", "--load", files["game"], "--position", TRI_START, stdin="")
    assert_error(done, USAGE, "--position", "--load")


@pytest.mark.parametrize("target, needles", [
    ("nowhere", ["--save", "does not exist"]),
    ("folder", ["--save", "is a folder"]),
    ("under_file", ["--save", "is a file, not a folder"]),
])
def test_play_checks_the_save_file_before_the_game(files, target, needles) -> None:
    done = canter("play", "--human", "all", "--save", files[target], stdin="C6-E8\n")
    assert_error(done, USAGE, *needles)
    assert "white>" not in done.stdout


@pytest.mark.parametrize("engine, needles", [
    ("/no/such/engine --flag", ["could not be started", "/no/such/engine"]),
    (EXITS_AT_ONCE, ["died"]),
])
def test_play_starts_the_engine_before_the_first_prompt(engine, needles) -> None:
    # White is typed, Black is the engine's: the engine is wanted, and found wanting, at once
    done = canter("play", "--human", "white", "--engine", engine, stdin="C6-E8\n")
    assert_error(done, FAILURE, *needles)
    assert "white>" not in done.stdout


def test_play_sets_the_options_before_the_first_prompt() -> None:
    done = canter("play", "--human", "white", "--setoption", "No Such Option=1",
                  stdin="C6-E8\n")
    assert_error(done, FAILURE, "No Such Option")
    assert "white>" not in done.stdout


def test_play_starts_a_given_engine_even_when_people_play_every_seat() -> None:
    done = canter("play", "--human", "all", "--engine", "/no/such/engine", stdin="quit\n")
    assert_error(done, FAILURE, "/no/such/engine")


@pytest.mark.slow
def test_play_gives_up_on_an_engine_that_never_answers() -> None:
    started = time.monotonic()
    done = canter("play", "--human", "white", "--engine", NEVER_ANSWERS, stdin="C6-E8\n")
    assert_error(done, FAILURE, "stalled")
    assert time.monotonic() - started < 30


def test_play_save_replaces_an_old_record_whole(tmp_path) -> None:
    out = tmp_path / "game.cgr"
    # one record that canter play saved: replaceable
    out.write_text(GAME.replace("C11-E9 2. D6-D8 E9xC7", "C11-E9").replace(
        '[Event "x"]', '[Event "canter play"]'))
    done = canter("play", "--human", "all", "--save", str(out), stdin="C6-E8\nquit\n")
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert "C11-E9" not in text and "1. C6-E8" in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.cgr"]


def test_play_fails_when_the_game_cannot_be_saved_at_the_end(tmp_path) -> None:
    folder = tmp_path / "sub"
    folder.mkdir()
    play = subprocess.Popen([sys.executable, "-m", "canter", "play", "--human", "all",
                             "--save", str(folder / "g.cgr")], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert play.stdout.readline()  # the board: the game has begun, its save was checked
    folder.rmdir()  # gone before the game ends: the save at the end fails
    out, err = play.communicate("C6-E8\nquit\n", timeout=60)
    assert "cannot save" in out, out + err
    assert play.returncode == 1


def test_play_save_keeps_one_game_of_another_programs(tmp_path) -> None:
    # A match's one-game record (`canter match --games 1 --pgn g`) is not play's to
    # replace, unless it is the game loaded to go on with.
    out = tmp_path / "match.cgr"
    out.write_text(GAME)
    done = canter("play", "--human", "all", "--save", str(out), stdin="quit\n")
    assert_error(done, USAGE, "--save", "a game of another program's", 'Event "x"')
    done = canter("play", "--human", "all", stdin=f"save {out}\nquit\n")
    assert "a game of another program's" in done.stdout
    assert out.read_text() == GAME


# ---------------------------------------------------------------- canter transcript run

@pytest.mark.parametrize("args, status, needles", [
    (["missing"], USAGE, ["does not exist"]),
    (["folder"], USAGE, ["no *.txt transcripts"]),
    (["--engine", "", HANDSHAKE], USAGE, ["--engine", "empty"]),
    (["--engine", "'unclosed", HANDSHAKE], USAGE, ["--engine", "quotation"]),
    (["--timeout", "nan", HANDSHAKE], USAGE, ["--timeout", "finite"]),
    (["--timeout", "inf", HANDSHAKE], USAGE, ["--timeout", "finite"]),
    (["--timeout", "0", HANDSHAKE], USAGE, ["--timeout", "more than 0"]),
    (["--tail", "-1", HANDSHAKE], USAGE, ["--tail"]),
    (["--engine", "/no/such/engine", HANDSHAKE, HANDSHAKE], FAILURE,
     ["cannot start the engine", "/no/such/engine", "No such file"]),
])
def test_transcript_run_refuses_bad_arguments(files, args, status, needles) -> None:
    args = [files.get(a, a) if a in ("missing", "folder") else a for a in args]
    assert_error(canter("transcript", "run", *args), status, *needles)


@pytest.mark.parametrize("name, needle", [
    ("latin1", "not UTF-8 text"),
    ("random", "not UTF-8 text"),
    ("empty", "no steps"),
    ("json", "unknown tag"),
    ("game", "unknown tag '[Event'"),
])
def test_transcript_run_fails_a_file_that_is_not_a_transcript(files, name, needle) -> None:
    done = canter("transcript", "run", "--engine", SCRIPTED, files[name])
    no_traceback(done)
    assert done.returncode == FAILURE, done.stdout + done.stderr
    assert f"FAIL {files[name]}" in done.stdout
    assert needle in done.stdout and "cannot read the transcript" in done.stdout
    assert done.stdout.splitlines()[-1] == "0 passed, 1 failed"


@pytest.mark.parametrize("engine, timeout, needles", [
    # Which of the two an engine that exits at once gives depends on the race between its
    # exit and the first line sent: the write fails, or the write lands in the pipe and the
    # read finds the end (a loaded machine gives the second).
    (EXITS_AT_ONCE, "5", ("no longer reads its input", "engine exited with code 0")),
    (NEVER_ANSWERS, "0.5", ("nothing within 0.5 s",)),
])
def test_transcript_run_fails_an_engine_that_exits_or_never_answers(engine, timeout,
                                                                    needles) -> None:
    started = time.monotonic()
    done = canter("transcript", "run", "--timeout", timeout, "--engine", engine, HANDSHAKE)
    no_traceback(done)
    assert done.returncode == FAILURE
    assert any(needle in done.stdout for needle in needles), done.stdout
    assert time.monotonic() - started < 20


# ---------------------------------------------------------------- canter transcript record

@pytest.mark.parametrize("target, needles", [
    ("nowhere", ["--output", "does not exist"]),
    ("folder", ["--output", "is a folder"]),
    ("under_file", ["--output", "is a file, not a folder"]),
    ("", ["--output", "empty"]),
])
def test_transcript_record_checks_its_output_before_the_session(files, target, needles):
    started = time.monotonic()
    # the engine never answers: a check made after the session would take its timeout
    done = canter("transcript", "record", "-q", "--timeout", "30", "--engine", NEVER_ANSWERS,
                  "-o", files.get(target, target), stdin="uci\n")
    assert_error(done, USAGE, *needles)
    assert time.monotonic() - started < 20


@pytest.mark.parametrize("args, needles", [
    (["--settle", "-1"], ["--settle", "at least 0"]),
    (["--settle", "nan"], ["--settle", "finite"]),
    (["--timeout", "1e400"], ["--timeout", "finite"]),
    (["--engine", "'unclosed"], ["--engine", "quotation"]),
])
def test_transcript_record_refuses_bad_numbers(tmp_path, args, needles) -> None:
    done = canter("transcript", "record", "-q", *args, "-o", str(tmp_path / "t.txt"),
                  stdin="uci\n")
    assert_error(done, USAGE, *needles)


@pytest.mark.parametrize("engine, needles", [
    ("/no/such/engine", ["cannot start the engine", "No such file"]),
    # `true` is gone long before the second line: a Python engine might still be starting
    (shutil.which("true") or "true", ["exited without saying anything", "not sent"]),
    (NEVER_ANSWERS, ["never answered", "2 lines"]),
])
def test_transcript_record_keeps_the_old_file_when_nothing_was_recorded(tmp_path, engine,
                                                                        needles) -> None:
    out = tmp_path / "t.txt"
    out.write_text(OLD_TRANSCRIPT)
    done = canter("transcript", "record", "-q", "--settle", "0.5", "--timeout", "0.5",
                  "--engine", engine, "-o", str(out), stdin="uci\nisready\n")
    assert_error(done, FAILURE, *needles)
    assert out.read_text() == OLD_TRANSCRIPT
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.txt"]


def test_transcript_record_keeps_the_old_file_when_the_input_holds_no_line(tmp_path) -> None:
    # An empty pipe, or Ctrl-D at once: the transcript would hold only `@eof` and `@exit`,
    # check nothing, and replace a file of the user's.
    out = tmp_path / "t.txt"
    out.write_text(OLD_TRANSCRIPT)
    done = canter("transcript", "record", "-q", "--settle", "0.05", "--engine", SCRIPTED,
                  "-o", str(out), stdin="")
    assert_error(done, FAILURE, "the input held no line", "nothing written")
    assert out.read_text() == OLD_TRANSCRIPT


def test_transcript_record_replaces_only_its_own_transcripts(tmp_path) -> None:
    out = tmp_path / "t.txt"
    args = ("transcript", "record", "-q", "--settle", "0.05", "--engine", SCRIPTED, "-o",
            str(out))
    out.write_text("my notes\n")  # a user's file given by mistake: refused, kept
    done = canter(*args, stdin="uci\n")
    assert_error(done, USAGE, "is not a transcript canter transcript record wrote")
    assert out.read_text() == "my notes\n"
    out.unlink()
    for _ in range(2):  # its own transcript: replaced
        done = canter(*args, stdin="uci\nquit\n")
        assert done.returncode == 0, done.stderr
        assert out.read_text().startswith("# recorded with: canter transcript record")


def test_transcript_record_never_writes_over_its_input(tmp_path) -> None:
    out = tmp_path / "t.txt"
    out.write_text("")  # (an empty file may be replaced; this one is also the input)
    with open(out) as stdin:
        done = subprocess.run([sys.executable, "-m", "canter", "transcript", "record", "-q",
                               "--engine", SCRIPTED, "-o", str(out)], stdin=stdin,
                              capture_output=True, text=True, timeout=60)
    assert_error(done, USAGE, "is the input being recorded")


def test_transcript_record_refuses_input_that_is_not_text(tmp_path) -> None:
    out = tmp_path / "t.txt"
    done = canter("transcript", "record", "-q", "--settle", "0.05", "--engine", SCRIPTED,
                  "-o", str(out), stdin=b"uci\n\xff\xfeisready\n")
    assert_error(done, FAILURE, "input line 2", "not UTF-8")
    assert not out.exists()


# ---------------------------------------------------------------- canter perft and bench

@pytest.mark.parametrize("args, needles", [
    (["-1"], ["DEPTH"]),
    (["21"], ["DEPTH"]),
    (["--divde", "3"], ["No such option", "--divde", "--divide"]),  # not taken as DEPTH
    (["3", "--divde"], ["No such option", "--divde"]),
    (["99999999999999999999"], ["DEPTH"]),
    (["x"], ["DEPTH"]),
    (["1", "--variant", "hexchess"], ["--variant", "hexchess"]),
    (["1", "--position", ""], ["--position", "empty"]),
    (["1", "--position", "camelot 2/8 w"], ["--position", "8 fields"]),
    (["1", "--position", CAMELOT_WITH_TRI_PLACEMENT], ["--position"]),
    (["1", "--position", TRI_START[:-4]], ["--position"]),
    (["1", "--moves", "E16-F17"], ["--moves", "E16"]),
    (["1", "--moves", "C6-E8 Z1"], ["--moves", "Z1"]),
    (["1", "--moves", "D6-D9"], ["--moves", "illegal move D6-D9"]),
    (["1", "--variant", "tri-camelot", "--moves", "C6-B5"], ["--moves", "B5"]),
])
def test_perft_refuses_bad_input(args, needles) -> None:
    assert_error(canter("perft", *args), USAGE, *needles)


@pytest.mark.parametrize("depth", ["0", "61", "x", "99999999999999999999"])
def test_bench_refuses_a_bad_depth(depth) -> None:
    assert_error(canter("bench", "--depth", depth), USAGE, "--depth")


def test_bench_depth_limit_is_the_searcher_s_deepest() -> None:
    """The command line's limit is the protocol's `bench` limit: the searcher's deepest."""
    from canter.adapters.measure.cli import BENCH_MAX_DEPTH
    from canter.engine.search.alphabeta import MAX_DEPTH

    assert BENCH_MAX_DEPTH == MAX_DEPTH


# ---------------------------------------------------------------- canter compliance

def _compliance(*args: str) -> tuple[float, object]:
    started = time.monotonic()
    done = canter("compliance", *args)
    return time.monotonic() - started, done


@pytest.mark.parametrize("engine, timeout, detail, why", [
    ("/no/such/engine", "0.5", "cannot start the engine", "the engine cannot be started"),
    # (a loaded machine can take a second to start and end a Python that does nothing:
    # within a shorter timeout it would count as stalled)
    (EXITS_AT_ONCE, "5", "EngineDied", "the handshake failed"),
    (NEVER_ANSWERS, "0.5", "EngineStalled", "the handshake failed"),
])
def test_compliance_stops_after_a_failed_handshake(engine, timeout, detail, why) -> None:
    took, done = _compliance("--timeout", timeout, engine)
    no_traceback(done)
    assert done.returncode == FAILURE
    lines = done.stdout.splitlines()
    assert lines[0].startswith("FAIL  handshake") and detail in lines[0], done.stdout
    assert lines[1] == f"SKIP  26 remaining steps ({why})", done.stdout
    assert lines[2] == "0 passed, 1 failed: handshake, 26 not run", done.stdout
    assert len(lines) == 3
    assert took < 20  # not 27 timeouts


@pytest.mark.parametrize("args, needles", [
    (["--timeout", "-1", "true"], ["--timeout", "more than 0"]),
    (["--timeout", "nan", "true"], ["--timeout"]),
    (["--timeout", "inf", "true"], ["--timeout"]),
    (["--timeout", "0", "true"], ["--timeout"]),
    (["--dir", "/no/such/folder", "true"], ["--dir", "/no/such/folder", "does not exist"]),
    ([""], ["COMMAND", "empty"]),
    (["'python -m canter"], ["COMMAND", "quotation"]),
])
def test_compliance_refuses_bad_arguments(args, needles) -> None:
    took, done = _compliance(*args)
    assert_error(done, USAGE, *needles)


def test_compliance_dir_that_is_a_file(files) -> None:
    took, done = _compliance("--dir", files["game"], "true")
    assert_error(done, USAGE, "--dir", "is a file")


def test_no_stray_temporary_files_were_left_in_the_project() -> None:
    leftovers = [name for name in os.listdir(ROOT) if name.startswith(".canter-")]
    assert leftovers == []


# ---------------------------------------------------------------- never write over an input

def test_show_refuses_to_draw_over_the_game_file_it_reads(tmp_path) -> None:
    game = tmp_path / "g.cgr"
    game.write_text(GAME)
    for option in ("--svg", "--html"):
        done = canter("show", option, str(tmp_path / "." / "g.cgr"), str(game))
        assert_error(done, USAGE, option, "is the game file being drawn")
    assert game.read_text() == GAME


def test_show_refuses_one_file_for_both_pictures_however_spelled(tmp_path) -> None:
    done = canter("show", "--svg", str(tmp_path / "." / "p"), "--html", str(tmp_path / "p"))
    assert_error(done, USAGE, "--svg and --html both name")


def test_play_saves_over_a_record_only_when_it_holds_one_game(tmp_path) -> None:
    two = tmp_path / "two.cgr"
    two.write_text(GAME + "\n" + GAME)
    done = canter("play", "--human", "all", "--load", str(two), "--save", str(two), stdin="")
    assert_error(done, USAGE, "--save", "holds 2 games")
    assert two.read_text() == GAME + "\n" + GAME
    one = tmp_path / "one.cgr"
    one.write_text(GAME)  # go on from a saved game and save it again: the usual thing
    done = canter("play", "--human", "all", "--load", str(one), "--save", str(one),
                  stdin="quit\n")
    assert done.returncode == 0, done.stderr
    assert "saved 4 moves" in done.stdout


def test_plays_save_command_keeps_a_file_that_is_no_game_record(tmp_path) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("# my notes\n")
    done = canter("play", "--human", "all", stdin=f"save {notes}\nquit\n")
    no_traceback(done)
    assert "holds no game record" in done.stdout
    assert notes.read_text() == "# my notes\n"


# ---------------------------------------------------------------- canter gui

@pytest.mark.parametrize("args, needles", [
    (["--host", ""], ["'--host'", "empty", "0.0.0.0 for every interface"]),
    (["--host", "  "], ["'--host'", "empty"]),
    (["--human", ""], ["'--human'", "no seat named"]),
    (["--human", ",,,"], ["'--human'", "no seat named"]),
])
def test_gui_refuses_empty_values_before_serving(args, needles) -> None:
    # ('' would listen on every interface, or leave no seat to people, without a word)
    assert_error(canter("gui", "--no-browser", *args, timeout=30), USAGE, *needles)


def test_gui_refuses_a_file_to_watch_that_is_no_game_record(files) -> None:
    for name, needle in (("random", "not UTF-8"), ("json", "no tags, no moves")):
        assert_error(canter("gui", "--no-browser", "--watch", files[name], timeout=30), USAGE,
                     "'--watch'", needle)
    nowhere = os.path.join(files["random"], "no-folder", "games.pgn")
    assert_error(canter("gui", "--no-browser", "--watch", nowhere, timeout=30), USAGE,
                 "'--watch'", "no folder")


def test_replay_goes_on_past_a_file_it_cannot_read(tmp_path) -> None:
    # Every file is checked: one that cannot be opened is one error line, as a malformed
    # one, and the exit status says a file was unreadable.
    good = tmp_path / "good.cgr"
    good.write_text(GAME)
    done = canter("replay", str(tmp_path / "missing.cgr"), str(tmp_path), str(good))
    assert done.returncode == USAGE, done.stderr
    assert f"{good}: game 1: " in done.stdout, done.stdout
    errors = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 2 and "missing.cgr" in errors[0] and "irectory" in errors[1], errors
    assert "1 game, 0 invalid" in done.stderr
