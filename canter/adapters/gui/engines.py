"""The engine processes behind the board: the referee and the engines named on the command
line, each started, restarted and stopped here.

Commands come only from the command line (`canter gui --engine CMD`); the page can pick an
engine by its index but never name a program, so it can never start one of its own.
"""

from __future__ import annotations

import os
import shlex
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

from canter.adapters.client import Engine, EngineError, EngineRefused, EngineStateError

# A referee answers in well under a millisecond; ten seconds cover a loaded machine.
REFEREE_TIMEOUT = 10.0
# A search limited by depth or nodes only has no clock to overrun: after this long it is
# reported as stalled (a time-limited search is stalled at its limit plus a margin). Not
# for analysis: `go infinite` has no end to overrun (see EngineSlot.process).
SEARCH_STALL = 300.0


def canter_command() -> list[str]:
    """This canter, as a subprocess (the referee, and the default engine)."""
    return [sys.executable, "-m", "canter"]


def split_command(text: str) -> list[str]:
    words = shlex.split(text)
    if not words:
        raise ValueError("an empty engine command")
    return words


class EngineSlot:
    """One engine command and its processes: one plays the seats given to it (they never
    think at once), another analyses, so analysis never waits for a game move."""

    def __init__(self, index: int, command: Sequence[str], name: str | None = None) -> None:
        self.index = index
        self.command = list(command)
        self.given_name = name
        self.name = name or (os.path.basename(self.command[0]) if self.command else "engine")
        self.lock = threading.Lock()  # held briefly: never through an engine's start
        self._starting: dict[str, threading.Lock] = {}  # role -> one start at a time
        self._closed = False
        self._processes: dict[str, Engine] = {}
        self.variant: dict[str, str] = {}  # role -> variant last set
        self.options: dict[str, dict[str, object]] = {}  # role -> options last set

    def process(self, role: str) -> Engine:
        """The running process for `role` ("play" or "analyse"), started on first use.
        The start (seconds, for a slow engine) holds only the role's own start lock: a
        stop, a kill or the page's state asked for meanwhile never waits for it."""
        with self.lock:
            starting = self._starting.setdefault(role, threading.Lock())
        with starting:
            with self.lock:
                engine = self._processes.get(role)
                if engine is not None and engine.alive:
                    return engine
                self._processes.pop(role, None)
            if engine is not None:
                engine.close()
            # An analysis runs until it is stopped: a search deadline would end a working
            # analysis after SEARCH_STALL seconds, however many lines it printed. One that
            # ignores `stop` is killed by the Analyser instead.
            stall = None if role == "analyse" else SEARCH_STALL
            # In a session of its own: a kill takes a wrapper's engine with it.
            engine = Engine.start(self.command, name=self.given_name,
                                  search_timeout=stall, new_session=True)
            with self.lock:
                closed = self._closed
                if not closed:
                    self.name = self.given_name or engine.id.get("name") or self.name
                    self._processes[role] = engine
                    self.variant.pop(role, None)
                    self.options.pop(role, None)
            if closed:  # the board stopped while this engine started
                engine.close()
                raise EngineStateError("the board has stopped")
            return engine

    def prepare(self, role: str, variant: str, options: dict[str, object]) -> Engine:
        """The process for `role`, told the variant (a new game when it changes) and the
        options among `options` that it declares (others are skipped: any engine may sit
        at the board, not only canter)."""
        engine = self.process(role)
        if self.variant.get(role) != variant:
            if "uci_variant" in engine.options:
                engine.configure({"UCI_Variant": variant})
            engine.new_game()
            self.variant[role] = variant
            # (Options outlive a new game in the engine: what was set stays known, and is
            # reset below if this game does not ask for it.)
        wanted = {k: v for k, v in options.items() if k.lower() in engine.options}
        known = self.options.setdefault(role, {})
        # An option set for another seat or an earlier game and not asked for now goes
        # back to the engine's default: a seat with no skill must not play at the last
        # one's.
        for k in known:
            default = engine.options[k.lower()].default
            if k not in wanted and default is not None:
                wanted[k] = default
        changed = {k: v for k, v in wanted.items() if known.get(k) != v}
        if changed:
            engine.configure(changed)
            known.update(changed)
        return engine

    def new_game(self) -> None:
        """The next `prepare` of every role starts a new game (`ucinewgame`): what an engine
        learnt in one game is not carried into the next."""
        with self.lock:
            self.variant.clear()

    def stop(self, role: str) -> None:
        """Ask the role's search to stop (safe from any thread; the searching thread reads
        the `bestmove`)."""
        with self.lock:
            engine = self._processes.get(role)
        if engine is not None and engine.alive:
            try:
                engine.send("stop")
            except EngineError:
                pass

    def kill(self, role: str | None = None) -> None:
        """Kill the processes (of one role); safe from any thread."""
        with self.lock:
            roles = [role] if role is not None else list(self._processes)
            for r in roles:
                engine = self._processes.get(r)
                if engine is not None:
                    engine.kill()

    def restart(self) -> None:
        """Drop the playing process, and any process that has died; the next use starts a
        fresh one. A running analysis goes on: Restart engine is about the seats' play,
        and an analysis in a working process has nothing to recover from."""
        with self.lock:
            dropped = {role: engine for role, engine in self._processes.items()
                       if role == "play" or not engine.alive}
            for role in dropped:
                del self._processes[role]
                self.variant.pop(role, None)
                self.options.pop(role, None)
        for engine in dropped.values():
            engine.close()

    def alive(self) -> bool:
        # Without the lock: the page's state is asked for often, and needs no more than a
        # glance at the processes.
        return all(e.alive for e in list(self._processes.values()))

    def close(self) -> None:
        with self.lock:
            self._closed = True
            processes, self._processes = self._processes, {}
        try:
            for engine in processes.values():
                try:
                    engine.quit(timeout=2.0)
                except EngineError:
                    pass
        finally:
            # A second Ctrl-C cuts the quits short: what is left is killed, never left
            # running (an engine in a session of its own does not get the Ctrl-C).
            for engine in processes.values():
                engine.close()

    def describe(self) -> dict[str, object]:
        return {"index": self.index, "name": self.name, "alive": self.alive()}


def start_referee(command: Sequence[str] | None = None) -> Referee:
    argv = list(command) if command else canter_command()
    return Referee(lambda: Engine.start(argv, name="referee", timeout=REFEREE_TIMEOUT))


class Referee:
    """The referee process, started again when it has died or stops answering: the board
    asks it about every position (holding the table's lock), and a board whose referee is
    gone or hung could only show errors, each after a wait, until restarted.

    It stands in for the client's Engine. What the board set (options, the position) is
    kept and set again in a new process before the question that found the old one dead,
    stalled or talking nonsense is asked once more; a refusal (EngineRefused) is the
    referee's answer, and is passed on as it came."""

    def __init__(self, start: Callable[[], Engine]) -> None:
        self._start = start
        self.engine = start()
        self._options: dict[str, object] = {}
        self._position: tuple[str, list[str]] | None = None
        self.restarts = 0
        self._closed = False  # quit or closed by the board: never started again

    @property
    def options(self):
        return self.engine.options

    def configure(self, options: dict) -> None:
        self._ask("configure", options)
        self._options.update(options)

    def checked_position(self, start: str, moves: list[str]) -> None:
        self._position = None
        self._ask("checked_position", start, list(moves))
        self._position = (start, list(moves))

    def quit(self, timeout: float | None = None) -> int | None:
        self._closed = True
        return self.engine.quit(timeout=timeout)

    def close(self) -> int | None:
        self._closed = True
        return self.engine.close()

    def __getattr__(self, name: str):
        method = getattr(self.engine, name)
        if not callable(method):
            return method
        return lambda *args, **kwargs: self._ask(name, *args, **kwargs)

    def _ask(self, name: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return getattr(self.engine, name)(*args, **kwargs)
        except EngineRefused:
            raise
        except EngineError:
            # Dead, stalled (SIGSTOP, a loop) or out of step: a living process that missed
            # its answer cannot be trusted with the next question either, and asking it
            # would cost every later question the same wait. A new one is cheap.
            if self._closed:
                raise
        self._restart()
        return getattr(self.engine, name)(*args, **kwargs)

    def _restart(self) -> None:
        self.engine.close()  # (kills it first: a stopped process dies of SIGKILL too)
        self.engine = self._start()
        self.restarts += 1
        try:
            if self._options:
                self.engine.configure(dict(self._options))
            if self._position is not None:
                self.engine.checked_position(*self._position)
        except BaseException:
            # Half set up, it would answer for another game: the next question starts
            # another process instead (a closed engine fails every call).
            self.engine.close()
            raise
