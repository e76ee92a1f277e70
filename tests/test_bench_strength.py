"""The standard strength test's tools: bench/frozen.py (any git revision in its own
virtualenv) and bench/strength.py (the `canter match` it runs and the results row it prints).

frozen.py is exercised on a throwaway repository of a tiny package with a `canter` console
script: a real `git archive`, `python -m venv` and `pip install`. strength.py is run end to
end once, at 50 nodes a move, against a frozen build of a clone of this checkout's HEAD.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
sys.path.insert(0, str(BENCH))

import frozen  # noqa: E402
import strength  # noqa: E402

from canter.adapters.arbiter.engines import parse_engine_spec  # noqa: E402

PYPROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "canter"
version = "0.0.{n}"

[project.scripts]
canter = "canter:main"
"""


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def commit_version(repo: Path, n: int, *, broken: bool = False) -> str:
    """Commit a package whose `canter` command prints `version N`; its sha."""
    (repo / "canter").mkdir(exist_ok=True)
    (repo / "pyproject.toml").write_text(
        PYPROJECT.format(n=n).replace('version = "0.0.3"', 'version = "three"') if broken
        else PYPROJECT.format(n=n))
    (repo / "canter" / "__init__.py").write_text(f"def main():\n    print('version {n}')\n")
    git(repo, "add", "-A")
    git(repo, "commit", "--quiet", "-m", f"version {n}")
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> dict:
    """A repository with three commits: v1 (tagged), v2, and a broken pyproject."""
    repo = tmp_path_factory.mktemp("tiny")
    git(repo, "init", "--quiet", "-b", "main")
    git(repo, "config", "user.email", "test@example.invalid")
    git(repo, "config", "user.name", "test")
    shas = {"v1": commit_version(repo, 1)}
    git(repo, "tag", "v1")
    shas["v2"] = commit_version(repo, 2)
    shas["broken"] = commit_version(repo, 3, broken=True)
    return {"repo": repo, **shas}


def run_script(name: str, *args: str, cache: Path, timeout: float = 120,
               extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), **(extra_env or {})}
    return subprocess.run([sys.executable, str(BENCH / name), *args], capture_output=True,
                          text=True, env=env, timeout=timeout, cwd=ROOT)


# ---------------------------------------------------------------- frozen.py


def test_any_rev_parse_name_resolves_to_its_commit(tiny) -> None:
    repo = tiny["repo"]
    assert frozen.resolve("v1", repo) == tiny["v1"]
    assert frozen.resolve(tiny["v1"][:8], repo) == tiny["v1"]
    assert frozen.resolve("HEAD~2", repo) == tiny["v1"]
    assert frozen.resolve("HEAD~1", repo) == tiny["v2"]
    assert frozen.resolve("main", repo) == tiny["broken"]
    # a tag object is peeled to its commit
    git(repo, "tag", "-a", "-m", "annotated", "v2-annotated", tiny["v2"])
    assert frozen.resolve("v2-annotated", repo) == tiny["v2"]


def test_a_build_is_a_real_install_reused_and_unchanged_by_later_edits(tiny, tmp_path) -> None:
    repo, directory = tiny["repo"], tmp_path / "b"
    # what a build killed half-way leaves: it is cleared, not mistaken for a build
    (directory / "src" / "junk").mkdir(parents=True)
    (directory / frozen.STARTED).touch()
    logged: list[str] = []
    build = frozen.freeze("v1", directory, repo, log=logged.append)
    assert build.sha == tiny["v1"] and build.command == directory / "canter"
    assert build.installed == directory / "venv" / "bin" / "canter"
    assert not (directory / "src" / "junk").exists()
    assert not (directory / frozen.STARTED).exists()
    assert (directory / "src" / "canter" / "__init__.py").read_text().count("version 1") == 1
    assert any("Building v1" in line for line in logged)
    marker = frozen.read_marker(directory)
    assert marker["sha"] == tiny["v1"] and marker["subject"] == "version 1"
    done = subprocess.run([str(build.command)], capture_output=True, text=True, check=True)
    assert done.stdout == "version 1\n"

    # isolated: another `canter` on PYTHONPATH, or in the folder it is started from, is not
    # what runs (a strength test run with PYTHONPATH at a checkout once played that
    # checkout against itself)
    impostor = tmp_path / "impostor"
    (impostor / "canter").mkdir(parents=True)
    (impostor / "canter" / "__init__.py").write_text("def main():\n    print('impostor')\n")
    assert subprocess.run([str(build.installed)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(impostor)}
                          ).stdout == "impostor\n"  # what the launcher is for
    done = subprocess.run([str(build.command)], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(impostor)}, cwd=impostor)
    assert done.stdout == "version 1\n"

    # reused: nothing is built again, the marker is left as it was
    stamp = (directory / frozen.MARKER).stat().st_mtime_ns
    logged.clear()
    again = frozen.freeze(tiny["v1"], directory, repo, log=logged.append)
    assert again.command == build.command and logged == []
    assert (directory / frozen.MARKER).stat().st_mtime_ns == stamp

    # not editable: a changed checkout does not change the frozen engine
    (repo / "canter" / "__init__.py").write_text("def main():\n    print('edited')\n")
    try:
        done = subprocess.run([str(build.command)], capture_output=True, text=True, check=True)
        assert done.stdout == "version 1\n"
    finally:
        git(repo, "checkout", "--quiet", "--", "canter/__init__.py")

    # the same folder will not take another revision
    with pytest.raises(frozen.FreezeError, match="holds the build of"):
        frozen.freeze(tiny["v2"], directory, repo)

    # --list shows builds under the cache root, complete or not
    cache = tmp_path / "cache"
    root = cache / "canter" / "builds"
    root.mkdir(parents=True)
    (directory).rename(root / tiny["v1"])
    (root / ("0" * 40)).mkdir()
    listed = run_script("frozen.py", "--list", cache=cache)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("000000000000  (incomplete)")
    assert lines[1].startswith(tiny["v1"][:12]) and "v1: version 1" in lines[1]


def test_the_command_prints_the_engine_command_of_a_reused_build(tiny, tmp_path) -> None:
    # a complete build is recognised by its marker alone: no pip run here
    directory = tmp_path / "cache" / "canter" / "builds" / tiny["v2"]
    (directory / "venv" / "bin").mkdir(parents=True)
    (directory / "venv" / "bin" / "canter").touch()
    (directory / frozen.MARKER).write_text(json.dumps({"sha": tiny["v2"]}))
    done = run_script("frozen.py", "HEAD~1", "--repo", str(tiny["repo"]),
                      cache=tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    # a build made before the launcher existed gets one
    assert done.stdout == f"{directory / 'canter'}\n"
    launcher = (directory / "canter").read_text()
    assert f"{directory / 'venv' / 'bin' / 'python'} -I {directory / 'venv' / 'bin' / 'canter'}" \
        in launcher
    assert os.access(directory / "canter", os.X_OK)
    assert done.stderr == ""


def test_a_failing_step_is_reported_with_its_last_lines() -> None:
    script = "import sys\nfor i in range(9): print('line', i)\nsys.exit(3)"
    with pytest.raises(frozen.FreezeError) as caught:
        frozen._run_step([sys.executable, "-c", script], "pip install of x")
    text = str(caught.value)
    assert text.startswith("pip install of x failed (exit code 3); its last lines:")
    assert text.splitlines()[1:] == [f"  line {i}" for i in range(4, 9)]


@pytest.mark.slow
def test_a_revision_pip_cannot_install_is_refused_with_pips_last_lines(tiny, tmp_path) -> None:
    done = run_script("frozen.py", "main", "--repo", str(tiny["repo"]), "--dir",
                      str(tmp_path / "b"), cache=tmp_path)
    assert done.returncode == 1
    errors = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "pip install of main" in errors[0], done.stderr
    # pip's own words follow: what setuptools found wrong, not pip's closing boilerplate
    quoted = [line for line in done.stderr.split(errors[0])[1].splitlines() if line]
    assert 1 <= len(quoted) <= frozen.PIP_LINES
    assert any("project.version" in line for line in quoted), done.stderr
    assert not any("originates from a subprocess" in line for line in quoted)
    assert frozen.read_marker(tmp_path / "b") is None


# ---------------------------------------------------------------- strength.py


def test_the_camelot_match_command_is_the_standard_sprt() -> None:
    command = strength.match_command(
        python="/py/bin/python", base_command="/c/builds/abc/venv/bin/canter",
        base_sha="abcdef0123456789", variant="camelot", limit=strength.Limit("tc", "10+0.1"),
        concurrency=2, games=20000, pgn="run.pgn", json_path="/tmp/s.json",
        checkout=Path("/src/canter"))
    assert command == [
        "/py/bin/python", "-m", "canter", "match", "--variant", "camelot",
        "--engine", "cmd=/py/bin/python -m canter name=new dir=/src/canter",
        "--engine", "cmd=/c/builds/abc/venv/bin/canter name=base-abcdef0",
        "--tc", "10+0.1", "--concurrency", "2", "--games", "20000",
        "--sprt", "elo0=0 elo1=5 alpha=0.05 beta=0.05",
        "--pgn", "run.pgn", "--json", "/tmp/s.json"]


def test_the_tri_camelot_command_plays_two_copies_of_the_base_under_the_sprt() -> None:
    command = strength.match_command(
        python="python", base_command="/b/canter", base_sha="1234567abc",
        variant="tri-camelot", limit=strength.Limit("st", "1"), concurrency=1, games=1002,
        pgn=None, json_path="s.json", timemargin=50, checkout=Path("/src"))
    assert command == [
        "python", "-m", "canter", "match", "--variant", "tri-camelot",
        "--engine", "cmd=python -m canter name=new dir=/src",
        "--engine", "cmd=/b/canter name=base-1234567",
        "--engine", "cmd=/b/canter name=base-1234567-2",
        "--st", "1", "--concurrency", "1", "--games", "1002", "--timemargin", "50",
        "--sprt", strength.SPRT, "--json", "s.json"]
    fixed = strength.match_command(
        python="python", base_command="/b/canter", base_sha="1234567abc",
        variant="tri-camelot", limit=strength.Limit("st", "1"), concurrency=1, games=1002,
        pgn=None, json_path="s.json", fixed=True)
    assert "--sprt" not in fixed
    assert args_of("--variant", "tri-camelot") == (strength.Limit("tc", "10+0.1"), 1002)


@pytest.mark.parametrize("variant", ["cam", "camette", "chivalry"])
def test_the_other_two_seat_games_get_the_same_sprt_and_fixed_runs(variant) -> None:
    command = strength.match_command(
        python="python", base_command="/b/canter", base_sha="1234567abc", variant=variant,
        limit=strength.Limit("tc", "10+0.1"), concurrency=2, games=500, pgn="r.pgn",
        json_path="s.json", checkout=Path("/src"),
        openings=strength.openings_path(None, variant))
    assert command[:6] == ["python", "-m", "canter", "match", "--variant", variant]
    # one base engine, not two copies as in Tri-Camelot
    assert [w for w in command if w.startswith("cmd=")] == [
        "cmd=python -m canter name=new dir=/src", "cmd=/b/canter name=base-1234567"]
    assert command[command.index("--sprt") + 1] == strength.SPRT
    assert args_of("--variant", variant) == (strength.Limit("tc", "10+0.1"), 20000)
    assert args_of("--variant", variant, "--fixed") == (strength.Limit("tc", "10+0.1"), 1000)
    fixed = strength.match_command(
        python="python", base_command="/b/canter", base_sha="1234567abc", variant=variant,
        limit=strength.Limit("st", "1"), concurrency=2, games=1000, pgn=None,
        json_path="s.json", fixed=True)
    assert "--sprt" not in fixed


def test_grand_cam_plays_new_as_a_team_against_the_base_under_the_sprt(tmp_path) -> None:
    command = strength.match_command(
        python="python", base_command="/b/canter", base_sha="1234567abc",
        variant="grand-cam", limit=strength.Limit("tc", "10+0.1"), concurrency=2, games=500,
        pgn="r.pgn", json_path="s.json", checkout=Path("/src"),
        openings=strength.openings_path(None, "grand-cam"))
    # one engine a team, the shipped 4-ply starts, the two-seat SPRT over pairs of games
    assert "--teams" in command
    assert command[command.index("--openings") + 1] == str(BENCH / "openings-grand-cam-4ply.txt")
    assert [w for w in command if w.startswith("cmd=")] == [
        "cmd=python -m canter name=new dir=/src", "cmd=/b/canter name=base-1234567"]
    assert command[command.index("--sprt") + 1] == strength.SPRT
    assert args_of("--variant", "grand-cam") == (strength.Limit("tc", "10+0.1"), 20000)
    assert args_of("--variant", "grand-cam", "--fixed")[1] == 1000
    # The command runs, and the arbiter's team summary gives the row of a two-seat test.
    launcher = tmp_path / "base"
    launcher.write_text(f"#!/bin/sh\nexec {sys.executable} -m canter \"$@\"\n")
    launcher.chmod(0o755)
    summary_path = tmp_path / "s.json"
    command = strength.match_command(
        python=sys.executable, base_command=str(launcher), base_sha="1234567abc",
        variant="grand-cam", limit=strength.Limit("nodes", "30"), concurrency=2, games=2,
        pgn=None, json_path=str(summary_path), checkout=ROOT, fixed=True)
    command[command.index("--nodes") + 2:command.index("--nodes") + 2] = ["--maxplies", "80"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env=strength.checkout_env())
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads(summary_path.read_text())
    assert summary["teams"][0]["teams"] == [["new"], ["base-1234567"]]
    games, result, elo, verdict = strength.two_seat_row(strength.as_pairs(summary), 2, True)
    wins, losses, draws = (int(w[1:]) for w in result.split())
    assert games == "2" and wins + losses + draws == 2
    assert "pentanomial" in elo and " over 1 pairs: " in elo, elo
    assert verdict.startswith("fixed games; too few games to decide")


def test_as_pairs_reads_a_team_pairing_of_one_engine_each_as_a_pair() -> None:
    team = {"teams": [["new"], ["base-x"]], "wins": 3, "draws": 1, "losses": 2, "elo": 5.0,
            "elo_margin": 9.0, "los": 0.6, "pentanomial": [0, 1, 1, 0, 1]}
    pairs = strength.as_pairs({"teams": [team]})["pairs"]
    assert pairs == [dict(team, players=["new", "base-x"])]
    plain = {"pairs": [{"players": ["new", "b"]}]}
    assert strength.as_pairs(plain) is plain  # two seats: unchanged
    four = {"teams": [dict(team, teams=[["a", "c"], ["b", "d"]])]}
    assert "pairs" not in strength.as_pairs(four)  # engines sharing a team: no pair


def test_chivalry_plays_its_shipped_book_cam_and_camette_the_built_in_one() -> None:
    from canter.adapters.arbiter.openings import load_openings

    chivalry = BENCH / "openings-chivalry-2ply.txt"
    assert strength.openings_path(None, "chivalry") == str(chivalry)
    starts = load_openings(str(chivalry), "chivalry")
    assert len({o.moves for o in starts}) == len(starts) >= 300
    assert strength.openings_path(None, "cam") is None
    assert strength.openings_path(None, "camette") is None


def test_camelot_plays_the_shipped_test_openings_unless_told_otherwise(tmp_path) -> None:
    from canter.adapters.arbiter.openings import load_book, load_openings

    shipped = BENCH / "openings-camelot-2ply.txt"
    tri = BENCH / "openings-tri-camelot-6ply.txt"
    assert strength.openings_path(None, "camelot") == str(shipped)
    assert strength.openings_path("builtin", "camelot") is None
    assert strength.openings_path(None, "tri-camelot") == str(tri)
    assert strength.openings_path("builtin", "tri-camelot") is None
    mine = tmp_path / "mine.txt"
    mine.write_text("E6-D5 I10-J10\n")
    assert strength.openings_path(str(mine), "tri-camelot") == str(mine.resolve())
    # Enough distinct starts for 1,000 games to play each once in each seat, every one of
    # them legal (load_openings replays them) and still on.
    kept = load_openings(str(shipped), "camelot")
    assert len({o.moves for o in kept}) == len(kept) >= 500
    assert all(len(o.moves) == 2 for o in kept)
    three = load_openings(str(tri), "tri-camelot")
    assert len({o.moves for o in three}) == len(three) >= 334
    # The 40-opening book of the earlier runs stays, to resume them: the built-in book less
    # its one-sided openings (book_balance.py).
    book = {o.moves for o in load_book("camelot")}
    earlier = load_openings(str(BENCH / "openings-camelot-sprt.txt"), "camelot")
    assert 30 <= len(earlier) < len(book) and {o.moves for o in earlier} <= book
    command = strength.match_command(
        python="python", base_command="/b/canter", base_sha="1234567abc", variant="camelot",
        limit=strength.Limit("tc", "10+0.1"), concurrency=2, games=10, pgn=None,
        json_path="s.json", openings=str(shipped))
    assert command[command.index("--openings") + 1] == str(shipped)


def test_an_openings_file_that_is_not_there_is_a_usage_error(capsys) -> None:
    p = strength.parser()
    args = p.parse_args(["--base", "HEAD", "--openings", "no-such-book.txt"])
    with pytest.raises(SystemExit) as stopped:
        strength.check_args(p, args)
    assert stopped.value.code == 2
    assert "--openings no-such-book.txt: no such file" in capsys.readouterr().err


def test_engine_options_go_to_their_own_engine_with_absolute_paths(tmp_path) -> None:
    weights = tmp_path / "w.json"
    weights.write_text("{}")
    p = strength.parser()
    args = p.parse_args(["--base", "HEAD", "--option", f"EvalFile={weights}",
                         "--option", "Hash=64", "--base-option", "Skill Level=10"])
    options = strength.option_pairs(p, "--option", args.option)
    base_options = strength.option_pairs(p, "--base-option", args.base_option)
    assert options == (("EvalFile", str(weights.resolve())), ("Hash", "64"))
    command = strength.match_command(
        python="python", base_command="/b/canter", base_sha="1234567abc", variant="camelot",
        limit=strength.Limit("tc", "10+0.1"), concurrency=1, games=10, pgn=None,
        json_path="s.json", checkout=Path("/src"), options=options, base_options=base_options)
    new = parse_engine_spec(command[command.index("--engine") + 1])
    base = parse_engine_spec(command[command.index("--engine") + 3])
    assert new.name == "new" and new.options == {"EvalFile": str(weights.resolve()),
                                                 "Hash": "64"}
    assert base.name == "base-1234567" and base.options == {"Skill Level": "10"}


@pytest.mark.parametrize("text", ["EvalFile", "=3", ""])
def test_an_option_without_name_and_value_is_a_usage_error(text, capsys) -> None:
    p = strength.parser()
    args = p.parse_args(["--base", "HEAD", "--option", text])
    with pytest.raises(SystemExit) as stopped:
        strength.option_pairs(p, "--option", args.option)
    assert stopped.value.code == 2
    assert "--option expects NAME=VALUE" in capsys.readouterr().err


def test_the_arbiter_reads_the_engines_back_even_with_spaces_in_paths() -> None:
    spec = parse_engine_spec(strength.engine_field(["/a b/canter"], "base-x"))
    assert spec.command == ["/a b/canter"] and spec.name == "base-x" and spec.cwd is None
    spec = parse_engine_spec(strength.engine_field(["/my py/python", "-m", "canter"], "new",
                                                   Path("/my src")))
    assert spec.command == ["/my py/python", "-m", "canter"]
    assert spec.name == "new" and spec.cwd == "/my src"
    # A search switch of the tested build (an option name with a space, a value with '='):
    # a build against itself with one feature on.
    p = strength.parser()
    args = p.parse_args(["--base", "HEAD", "--option", "Search Switches=lmr=1,pvs=1"])
    options = strength.option_pairs(p, "--option", args.option)
    assert options == (("Search Switches", "lmr=1,pvs=1"),)
    spec = parse_engine_spec(strength.engine_field(["python", "-m", "canter"], "new",
                                                   None, options))
    assert spec.options == {"Search Switches": "lmr=1,pvs=1"}


def args_of(*words: str):
    p = strength.parser()
    return strength.check_args(p, p.parse_args(["--base", "HEAD~1", *words]))


def test_defaults_and_limits() -> None:
    assert args_of() == (strength.Limit("tc", "10+0.1"), 20000)
    assert args_of("--st", "1") == (strength.Limit("st", "1"), 20000)
    assert args_of("--variant", "tri-camelot") == (strength.Limit("tc", "10+0.1"), 1002)
    assert args_of("--variant", "tri-camelot", "--games", "9", "--tc", "40/60+0.5") == (
        strength.Limit("tc", "40/60+0.5"), 9)
    assert args_of("--nodes", "50", "--games", "2") == (strength.Limit("nodes", "50"), 2)
    assert str(strength.Limit("tc", "10+0.1")) == "tc 10+0.1"


def summary(wins: int, losses: int, draws: int, *, llr: float, decision: str | None,
            first: str = "new", elo: float = 12.3, margin: float = 4.56,
            los: float = 0.5) -> dict:
    return {"pairs": [{"players": [first, "base-x"], "wins": wins, "losses": losses,
                       "draws": draws, "elo": elo, "elo_margin": margin, "los": los}],
            "sprt": {"llr": llr, "lower": -2.94, "upper": 2.94, "decision": decision}}


def test_the_camelot_verdict_follows_the_sprt_then_the_games() -> None:
    assert strength.two_seat_row(summary(60, 40, 20, llr=2.95, decision="H1"), 20000) == (
        "120", "+60 −40 =20", "+12.3 ± 4.6", "H1 accepted, LLR +2.95 (-2.94, +2.94): kept")
    # the pair as the arbiter wrote it, base first: W and L are new's
    row = strength.two_seat_row(summary(40, 60, 20, llr=-2.95, decision="H0", first="base-x"),
                               20000)
    assert row[1] == "+60 −40 =20" and row[3].endswith(": dropped")
    assert row[2] == "-12.3 ± 4.6"  # the base's +12.3 turned round, as are W and L
    row = strength.two_seat_row(summary(460, 540, 0, llr=2.0, decision=None, los=0.005,
                                        first="base-x"), 1000)
    assert row[3].endswith("LOS 99.5 %: kept")  # so is its LOS
    assert strength.two_seat_row(summary(5, 5, 0, llr=0.1, decision=None), 20000)[3] == (
        "LLR +0.10 (-2.94, +2.94), undecided; unfinished (10 of 20000 games): "
        "resume with the same --pgn")
    # SPRT cannot finish within the cap: LOS decides over at least 1,000 games
    assert strength.two_seat_row(summary(520, 480, 0, llr=1.0, decision=None, los=0.9),
                                1000)[3].endswith("LOS 90.0 %: dropped")
    assert strength.two_seat_row(summary(540, 460, 0, llr=2.0, decision=None, los=0.995),
                                1000)[3].endswith("LOS 99.5 %: kept")
    # stopped by hand after 1,000 games, the cap still far
    assert strength.two_seat_row(summary(500, 480, 20, llr=0.5, decision=None, los=0.74),
                                20000)[3] == ("LLR +0.50 (-2.94, +2.94), undecided; "
                                              "LOS 74.0 %: dropped (stopped at 1000 of 20000 "
                                              "games)")
    assert "too few games" in strength.two_seat_row(
        summary(6, 4, 0, llr=0.3, decision=None), 10)[3]


def test_the_elo_cell_adds_the_pentanomial_figure_seen_from_new() -> None:
    paired = summary(9, 5, 0, llr=0.2, decision=None, first="base-x", elo=-10.0, margin=30.0)
    paired["pairs"][0].update(pentanomial=[3, 0, 2, 0, 2], pentanomial_elo=-12.5,
                              pentanomial_elo_margin=28.25)
    # [LL, LD, DD+WL, WD, WW] of the base turned round: new lost 2 pairs and won 3
    assert strength.two_seat_row(paired, 20000)[2] == (
        "+10.0 ± 30.0; pentanomial [2, 0, 2, 0, 3] over 7 pairs: +12.5 ± 28.2")
    paired["pairs"][0]["players"] = ["new", "base-x"]
    assert strength.two_seat_row(paired, 20000)[2] == (
        "-10.0 ± 30.0; pentanomial [3, 0, 2, 0, 2] over 7 pairs: -12.5 ± 28.2")


def test_a_fixed_camelot_run_has_no_sprt_and_is_judged_by_its_games() -> None:
    p = strength.parser()
    args = p.parse_args(["--base", "HEAD", "--fixed"])
    assert strength.check_args(p, args)[1] == 1000
    args = p.parse_args(["--base", "HEAD", "--fixed", "--games", "1200"])
    assert strength.check_args(p, args)[1] == 1200
    command = strength.match_command(
        python="python", base_command="/b/canter", base_sha="1234567abc", variant="camelot",
        limit=strength.Limit("tc", "10+0.1"), concurrency=2, games=1000, pgn=None,
        json_path="s.json", fixed=True)
    assert "--sprt" not in command and command[command.index("--games") + 1] == "1000"
    row = strength.two_seat_row(summary(600, 380, 20, llr=None, decision=None, los=0.999),
                               1000, fixed=True)
    assert row[0] == "1000" and row[3] == "fixed games; LOS 99.9 %: kept"
    assert strength.two_seat_row(summary(300, 280, 20, llr=None, decision=None, los=0.8),
                                1000, fixed=True)[3] == (
        "fixed games; unfinished (600 of 1000 games): resume with the same --pgn")
    # Tri-Camelot too: 1,002 games without the SPRT.
    assert strength.check_args(p, p.parse_args(["--base", "HEAD", "--fixed",
                                                "--variant", "tri-camelot"]))[1] == 1002


def test_tri_camelot_elo_from_new_places_against_the_base_seats() -> None:
    # hand-counted: per game new's mean pairwise score 1, 1/2, 1/4, 3/4
    rankings = [[["new"], ["b", "b2"]],
                [["b"], ["new"], ["b2"]],
                [["b"], ["new", "b2"]],
                [["new", "b"], ["b2"]]]
    assert strength.pairwise_scores(rankings, "new") == [1.0, 0.5, 0.25, 0.75]
    games, result, elo, verdict = strength.tri_row(rankings, 4)
    mean, sd = 0.625, math.sqrt(0.078125 / 4)
    low = -400 * math.log10(1 / (mean - strength.Z95 * sd) - 1)
    high = -400 * math.log10(1 / (mean + strength.Z95 * sd) - 1)
    assert games == "4"
    assert result == "points 1.5/4 (37.5 %), pairwise +4 −2 =2"
    assert elo == f"{-400 * math.log10(1 / mean - 1):+.1f} ± {(high - low) / 2:.1f}"
    los = 0.5 * (1 + math.erf((mean - 0.5) / sd / math.sqrt(2)))
    assert verdict == (f"fixed games; too few games to decide (LOS {100 * los:.1f} %; "
                       "at least 1,000)")
    assert strength.tri_row(rankings, 6)[3] == (
        "fixed games; unfinished (4 of 6 games): resume with the same --pgn")
    # Under the SPRT the arbiter's decision is the verdict, and undecided it says so.
    sprt = {"llr": -3.1, "lower": -2.94, "upper": 2.94, "decision": "H0"}
    assert strength.tri_row(rankings, 6, {"sprt": sprt}, fixed=False)[3] == (
        "H0 accepted, LLR -3.10 (-2.94, +2.94): dropped")
    sprt = {**sprt, "llr": 0.5, "decision": None}
    assert strength.tri_row(rankings, 6, {"sprt": sprt}, fixed=False)[3] == (
        "LLR +0.50 (-2.94, +2.94), undecided; unfinished (4 of 6 games): resume with the "
        "same --pgn")


def test_the_results_row_has_the_columns_of_the_table() -> None:
    row = strength.summary_row("2026-01-02", "lmr on", "camelot", strength.Limit("st", "1"),
                               ("10", "+5 −5 =0", "+0.0 ± 300.0", "x"))
    assert row == "| 2026-01-02 | lmr on | camelot | st 1 | 10 | +5 −5 =0 | +0.0 ± 300.0 | x |"
    # a bar in a cell would start a new column
    row = strength.summary_row("d", "a|b", "camelot", strength.Limit("st", "1"),
                               ("1", "2", "3", "4"))
    assert row == "| d | a\\|b | camelot | st 1 | 1 | 2 | 3 | 4 |"
    table = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    assert ("| date | change | variant | limit | games | result | Elo | verdict |"
            in table)


def test_a_resumed_run_must_go_on_with_the_build_of_new_it_began_with(tmp_path,
                                                                      monkeypatch) -> None:
    repo = tmp_path / "repo"
    (repo / "canter").mkdir(parents=True)
    (repo / "canter" / "a.py").write_text("x = 1\n")
    (repo / "notes.txt").write_text("not the engine\n")
    git(tmp_path, "init", "--quiet", str(repo))
    git(repo, "add", ".")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "one")
    monkeypatch.setattr(strength, "CHECKOUT", repo)
    head = git(repo, "rev-parse", "HEAD")
    assert strength.tree_identity() == head
    (repo / "notes.txt").write_text("edited\n")  # outside the package: the same engine
    assert strength.tree_identity() == head
    (repo / "canter" / "a.py").write_text("x = 2\n")
    edited = strength.tree_identity()
    (repo / "canter" / "b.py").write_text("y = 1\n")  # a new file of the package counts
    added = strength.tree_identity()
    assert edited.startswith(head + "+") and added.startswith(head + "+") and edited != added
    pgn = str(tmp_path / "run.pgn")
    assert strength.check_same_new(pgn) is None  # a new file: this tree begins it
    assert Path(pgn + ".new-build").read_text().strip() == added
    assert strength.check_same_new(pgn) is None  # the same tree goes on
    Path(pgn).write_text('[Event "a game"]\n', encoding="utf-8")  # the run has begun
    (repo / "canter" / "b.py").write_text("y = 2\n")
    problem = strength.check_same_new(pgn)
    assert problem is not None and "would pool the games of two builds" in problem


def test_a_real_run_against_a_frozen_clone_of_head(tmp_path) -> None:
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", "--no-local", str(ROOT), str(clone)],
                   check=True, capture_output=True)
    head = git(clone, "rev-parse", "HEAD")
    pgn = tmp_path / "run.pgn"
    # A `canter` on PYTHONPATH that fails when imported: neither the test's own tree nor
    # the frozen base may pick it up.
    impostor = tmp_path / "impostor"
    (impostor / "canter").mkdir(parents=True)
    (impostor / "canter" / "__init__.py").write_text("raise ImportError('impostor')\n")
    started = time.monotonic()
    done = run_script("strength.py", "--base", "HEAD", "--repo", str(clone), "--nodes", "50",
                      "--games", "2", "--concurrency", "2", "--pgn", str(pgn),
                      "--change", "nothing", cache=tmp_path / "cache", timeout=240,
                      extra_env={"PYTHONPATH": str(impostor)})
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    build = tmp_path / "cache" / "canter" / "builds" / head / "canter"
    command = shlex.split(lines[0][2:])
    assert lines[0].startswith("$ ") and command[:4] == [sys.executable, "-m", "canter",
                                                         "match"]
    assert f"cmd={build}" in command[command.index("--engine", 7) + 1]
    assert f"name=base-{head[:7]}" in command[command.index("--engine", 7) + 1]
    assert command[command.index("--openings") + 1] == str(BENCH / "openings-camelot-2ply.txt")
    row = lines[-1].split(" | ")
    assert row[1:5] == ["nothing", "camelot", "nodes 50", "2"], lines[-1]
    wins, losses, draws = (int(w[1:]) for w in row[5].split())
    assert wins + losses + draws == 2
    assert "too few games to decide" in row[7]
    records = pgn.read_text(encoding="utf-8")
    assert records.count('[Event "') == 2
    assert '[White "new"]' in records and f'[Black "base-{head[:7]}"]' in records
    # the frozen engine is that build, and it is a working engine
    answer = subprocess.run([str(build)], input="uci\nquit\n", capture_output=True,
                            text=True, timeout=30)
    assert "uciok" in answer.stdout
    print(f"end to end in {time.monotonic() - started:.1f} s")


@pytest.mark.timeout(420)
def test_sigterm_stops_a_run_with_its_games_saved_and_its_row_printed(tmp_path) -> None:
    # A run in the background ignores Ctrl-C's signal; `kill` (SIGTERM) of the script
    # must stop the arbiter too, keep every finished game and still print the row.
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", "--no-local", str(ROOT), str(clone)],
                   check=True, capture_output=True)
    pgn = tmp_path / "run.pgn"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    run = subprocess.Popen([sys.executable, str(BENCH / "strength.py"), "--base", "HEAD",
                            "--repo", str(clone), "--nodes", "50", "--games", "400",
                            "--concurrency", "1", "--pgn", str(pgn), "--change", "nothing"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                           cwd=ROOT)
    try:
        # Freezing the base (a pip install) takes a minute or more on a loaded machine.
        deadline = time.monotonic() + 300
        while not (pgn.exists() and pgn.read_text(encoding="utf-8").count('[Event "') >= 2):
            assert run.poll() is None, run.communicate()
            assert time.monotonic() < deadline, "no game finished in time"
            time.sleep(0.2)
        run.terminate()
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
    assert run.returncode == 130, out + err  # the arbiter's code for an interrupted run
    played = pgn.read_text(encoding="utf-8").count('[Event "')
    row = out.splitlines()[-1].split(" | ")
    assert row[1:5] == ["nothing", "camelot", "nodes 50", str(played)], out
    assert f"unfinished ({played} of 400 games)" in row[7]
    left = subprocess.run(["pgrep", "-f", str(pgn)], capture_output=True, text=True)
    assert left.stdout == "", "the arbiter outlived the script"


def test_the_arbiter_runs_this_checkout_first_whatever_pythonpath_holds() -> None:
    env = strength.checkout_env({"PYTHONPATH": "/elsewhere", "HOME": "/h"})
    assert env["PYTHONPATH"] == str(ROOT) + os.pathsep + "/elsewhere"
    assert env["HOME"] == "/h"
    assert strength.checkout_env({})["PYTHONPATH"] == str(ROOT)


def test_new_plays_the_package_as_it_was_when_the_run_began(tmp_path) -> None:
    # `new` runs in the checkout (its folder is part of what a resume checks), yet imports
    # a copy of the package taken at the start: later edits of the tree never reach it.
    tree = tmp_path / "tree"
    (tree / "canter" / "__pycache__").mkdir(parents=True)
    (tree / "canter" / "__init__.py").write_text("BUILD = 'first'\n")
    (tree / "canter" / "__pycache__" / "x.pyc").write_bytes(b"stale")
    snap = strength.snapshot_package(tmp_path / "snap", checkout=tree)
    assert not (snap / "canter" / "__pycache__").exists()
    (tree / "canter" / "__init__.py").write_text("BUILD = 'edited'\n")
    env = strength.checkout_env({"PATH": os.environ.get("PATH", "")}, root=snap)
    for argv in (["-c", "import canter; print(canter.BUILD, canter.__file__)"],
                 ["-m", "canter"]):
        if argv[0] == "-m":
            (snap / "canter" / "__main__.py").write_text(
                "import canter; print(canter.BUILD, canter.__file__)\n")
        done = subprocess.run([sys.executable, *argv], cwd=tree, env=env,
                              capture_output=True, text=True, timeout=30)
        assert done.stdout.split() == ["first", str(snap / "canter" / "__init__.py")], (
            done.stdout + done.stderr)


def test_scratch_folders_of_runs_killed_outright_are_swept_and_no_other(tmp_path) -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # a process number no process has now
    folders = {}
    for name, owner in [("dead", str(gone.pid)), ("alive", str(os.getpid())),
                        ("garbled", "not a number"), ("unowned", None)]:
        folder = tmp_path / (strength.SCRATCH_PREFIX + name)
        (folder / "new" / "canter").mkdir(parents=True)
        if owner is not None:
            (folder / strength.OWNER_FILE).write_text(owner)
        folders[name] = folder
    other = tmp_path / "something-else"
    other.mkdir()
    (other / strength.OWNER_FILE).write_text(str(gone.pid))
    assert strength.sweep_scratch(tmp_path) == [folders["dead"]]
    assert not folders["dead"].exists()
    assert all(folders[name].exists() for name in ("alive", "garbled", "unowned"))
    assert other.exists()


def test_depths_and_time_thought_per_engine_from_the_records(tmp_path) -> None:
    from canter.adapters.records.format import GameRecord, write_games

    one = GameRecord.new("camelot", ["new", "base"])
    one.add_move("D6-F8", text="book")  # a book move: no depth, left out
    one.add_move("H11-F9", score="+0.05", depth=2, time=0.4)
    one.add_move("C6-E8-G8", score="-0.10", depth=4, time=0.3)
    one.add_move("J11-H11", score="+0.10", depth=3, time=0.3)
    one.set_result("1-0")
    # Black first, from a set-up position: seat names are read from the tags, movers from
    # the position's turn.
    from canter.engine import Position, parse_move

    after = Position.start("camelot")
    after.push(parse_move(after, "D6-F8"))
    two = GameRecord.new("camelot", ["base", "new"], position=after.to_string())
    two.add_move("H11-F9", score="+0.00", depth=6, time=0.1)
    two.add_move("C6-E8-G8")
    two.set_result("0-1")
    path = tmp_path / "games.pgn"
    with open(path, "w", encoding="utf-8") as out:
        write_games([one, two], out)
    depths, clocks = strength.in_play(str(path))
    assert depths["new"] == (5.0, 2)  # C6-E8-G8 (4) and, as Black, H11-F9 (6)
    assert depths["base"] == (2.5, 2)  # H11-F9 (2) and J11-H11 (3)
    assert strength.depth_line(depths) == (
        "mean depth completed in play: base 2.50 over 2 moves; new 5.00 over 2 moves")
    # Seconds thought a game: new 0.3 and 0.1, base 0.7 and 0 (its move had no comment).
    assert clocks == {"new": (pytest.approx(0.2), 2), "base": (pytest.approx(0.35), 2)}
    assert strength.clock_line(clocks) == (
        "thought in a game (median over 2 games): base 0.35 s; new 0.20 s")
    # A file resumed with a smaller --games keeps games past it: the row leaves them out.
    one.tags["Round"], two.tags["Round"] = "1", "2"
    with open(path, "w", encoding="utf-8") as out:
        write_games([one, two], out)
    depths, _ = strength.in_play(str(path), games=1)
    assert depths == {"new": (4.0, 1), "base": (2.5, 2)}


# A Tri-Camelot game of the records in which Blue lost its last piece to Green's I10xG8
# (index 35) and the game went on between Red and Green.
TRI_OUT = ("D5-D7 C14-C10 J13-K12 E6-D5 B13-B9 I14-I10 G6-G2 C12-C8 H13-H11 F7-E6 C8-C12-E14 "
           "I10-H9 E4-G6 E14-C12-C8 K12-I10 F5-E4 B11-D9 I16-G14 D7xD11 "
           "B9-D7xD3xF5xH7xH3xF5xD7 H9-H7 D11xB9 D17-E16 I12-I8-G6 G2-H3 C8-C10 H7-F5 B9xD11 "
           "C16-E14-C12xE10 G6-H5 H3xH7 E10-D9 F5-F3 H7-H9 E16-F15 I10xG8 F15xH13xH9xF7 "
           "F3-F1").split()


def test_in_play_follows_the_turn_past_a_seat_that_is_out(tmp_path) -> None:
    from canter.adapters.records.format import GameRecord, write_games

    game = GameRecord.new("tri-camelot", ["blue", "red", "green"])
    # (depth, seconds) of the last eight moves; the ones before carry no comment.
    searched = {30: (2, 0.5), 31: (3, 1.0), 32: (6, 0.1), 33: (4, 0.25), 34: (5, 0.5),
                35: (2, 0.2), 36: (7, 0.25), 37: (4, 0.3)}
    for i, text in enumerate(TRI_OUT):
        if i in searched:
            depth, seconds = searched[i]
            game.add_move(text, score="+0.10", depth=depth, time=seconds)
        else:
            game.add_move(text)
    game.set_result("0-0-1")
    path = tmp_path / "tri.pgn"
    with open(path, "w", encoding="utf-8") as out:
        write_games([game], out)
    depths, clocks = strength.in_play(str(path))
    # Indexes 36 and 37 are Red's and Green's moves: Blue is out, so its turn is skipped.
    assert depths == {"blue": (3.0, 2), "red": (5.0, 3), "green": (4.0, 3)}
    assert clocks == {"blue": (pytest.approx(0.75), 1), "red": (pytest.approx(1.75), 1),
                      "green": (pytest.approx(0.6), 1)}
