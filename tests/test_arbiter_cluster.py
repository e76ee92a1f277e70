"""`canter match --cluster`: games as tasks on a Dask cluster of local worker processes.

The same run with and without a cluster gives the same games (fixed node limits make
canter's games deterministic); a worker killed in mid-game loses no game and counts none
twice; a killed coordinator resumes from its record file; an SPRT that decides cancels the
rest; an engine missing on the workers and a missing Dask are one-line errors."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from canter.adapters.records.format import read_games_file

pytest.importorskip("distributed")
pytestmark = pytest.mark.timeout(240)

RANDOM_MOVER = Path(__file__).resolve().parent.parent / "bench" / "weak_engine.py"
CANTER = f"cmd={sys.executable} -m canter"
ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}


def match(*args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "canter", "match", "--progress", "lines",
                           *args], capture_output=True, text=True, timeout=timeout, env=ENV)


def games(path: Path) -> list[tuple]:
    """Per game: number, players, start, moves, result."""
    return sorted((int(g.tags["Round"]), tuple(g.players), g.start_position, tuple(g.moves),
                   g.result) for g in read_games_file(str(path)))


def two_seat(pgn: Path, *extra: str) -> subprocess.CompletedProcess:
    return match("--engine", f"{CANTER} name=a", "--engine", f"{CANTER} name=b",
                 "--nodes", "150", "--games", "4", "--maxplies", "80", "--pgn", str(pgn),
                 *extra)


def test_a_two_seat_run_on_a_cluster_gives_the_same_games(tmp_path):
    local, cluster = tmp_path / "local.pgn", tmp_path / "cluster.pgn"
    done = two_seat(local)
    assert done.returncode == 0, done.stderr
    done = two_seat(cluster, "--cluster", "local:2")
    assert done.returncode == 0, done.stderr
    assert "Cluster tcp://" in done.stdout and "2 workers" in done.stdout
    assert "games/min" in done.stdout and "+/-" in done.stdout
    assert games(cluster) == games(local)
    assert len(games(local)) == 4


def test_a_three_seat_run_on_a_cluster_gives_the_same_games(tmp_path):
    local, cluster = tmp_path / "local.pgn", tmp_path / "cluster.pgn"
    args = ("--variant", "tri-camelot", "--engine", f"{CANTER} name=a", "--engine",
            f"{CANTER} name=b", "--engine", f"{CANTER} name=c", "--nodes", "60",
            "--games", "3", "--maxplies", "60")
    done = match(*args, "--pgn", str(local))
    assert done.returncode == 0, done.stderr
    done = match(*args, "--pgn", str(cluster), "--cluster", "local:2")
    assert done.returncode == 0, done.stderr
    assert games(cluster) == games(local)
    assert len(games(local)) == 3


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_cluster(pgn: Path):
    """A scheduler and two one-thread workers, and a six-game run on them that has just
    finished its first game (both workers busy): yields (scheduler, workers, run)."""
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", str(port), "--dashboard-address", ":0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    workers = [subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", address, "--no-nanny",
         "--nthreads", "1", "--host", "127.0.0.1", "--dashboard-address", ":0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV) for _ in range(2)]
    run = None
    try:
        run = subprocess.Popen(
            [sys.executable, "-m", "canter", "match", "--progress", "lines",
             "--engine", f"{CANTER} name=a", "--engine", f"{CANTER} name=b",
             "--nodes", "400", "--games", "6", "--maxplies", "60", "--pgn", str(pgn),
             "--cluster", address],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
        assert run.stdout is not None
        for line in run.stdout:
            if line.startswith("[1/6]"):
                break
        yield scheduler, workers, run
    finally:
        if run is not None and run.poll() is None:  # (a test that failed half-way)
            run.kill()
            run.communicate()
        for proc in (*workers, scheduler):
            if proc.poll() is None:
                proc.kill()
            proc.wait()


def test_a_worker_killed_in_mid_game_loses_no_game_and_counts_none_twice(tmp_path):
    pgn = tmp_path / "games.pgn"
    with running_cluster(pgn) as (_, workers, run):
        workers[0].kill()  # in the middle of its next game
        out, err = run.communicate(timeout=180)
        assert run.returncode == 0, err
        numbers = [g[0] for g in games(pgn)]
        assert numbers == [1, 2, 3, 4, 5, 6], numbers
        assert "Games played: 6 of 6" in out


def test_a_lost_scheduler_stops_the_run_in_one_line_and_keeps_the_games(tmp_path):
    pgn = tmp_path / "games.pgn"
    with running_cluster(pgn) as (scheduler, _, run):
        scheduler.kill()  # while the coordinator waits on the games still out
        out, err = run.communicate(timeout=120)
        assert run.returncode != 0
        errors = [line for line in err.splitlines() if line.strip()]
        assert len(errors) == 1 and "went away" in errors[0] and "resume" in errors[0], err
        assert len(games(pgn)) >= 1


def test_a_killed_coordinator_resumes_from_its_record_file(tmp_path):
    pgn = tmp_path / "games.pgn"
    args = [sys.executable, "-m", "canter", "match", "--progress", "lines",
            "--engine", f"{CANTER} name=a", "--engine", f"{CANTER} name=b", "--nodes", "300",
            "--games", "6", "--maxplies", "60", "--pgn", str(pgn), "--cluster", "local:2"]
    run = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True, env=ENV, start_new_session=True)
    assert run.stdout is not None
    for line in run.stdout:
        if line.startswith("[2/6]"):
            break
    os.killpg(run.pid, signal.SIGKILL)  # the coordinator and its local cluster
    run.wait()
    run.stdout.close()
    before = len(games(pgn))
    assert 2 <= before < 6
    done = match(*args[4:])
    assert done.returncode == 0, done.stderr
    assert f"Resuming: {before} of 6 games" in done.stdout
    assert [g[0] for g in games(pgn)] == [1, 2, 3, 4, 5, 6]


def test_an_sprt_that_decides_stops_the_run_and_cancels_the_queue(tmp_path):
    weak = f"cmd={sys.executable} {RANDOM_MOVER} random name=random"
    done = match("--engine", f"{CANTER} name=canter", "--engine", weak, "--nodes", "200",
                 "--games", "60", "--maxplies", "200", "--sprt",
                 "elo0=0 elo1=200 alpha=0.1 beta=0.1", "--cluster", "local:2",
                 "--pgn", str(tmp_path / "games.pgn"))
    assert done.returncode == 0, done.stderr
    assert "SPRT decided: H1" in done.stdout
    assert "not yet played" in done.stdout  # "Cancelled N games not yet played"
    played = len(games(tmp_path / "games.pgn"))
    assert played < 60
    assert "LLR" in done.stdout
    # Games that ended while the queue was cancelled are not recorded after the decision,
    # so the file holds the decided test: the same command plays nothing more.
    again = match(*done.args[6:])
    assert again.returncode == 0, again.stderr
    assert "SPRT already decided (H1)" in again.stdout
    assert len(games(tmp_path / "games.pgn")) == played


def test_an_engine_missing_on_the_workers_is_named(tmp_path):
    done = match("--engine", f"{CANTER} name=a", "--engine", "cmd=./no-such-engine name=ghost",
                 "--nodes", "50", "--games", "2", "--cluster", "local:1")
    assert done.returncode == 1
    assert "worker tcp://" in done.stderr and "ghost" in done.stderr
    assert "Traceback" not in done.stderr
    check = match("--engine", f"{CANTER} name=a", "--engine", f"{CANTER} name=b",
                  "--nodes", "50", "--cluster", "local:2", "--check")
    assert check.returncode == 0, check.stderr
    assert check.stdout.count(": ok (2 engines started)") == 2


def test_cluster_usage_errors():
    done = match("--engine", CANTER, "--engine", f"{CANTER} name=b", "--nodes", "50",
                 "--check")
    assert done.returncode == 2 and "--check needs --cluster" in done.stderr
    done = match("--engine", CANTER, "--engine", f"{CANTER} name=b", "--nodes", "50",
                 "--cluster", "local:x")
    assert done.returncode == 1 and "local:N needs a number" in done.stderr
    port = _free_port()
    done = match("--engine", CANTER, "--engine", f"{CANTER} name=b", "--nodes", "50",
                 "--cluster", f"tcp://127.0.0.1:{port}", timeout=120)
    assert done.returncode == 1 and "no scheduler answers" in done.stderr
    # nothing listens there: said as such, not after Dask's connect timeout
    assert f"connection refused by 127.0.0.1:{port}" in done.stderr
    for address in ("tcp://h:notaport", "inproc://x"):  # Dask's own reading fails
        done = match("--engine", CANTER, "--engine", f"{CANTER} name=b", "--nodes", "50",
                     "--cluster", address)
        assert done.returncode == 1, done.stderr
        assert f"Error: --cluster {address}: not a scheduler address (" in done.stderr


def test_without_dask_the_error_names_the_extra():
    code = ("import sys; sys.modules['distributed'] = None\n"
            "from canter.cli import main\n"
            f"main(['match', '--engine', {CANTER!r}, '--engine', {CANTER + ' name=b'!r},"
            " '--nodes', '50', '--cluster', 'local:1'])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1
    assert "pip install 'canter[cluster]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_tournament_on_a_cluster_gives_the_same_games(tmp_path):
    args = ["tournament", "--engine", f"{CANTER} name=a", "--engine", f"{CANTER} name=b",
            "--engine", f"{CANTER} name=c", "--nodes", "100", "--maxplies", "60"]
    runs = []
    for name, extra in (("local", []), ("cluster", ["--cluster", "local:2"])):
        pgn = tmp_path / f"{name}.pgn"
        done = subprocess.run([sys.executable, "-m", "canter", *args, "--pgn", str(pgn),
                               *extra], capture_output=True, text=True, timeout=180, env=ENV)
        assert done.returncode == 0, done.stderr
        runs.append(games(pgn))
    assert runs[0] == runs[1] and len(runs[0]) == 6


def test_an_engine_that_never_started_on_a_worker_is_not_scored_as_a_forfeit():
    # what a worker that joined after the check does: play_task refuses, naming itself
    from canter.adapters.arbiter.cluster import EngineMissing, _pool, play_task
    from canter.adapters.arbiter.engines import EngineSpec
    from canter.adapters.arbiter.game import Player, Settings
    from canter.adapters.arbiter.openings import Opening
    from canter.adapters.arbiter.tc import TimeControl

    control = TimeControl.parse("inf").with_limits(nodes=10)
    ghost = Player(EngineSpec(["./no-such-engine"], name="ghost"), control, 0.0)
    with pytest.raises(EngineMissing, match="engine ghost .* does not start"):
        play_task("run-x", 1, [ghost, ghost], Opening(None), Settings("camelot"))
    # one pool per thread: two games at once on a worker never share an engine
    import threading

    pools = []
    thread = threading.Thread(target=lambda: pools.append(_pool("run-y", Settings("camelot"))))
    thread.start()
    thread.join()
    assert pools[0] is not _pool("run-y", Settings("camelot"))
