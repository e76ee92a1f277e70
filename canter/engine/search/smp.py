"""Helper processes for `Threads` > 1: Lazy SMP over a table in shared memory.

CPython threads do not run Python in parallel, so the helpers are processes, forked once
(`multiprocessing`, "fork" start method) when a search first asks for them and kept between
searches, so that a `go` starts at once. Each helper holds its own `Search` over the shared
table (`sharedtt.SharedTable`); for every search of the main process it gets the position
and searches it too, without limit, at depths staggered against the main search's (helper
1 only the even ones, ...), filling the table with entries the main search then cuts off
on. Only the main search decides the move and reports; the helpers are never waited for.

Control goes through a second shared mapping of 64-bit words: word 0 is the running job's
number (0: none), then four words a helper: the nodes it has searched in the job, and its
deepest finished iteration (depth, first move, score). When a helper has finished an
iteration deeper than the main search's last one, its move is played (`deeper`), as in
Stockfish's Lazy SMP: a helper that runs ahead is worth its depth. A helper's stop flag is
"word 0 is no longer my job", so the main search stops every helper with one store, and a
helper never mistakes a later job's start for its own. A helper also stops when the process
that forked it is gone, and ends when its pipe closes.

A helper that dies (killed, out of memory, a bug) costs nothing but its help: the main
search never waits for it, and the next search forks a new one in its place, at most
`RESTARTS` times a slot, after which the slot is left empty (the pool is reduced). Such
events are told to the caller as lines of text (for an `info string`).
"""

from __future__ import annotations

import mmap
import os
import pickle
import signal

from canter.engine.search.limits import Limits, SearchInfo
from canter.engine.search.sharedtt import SCORE_OFFSET, SharedTable, pack_move, unpack_move

JOB = 0  # control word: the running job
# Then per helper i, at HELPER + WORDS_EACH * i: its nodes, its finished depth, the first
# move of that iteration (sharedtt.pack_move), its score (SCORE_OFFSET added; bit 62: a win
# or loss in moves, not centi-Men).
HELPER, WORDS_EACH = 1, 4
NODES, DEPTH, MOVE, SCORE = 0, 1, 2, 3
WIN_FLAG = 1 << 62
RESTARTS = 3  # times one helper slot is started again after its process died
JOIN_TIMEOUT = 0.5  # seconds a stopped helper gets to exit before it is killed

def fork_available() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


class HelperStop:
    """The stop flag a helper's search polls (the `StopFlag` interface): set once the main
    process has ended the job, or has gone. Each poll also publishes the node count."""

    def __init__(self, control: memoryview, job: int, index: int, parent: int,
                 search) -> None:
        self.control = control
        self.job = job
        self.slot = HELPER + WORDS_EACH * index + NODES
        self.parent = parent
        self.search = search
        self.deadline = None
        self.pondering = False

    def is_set(self) -> bool:
        control = self.control
        if control[JOB] != self.job or os.getppid() != self.parent:
            return True
        control[self.slot] = self.search.nodes
        return False

    def set(self) -> None:
        pass  # only the main process ends a job


class HelperReport:
    """A helper's info callback: each finished iteration goes into its control words."""

    def __init__(self, control: memoryview, job: int, index: int) -> None:
        self.control = control
        self.job = job
        self.base = HELPER + WORDS_EACH * index

    def __call__(self, info: SearchInfo) -> None:
        control = self.control
        if info.depth is None or not info.pv or control[JOB] != self.job:
            return
        base = self.base
        if info.score_win is not None:
            score = WIN_FLAG | (info.score_win + SCORE_OFFSET)
        else:
            score = (info.score_cp or 0) + SCORE_OFFSET
        control[base + DEPTH] = 0  # the three words change together: no depth meanwhile
        control[base + MOVE] = pack_move(info.pv[0]._key)
        control[base + SCORE] = score
        control[base + DEPTH] = info.depth


def job_bytes(job: int, pos, kwargs: dict, options: dict, generation: int, searchmoves,
              clear: bool) -> bytes:
    """A search job as sent to each helper through its pipe. It must fit in the pipe's
    buffer (64 kB on Linux), or the send would block: the position carries its game and
    hash keys by name, not the board's tables."""
    return pickle.dumps((job, pos, kwargs, options, generation, searchmoves, clear),
                        pickle.HIGHEST_PROTOCOL)


def _helper_main(index: int, jobs, inherited: list, control: memoryview,
                 table: SharedTable, parent: int) -> None:
    """A helper's life: take jobs from the pipe until it closes."""
    from canter.engine.search.alphabeta import Search

    for conn in inherited:  # other helpers' pipes: they must see EOF when the engine goes
        conn.close()
    # Nothing of a helper's may reach the protocol's stdout (not even a buffer inherited
    # half-written); Ctrl-C at a terminal is the engine's to handle, not the helpers'.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    table.owner = False
    search = Search(table)
    search.helper = index + 1
    while True:
        try:
            data = jobs.recv_bytes()
        except (EOFError, OSError):
            return
        job, pos, kwargs, options, generation, searchmoves, clear = pickle.loads(data)
        if clear:
            search.history = {}
        if options != search.options:
            search.options = dict(options)
            search.evaluators = {}
        if control[JOB] != job:
            continue  # already over
        table.generation = generation
        stop = HelperStop(control, job, index, parent, search)
        # An exception ends the helper: multiprocessing writes its traceback to stderr,
        # and the pool replaces the helper before the next search (saying so).
        search.run(pos, Limits(infinite=True, searchmoves=searchmoves),
                   HelperReport(control, job, index), stop, **kwargs)


class HelperPool:
    """`count` helper processes over `table`, started at once (fork is cheap)."""

    def __init__(self, count: int, table: SharedTable) -> None:
        import multiprocessing

        self.ctx = multiprocessing.get_context("fork")
        self.table = table
        self.count = count
        self._control_map = mmap.mmap(-1, 8 * (HELPER + WORDS_EACH * count))
        self.control = memoryview(self._control_map).cast("Q")
        self.procs: list = [None] * count
        self.conns: list = [None] * count
        self.restarts = [0] * count
        self.job = 0
        self.clear_pending = False
        self.events: list[str] = []  # what happened to helpers, for the next search's info
        for i in range(count):
            self._spawn(i)

    @property
    def alive(self) -> int:
        return sum(1 for p in self.procs if p is not None and p.is_alive())

    def _spawn(self, i: int) -> None:
        reader, writer = self.ctx.Pipe(duplex=False)
        inherited = [c for c in self.conns if c is not None]
        proc = self.ctx.Process(target=_helper_main, name=f"canter-helper-{i + 1}",
                                args=(i, reader, inherited + [writer], self.control,
                                      self.table, os.getpid()),
                                daemon=True)
        proc.start()
        reader.close()
        # A helper that stops reading (stopped, hung) must never block the main search.
        os.set_blocking(writer.fileno(), False)
        self.procs[i], self.conns[i] = proc, writer

    def _bury(self, i: int, why: str) -> None:
        proc, conn = self.procs[i], self.conns[i]
        if conn is not None:
            conn.close()
        if proc is not None:
            if proc.is_alive():
                proc.kill()
            proc.join(JOIN_TIMEOUT)
            why = why or _exit_text(proc.exitcode)
        self.procs[i] = self.conns[i] = None
        if self.restarts[i] < RESTARTS:
            self.restarts[i] += 1
            try:
                self._spawn(i)
                self.events.append(f"helper {i + 1} {why}; started again")
                return
            except OSError as exc:
                why = f"{why}; could not be started again ({exc.strerror or exc})"
        else:
            why = f"{why} for the {RESTARTS + 1}th time"
        n = self.alive + 1
        self.events.append(f"helper {i + 1} {why}; searching with {n} "
                           f"process{'es' if n > 1 else ''}")

    def check(self) -> None:
        """Replace helpers that died since the last search (or leave their slot empty)."""
        for i, proc in enumerate(self.procs):
            if proc is not None and not proc.is_alive():
                self._bury(i, "")

    def start_job(self, pos, kwargs: dict, options: dict, generation: int,
                  searchmoves) -> None:
        self.check()
        self.job = self.job % (1 << 62) + 1
        control = self.control
        for j in range(HELPER, len(control)):
            control[j] = 0  # nodes and depths of the last job
        control[JOB] = self.job
        data = job_bytes(self.job, pos, kwargs, options, generation, searchmoves,
                         self.clear_pending)
        self.clear_pending = False
        for i, conn in enumerate(self.conns):
            if conn is None:
                continue
            try:
                conn.send_bytes(data)
            except BlockingIOError:
                # Its pipe is full: it has not read its last jobs. A half-written message
                # cannot be taken back, so the helper is replaced.
                self._bury(i, "stopped reading its jobs")
            except OSError:
                self._bury(i, "")

    def stop_job(self) -> None:
        self.control[JOB] = 0

    def nodes(self) -> int:
        control = self.control
        return sum(control[HELPER + WORDS_EACH * i + NODES] for i in range(self.count))

    def deeper(self, depth: int, moves: list) -> tuple | None:
        """(depth, move, score_cp, score_win) of the deepest iteration a helper finished
        beyond `depth`, its move one of `moves`; None if no helper got deeper."""
        control = self.control
        best = None
        for i in range(self.count):
            base = HELPER + WORDS_EACH * i
            d = control[base + DEPTH]
            if d <= depth or (best is not None and d <= best[0]):
                continue
            key, score = unpack_move(control[base + MOVE]), control[base + SCORE]
            if control[base + DEPTH] != d:
                continue  # written again while read
            move = next((m for m in moves if m._key == key), None)
            if move is None:
                continue
            value = (score & ~WIN_FLAG) - SCORE_OFFSET
            best = (d, move, None, value) if score & WIN_FLAG else (d, move, value, None)
        return best

    def close(self) -> None:
        """Stop and end every helper (Threads changed, Hash changed, quit)."""
        self.control[JOB] = 0
        for conn in self.conns:
            if conn is not None:
                conn.close()  # a helper waiting for a job sees EOF and returns
        for proc in self.procs:
            if proc is not None:
                proc.join(JOIN_TIMEOUT)
                if proc.is_alive():
                    proc.kill()
                    proc.join(JOIN_TIMEOUT)
        self.procs = [None] * self.count
        self.conns = [None] * self.count


def _exit_text(code: int | None) -> str:
    if code is None:
        return "did not exit"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"ended by {name}"
    return f"ended with exit code {code}"
