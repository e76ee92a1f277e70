"""Unit tests of the arbiter's parts: time controls and clocks, engine specs, openings,
the schedule, the results file (cut-off tail), adjudication and the tally."""

from __future__ import annotations

import errno
import io
import json
import os
from pathlib import Path

import pytest

from canter.adapters.arbiter.engines import EngineSpec, parse_engine_spec, unique_names
from canter.adapters.arbiter.game import Adjudication, _adjudicate
from canter.adapters.arbiter.openings import opening_order, parse_openings
from canter.adapters.arbiter.results import ResultsFile, Tally, ranking_of
from canter.adapters.arbiter.schedule import Job, build_schedule, gauntlet, round_robin
from canter.adapters.arbiter.tc import Clocks, TimeControl
from canter.adapters.records.format import GameRecord, write_game


def test_time_control_forms() -> None:
    tc = TimeControl.parse("40/60+0.5")
    assert (tc.moves, tc.time, tc.inc) == (40, 60.0, 0.5)
    assert TimeControl.parse("1:30+1").time == 90.0
    assert TimeControl.parse("inf").time is None
    assert TimeControl.parse("10").text() == "10"
    assert tc.with_limits(depth=3).text() == "40/60+0.5 depth=3"
    for bad in ("40/", "0/10", "x+1", "10+", "-5"):
        with pytest.raises(ValueError):
            TimeControl.parse(bad)
    # m:ss means seconds below 60; a clock beyond 1,000,000 s leaves 64 bits of
    # milliseconds (or is inf) and no engine could be told it.
    for bad, needle in (("1:99", "below 60"), ("9" * 20, "at most"), ("10+" + "9" * 400,
                                                                       "at most")):
        with pytest.raises(ValueError, match=needle):
            TimeControl.parse(bad)


def test_openings_move_lists_copied_from_records_read_as_moves() -> None:
    from canter.engine import Position

    text = ("1. D6-F8 H11-F9 *\n"  # a result token copied along: no move
            "C6-B5  # a comment after the moves\n"
            f"{Position.start('camelot').to_string()} moves 1. D6-F8\n")
    assert [o.moves for o in parse_openings(text, "camelot")] == [
        ("D6-F8", "H11-F9"), ("C6-B5",), ("D6-F8",)]
    # Records after an escape line are records still.
    records = '% made by hand\n[Variant "Camelot"]\n\n1. D6-F8 *\n'
    assert [o.moves for o in parse_openings(records, "camelot")] == [("D6-F8",)]


def test_an_openings_file_may_start_with_a_byte_order_mark(tmp_path) -> None:
    from canter.adapters.arbiter.openings import load_openings

    path = tmp_path / "o.txt"
    path.write_bytes("\ufeffC6-B5\nD6-D8\n".encode())
    assert [o.moves for o in load_openings(str(path), "camelot")] == [("C6-B5",), ("D6-D8",)]


def test_clocks_charge_increment_and_periods() -> None:
    clocks = Clocks([TimeControl.parse("2/10+1"), TimeControl(depth=3)])
    limit = clocks.limit(0)
    assert limit.go_arguments() == ["wtime", "10000", "btime", "86400000", "winc", "1000",
                                    "binc", "0", "movestogo", "2"]
    clocks.charge(0, 4.0)  # 10 - 4 + 1
    assert clocks.left[0] == pytest.approx(7.0)
    assert clocks.limit(0).movestogo == 1
    clocks.charge(0, 2.0)  # 7 - 2 + 1, then the next period's 10
    assert clocks.left[0] == pytest.approx(16.0)
    assert clocks.allowed(0) == pytest.approx(16.0)
    assert clocks.allowed(1) is None
    assert clocks.limit(1).go_arguments() == ["depth", "3"]


def test_engine_spec_fields() -> None:
    spec = parse_engine_spec("cmd=python -m canter name=alpha dir=/tmp option.Hash=16 "
                             "'option.Move Overhead=50' tc=10+1 st=0.5 depth=4 timemargin=20")
    assert spec.command == ["python", "-m", "canter"]
    assert (spec.name, spec.cwd, spec.tc, spec.movetime, spec.depth) == (
        "alpha", "/tmp", "10+1", 0.5, 4)
    assert spec.options == {"Hash": "16", "Move Overhead": "50"}
    assert spec.timemargin == pytest.approx(0.02)
    assert parse_engine_spec("./engine --flag=x").command == ["./engine", "--flag=x"]
    assert parse_engine_spec('cmd="my engine" arg=--fast').command == ["my", "engine", "--fast"]
    control = parse_engine_spec("cmd=x tc=5+0.1").control(TimeControl(depth=2))
    assert control.text() == "5+0.1 depth=2"
    # an engine's own time control replaces the match's, clock and move time alike
    match = TimeControl(time=10.0, inc=0.1, movetime=0.5, depth=3)
    assert parse_engine_spec("cmd=x tc=5+0.1").control(match).text() == "5+0.1 depth=3"
    assert parse_engine_spec("cmd=x st=2").control(match).text() == "st=2 depth=3"
    assert parse_engine_spec("cmd=x depth=5").control(match).text() == "10+0.1 st=0.5 depth=5"
    for bad in ("name=x", "cmd=x depth=0", "cmd=x tc=zz", "cmd=x name=a name=b", ""):
        with pytest.raises(ValueError):
            parse_engine_spec(bad)


def test_unique_names() -> None:
    specs = [EngineSpec(["python", "-m", "canter"]), EngineSpec(["python", "-m", "canter"]),
             EngineSpec(["/opt/bin/other"])]
    unique_names(specs)
    assert [s.name for s in specs] == ["canter", "canter-2", "other"]


def test_schedule_two_seats_swaps_colours_per_opening() -> None:
    jobs = build_schedule(round_robin(2, 2), 5, openings=2)
    assert [(j.number, j.players, j.opening, j.block) for j in jobs] == [
        (1, (0, 1), 0, 0), (2, (1, 0), 0, 0), (3, (0, 1), 1, 1), (4, (1, 0), 1, 1),
        (5, (0, 1), 0, 2)]


def test_schedule_three_seats_and_tournaments() -> None:
    jobs = build_schedule(round_robin(3, 3), 3, openings=1)
    assert [j.players for j in jobs] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert len(build_schedule(round_robin(3, 3), 6, 1, all_orders=True)) == 6
    assert {j.players for j in build_schedule(round_robin(3, 3), 6, 1, all_orders=True)} == {
        (0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)}
    assert round_robin(4, 2) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert gauntlet(4, 2) == [(0, 1), (0, 2), (0, 3)]
    assert gauntlet(4, 3) == [(0, 1, 2), (0, 1, 3), (0, 2, 3)]
    assert gauntlet(4, 3, seeds=2) == [(0, 2, 3), (1, 2, 3)]
    # Three seats: each seed must meet two others, so four engines take at most two seeds.
    with pytest.raises(ValueError, match="needs 1 to 2 seeds"):
        gauntlet(4, 3, seeds=3)
    with pytest.raises(ValueError, match="needs at least 3 engines"):
        gauntlet(2, 3)
    # blocks of all encounters interleave: a run stopped early is balanced
    jobs = build_schedule(round_robin(3, 2), 4, openings=5)
    assert [j.encounter for j in jobs[:6]] == [0, 0, 1, 1, 2, 2]


def test_opening_order() -> None:
    assert opening_order(3, 7, "sequential", 0) == [0, 1, 2, 0, 1, 2, 0]
    picks = opening_order(4, 8, "random", 5)
    assert sorted(picks[:4]) == [0, 1, 2, 3] and sorted(picks[4:]) == [0, 1, 2, 3]
    assert picks == opening_order(4, 8, "random", 5)
    assert opening_order(4, 4, "random", 5) == picks[:4]  # a longer run extends the same list


def test_openings_file() -> None:
    text = ("# comment\n\n1. D6-F8 H11-F9\n"
            "camelot 2/8/10/12/12/12/12/5b6/5w6/12/12/12/4w7/10/8/2 b 0,0 - - 0 30\n"
            "camelot 2/8/10/12/12/2BbbbbbbB2/3BbbbbB3/12/12/3WwwwwW3/2WwwwwwwW2/12/12/10/8/2"
            " w 0,0 - - 0 0 moves d6-f8\n")
    openings = parse_openings(text, "camelot")
    assert [o.moves for o in openings] == [("D6-F8", "H11-F9"), (), ("D6-F8",)]
    assert openings[0].position is None and openings[2].position is None  # the start
    assert openings[1].position.endswith("b 0,0 - - 0 30")
    with pytest.raises(ValueError, match="line 2: move 2"):
        parse_openings("C6-B5\nC6-B5 C6-B5\n", "camelot")
    with pytest.raises(ValueError, match="tri-camelot position"):
        parse_openings(
            "tri-camelot 4/1r1g1/1R2G1/1r1g1/1R2G1/Rr1gG/1r2g1/r3g/4/5/4/1b1/1bb1/bBb/BB/3/2/1 "
            "b 0,0,0 - - 0 0", "camelot")
    with pytest.raises(ValueError, match="already decided"):
        parse_openings("camelot 2/8/10/12/12/12/5w6/12/12/12/12/12/4w7/10/8/2 w 0,0 - b 0 31",
                       "camelot")


def _record(number: int, result: str) -> GameRecord:
    game = GameRecord.new("camelot", ["a", "b"] if number % 2 else ["b", "a"],
                          round=str(number), event="t")
    game.add_move("C6-B5")
    game.set_result(result, termination="normal", reason="x")
    return game


def test_results_file_drops_a_cut_off_game(tmp_path: Path) -> None:
    path = tmp_path / "g.pgn"
    results = ResultsFile(str(path))
    results.append(_record(1, "1-0"))
    results.append(_record(2, "1/2-1/2"))
    whole = path.read_bytes()
    for cut in ('[Event "t"]\n[Site "?"]\n[Da', '[Event "t"]\n\n1. C6-B5 H11', "[Ev"):
        path.write_bytes(whole + cut.encode())
        games, dropped = results.load()
        assert [g.tags["Round"] for g in games] == ["1", "2"]
        assert dropped == len(cut.encode())
        assert path.read_bytes() == whole


def test_tally_pairs_and_rankings() -> None:
    tally = Tally(["a", "b"])
    # pair 0: a wins as White, draws as Black -> WD; pair 1: a loses both -> LL
    for number, result, block in ((1, "1-0", 0), (2, "1/2-1/2", 0), (3, "0-1", 1),
                                  (4, "1-0", 1), (5, "1-0", 2)):
        players = (0, 1) if number % 2 else (1, 0)
        tally.add(Job(number, 0, block, players, 0), _record(number, result))
    assert tally.score(0, 1) == (2, 1, 2)
    assert tally.pentanomial(0, 1) == (1, 0, 0, 1, 0)  # game 5 has no partner yet
    tri = GameRecord.new("tri-camelot", ["a", "b", "c"])
    tri.tags["Ranking"] = "red > blue = green"
    tri.set_result("0-1-0")
    assert ranking_of(tri) == [[1], [0, 2]]
    assert ranking_of(_record(1, "1/2-1/2")) == [[0, 1]]
    assert "Round" in write_game(_record(1, "1-0"))


def test_adjudication_by_score() -> None:
    adj = Adjudication(resign_moves=2, resign_score=500)
    names = ["white", "black"]
    assert _adjudicate(adj, [[-600], [600]], 0, 2, names) is None
    verdict = _adjudicate(adj, [[-600, -700], [600]], 0, 3, names)
    assert verdict is not None and verdict[0] == [[1], [0]]
    two = Adjudication(resign_moves=2, resign_score=500, resign_twosided=True)
    assert _adjudicate(two, [[-600, -700], [600, 100]], 0, 4, names) is None
    draw = Adjudication(draw_movenumber=2, draw_moves=2, draw_score=10)
    assert _adjudicate(draw, [[0, 5], [0, -5]], 1, 3, names) is None  # before move 2
    assert _adjudicate(draw, [[0, 5], [0, -5]], 1, 4, names)[0] == [[0, 1]]
    assert _adjudicate(draw, [[0, 50], [0, -5]], 1, 4, names) is None


def test_three_seat_resign_ranks_the_hopeless_seat_last() -> None:
    adj = Adjudication(resign_moves=2, resign_score=500)
    names = ["blue", "red", "green"]
    assert _adjudicate(adj, [[0, 0], [-600], [0]], 1, 4, names) is None  # one move only
    ranking, reason = _adjudicate(adj, [[0, 0], [-600, -900], [0]], 1, 5, names)
    assert ranking == [[0, 2], [1]]  # the other two share first place
    assert reason.startswith("red resigns by adjudication")
    # a hopeless score that is not the mover's own does not end the game
    assert _adjudicate(adj, [[0, 0], [-600, -900], [0]], 0, 5, names) is None
    two = Adjudication(resign_moves=2, resign_score=500, resign_twosided=True)
    assert _adjudicate(two, [[600, 100], [-600, -900], [0, 700]], 1, 6, names) is None
    ranking, _ = _adjudicate(two, [[600, 100], [-600, -900], [500, 700]], 1, 6, names)
    assert ranking == [[0, 2], [1]]  # green agrees; one other seat is enough


def test_results_file_refuses_damage_inside(tmp_path: Path) -> None:
    from canter.adapters.arbiter.results import ResumeError

    path = tmp_path / "g.pgn"
    results = ResultsFile(str(path))
    for n in (1, 2, 3):
        results.append(_record(n, "1-0"))
    text = path.read_text()
    path.write_text(text.replace("1. C6-B5 1-0", "1. C6-B5 ???", 1))
    with pytest.raises(ResumeError, match="damaged"):
        results.load()
    assert "???" in path.read_text()  # nothing truncated


def test_progress_bar_score_elapsed_and_time_left() -> None:
    from canter.adapters.arbiter.report import progress_bar

    tally = Tally(["a", "b"])
    jobs = [Job(n, 0, (n - 1) // 2, (0, 1) if n % 2 else (1, 0), 0) for n in range(1, 9)]
    for job, result in zip(jobs, ["1-0", "1-0", "1/2-1/2"], strict=False):
        tally.add(job, _record(job.number, result))
    # a wins game 1 (white), loses game 2 (black), draws game 3: 1-1-1
    # 3 of 8 done; 2 of them played in this run in 40 s: 20 s a game, 5 games left
    line = progress_bar(tally, 8, ["a", "b"], 2, elapsed=40.0, played=2, width=200)
    assert line == "[######----------] 3/8 | a 1-1-1 [0.500] Elo +0.0 | 0:40, ~1:40 left"
    assert progress_bar(tally, 8, ["a", "b"], 2, 3725.0, 0, 200).endswith("1:02:05, ? left")
    narrow = progress_bar(tally, 8, ["a", "b"], 2, 40.0, 2, width=30)
    assert len(narrow) == 29 and narrow.endswith("...")
    # with room for part of the score, the score is cut and the time left kept
    cut = progress_bar(tally, 8, ["a", "b"], 2, 40.0, 2, width=60)
    assert cut == "[######----------] 3/8 | a 1-1-1 [0.5... | 0:40, ~1:40 left"
    assert len(cut) == 59


def test_json_summary_has_no_negative_zero() -> None:
    """An even score gives an Elo of -0.0 from the logistic formula; the JSON (and the
    table) must say 0.0, not -0.0."""
    import json
    import math

    from canter.adapters.arbiter.report import final_table, summary

    tally = Tally(["a", "b"])
    # a wins as White, loses as Black, then the same again: exactly 0.500
    for number, result in ((1, "1-0"), (2, "1-0"), (3, "1-0"), (4, "1-0")):
        players = (0, 1) if number % 2 else (1, 0)
        tally.add(Job(number, 0, (number - 1) // 2, players, 0), _record(number, result))
    assert tally.score(0, 1) == (2, 0, 2)
    data = summary(tally, ["a", "b"], 2, 4, "camelot", None, False, False)
    pair = data["pairs"][0]
    for key in ("elo", "elo_low", "elo_high", "pentanomial_elo"):
        value = pair[key]
        if value == 0:
            assert math.copysign(1.0, value) == 1.0, (key, value)
    assert pair["elo"] == 0.0
    assert "-0.0" not in json.dumps(data)
    assert "-0.0" not in final_table(tally, ["a", "b"], 2, 4)


def test_progress_shows_the_llr_of_a_running_sprt() -> None:
    from canter.adapters.arbiter.report import progress_bar, progress_line
    from canter.adapters.arbiter.stats import sprt

    params = {"elo0": 0.0, "elo1": 5.0, "alpha": 0.05, "beta": 0.05}
    tally = Tally(["a", "b"])
    jobs = [Job(n, 0, (n - 1) // 2, (0, 1) if n % 2 else (1, 0), 0) for n in range(1, 5)]
    # pair 1: a wins as White and as Black (WW); pair 2: a wins as White, draws as Black
    for job, result in zip(jobs, ["1-0", "0-1", "1-0", "1/2-1/2"], strict=True):
        entry = tally.add(job, _record(job.number, result))
    llr = sprt(0.0, 5.0, 0.05, 0.05, penta=(0, 0, 0, 1, 1)).llr
    assert llr > 0
    line = progress_line(tally, 8, entry, ["a", "b"], 2, params)
    assert line.endswith(f"a 3-0-1 [0.875] Elo +338.0, LLR {llr:+.2f} (-2.94, +2.94)")
    assert progress_line(tally, 8, entry, ["a", "b"], 2).endswith("Elo +338.0")
    bar = progress_bar(tally, 8, ["a", "b"], 2, 40.0, 4, 200, params)
    assert f", LLR {llr:+.2f} (-2.94, +2.94) | 0:40" in bar


def test_a_three_seat_match_shows_the_first_engines_pairwise_score() -> None:
    from canter.adapters.arbiter.report import running_score
    from canter.adapters.arbiter.stats import sprt

    tally = Tally(["new", "base", "base-2"])
    # new wins game 1 (1 against both); base wins game 2, new and base-2 share second
    # (0 against base, 1/2 against base-2: 1/4); mean 5/8
    for number, ranking, result in ((1, "blue > red = green", "1-0-0"),
                                    (2, "red > blue = green", "0-1-0")):
        game = GameRecord.new("tri-camelot", ["new", "base", "base-2"], round=str(number))
        game.tags["Ranking"] = ranking
        game.set_result(result, termination="normal", reason="x")
        tally.add(Job(number, 0, number - 1, (0, 1, 2), 0), game)
    assert tally.pairwise_scores(0) == [1.0, 0.25]
    params = {"elo0": 0.0, "elo1": 5.0, "alpha": 0.05, "beta": 0.05}
    llr = sprt(0.0, 5.0, 0.05, 0.05, scores=[1.0, 0.25]).llr
    assert running_score(tally, ["new", "base", "base-2"], 3, params) == (
        f"points new 1, base 1, base-2 0; pairwise new 0.625 Elo +88.7, LLR {llr:+.2f} "
        "(-2.94, +2.94)")
    # a tournament has no "first engine tested": not with more engines than seats, and not
    # with exactly three either
    from canter.adapters.arbiter.report import final_table, summary

    assert "pairwise" not in running_score(tally, ["new", "base", "base-2", "x"], 3)
    names = ["new", "base", "base-2"]
    assert "pairwise" not in running_score(tally, names, 3, match=False)
    assert "Pairwise score of new" in final_table(tally, names, 3, 2)
    assert "Pairwise score" not in final_table(tally, names, 3, 2, match=False)
    assert summary(tally, names, 3, 2, "tri-camelot", None, False, False)[
        "pairwise_score"]["score"] == 0.625
    assert "pairwise_score" not in summary(tally, names, 3, 2, "tri-camelot", None, False,
                                           False, match=False)


def test_a_new_run_on_a_worker_thread_closes_only_that_thread_s_old_engines(monkeypatch):
    # A worker started with --nthreads 2 may play a game of run A on one thread while its
    # other thread takes the first game of run B: A's engines in use must stay open.
    import threading

    from canter.adapters.arbiter import cluster
    from canter.adapters.arbiter.game import EnginePool, Settings

    closed = []
    monkeypatch.setattr(EnginePool, "close", lambda self: closed.append(self))
    monkeypatch.setattr(cluster, "_POOLS", {})
    settings = Settings(variant="camelot")
    pools = {}

    def take(name, run):
        pools[name] = cluster._pool(run, settings)

    taken, playing = threading.Event(), threading.Event()
    first = threading.Thread(target=lambda: (take("t1", "A"), taken.set(), playing.wait(10)))
    first.start()  # (alive until the end, so the second thread cannot reuse its ident)
    assert taken.wait(10) and list(cluster._POOLS) == [("A", first.ident)]
    second = threading.Thread(target=take, args=("t2", "B"))
    second.start()
    second.join()
    playing.set()
    first.join()
    assert closed == []  # t1's pool of run A is another thread's: left alone
    take("main-a", "A")
    take("main-b", "B")  # this thread's own pool of run A is idle here: it goes
    assert closed == [pools["main-a"]]


def test_games_drained_at_a_stop_are_not_recorded_once_the_sprt_decides(tmp_path) -> None:
    # Games that finish while a run stops still count, until one of them decides the SPRT;
    # those after it would move the LLR back between the bounds, so they are not recorded.
    import queue

    from canter.adapters.arbiter.game import GameResult, Player, Settings
    from canter.adapters.arbiter.openings import Opening
    from canter.adapters.arbiter.report import sprt_state
    from canter.adapters.arbiter.run import Arbiter, RunConfig, RunOutcome

    params = {"elo0": 0.0, "elo1": 400.0, "alpha": 0.2, "beta": 0.2}
    jobs = [Job(n, 0, (n - 1) // 2, (0, 1) if n % 2 else (1, 0), 0) for n in range(1, 13)]
    players = [Player(EngineSpec(["x"], name=name), TimeControl(depth=1), 0.0)
               for name in ("a", "b")]
    pgn = tmp_path / "drain.pgn"
    arbiter = Arbiter(RunConfig(players, Settings("camelot"), jobs, [Opening(None)], 2,
                                pgn=str(pgn), sprt=params))

    def a_wins(job: Job) -> GameResult:
        result = "1-0" if job.players[0] == 0 else "0-1"
        return GameResult(job.number, _record(job.number, result),
                          [[0], [1]] if result == "1-0" else [[1], [0]], "normal", "x")

    # Where a count of a's wins first decides it, reckoned apart from the arbiter.
    check = Tally(["a", "b"])
    deciding = None
    for job in jobs:
        check.add(job, _record(job.number, "1-0" if job.players[0] == 0 else "0-1"))
        state = sprt_state(check, params)
        if state is not None and state.finished:
            deciding = job.number
            break
    assert deciding is not None and deciding < len(jobs)

    results: queue.Queue = queue.Queue()
    results.put(("done", None))
    for job in jobs:
        results.put(("game", a_wins(job)))
    outcome = RunOutcome(arbiter.tally)
    arbiter._drain(results, outcome)
    assert outcome.stopped_by_sprt
    assert arbiter.tally.games == deciding
    assert pgn.read_text().count("[Round ") == deciding
    assert not results.empty()  # the games after the deciding one were left unrecorded


def test_a_second_interrupt_while_the_workers_stop_keeps_the_games_they_finished(
        tmp_path, monkeypatch) -> None:
    # The first interrupt stops the run; game 1 ends normally while it stops, and a second
    # interrupt lands while the arbiter still waits for game 2's worker. Game 1 is written.
    import os
    import signal
    import threading
    import time

    from canter.adapters.arbiter import run as run_module
    from canter.adapters.arbiter.game import GameAborted, GameResult, Player, Settings
    from canter.adapters.arbiter.openings import Opening
    from canter.adapters.arbiter.run import Arbiter, RunConfig

    jobs = [Job(n, 0, 0, (0, 1) if n % 2 else (1, 0), 0) for n in (1, 2)]
    players = [Player(EngineSpec(["x"], name=name), TimeControl(depth=1), 0.0)
               for name in ("a", "b")]
    pgn = tmp_path / "stop.pgn"
    arbiter = Arbiter(RunConfig(players, Settings("camelot"), jobs, [Opening(None)], 2,
                                concurrency=2, pgn=str(pgn)))
    first_done = threading.Event()

    def play_game(number, players, opening, settings, pool, abort):
        if number == 1:
            arbiter.interrupt.set()  # the first Ctrl-C, as the command's handler sets it
            assert abort.wait(10)
            first_done.set()
            return GameResult(1, _record(1, "1-0"), [[0], [1]], "normal", "x")
        assert abort.wait(10) and first_done.wait(10)
        time.sleep(0.3)  # game 1's result is in the queue, its worker gone
        os.kill(os.getpid(), signal.SIGINT)  # the second Ctrl-C, while the arbiter waits
        time.sleep(1.0)
        raise GameAborted

    monkeypatch.setattr(run_module, "play_game", play_game)
    monkeypatch.setattr(Arbiter, "preflight", lambda self, pool: None)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        outcome = arbiter.run()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert outcome.interrupted
    assert arbiter.tally.games == 1
    assert pgn.read_text().count("[Round ") == 1


def test_a_two_sided_resignation_in_a_team_game_needs_the_other_team() -> None:
    # Grand Cam: Red and Blue (seats 0, 2) against Green and Yellow (1, 3). Red is hopeless;
    # its partner Blue's winning score is no opponent's word, Green's is.
    adj = Adjudication(resign_moves=2, resign_score=1000, resign_twosided=True)
    names = ["red", "green", "blue", "yellow"]
    teams = (0, 1, 0, 1)
    partner_agrees = [[-3000, -3000], [0, 0], [3000, 3000], [0, 0]]
    assert _adjudicate(adj, partner_agrees, 0, 8, names, teams) is None
    opponent_agrees = [[-3000, -3000], [3000, 3000], [0, 0], [0, 0]]
    verdict = _adjudicate(adj, opponent_agrees, 0, 8, names, teams)
    assert verdict is not None and verdict[1].startswith("red resigns by adjudication")
    # Without teams (each seat alone) any other seat still agrees, as in Tri-Camelot.
    assert _adjudicate(adj, partner_agrees, 0, 8, names) is not None


class _FirstMoveEngine:
    """Plays the first legal move (in notation order) and reports a fixed score."""

    def __init__(self, variant: str, cp: int) -> None:
        self.variant = variant
        self.cp = cp

    def new_game(self, timeout: float | None = None) -> None:
        pass

    def play(self, position: str, limit: object, moves: object = (),
             timeout: float | None = None) -> object:
        from canter.adapters.client.engine import PlayResult
        from canter.adapters.client.parse import Info, Score
        from canter.engine import Position, format_move, get_variant, parse_move

        pos = Position.start(get_variant(self.variant))
        for text in moves:  # type: ignore[attr-defined]
            pos.push(parse_move(pos, text))
        move = sorted(format_move(pos.variant, m) for m in pos.legal_moves())[0]
        return PlayResult(move, info=Info(depth=1, score=Score(cp=self.cp)), elapsed=0.001)


def test_a_grand_cam_game_is_not_resigned_on_the_partner_s_word() -> None:
    # The audit's game: a (Red) hopeless, its partner c (Blue) winning, b and d level.
    # Two-sided resignation needs Green's or Yellow's agreement, which never comes.
    from canter.adapters.arbiter.game import Player, Settings, play_game
    from canter.adapters.arbiter.openings import Opening

    names, cps = ("a", "b", "c", "d"), (-3000, 0, 3000, 0)
    players = [Player(EngineSpec(["x"], name=n), TimeControl(depth=1), 0.0) for n in names]
    pool = _FakePool({n: _FirstMoveEngine("grand-cam", cp)
                      for n, cp in zip(names, cps, strict=True)})
    adj = Adjudication(maxplies=16, resign_moves=2, resign_score=1000, resign_twosided=True)
    result = play_game(1, players, Opening(None), Settings("grand-cam", adj),
                       pool)  # type: ignore[arg-type]
    assert result.termination == "max plies", result.reason


def test_times_under_a_millisecond_are_refused_up_front() -> None:
    # Sent in whole milliseconds they would be 0: `movetime 0` stopped the run at its first
    # move; a clock of `0.0004` was written as an empty TimeControl tag.
    for text, needle in (("0.0004", "the time must be at least 0.001 s"),
                         ("0:00.0009", "the time must be at least 0.001 s"),
                         ("1+0.00001", "the increment must be 0 or at least 0.001 s"),
                         ("40/0.0001+1", "the time must be at least 0.001 s")):
        with pytest.raises(ValueError, match=needle):
            TimeControl.parse(text)
    assert TimeControl.parse("0.001+0.001").text() == "0.001+0.001"
    assert TimeControl.parse("1+0").inc == 0
    with pytest.raises(ValueError, match="st must be at least 0.001 s"):
        parse_engine_spec("cmd=x st=0.0009")
    assert parse_engine_spec("cmd=x st=0.001").movetime == 0.001


class _FailingStream:
    """A standard output that fails from its `after`-th write on, as a terminal that hung
    up (EIO) or a full disk (ENOSPC) does."""

    def __init__(self, code: int, after: int = 0) -> None:
        self.code = code
        self.after = after
        self.written: list[str] = []

    def write(self, text: str) -> int:
        if len(self.written) >= self.after:
            raise OSError(self.code, os.strerror(self.code))
        self.written.append(text)
        return len(text)

    def flush(self) -> None:
        if len(self.written) >= self.after:
            raise OSError(self.code, os.strerror(self.code))

    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize("code", [errno.EIO, errno.ENOSPC, errno.EPIPE])
def test_progress_output_goes_silent_on_any_write_error(code: int) -> None:
    from canter.adapters.arbiter.output import ProgressOut

    err = io.StringIO()
    out = ProgressOut(_FailingStream(code, after=1), "canter match", err)  # type: ignore[arg-type]
    out.write("header\n")
    out.write("game 1\n")  # fails: silent from here on
    out.flush()
    out.write("game 2\n")
    assert out.gone
    notes = err.getvalue().splitlines()
    assert len(notes) == 1 and "the run goes on without progress lines" in notes[0]
    if code != errno.EPIPE:
        assert os.strerror(code) in notes[0]


def _two_engine_run(tmp_path: Path, jobs: int, **config: object):
    from canter.adapters.arbiter.game import Player, Settings
    from canter.adapters.arbiter.openings import Opening
    from canter.adapters.arbiter.run import Arbiter, RunConfig

    players = [Player(EngineSpec(["x"], name=name), TimeControl(depth=1), 0.0)
               for name in ("a", "b")]
    schedule = [Job(n, 0, (n - 1) // 2, (0, 1) if n % 2 else (1, 0), 0)
                for n in range(1, jobs + 1)]
    return Arbiter(RunConfig(players, Settings("camelot"), schedule, [Opening(None)], 2,
                             pgn=str(tmp_path / "g.pgn"), json_path=str(tmp_path / "s.json"),
                             **config))  # type: ignore[arg-type]


def _fake_games(monkeypatch, fail_at: int | None = None) -> None:
    from canter.adapters.arbiter import run as run_module
    from canter.adapters.arbiter.game import GameResult
    from canter.adapters.arbiter.run import Arbiter

    def play_game(number, players, opening, settings, pool, abort):
        if number == fail_at:
            raise RuntimeError("a bug in game 2\nsecond line")
        return GameResult(number, _record(number, "1-0"), [[0], [1]], "normal", "x")

    monkeypatch.setattr(run_module, "play_game", play_game)
    monkeypatch.setattr(Arbiter, "preflight", lambda self, pool: None)


def test_a_standard_output_that_fails_does_not_stop_the_run(tmp_path, monkeypatch) -> None:
    # Given a raw stream (not the command's ProgressOut), a full disk on standard output
    # after the first line still lets every game be played and the summary be written.
    _fake_games(monkeypatch)
    stream = _FailingStream(errno.ENOSPC, after=1)
    arbiter = _two_engine_run(tmp_path, 3, out=stream, progress="lines")
    outcome = arbiter.run()
    assert not outcome.interrupted and arbiter.tally.games == 3
    assert json.loads((tmp_path / "s.json").read_text())["games_played"] == 3
    assert (tmp_path / "g.pgn").read_text().count("[Round ") == 3


def test_an_error_part_way_still_prints_the_table_and_writes_the_summary(
        tmp_path, monkeypatch) -> None:
    from canter.adapters.arbiter.run import ArbiterError

    _fake_games(monkeypatch, fail_at=2)
    out = io.StringIO()
    arbiter = _two_engine_run(tmp_path, 4, out=out, progress="lines")
    with pytest.raises(ArbiterError, match="the run stopped: RuntimeError: a bug in game 2$"):
        arbiter.run()
    assert "Games played: 1 of 4" in out.getvalue()
    data = json.loads((tmp_path / "s.json").read_text())
    assert data["games_played"] == 1 and not data["interrupted"]
    assert data["error"] == "the run stopped: RuntimeError: a bug in game 2"
    assert (tmp_path / "g.pgn").read_text().count("[Round ") == 1
    # A run that ends well says so too.
    _fake_games(monkeypatch)
    (tmp_path / "s.json").unlink()
    _two_engine_run(tmp_path, 4, out=io.StringIO()).run()
    assert json.loads((tmp_path / "s.json").read_text())["error"] is None


class _FakeEngine:
    """Answers every search the same way: `answer` is a PlayResult to return or an
    EngineError to raise."""

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def new_game(self, timeout: float | None = None) -> None:
        pass

    def play(self, position: str, limit: object, moves: object = (),
             timeout: float | None = None) -> object:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


class _FakePool:
    """The engines of one game by name; an exception in place of one is raised on start."""

    def __init__(self, engines: dict[str, object]) -> None:
        self.engines = engines
        self.game: int | None = None

    def get(self, player):
        engine = self.engines[player.name]
        if isinstance(engine, Exception):
            raise engine
        return engine

    def discard(self, player) -> None:
        pass


def _play(white: object, black: object, control: TimeControl | None = None):
    from canter.adapters.arbiter.game import Player, Settings, play_game
    from canter.adapters.arbiter.openings import Opening

    players = [Player(EngineSpec(["x"], name=name), control or TimeControl(depth=1), 0.0)
               for name in ("w", "b")]
    pool = _FakePool({"w": white, "b": black})
    return play_game(1, players, Opening(None), Settings("camelot"), pool)  # type: ignore[arg-type]


def test_reasons_name_the_signal_a_closed_output_and_a_small_overrun() -> None:
    from canter.adapters.client.engine import EngineDied, PlayResult

    ok = _FakeEngine(PlayResult("C6-C7", elapsed=0.01))
    result = _play(_FakeEngine(EngineDied("search", -11)), ok)
    assert result.reason == "white was killed by signal 11 (SIGSEGV) while searching"
    result = _play(_FakeEngine(EngineDied("search", None)), ok)
    assert result.reason == "white closed its output while searching (its process still runs)"
    assert _play(_FakeEngine(EngineDied("search", 7)), ok).reason == (
        "white crashed while searching (exit code 7)")
    # 0.4 ms over a 0.5 s move time: not `over by 0.000 s`
    slow = _FakeEngine(PlayResult("C6-C7", elapsed=0.5004))
    result = _play(slow, ok, TimeControl(movetime=0.5))
    assert result.termination == "time forfeit"
    assert result.reason == "white loses on time: took 0.5004 s with 0.5000 s left " \
                            "(over by 0.0004 s)"
    slower = _FakeEngine(PlayResult("C6-C7", elapsed=0.6))
    assert _play(slower, ok, TimeControl(movetime=0.5)).reason.endswith("(over by 0.100 s)")
    # the same words for a death before the first move
    from canter.adapters.arbiter.game import _start_fault

    assert _start_fault(1, "black", EngineDied("isready", -9), 1.0).reason == (
        "black was killed by signal 9 (SIGKILL) during isready")


def test_an_option_refused_on_a_restart_forfeits_the_game_not_the_run() -> None:
    # The preflight accepted the option; a later start of the engine that no longer
    # declares it is the engine's fault: a forfeit for its seat, the run goes on.
    from canter.adapters.client.engine import PlayResult

    refused = ValueError("engine 'b' has no option 'Hash' (it has: UCI_Variant)")
    result = _play(_FakeEngine(PlayResult("C6-C7", elapsed=0.01)), refused)
    assert (result.termination, result.fault_seat, result.record.result) == ("crash", 1, "1-0")
    assert result.reason == ("black could not be started again: engine 'b' has no option "
                             "'Hash' (it has: UCI_Variant)")
