"""The arbiter: runs a schedule of games on worker threads, writes each finished game to
the output file as it ends, prints the running score, stops early when an SPRT decides,
and resumes from its output file.

Threads, not processes: each worker spends its time blocked on an engine's pipe, so the
interpreter lock costs nothing, and each worker keeps its own engine processes
(`EnginePool`) between games. Finished games are handed to the main thread, which alone
writes the file and the tally, so output is never interleaved.
"""

from __future__ import annotations

import os
import queue
import shutil
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import TextIO

from canter.adapters.arbiter.cluster import (
    ClusterError,
    Connection,
    Feeder,
    check_workers,
    connect,
    problem_lines,
)
from canter.adapters.arbiter.game import (
    EnginePool,
    EngineRegistry,
    GameAborted,
    GameResult,
    Player,
    Settings,
    play_game,
)
from canter.adapters.arbiter.log import EngineLog, log_problem
from canter.adapters.arbiter.openings import Opening
from canter.adapters.arbiter.output import ProgressOut
from canter.adapters.arbiter.report import (
    elo_text,
    final_table,
    margin_text,
    progress_bar,
    progress_line,
    sprt_state,
    summary,
)
from canter.adapters.arbiter.results import (
    OutputError,
    ResultsFile,
    ResumeError,
    Tally,
    check_output_path,
    check_summary_target,
    write_summary,
)
from canter.adapters.arbiter.schedule import Job, game_key
from canter.adapters.arbiter.stats import two_seat_stats
from canter.adapters.client.engine import EngineDied, EngineError
from canter.adapters.records.format import GameRecord
from canter.adapters.text import count
from canter.engine import get_variant

CLEAR_LINE = "\x1b[2K"  # ANSI: erase the whole line (the cursor stays)


def _isatty(out: TextIO) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError):
        return False


class ArbiterError(Exception):
    """A run that cannot start (an engine that does not start, an output file that cannot
    be written or is not the run's own), or an output file that failed in mid-run."""


class RecordNotWritten(ArbiterError):
    """A finished game could not be added to --pgn (a full disk): the run stops as an
    interrupted one does, its summary and --json written, then fails with this."""


@dataclass
class RunConfig:
    players: list[Player]
    settings: Settings
    jobs: list[Job]
    openings: list[Opening]
    seats: int
    concurrency: int = 1
    pgn: str | None = None
    json_path: str | None = None
    sprt: dict[str, float] | None = None
    out: TextIO | None = None
    quiet: bool = False
    # what makes two runs the same run besides the schedule (see game_key); recorded in
    # every game's Schedule tag and checked when resuming
    identity: dict[str, object] = field(default_factory=dict)
    log_path: str | None = None  # --log: every line exchanged with the engines
    # "bar": a status line redrawn in place (on a terminal); "lines": a line per game;
    # "auto": bar if `out` is a terminal
    progress: str = "auto"
    cluster: str | None = None  # --cluster: a Dask scheduler address or local:N
    # `canter match`: the first engine is the one tested (its pairwise score in multi-seat
    # games); False for a tournament, where no engine is.
    match: bool = True


@dataclass
class RunOutcome:
    tally: Tally
    interrupted: bool = False
    stopped_by_sprt: bool = False
    resumed: int = 0
    # the error that stopped the run part-way (a worker's bug, a lost cluster): the games
    # before it are counted and summarised, then the run fails with it
    error: ArbiterError | None = None
    wall: float = 0.0
    engine_time: float = 0.0
    plies: int = 0  # plies played by engines in this run (not resumed games)
    results: list[GameResult] = field(default_factory=list)


class Arbiter:
    def __init__(self, config: RunConfig) -> None:
        self.config = config
        self.names = [p.name for p in config.players]
        variant = get_variant(config.settings.variant)
        self.tally = Tally(self.names, team_of=variant.team_of if variant.is_team_game else ())
        self.abort = threading.Event()
        # Set by the command's signal handler. The KeyboardInterrupt it also raises can be
        # swallowed when it lands inside a finaliser ("Exception ignored in ..."); the main
        # loop looks at this flag too, so an interrupt is never lost.
        self.interrupt = threading.Event()
        # True from the moment games are played: the loop then stops the run in order on
        # the flag alone (the handler raises nothing), so an interrupt cannot land between
        # a game's write and its count, nor cut the stopping short.
        self.playing = False
        self.registry = EngineRegistry()
        self.file = ResultsFile(config.pgn) if config.pgn else None
        self._jobs_by_number = {j.number: j for j in config.jobs}
        self.keys = {j.number: game_key(config.identity, j, config.openings[j.opening])
                     for j in config.jobs}
        # Every line goes through a ProgressOut, whoever made the config: a standard output
        # that fails (a hung-up terminal, a full disk) silences the progress, not the run.
        out = config.out
        if out is not None and not isinstance(out, ProgressOut):
            out = ProgressOut(out, "canter arbiter")
        self.out = out
        self.bar = out is not None and not config.quiet and (
            config.progress == "bar" or (config.progress == "auto" and _isatty(out)))
        self._bar_shown = False
        self._started = time.monotonic()
        self._drawn_at = 0.0
        self._played = 0
        self.feeder: Feeder | None = None

    def say(self, text: str) -> None:
        """A line of its own; over a status line being redrawn, above it."""
        out = self.out
        if out is not None and not self.config.quiet:
            if self._bar_shown:
                out.write("\r" + CLEAR_LINE)
            out.write(text + "\n")
            if self._bar_shown:
                self._draw()
            out.flush()

    def _draw(self) -> None:
        """Redraw the status line in place (terminal only)."""
        out = self.out
        assert out is not None
        width = shutil.get_terminal_size().columns
        line = progress_bar(self.tally, len(self.config.jobs), self.names, self.config.seats,
                            time.monotonic() - self._started, self._played, width,
                            self.config.sprt, self.config.match)
        out.write("\r" + CLEAR_LINE + line)
        out.flush()
        self._bar_shown = True
        self._drawn_at = time.monotonic()

    # ------------------------------------------------------------ resume

    def load(self) -> int:
        """Read the output file's games into the tally; returns how many. A cut-off game
        at its end is set aside in a side file, once every game before it has been
        checked (a refused file is left exactly as it was)."""
        if self.file is None:
            return 0
        try:
            contents = self.file.read()
        except ResumeError as exc:
            raise ArbiterError(f"--pgn {exc}") from None
        records = contents.games
        ignored = 0
        for record in records:
            try:
                number = int(record.tags.get("Round", ""))
            except ValueError:
                raise ArbiterError(
                    f"--pgn {self.file.path}: game at line {record.line} has no game number "
                    "(Round tag); is this file from another program?") from None
            job = self._jobs_by_number.get(number)
            if job is None:
                ignored += 1
                continue
            expected = [self.names[p] for p in job.players]
            if record.variant != self.config.settings.variant or record.players != expected:
                raise ArbiterError(
                    f"--pgn {self.file.path}: game {number} (line {record.line}) is "
                    f"{record.variant} {' vs '.join(record.players)}, but this run plays "
                    f"{self.config.settings.variant} {' vs '.join(expected)} as game "
                    f"{number}: use another output file for a different run")
            self._check_schedule(record, job, number)
            if number in self.tally.entries:
                raise ArbiterError(f"--pgn {self.file.path}: game {number} appears twice")
            if record.result == "*":
                raise ArbiterError(
                    f"--pgn {self.file.path}: game {number} (line {record.line}) has no result "
                    "('*'); the arbiter writes only finished games: is this file from "
                    "another program?")
            try:
                self.tally.add(job, record)
            except ValueError as exc:
                raise ArbiterError(f"--pgn {self.file.path}: game {number} (line {record.line}): "
                                   f"{exc}") from None
        if contents.tail:
            try:
                side = self.file.set_aside(contents)
            except (OSError, ResumeError) as exc:
                why = exc.strerror if isinstance(exc, OSError) else str(exc)
                raise ArbiterError(f"--pgn {self.file.path}: could not set aside the cut-off game "
                                   f"at its end ({why}); nothing was changed") from None
            self.say(f"Set aside a cut-off game at the end of {self.file.path} "
                     f"({len(contents.tail)} bytes) in {side}; it will be played again")
        if ignored:
            self.say(f"{count(ignored, 'game')} in {self.file.path} "
                     f"{'lies' if ignored == 1 else 'lie'} beyond this run's schedule and "
                     f"{'is' if ignored == 1 else 'are'} not counted")
        return self.tally.games

    def _check_schedule(self, record: GameRecord, job: Job, number: int) -> None:
        """A game of the file must be the game this run schedules under its number: same
        opening, and (files written since the Schedule tag exists) the same key."""
        assert self.file is not None
        opening = self.config.openings[job.opening]
        where = f"--pgn {self.file.path}: game {number} (line {record.line})"
        advice = "use another output file for a different run, or the same command to resume"
        book = list(opening.moves)
        if record.start_position != opening.position or record.moves[:len(book)] != book:
            played = " ".join([record.start_position or "startpos", *record.moves[:len(book)]])
            wanted = " ".join([opening.position or "startpos", *book])
            raise ArbiterError(
                f"{where} started from {played}, but this run plays game {number} from "
                f"{wanted} (another --openings file, --opening-order or --seed?): {advice}")
        key = record.tags.get("Schedule")
        if key is not None and key != self.keys[number]:
            raise ArbiterError(
                f"{where} belongs to another run (Schedule {key}, this run {self.keys[number]}):"
                " the engines' commands, options or limits, the opening order or seed, "
                f"the seat orders, the adjudication or --event differ: {advice}")

    # ------------------------------------------------------------ the run

    def check_outputs(self) -> None:
        """Every output file can be written and is the run's own to write, checked before
        any game: a bad path found after hours of games would lose their summary."""
        cfg = self.config
        outputs = [(option, path) for option, path in
                   (("--pgn", cfg.pgn), ("--json", cfg.json_path), ("--log", cfg.log_path))
                   if path is not None]
        try:
            for option, path in outputs:
                check_output_path(option, path, append=option != "--json",
                                  regular=option != "--log")
            if cfg.json_path is not None:
                check_summary_target(cfg.json_path)
        except OutputError as exc:
            raise ArbiterError(str(exc)) from None
        if cfg.log_path is not None:
            problem = log_problem(cfg.log_path)
            if problem:
                raise ArbiterError(f"--log {cfg.log_path}: {problem}")
        seen: dict[str, str] = {}
        for option, path in outputs:
            real = os.path.realpath(path)
            if real in seen:
                raise ArbiterError(f"{seen[real]} and {option} name the same file {path}: "
                                   "give each its own")
            seen[real] = option

    def preflight(self, pool: EnginePool) -> None:
        """Start every engine once: a command that does not run or an option it does not
        have is the operator's mistake, reported before any game."""
        for player in self.config.players:
            try:
                pool.get(player)
            except EngineError as exc:
                what = (f"could not be started: {exc.reason}"
                        if isinstance(exc, EngineDied) and exc.reason else f"does not start: {exc}")
                raise ArbiterError(f"engine {player.name} ({' '.join(player.spec.command)}) "
                                   f"{what}") from None
            except ValueError as exc:
                raise ArbiterError(f"engine {player.name}: {exc}") from None

    def run(self) -> RunOutcome:
        self.check_outputs()
        if self.file is None:
            return self._run()
        try:
            self.file.hold()
        except ResumeError as exc:
            raise ArbiterError(f"--pgn {exc}") from None
        except OSError as exc:
            raise ArbiterError(f"--pgn {self.file.path}: cannot be written ({exc.strerror})") \
                from None
        try:
            return self._run()
        finally:
            self.file.release()

    def _run(self) -> RunOutcome:
        cfg = self.config
        started = self._started = time.monotonic()
        resumed = self.load()
        outcome = RunOutcome(self.tally, resumed=resumed)
        total = len(cfg.jobs)
        if resumed:
            self.say(f"Resuming: {resumed} of {total} games already in {cfg.pgn}")
        state = sprt_state(self.tally, cfg.sprt)
        pending = [j for j in cfg.jobs if j.number not in self.tally.entries]
        if state is not None and state.finished:
            self.say(f"SPRT already decided ({state.decision}); no more games")
            outcome.stopped_by_sprt = True
            pending = []
        try:
            log = EngineLog(cfg.log_path) if cfg.log_path else None
        except OSError as exc:
            raise ArbiterError(f"--log {cfg.log_path}: cannot be written ({exc.strerror})") \
                from None
        results: queue.Queue[tuple[str, object]] = queue.Queue()
        workers: list[threading.Thread] = []
        conn: Connection | None = None
        unwritten: RecordNotWritten | None = None
        pools = [] if cfg.cluster else [
            EnginePool(cfg.settings, self.registry, log)
            for _ in range(min(cfg.concurrency, max(1, len(pending))))]
        finished = False
        jobs: queue.Queue[Job] = queue.Queue()
        for job in pending:
            jobs.put(job)
        try:
            if cfg.cluster and pending:
                conn = self._connect(pending, results)
                assert self.feeder is not None
                t = threading.Thread(target=self.feeder.feed, daemon=True)
                t.start()
                workers.append(t)
            elif pending:
                self.preflight(pools[0])
            for pool in pools:
                t = threading.Thread(target=self._work, args=(pool, jobs, results), daemon=True)
                t.start()
                workers.append(t)
            remaining = len(pending)
            self.playing = True
            if self.interrupt.is_set():
                raise KeyboardInterrupt
            while remaining:
                if self.interrupt.is_set():
                    raise KeyboardInterrupt
                try:
                    kind, payload = results.get(timeout=0.25)
                except queue.Empty:
                    if not any(t.is_alive() for t in workers) and results.empty():
                        break
                    if self.bar and time.monotonic() - self._drawn_at >= 1.0:
                        self._draw()  # the clocks move on between games
                    continue
                if kind == "error":
                    # Stopped as an interrupt stops it (the games that end meanwhile
                    # written, the table and --json of the games played), then failed.
                    outcome.error = self._stop_error(payload)
                    break
                if kind == "done":
                    continue
                remaining -= 1
                self._record(payload, outcome)  # type: ignore[arg-type]
                state = sprt_state(self.tally, cfg.sprt)
                if state is not None and state.finished:
                    self.say(f"SPRT decided: {state.decision} (LLR {state.llr:.2f})")
                    outcome.stopped_by_sprt = True
                    break
            else:
                # Every game played: the engines are idle and get `quit` (pool.close, below)
                # rather than a kill, as an engine that saves something on quit expects.
                finished = True
        except KeyboardInterrupt:
            outcome.interrupted = True
            self.say("Interrupted: finished games are saved; run the same command to resume")
        except RecordNotWritten as exc:
            outcome.interrupted = True
            unwritten = exc
        finally:
            self.abort.set()
            if not finished:
                self.registry.kill_all()  # (also wakes workers blocked reading from one)
            try:
                if self.feeder is not None:
                    cancelled = self.feeder.stop()
                    if cancelled and outcome.stopped_by_sprt:
                        self.say(f"Cancelled {count(cancelled, 'game')} not yet played")
                for t in workers:
                    t.join(timeout=5.0)
                if self.feeder is not None and conn is not None:
                    self.feeder.close_engines()
            except KeyboardInterrupt:
                # A second interrupt cuts the wait for the workers short, not the writing
                # of the games that ended while the run stopped (the drain below).
                outcome.interrupted = True
            finally:
                if conn is not None:
                    conn.close()
            try:
                if unwritten is None:
                    self._drain(results, outcome)
            except RecordNotWritten as exc:
                outcome.interrupted = True
                unwritten = exc
            finally:
                for pool in pools:
                    pool.close()
                if log is not None:
                    log.close()
                    if log.error is not None:
                        self.say(f"Warning: --log {cfg.log_path}: writing stopped "
                                 f"({log.error}); the games and results are kept")
        if self._bar_shown:  # leave the last state of the status line on the screen
            self._draw()
            assert self.out is not None
            self.out.write("\n")
            self._bar_shown = False
        if self.interrupt.is_set():  # (one that came while the run was ending)
            outcome.interrupted = True
        outcome.wall = time.monotonic() - started
        self.say(final_table(self.tally, self.names, cfg.seats, total, cfg.sprt, cfg.match))
        if cfg.json_path:
            data = summary(self.tally, self.names, cfg.seats, total, cfg.settings.variant,
                           cfg.sprt, outcome.interrupted, outcome.stopped_by_sprt, cfg.match,
                           str(outcome.error) if outcome.error is not None else None)
            try:
                write_summary(cfg.json_path, data)
            except OSError as exc:
                saved = f"; the games are in {cfg.pgn}" if cfg.pgn else ""
                failed = (f"--json {cfg.json_path}: the summary could not be written "
                          f"({exc.strerror}){saved}")
                if outcome.error is not None:  # (the error that stopped the run comes first)
                    failed = f"{outcome.error} (and {failed})"
                raise ArbiterError(failed) from None
        if outcome.error is not None:
            raise outcome.error
        if unwritten is not None:
            raise unwritten
        return outcome

    def _stop_error(self, payload: object) -> ArbiterError:
        """The one-line error a worker's failure stops the run with."""
        if isinstance(payload, ArbiterError):
            return payload
        if isinstance(payload, ClusterError):
            return ArbiterError(f"--cluster {self.config.cluster}: {payload}")
        # A bug, or a value no check caught: one line, not a traceback; the finished games
        # are already in the record file.
        first = (str(payload).splitlines() or [""])[0][:200]
        error = ArbiterError(f"the run stopped: {type(payload).__name__}: {first}")
        if isinstance(payload, BaseException):
            error.__cause__ = payload
        return error

    def _connect(self, pending: list[Job],
                 results: queue.Queue[tuple[str, object]]) -> Connection:
        """Reach the cluster, check the engines on every worker, and set up the feeder."""
        cfg = self.config
        assert cfg.cluster is not None
        try:
            conn = connect(cfg.cluster)
        except (ClusterError, ValueError) as exc:
            raise ArbiterError(str(exc)) from None
        try:
            problems = problem_lines(check_workers(conn, cfg.players, cfg.settings, wait=10.0))
        except ClusterError as exc:
            conn.close()
            raise ArbiterError(f"--cluster {cfg.cluster}: {exc}") from None
        except BaseException as exc:  # an interrupt too: the local cluster goes down first
            conn.close()
            if isinstance(exc, Exception):
                raise ArbiterError(f"--cluster {cfg.cluster}: the workers could not be asked "
                                   f"({exc})") from None
            raise
        if problems:
            conn.close()
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise ArbiterError(f"--cluster {cfg.cluster}: {problems[0]}{more}")
        run = uuid.uuid4().hex[:12]

        def task_args(job: Job) -> tuple:
            return ([cfg.players[p] for p in job.players], cfg.openings[job.opening],
                    cfg.settings)

        self.feeder = Feeder(conn, run, pending, task_args,
                             lambda kind, payload: results.put((kind, payload)), self.abort)
        self.say(f"Cluster {conn.address}: {count(len(conn.workers()), 'worker')}")
        return conn

    def _drain(self, results: queue.Queue[tuple[str, object]], outcome: RunOutcome) -> None:
        """Record the games that ended normally while the run was stopping, but none
        after the SPRT decided: they could move the LLR back between its bounds, and a
        resumed run would then play on after a decided test. One of them may decide it."""
        while not outcome.stopped_by_sprt:
            try:
                kind, payload = results.get_nowait()
            except queue.Empty:
                break
            if kind == "game":
                self._record(payload, outcome)  # type: ignore[arg-type]
                state = sprt_state(self.tally, self.config.sprt)
                if state is not None and state.finished:
                    self.say(f"SPRT decided: {state.decision} (LLR {state.llr:.2f})")
                    outcome.stopped_by_sprt = True

    def _record(self, result: GameResult, outcome: RunOutcome) -> None:
        job = self._jobs_by_number[result.number]
        if result.number in self.tally.entries:
            return
        result.record.tags["Schedule"] = self.keys[result.number]
        if self.file is not None:
            try:
                self.file.append(result.record)
            except OSError as exc:
                raise RecordNotWritten(
                    f"--pgn {self.file.path}: game {result.number} could not be written "
                    f"({exc.strerror}); the games before it are saved: run the same command "
                    "to resume once the file can be written") from None
        entry = self.tally.add(job, result.record)
        outcome.results.append(result)
        outcome.engine_time += result.engine_time
        outcome.plies += result.plies
        self._played += 1
        line = progress_line(self.tally, len(self.config.jobs), entry, self.names,
                             self.config.seats, self.config.sprt, self.config.match)
        if self.feeder is not None:
            line += " | " + self.feeder.status.text(self._started)
            if self.config.seats == 2 and len(self.names) == 2:
                w, d, lo = self.tally.score(0, 1)
                est = two_seat_stats(w, d, lo).elo
                line += f", Elo {elo_text(est.elo)} +/- {margin_text(est)}"
        if not self.bar:
            self.say(line)
            return
        if entry.termination not in ("normal", "adjudication", "max plies"):
            self.say(line)  # a fault stays on the screen above the status line
        self._draw()

    def _work(self, pool: EnginePool, jobs: queue.Queue[Job],
              results: queue.Queue[tuple[str, object]]) -> None:
        cfg = self.config
        try:
            while not self.abort.is_set():
                try:
                    job = jobs.get_nowait()
                except queue.Empty:
                    break
                players = [cfg.players[p] for p in job.players]
                try:
                    result = play_game(job.number, players, cfg.openings[job.opening],
                                       cfg.settings, pool, self.abort)
                except GameAborted:
                    break
                results.put(("game", result))
        except BaseException as exc:  # a bug or a bad option: stop the run, say why
            if not self.abort.is_set():
                results.put(("error", exc))
        finally:
            results.put(("done", None))
