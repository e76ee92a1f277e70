"""Drive an engine process that speaks the canter protocol (synchronous, through pipes).

Modelled on python-chess's `chess.engine.SimpleEngine`:

    from canter.adapters.client.engine import Engine, Limit

    with Engine.start(["canter"]) as engine:
        result = engine.play("startpos", Limit(depth=3), moves=["C6-E8-G8"])
        print(result.move, result.info.score, result.elapsed)

Every step has a timeout; failures are typed (`EngineDied`, `EngineStalled`,
`EngineProtocolError`, all `EngineError`); every line in both directions is logged with the
time. See docs/client.md for the full description.
"""

from __future__ import annotations

import collections
import math
import numbers
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from queue import Empty, Queue
from typing import IO, Any

import pexpect
from pexpect.popen_spawn import PopenSpawn
from pexpect.spawnbase import SpawnBase

from canter.adapters.client.parse import (
    ENGINE_KEYWORDS,
    Info,
    LineError,
    Option,
    Score,
    parse_bestmove,
    parse_id,
    parse_info,
    parse_option,
)
from canter.adapters.client.referee import (
    BoardLayout,
    Piece,
    parse_board,
    parse_legal,
    parse_pieces,
    parse_ranking,
    parse_result,
    parse_turn,
)

__all__ = [
    "Engine",
    "Limit",
    "PlayResult",
    "Analysis",
    "Info",
    "Score",
    "Option",
    "LogRecord",
    "EngineError",
    "EngineDied",
    "EngineStalled",
    "EngineProtocolError",
    "EngineStateError",
    "EngineRefused",
    "SEAT_CLOCK_KEYWORDS",
]

# ---------------------------------------------------------------- errors


def _start_reason(exc: OSError) -> str:
    """'No such file or directory: ./x' rather than Python's '[Errno 2] ...' spelling; a
    folder given as the command is said to be one (the system says 'Permission denied')."""
    if isinstance(exc, PermissionError) and exc.filename and os.path.isdir(exc.filename):
        return f"{exc.filename} is a folder, not a program"
    if exc.strerror:
        return f"{exc.strerror}: {exc.filename}" if exc.filename else exc.strerror
    return str(exc)


class EngineError(Exception):
    """Base of everything the client raises about an engine."""


class EngineDied(EngineError):
    """The process ended (or closed its output). `exit_code` is the return code
    (negative: killed by that signal); `tail` holds its last output lines. A process that
    could not be started at all (step "start") has no exit code; `reason` says why."""

    def __init__(self, step: str, exit_code: int | None, tail: Sequence[str] = (),
                 reason: str | None = None):
        self.step = step
        self.exit_code = exit_code
        self.tail = list(tail)
        self.reason = reason
        if reason is not None:
            super().__init__(f"engine could not be started: {reason}")
            return
        last = self.tail[-1] if self.tail else ""
        if len(last) > 200:  # (an engine may die after a line of megabytes)
            last = last[:200] + f"... ({len(last):,} characters)"
        detail = f"; last output: {last!r}" if self.tail else ""
        super().__init__(f"engine died during {step} ({exit_text(exit_code)}){detail}")


def exit_text(exit_code: int | None) -> str:
    """How a process ended, for a message: its exit code, the signal that killed it (a
    negative code), or, with no code, that it closed its output and still runs."""
    if exit_code is None:
        return "it closed its output; its process still runs"
    if exit_code < 0:
        try:
            name = f" ({signal.Signals(-exit_code).name})"
        except ValueError:
            name = ""
        return f"killed by signal {-exit_code}{name}"
    return f"exit code {exit_code}"


class EngineStalled(EngineError):
    """No expected answer within the step's timeout, or (`writing`) the engine took no
    input for that long: its input pipe is full. The process is still running."""

    def __init__(self, step: str, timeout: float | None, elapsed: float,
                 writing: bool = False):
        self.step = step
        self.timeout = timeout
        self.elapsed = elapsed
        self.writing = writing
        if writing:
            super().__init__(f"engine stalled during {step}: it read none of its input for "
                             f"{elapsed:.3f} s (the pipe to it is full)")
        else:
            super().__init__(f"engine stalled during {step}: no answer after {elapsed:.3f} s")


class EngineProtocolError(EngineError):
    """The engine printed something the protocol does not allow; `line` is that line."""

    def __init__(self, step: str, line: str, reason: str):
        self.step = step
        self.line = line
        self.reason = reason
        super().__init__(f"protocol error during {step}: {reason}: {line!r}")


class EngineRefused(EngineError):
    """The engine refused a command with its one `info string error: ...` line (a position
    string or move it does not accept, a query about a cell it does not have); `reason` is
    that line's text. The engine carries on as before the command."""

    def __init__(self, command: str, reason: str) -> None:
        super().__init__(f"{command}: {reason}")
        self.command = command
        self.reason = reason


class EngineStateError(EngineError):
    """The call does not fit the client's state (e.g. `play` while a search runs, or any
    call after the engine has quit). Nothing was sent."""


# ---------------------------------------------------------------- limits

# Clock keywords of `go`, per number of seats: one (time, increment) pair per seat, in
# seat order. Two seats use UCI's names; see docs/protocol.md for three.
SEAT_CLOCK_KEYWORDS: dict[int, tuple[tuple[str, str], ...]] = {
    2: (("wtime", "winc"), ("btime", "binc")),
    3: (("bluetime", "blueinc"), ("redtime", "redinc"), ("greentime", "greeninc")),
    4: (("redtime", "redinc"), ("greentime", "greeninc"), ("bluetime", "blueinc"),
        ("yellowtime", "yellowinc")),
}


def _ms(seconds: float) -> int:
    return max(0, round(seconds * 1000))


def _is_seconds(value: object) -> bool:
    """A finite real number. A bool is an int to Python, but `movetime=True` is a
    mistake, not one second."""
    return (isinstance(value, numbers.Real) and not isinstance(value, bool)
            and math.isfinite(value))


@dataclass(frozen=True)
class Limit:
    """What a search is asked to do. Times are in seconds (sent as milliseconds).

    `times`/`incs` hold each seat's clock in seat order (White, Black; Blue, Red, Green;
    or Red, Green, Blue, Yellow); their length picks the keywords (see
    SEAT_CLOCK_KEYWORDS). Several limits may be given together; the engine stops at the
    first reached."""

    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None
    mate: int | None = None
    infinite: bool = False
    times: Sequence[float] | None = None
    incs: Sequence[float] | None = None
    movestogo: int | None = None

    def __post_init__(self) -> None:
        # Refused here, where the mistake is made, rather than sent for the engine to
        # refuse (or, a time, quietly rounded to nothing).
        for name in ("depth", "nodes", "mate", "movestogo"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or value < 1):
                raise ValueError(f"Limit {name} must be a whole number of at least 1, "
                                 f"not {value!r}")
        if self.movetime is not None:
            if not (_is_seconds(self.movetime) and self.movetime > 0):
                raise ValueError(f"Limit movetime must be a number of seconds above 0, "
                                 f"not {self.movetime!r}")
            if _ms(self.movetime) < 1:  # it would be sent as `movetime 0`
                raise ValueError(f"Limit movetime must be at least 0.001 s (it is sent in "
                                 f"whole milliseconds), not {self.movetime!r}")
        for name in ("times", "incs"):
            values = getattr(self, name)
            if values is None:
                continue
            if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
                raise ValueError(f"Limit {name} must be a sequence of seconds, one per "
                                 f"seat, not {values!r}")
            if not all(_is_seconds(v) for v in values):
                raise ValueError(f"Limit {name} must be finite numbers of seconds, "
                                 f"not {values!r}")
        if self.times is not None and len(self.times) not in SEAT_CLOCK_KEYWORDS:
            raise ValueError(f"clocks for {len(self.times)} seats are not supported "
                             f"(give {', '.join(map(str, SEAT_CLOCK_KEYWORDS))})")
        if self.incs is not None and self.times is None:
            raise ValueError("Limit incs need clock times: give times too")
        if self.incs is not None and self.times is not None and self.incs and \
                len(self.incs) != len(self.times):
            raise ValueError("give one increment per seat")

    def go_arguments(self) -> list[str]:
        words: list[str] = []
        if self.times is not None:
            keywords = SEAT_CLOCK_KEYWORDS.get(len(self.times))
            if keywords is None:
                raise ValueError(f"clocks for {len(self.times)} seats are not supported")
            incs = list(self.incs) if self.incs is not None else []
            if incs and len(incs) != len(self.times):
                raise ValueError("give one increment per seat")
            for seat, (time_word, _) in enumerate(keywords):
                words += [time_word, str(_ms(self.times[seat]))]
            for seat, (_, inc_word) in enumerate(keywords):
                if incs:
                    words += [inc_word, str(_ms(incs[seat]))]
        elif self.incs is not None:
            raise ValueError("increments need clock times")
        if self.movestogo is not None:
            words += ["movestogo", str(self.movestogo)]
        if self.depth is not None:
            words += ["depth", str(self.depth)]
        if self.nodes is not None:
            words += ["nodes", str(self.nodes)]
        if self.mate is not None:
            words += ["mate", str(self.mate)]
        if self.movetime is not None:
            words += ["movetime", str(_ms(self.movetime))]
        if self.infinite:
            words.append("infinite")
        return words

    def bound(self) -> float | None:
        """Longest time the search may take by this limit alone, or None if only depth,
        nodes or infinite bound it."""
        if self.infinite:
            return None
        candidates: list[float] = []
        if self.movetime is not None:
            candidates.append(self.movetime)
        if self.times is not None:
            candidates.append(max(self.times) + max(self.incs or [0.0]))
        return min(candidates) if candidates else None


# ---------------------------------------------------------------- results and log


@dataclass
class PlayResult:
    """Outcome of a search. `move` is None when the engine says it has no legal move.
    `info` merges the main-line (multipv 1) info lines, later values winning, so it holds the
    last reported score, depth, nodes, pv and time; `infos` keeps every line parsed.
    `elapsed` is the wall time in seconds from sending `go` to reading `bestmove`.
    `errors` holds the texts of `info string error: ...` lines read during the search (e.g.
    the engine rejected the position and searched another one: an arbiter must look)."""

    move: str | None
    ponder: str | None = None
    info: Info = field(default_factory=Info)
    infos: list[Info] = field(default_factory=list)
    elapsed: float = 0.0
    errors: list[str] = field(default_factory=list)
    # the engine's `info string result <outcome>` (it found the game decided), else None
    outcome: str | None = None


@dataclass(frozen=True)
class LogRecord:
    """One line on the pipe. `direction` is ">" (sent to the engine), "<" (read from its
    stdout) or "!" (read from its stderr, never taken as protocol);
    `time` is wall-clock (time.time()), `elapsed` seconds since the process started."""

    time: float
    elapsed: float
    direction: str
    line: str
    engine: str = ""

    def __str__(self) -> str:
        stamp = time.strftime("%H:%M:%S", time.localtime(self.time))
        millis = int((self.time % 1) * 1000)
        return f"{stamp}.{millis:03d} {self.engine} {self.direction} {self.line}"


# ---------------------------------------------------------------- the pipe


# How often a wait for the engine's output asks whether the process still runs, and how
# long the output of one that has exited may still take to arrive (see _Pipe._next_chunk).
DEATH_POLL = 0.25
EXITED_GRACE = 0.5  # (a reader that has output hands it over at once)
STDERR_CHUNK = 65536  # bytes read from the engine's stderr at once
_NOTHING = object()  # _Pipe._next_chunk: no output within the timeout


class _Pipe(PopenSpawn):
    """PopenSpawn with the changes an arbiter needs: reads block on the reader thread's
    queue instead of busy-polling (a thinking engine must not compete with a busy-waiting
    client for the CPU), waking only to see whether the process has ended; stderr is read
    on its own (pexpect merges it into stdout, where an engine's diagnostics would pass for
    protocol lines); writes are bounded by a timeout."""

    def __init__(
        self,
        cmd: list[str],
        *,
        cwd: str | None,
        env: Mapping[str, str] | None,
        on_stderr: Callable[[str], None],
        new_session: bool = False,
    ) -> None:
        # Mirrors PopenSpawn.__init__ except for stderr=PIPE and its reader thread.
        SpawnBase.__init__(
            self, timeout=30, maxread=65536, encoding="utf-8", codec_errors="replace"
        )
        self.crlf = "\n"
        self.proc = subprocess.Popen(
            cmd,
            bufsize=0,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
            start_new_session=new_session,
        )
        self.pid = self.proc.pid
        self.closed = False
        self._unsent = b""  # the part of a line a timed-out write left unwritten
        self._nonblocking_stdin = False
        if os.name == "posix" and self.proc.stdin is not None:
            # Writes wait in select(), bounded by a timeout (see write_line).
            os.set_blocking(self.proc.stdin.fileno(), False)
            self._nonblocking_stdin = True
        self._buf = self.string_type()
        self._read_queue: Queue[bytes | None] = Queue()
        self.delayafterread = None
        threading.Thread(target=self._read_incoming, daemon=True).start()
        self.stderr_reader = threading.Thread(target=self._read_stderr, args=(on_stderr,),
                                              daemon=True)
        self.stderr_reader.start()

    # Each reader thread closes its own pipe once it has read to the end: closing it from
    # another thread while a read blocks could hand the descriptor number to a new file.
    def _read_incoming(self) -> None:
        try:
            super()._read_incoming()
        finally:
            _close_quietly(self.proc.stdout)

    def _read_stderr(self, on_stderr: Callable[[str], None]) -> None:
        stream = self.proc.stderr
        assert stream is not None
        try:
            fd = stream.fileno()
            # Whole chunks, split here: readline() on the unbuffered pipe made one system
            # call per byte (2 MB of an engine's debug output cost seconds of CPU).
            started: list[bytes] = []  # a line begun in earlier chunks (joined once: linear)
            while chunk := os.read(fd, STDERR_CHUNK):
                *lines, rest = chunk.split(b"\n")
                if lines and started:
                    lines[0] = b"".join([*started, lines[0]])
                    started = []
                for raw in lines:
                    self._emit_stderr(on_stderr, raw)
                if rest:
                    started.append(rest)
            if started:  # a last line without its newline
                self._emit_stderr(on_stderr, b"".join(started))
        except (OSError, ValueError):
            pass
        finally:
            _close_quietly(stream)

    @staticmethod
    def _emit_stderr(on_stderr: Callable[[str], None], raw: bytes) -> None:
        # Whatever the logging raises, this thread must read on: were it to end, the pipe
        # would be closed (or left full) and the engine's next write to stderr would fail
        # (EPIPE) or block for ever.
        try:
            on_stderr(raw.decode("utf-8", errors="replace").rstrip("\r"))
        except Exception:
            pass

    def read_nonblocking(self, size: int, timeout: float | None) -> str:  # type: ignore[override]
        if not self._buf and not self._read_reached_eof:
            if timeout == -1:
                timeout = self.timeout
            incoming = self._next_chunk(timeout)
            if incoming is _NOTHING:
                return self.string_type()
            if incoming is None:
                self._read_reached_eof = True
            else:
                assert isinstance(incoming, bytes)
                self._buf += self._decoder.decode(incoming, final=False)
        return super().read_nonblocking(size, 0)

    def _next_chunk(self, timeout: float | None) -> bytes | None | object:
        """The reader thread's next chunk, None at the end of the output, or _NOTHING if
        nothing came within `timeout` (None: no limit).

        The end of the output is not only the pipe's end: a process that has exited is
        at its end too, once what it wrote has been read. A child of the engine (a helper,
        a wrapper script's `sleep &`) may hold the pipe open long after the engine died;
        waiting for the pipe alone, a dead engine would pass for a stalled one, and a wait
        without a deadline would never end. Hence the wait in slices, asking the process
        in between."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            exited = self.proc.poll() is not None
            if exited:
                # Its last output is in the pipe already: give the reader a moment to
                # hand it over, then take the silence for the end.
                wait = EXITED_GRACE
            elif deadline is None:
                wait = DEATH_POLL
            else:
                wait = min(DEATH_POLL, max(0.0, deadline - time.monotonic()))
            try:
                return self._read_queue.get(timeout=wait)
            except Empty:
                pass
            if exited:
                return None
            if deadline is not None and time.monotonic() >= deadline:
                return _NOTHING

    def write_line(self, data: bytes, timeout: float) -> None:
        """Write all of `data` to the engine's stdin within `timeout` seconds, else raise
        TimeoutError (what could not be written is kept and goes first next time, so the
        engine never reads half a line glued to the next one). A blocking write would hang
        for ever on an engine that no longer reads its input once the pipe is full."""
        stdin = self.proc.stdin
        assert stdin is not None
        data = self._unsent + data
        self._unsent = b""
        if not self._nonblocking_stdin:
            stdin.write(data)  # (no non-blocking pipes here: as before, unbounded)
            return
        fd = stdin.fileno()
        deadline = time.monotonic() + timeout
        while data:
            try:
                data = data[os.write(fd, data):]
                continue
            except BlockingIOError:
                pass
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([], [fd], [], remaining)[1]:
                self._unsent = data
                raise TimeoutError(f"{len(data)} bytes not written")


def _close_quietly(stream: IO[bytes] | None) -> None:
    if stream is not None:
        try:
            stream.close()
        except (OSError, ValueError):
            pass


class _Search:
    def __init__(self, callback: Callable[[Info], None] | None) -> None:
        self.callback = callback
        self.started = time.monotonic()
        self.infos: list[Info] = []
        self.pending: collections.deque[Info] = collections.deque()
        self.merged = Info()
        self.errors: list[str] = []
        self.outcome: str | None = None
        self.result: PlayResult | None = None
        self.stopped = False
        self.lines: list[str] = []  # stdout lines read while it ran, bestmove included
        self.claimed = False  # its result was handed to the caller
        self.callback_error: BaseException | None = None  # what `callback` raised
        # A malformed bestmove ended the search without a result: every later wait for
        # that result raises this again instead of waiting for a bestmove that never comes.
        self.error: EngineProtocolError | None = None

    def check(self) -> None:
        if self.error is not None:
            raise self.error


_NEWLINE = ["\n", pexpect.EOF, pexpect.TIMEOUT]

DEFAULT_TIMEOUT = 10.0  # handshake, isready, quit, stop
DEFAULT_MARGIN = 5.0  # added to a time-bounded search before it counts as stalled
STDERR_DRAIN = 1.0  # seconds close() waits for the stderr reader to log what is left
# Past a deadline, how long lines already sent are still read before the engine counts as
# stalled: long enough to reach a bestmove queued behind a burst of info lines, short
# enough that an engine printing without end cannot hold its reader.
FLOOD_GRACE = 1.0
# How long a search is given to end when its caller is leaving with an exception of its
# own (an `info` callback raised, the body of `with analysis` raised): short, for that
# exception is what the caller waits to see.
QUICK_STOP = 0.5
LOG_ERRORS_KEPT = 100  # exceptions of on_line / the log file kept in Engine.log_errors


class Engine:
    """One engine process. Not thread-safe: one thread at a time (kill() excepted).

    Start with `Engine.start(command)` (spawns and does the handshake) or construct and
    call `handshake()` yourself. Use it as a context manager, or call `quit()`/`close()`.
    """

    def __init__(
        self,
        command: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        *,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        extra_env: Mapping[str, str] | None = None,
        name: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        search_margin: float = DEFAULT_MARGIN,
        search_timeout: float | None = 600.0,
        strict: bool = False,
        on_line: Callable[[LogRecord], None] | None = None,
        log_file: str | os.PathLike[str] | IO[str] | None = None,
        log_limit: int | None = 100_000,
        new_session: bool = False,
    ) -> None:
        if not (_is_seconds(timeout) and timeout > 0):
            # every non-search wait (and the reaping of the process) is bounded by it:
            # None would let a silent engine hold its caller for ever
            raise ValueError(f"Engine timeout must be a number of seconds above 0, "
                             f"not {timeout!r}")
        # One program path may be a str or a pathlib.Path (which is no sequence: list()
        # of it is a TypeError); the arguments of a list may be paths too.
        if isinstance(command, (str, os.PathLike)):
            command = [command]
        self.command = [os.fspath(a) if isinstance(a, os.PathLike) else a for a in command]
        self._given_name = name
        self.name = name or os.path.basename(self.command[0])
        self._log_lock = threading.RLock()  # on_line may call back into the engine
        self._stop_lock = threading.Lock()  # Analysis.stop() may come from another thread
        self.timeout = timeout
        self.search_margin = search_margin
        self.search_timeout = search_timeout
        self.strict = strict
        self.on_line = on_line
        self.log: collections.deque[LogRecord] = collections.deque(maxlen=log_limit)
        # what `on_line` or writing `log_file` raised (the last LOG_ERRORS_KEPT), in order
        self.log_errors: collections.deque[Exception] = collections.deque(
            maxlen=LOG_ERRORS_KEPT)
        self.id: dict[str, str] = {}
        self.options: dict[str, Option] = {}  # keyed by lower-case name
        self.exit_code: int | None = None
        # texts of every `info string error: ...` line the engine printed (its way of
        # refusing a command while carrying on)
        self.errors: list[str] = []
        # texts of every `info string warning: ...` line (something accepted that will
        # not do what it seems to, e.g. a `Rule ...` option the game never consults)
        self.warnings: list[str] = []
        # `info` lines the client could not read and passed over (strict=False), each as
        # "reason: line": a GUI or arbiter shows the search without them, as cutechess-cli
        # and python-chess do, rather than ending the game over a progress report
        self.ignored: list[str] = []
        self._search: _Search | None = None
        self._raw: _Search | None = None  # the last search started by go_raw()
        # The last search that ended, kept because its bestmove may have been read by
        # another call (a ping() after a stalled play()): stop() still owes its result.
        self._ended: _Search | None = None
        self._quit = False
        self._own_log_file = False
        self._log_file: IO[str] | None = None
        if log_file is not None:
            if isinstance(log_file, (str, os.PathLike)):
                self._log_file = open(log_file, "a", encoding="utf-8")  # noqa: SIM115
                self._own_log_file = True
            else:
                self._log_file = log_file
        full_env: dict[str, str] | None = dict(env) if env is not None else None
        if extra_env:
            full_env = {**(full_env if full_env is not None else os.environ), **extra_env}
        self._started = time.monotonic()
        self._new_session = new_session
        try:
            self._proc = _Pipe(
                self.command,
                cwd=os.fspath(cwd) if cwd is not None else None,
                env=full_env,
                on_stderr=lambda line: self._record("!", line),
                new_session=new_session,
            )
        except OSError as exc:
            self._close_log()
            raise EngineDied("start", None, reason=_start_reason(exc)) from exc
        self.pid: int = self._proc.pid

    # ------------------------------------------------------------ life cycle

    @classmethod
    def start(cls, command: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
              **kwargs: Any) -> Engine:
        """Spawn the engine and do the handshake; on failure the process is killed and the
        error raised. Keyword arguments are those of the constructor."""
        engine = cls(command, **kwargs)
        try:
            engine.handshake()
        except BaseException:
            engine.close()
            raise
        return engine

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        # Leaving by an exception, the engine still gets its `quit` (it may save state, a
        # learning file, on the way out), but only QUICK_STOP to end: that exception is
        # what the caller waits to see. close() then kills what is left.
        try:
            self.quit(timeout=None if exc[0] is None else QUICK_STOP)
        except EngineError:
            pass
        self.close()

    @property
    def alive(self) -> bool:
        return self._proc.proc.poll() is None

    @property
    def searching(self) -> bool:
        return self._search is not None

    def quit(self, timeout: float | None = None) -> int | None:
        """Send `quit` and wait for the process to end; kill it if it does not end within
        the timeout. Returns the exit code."""
        timeout = self.timeout if timeout is None else timeout
        if self.alive:
            started = time.monotonic()
            try:
                self._send("quit", timeout)
            except EngineDied:
                pass
            except EngineStalled:
                pass  # it no longer reads its input: killed below, its time being up
            try:
                self._proc.proc.wait(timeout=max(0.0, started + timeout - time.monotonic()))
            except Exception:  # subprocess.TimeoutExpired
                self._kill()
        self._forget_search()
        code = self._reap()
        # As close(): the last stderr lines logged, and a log file this client opened shut.
        self._proc.stderr_reader.join(timeout=STDERR_DRAIN)
        self._close_log()
        return code

    def kill(self) -> None:
        """Kill the process at once. Safe from any thread (e.g. a Ctrl-C handler): a call
        blocked reading from this engine in another thread then ends with EngineDied.
        Call close() afterwards from the owning thread to reap it."""
        try:
            self._kill()
        except OSError:
            pass
        # Wake a read blocked in another thread now: the end of the output may never
        # come while a child of the engine holds the pipe open.
        self._proc._read_queue.put(None)

    def _kill(self) -> None:
        # An engine in a session of its own is killed with its whole process group: a
        # wrapper script's engine, or an engine's helpers, would otherwise live on and hold
        # its output open. Only while the process is unreaped, so that its group id cannot
        # yet have passed to another process.
        proc = self._proc.proc
        if self._new_session and proc.returncode is None and hasattr(os, "killpg"):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
                return
            except OSError:
                pass  # (the group is gone already: kill the process as usual)
        proc.kill()

    def close(self) -> int | None:
        """Kill the process if it still runs (no `quit`), and release the log file."""
        if self.alive:
            self._kill()
        self._forget_search()
        code = self._reap()
        # What the engine wrote to stderr before it ended is still in the pipe: let the
        # reader log it (bounded: a child of the engine may hold the pipe open).
        self._proc.stderr_reader.join(timeout=STDERR_DRAIN)
        self._close_log()
        return code

    def _forget_search(self) -> None:
        # No bestmove can come from an engine that is gone: a search left running must
        # not make `searching` say True, nor a later stop() wait for its answer.
        self._quit = True
        self._search = None
        self._ended = None

    def _reap(self) -> int | None:
        try:
            self.exit_code = self._proc.proc.wait(timeout=self.timeout)
        except Exception:
            self.exit_code = self._proc.proc.poll()
        _close_quietly(self._proc.proc.stdin)  # stdout/stderr: their reader threads close them
        return self.exit_code

    def _close_log(self) -> None:
        with self._log_lock:  # the stderr thread may still be logging
            if self._own_log_file and self._log_file is not None:
                self._log_file.close()
            self._log_file = None

    # ------------------------------------------------------------ raw I/O

    def _record(self, direction: str, line: str,
                when: tuple[float, float] | None = None) -> None:
        """Log one line; `when` is (time.time(), time.monotonic()) if not now."""
        now, mono = when if when is not None else (time.time(), time.monotonic())
        # stderr lines come from their own thread, hence the lock
        with self._log_lock:
            record = LogRecord(now, mono - self._started, direction, line, self.name)
            self.log.append(record)
            # A failing log file or callback is the caller's problem, not the engine's: raised
            # here it would end the stderr reader (and the engine with EPIPE) or break off a
            # protocol step half done (a search attached, its `go` never sent). It is kept
            # in `log_errors`, and the next lines are logged as usual.
            if self._log_file is not None:
                try:
                    self._log_file.write(str(record) + "\n")
                    self._log_file.flush()
                except Exception as exc:
                    self.log_errors.append(exc)
            if self.on_line is not None:
                try:
                    self.on_line(record)
                except Exception as exc:
                    self.log_errors.append(exc)

    def _tail(self, n: int = 5) -> list[str]:
        with self._log_lock:  # the stderr reader may be adding to the log meanwhile
            records = list(self.log)
        return [r.line for r in records if r.direction == "<"][-n:]

    def _died(self, step: str) -> EngineDied:
        try:
            code = self._proc.proc.wait(timeout=self.timeout)
        except Exception:
            code = self._proc.proc.poll()
        self.exit_code = code
        self._search = None
        return EngineDied(step, code, self._tail())

    def send(self, line: str) -> None:
        """Send one raw line (for commands this client has no method for)."""
        if "\n" in line or "\r" in line:
            raise ValueError("one line at a time")
        self._check_open()
        self._send(line)

    def _send(self, line: str, timeout: float | None = None) -> None:
        """Write one line; EngineStalled if the engine has not taken it within `timeout`
        (default: the engine's `timeout`) because its input pipe is full."""
        if "\n" in line or "\r" in line:
            # a line end inside would let the rest run as a command of its own
            raise ValueError(f"one line at a time, not {line[:40]!r}")
        step = line.split(" ", 1)[0]
        timeout = self.timeout if timeout is None else timeout
        when = (time.time(), time.monotonic())
        try:
            self._proc.write_line((line + "\n").encode("utf-8", errors="replace"), timeout)
        except TimeoutError:
            # (what was not written goes first with the next line: see write_line)
            self._record(">", line, when)
            raise EngineStalled(step, timeout, time.monotonic() - when[1],
                                writing=True) from None
        except (BrokenPipeError, OSError, ValueError):
            self._record(">", line, when)
            self._drain()
            raise self._died(step) from None
        # Logged once written (stamped with the time it was sent): a log or callback
        # failing before the write would leave the step half done.
        self._record(">", line, when)

    def _drain(self, limit: float = 1.0) -> None:
        """Log what an engine that has ended wrote and no one read yet (its last words are
        often why it ended), up to the end of its output; bounded, since a child of the
        engine may hold the pipe open."""
        started = time.monotonic()
        deadline = started + limit
        while True:
            try:
                self._read_line("drain", deadline, started)  # (each line is logged)
            except Exception:  # the end of the output, the limit, or a closed pipe
                return

    def _skip_stray(self) -> None:
        """Read what the engine wrote after its last answer and no one awaited (a second
        bestmove, info after its search ended), before a search starts: none of it may
        pass for the new search's answer. Logged, and dropped as _dispatch drops lines
        of no search (or refused, when strict)."""
        started = time.monotonic()
        while True:
            try:
                line = self._read_line("position", started, started)
            except EngineStalled:  # nothing more waiting
                return
            self._dispatch("position", line)

    def _check_open(self) -> None:
        if self._quit:
            raise EngineStateError("the engine has quit")

    def _read_line(self, step: str, deadline: float | None, started: float) -> str:
        """The next line (without its end of line), or EngineDied / EngineStalled.

        Past the deadline, lines that have already arrived are still read (a bestmove may
        be waiting behind them), but only for FLOOD_GRACE seconds: an engine that keeps
        printing without ever answering is stalled too."""
        now = time.monotonic()
        if deadline is not None and now > deadline + FLOOD_GRACE:
            raise EngineStalled(step, deadline - started, now - started)
        timeout = None if deadline is None else max(0.0, deadline - now)
        index = self._proc.expect_exact(_NEWLINE, timeout=timeout)
        if index == 0:
            line = self._proc.before
            if line.endswith("\r"):
                line = line[:-1]
            self._record("<", line)
            return line
        if index == 1:
            rest = self._proc.before
            if rest:
                self._record("<", rest)  # a last line without its newline
            raise self._died(step)
        raise EngineStalled(
            step, None if deadline is None else deadline - started, time.monotonic() - started
        )

    def _dispatch(self, step: str, line: str, answer: str | None = None) -> tuple[str, str]:
        """Classify a line, feeding search output to the running search. Returns (keyword,
        line); raises EngineProtocolError on malformed protocol lines. `answer` is the
        first word of the answer a referee query waits for: not a UCI line, yet no stray
        line even when strict."""
        stripped = line.strip()
        if not stripped:
            return "", line
        if self._search is not None:
            self._search.lines.append(line)
        keyword = stripped.split(None, 1)[0]
        if keyword not in ENGINE_KEYWORDS:
            if self.strict and keyword != answer:
                raise EngineProtocolError(step, line, "not a protocol line")
            return "?", line
        try:
            if keyword == "info":
                info = parse_info(stripped)
                self._note_complaint(info.string)
                if self._search is not None:
                    if info.string is not None and info.string.startswith("result "):
                        self._search.outcome = info.string[len("result ") :].strip()
                    self._feed_info(info)
            elif keyword == "bestmove":
                # The search is over whatever the line holds: a malformed one must not
                # leave it running, for a stop() would then wait for a second bestmove.
                search = self._search
                self._search = None
                if search is not None:
                    self._ended = search
                try:
                    move, ponder = parse_bestmove(stripped)
                except LineError as exc:
                    error = EngineProtocolError(step, line, str(exc))
                    if search is not None:
                        search.error = error
                    raise error from None
                if search is not None:
                    search.result = PlayResult(
                        move=move,
                        ponder=ponder,
                        info=search.merged,
                        infos=search.infos,
                        elapsed=time.monotonic() - search.started,
                        errors=search.errors,
                        outcome=search.outcome,
                    )
                elif self.strict:
                    raise LineError("bestmove while no search is running")
        except LineError as exc:
            if keyword == "info" and not self.strict:
                # Search output the client cannot read (or after its search: no one's)
                # is passed over; only the bestmove decides a search.
                self.ignored.append(f"{exc}: {stripped[:200]}")
                return "?", line
            raise EngineProtocolError(step, line, str(exc)) from None
        return keyword, stripped

    def _note_complaint(self, text: str | None) -> None:
        """Keep the text of an `info string error: ...` or `info string warning: ...`
        line. Only those exact prefixes count (what the protocol prescribes and canter
        writes): `errors: none so far` is a remark, not a refusal."""
        if text is None:
            return
        for prefix, texts in (("error:", self.errors), ("warning:", self.warnings)):
            if text.startswith(prefix):
                said = text[len(prefix):].strip() or text
                texts.append(said)
                if prefix == "error:" and self._search is not None:
                    self._search.errors.append(said)
                return

    def _feed_info(self, info: Info) -> None:
        search = self._search
        assert search is not None
        search.infos.append(info)
        search.pending.append(info)
        if info.multipv in (None, 1):
            search.merged = search.merged.merge(info)
        if search.callback is not None:
            try:
                search.callback(info)
            except BaseException as exc:
                # called no more: reading on (to stop the search) must not raise it again
                search.callback = None
                search.callback_error = exc
                raise

    # ------------------------------------------------------------ protocol steps

    def handshake(self, timeout: float | None = None) -> None:
        """`uci` -> `id ...`, `option ...`, `uciok`. Fills `id` and `options`."""
        self._check_open()
        started = time.monotonic()
        deadline = started + (self.timeout if timeout is None else timeout)
        self._send("uci")
        while True:
            line = self._read_line("handshake", deadline, started)
            keyword, text = self._dispatch("handshake", line)
            try:
                if keyword == "id":
                    key, value = parse_id(text)
                    self.id[key] = value
                elif keyword == "option":
                    option = parse_option(text)
                    self.options[option.name.lower()] = option
                elif keyword == "uciok":
                    break
            except LineError as exc:
                raise EngineProtocolError("handshake", line, str(exc)) from None
        if self._given_name is None and self.id.get("name"):
            self.name = self.id["name"]

    def ping(self, timeout: float | None = None) -> float:
        """`isready` -> `readyok`; returns the round trip in seconds. Allowed while a
        search runs (its output is kept for the search)."""
        self._check_open()
        started = time.monotonic()
        deadline = started + (self.timeout if timeout is None else timeout)
        self._send("isready")
        while True:
            line = self._read_line("isready", deadline, started)
            keyword, _ = self._dispatch("isready", line)
            if keyword == "readyok":
                return time.monotonic() - started

    def configure(self, options: Mapping[str, object]) -> None:
        """`setoption name X value Y` for each option, checked against what the engine
        declared (name case-insensitive; type, range and choices). A ValueError names the
        first bad option and nothing is sent for it or the following ones."""
        self._check_open()
        self._idle("configure")
        lines = []
        for key, value in options.items():
            option = self.options.get(key.lower())
            if option is None:
                known = ", ".join(o.name for o in self.options.values())
                raise ValueError(f"engine {self.name!r} has no option {key!r} (it has: {known})")
            text = option.coerce(value)
            if text is None:
                lines.append(f"setoption name {option.name}")
            else:
                lines.append(f"setoption name {option.name} value {text}")
        for line in lines:
            self._send(line)

    def new_game(self, timeout: float | None = None) -> None:
        """`ucinewgame` then `isready`/`readyok`."""
        self._check_open()
        self._idle("new_game")
        self._send("ucinewgame")
        self.ping(timeout)

    def set_position(self, position: str = "startpos", moves: Sequence[str] = ()) -> None:
        """`position startpos|<position string> [moves ...]`."""
        self._check_open()
        self._idle("set_position")
        self._send(position_command(position, moves))

    def _idle(self, call: str) -> None:
        # `call` is the method the user called, so that the message names it
        if self._search is not None:
            raise EngineStateError(f"cannot {call}() while a search runs; stop() it first")

    def _go(
        self,
        call: str,
        position: str,
        moves: Sequence[str],
        limit: Limit,
        callback: Callable[[Info], None] | None,
        searchmoves: Sequence[str] | None = None,
    ) -> _Search:
        # Everything is checked before the first line goes out: a mistake found after
        # `position` would leave the engine's position changed, after `go` a search running.
        self._check_open()
        self._idle(call)
        command = position_command(position, moves)
        words = ["go", *limit.go_arguments()]
        chosen = _move_list("searchmoves", searchmoves)
        if chosen:
            words += ["searchmoves", *chosen]
        self._skip_stray()
        self._ended = None
        self._send(command)
        search = _Search(callback)
        self._search = search
        self._send(" ".join(words))
        search.started = time.monotonic()
        return search

    def _search_deadline(self, limit: Limit, timeout: float | None, started: float) -> float | None:
        if timeout is None:
            bound = limit.bound()
            timeout = bound + self.search_margin if bound is not None else self.search_timeout
        return None if timeout is None else started + timeout

    def play(
        self,
        position: str,
        limit: Limit,
        *,
        moves: Sequence[str] = (),
        timeout: float | None = None,
        info: Callable[[Info], None] | None = None,
        searchmoves: Sequence[str] | None = None,
    ) -> PlayResult:
        """Search `position` (+ `moves`) within `limit` and return the best move with the
        last info. Timeout: `timeout` if given, else the limit's time bound plus
        `search_margin`, else `search_timeout`. On EngineStalled the search is still
        running: call `stop()` (or `close()`). `info` is called with each info line; if it
        raises, the search is stopped (within QUICK_STOP seconds) and its exception
        raised. A non-callable `info` is a TypeError, before anything is sent."""
        return self._play("play", position, limit, moves, timeout, info, searchmoves)

    def _play(
        self,
        call: str,
        position: str,
        limit: Limit,
        moves: Sequence[str],
        timeout: float | None,
        info: Callable[[Info], None] | None,
        searchmoves: Sequence[str] | None,
    ) -> PlayResult:
        self._check_open()
        if limit.infinite:
            raise ValueError(f"{call}() needs a finite limit; use analysis() for infinite")
        if info is not None and not callable(info):
            raise TypeError(f"{call}() info must be a function called with each Info "
                            f"(or None), not {info!r}")
        search = self._go(call, position, moves, limit, info, searchmoves)
        deadline = self._search_deadline(limit, timeout, search.started)
        try:
            while search.result is None:
                line = self._read_line("search", deadline, search.started)
                self._dispatch("search", line)
        except BaseException as exc:
            if exc is search.callback_error:
                self._stop_quietly(search)
            raise
        search.claimed = True
        return search.result

    def _stop_quietly(self, search: _Search) -> None:
        """End a search whose caller is leaving with an exception of its own: that
        exception is what the caller must see, so a stop that fails (the engine stalls or
        dies) is not raised; the search then stays attached (`searching`) if it runs."""
        if self._search is not search or self._quit:
            return
        try:
            self.stop(timeout=min(self.timeout, QUICK_STOP))
        except EngineError:
            pass

    def analyse(
        self,
        position: str,
        limit: Limit,
        *,
        moves: Sequence[str] = (),
        timeout: float | None = None,
        searchmoves: Sequence[str] | None = None,
    ) -> Info:
        """Like play(), returning the merged info (score, depth, nodes, pv, time)."""
        return self._play("analyse", position, limit, moves, timeout, None, searchmoves).info

    def analysis(
        self,
        position: str,
        limit: Limit | None = None,
        *,
        moves: Sequence[str] = (),
        timeout: float | None = None,
        searchmoves: Sequence[str] | None = None,
    ) -> Analysis:
        """Start a search (infinite unless `limit` says otherwise) and return a stream of its
        info lines. Iterate it; `stop()` it; `wait()` for the PlayResult."""
        self._check_open()
        limit = limit if limit is not None else Limit(infinite=True)
        search = self._go("analysis", position, moves, limit, None, searchmoves)
        deadline = self._search_deadline(limit, timeout, search.started)
        return Analysis(self, search, deadline)

    def stop(self, timeout: float | None = None) -> PlayResult | None:
        """If a search runs, send `stop` and wait for its `bestmove`. If the last search's
        bestmove was read by another call (a ping() after a stalled play()) and its result
        not yet handed out, return that result; else None."""
        self._check_open()
        search = self._search
        if search is None:
            ended, self._ended = self._ended, None
            if ended is None or ended.claimed:
                return None
            ended.claimed = True
            return ended.result
        if not search.stopped:
            self._send("stop")
            search.stopped = True
        started = time.monotonic()
        deadline = started + (self.timeout if timeout is None else timeout)
        while search.result is None:
            line = self._read_line("stop", deadline, started)
            self._dispatch("stop", line)
        search.claimed = True
        return search.result

    def go_raw(self, line: str, *, timeout: float | None = None,
               wait: bool = True) -> list[str]:
        """Send a raw `go ...` line, exactly as given (any arguments, malformed ones too, or
        `go ponder ...`, which play() cannot send), and read up to its `bestmove`. Returns
        the engine's stdout lines from the `go` to the `bestmove`, both ends included (noise
        and `info string error` lines too). The position is whatever was last set.

        With `wait=False` it only sends (the search then runs: `engine.searching`); send
        what you need (`ponderhit`, `isready` through ping(), ...) and collect the lines
        with `read_bestmove()`. Timeout: `timeout`, else `search_timeout`."""
        self._check_open()
        words = line.split()
        if not words or words[0] != "go" or "\n" in line or "\r" in line:
            raise ValueError(f"not a go line: {line!r}")
        if len(words) > 1 and words[1].lower() == "perft":
            # `go perft N` starts no search and never answers with a bestmove: waiting for
            # one would stall, and leave the client believing a search runs.
            raise ValueError(f"go_raw() runs searches, and {line!r} starts none (it has no "
                             f"bestmove): use engine.query({' '.join(words[1:])!r}, "
                             f"'perft') for its total")
        self._idle("go_raw")
        # what the engine wrote after its last answer (a second bestmove) must not pass
        # for this search's lines
        self._skip_stray()
        self._ended = None
        search = _Search(None)
        self._search = search
        self._raw = search
        self._send(line)
        search.started = time.monotonic()
        if not wait:
            return []
        return self.read_bestmove(timeout)

    def read_bestmove(self, timeout: float | None = None) -> list[str]:
        """Read to the `bestmove` of the search started by go_raw() and return its lines
        (from the go to the bestmove; also those a ping() read meanwhile). Returns at once
        if the bestmove has already been read. EngineStalled after `timeout` seconds (from
        this call; default `search_timeout`): the search still runs, stop() it."""
        search = self._raw
        if search is None:
            raise EngineStateError("no search started with go_raw()")
        search.check()
        if search.result is None:
            self._check_open()
        timeout = self.search_timeout if timeout is None else timeout
        started = time.monotonic()
        deadline = None if timeout is None else started + timeout
        while search.result is None:
            search.check()
            line = self._read_line("search", deadline, started)
            self._dispatch("search", line)
        search.claimed = True
        return list(search.lines)

    # ------------------------------------------------------------ referee queries

    def query(self, command: str, keyword: str, timeout: float | None = None) -> str:
        """Send a referee query and return its one answer line (the first line starting with
        `keyword`). An `info string error` line instead raises EngineRefused. Not while a
        search runs: a referee engine is asked between searches."""
        return self._query("query", command, keyword, timeout)

    def _query(self, call: str, command: str, keyword: str, timeout: float | None) -> str:
        self._check_open()
        self._idle(call)
        # an error line the engine wrote earlier, unasked, is no refusal of this query
        self._skip_stray()
        started = time.monotonic()
        deadline = started + (self.timeout if timeout is None else timeout)
        errors = len(self.errors)
        self._send(command)
        while True:
            line = self._read_line(command, deadline, started)
            word, _ = self._dispatch(command, line, answer=keyword)
            if len(self.errors) > errors:
                raise EngineRefused(command, self.errors[-1])
            if word == "?" and line.split(None, 1)[0] == keyword:
                return line.strip()

    def checked_position(self, position: str = "startpos", moves: Sequence[str] = (),
                         timeout: float | None = None) -> None:
        """`position ...` then `isready`: EngineRefused with the engine's reason if it
        refused the position or a move (it then keeps its previous position)."""
        self._check_open()
        self._idle("checked_position")
        command = position_command(position, moves)
        self._skip_stray()  # (an error line written earlier is no refusal of this one)
        errors = len(self.errors)
        self._send(command)
        self.ping(timeout)
        if len(self.errors) > errors:
            raise EngineRefused("position", self.errors[errors])

    def legal(self, what: str | None = None, *, timeout: float | None = None) -> list[str]:
        """The legal moves of the engine's current position, canonical spellings: all, those
        of the piece on a cell (`legal("F7")`), or those a move text may mean (one, or
        several for an ambiguous short form; EngineRefused with the reason if none)."""
        return self._answer("legal", f"legal {what}" if what else "legal", "legal",
                            parse_legal, timeout)

    def result(self, *, timeout: float | None = None) -> tuple[str | None, bool]:
        """(outcome text or None while the game goes on, whether a draw may be claimed)."""
        return self._answer("result", "result", "result", parse_result, timeout)

    def get_position(self, *, timeout: float | None = None) -> str:
        """The engine's current position as a position string."""
        line = self._query("get_position", "getposition", "position", timeout)
        return line.split(None, 1)[1] if " " in line else ""

    def board(self, *, timeout: float | None = None) -> BoardLayout:
        """The cells, seats and castles of the current position's variant."""
        return self._answer("board", "board", "board", parse_board, timeout)

    def pieces(self, *, timeout: float | None = None) -> dict[str, Piece]:
        """Cell name -> Piece(seat, kind) of the current position."""
        return self._answer("pieces", "pieces", "pieces", parse_pieces, timeout)

    def turn(self, *, timeout: float | None = None) -> str | None:
        """The seat to move, or None once the game is decided."""
        return self._answer("turn", "turn", "turn", parse_turn, timeout)

    def ranking(self, *, timeout: float | None = None) -> list[list[str]] | None:
        """How the seats finished, best first (seats sharing a rank share a list); None
        while the game goes on."""
        return self._answer("ranking", "ranking", "ranking", parse_ranking, timeout)

    def _answer(self, call: str, command: str, keyword: str,
                parser: Callable[[str], Any], timeout: float | None) -> Any:
        # Each waits at most `timeout` seconds (default: the engine's `timeout`).
        line = self._query(call, command, keyword, timeout)
        try:
            return parser(line)
        except LineError as exc:
            raise EngineProtocolError(command, line, str(exc)) from None

    def _pump(self, search: _Search, step: str, deadline: float | None,
              started: float) -> None:
        line = self._read_line(step, deadline, started)
        self._dispatch(step, line)


class Analysis:
    """A running search, streamed: `for info in analysis: ...` yields each info line as it
    arrives and ends after `bestmove`. `stop()` asks the engine to finish; `wait()` reads to
    the end and returns the PlayResult. As a context manager it stops and waits on exit."""

    def __init__(self, engine: Engine, search: _Search, deadline: float | None) -> None:
        self.engine = engine
        self._search = search
        self._deadline = deadline

    def __iter__(self) -> Iterator[Info]:
        return self

    def __next__(self) -> Info:
        info = self.next()
        if info is None:
            raise StopIteration
        return info

    def next(self, timeout: float | None = None) -> Info | None:
        """The next info line, waiting at most `timeout` seconds (default: the deadline
        given to analysis()); EngineStalled after. None once the search has ended."""
        # A timeout given here counts from this call, and so does the elapsed time an
        # EngineStalled reports; the search's own deadline counts from its start.
        search = self._search
        started = search.started if timeout is None else time.monotonic()
        deadline = self._deadline if timeout is None else started + timeout
        while not search.pending:
            if search.result is not None:
                search.claimed = True
                return None
            search.check()
            self._check_open()
            self.engine._pump(search, "analysis", deadline, started)
        return search.pending.popleft()

    def _check_open(self) -> None:
        # What was read stays readable after quit()/close(); only reading on is refused.
        self.engine._check_open()

    @property
    def info(self) -> Info:
        """Everything reported so far, merged (main line)."""
        return self._search.merged

    @property
    def done(self) -> bool:
        return self._search.result is not None

    def stop(self) -> None:
        """Send `stop` (once); the stream then runs to `bestmove`. Safe from another thread
        while one iterates or waits on this analysis (a GUI's stop button): it only
        writes."""
        with self.engine._stop_lock:
            if self._search.result is None:
                self._check_open()
                if not self._search.stopped:
                    self._search.stopped = True
                    self.engine._send("stop")

    def wait(self, timeout: float | None = None) -> PlayResult:
        """Read to `bestmove` (infos stay available to the iterator) and return the result.
        The timeout defaults to the search's own deadline."""
        search = self._search
        started = search.started if timeout is None else time.monotonic()
        deadline = self._deadline if timeout is None else started + timeout
        while search.result is None:
            search.check()
            self._check_open()
            self.engine._pump(search, "analysis", deadline, started)
        search.claimed = True
        return search.result

    def __enter__(self) -> Analysis:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        engine = self.engine
        if self._search.result is not None or engine._quit or not engine.alive:
            return
        if exc_type is None:
            self.stop()
            engine.stop()
            return
        # The body raised: that exception is what the caller must see, not a stop that
        # stalls (after a long wait) or fails; the search then stays `searching`.
        try:
            self.stop()
        except EngineError:
            return
        engine._stop_quietly(self._search)


def _move_list(what: str, moves: Iterable[str] | None) -> list[str]:
    """`moves` as a list, refusing a lone string: iterated, "D6-F8" would be sent as the
    moves D, 6, -, ..."""
    if isinstance(moves, (str, bytes)):
        raise TypeError(f"{what} must be a list of moves, not a string: {moves!r} "
                        f"(give [{moves!r}] for one move)")
    return list(moves) if moves else []


def position_command(position: str = "startpos", moves: Sequence[str] = ()) -> str:
    """The `position` line for a start position ("startpos" or a position string) and a
    list of moves in official notation."""
    moves = _move_list("moves", moves)
    position = position.strip()
    if not position:
        raise ValueError("empty position")
    if any(c in position for c in "\r\n") or any(
            "\n" in m or "\r" in m or " " in m.strip() for m in moves):
        raise ValueError("positions and moves are single words/lines")
    text = f"position {position}"
    if moves:
        text += " moves " + " ".join(m.strip() for m in moves)
    return text
