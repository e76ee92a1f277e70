"""Game records in and out of the board: load one game of a record file, save the game on
the board, and follow a file that an arbiter is still writing (`canter gui --watch`).

Records are read with the record format's own reader, which consults no rules; every move
is then checked by the referee when the table takes the game.
"""

from __future__ import annotations

import datetime
import os
import threading
from collections.abc import Callable
from typing import Any

from canter.adapters.client import EngineError
from canter.adapters.gui.table import Ending, Table, TableError
from canter.adapters.records.format import (
    GameRecord,
    RecordError,
    decode_records,
    parse_result,
    read_games,
    result_from_ranking,
    write_game,
)

MAX_RECORD_BYTES = 4 * 1024 * 1024  # an upload larger than this is refused
# A watched file grows by a game at a time for as long as a match runs: room for some
# 30,000 games (read whole at each change; a file beyond it is reported, not shown).
MAX_WATCHED_BYTES = 64 * 1024 * 1024
WATCH_POLL = 0.5


def parse_records(data: bytes, *, unterminated: bool = False,
                  limit: int = MAX_RECORD_BYTES) -> list[GameRecord]:
    if len(data) > limit:
        raise TableError(f"a record file of at most {limit // 1024 // 1024} MB, please", 413)
    try:
        games = list(read_games(decode_records(data, cut_off_ok=unterminated),
                                allow_unterminated=unterminated))
    except (RecordError, ValueError) as exc:
        raise TableError(f"not a game record: {exc}") from None
    if not games:
        raise TableError("the file holds no game")
    return games


def pick(games: list[GameRecord], index: Any) -> tuple[int, GameRecord]:
    if index is None:
        index = len(games) - 1
    if not isinstance(index, int) or not 0 <= index < len(games):
        raise TableError(f"no game {str(index)[:10]}: the file holds {len(games)} "
                         f"(numbered from 0)")
    return index, games[index]


def take(table: Table, game: GameRecord) -> None:
    """Put a recorded game on the table (under its lock)."""
    try:
        variant = game.variant
    except ValueError as exc:
        raise TableError(str(exc)) from None
    if variant not in table.variants:
        raise TableError(f"the referee does not know {variant}")
    # As a typed position string: the record reader splits lines at \n only, so a tag may
    # hold a \r (or another control space) that no engine command line can carry.
    start = " ".join((game.start_position or "").split()) or "startpos"
    ending = None
    dropped = None
    seats = table.variant_seats.get(table.played_variant(variant, start))
    if game.result != "*" and seats is not None and not _fits(game.result, len(seats)):
        # The record's result is for another number of seats than the game played (its
        # Variant tag and its position string name different games): not this game's
        # result, and a record saved with it could not be written.
        dropped = game.result
    elif game.result != "*":
        reason = game.tags.get("Reason") or game.tags.get("Termination") or "as recorded"
        ending = Ending(f"{game.result} ({reason})", None, [], token=game.result,
                        reason=game.tags.get("Reason"),
                        termination=game.tags.get("Termination"))
    table.load_moves(variant, start, list(game.moves), ending, game.players)
    if dropped is not None:
        note = (f"the recorded result {dropped[:20]} does not fit {table.variant} "
                f"({len(table.seats)} seats): left out")
        table.message = f"{table.message}; {note}" if table.message else note
        table.publish()


def _fits(token: str, seats: int) -> bool:
    """Whether a result token is one of a game of `seats` seats."""
    try:
        parse_result(token, seats)
    except ValueError:
        return False
    return True


def save(table: Table) -> str:
    """The game on the table as a record (under its lock). A TableError if it cannot be
    written as one (the page gets a JSON error, never a dropped connection)."""
    try:
        return _record(table)
    except ValueError as exc:
        raise TableError(f"cannot write a record of this game: {exc}") from None


def _record(table: Table) -> str:
    names = [s.name for s in table.seats]
    players = []
    for s in table.seats:
        players.append(table.engines[s.engine].name if s.player == "engine" else "human")
    today = datetime.date.today().strftime("%Y.%m.%d")
    position = None if table.start == "startpos" else table.start
    record = GameRecord.new(table.variant, players, event="canter gui", date=today,
                            position=position)
    for move in table.moves:
        record.add_move(move)
    if table.ending is not None and table.ending.ranking:
        ranking = [[names.index(n) for n in group if n in names]
                   for group in table.ending.ranking]
        record.set_result(result_from_ranking(ranking, len(names)),
                          termination="normal", reason=table.ending.text)
    elif table.ending is not None and table.ending.token:
        # A loaded game's result (a resignation, time, an adjudication): as recorded.
        record.set_result(table.ending.token, termination=table.ending.termination,
                          reason=table.ending.reason)
    return write_game(record)


class Watcher(threading.Thread):
    """Follows a record file as a writer appends to it: the chosen game (by default the
    last) is put on the table whenever the file changes."""

    def __init__(self, table: Table, path: str,
                 on_change: Callable[[], None] | None = None) -> None:
        super().__init__(name="canter-gui-watch", daemon=True)
        self.table = table
        self.path = path
        self.on_change = on_change  # called (without the table's lock) after a new game
        self.game: int | None = None  # None: always the last game
        self._seen: tuple[float, int] | None = None
        self._shown: tuple[str, str, tuple[str, ...], str] | None = None
        self.wake = threading.Event()
        # A choice is answered once a look at the file begun after it has ended, so that
        # POST /api/watch answers with the game it chose, not the one shown before.
        self._answered = threading.Condition()
        self._asked = self._looked = 0
        # Watching from the start, before the file holds a game (a match makes its file
        # empty): the board is never playable meanwhile, and no engine plays on it.
        with table.lock:
            table.watch = {"file": os.path.basename(path), "games": 0, "game": None,
                           "following": True}

    def run(self) -> None:
        while not self.table.closed:
            with self._answered:
                asked = self._asked
            try:
                self.poll()
            except Exception as exc:
                # A look that failed in a way poll() does not expect: reported, and the
                # file is looked at again when it changes. A watcher that died here would
                # leave the board on this game for good, whatever the file holds later.
                self.report(f"{type(exc).__name__}: {exc}")
            finally:
                with self._answered:
                    self._looked = asked
                    self._answered.notify_all()
            self.wake.wait(WATCH_POLL)
            self.wake.clear()

    def choose(self, index: Any) -> None:
        """Show game `index` (from 0) of the file, or None: follow the newest."""
        if index is not None and (isinstance(index, bool) or not isinstance(index, int)):
            raise TableError("game must be a whole number (from 0), or null to follow the "
                             "newest")
        if index is not None:
            with self.table.lock:
                count = (self.table.watch or {}).get("games", 0)
            if not 0 <= index < count:
                raise TableError(f"no game {index}: the file holds {count} (numbered from 0)")
        with self._answered:
            self.game = index
            self._seen = None
            self._asked += 1
            asked = self._asked
            self.wake.set()
            if self.is_alive():
                self._answered.wait_for(lambda: self._looked >= asked, timeout=5.0)

    def report(self, problem: str) -> None:
        """Show what stands in the way of watching the file (once, not at every look)."""
        with self.table.lock:
            message = f"watching {os.path.basename(self.path)}: {problem}"
            if self.table.message != message:
                self.table.message = message
                self.table.publish()

    def poll(self) -> None:
        """Look at the file; show the chosen game if it changed. What the file or its game
        holds that cannot be shown is reported on the board; other failures are raised."""
        table = self.table
        try:
            st = os.stat(self.path)
            stamp = (st.st_mtime, st.st_size)
            if stamp == self._seen:
                return
            with open(self.path, "rb") as f:
                data = f.read(MAX_WATCHED_BYTES + 1)
            games = parse_records(data, unterminated=True, limit=MAX_WATCHED_BYTES)
            index, game = pick(games, self.game if self.game is None or
                               self.game < len(games) else None)
        except (OSError, TableError) as exc:
            self.report(str(exc))
            # A file that cannot be read as it is now is read again when it changes, not
            # twice a second (a missing file: at every look, until it appears).
            self._seen = stamp if isinstance(exc, TableError) else None
            return
        self._seen = stamp
        # (The tags as written: `game.variant` raises for a game the reader does not know,
        # which take() reports.)
        shown = (game.tags.get("Variant", ""), game.start_position or "startpos",
                 tuple(game.moves), game.result)
        with table.lock:
            table.watch = {"file": os.path.basename(self.path), "games": len(games),
                           "game": index, "following": self.game is None}
            if shown == self._shown:
                table.publish()
                return
            changed = False
            try:
                take(table, game)
                table.message = f"{' vs '.join(game.players)} (game {index + 1} of {len(games)})"
                self._shown = shown
                changed = True
            except TableError as exc:
                table.message = f"watching {os.path.basename(self.path)}: game {index + 1}: {exc}"
            except EngineError as exc:
                # The referee failed (it is restarted at the next question): this game is
                # read again at the next look, not only when the file changes.
                self._seen = None
                table.message = (f"watching {os.path.basename(self.path)}: game {index + 1}: "
                                 f"the referee failed: {exc}")
            table.publish()
        if changed and self.on_change is not None:
            self.on_change()
