"""End-to-end tests of `canter match` / `canter tournament` through real processes: canter
against itself (two and three seats), misbehaving engines (tests/bad_engines), SPRT
stopping, and a run killed mid-way and resumed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from canter.adapters.records.format import read_games_file, replay_game

ROOT = Path(__file__).resolve().parent.parent
BAD = ROOT / "tests" / "bad_engines" / "bad_engine.py"
FAKE = ROOT / "tests" / "fake_engines" / "scripted.py"
CANTER = f"cmd={sys.executable} -m canter"


def bad(*args: str, name: str) -> str:
    return f"cmd={sys.executable} {BAD} {' '.join(args)} name={name}"


def run(*args: str, timeout: float = 60, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [sys.executable, "-m", "canter", *args],
        capture_output=True, text=True, timeout=timeout, cwd=ROOT,
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


def by_round(path: Path) -> dict[int, object]:
    games = read_games_file(str(path))
    rounds = [int(g.tags["Round"]) for g in games]
    assert len(rounds) == len(set(rounds)), f"a game is written twice: {sorted(rounds)}"
    return {int(g.tags["Round"]): g for g in games}


def test_engines_are_sent_quit_at_the_end_of_a_run(tmp_path: Path) -> None:
    # They were killed at every end of a run, finished or not: an engine that saves
    # something on `quit` (a log, learning) lost it.
    notes = [tmp_path / "a.txt", tmp_path / "b.txt"]
    run("match", "--games", "2", "--depth", "1", "--maxplies", "6",
        *(arg for note, name in zip(notes, "ab", strict=True) for arg in (
            "--engine", f"cmd={sys.executable} {FAKE} --note-quit {note} name={name}")))
    for note in notes:
        assert note.read_text().startswith("quit "), note.name


def test_canter_against_itself_two_seats(tmp_path: Path) -> None:
    pgn, js = tmp_path / "g.pgn", tmp_path / "s.json"
    proc = run("match", "--engine", CANTER, "--engine", CANTER, "--games", "4",
               "--depth", "1", "--maxplies", "30", "--concurrency", "2",
               "--pgn", str(pgn), "--json", str(js))
    assert "Score of canter vs canter-2" in proc.stdout
    games = by_round(pgn)
    assert sorted(games) == [1, 2, 3, 4]
    for number, game in games.items():
        # colours swap within each pair
        expected = ["canter", "canter-2"] if number % 2 else ["canter-2", "canter"]
        assert game.players == expected
        check = replay_game(game)
        assert check.error is None, check.error
        if game.tags["Termination"] == "normal":
            assert check.rules_result == game.result
        else:
            assert game.tags["Termination"] == "max plies"
            assert len(game.moves) == 30 and game.result == "1/2-1/2"
    data = json.loads(js.read_text())
    assert data["games_played"] == 4
    pair = data["pairs"][0]
    assert pair["wins"] + pair["draws"] + pair["losses"] == 4
    assert sum(pair["pentanomial"]) == 2


def test_canter_against_itself_three_seats(tmp_path: Path) -> None:
    pgn, js = tmp_path / "g.pgn", tmp_path / "s.json"
    proc = run("match", "--variant", "tri-camelot", "--engine", CANTER, "--engine", CANTER,
               "--engine", CANTER, "--games", "3", "--depth", "1", "--maxplies", "24",
               "--concurrency", "2", "--pgn", str(pgn), "--json", str(js))
    assert "Finished ahead of" in proc.stdout
    games = by_round(pgn)
    names = ["canter", "canter-2", "canter-3"]
    assert [games[n].players for n in (1, 2, 3)] == [names, names[1:] + names[:1],
                                                     names[2:] + names[:2]]
    for game in games.values():
        assert replay_game(game).error is None
        assert game.variant == "tri-camelot" and "Ranking" in game.tags
    data = json.loads(js.read_text())
    assert sum(s["games"] for s in data["standings"]) == 9
    assert sum(s["points"] for s in data["standings"]) == pytest.approx(3.0)
    # a match: the first engine is the one tested
    assert "Pairwise score of canter against the others" in proc.stdout
    assert data["pairwise_score"]["player"] == "canter"


def test_a_three_engine_tri_camelot_tournament_tests_no_first_engine(tmp_path: Path) -> None:
    js = tmp_path / "s.json"
    proc = run("tournament", "--variant", "tri-camelot", "--engine", CANTER, "--engine",
               CANTER, "--engine", CANTER, "--depth", "1", "--maxplies", "12", "--json",
               str(js), "--concurrency", "2")
    data = json.loads(js.read_text())
    assert data["games_played"] >= 3
    assert "pairwise" not in proc.stdout.lower()
    assert "pairwise_score" not in data


@pytest.mark.parametrize("variant, tag", [("cam", "Cam"), ("camette", "Camette"),
                                          ("chivalry", "Chivalry")])
def test_canter_against_itself_in_each_two_player_game(tmp_path: Path, variant: str,
                                                        tag: str) -> None:
    from canter.adapters.arbiter.openings import load_book

    pgn = tmp_path / "g.pgn"
    proc = run("match", "--variant", variant, "--engine", CANTER, "--engine", CANTER,
               "--games", "2", "--depth", "1", "--maxplies", "40", "--concurrency", "1",
               "--pgn", str(pgn))
    assert "Score of canter vs canter-2" in proc.stdout
    games = by_round(pgn)
    first = load_book(variant)[0]
    for game in games.values():
        assert game.tags["Variant"] == tag and game.variant == variant
        # Both games of the pair start from the book's first opening.
        assert tuple(game.moves[:len(first.moves)]) == first.moves
        check = replay_game(game)
        assert check.error is None, check.error
        if game.tags["Termination"] == "normal":
            assert check.rules_result == game.result
        else:
            assert game.tags["Termination"] == "max plies" and len(game.moves) == 40


def test_an_engine_that_prints_without_end_loses_on_time_and_the_match_goes_on(
        tmp_path: Path) -> None:
    pgn = tmp_path / "g.pgn"
    proc = run("match", "--engine", f"{CANTER} depth=1",
               "--engine", bad("--flood-at-go", "2", name="flooder"),
               "--st", "0.25", "--timemargin", "100", "--games", "2", "--concurrency", "1",
               "--maxplies", "12", "--openings", "none", "--pgn", str(pgn), timeout=60)
    games = by_round(pgn)
    assert sorted(games) == [1, 2], proc.stdout
    for game in games.values():
        assert game.tags["Termination"] == "time forfeit", game.tags
        assert "no bestmove after" in game.tags["Reason"]
        assert game.result == ("1-0" if game.players[0] == "canter" else "0-1")


def test_misbehaving_engines_each_lose_with_the_right_reason(tmp_path: Path) -> None:
    pgn = tmp_path / "g.pgn"
    engines = [
        f"{CANTER} depth=1",
        bad("--crash-at-go", "3", name="crasher"),
        bad("--hang-at-isready", "2", name="sleeper"),
        bad("--illegal-at-go", "2", name="cheat"),
        bad("--slow-at-go", "2", "--delay", "0.6", name="slow"),
        bad("--garbage-at-go", "2", name="noisy"),
        bad("--hang-at-go", "2", name="hanger"),
    ]
    args = ["tournament", "--format", "gauntlet", "--st", "0.25", "--timemargin", "100",
            "--maxplies", "12", "--ready-timeout", "1", "--concurrency", "2",
            "--openings", "none", "--pgn", str(pgn)]  # move counts below are from the start
    for e in engines:
        args += ["--engine", e]
    proc = run(*args, timeout=80)
    games = by_round(pgn)
    assert sorted(games) == list(range(1, 13)), proc.stdout  # the run went on to the end
    faults = {}
    for game in games.values():
        bad_seat = 1 if game.players[0] == "canter" else 0
        name = game.players[bad_seat]
        canter_wins = "1-0" if bad_seat == 1 else "0-1"
        faults.setdefault(name, []).append((game, canter_wins))
    reasons = {
        "crasher": ("crash", "crashed while searching (exit code 7)"),
        "cheat": ("illegal move", "played an illegal move"),
        "slow": ("time forfeit", "took "),  # (its overrun is checked below)
        "noisy": ("protocol error", "???garbage???"),
        "hanger": ("time forfeit", "no bestmove after"),
    }
    for name, (termination, text) in reasons.items():
        for game, canter_wins in faults[name]:
            assert game.tags["Termination"] == termination, (name, game.tags)
            assert text in game.tags["Reason"], (name, game.tags["Reason"])
            assert game.result == canter_wins
    # the crasher was restarted: in each game it made two moves before crashing on its 3rd
    for game, _ in faults["crasher"]:
        assert len(game.moves) in (4, 5)
    # the sleeper answers isready once (the first game), then stalls
    sleeper = sorted(faults["sleeper"], key=lambda g: int(g[0].tags["Round"]))
    assert sleeper[0][0].tags["Termination"] in ("max plies", "normal")
    assert sleeper[1][0].tags["Termination"] == "stall"
    assert "no readyok within 1.000 s" in sleeper[1][0].tags["Reason"]
    # the slow engine's overrun is reported: took ~0.6 s with 0.25 s allowed
    reason = faults["slow"][0][0].tags["Reason"]
    over = float(reason.split("over by ")[1].split(" s")[0])
    assert 0.3 <= over < 1.5  # (slept 0.6 s; a loaded machine answers later)
    assert "Rank" in proc.stdout and "Pairwise scores" in proc.stdout


def test_three_seat_fault_ranks_the_faulting_seat_last(tmp_path: Path) -> None:
    pgn = tmp_path / "g.pgn"
    run("match", "--variant", "tri-camelot", "--engine", CANTER, "--engine", CANTER,
        "--engine", bad("--illegal-at-go", "2", name="cheat"), "--games", "3",
        "--depth", "1", "--maxplies", "15", "--pgn", str(pgn))
    for game in by_round(pgn).values():
        seat = game.players.index("cheat")
        assert game.tags["Termination"] == "illegal move"
        points = ["1/2"] * 3
        points[seat] = "0"
        assert game.result == "-".join(points)
        assert game.tags["Ranking"].endswith(f"> {game.seat_tags[seat].lower()}")


def test_three_seat_resign_adjudication(tmp_path: Path) -> None:
    pgn = tmp_path / "g.pgn"
    run("match", "--variant", "tri-camelot", "--engine", CANTER, "--engine", CANTER,
        "--engine", bad("--score", "-3000", name="gloomy"), "--games", "3", "--depth", "1",
        "--maxplies", "30", "--resign", "movecount=2 score=2000", "--concurrency", "3",
        "--openings", "none", "--pgn", str(pgn))  # the ply count below is from the start
    for game in by_round(pgn).values():
        seat = game.players.index("gloomy")
        assert game.tags["Termination"] == "adjudication", game.tags
        assert game.tags["Reason"].startswith(f"{game.seat_tags[seat].lower()} resigns")
        # gloomy resigned after its second move: the game ended on that ply
        assert len(game.moves) == 2 * 3 - 2 + seat
        points = ["1/2"] * 3
        points[seat] = "0"
        assert game.result == "-".join(points)
        assert game.tags["Ranking"].endswith(f"> {game.seat_tags[seat].lower()}")


def stopped_by_h1(js: Path, games: int, stdout: str) -> dict:
    """The run's JSON summary, checked: the SPRT accepted H1 before all `games` were played."""
    data = json.loads(js.read_text())
    assert data["stopped_by_sprt"] is True
    assert data["sprt"]["decision"] == "H1"
    assert data["sprt"]["llr"] >= data["sprt"]["upper"]
    assert data["games_played"] < games
    assert "H1 accepted" in stdout
    return data


def test_sprt_stops_the_match(tmp_path: Path) -> None:
    openings = tmp_path / "openings.txt"
    openings.write_text("# first moves\nC6-B5\nC6-C7\nD6-D8\nE6-E8\nF6-F8\nG6-G8\n"
                        "H6-H8\nI6-I8\n")
    js = tmp_path / "s.json"
    proc = run("match", "--engine", f"{CANTER}",
               "--engine", bad("--illegal-chance", "0.5", name="rnd"),
               "--games", "40", "--depth", "1", "--maxplies", "9", "--openings", str(openings),
               "--sprt", "elo0=0 elo1=150 alpha=0.05 beta=0.05", "--json", str(js))
    stopped_by_h1(js, 40, proc.stdout)


def test_a_three_seat_sprt_stops_the_match(tmp_path: Path) -> None:
    # canter against two engines that play their first legal move: its pairwise score
    # decides H1 long before the 60 games.
    js = tmp_path / "s.json"
    proc = run("match", "--variant", "tri-camelot", "--engine", f"{CANTER} name=canter",
               "--engine", bad(name="first1"), "--engine", bad(name="first2"),
               "--games", "60", "--depth", "2", "--maxplies", "150",
               "--sprt", "elo0=0 elo1=150", "--json", str(js))
    data = stopped_by_h1(js, 60, proc.stdout)
    assert data["pairwise_score"]["player"] == "canter"
    assert data["pairwise_score"]["games"] == data["games_played"]
    assert "Pairwise score of canter against the others" in proc.stdout
    # every game's progress line shows the score the SPRT runs on, and its LLR
    progress = [line for line in proc.stdout.splitlines() if line.startswith("[")]
    assert len(progress) == data["games_played"]
    assert all("; pairwise canter " in line and ", LLR " in line for line in progress)


def _kill_when(path: Path, games: int, proc: subprocess.Popen, sig: int) -> None:
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().count("[Event ") >= games:
            proc.send_signal(sig)
            return
        if proc.poll() is not None:
            raise AssertionError("the match ended before it could be interrupted")
        time.sleep(0.05)
    proc.kill()
    raise AssertionError("no games were written")


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT, signal.SIGHUP])
def test_interrupted_match_resumes_without_loss_or_repeat(tmp_path: Path, sig: int) -> None:
    pgn = tmp_path / "g.pgn"
    args = ["match", "--engine", CANTER, "--engine", CANTER, "--games", "6", "--depth", "1",
            "--maxplies", "16", "--pgn", str(pgn)]
    proc = subprocess.Popen([sys.executable, "-m", "canter", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _kill_when(pgn, 2, proc, sig)
    out, _ = proc.communicate(timeout=30)
    if sig != signal.SIGKILL:  # (a hangup stops the run as Ctrl-C does: it was exit 129)
        assert proc.returncode == 130
        assert "run the same command to resume" in out
    before = by_round(pgn)
    assert 2 <= len(before) < 6
    # a writer killed in mid-game leaves a cut-off record: set aside and replayed
    with open(pgn, "a") as f:
        f.write('[Event "canter match"]\n[Site "?"]\n[Round "99"]\n\n1. C6-B5 D')
    proc2 = run(*args)
    assert f"Resuming: {len(before)} of 6" in proc2.stdout
    assert f"Set aside a cut-off game at the end of {pgn} (" in proc2.stdout
    after = by_round(pgn)
    assert sorted(after) == list(range(1, 7))
    for number, game in before.items():  # nothing rewritten
        assert after[number].moves == game.moves
    assert "Games played: 6 of 6" in proc2.stdout
    # a third run finds everything done
    proc3 = run(*args)
    assert "Resuming: 6 of 6" in proc3.stdout
    assert len(by_round(pgn)) == 6


def test_a_ctrl_c_in_the_terminal_stops_the_match_in_order(tmp_path: Path) -> None:
    # A terminal's Ctrl-C signals its whole process group. The engines run in sessions of
    # their own, so none dies of it and is charged with a crash; the arbiter stops in its
    # own time, and its summary counts exactly the games of its record file.
    pgn, js = tmp_path / "g.pgn", tmp_path / "s.json"
    args = ["match", "--engine", CANTER, "--engine", CANTER, "--games", "16", "--depth", "2",
            "--maxplies", "24", "--concurrency", "2", "--pgn", str(pgn), "--json", str(js)]
    proc = subprocess.Popen([sys.executable, "-m", "canter", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + 40
    while not (pgn.exists() and pgn.read_text().count("[Event ") >= 2):
        assert proc.poll() is None and time.monotonic() < deadline, "no games were written"
        time.sleep(0.05)
    time.sleep(0.3)  # into the next games' moves
    os.killpg(proc.pid, signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 130
    games = read_games_file(str(pgn))
    assert 2 <= len(games) < 16
    assert all(g.tags.get("Termination") != "crash" for g in games), [
        g.tags.get("Reason") for g in games]
    assert json.loads(js.read_text())["games_played"] == len(games)


def test_resume_refuses_a_file_of_another_run(tmp_path: Path) -> None:
    pgn = tmp_path / "g.pgn"
    run("match", "--engine", CANTER, "--engine", CANTER, "--games", "1", "--depth", "1",
        "--maxplies", "4", "--pgn", str(pgn))
    proc = run("match", "--engine", f"{CANTER} name=alpha", "--engine", CANTER, "--games", "2",
               "--depth", "1", "--maxplies", "4", "--pgn", str(pgn), check=False)
    assert proc.returncode != 0
    assert "use another output file" in proc.stderr


def test_resume_checks_openings_seed_and_engines(tmp_path: Path) -> None:
    pgn, book = tmp_path / "g.pgn", tmp_path / "o.txt"
    book.write_text("C6-B5\nC6-C7\nD6-D8\nE6-E8\n")
    base = ["match", "--engine", CANTER, "--engine", CANTER, "--depth", "1",
            "--maxplies", "3", "--openings", str(book), "--pgn", str(pgn)]
    random_order = ["--opening-order", "random"]
    run(*base, *random_order, "--seed", "5", "--games", "2")
    assert all(g.tags["Schedule"] for g in by_round(pgn).values())
    before = pgn.read_text()

    def refused(*args: str) -> str:
        proc = run(*args, check=False)
        assert proc.returncode == 1, proc.stdout
        assert pgn.read_text() == before  # nothing played, nothing lost
        return proc.stderr

    # another seed: another schedule, even where it happens to pick the same opening
    err = refused(*base, *random_order, "--seed", "6", "--games", "2")
    assert "game 1" in err and "use another output file" in err
    # the openings file changed under the run
    book.write_text("D6-D8\nC6-B5\nC6-C7\nE6-E8\n")
    err = refused(*base, *random_order, "--seed", "5", "--games", "2")
    assert "started from startpos" in err and "--openings" in err
    book.write_text("C6-B5\nC6-C7\nD6-D8\nE6-E8\n")
    # the engines' limits changed
    err = refused(*[a if a != "1" else "2" for a in base], *random_order, "--seed", "5",
                  "--games", "2")
    assert "belongs to another run" in err and "limits" in err
    # another adjudication decides games differently; another event names them differently
    err = refused(*[a if a != "3" else "5" for a in base], *random_order, "--seed", "5",
                  "--games", "2")
    assert "belongs to another run" in err and "adjudication" in err
    err = refused(*base, *random_order, "--seed", "5", "--games", "2", "--event", "cup")
    assert "belongs to another run" in err and "--event" in err
    # the same run with more games extends it
    proc = run(*base, *random_order, "--seed", "5", "--games", "4")
    assert "Resuming: 2 of 4" in proc.stdout
    assert sorted(by_round(pgn)) == [1, 2, 3, 4]


def test_engine_io_log(tmp_path: Path) -> None:
    pgn, log = tmp_path / "g.pgn", tmp_path / "io.log"
    run("match", "--engine", CANTER,
        "--engine", f"cmd={sys.executable} {FAKE} --stderr warming-up name=fake",
        "--games", "2", "--depth", "1", "--maxplies", "5", "--pgn", str(pgn),
        "--log", str(log), "--openings", "none")  # one go per move, no book moves
    lines = log.read_text().splitlines()
    fields = [line.split(" ", 6) for line in lines]
    assert all(len(f) == 7 and f[2] == "game" and f[5] in "<>!" for f in fields), lines[:5]
    # the start-up chatter on stderr: read by a thread of its own, so it is labelled with
    # the start-up check ("-") or, read a moment later, with the first game
    assert [f[3:] for f in fields if f[6] == "warming-up"] in (
        [["-", "fake", "!", "warming-up"]], [["1", "fake", "!", "warming-up"]])
    assert ["-", "canter", ">", "uci"] == fields[0][3:]
    for number, game in by_round(pgn).items():
        for seat, name in enumerate(game.players):
            gos = [f for f in fields if f[3:6] == [str(number), name, ">"]
                   and f[6].startswith("go ")]
            best = [f for f in fields if f[3:6] == [str(number), name, "<"]
                    and f[6].startswith("bestmove ")]
            assert len(gos) == len(best) == len(game.moves[seat::2]), (number, name)
            # the moves of the record are the engine's answers, in order
            assert [f[6].split()[1] for f in best] == game.moves[seat::2]
    times = [f[0] + " " + f[1] for f in fields]
    assert times == sorted(times)  # one game at a time: in time order


@pytest.mark.skipif(os.name != "posix", reason="pseudo-terminal")
def test_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    import pexpect

    pgn = tmp_path / "g.pgn"
    child = pexpect.spawn(
        sys.executable,
        ["-m", "canter", "match", "--engine", CANTER, "--engine",
         bad("--illegal-at-go", "2", name="cheat"), "--games", "4", "--depth", "1",
         "--maxplies", "3", "--openings", "none", "--pgn", str(pgn)],
        cwd=str(ROOT), encoding="utf-8", timeout=60, dimensions=(24, 120))
    child.expect(pexpect.EOF)
    out = child.before
    child.close()
    assert child.exitstatus == 0, out
    draws = out.split("\r\x1b[2K")
    bars = [d for d in draws if d[:2] in ("[#", "[-")]
    # redrawn in place after each game (and while games play), ending at 4 of 4
    for done in range(1, 5):
        assert any(f"] {done}/4 | canter " in b for b in bars), bars
    # cheat's second move is illegal as White (ply 3); as Black the game is drawn first
    assert "] 4/4 | canter 2-0-2 [0.750]" in bars[-1] and "0:00 left" in bars[-1]
    assert all(len(b.split("\r")[0].split("\n")[0]) < 120 for b in bars)
    # each fault is printed as a line of its own above the bar; no per-game lines else
    faults = [line for line in out.splitlines() if "(illegal move:" in line]
    assert [line.split("\x1b[2K")[-1][:12] for line in faults] == ["[2/4] game 2",
                                                                    "[4/4] game 4"]
    assert "] game 1 " not in out and "] game 3 " not in out
    assert "Score of canter vs cheat: 2 - 0 - 2" in out


def test_bad_command_lines_are_refused_before_any_game(tmp_path: Path) -> None:
    proc = run("match", "--engine", CANTER, "--games", "2", "--depth", "1", check=False)
    assert proc.returncode == 2 and "needs 2 --engine" in proc.stderr
    proc = run("match", "--engine", CANTER, "--engine", CANTER, check=False)
    assert proc.returncode == 2 and "has no limit" in proc.stderr
    proc = run("match", "--engine", CANTER, "--engine", CANTER, "--tc", "inf", check=False)
    assert proc.returncode == 2 and "--tc inf sets no clock, so give --st" in proc.stderr
    proc = run("match", "--engine", f"{CANTER} option.NoSuch=1", "--engine", CANTER,
               "--depth", "1", check=False)
    assert proc.returncode == 1 and "NoSuch" in proc.stderr
    proc = run("match", "--engine", "cmd=/no/such/engine", "--engine", CANTER, "--depth", "1",
               check=False)
    assert proc.returncode == 1, proc.stderr
    assert ("engine engine (/no/such/engine) could not be started: No such file or directory"
            in proc.stderr), proc.stderr
    assert "exit code None" not in proc.stderr
    bad_openings = tmp_path / "o.txt"
    bad_openings.write_text("C6-B5\nC6-Z9\n")
    proc = run("match", "--engine", CANTER, "--engine", CANTER, "--depth", "1",
               "--openings", str(bad_openings), check=False)
    assert proc.returncode == 2 and "line 2" in proc.stderr


@pytest.mark.skipif(os.name != "posix", reason="signals")
def test_tournament_round_robin_two_seats(tmp_path: Path) -> None:
    js = tmp_path / "s.json"
    run("tournament", "--engine", CANTER, "--engine", CANTER, "--engine", CANTER,
        "--depth", "1", "--maxplies", "8", "--json", str(js), "--concurrency", "2")
    data = json.loads(js.read_text())
    assert data["games_played"] == 6  # 3 pairs x both colours
    assert {tuple(p["players"]) for p in data["pairs"]} == {
        ("canter", "canter-2"), ("canter", "canter-3"), ("canter-2", "canter-3")}
    assert all(s["wins"] + s["draws"] + s["losses"] == 4 for s in data["standings"])


def test_a_closed_standard_output_only_silences_the_progress_lines(tmp_path: Path) -> None:
    """`canter match ... | head -1`: the reader goes away after the first line, and the
    run still plays every game and writes its records and summary."""
    pgn, summary = tmp_path / "g.pgn", tmp_path / "s.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "canter", "match", "--engine", CANTER, "--engine",
         f"{CANTER} name=b", "--games", "4", "--depth", "1", "--pgn", str(pgn),
         "--json", str(summary)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(b"canter match: camelot")
    proc.stdout.close()  # as `head -1` does
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0, err
    assert "standard output was closed; the run goes on" in err
    assert "Traceback" not in err and "Exception ignored" not in err
    assert len(read_games_file(str(pgn))) == 4
    assert json.loads(summary.read_text())["games_played"] == 4


def test_a_run_started_with_standard_output_closed_plays_its_games(tmp_path: Path) -> None:
    """`canter match ... >&-`: no stream for the progress lines (or for the engines'
    pipes, which want one); the games are played and recorded all the same."""
    pgn = tmp_path / "g.pgn"
    command = " ".join([sys.executable, "-m", "canter", "match", "--engine",
                        f"'{CANTER}'", "--engine", f"'{CANTER} name=b'", "--games", "2",
                        "--depth", "1", "--pgn", str(pgn)])
    done = subprocess.run(["sh", "-c", f"exec {command} >&-"], capture_output=False,
                          stderr=subprocess.PIPE, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert len(read_games_file(str(pgn))) == 2
