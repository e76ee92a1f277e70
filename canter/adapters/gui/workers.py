"""The threads behind the table: the mover (asks the engine whose turn it is for a move),
the ticker (publishes throttled search info, watches the clocks) and the analyser."""

from __future__ import annotations

import threading
import time
from typing import Any

from canter.adapters.client import Analysis, EngineError, Info
from canter.adapters.gui.engines import EngineSlot
from canter.adapters.gui.table import MAX_MULTIPV, Table, TableError, info_dict

TICK = 0.05


class Mover(threading.Thread):
    """Runs one engine search at a time, whenever the table says an engine is to move."""

    def __init__(self, table: Table) -> None:
        super().__init__(name="canter-gui-mover", daemon=True)
        self.table = table

    def run(self) -> None:
        table = self.table
        while True:
            with table.lock:
                job = None
                while not table.closed:
                    try:
                        job = table.next_search()
                    except (EngineError, TableError) as exc:
                        table.message = f"the referee failed: {exc}"
                        table.publish()
                        job = None
                    if job is not None:
                        break
                    table.changed.wait(timeout=1.0)
                if table.closed:
                    return
            run, _seat = job
            try:
                run()
            except Exception as exc:  # a bug must not stop every later engine move
                with table.lock:
                    table.fault = {"engine": _seat.engine, "name": "the board",
                                   "reason": f"{type(exc).__name__}: {exc}"}
                    table.publish()


class Ticker(threading.Thread):
    """Publishes held search info and loses on time a seat whose clock ran out."""

    def __init__(self, table: Table) -> None:
        super().__init__(name="canter-gui-ticker", daemon=True)
        self.table = table

    def run(self) -> None:
        table = self.table
        while not table.closed:
            time.sleep(TICK)
            table.flush()
            with table.lock:
                try:
                    table.check_flag()
                except (EngineError, TableError):
                    pass


class Analyser:
    """Infinite analysis (MultiPV 1-5) of one position of the game, by a process of its own
    so that a game move never waits for it."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._analysis: Analysis | None = None
        self._thread: threading.Thread | None = None
        self._slot: EngineSlot | None = None  # whose process the running analysis uses
        self._lock = threading.Lock()  # one start/stop at a time

    def start(self, ply: Any, multipv: Any, engine_index: Any = None) -> None:
        table = self.table
        if type(multipv) is not int or not 1 <= multipv <= MAX_MULTIPV:  # (no bool)
            raise TableError(f"multipv must be from 1 to {MAX_MULTIPV}")
        with table.lock:
            if ply is None:
                ply = len(table.moves)
            if type(ply) is not int or not 0 <= ply <= len(table.moves):
                raise TableError(f"no position after {str(ply)[:10]} moves")
            index = table.analysis.get("engine", 0) if engine_index is None else engine_index
            if type(index) is not int or not 0 <= index < len(table.engines):
                raise TableError(f"no engine {str(index)[:10]}")
            start, moves, variant = table.start, table.moves[:ply], table.variant
            # The game's rulings, as the seats' engines get them: under other rules the
            # lines could hold moves this game does not allow.
            options: dict[str, object] = {**table.rule_options, "MultiPV": multipv}
        with self._lock:
            self._stop_locked()
            slot = table.engines[index]
            try:
                engine = slot.prepare("analyse", variant, options)
                analysis = engine.analysis(start, moves=moves)
            except EngineError as exc:
                slot.kill("analyse")
                self._stopped()
                raise TableError(f"{slot.name} could not analyse: {exc}", 502) from None
            except ValueError as exc:  # an option or variant this engine does not offer
                self._stopped()
                raise TableError(f"{slot.name} cannot analyse this: {exc}") from None
            with table.lock:
                # The game may have changed while the engine started (a new game, a load,
                # an undo past the ply): this analysis is of a position no longer in it.
                gone = (table.variant != variant or table.start != start
                        or len(table.moves) < ply
                        or table.moves[:ply] != moves)
                if not gone:
                    table.analysis.update(running=True, ply=ply, multipv=multipv,
                                          engine=index, lines=[])
                    table.publish()
            if gone:
                try:
                    analysis.stop()
                    analysis.wait(timeout=5.0)
                except EngineError:
                    slot.kill("analyse")
                self._stopped()
                raise TableError("the game changed while the analysis started; start it "
                                 "again", 409)
            self._analysis = analysis
            self._slot = slot
            thread = threading.Thread(target=self._follow, args=(analysis, slot),
                                      name="canter-gui-analyser", daemon=True)
            self._thread = thread
            thread.start()

    def _follow(self, analysis: Analysis, slot) -> None:
        table = self.table
        lines: dict[int, dict[str, Any]] = {}
        try:
            for info in analysis:
                if info.pv is None and info.score is None:
                    continue
                self._take(info, lines)
                # A replaced analysis is still read to its bestmove, so that its engine is
                # idle for the next one; only its lines no longer reach the page.
                with table.lock:
                    if self._analysis is not analysis:
                        continue
                    table.analysis["lines"] = [lines[k] for k in sorted(lines)]
                table.publish_soon()
        except EngineError as exc:
            slot.kill("analyse")
            with table.lock:
                if self._analysis is analysis:  # not started again by an undo
                    self._analysis = None
                table.analysis["running"] = False
                table.message = f"analysis stopped: {exc}"
                table.publish()
            return
        with table.lock:
            if self._analysis is analysis:
                table.analysis["running"] = False
                table.publish()

    @staticmethod
    def _take(info: Info, lines: dict[int, dict[str, Any]]) -> None:
        k = info.multipv or 1
        fresh = {key: v for key, v in info_dict(info).items() if v not in (None, [])}
        lines[k] = {**lines.get(k, {}), **fresh}
        # The lines of one search start with different moves, so a lower-ranked line that
        # starts with this line's move is a stale report (of the last depth, while the new
        # one is reported line by line); the page would show that move twice. It waits for
        # its own report.
        first = (lines[k].get("pv") or [None])[0]
        if first is None:
            return
        for j in [j for j in lines if j > k]:
            if (lines[j].get("pv") or [None])[0] == first:
                del lines[j]

    def follow(self) -> None:
        """The game changed under a running analysis (a watched file grew, a move was
        taken back): analyse its last position instead. Call without the table's lock."""
        with self.table.lock:
            running = self.table.analysis["running"] or self._analysis is not None
            multipv = self.table.analysis.get("multipv", 1)
            ply = len(self.table.moves)
        if running:
            try:
                self.start(ply, multipv)
            except TableError:
                self.stop()

    def stop(self) -> None:
        with self._lock:
            self._stop_locked()
        self._stopped()

    def _stopped(self) -> None:
        """The page shows no analysis running (none is, after _stop_locked)."""
        with self.table.lock:
            self.table.analysis["running"] = False
            self.table.publish()

    def _stop_locked(self) -> None:
        analysis, thread = self._analysis, self._thread
        self._analysis = None
        if analysis is not None:
            try:
                analysis.stop()
            except EngineError:
                pass
        if thread is not None:
            thread.join(timeout=5.0)
            if thread.is_alive():  # the engine does not answer `stop`: drop the process
                if self._slot is not None:
                    self._slot.kill("analyse")
                thread.join(timeout=2.0)
