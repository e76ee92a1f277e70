"""The game on the board: moves, seats, clocks and results, kept by the server and learnt
from a referee engine.

The table knows no rules. Whether a move is legal, what the position looks like, whose
turn it is and how the game ended all come from the referee (a canter process) through
the protocol's referee queries; the seats' engines are asked for moves the way an arbiter
asks them. Every change bumps `version` and wakes whoever waits on `changed` (the page's
event stream, the mover thread).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from canter.adapters.client import Engine, EngineError, EngineRefused, Info, Limit
from canter.adapters.gui.engines import EngineSlot

# What a typed move may contain: letters, digits, '-' (also 'x', a letter). Nothing else
# reaches the referee, so no control character can end its line early.
MOVE_TEXT = re.compile(r"[A-Za-z0-9-]{2,400}")
BARE_CELL = re.compile(r"[A-Za-z][0-9]{1,2}")
INFO_INTERVAL = 0.125  # at most 8 thinking/analysis updates a second reach the page
MAX_MULTIPV = 5
STOP_GRACE = 5.0  # seconds a stopped engine search gets before its process is killed
# A seat's time per move in seconds, from the page or `canter gui --movetime`.
MIN_MOVETIME, MAX_MOVETIME = 0.01, 3600.0


class TableError(Exception):
    """A request the table refuses; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.extra = extra


@dataclass
class Seat:
    name: str
    player: str = "human"  # or "engine"
    engine: int = 0
    limit: dict[str, float] = field(default_factory=dict)  # movetime, depth, nodes, skill
    clock: dict[str, float] | None = None  # base, inc (seconds)
    time_left: float | None = None
    used: float = 0.0


@dataclass
class Ending:
    """A result: the referee's, or one the table decides (resignation, time, a claim)."""

    text: str
    winner: str | None
    ranking: list[list[str]]
    token: str | None = None  # a loaded record's result token, written back when saved
    # and its Reason and Termination tags as they were (the text shows them with the token)
    reason: str | None = None
    termination: str | None = None


def score_text(info: Info) -> str | None:
    return str(info.score) if info.score is not None else None


def info_dict(info: Info) -> dict[str, Any]:
    return {"multipv": info.multipv or 1, "depth": info.depth, "score": score_text(info),
            "nodes": info.nodes, "nps": info.nps, "time": info.time, "pv": info.pv or []}


def _number(value: Any, what: str, low: float, high: float, whole: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TableError(f"{what} must be a number")
    if not low <= value <= high:  # NaN fails this too
        raise TableError(f"{what} must be from {low:g} to {high:g}")
    if whole and int(value) != value:
        raise TableError(f"{what} must be a whole number")
    return value


def parse_limit(raw: Any) -> dict[str, float]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise TableError("a seat's limit must be an object")
    limit: dict[str, float] = {}
    for key, value in raw.items():
        if value is None or value == "":
            continue
        if key == "movetime":
            limit[key] = _number(value, "movetime", MIN_MOVETIME, MAX_MOVETIME)
        elif key == "depth":
            limit[key] = _number(value, "depth", 1, 60, whole=True)
        elif key == "nodes":
            limit[key] = _number(value, "nodes", 1, 10**9, whole=True)
        elif key == "skill":
            limit[key] = _number(value, "skill", 0, 20, whole=True)
        else:
            raise TableError(f"unknown limit '{str(key)[:20]}'")
    return limit


def parse_clock(raw: Any) -> dict[str, float] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise TableError("a seat's clock must be an object")
    base = _number(raw.get("base"), "clock base", 1, 36000)
    inc = _number(raw.get("inc", 0), "clock increment", 0, 600)
    return {"base": base, "inc": inc}


class Table:
    def __init__(self, referee: Engine, engines: list[EngineSlot], variant: str) -> None:
        self.referee = referee
        self.engines = engines
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.version = 0
        self.generation = 0  # bumped by anything that invalidates a running search
        option = referee.options.get("uci_variant")
        self.variants = list(option.var) if option is not None and option.var else [variant]
        self._boards: dict[str, dict[str, Any]] = {}
        # What the referee holds: (variant, start, moves), and the variant it was set to.
        # None is "not known" (a question failed half way): the next question sets both
        # again, so a failure can never leave it answering for another game.
        self._referee_at: tuple[str, str, tuple[str, ...]] | None = None
        self._referee_game: str | None = None
        self._snapshots: dict[tuple[str, tuple[str, ...]], dict[str, Any]] = {}
        self.start = "startpos"
        self.variant = variant
        self.moves: list[str] = []
        self.clock_history: list[list[float | None]] = []
        self.seats: list[Seat] = []
        self.ending: Ending | None = None
        self._table_ending = False  # the ending was decided by the table, not the referee
        self.paused = False
        self.turn_started = time.monotonic()
        self.thinking: dict[str, Any] | None = None
        self.analysis: dict[str, Any] = {"running": False, "ply": 0, "multipv": 1,
                                         "engine": 0, "lines": []}
        self.fault: dict[str, Any] | None = None
        self.message: str | None = None
        self.watch: dict[str, Any] | None = None
        self.rule_options: dict[str, object] = {}  # `Rule ...` options from the command line
        self._dirty = False
        self._last_publish = 0.0
        self._searches: dict[int, int] = {}  # engine index -> generation of its search
        self.closed = False

    # ------------------------------------------------------------ publishing

    def publish(self) -> None:
        """Something changed: new version, wake the waiters. Call with the lock held."""
        self.version += 1
        self._dirty = False
        self._last_publish = time.monotonic()
        self.changed.notify_all()

    def publish_soon(self) -> None:
        """A frequent change (search info): published at most every INFO_INTERVAL."""
        with self.lock:
            if time.monotonic() - self._last_publish >= INFO_INTERVAL:
                self.publish()
            else:
                self._dirty = True

    def flush(self) -> None:
        """Publish a held change once its interval has passed (the ticker calls this)."""
        with self.lock:
            if self._dirty and time.monotonic() - self._last_publish >= INFO_INTERVAL:
                self.publish()

    # ------------------------------------------------------------ the referee

    def _referee_to(self, start: str, moves: list[str] | tuple[str, ...],
                    variant: str | None = None) -> None:
        """Bring the referee to `start` + `moves` of `variant` (default: the game on the
        board), setting its variant first when it holds another one."""
        variant = variant or self.variant
        key = (variant, start, tuple(moves))
        if self._referee_at == key:
            return
        self._referee_at = None
        if self._referee_game != variant:
            self._referee_game = None
            self._referee_variant(variant)
            self._referee_game = variant
        self.referee.checked_position(start, list(moves))
        self._referee_at = key

    def _referee_to_new(self, variant: str, start: str, moves: list[str], what: str) -> None:
        """Bring the referee to a game not yet on the board (a new game, a record). On any
        failure it is brought back to the game on the board, and a refusal or a start or
        move no engine line can carry (ValueError) becomes a TableError naming `what`; a
        referee that stalls or dies is an EngineError, as at any other question."""
        try:
            self._referee_to(start, moves, variant)
        except Exception as exc:
            self._restore_referee()
            if isinstance(exc, EngineRefused):
                raise TableError(f"{what} refused: {exc.reason}") from None
            if isinstance(exc, ValueError):
                raise TableError(f"{what} refused: {exc}") from None
            raise

    def board(self, variant: str) -> dict[str, Any]:
        """The referee's description of a variant's board (asked once per variant)."""
        if variant not in self._boards:
            if self._referee_at is None or self._referee_at[0] != variant:
                self._referee_to("startpos", [], variant)  # (`board` describes its game)
            layout = self.referee.board()
            if layout.variant != variant:
                raise TableError(f"the referee describes {layout.variant}, not {variant}", 500)
            self._boards[variant] = {
                "variant": layout.variant, "shape": layout.shape, "seats": list(layout.seats),
                "castles": {s: list(c) for s, c in layout.castles.items()},
                "cells": [{"name": c.name, "file": c.file, "rank": c.rank}
                          for c in layout.cells],
                "teams": [list(t) for t in layout.teams],
            }
        return self._boards[variant]

    def learn_variants(self) -> None:
        """Ask the referee for every variant's board once, so the page knows each game's
        seats before it sets one up."""
        for name in self.variants:
            self._referee_to("startpos", [], name)
            self.board(name)

    @property
    def variant_seats(self) -> dict[str, list[str]]:
        """Each game's seats, as the referee described its board."""
        return {name: list(board["seats"]) for name, board in self._boards.items()}

    def snapshot(self, ply: int) -> dict[str, Any]:
        """The position after the first `ply` moves, from the referee (cached per game)."""
        if not 0 <= ply <= len(self.moves):
            raise TableError(f"no position after {ply} moves: the game has {len(self.moves)}",
                             404)
        key = (self.start, tuple(self.moves[:ply]))
        cached = self._snapshots.get(key)
        if cached is not None:
            return cached
        self._referee_to(self.start, self.moves[:ply])
        result, claimable = self.referee.result()
        pieces = {cell: {"seat": p.seat, "kind": p.kind}
                  for cell, p in self.referee.pieces().items()}
        snap = {"ply": ply, "move": self.moves[ply - 1] if ply else None,
                "turn": self.referee.turn(), "pieces": pieces,
                "position": self.referee.get_position(), "result": result,
                "claimable": claimable}
        self._snapshots[key] = snap
        return snap

    # ------------------------------------------------------------ a new game

    def new_game(self, variant: str | None, position: str | None,
                 seats: list[dict[str, Any]] | None, keep_seats: bool = False) -> None:
        """Start a game (under the lock): the seats are checked first, then the referee
        checks the position; a refusal (TableError) or a referee that fails (EngineError)
        leaves the game on the board as it was, and the referee on it."""
        variant = variant or self.variant
        if variant not in self.variants:
            raise TableError(f"unknown variant '{str(variant)[:40]}' "
                             f"(the referee knows {', '.join(self.variants)})")
        start = "startpos"
        if position:
            if not isinstance(position, str) or len(position) > 4000:
                raise TableError("a position string is one line of at most 4000 characters")
            start = " ".join(position.split())  # any line break or control space goes
            named = start.split(" ", 1)[0]
            if named not in self.variant_seats:
                raise TableError(f"position refused: '{named[:40]}' is not a game the "
                                 f"referee knows ({', '.join(self.variants)})")
            variant = named
        built = self._build_seats(self.variant_seats.get(variant) or
                                  [s.name for s in self.seats], seats, keep_seats)
        self._referee_to_new(variant, start, [], "position")
        # (Only once the game is accepted: a refusal leaves the searches running.)
        self.stop_everything()
        self.variant = variant
        self.board(variant)
        self.generation += 1
        self.start = start
        self.moves = []
        self.seats = built
        for slot in self.engines:
            slot.new_game()
        self.clock_history = [[s.time_left for s in built]]
        self.ending = None
        self._table_ending = False
        self.fault = None
        self.message = None
        self.paused = False
        self.thinking = None
        self.analysis.update(running=False, ply=0, lines=[])
        self._snapshots.clear()
        self._settle()
        self.turn_started = time.monotonic()
        self.publish()

    def _build_seats(self, names: list[str], seats: list[dict[str, Any]] | None,
                     keep_seats: bool) -> list[Seat]:
        old = {s.name: s for s in self.seats}
        if seats is None:
            seats = [vars(old[name]) if keep_seats and name in old else {} for name in names]
        if len(seats) != len(names):
            raise TableError(f"this game has {len(names)} seats, not {len(seats)}")
        built = []
        for name, raw in zip(names, seats, strict=True):
            if not isinstance(raw, dict):
                raise TableError("each seat must be an object")
            player = raw.get("player", "human")
            if player not in ("human", "engine"):
                raise TableError("a seat's player is 'human' or 'engine'")
            engine = raw.get("engine", 0)
            if isinstance(engine, bool) or not isinstance(engine, int) or \
                    not 0 <= engine < len(self.engines):
                raise TableError(f"no engine {str(engine)[:10]} (there are {len(self.engines)})")
            clock = parse_clock(raw.get("clock"))
            built.append(Seat(name, player, engine, parse_limit(raw.get("limit")), clock,
                              clock["base"] if clock else None))
        return built

    def _referee_variant(self, variant: str) -> None:
        if "uci_variant" in self.referee.options:
            self.referee.configure({"UCI_Variant": variant})

    def _restore_referee(self) -> None:
        """Back to the game on the board after a refused new one (or a failed question)."""
        self._referee_at = None
        self._referee_game = None
        try:
            self._referee_to(self.start, self.moves)
        except (EngineError, ValueError):
            # Left "not known": the next question sets the variant and position again,
            # and reports what fails then. The error to report now is the first one.
            pass

    def stop_everything(self) -> None:
        """Invalidate the running searches (their moves will be dropped) and ask them to
        stop; one still running STOP_GRACE seconds later (it ignores `stop`, or the `stop`
        crossed its `go`) has its process killed, so the next search starts afresh."""
        self.generation += 1
        self.thinking = None
        for slot in self.engines:
            stale = self._searches.get(slot.index)
            if stale is None:
                continue
            slot.stop("play")
            timer = threading.Timer(STOP_GRACE, self._reap, args=(slot, stale))
            timer.daemon = True
            timer.start()

    def _reap(self, slot: EngineSlot, generation: int) -> None:
        with self.lock:
            if self._searches.get(slot.index) == generation:
                slot.kill("play")

    # ------------------------------------------------------------ moves

    def _settle(self) -> None:
        """After a change of moves: the referee's verdict."""
        result = self.snapshot(len(self.moves))["result"]
        if result is not None:
            self._referee_to(self.start, self.moves)
            ranking = self.referee.ranking() or []
            # `red wins: ...`, or a team's `red and blue win: ...` (its first seat).
            winner = result.split(" ", 1)[0] if " wins" in result or " win:" in result \
                else None
            self.ending = Ending(result, winner, ranking)
        elif self.ending is not None and not self._table_ending:
            self.ending = None

    @property
    def claimable(self) -> bool:
        """A draw may be claimed now (the referee says so, and the game goes on)."""
        return self.ending is None and self.snapshot(len(self.moves))["claimable"]

    def seat_to_move(self) -> Seat | None:
        if self.ending is not None:
            return None
        turn = self.snapshot(len(self.moves))["turn"]
        return next((s for s in self.seats if s.name == turn), None)

    def legal(self, cell: str) -> list[str]:
        if self.ending is not None or self.watch is not None:
            return []
        self._referee_to(self.start, self.moves)
        try:
            return self.referee.legal(cell)
        except EngineRefused as exc:
            raise TableError(exc.reason) from None

    def human_move(self, text: str) -> None:
        if not isinstance(text, str) or not MOVE_TEXT.fullmatch(text.strip()):
            raise TableError("a move is official notation: cells joined by '-' or 'x' "
                             "(e.g. D6-F8, E5xE7xE9), at most 400 characters")
        if self.watch is not None:
            raise TableError("watching a file: moves come from the file")
        if self.ending is not None:
            raise TableError(f"the game is over ({self.ending.text})")
        seat = self.seat_to_move()
        if seat is None or seat.player != "human":
            raise TableError(f"it is not a human's turn ({seat.name if seat else 'nobody'} "
                             "is to move)", 409)
        self._referee_to(self.start, self.moves)
        try:
            moves = self.referee.legal(text.strip())
        except EngineRefused as exc:
            raise TableError(exc.reason.removeprefix("legal: ")) from None
        if not moves:
            raise TableError(f"{text.strip()[:40]} is not a legal move here")
        if len(moves) > 1 or BARE_CELL.fullmatch(text.strip()):
            # (A cell alone names a piece, not a move: even its only move is offered, not
            # played, so a cell typed for another reason never moves a piece.)
            raise TableError(f"{text.strip()[:40]} is ambiguous: choose one of "
                             f"{', '.join(moves)}", 409, candidates=moves)
        self.play(moves[0])

    def play(self, move: str) -> None:
        """Append a move the referee has accepted (or will accept) and run the clocks."""
        now = time.monotonic()
        seat = self.seat_to_move()
        self._referee_to(self.start, self.moves + [move])
        flagged = False
        if seat is not None and not self.paused:
            spent = now - self.turn_started
            seat.used += spent
            if seat.time_left is not None and seat.clock is not None:
                # the flag falls before the increment is earned
                flagged = spent > seat.time_left
                seat.time_left = seat.time_left - spent + seat.clock["inc"]
        if flagged and seat is not None:
            seat.time_left = 0.0
            self.turn_started = now
            self._lose(seat, f"{seat.name} lost on time")
            self.publish()
            return
        self.moves.append(move)
        self.clock_history.append([s.time_left for s in self.seats])
        self.generation += 1
        self.thinking = None
        self._settle()
        self.turn_started = now
        self.publish()

    def _lose(self, seat: Seat, reason: str) -> None:
        """The table ends the game against one seat (resignation, time): as the arbiter
        does for a forfeit, the others share first place and this seat is last."""
        teams = self._boards.get(self.variant, {}).get("teams") or []
        team = next((t for t in teams if seat.name in t), None)
        if team is not None:
            # A team game: the seat's team loses, the other team wins.
            others = [s.name for s in self.seats if s.name not in team]
            text = f"{' and '.join(others)} win: {reason}"
            self.ending = Ending(text, others[0], [others, list(team)])
        else:
            others = [s.name for s in self.seats
                      if s.name != seat.name and not self._out(s.name)]
            winner = others[0] if len(others) == 1 else None
            text = f"{winner} wins: {reason}" if winner else f"game over: {reason}"
            self.ending = Ending(text, winner, [others, [seat.name]])
        self._table_ending = True
        self.generation += 1
        self.thinking = None

    def _out(self, name: str) -> bool:
        snap = self.snapshot(len(self.moves))
        return not any(p["seat"] == name for p in snap["pieces"].values())

    def undo(self) -> None:
        if self.watch is not None:
            raise TableError("watching a file: nothing to take back")
        if not self.moves:
            raise TableError("no move to take back")
        self.stop_everything()
        humans = any(s.player == "human" for s in self.seats)
        while self.moves:
            self.moves.pop()
            self.clock_history.pop()
            turn = self.snapshot(len(self.moves))["turn"]
            seat = next((s for s in self.seats if s.name == turn), None)
            if not humans or (seat is not None and seat.player == "human"):
                break
        for s, left in zip(self.seats, self.clock_history[-1], strict=True):
            s.time_left = left
        self.ending = None
        self._table_ending = False
        self.fault = None
        if self.analysis["ply"] > len(self.moves):
            # (Its lines were for a position no longer in the game; the analyser then
            # moves on to the position now last.)
            self.analysis["ply"] = len(self.moves)
            self.analysis["lines"] = []
        self._settle()
        if not humans:
            self.paused = True
        self.turn_started = time.monotonic()
        self.message = "move taken back"
        self.publish()

    def resign(self, name: str | None) -> None:
        if self.watch is not None:
            raise TableError("watching a file: the result comes from the file")
        if self.ending is not None:
            raise TableError("the game is already over")
        seat = next((s for s in self.seats if s.name == name), None)
        if seat is None:
            seat = self.seat_to_move()
            if seat is None or seat.player != "human":
                seat = next((s for s in self.seats if s.player == "human"), None)
        if seat is None:
            raise TableError("no seat to resign for")
        self.stop_everything()
        self._charge_clock()
        self._lose(seat, f"{seat.name} resigned")
        self.publish()

    def claim(self) -> None:
        if self.watch is not None:
            raise TableError("watching a file: the result comes from the file")
        if self.ending is not None:
            raise TableError("the game is already over")
        if not self.claimable:
            raise TableError("no draw may be claimed here (the referee says so)")
        seat = self.seat_to_move()
        self.stop_everything()
        self.ending = Ending(f"draw: claimed by {seat.name if seat else 'a seat'}", None,
                             [[s.name for s in self.seats]])
        self._table_ending = True
        self.publish()

    def _charge_clock(self) -> None:
        # (While an engine's fault is shown the clocks stand: that wait is nobody's.)
        seat = self.seat_to_move()
        if seat is not None and not self.paused and self.fault is None:
            spent = time.monotonic() - self.turn_started
            seat.used += spent
            if seat.time_left is not None:
                seat.time_left -= spent
        self.turn_started = time.monotonic()

    def set_paused(self, paused: bool) -> None:
        if paused == self.paused:
            return
        if paused:
            self._charge_clock()
            self.stop_everything()
        else:
            self.turn_started = time.monotonic()
        self.paused = paused
        self.publish()

    def check_flag(self) -> None:
        """Lose on time the seat whose clock ran out while it had the move."""
        if (self.ending is not None or self.paused or self.watch is not None
                or self.fault is not None):
            return
        seat = self.seat_to_move()
        if seat is None or seat.time_left is None:
            return
        if seat.time_left - (time.monotonic() - self.turn_started) < 0:
            self.stop_everything()
            seat.used += time.monotonic() - self.turn_started
            seat.time_left = min(seat.time_left - (time.monotonic() - self.turn_started), 0.0)
            self._lose(seat, f"{seat.name} lost on time")
            self.publish()

    # ------------------------------------------------------------ loading

    def played_variant(self, variant: str, start: str) -> str:
        """The game a record is played as: the one its position string names, whatever a
        Variant tag says (the referee plays that one, and the board must be its board)."""
        if start != "startpos":
            named = start.split(" ", 1)[0]
            if named in self.variant_seats:
                return named
        return variant

    def load_moves(self, variant: str, start: str, moves: list[str],
                   ending: Ending | None = None, names: list[str] | None = None) -> None:
        """A game from a record: the referee checks every move (a refusal, TableError, or
        a referee that fails, EngineError, keeps the game on the board as it was, and the
        referee on it). The seats keep their players; engines wait until resumed."""
        variant = self.played_variant(variant, start)
        self._referee_to_new(variant, start, moves, "record")
        self.stop_everything()  # (only once the record is accepted)
        self.variant = variant
        board = self.board(self.variant)
        if len(self.seats) != len(board["seats"]) or \
                [s.name for s in self.seats] != board["seats"]:
            self.seats = [Seat(name) for name in board["seats"]]
        for s in self.seats:
            s.time_left = s.clock["base"] if s.clock else None
            s.used = 0.0
        self.generation += 1
        self.start = start
        self.moves = list(moves)
        for slot in self.engines:
            slot.new_game()
        self.clock_history = [[s.time_left for s in self.seats] for _ in range(len(moves) + 1)]
        self._snapshots.clear()
        self.ending = None
        self._table_ending = False
        self._settle()
        if self.ending is None and ending is not None:
            self.ending = ending
            self._table_ending = True
        self.fault = None
        self.thinking = None
        self.analysis.update(running=False, ply=len(moves), lines=[])
        self.paused = any(s.player == "engine" for s in self.seats) and self.watch is None
        self.turn_started = time.monotonic()
        if names:
            self.message = " vs ".join(names)
        self.publish()

    # ------------------------------------------------------------ the page's view

    def state(self) -> dict[str, Any]:
        now = time.monotonic()
        current = self.snapshot(len(self.moves))
        to_move = None if self.ending is not None else current["turn"]
        counts: dict[str, int] = {}
        for piece in current["pieces"].values():
            counts[piece["seat"]] = counts.get(piece["seat"], 0) + 1
        seats = []
        for s in self.seats:
            running = (s.name == to_move and not self.paused and self.watch is None
                       and self.fault is None)
            spent = now - self.turn_started if running else 0.0
            seats.append({
                "name": s.name, "player": s.player, "engine": s.engine, "limit": s.limit,
                "clock": s.clock,
                "time_left": None if s.time_left is None else round(s.time_left - spent, 3),
                "used": round(s.used + spent, 3), "running": running,
                "pieces": counts.get(s.name, 0), "out": counts.get(s.name, 0) == 0,
            })
        result = None
        if self.ending is not None:
            result = {"text": self.ending.text, "winner": self.ending.winner,
                      "ranking": self.ending.ranking}
        return {
            "version": self.version, "variants": self.variants,
            "variant_seats": self.variant_seats,
            "engines": [slot.describe() for slot in self.engines],
            "variant": self.variant, "board": self.board(self.variant), "seats": seats,
            "start": self.start, "moves": list(self.moves), "current": current,
            "result": result, "claimable": self.claimable,
            "paused": self.paused, "thinking": self.thinking,
            "analysis": {**self.analysis, "lines": list(self.analysis["lines"])},
            "fault": self.fault, "message": self.message, "watch": self.watch,
        }

    # ------------------------------------------------------------ engine moves

    def next_search(self) -> tuple[Callable[[], None], Seat] | None:
        """If an engine is to move now, what to run (outside the lock) to get its move."""
        if (self.ending is not None or self.paused or self.fault is not None
                or self.watch is not None or self.closed):
            return None
        seat = self.seat_to_move()
        if seat is None or seat.player != "engine":
            return None
        generation = self.generation
        slot = self.engines[seat.engine]
        start, moves, variant = self.start, list(self.moves), self.variant
        times = incs = None
        if any(s.clock for s in self.seats):
            now = time.monotonic()
            times = [max(0.0, (s.time_left if s.time_left is not None else 3600.0)
                         - (now - self.turn_started if s is seat else 0.0)) for s in self.seats]
            incs = [s.clock["inc"] if s.clock else 0.0 for s in self.seats]
        limit = Limit(depth=int(seat.limit["depth"]) if "depth" in seat.limit else None,
                      nodes=int(seat.limit["nodes"]) if "nodes" in seat.limit else None,
                      movetime=seat.limit.get("movetime"), times=times, incs=incs)
        if limit.bound() is None and limit.depth is None and limit.nodes is None:
            limit = Limit(movetime=1.0)  # an engine seat with no limit at all thinks 1 s
        options: dict[str, object] = dict(self.rule_options)
        if "skill" in seat.limit:
            options["Skill Level"] = int(seat.limit["skill"])
        name = seat.name
        ply = len(moves)

        def run() -> None:
            def on_info(info: Info) -> None:
                with self.lock:
                    if self.generation != generation:
                        return
                    merged = dict(self.thinking or {})
                    fresh = {k: v for k, v in info_dict(info).items() if v not in (None, [])}
                    if info.multipv in (None, 1):
                        merged.update(fresh)
                    merged.update(seat=name, engine=slot.index, ply=ply)
                    self.thinking = merged
                self.publish_soon()

            try:
                engine = slot.prepare("play", variant, options)
                with self.lock:
                    if self.generation != generation:
                        return
                    self.thinking = {"seat": name, "engine": slot.index, "ply": ply}
                    self._searches[slot.index] = generation
                    self.publish()
                result = engine.play(start, limit, moves=moves, info=on_info)
            except (EngineError, ValueError) as exc:
                # ValueError: an option or variant the engine does not offer
                slot.kill("play")
                with self.lock:
                    if self.generation == generation:
                        self._engine_fault(slot, f"{exc} (while {name} was thinking on "
                                           f"move {ply + 1})")
                return
            finally:
                with self.lock:
                    if self._searches.get(slot.index) == generation:
                        del self._searches[slot.index]
            with self.lock:
                if self.generation != generation:
                    return
                if result.move is None:
                    self._engine_fault(slot, f"{slot.name} answered no move for {name}, but "
                                       "the referee has the game going on")
                    return
                try:
                    self._referee_to(self.start, self.moves)
                    canonical = self.referee.legal(result.move)
                except EngineRefused as exc:
                    self._engine_fault(slot, f"{slot.name} played {result.move[:40]} for "
                                       f"{name}, which the referee refused: {exc.reason}")
                    return
                if len(canonical) != 1:
                    self._engine_fault(slot, f"{slot.name} played {result.move[:40]} for "
                                       f"{name}, which may mean {', '.join(canonical)}")
                    return
                self.play(canonical[0])

        return run, seat

    def _engine_fault(self, slot: EngineSlot, reason: str) -> None:
        self._charge_clock()  # the engine's thinking until now counts; the wait does not
        self.fault = {"engine": slot.index, "name": slot.name, "reason": reason}
        self.thinking = None
        self.publish()

    def restart(self, index: int) -> None:
        if not isinstance(index, int) or not 0 <= index < len(self.engines):
            raise TableError(f"no engine {str(index)[:10]}")
        self._charge_clock()
        self.stop_everything()
        slot = self.engines[index]
        slot.restart()
        if self.fault is not None and self.fault.get("engine") == index:
            self.fault = None
        self.message = f"{slot.name} restarted"
        self.turn_started = time.monotonic()
        self.publish()
