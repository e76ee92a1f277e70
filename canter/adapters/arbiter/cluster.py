"""Games as tasks on a Dask cluster (`canter match --cluster ADDRESS`), docs/arbiter.md.

Each task plays one whole game on a worker, with the same game loop, clocks, fault handling
and move validation as a local run (`play_game`); the worker starts the engines itself and
keeps them between games. Results come back to the coordinating arbiter, which alone writes
the record file, so resuming, statistics and SPRT work as in a local run.

A worker that dies in mid-game loses only that game: the scheduler runs the task again on
another worker, and the arbiter records each game number once. Dask is an optional extra
(`pip install 'canter[cluster]'`); nothing here imports it until a cluster is asked for.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from canter.adapters.arbiter.game import EnginePool, Player, Settings, play_game
from canter.adapters.arbiter.openings import Opening
from canter.adapters.arbiter.schedule import Job
from canter.adapters.client.engine import EngineDied, EngineError

EXTRA = "pip install 'canter[cluster]'"
CONNECT_TIMEOUT = 20.0  # seconds to reach a scheduler
# A scheduler that is still starting refuses connections for a moment; one that refuses
# for this long is not there (Dask itself would retry until CONNECT_TIMEOUT).
REFUSED_GRACE = 2.0
POLL = 0.5  # how often the feeder looks at the scheduler while waiting for games
# Tasks kept submitted per worker: one running, one waiting, so a worker never idles
# between games while the rest of the schedule stays unsubmitted (an SPRT that decides
# has little to cancel).
AHEAD_PER_WORKER = 2


class ClusterError(Exception):
    """The cluster cannot be used (Dask missing, scheduler unreachable or gone, an engine
    missing on a worker); the message is one line for the user."""


def import_dask() -> Any:
    """The `distributed` module, or a one-line ClusterError naming the extra."""
    try:
        import distributed
    except ImportError:
        raise ClusterError(f"--cluster needs Dask's distributed scheduler: {EXTRA}") from None
    return distributed


@dataclass
class Connection:
    client: Any
    cluster: Any | None  # a LocalCluster we started (closed with the run)
    address: str

    def workers(self) -> list[str]:
        try:
            return sorted(self.client.scheduler_info().get("workers", {}))
        except Exception:  # the scheduler is gone: no workers to report
            return []

    def alive(self) -> bool:
        return self.client.status == "running"

    def close(self) -> None:
        try:
            self.client.close(timeout=10)
        except Exception:
            pass
        if self.cluster is not None:
            try:
                self.cluster.close(timeout=10)
            except Exception:
                pass


def parse_address(text: str) -> tuple[str, int | None]:
    """("local", N) for `local:N`, else (address, None). ValueError if malformed."""
    text = text.strip()
    if text.startswith("local:"):
        try:
            n = int(text[len("local:"):])
        except ValueError:
            raise ValueError(f"'{text}': local:N needs a number of workers") from None
        if not 1 <= n <= 256:
            raise ValueError(f"'{text}': local:N takes 1 to 256 workers")
        return "local", n
    if not text or any(c.isspace() for c in text):
        raise ValueError(f"'{text}' is not a scheduler address (e.g. tcp://host:8786 or "
                         "local:4)")
    return text, None


def connect(address: str) -> Connection:
    distributed = import_dask()
    where, n = parse_address(address)
    # Dask logs every worker coming and going, and a lost scheduler as pages of
    # tracebacks; an arbiter's output is its own, and it says what went wrong in one line.
    for name in ["distributed", *logging.root.manager.loggerDict]:
        if name.startswith("distributed"):  # (Dask sets levels of its own on some)
            logging.getLogger(name).setLevel(logging.CRITICAL)
    if n is not None:
        cluster = distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=logging.CRITICAL)
        try:
            client = distributed.Client(cluster)
        except BaseException:
            cluster.close()
            raise
        return Connection(client, cluster, cluster.scheduler_address)
    refused = _refused(where)
    if refused:
        raise ClusterError(f"--cluster {address}: no scheduler answers there ({refused})")
    try:
        client = distributed.Client(where, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"--cluster {address}: no scheduler answers there ({exc})") \
            from None
    except ValueError as exc:  # (Dask's own reading of it: `tcp://h:notaport`, `inproc://x`)
        raise ClusterError(f"--cluster {address}: not a scheduler address ({exc})") from None
    return Connection(client, None, where)


def _refused(where: str) -> str | None:
    """Why nothing listens at a TCP scheduler address, if every try for REFUSED_GRACE
    seconds was refused; None where something listens, or where the answer is not so
    plain (another protocol, a host that does not answer): Dask's own timeout decides."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, rest = parse_address(where)
        if scheme != "tcp":
            return None
        host, port = parse_host_port(rest)
    except ValueError:
        return None
    deadline = time.monotonic() + REFUSED_GRACE
    while True:
        try:
            socket.create_connection((host, port), timeout=REFUSED_GRACE).close()
            return None
        except ConnectionRefusedError:
            if time.monotonic() >= deadline:
                return f"connection refused by {host}:{port}"
            time.sleep(0.1)
        except OSError:
            return None


# ---------------------------------------------------------------- on the workers

# Engine processes of this worker process: one pool per run and per thread (a worker may
# run several games at once if started with more than one thread), kept between games.
_POOLS: dict[tuple[str, int], EnginePool] = {}
_STARTED: set[tuple[str, str]] = set()  # (run, engine) this worker has started at least once
_POOLS_LOCK = threading.Lock()


class EngineMissing(Exception):
    """An engine that never started on this worker: the worker cannot play the run, and
    the game must not be scored as that engine's forfeit."""


def _pool(run: str, settings: Settings) -> EnginePool:
    thread = threading.get_ident()
    key = (run, thread)
    stale = []
    with _POOLS_LOCK:
        pool = _POOLS.get(key)
        if pool is None:
            # This thread's engines of another run (its coordinator gone without closing
            # them) go now. Only this thread's: another thread of a worker started with
            # --nthreads above 1 may be playing a game of that run with its own.
            stale = [k for k in _POOLS if k[0] != run and k[1] == thread]
            pool = EnginePool(settings)
            _POOLS[key] = pool
        closing = [_POOLS.pop(k) for k in stale]
    for old in closing:
        old.close()
    return pool


def _worker_name() -> str:
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        return f"{socket.gethostname()}:{os.getpid()}"


def play_task(run: str, number: int, players: list[Player], opening: Opening,
              settings: Settings) -> Any:
    """One game, on a worker: its engines are this worker's, kept for the run's next
    games. Runs in the worker's process (Dask imports this module there). An engine that
    has never started on this worker (a worker that joined after the check, without it)
    raises EngineMissing instead of losing the game."""
    pool = _pool(run, settings)
    for player in players:
        if (run, player.name) in _STARTED:
            continue
        try:
            pool.get(player)
        except (EngineError, ValueError) as exc:
            what = exc.reason if isinstance(exc, EngineDied) and exc.reason else str(exc)
            raise EngineMissing(f"worker {_worker_name()}: engine {player.name} "
                                f"({' '.join(player.spec.command)}) does not start: "
                                f"{what}") from None
        with _POOLS_LOCK:
            _STARTED.add((run, player.name))
    return play_game(number, players, opening, settings, pool, threading.Event())


def check_task(players: list[Player], settings: Settings) -> list[str]:
    """Start every engine once on this worker; the problems found, one line each."""
    pool = EnginePool(settings)
    problems = []
    try:
        for player in players:
            try:
                pool.get(player)
            except EngineError as exc:
                what = (exc.reason if isinstance(exc, EngineDied) and exc.reason
                        else str(exc))
                problems.append(f"engine {player.name} ({' '.join(player.spec.command)}) "
                                f"does not start: {what}")
            except ValueError as exc:
                problems.append(f"engine {player.name}: {exc}")
    finally:
        pool.close()
    return problems


def close_task(run: str) -> str:
    """The run is over: quit this worker's engines."""
    with _POOLS_LOCK:
        pools = [_POOLS.pop(k) for k in list(_POOLS) if k[0] == run]
    for pool in pools:
        pool.close()
    return _worker_name()


# ---------------------------------------------------------------- on the coordinator


def check_workers(conn: Connection, players: list[Player], settings: Settings,
                  wait: float = 0.0) -> dict[str, list[str]]:
    """Every worker starts every engine: {worker address: problems}; waits up to `wait`
    seconds for a first worker to join."""
    deadline = time.monotonic() + wait
    while not conn.workers() and time.monotonic() < deadline:
        time.sleep(0.2)
    if not conn.workers():
        raise ClusterError(f"the scheduler at {conn.address} has no workers")
    return dict(sorted(conn.client.run(check_task, players, settings).items()))


def problem_lines(answers: dict[str, list[str]]) -> list[str]:
    return [f"worker {worker}: {problem}" for worker, problems in answers.items()
            for problem in problems]


@dataclass
class FeedStatus:
    done: int = 0
    running: int = 0
    queued: int = 0
    workers: int = 0

    def text(self, started: float) -> str:
        minutes = max(time.monotonic() - started, 1e-9) / 60
        return (f"cluster: {self.done} done, {self.running} running, {self.queued} queued, "
                f"{self.workers} workers, {self.done / minutes:.1f} games/min")


class Feeder:
    """Submits the schedule's games a few at a time and hands each finished game to
    `deliver` (on the feeder's thread). `stop()` cancels what is queued."""

    def __init__(self, conn: Connection, run: str, jobs: list[Job],
                 task_args: Callable[[Job], tuple], deliver: Callable[[str, object], None],
                 abort: threading.Event) -> None:
        self.conn = conn
        self.run = run
        self.jobs = list(jobs)
        self.task_args = task_args
        self.deliver = deliver
        self.abort = abort
        self.status = FeedStatus(queued=len(self.jobs))
        self._futures: dict[Any, Job] = {}
        self._next = 0
        self.cancelled = 0
        self._lock = threading.Lock()  # the feeder's thread and stop() both change _futures
        self._stopped = False

    def _fill(self) -> None:
        workers = len(self.conn.workers())
        self.status.workers = workers
        limit = max(1, workers) * AHEAD_PER_WORKER
        client = self.conn.client
        with self._lock:
            while (not self._stopped and len(self._futures) < limit
                   and self._next < len(self.jobs)):
                job = self.jobs[self._next]
                self._next += 1
                future = client.submit(play_task, self.run, job.number, *self.task_args(job),
                                       key=f"canter-game-{self.run}-{job.number}", pure=False)
                self._futures[future] = job
            self._count()

    def _count(self) -> None:
        outstanding = len(self._futures)
        running = min(outstanding, self.status.workers)
        self.status.running = running
        self.status.queued = len(self.jobs) - self._next + outstanding - running

    def feed(self) -> None:
        distributed = import_dask()
        try:
            self._fill()
            while not self.abort.is_set():
                with self._lock:
                    if not self._futures:
                        break
                if not self.conn.alive():
                    raise ClusterError(f"the scheduler at {self.conn.address} went away; "
                                       "finished games are saved: run the same command to "
                                       "resume")
                with self._lock:
                    waiting = list(self._futures)
                try:
                    done, _ = distributed.wait(waiting, timeout=POLL,
                                               return_when="FIRST_COMPLETED")
                except distributed.TimeoutError:
                    self._fill()
                    continue
                except distributed.CancelledError:
                    # The client cancels every game it waits on when it loses the
                    # scheduler; a stop of our own cancels them too.
                    if self.abort.is_set() or self._stopped:
                        break
                    raise ClusterError(f"the scheduler at {self.conn.address} went away; "
                                       "finished games are saved: run the same command to "
                                       "resume") from None
                for future in done:
                    with self._lock:
                        job = self._futures.pop(future, None)
                    if job is None or future.status == "cancelled":
                        continue
                    try:
                        result = future.result()
                    except EngineMissing as exc:
                        raise ClusterError(str(exc)) from None
                    except distributed.KilledWorker:
                        raise ClusterError(
                            f"game {job.number} took down every worker that played it; "
                            "is an engine crashing its machine?") from None
                    except (OSError, distributed.comm.CommClosedError) as exc:
                        raise ClusterError(f"the scheduler at {self.conn.address} went away "
                                           f"({exc}); run the same command to resume") \
                            from None
                    self.status.done += 1
                    with self._lock:
                        self._count()
                    self.deliver("game", result)
                if not self.abort.is_set():
                    self._fill()
        except ClusterError as exc:
            self.deliver("error", exc)
        except BaseException as exc:  # a bug in a game: stop the run, say why
            if not self.abort.is_set():
                self.deliver("error", exc)
        finally:
            self.deliver("done", None)

    def stop(self) -> int:
        """Cancel the games not yet finished; how many were cancelled."""
        with self._lock:
            self._stopped = True
            futures = list(self._futures)
            self._futures.clear()
            unsubmitted = len(self.jobs) - self._next
            self._next = len(self.jobs)
        if futures and self.conn.alive():
            try:
                self.conn.client.cancel(futures)
            except Exception:
                pass
        self.cancelled = len(futures) + unsubmitted
        return self.cancelled

    def close_engines(self) -> None:
        if self.conn.alive():
            try:
                self.conn.client.run(close_task, self.run)
            except Exception:
                pass
