"""Faults of the bench scripts found by an audit: a result lost to a crash after the games,
data of one game tuned with another game's terms, a resumed data file mixing two runs, a
script measuring the installed canter rather than its own tree, team games scored
wrongly, a stale sidecar refusing a run, a screen stricter than the test it screens for,
and tracebacks where a bad input deserves one line."""

from __future__ import annotations

import ast
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
sys.path.insert(0, str(BENCH))

import benchargs  # noqa: E402
import find_tactics  # noqa: E402
import frozen  # noqa: E402
import neighbours  # noqa: E402
import opponent_rank  # noqa: E402
import race_tables  # noqa: E402
import selfplay  # noqa: E402
import sprt_calibration  # noqa: E402
import strength  # noqa: E402
import tactics  # noqa: E402
import texel_data  # noqa: E402

from canter.engine import Position  # noqa: E402

CAMELOT = Position.start("camelot").to_string()
TRI = Position.start("tri-camelot").to_string()


def run_script(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH / args[0]), *args[1:]],
                          capture_output=True, text=True, timeout=120, cwd=cwd)


def one_error_line(done: subprocess.CompletedProcess[str], status: int, needle: str) -> None:
    assert done.returncode == status, done.stderr
    assert needle in done.stderr and "Traceback" not in done.stderr, done.stderr


# ---------------------------------------------------------------- 1: selfplay's result


def test_selfplay_prints_its_result_with_off_and_base_options(capsys) -> None:
    # The result line added the dicts of --off and --base to text: a TypeError after
    # all the games, and the result lost.
    assert selfplay.main(["--opponent", "ablation", "--off", "qdepth=2", "--base",
                          "lmr=0,killers=0", "--games", "1", "--nodes", "30",
                          "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "nodes=30 lmr=0,killers=0) vs ablation qdepth=2: " in out
    assert selfplay.SearchPlayer(30, options={"qdepth": 2}).name == "search(paranoid,qdepth=2)"


# ---------------------------------------------------------------- 5: team games


def test_selfplay_scores_a_team_win_for_both_partners() -> None:
    players = [selfplay.RandomPlayer(s) for s in range(4)]
    report: list[str] = []
    points = selfplay.play("grand-cam", players, 0, 0, report)
    assert " win: " in report[0]  # a team won (seed 0: green and yellow)
    winners = [s for s in range(4) if points[s] == 1.0]
    assert len(winners) == 2 and winners[1] - winners[0] == 2  # partners sit apart
    assert sum(points) == 2.0


def test_selfplay_shares_a_team_draw_by_halves(monkeypatch) -> None:
    monkeypatch.setattr(selfplay, "MAX_PLIES", 0)  # unfinished: scored as a draw
    players = [selfplay.RandomPlayer(s) for s in range(4)]
    assert selfplay.play("grand-cam", players, 0, 0) == [0.5] * 4
    assert selfplay.play("camelot", players[:2], 0, 0) == [0.5] * 2
    assert selfplay.play("tri-camelot", players[:3], 0, 0) == pytest.approx([1 / 3] * 3)


def test_selfplay_reports_moves_as_text() -> None:
    report: list[str] = []
    selfplay.play("camelot", [selfplay.RandomPlayer(1), selfplay.RandomPlayer(2)], 0, 0,
                  report)
    first = report[0].splitlines()[0]
    assert "Move(" not in first and "last moves " in first
    last = first.split("last moves ")[1].split()
    assert last and all(move[0].isalpha() for move in last)  # e.g. F7-F8


@pytest.mark.parametrize("args, needle", [
    (["--variant", "camelot", "--algorithms", "paranoid,brs,brs+"],
     "3 algorithms, but camelot has 2 seats"),
    (["--variant", "tri-camelot", "--algorithms", "brs,brs"], "an algorithm is named twice"),
])
def test_selfplay_refuses_algorithms_that_cannot_all_be_seated(args, needle) -> None:
    done = run_script("selfplay.py", "--opponent", "algorithms", "--games", "1", "--nodes",
                      "30", "--jobs", "1", *args)
    one_error_line(done, 2, needle)


# ---------------------------------------------------------------- 2, 8: texel_tune


def texel(tmp_path: Path, *lines: str, name: str = "d.texel") -> str:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def test_texel_tune_refuses_positions_of_another_game(tmp_path) -> None:
    tri = texel(tmp_path, f"{TRI} ; result 1/3", "# game 0")
    done = run_script("texel_tune.py", tri, "--variant", "camelot", "--iterations", "1")
    one_error_line(done, 1, f"{tri}:1: a position of tri-camelot, not of --variant camelot")
    mixed = texel(tmp_path, f"{CAMELOT} ; result 0.5", "# game 0", f"{TRI} ; result 1/3",
                  "# game 1", name="mixed.texel")
    done = run_script("texel_tune.py", mixed, "--iterations", "1")
    one_error_line(done, 1, f"{mixed}:3: a position of tri-camelot, not of the game of "
                            "line 1, camelot")


def test_texel_tune_takes_the_game_from_the_data(tmp_path) -> None:
    # Tri-Camelot data without --variant were fitted by Camelot's evaluator (an IndexError)
    tri = texel(tmp_path, f"{TRI} ; result 1/3", "# game 0", f"{TRI} ; result 1/3",
                "# game 1")
    done = run_script("texel_tune.py", tri, "--iterations", "1", "--holdout", "0")
    assert done.returncode == 0, done.stderr
    assert "B = " in done.stdout  # the three-seat fit, with its offset


@pytest.mark.parametrize("line, needle", [
    (f"{CAMELOT} ; result 1/0", ":1: result '1/0' is not a number from 0 to 1"),
    (f"{CAMELOT} ; result 7", ":1: result '7' is not a number from 0 to 1"),
    (f"{CAMELOT} ; result nan", ":1: result 'nan' is not a number from 0 to 1"),
    ("camelot garbage ; result 1", "line 1: not a position string"),
    ("nonsense here ; result 1", ":1: not a position string"),
])
def test_texel_tune_names_a_bad_line(tmp_path, line, needle) -> None:
    done = run_script("texel_tune.py", texel(tmp_path, line, "# game 0"), "--iterations", "1")
    one_error_line(done, 1, needle)


@pytest.mark.parametrize("args, needle", [
    (["--holdout", "1"], "--holdout: expected a number from 0 to below 1"),
    (["--holdout", "-0.1"], "--holdout: expected a number from 0 to below 1"),
    (["--start", "/nonexistent/w.json"], "--start: /nonexistent/w.json: no such file"),
    (["--rate", "0"], "--rate: expected a number above 0"),
])
def test_texel_tune_refuses_bad_options(tmp_path, args, needle) -> None:
    done = run_script("texel_tune.py", texel(tmp_path, f"{CAMELOT} ; result 1", "# game 0"),
                      *args)
    one_error_line(done, 2, needle)


# ---------------------------------------------------------------- 3, 8: texel_data


def test_texel_data_refuses_to_append_games_made_otherwise(tmp_path) -> None:
    out = tmp_path / "d.texel"
    assert texel_data.run("camelot", 1, 30, str(out), quiet=True) > 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# texel_data variant=camelot nodes=30 seed=0 opening=4 book=8\n")
    for other in (dict(seed=3), dict(nodes=31), dict(variant="chivalry")):
        settings = dict(variant="camelot", games=2, nodes=30, out=str(out), quiet=True)
        settings.update(other)  # type: ignore[arg-type]
        with pytest.raises(texel_data.OtherSettings, match="give another --out"):
            texel_data.run(**settings)  # type: ignore[arg-type]
        assert out.read_text(encoding="utf-8") == text  # nothing written
    texel_data.run("camelot", 2, 30, str(out), quiet=True)  # the same run goes on
    after = out.read_text(encoding="utf-8")
    assert after.startswith(text) and after.count("# texel_data") == 1
    assert texel_data.done_games(str(out)) == {0, 1}
    done = run_script("texel_data.py", "--out", str(out), "--games", "1", "--nodes", "30",
                      "--seed", "3")
    one_error_line(done, 1, "holds games made with other settings")


def test_texel_data_keeps_a_file_begun_without_a_header(tmp_path) -> None:
    out = tmp_path / "old.texel"
    out.write_text(f"{CAMELOT} ; result 0.5\n# game 0\n", encoding="utf-8")
    texel_data.run("camelot", 1, 30, str(out), quiet=True)  # game 0 is there: nothing to do
    assert "# texel_data" not in out.read_text(encoding="utf-8")


def test_texel_data_says_what_is_wrong_with_its_files(tmp_path) -> None:
    one_error_line(run_script("texel_data.py", "--out", "/nonexistent/x.texel", "--games",
                              "1", "--nodes", "30"), 2,
                   "--out /nonexistent/x.texel: the folder /nonexistent does not exist")
    garbage = tmp_path / "garbage.pgn"
    garbage.write_text("garbage\n", encoding="utf-8")
    binary = tmp_path / "binary.pgn"
    binary.write_bytes(b"\xff\xfe\x00")
    out = tmp_path / "out.texel"
    for bad in (garbage, binary):
        done = run_script("texel_data.py", "--records", str(bad), "--out", str(out))
        one_error_line(done, 1, f"{bad}: not game records")
        assert not out.exists()  # the records are all read before a line is written


# ---------------------------------------------------------------- 4: this checkout


def test_benchargs_puts_its_own_checkout_first(tmp_path) -> None:
    # A copy of the tree (a clone, say): its scripts must import its own canter, not the
    # one installed (this tree, here).
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "canter", copy / "canter",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (copy / "bench").mkdir()
    shutil.copy(BENCH / "benchargs.py", copy / "bench" / "benchargs.py")
    probe = (f"import sys; sys.path.insert(0, {str(copy / 'bench')!r}); import benchargs, "
             "canter; print(canter.__file__)")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).is_relative_to(copy / "canter")


def test_the_default_engine_is_this_checkouts_from_any_folder(tmp_path) -> None:
    impostor = tmp_path / "canter"
    impostor.mkdir()
    (impostor / "__init__.py").write_text("raise ImportError('impostor')\n")
    env = benchargs.engine_env(benchargs.DEFAULT_ENGINE)
    assert env is not None
    assert env["PYTHONPATH"].split(os.pathsep)[0] == str(ROOT)
    done = subprocess.run(shlex.split(benchargs.DEFAULT_ENGINE), input="quit\n",
                          capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr  # not the folder's impostor
    assert benchargs.engine_env("/usr/local/bin/other-engine") is None


# Every script that imports canter, but benchargs itself and the two that put their
# checkout on the path on their own (strength.checkout_env, search_speed's builds).
OWN_PATH = {"benchargs", "strength", "search_speed"}
LISTED = tuple(sorted(
    p.stem for p in BENCH.glob("*.py") if p.stem not in OWN_PATH
    and re.search(r"^(from|import) canter\b", p.read_text(encoding="utf-8"), re.M)))


@pytest.mark.parametrize("name", LISTED)
def test_scripts_import_benchargs_before_canter(name) -> None:
    tree = ast.parse((BENCH / f"{name}.py").read_text(encoding="utf-8"))
    order = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            order.append(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            order += [alias.name.split(".")[0] for alias in node.names]
    assert "benchargs" in order and "canter" in order
    assert order.index("benchargs") < order.index("canter")
    if name in ("tactics", "find_tactics", "recheck_tactics"):
        text = (BENCH / f"{name}.py").read_text(encoding="utf-8")
        assert "default=DEFAULT_ENGINE" in text and "env=engine_env(args.engine)" in text


# ---------------------------------------------------------------- 6: strength's sidecar


def test_a_sidecar_beside_a_record_file_without_games_is_stale(tmp_path,
                                                               monkeypatch) -> None:
    pgn = tmp_path / "run.pgn"
    mark = tmp_path / "run.pgn.new-build"
    mark.write_text("abc+refused\n", encoding="utf-8")  # a run the arbiter refused
    monkeypatch.setattr(strength, "tree_identity", lambda: "abc+corrected")
    assert strength.check_same_new(str(pgn)) is None  # no record file
    assert mark.read_text(encoding="utf-8").strip() == "abc+corrected"
    mark.write_text("abc+refused\n", encoding="utf-8")
    pgn.write_text("\n \n", encoding="utf-8")  # an empty one
    assert strength.check_same_new(str(pgn)) is None
    mark.write_text("abc+refused\n", encoding="utf-8")
    pgn.write_text('[Event "a game"]\n', encoding="utf-8")
    problem = strength.check_same_new(str(pgn))
    assert problem is not None and "would pool the games of two builds" in problem


def test_strength_refuses_a_record_file_in_no_folder(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        strength.main(["--base", "HEAD", "--pgn", "/nonexistent/x.pgn"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--pgn /nonexistent/x.pgn: the folder /nonexistent does not exist" in err


# ---------------------------------------------------------------- 7: find_tactics' screen


def test_the_screen_is_never_stricter_than_the_test() -> None:
    # A best move at -50 winning 250 over the standing and 150 over the second move: it
    # holds for --gain -100 --gap 100, so the screen must let it through.
    reading = find_tactics.Reading("F7-F8", first=-50, second=-200, before=-300, depth=3)
    assert reading.holds(-100, 100)
    assert reading.promising(-100, 100)
    assert find_tactics._half(100) == 50 and find_tactics._half(101) == 51
    assert find_tactics._half(-100) == -100


# ---------------------------------------------------------------- 8: bad input


@pytest.mark.parametrize("text, needle", [
    ("camelot garbage bm D10-D12\n", ":1: not a position string"),
    (f"# a comment\n{CAMELOT} bm Z99-Z98\n", ":2: bm Z99-Z98 is not a move (unknown cell"),
    (f"{CAMELOT} bm F7F8F9F10\n", ":1: bm F7F8F9F10 is not a move"),
])
def test_a_suite_line_is_checked_before_the_engine_starts(tmp_path, text, needle) -> None:
    suite = tmp_path / "s.txt"
    suite.write_text(text, encoding="utf-8")
    with pytest.raises(SystemExit, match=re.escape(needle)):
        tactics.suite_entries(suite)
    for script in ("tactics.py", "recheck_tactics.py"):
        extra = ["--out", str(tmp_path / "o.txt")] if script.startswith("recheck") else []
        # an engine that cannot start: the suite is read, and refused, before it
        one_error_line(run_script(script, str(suite), "--engine", "/nonexistent/e", *extra),
                       1, needle)


def test_a_suite_that_is_not_text(tmp_path) -> None:
    suite = tmp_path / "bin.txt"
    suite.write_bytes(b"\xff\xfe garbage")
    with pytest.raises(SystemExit, match="bin.txt: not a suite file"):
        tactics.suite_entries(suite)


def test_frozen_says_a_build_folder_cannot_be_made(capsys) -> None:
    assert frozen.main(["HEAD", "--dir", "/proc/x"]) == 1
    assert "Error: --dir /proc/x: cannot be used as a build folder" in capsys.readouterr().err


@pytest.mark.parametrize("module", [opponent_rank, neighbours], ids=["opponent_rank",
                                                                     "neighbours"])
def test_garbage_records_are_one_error_line(tmp_path, module) -> None:
    for name, data in (("g.pgn", b"garbage\n"), ("b.pgn", b"\xff\x00\x01")):
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(SystemExit, match=f"Error: {path}: not game records"):
            module.main([str(path)])


def test_race_tables_refuses_an_unknown_game(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        race_tables.main(["camelott"])
    assert stop.value.code == 2
    assert "unknown variant 'camelott'" in capsys.readouterr().err


@pytest.mark.parametrize("args, needle", [
    (["--runs", "0"], "--runs: expected a whole number of at least 1"),
    (["--alpha", "0"], "--alpha: expected a number between 0 and 1"),
    (["--beta", "1"], "--beta: expected a number between 0 and 1"),
    (["--elo0", "5", "--elo1", "0"], "--elo0 (5) must be below --elo1 (0)"),
    (["--draws", "-0.5"], "--draws: expected a number from 0 to below 1"),
    (["--elo1", "inf"], "--elo1: expected an Elo difference"),
])
def test_sprt_calibration_refuses_bad_options(capsys, args, needle) -> None:
    with pytest.raises(SystemExit) as stop:
        sprt_calibration.main(args)
    assert stop.value.code == 2
    assert needle in capsys.readouterr().err
