"""The session core: what an engine process knows between commands, whatever the dialect.

It holds the variant, the options, the current position (a base plus the moves played from
it), and the searcher, and it runs searches in their own thread. It speaks no protocol: a
dialect (UCI-style or CECP-style) turns commands into calls here and results into
lines. It decides no rule either; every rule question goes to the rules library.
"""

from __future__ import annotations

import os
import stat
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import replace

from canter.engine.search.limits import Limits, SearchInfo, SearchResult, StopFlag
from canter.protocol import options as opt
from canter.protocol.lines import echo
from canter.protocol.output import diagnostic

DEFAULT_VARIANT = "camelot"
STOP_GRACE = 2.0  # seconds a stopped searcher gets before the session answers for it
HOLD_POLL = 0.05  # how often a held answer (infinite, ponder) rechecks its release
# Perft recurses once per ply: far below Python's recursion limit, and far beyond any depth
# that could finish (even two lone pieces have some eight moves a ply).
MAX_PERFT_DEPTH = 64


SKIP = "--"  # a skipped seat in a move list (FAMILY-RULES R26); never a move


class ProtocolError(Exception):
    """A command the session refuses; the message is meant for the client as is."""


# The most a file an option names (a book, weights) may hold: far above any real one, and
# a bound on what a device or a pipe that never ends (/dev/zero) can make the engine read.
MAX_OPTION_FILE = 64 << 20


def _read_text(path: str, where: str) -> str:
    """The UTF-8 text of a file an option names, or ProtocolError starting with `where`."""
    try:
        # Opened without waiting: a pipe nobody writes would block the open for ever.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with open(fd, encoding="utf-8") as f:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                raise ProtocolError(f"{where}: a pipe, not a file")
            os.set_blocking(fd, True)
            text = f.read(MAX_OPTION_FILE + 1)
        if len(text) > MAX_OPTION_FILE:
            raise ProtocolError(f"{where}: more than {MAX_OPTION_FILE >> 20} MB; not a file "
                                "this option reads")
        return text
    except OSError as exc:
        raise ProtocolError(f"{where}: {exc.strerror or 'cannot be read'}") from None
    except UnicodeDecodeError:
        raise ProtocolError(f"{where}: not UTF-8 text") from None


def read_eval_file(path: str) -> dict[str, object]:
    """The weights an EvalFile names (empty path: none), or ProtocolError saying in one line
    what is wrong; the caller keeps the weights it had."""
    if not path.strip():
        return {}
    import json

    from canter.engine.search.evaluate import weight_changes

    where = f"option 'EvalFile' not set: '{echo(path)}'"
    try:
        data = json.loads(_read_text(path, where))
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"{where}: not JSON ({exc.msg}, line {exc.lineno})") from None
    except (ValueError, RecursionError) as exc:  # a number of thousands of digits, deep nests
        raise ProtocolError(f"{where}: JSON canter cannot read "
                            f"({type(exc).__name__}: {str(exc)[:80]})") from None
    try:
        return weight_changes(data)
    except ValueError as exc:
        raise ProtocolError(f"{where}: {exc}") from None


def read_switches(text: str) -> dict[str, int]:
    """The search switches a `Search Switches` value names, or ProtocolError saying in one
    line which entry is wrong; the caller keeps the switches it had."""
    from canter.engine.search.alphabeta import switch_changes

    try:
        return switch_changes(text)
    except ValueError as exc:
        raise ProtocolError(f"option 'Search Switches' not set: {exc}") from None


def read_book_file(path: str):
    """The book a BookFile names (empty path: None, the shipped books), or ProtocolError
    saying in one line what is wrong, with the line number for a malformed line; the
    caller keeps the book it had."""
    if not path.strip():
        return None
    from canter.engine.search.book import BookError, parse_book

    where = f"option 'BookFile' not set: '{echo(path)}'"
    text = _read_text(path, where)
    try:
        return parse_book(text)
    except BookError as exc:
        raise ProtocolError(f"{where}: {exc}") from None


def table_folder(path: str):
    """(load, keys) for the tables in the folder TablePath names (empty: the default
    folder) and in the package; a missing folder holds no tables."""
    from functools import partial
    from pathlib import Path

    from canter.engine.search.endings import (
        default_table_dir,
        folder_keys,
        folder_table,
        shipped_keys,
    )

    folder = Path(path).expanduser() if path.strip() else default_table_dir()
    return partial(folder_table, folder), sorted(set(folder_keys(folder)) | set(shipped_keys()))


def book_applies(limits: Limits, seat: int) -> bool:
    """A game move on the clock: a movetime or the mover's clock, and nothing that asks for
    a search as such (infinite, ponder, or a depth, node or mate limit: analysis, tests and
    fixed-depth matches want the search, not the book)."""
    if limits.infinite or limits.ponder:
        return False
    if limits.depth is not None or limits.nodes is not None or limits.mate is not None:
        return False
    return limits.movetime is not None or seat in limits.time


DoneCallback = Callable[[object | None, object | None], None]  # (best, ponder) Moves
InfoCallback = Callable[[SearchInfo], None]
ErrorCallback = Callable[[str], None]


def hard_budget(limits: Limits, seat: int, overhead: float) -> float | None:
    """The most time (s) the session lets a search run before stopping it itself.

    The searcher keeps its own, usually shorter, budget; this is the safety net that keeps
    a game from being lost on time even by a searcher that never looks at the clock."""
    if limits.infinite:
        return None
    if limits.movetime is not None:
        return max(limits.movetime - overhead, limits.movetime / 2, 0.0)
    if seat not in limits.time:
        return None
    left = max(0.0, limits.time[seat] - overhead)
    inc = limits.inc.get(seat, 0.0)
    cap = 0.4 * left + 0.5 * inc
    if limits.movestogo:
        cap = min(cap, 3 * left / limits.movestogo + 0.5 * inc)
    return max(0.005, min(cap, 0.9 * left))


def finite(limits: Limits, seat: int, pondering: bool) -> bool:
    """Does the search end by itself? Only with a depth, node, movetime or mate limit, or a
    clock for the seat to move, and not while it waits as `infinite` or for a ponderhit."""
    if limits.infinite or pondering:
        return False
    return (limits.depth is not None or limits.nodes is not None
            or limits.movetime is not None or limits.mate is not None or seat in limits.time)


class SearchJob:
    """One `go`: the search thread, its stop flag, and the guarantee of exactly one answer."""

    def __init__(self, session: Session, pos, limits: Limits, allowed: list,
                 on_info: InfoCallback, on_done: DoneCallback, on_error: ErrorCallback,
                 overhead: float, book: tuple | None = None,
                 started: float | None = None) -> None:
        self.session = session
        self.book = book  # (move, SearchInfo) the book answers with, or None: search
        self.pos = pos
        self.limits = limits
        self.allowed = allowed  # legal root moves, restricted by searchmoves
        self.on_info = on_info
        self.on_done = on_done
        self.on_error = on_error
        self.overhead = overhead
        self.stop = StopFlag()
        self.stop.pondering = limits.ponder
        self.wake = threading.Event()  # stop or ponderhit: recheck a held answer
        self.lock = threading.Lock()
        self.done = False
        self.last_pv_move = None
        self.started = time.monotonic() if started is None else started
        if not limits.ponder:
            budget = self.safety_budget()
            if budget is not None:
                self.stop.deadline = self.started + budget
        self.thread = threading.Thread(target=self._run, name="canter-search", daemon=True)
        self.watchdog = threading.Thread(target=self._watch, name="canter-clock", daemon=True)

    def safety_budget(self) -> float | None:
        """The session's own deadline for this search (hard_budget). The clocks it holds
        are already net of the overhead (start_search took it off), so the overhead is
        taken again only from a movetime."""
        limits = self.limits
        overhead = self.overhead if limits.movetime is not None else 0.0
        return hard_budget(limits, self.pos.turn, overhead)

    def start(self) -> None:
        self.thread.start()
        self.watchdog.start()

    def _info(self, info: SearchInfo) -> None:
        if self.done:
            return  # a late report from a searcher the session already answered for
        if info.pv and info.multipv in (None, 1):
            # Only the main line: with MultiPV the last report may be the k-th best move.
            self.last_pv_move = info.pv[0]
        self.on_info(info)

    def _run(self) -> None:
        result: SearchResult | None = None
        try:
            if self.book is not None:
                # Answered here, in the search thread, so the answer reaches the dialect
                # the way a search's does (CECP plans its next step from that thread).
                move, info = self.book
                self._info(SearchInfo(string="book move"))
                self._info(info)
                result = SearchResult(move, None, info)
            else:
                searcher = self.session.searcher()
                result = searcher.search(self.pos.copy(), self.limits, self._info, self.stop)
        except Exception as exc:  # the engine must answer even if its searcher fails
            diagnostic(traceback.format_exc())
            self.on_error(f"search failed: {type(exc).__name__}: {echo(str(exc), 200)}")
        # UCI: after `go infinite` or `go ponder` the answer waits for stop (or ponderhit).
        while not self.stop.is_set() and (self.limits.infinite or self.stop.pondering):
            self.wake.wait(HOLD_POLL)
            self.wake.clear()
        self.finish(result)

    def _watch(self) -> None:
        """Enforce the hard deadline even if the searcher polls only the stop flag."""
        while not self.done and not self.stop.is_set():
            deadline = self.stop.deadline
            wait = HOLD_POLL
            if deadline is not None and not self.stop.pondering:
                wait = deadline - time.monotonic()
                if wait <= 0:
                    self.stop.set()
                    self.wake.set()
                    return
            self.stop.event.wait(min(wait, HOLD_POLL))

    def finish(self, result: SearchResult | None) -> None:
        with self.lock:
            if self.done:
                return
            self.done = True
        self.stop.set()  # also ends the watchdog
        best, ponder = self._choose(result)
        self.on_done(best, ponder)

    def _choose(self, result: SearchResult | None) -> tuple:
        """The searcher's move if it is one of the allowed moves, else the best guess the
        session has; never an illegal move, never no move while one exists."""
        best = result.best if result is not None else None
        if best is None or best not in self.allowed:
            if best is not None:
                self.on_error("searcher proposed a move that is not allowed here; replaced")
            if self.last_pv_move is not None and self.last_pv_move in self.allowed:
                best = self.last_pv_move
            else:
                best = self.session.canonical_first(self.allowed, self.pos.variant)
            return best, None
        ponder = result.ponder
        if ponder is not None:
            pos = self.pos.copy()
            pos.push(best)
            if ponder not in pos.legal_moves():
                ponder = None
        return best, ponder

    @property
    def alive(self) -> bool:
        return not self.done


class TimedCommands:
    """A dialect's `handle`, timed: `received` is when the command being carried out was
    read (None between commands). A move's clock runs from it, so waiting for the command
    lock and stopping a running search (up to the stop grace) are part of the engine's
    time. The dialect carries the command out in `_handle`."""

    received: float | None = None

    def handle(self, tokens: list[str]) -> bool:
        """Carry out one command; False when the engine should end."""
        self.received = time.monotonic()
        try:
            return self._handle(tokens)
        finally:
            self.received = None

    def _handle(self, tokens: list[str]) -> bool:
        raise NotImplementedError


class Session:
    def __init__(self) -> None:
        self.variant_name = DEFAULT_VARIANT
        self.values: dict[str, object] = {}  # option key -> value set by the client
        self.rule_overrides: dict[str, object] = {}  # Rules field -> value set by the client
        self.base: str | None = None  # position string, None for the start position
        self.move_texts: list[str] = []
        self._position = None
        self._searcher = None
        self._job: SearchJob | None = None
        self._held: tuple[str, DoneCallback] | None = None  # see hold_answer
        self.eval_weights: dict[str, object] = {}  # from EvalFile: weight name -> value
        self.switches: dict[str, int] = {}  # from Search Switches: switch name -> value
        self.book_file = None  # the Book a BookFile names; None: the shipped ones
        self._endings = None  # (TablePath, Endings) once the searcher first needs them

    # ---- variant, rules, options ------------------------------------------------------
    @property
    def variant(self):
        from canter.engine import get_variant

        return get_variant(self.variant_name)

    def rules_for(self, variant):
        rules = variant.default_rules
        for name, value in self.rule_overrides.items():
            rules = rules.with_option(name, value)
        return rules

    def option_specs(self) -> list[opt.OptionSpec]:
        """All options; rule defaults are those of the variant now selected."""
        from canter.engine import VARIANT_NAMES

        return opt.engine_options(VARIANT_NAMES, DEFAULT_VARIANT, self.variant.default_rules)

    def option_value(self, spec: opt.OptionSpec) -> object:
        if spec.rule_field is not None:
            return getattr(self.rules_for(self.variant), spec.rule_field)
        if spec.name == "UCI_Variant":
            return self.variant_name
        return self.values.get(spec.key, spec.default)

    def set_option(self, name: str, value: str | None) -> list[str]:
        """Set an option; ProtocolError if it is not set. Returns warnings (empty mostly):
        a `Rule ...` option the game now selected never consults (`Rules.idle_in`)."""
        key = opt.option_key(name)
        spec = next((s for s in self.option_specs() if s.key == key), None)
        if spec is None:
            raise ProtocolError(f"unknown option '{echo(name)}'")
        if self.searching:
            raise ProtocolError(f"option '{spec.name}' not set: a search is running "
                                "(send stop first)")
        try:
            parsed = spec.parse(value)
        except ValueError as exc:
            raise ProtocolError(str(exc)) from None
        if spec.name == "UCI_Variant":
            if parsed != self.variant_name:
                self.variant_name = parsed
                self._reset_position()
                return self.idle_rules()
        elif spec.rule_field is not None:
            overrides = dict(self.rule_overrides)
            overrides[spec.rule_field] = parsed
            old, self.rule_overrides = self.rule_overrides, overrides
            try:
                self.rules_for(self.variant)
                self._rebuild_position()
            except (ValueError, ProtocolError) as exc:
                self.rule_overrides = old
                raise ProtocolError(f"option '{spec.name}' not set: {exc}") from None
            if overrides != old and self._searcher is not None:
                # The table's scores are the old rulings' (a position's hash does not
                # hold the rules): kept, they would answer the next search.
                self._searcher.clear()
            return self.idle_rules(spec.rule_field)
        elif spec is opt.BOOK_FILE:
            self.book_file = read_book_file(parsed)
            self.values[spec.key] = parsed
        elif spec is opt.CLEAR_HASH:
            if self._searcher is not None:
                self._searcher.clear()
        else:
            # The searcher's options; a weights file or switches are read first, so that a
            # bad one changes nothing.
            if spec is opt.EVAL_FILE:
                self.eval_weights = read_eval_file(parsed)
            elif spec is opt.SEARCH_SWITCHES:
                self.switches = read_switches(parsed)
            self.values[spec.key] = parsed
            if self._searcher is not None:
                self._configure(self._searcher)
        return []

    def idle_rules(self, field: str | None = None) -> list[str]:
        """One warning per `Rule ...` option set (or just `field`) that the game being
        played never consults."""
        variant = self.played_variant
        idle = self.rules_for(variant).idle_in(variant)
        return [f"{opt.rule_option_name(name)} changes nothing in {variant.name}: {why}"
                for name, why in idle.items() if field is None or name == field]

    @property
    def overhead(self) -> float:
        return float(self.values.get(opt.MOVE_OVERHEAD.key, opt.MOVE_OVERHEAD.default)) / 1000

    # ---- the searcher -----------------------------------------------------------------
    def searcher(self):
        if self._searcher is None:
            from canter.engine.search.searcher import Searcher

            self._searcher = Searcher()
            self._configure(self._searcher)
        return self._searcher

    def _configure(self, searcher) -> None:
        v = self.values
        searcher.hash_mb = v.get(opt.HASH.key, opt.HASH.default)
        searcher.threads = v.get(opt.THREADS.key, opt.THREADS.default)
        searcher.multipv = v.get(opt.MULTIPV.key, opt.MULTIPV.default)
        searcher.skill = v.get(opt.SKILL.key, opt.SKILL.default)
        searcher.algorithm = v.get(opt.THREE_SEAT.key, opt.THREE_SEAT.default)
        searcher.opponent_moves = v.get(opt.OPPONENT_MOVES.key, opt.OPPONENT_MOVES.default)
        searcher.read_opponents = v.get(opt.READ_OPPONENTS.key, opt.READ_OPPONENTS.default)
        searcher.weights = dict(self.eval_weights)
        searcher.switches = dict(self.switches)
        # UseTables switches off all the solved-position knowledge: the endgame tables and
        # the shipped proofs (Camette), so that a search can be tested on its own.
        use_tables = v.get(opt.USE_TABLES.key, True)
        searcher.tables = self.endings() if use_tables else None
        searcher.use_proofs = use_tables

    def endings(self):
        """The endgame tables of TablePath (loaded on first probe, kept while it stays)."""
        path = self.values.get(opt.TABLE_PATH.key, "")
        if self._endings is None or self._endings[0] != path:
            from canter.engine.search.endings import Endings

            load, keys = table_folder(path)
            self._endings = (path, Endings(load=load, available=keys))
        return self._endings[1]

    def close(self) -> None:
        """End of the session: the searcher's helper processes end too (they would at exit
        anyway: they are daemonic, and stop once the engine process is gone)."""
        if self._searcher is not None:
            self._searcher.close()

    def new_game(self) -> None:
        self.stop_search()
        if self._searcher is not None:
            self._searcher.clear()
        self._reset_position()

    # ---- position -----------------------------------------------------------------------
    @property
    def played_variant(self):
        """The game of the position being played: a position string names its own game,
        whatever UCI_Variant says (as the game's rules see it, without a team game's
        side-castle reading)."""
        from canter.engine import get_variant

        return get_variant(self.position.variant.name)

    @property
    def position(self):
        if self._position is None:
            self._position = self._build(None, [])
        return self._position

    def _reset_position(self) -> None:
        self.base, self.move_texts, self._position = None, [], None

    def _rebuild_position(self) -> None:
        self._position = self._build(self.base, self.move_texts, reuse=False)

    def set_position(self, base: str | None, moves: list[str]) -> None:
        """Replace the position, or raise ProtocolError and keep the old one."""
        pos = self._build(base, moves)
        self.base, self.move_texts, self._position = base, list(moves), pos

    def _build(self, base: str | None, moves: list[str], reuse: bool = True):
        from canter.engine import Position, PositionError, parse_move

        start = 0
        # `--` marks a skipped seat (R26), so where the list stands in seat order matters:
        # such a list is replayed from its start.
        reuse = reuse and SKIP not in moves
        if (reuse and self._position is not None and base == self.base
                and moves[: len(self.move_texts)] == self.move_texts):
            # The usual game loop resends the whole game; replay only what is new.
            pos = self._position.copy()
            start = len(self.move_texts)
        elif base is None:
            pos = Position.start(self.variant, self.rules_for(self.variant))
        else:
            try:
                from canter.engine import get_variant

                name = base.split()[0]
                try:
                    variant = get_variant(name)
                except KeyError:
                    variant = None  # let the parser name the problem
                rules = self.rules_for(variant) if variant is not None else None
                pos = Position.from_string(base, rules)
            except PositionError as exc:
                raise ProtocolError(f"position rejected: {exc}") from None
            except ValueError as exc:
                raise ProtocolError(f"position rejected: bad position string: {exc}") from None
        # The seat last accounted for in seat order, by a move or by a `--`.
        last = (pos.turn - 1) % pos.variant.nseats
        for index in range(start, len(moves)):
            text = moves[index]
            if text == SKIP:
                seat = (last + 1) % pos.variant.nseats
                if pos.variant.nseats < 3 or seat == pos.turn or pos.outcome() is not None:
                    name = pos.variant.seats[seat].name
                    raise ProtocolError(f"position rejected: move {index + 1} (--): {name} "
                                        "is not skipped here ('--' stands only for a seat "
                                        "that is out or passes)")
                last = seat
                continue
            last = pos.turn
            try:
                move = parse_move(pos, text)
            except ValueError as exc:
                raise ProtocolError(
                    f"position rejected: move {index + 1} ({echo(text)}): {_reason(exc)}"
                ) from None
            pos.push(move)
        return pos

    def play(self, text: str):
        """Play one move on the current position (for dialects that keep the game)."""
        from canter.engine import parse_move

        try:
            move = parse_move(self.position, text)
        except ValueError as exc:
            raise ProtocolError(_reason(exc)) from None
        self.position.push(move)
        self.move_texts.append(text)
        return move

    def undo(self) -> bool:
        if not self.move_texts:
            return False
        self.position.pop()
        self.move_texts.pop()
        return True

    # ---- referee --------------------------------------------------------------------------
    def fmt(self, move) -> str:
        from canter.engine import format_move

        return format_move(self.position.variant, move)

    def canonical_first(self, moves: list, variant=None):
        """The first of `moves` by spelling, in `variant` (the game they are moves of; by
        default the session's: a search's own may have been replaced meanwhile)."""
        from canter.engine import format_move

        if not moves:
            return None
        variant = variant or self.position.variant
        return min(moves, key=lambda m: format_move(variant, m))

    def legal_texts(self, argument: str | None = None) -> list[str]:
        """`legal [<cell>|<move>]`: see referee.legal_moves."""
        from canter.protocol.referee import RefereeError, legal_moves

        try:
            return legal_moves(self.position, argument)
        except RefereeError as exc:
            raise ProtocolError(str(exc)) from None

    def outcome(self):
        return self.position.outcome()

    def position_string(self) -> str:
        return self.position.to_string()

    def board_lines(self) -> list[str]:
        """The rules library's text board of the position, the last move marked."""
        from canter.engine.rules.textboard import render

        pos = self.position
        last = pos.move_stack[-1] if pos.move_stack else None
        return [row.rstrip() for row in render(pos, last_move=last).splitlines()]

    def perft(self, depth: int) -> tuple[list[tuple[str, int]], int]:
        from canter.engine.rules.perft import perft_divide

        if self.searching:
            raise ProtocolError("perft refused: a search is running (send stop first)")
        if not 0 <= depth <= MAX_PERFT_DEPTH:
            raise ProtocolError(f"perft: depth must be from 0 to {MAX_PERFT_DEPTH}")
        rows = perft_divide(self.position.copy(), depth) if depth > 0 else []
        total = sum(n for _, n in rows) if depth > 0 else 1
        return rows, total

    def prepare(self) -> None:
        """At `isready` (UCI) or `ping` (CECP) with no search running: have the engine
        build now what the game's first search would build at its first use, as a GUI
        expects of those commands, so that no search spends its clock on it."""
        if not self.searching:
            self.searcher().prepare(self.position.copy())

    def evaluate(self) -> tuple[int, str]:
        if self.searching:
            raise ProtocolError("eval refused: a search is running (send stop first)")
        return self.searcher().evaluate(self.position.copy())

    # ---- search -------------------------------------------------------------------------
    @property
    def searching(self) -> bool:
        return self._held is not None or (self._job is not None and self._job.alive)

    def hold_answer(self, kind: str, on_done: DoneCallback) -> None:
        """`go infinite` (kind "infinite") or `go ponder` ("ponder") on a game with no move
        to search: the answer, `on_done(None, None)`, waits as a search's would, for `stop`
        (or what stops a search), or for `ponderhit` after a ponder. Meanwhile the session
        counts as searching."""
        self.stop_search()
        self._held = (kind, on_done)

    def _release(self, kind: str | None = None) -> bool:
        held = self._held
        if held is None or (kind is not None and held[0] != kind):
            return False
        self._held = None
        held[1](None, None)
        return True

    def parse_moves(self, texts: list[str]) -> tuple[list, list[str]]:
        """Moves of the current position for `searchmoves`; and an error per bad one."""
        from canter.engine import parse_move

        moves, errors = [], []
        for text in texts:
            try:
                moves.append(parse_move(self.position, text))
            except ValueError as exc:
                errors.append(f"searchmoves: {echo(text)} ignored: {_reason(exc)}")
        return moves, errors

    def start_search(self, limits: Limits, on_info: InfoCallback, on_done: DoneCallback,
                     on_error: ErrorCallback, received: float | None = None) -> bool:
        """Start a search on a copy of the position; False (and nothing started) when the
        position has no legal move. A running search is stopped (and answered) first.
        `received` (time.monotonic()) is when the command asking for it was read."""
        # The clock runs from the command: stopping a search (the dialect may have done so
        # already), the book and building the searcher (its table, its helpers) on a first
        # `go` all count against the move's time.
        if received is None:
            received = time.monotonic()
        self.stop_search()
        pos = self.position.copy()
        legal = pos.legal_moves() if pos.outcome() is None else []
        if not legal:
            return False
        allowed = legal
        if limits.searchmoves:
            allowed = [m for m in legal if m in limits.searchmoves] or legal
        limits = self._net_of_overhead(limits, pos.turn)
        book = self._book_answer(pos, limits, allowed, on_error)
        self.searcher()  # built here, not in the thread, so its import cost is up front
        job = SearchJob(self, pos, limits, allowed, on_info, on_done, on_error, self.overhead,
                        book, started=received)
        self._job = job
        job.start()
        return True

    def _net_of_overhead(self, limits: Limits, seat: int) -> Limits:
        """The searcher plans with what is left after the transmission allowance."""
        if seat not in limits.time:
            return limits
        time_left = dict(limits.time)
        time_left[seat] = max(0.0, time_left[seat] - self.overhead)
        return replace(limits, time=time_left)

    def book(self):
        """The book in use: BookFile's, else the one shipped for the game being played,
        which is left out when a rules option the game consults differs from its defaults
        (it was built under those)."""
        if not self.values.get(opt.OWN_BOOK.key, opt.OWN_BOOK.default):
            return None
        if self.book_file is not None:
            return self.book_file
        variant = self.played_variant
        if self.rules_for(variant).as_played_in(variant) != variant.default_rules:
            return None
        from canter.engine.search.book import BookError, shipped_book

        try:
            return shipped_book(variant.name)
        except BookError:
            return None  # a damaged install: play without a book rather than not at all

    def _book_answer(self, pos, limits: Limits, allowed: list,
                     on_error: ErrorCallback) -> tuple | None:
        """(move, info) when the book has a move for this `go`, else None. The book only
        suggests: its moves are checked by the rules library, and one that is not legal is
        reported and never played."""
        if not book_applies(limits, pos.turn):
            return None
        book = self.book()
        entry = book.get(pos) if book is not None else None
        if entry is None:
            return None
        from canter.engine.search.book import book_moves, choose

        moves, problems = book_moves(entry, pos)
        for problem in problems:
            on_error(problem)
        move = choose(moves, allowed)
        if move is None:
            return None
        info = SearchInfo(depth=1, score_cp=entry.score, nodes=0, time=0.0, pv=[move])
        return move, info

    def stop_search(self, grace: float = STOP_GRACE) -> None:
        """Stop the running search and wait for its answer (given by the session itself if
        the searcher does not return within `grace` seconds)."""
        self._release()
        job = self._job
        if job is None:
            return
        job.stop.set()
        job.wake.set()
        job.thread.join(grace)
        if job.thread.is_alive():
            job.on_error(f"searcher did not stop within {grace:g} s; answering without it")
            job.finish(None)
        self._job = None

    def wait_search(self, reader_gone: Callable[[], bool] | None = None) -> None:
        """End of input: let a search with a finite limit finish and answer; stop one that
        has none (bare `go`, `go infinite`, an unanswered `go ponder`, a ponderhit search
        without clocks), which still answers exactly once. Never waits for ever. A search
        whose answer nobody can read any more (`reader_gone`: the client closed its end,
        as a crashed GUI does) is stopped too: `go depth 30` would run on for hours."""
        self._release()
        job = self._job
        if job is None:
            return
        if not finite(job.limits, job.pos.turn, job.stop.pondering):
            self.stop_search()
            return
        while job.thread.is_alive():
            job.thread.join(0.1)
            if reader_gone is not None and job.thread.is_alive() and reader_gone():
                self.stop_search()
                return
        self._job = None

    def ponderhit(self, clocks: Limits | None = None, received: float | None = None) -> bool:
        """The predicted move was played: the ponder search becomes a timed one, planned
        with `clocks` (limits for the engine's move, as a `go` would give them) when the
        clocks have moved since the ponder search began, its deadline counted from
        `received` (when the command was read; default now)."""
        if self._release("ponder"):
            return True
        job = self._job
        if job is None or not job.alive or not job.stop.pondering:
            return False
        if clocks is not None:
            job.limits = self._net_of_overhead(clocks, job.pos.turn)
            job.stop.clocks = job.limits
        budget = job.safety_budget()
        if budget is not None:
            job.stop.deadline = (time.monotonic() if received is None else received) + budget
        job.stop.pondering = False
        job.wake.set()
        return True


def _reason(exc: Exception) -> str:
    reason = getattr(exc, "reason", None)
    if reason:
        return f"illegal: {reason}"
    return str(exc)
