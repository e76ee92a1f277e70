"""Team games in the arbiter (Grand Cam): four engines in the four seats with every
rotation, two engines playing a team each (--teams), team results and statistics, a crash
that makes the team forfeit, and records with the team tag and moves numbered by rounds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from canter.adapters.records.format import GameRecord, read_games_file, replay_game, write_game

ROOT = Path(__file__).resolve().parent.parent
BAD = ROOT / "tests" / "bad_engines" / "bad_engine.py"
CANTER = f"cmd={sys.executable} -m canter"


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "canter", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc


def by_round(path: Path) -> dict[int, GameRecord]:
    return {int(g.tags["Round"]): g for g in read_games_file(str(path))}


def test_four_engines_one_crashes_and_its_team_forfeits(tmp_path: Path) -> None:
    pgn, js = tmp_path / "g.pgn", tmp_path / "s.json"
    crasher = f"cmd={sys.executable} {BAD} --crash-at-go 2 name=crasher"
    proc = run("match", "--variant", "grand-cam", "--engine", f"{CANTER} name=a",
               "--engine", f"{CANTER} name=b", "--engine", f"{CANTER} name=c",
               "--engine", crasher, "--depth", "1", "--games", "4", "--openings", "none",
               "--pgn", str(pgn), "--json", str(js))
    games = by_round(pgn)
    assert sorted(games) == [1, 2, 3, 4]
    # The four rotations: the crasher sits in each seat once.
    seats = {games[n].players.index("crasher") for n in games}
    assert seats == {0, 1, 2, 3}
    for game in games.values():
        seat = game.players.index("crasher")
        names = ["red", "green", "blue", "yellow"]
        team = (seat % 2, seat % 2 + 2)  # Red+Blue or Green+Yellow
        assert game.tags["Termination"] == "crash"
        reason = game.tags["Reason"]
        assert f"{names[seat]} crashed while searching (exit code 7)" in reason
        assert reason.endswith(f"{names[team[0]]} and {names[team[1]]} forfeit")
        # The other team shares the point.
        assert game.result == ("0-1/2-0-1/2" if seat % 2 == 0 else "1/2-0-1/2-0")
        assert game.tags["Teams"] == "Red+Blue v Green+Yellow"
        # It crashed at its second go: one move of its own before.
        assert replay_game(game).error is None
    data = json.loads(js.read_text())
    points = {row["name"]: row["points"] for row in data["standings"]}
    # Rotations keep the partnerships (a+c against b+crasher), so b, the crasher's partner
    # in every game, loses all four with it.
    assert points == {"a": 4, "b": 0, "c": 4, "crasher": 0}
    assert data["teams"][0]["teams"] == [["a", "c"], ["b", "crasher"]]
    assert data["teams"][0]["wins"] == 4
    assert "a+c vs b+crasher: 4 - 0 - 0" in proc.stdout


def test_two_engines_play_a_team_each(tmp_path: Path) -> None:
    pgn, js = tmp_path / "g.pgn", tmp_path / "s.json"
    proc = run("match", "--variant", "grand-cam", "--teams",
               "--engine", f"{CANTER} name=alpha", "--engine", f"{CANTER} name=beta",
               "--depth", "1", "--rounds", "2", "--maxplies", "60",
               "--pgn", str(pgn), "--json", str(js))
    games = by_round(pgn)
    assert sorted(games) == [1, 2, 3, 4]
    for n, game in games.items():
        a, b = ("alpha", "beta") if n % 2 else ("beta", "alpha")
        assert game.players == [a, b, a, b]
        check = replay_game(game)
        assert check.error is None, check.error
        if game.tags["Termination"] == "normal":
            assert check.rules_result == game.result
    data = json.loads(js.read_text())
    (pairing,) = data["teams"]
    assert pairing["teams"] == [["alpha"], ["beta"]]
    assert pairing["wins"] + pairing["draws"] + pairing["losses"] == 4
    standings = {row["name"]: row for row in data["standings"]}
    assert standings["alpha"]["games"] == standings["beta"]["games"] == 4
    assert standings["alpha"]["points"] + standings["beta"]["points"] == 4
    assert "alpha vs beta:" in proc.stdout


def test_an_sprt_between_two_engines_playing_a_team_each(tmp_path: Path) -> None:
    js = tmp_path / "s.json"
    crasher = f"cmd={sys.executable} {BAD} --crash-at-go 3 name=crasher"
    # The crasher's team forfeits every game: each pair of games (the same opening, each
    # engine once on each team) is a double win of the first engine's team.
    proc = run("match", "--variant", "grand-cam", "--teams", "--engine", f"{CANTER} name=a",
               "--engine", crasher, "--depth", "1", "--games", "40", "--openings", "none",
               "--sprt", "elo0=0 elo1=100 alpha=0.1 beta=0.1", "--json", str(js))
    data = json.loads(js.read_text())
    assert data["stopped_by_sprt"] and data["sprt"]["decision"] == "H1"
    # ln(0.9/0.1) = 2.20 is crossed after 18 games, 9 pairs, not before (8 pairs: +1.98).
    assert data["games_played"] == 18 and data["sprt"]["llr"] >= 2.197
    (pairing,) = data["teams"]
    assert pairing["pentanomial"] == [0, 0, 0, 0, 9] and pairing["wins"] == 18
    assert "Pentanomial of a's team [LL, LD, DD+WL, WD, WW] over 9 pairs: [0, 0, 0, 0, 9]" \
        in proc.stdout
    assert "H1 accepted" in proc.stdout
    # The other way round the first engine's team loses every pair: H0.
    run("match", "--variant", "grand-cam", "--teams", "--engine", crasher,
        "--engine", f"{CANTER} name=a", "--depth", "1", "--games", "40", "--openings", "none",
        "--sprt", "elo0=0 elo1=100 alpha=0.1 beta=0.1", "--json", str(js))
    data = json.loads(js.read_text())
    assert data["sprt"]["decision"] == "H0" and data["games_played"] < 40
    assert data["teams"][0]["pentanomial"] == [data["games_played"] // 2, 0, 0, 0, 0]


def test_an_sprt_in_a_team_game_needs_two_engines_a_team_each() -> None:
    proc = subprocess.run([sys.executable, "-m", "canter", "match", "--variant", "grand-cam",
                           *[a for n in "abcd" for a in ("--engine", f"{CANTER} name={n}")],
                           "--depth", "1", "--sprt", "elo0=0 elo1=5"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 2
    assert "SPRT in a team game needs --teams and two engines (a team each)" in proc.stderr


def test_teams_needs_a_team_game_and_two_engines() -> None:
    proc = subprocess.run([sys.executable, "-m", "canter", "match", "--teams", "--engine",
                           CANTER, "--engine", CANTER, "--depth", "1"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode != 0 and "--teams is for team games (grand-cam)" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "canter", "match", "--variant", "grand-cam",
                           "--teams", "--engine", CANTER, "--depth", "1"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode != 0 and "needs 2 --engine options (one per team" in proc.stderr


def test_a_record_numbers_rounds_in_seat_order_and_skips_the_eliminated() -> None:
    # Red takes Green's last piece at once: from then on a round is Red, Blue, Yellow.
    start = "grand-cam 1/3/7/9/9/11/10y2/3g7/b1r6/4r4/7/3/1 r 0,0,0,0 - - 0 0"
    game = GameRecord.new("grand-cam", ["a", "b", "c", "d"], position=start)
    for move in ("E5xE7", "C5-C4", "K7-K6", "E7-E8", "C4-C5", "K6-K7"):
        game.add_move(move)
    text = write_game(game)
    assert "1. E5xE7 C5-C4 K7-K6 2. E7-E8 C4-C5 K6-K7 *" in text
    assert '[Teams "Red+Blue v Green+Yellow"]' in text
    # From the start, four moves a round.
    game = GameRecord.new("grand-cam", ["a", "b", "c", "d"])
    for move in ("G3-G5", "G11-G9", "C7-E7", "K7-I7", "F2-F4"):
        game.add_move(move)
    assert "1. G3-G5 G11-G9 C7-E7 K7-I7 2. F2-F4 *" in write_game(game)


def test_a_record_may_mark_a_skipped_seat() -> None:
    from canter.adapters.records.format import read_games

    start = "grand-cam 1/3/7/9/9/11/10y2/3g7/b1r6/4r4/7/3/1 r 0,0,0,0 - - 0 0"
    text = (f'[Variant "Grand Cam"]\n[SetUp "1"]\n[Position "{start}"]\n\n'
            "1. E5xE7 -- C5-C4 K7-K6 2. E7-E8 -- C4-C5 *\n")
    (game,) = read_games(text)
    assert game.moves == ["E5xE7", "C5-C4", "K7-K6", "E7-E8", "C4-C5"]
    assert replay_game(game).error is None


def test_terminal_play_of_four_engine_seats_saves_a_team_record(tmp_path: Path) -> None:
    out = tmp_path / "game.cgr"
    proc = subprocess.run([sys.executable, "-m", "canter", "play", "--variant", "grand-cam",
                           "--human", "none", "--depth", "1", "--no-color", "--save", str(out)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    (game,) = read_games_file(str(out))
    assert len(set(game.players)) == 1  # one engine in every seat
    assert game.tags["Teams"] == "Red+Blue v Green+Yellow"
    check = replay_game(game)
    assert check.error is None and check.rules_result == game.result
    assert game.result in ("1/2-0-1/2-0", "0-1/2-0-1/2", "1/4-1/4-1/4-1/4")
    assert "game over: " in proc.stdout


def test_an_eliminated_seats_clock_stands_still() -> None:
    # Red takes Green's only piece at once; the others play on with clocks, Green never.
    start = "grand-cam 1/3/7/9/9/11/10y2/3g7/b1r6/4r4/7/3/1 r 0,0,0,0 - - 0 0"
    proc = subprocess.run([sys.executable, "-m", "canter", "play", "--position", start,
                           "--human", "none", "--depth", "1", "--clock", "1+0", "--no-color"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    assert "red plays E5xE7" in proc.stdout
    assert "green plays" not in proc.stdout and "green is thinking" not in proc.stdout
    assert "blue plays" in proc.stdout and "yellow plays" in proc.stdout
    last = [line for line in proc.stdout.splitlines() if line.startswith("clocks: ")][-1]
    assert "green 1:00" in last
