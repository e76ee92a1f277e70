"""The CECP-style (xboard) dialect over the session core: the engine keeps the game.

A GUI tells the engine which seats it plays (`new`, `go`, `playother`, `force`), sends the
other seats' moves (`usermove`), and the engine answers with its own `move` lines on its
own, claims results, and may ponder, analyse, offer or accept draws and resign
(docs/protocol.md, "CECP-style dialect").

Two locks. `cmd_lock` is held for a whole command and by anything else that starts or stops
a search, so searches are started and stopped one at a time. `lock` guards the game (the
session's position, the seats, the search in progress) against the search thread, whose
answer plays the engine's move; it is never held while waiting for a search to end, since
that search's answer needs it.
"""

from __future__ import annotations

import re
import threading
import traceback
from collections.abc import Callable

from canter.engine.search.limits import Limits, SearchInfo
from canter.protocol import options as opt
from canter.protocol import referee
from canter.protocol.cecp_format import (
    CECP_OPTIONS,
    HIDDEN_BY,
    HIDDEN_OPTIONS,
    RESIGN,
    Level,
    engine_score,
    feature_lines,
    option_value_text,
    parse_level,
    parse_number,
    result_claim,
    thinking_line,
)
from canter.protocol.lines import echo, error_text, printable
from canter.protocol.output import Output, diagnostic
from canter.protocol.session import ProtocolError, Session, TimedCommands

ENGINE_NAME = "canter"
DRAW_ACCEPT = -50  # accept a draw offer when standing at least half a Man worse
HINT_TIME = 0.5  # seconds a hint search may take
# A bare move, usermove=0 style: `C6-C7`, or coordinates without a separator (`c6c7`).
# Files A-N: every board of the family.
MOVE_SHAPE = re.compile(r"^[A-Na-n]\d{1,2}(?:[-xX]|[A-Na-n]\d)", re.ASCII)

# Accepted and without effect: canter has no tablebases, sizes its table by the Hash option,
# and does not care who its opponent is.
IGNORED = frozenset({"xboard", "accepted", "rejected", "random", "computer", "name",
                     "rating", "ics", "memory", "egtpath", "nps"})

# Commands that take no arguments: extra ones are reported and the command is still
# carried out, as in the UCI-style dialect.
NO_ARGUMENTS = frozenset({"new", "force", "go", "playother", "undo", "remove", "?", "draw",
                          "hard", "easy", "post", "nopost", "analyze", "exit", ".", "hint",
                          "quit", "getposition", "d", "help", "board", "pieces", "turn",
                          "ranking"})

HELP = [
    "# xboard | protover 2 | new | variant <game> | setboard <position string>",
    "# force | go | playother | usermove <move> | undo | remove | result <r> {<why>}",
    "# level <mps> <base> <inc> | st <seconds> | sd <plies> | time <cs> | otim <cs>",
    "# seattime <seat> <cs> | ? | ping <n> | draw | hard | easy | post | nopost",
    "# analyze | exit | . | hint | option <name>[=<value>] | cores <n> | quit",
    "# legal [<cell>|<move>] | getposition | board | pieces | turn | ranking | d | help",
]


class CecpError(Exception):
    """A refused command; the message is the reason shown in `Error (reason): COMMAND`."""


class IllegalMove(Exception):
    """A refused user move; the message is the reason in `Illegal move (reason): MOVE`."""


class Search:
    """One search this dialect started, and what became of it."""

    def __init__(self, kind: str, variant, ponder_move=None, ponder_text: str = "") -> None:
        self.kind = kind  # "think" (own move), "ponder", "analyze" or "hint"
        self.variant = variant
        self.ponder_move = ponder_move
        self.ponder_text = ponder_text
        self.discard = False  # its answer no longer counts (force, new, undo, ...)
        self.last: SearchInfo | None = None  # the main line's latest report with a score
        self.plies = 0  # moves since new/setboard at its root: how old its score is
        self.best = None  # for hints
        self.answered = threading.Event()


class CecpDialect(TimedCommands):
    name = "cecp"

    def __init__(self, session: Session, out: Output) -> None:
        self.session = session
        self.out = out
        self.cmd_lock = threading.RLock()
        self.lock = threading.RLock()
        self.force = False
        self.seats: set[int] = self._default_seats()
        self.post = False
        self.pondering = False  # hard / easy
        self.analyzing = False
        self.level = Level()
        self.st: float | None = None
        self.sd: int | None = None
        # Clocks as (seconds, serial): the serial orders the reports, so that a seat's
        # clock is the one last told, by `time`/`otim` or by `seattime`.
        self.own_clock: tuple[float, int] | None = None  # from `time`
        self.other_clock: tuple[float, int] | None = None  # from `otim`
        self.seat_clock: dict[int, tuple[float, int]] = {}  # from `seattime`
        self.clock_serial = 0
        self.resign_threshold = 0
        self.resigned = False  # since the game last changed: a draw offer is then too late
        self.current: Search | None = None
        self.last_think: Search | None = None  # its score guides draw offers
        self.pending: threading.Thread | None = None  # see _later
        self.generation = 0  # bumped whenever the engine's plans are cancelled
        self.commands: dict[str, Callable[[list[str]], bool | None]] = {
            "protover": self.cmd_protover, "new": self.cmd_new, "variant": self.cmd_variant,
            "force": self.cmd_force, "go": self.cmd_go, "playother": self.cmd_playother,
            "usermove": self.cmd_usermove, "setboard": self.cmd_setboard,
            "undo": self.cmd_undo, "remove": self.cmd_remove, "level": self.cmd_level,
            "st": self.cmd_st, "sd": self.cmd_sd, "time": self.cmd_time,
            "otim": self.cmd_otim, "seattime": self.cmd_seattime, "?": self.cmd_move_now,
            "ping": self.cmd_ping, "draw": self.cmd_draw, "result": self.cmd_result,
            "hard": self.cmd_hard, "easy": self.cmd_easy, "post": self.cmd_post,
            "nopost": self.cmd_nopost, "analyze": self.cmd_analyze, "exit": self.cmd_exit,
            ".": self.cmd_status, "hint": self.cmd_hint, "option": self.cmd_option,
            "quit": self.cmd_quit, "legal": self.cmd_legal,
            "getposition": self.cmd_getposition, "d": self.cmd_d, "help": self.cmd_help,
            "board": self.cmd_board, "pieces": self.cmd_pieces, "turn": self.cmd_turn,
            "ranking": self.cmd_ranking, "cores": self.cmd_cores,
        }

    # ---- plumbing -------------------------------------------------------------------------

    def _handle(self, tokens: list[str]) -> bool:
        word = tokens[0].lower()
        if word in IGNORED:
            return True
        command = self.commands.get(word)
        args = tokens[1:]
        if command is None and len(tokens) == 1 and MOVE_SHAPE.match(tokens[0]):
            command, args = self.cmd_usermove, tokens  # a GUI that refused usermove=1
        if command is None:
            self.error("unknown command", tokens)
            return True
        if word in NO_ARGUMENTS and len(tokens) > 1:
            self.error(f"{word} takes no arguments; '{echo(' '.join(args))}' ignored", tokens)
        try:
            with self.cmd_lock:
                return command(args) is not False
        except IllegalMove as exc:
            self.out.line(f"Illegal move ({error_text(str(exc))}): "
                          f"{echo(args[0] if args else '')}")
        except (CecpError, ProtocolError) as exc:
            self.error(str(exc), tokens)
        except Exception as exc:  # a bug must cost one command, not the game
            diagnostic(traceback.format_exc())
            self.error(f"internal error: {type(exc).__name__}: {echo(str(exc), 200)}", tokens)
        return True

    def error(self, reason: str, tokens: list[str]) -> None:
        self.out.line(f"Error ({error_text(reason)}): {echo(' '.join(tokens), 80)}")

    def input_error(self, message: str) -> None:
        """A line refused before it became a command (e.g. too long)."""
        self.error(message, ["(line dropped)"])

    def comment(self, text: str) -> None:
        """Lines a CECP GUI ignores (they start with '#'): diagnostics, referee answers."""
        self.out.line("# " + printable(_one_line(text)))

    def close(self, eof: bool) -> None:
        """End of input lets a search for the engine's own move finish and be played;
        `quit` (and end of input during pondering or analysis) stops without a move."""
        # The engine's seats keep moving until the user's seat is to move, or until no one
        # reads the moves.
        while eof and not self.out.reader_gone():
            with self.lock:
                current, pending = self.current, self.pending
            if current is not None and current.kind == "think":
                with self.cmd_lock:
                    self.session.wait_search(self.out.reader_gone)
            elif pending is not None and pending.is_alive():
                pending.join()  # a search about to start after the engine's move
            else:
                break
        with self.cmd_lock:
            self.halt()
        self.session.close()

    @property
    def nseats(self) -> int:
        return self.session.position.variant.nseats

    def _default_seats(self) -> set[int]:
        """A new game: the GUI's user takes the first seat, the engine every other one."""
        return set(range(1, self.session.variant.nseats))

    def _fmt(self, move) -> str:
        return self.session.fmt(move)

    # ---- searches ---------------------------------------------------------------------------
    def halt(self) -> None:
        """Cancel whatever the engine was doing (its answer will be ignored) and wait until
        the search has ended. Caller holds cmd_lock, not lock."""
        with self.lock:
            self.generation += 1
            if self.current is not None:
                self.current.discard = True
            self.current = None
        self.session.stop_search()

    def _start(self, search: Search, limits: Limits, received: float | None = None) -> bool:
        """Start a search on the session's position (caller holds both locks); its clock
        runs from `received` (the command that asked for it), by default from now."""

        def on_info(info: SearchInfo) -> None:
            self._on_info(search, info)

        def on_done(best, ponder) -> None:
            self._on_done(search, best, ponder)

        def on_error(message: str) -> None:
            if not search.discard:
                self.comment("error: " + message)

        search.plies = len(self.session.move_texts)
        started = self.session.start_search(limits, on_info, on_done, on_error, received)
        if started and search.kind != "hint":
            self.current = search
        return started

    def _on_info(self, search: Search, info: SearchInfo) -> None:
        # Only the main line (MultiPV's line 1) counts: the engine's decisions (resign,
        # draw, hint, stat01) go by the best move, and xboard shows one line per depth.
        if search.discard or info.multipv not in (None, 1):
            return
        if info.score_cp is not None or info.score_win is not None:
            if info.bound is None:
                search.last = info
        if search.kind == "analyze" or (self.post and search.kind in ("think", "ponder")):
            line = thinking_line(info, lambda m: _format(search.variant, m))
            if line is not None:
                self.out.line(line)

    def _on_done(self, search: Search, best, ponder) -> None:
        if search.kind == "hint":
            search.best = best
            search.answered.set()
            return
        with self.lock:
            if search.discard or search is not self.current:
                return
            self.current = None
            if search.kind != "think" or best is None:
                return  # analysis and unanswered pondering end silently
            self.last_think = search
            if self._hopeless(search):
                self.out.line("resign")
                self.force = True
                self.resigned = True
                return
            text = self._fmt(best)
            self.session.play(text)
            self.out.line(f"move {text}")
            outcome = self.session.outcome()
            if outcome is not None:
                self.out.line(result_claim(outcome, self.nseats))
                return
            if self.session.position.turn in self.seats:
                self._later(self._think)  # Tri-Camelot: the engine plays the next seat too
            elif self.pondering and ponder is not None:
                self._later(self._ponder, ponder)

    def _later(self, action: Callable, *args) -> None:
        """Run `action` once the search thread calling this has ended, unless a command has
        changed the engine's plans in between. (A search cannot be started from inside the
        search thread: starting one first waits for the previous one to end.)"""
        generation = self.generation
        thread = threading.current_thread()
        if thread is threading.main_thread():
            return  # answered by the session for a searcher that did not stop: no plans

        def run() -> None:
            thread.join()
            with self.cmd_lock, self.lock:
                if self.generation == generation and self.current is None:
                    action(*args)

        self.pending = threading.Thread(target=run, name="canter-cecp-next", daemon=True)
        self.pending.start()

    def _hopeless(self, search: Search) -> bool:
        info = search.last
        if not self.resign_threshold or self.nseats != 2 or info is None:
            return False
        if info.score_win is not None:
            return info.score_win < 0
        return info.score_cp is not None and info.score_cp <= -self.resign_threshold

    def _limits(self) -> Limits:
        """Limits for the engine's own move: `sd`, and `st` or the clocks of the level."""
        limits = Limits(depth=self.sd)
        if self.st is not None:
            limits.movetime = self.st
            return limits
        n = self.nseats
        for seat in range(n):
            told = [clock for clock in (self.seat_clock.get(seat), self.own_clock
                                        if seat in self.seats else self.other_clock)
                    if clock is not None]
            limits.time[seat] = max(told, key=lambda c: c[1])[0] if told else self.level.base
            limits.inc[seat] = self.level.inc
        if self.level.moves:
            done = len(self.session.move_texts) // n
            limits.movestogo = self.level.moves - done % self.level.moves
        return limits

    def _think(self, received: float | None = None) -> None:
        """The engine's seat is to move: claim the result if the game is over, else start
        thinking, its clock running from `received` (default: now). Caller holds both
        locks."""
        outcome = self.session.outcome()
        if outcome is not None:
            self.out.line(result_claim(outcome, self.nseats))
            return
        self._start(Search("think", self.session.position.variant), self._limits(), received)

    def _ponder(self, move) -> None:
        """Think on the opponent's time about the move the search expects (Camelot only:
        in Tri-Camelot the predicted move does not bring the engine's turn back)."""
        session = self.session
        if self.nseats != 2 or session.outcome() is not None:
            return
        text = self._fmt(move)
        session.play(text)
        try:
            if session.outcome() is None and session.position.turn in self.seats:
                limits = self._limits()
                limits.ponder = True
                self._start(Search("ponder", session.position.variant, move, text), limits)
        finally:
            session.undo()

    def _analyze(self) -> None:
        if self.session.outcome() is None:
            self._start(Search("analyze", self.session.position.variant),
                        Limits(infinite=True))

    def _forget_game(self) -> None:
        """A new game: the last game's score and its per-seat clocks no longer hold (a
        stale `seattime` would plan the new game's moves, and could lose it on time)."""
        self.last_think = None
        self.seat_clock = {}

    def _position_changed(self) -> None:
        """After new, setboard, undo, ...: analysis follows the position."""
        self.resigned = False
        if self.analyzing:
            with self.lock:
                self._analyze()

    # ---- handshake and options ------------------------------------------------------------
    def cmd_protover(self, args: list[str]) -> None:
        from canter import __version__
        from canter.engine import VARIANT_NAMES

        # (ASCII digits only: str.isdigit also takes '²', which int() refuses.)
        if args and args[0].isascii() and args[0].isdigit() and int(args[0]) < 2:
            return  # version 1 GUIs know no features
        specs = [(spec, self.session.option_value(spec))
                 for spec in self.session.option_specs() if spec.key not in HIDDEN_OPTIONS]
        specs += [(RESIGN, self.resign_threshold)]
        self.out.lines(feature_lines(f"{ENGINE_NAME} {__version__}", VARIANT_NAMES, specs))

    def cmd_option(self, args: list[str]) -> None:
        text = " ".join(args)
        if not text:
            raise CecpError("option needs NAME=VALUE (or NAME for a button)")
        name, sep, value = text.partition("=")
        name = name.strip()
        key = opt.option_key(name)
        if key in HIDDEN_OPTIONS:
            raise CecpError(f"option '{echo(name)}' is set by {HIDDEN_BY[key]}")
        own = next((s for s in CECP_OPTIONS if s.key == key), None)
        raw = value.strip() if sep else None
        if own is not None:
            try:
                self.resign_threshold = own.parse(raw)
            except ValueError as exc:
                raise CecpError(str(exc)) from None
            return
        spec = next((s for s in self.session.option_specs() if s.key == key), None)
        if (spec is not None and spec.kind == opt.CHECK and raw is not None
                and raw.lower() not in ("0", "1", "true", "false")):
            raise CecpError(f"option '{spec.name}' takes 1 or 0 (or true or false)")
        converted = option_value_text(spec, raw) if spec is not None else raw
        self._set_session_option(spec, name, converted)

    def cmd_cores(self, args: list[str]) -> None:
        """`cores N`: the GUI allows N processors; the engine searches in that many
        processes (option Threads), at most its own maximum."""
        n = int(self._number(args, "cores: processors", minimum=1, integer=True))
        spec = opt.THREADS
        self._set_session_option(spec, spec.name, str(min(n, spec.max)))

    def _set_session_option(self, spec, name: str, value: str | None) -> None:
        # Refused before anything is halted: a bad name or value must neither throw away
        # the move being thought on nor end pondering or analysis.
        if spec is None:
            raise CecpError(f"unknown option '{echo(name)}'")
        with self.lock:
            thinking = self.current is not None and self.current.kind == "think"
        if thinking:
            raise CecpError(f"option '{spec.name}' not set: the engine is thinking on its "
                            "move (send ? or force first)")
        try:
            spec.parse(value)
        except ValueError as exc:
            raise CecpError(str(exc)) from None
        self.halt()  # the session sets options only between searches (pondering ends)
        try:
            with self.lock:
                warnings = self.session.set_option(name, value)
        finally:
            self._position_changed()
        self._warn(warnings)

    def _warn(self, warnings: list[str]) -> None:
        for warning in warnings:
            self.out.line("# warning: " + warning)

    # ---- the game ---------------------------------------------------------------------------
    def cmd_new(self, args: list[str]) -> None:
        self.halt()
        with self.lock:
            warnings = self.session.set_option("UCI_Variant", "camelot")
            self.session.new_game()
            self.force = False
            self.seats = self._default_seats()
            self.sd = None
            self._forget_game()
        self._position_changed()
        self._warn(warnings)

    def cmd_variant(self, args: list[str]) -> None:
        from canter.engine import VARIANT_NAMES

        if len(args) != 1 or args[0].lower() not in VARIANT_NAMES:
            raise CecpError(f"variant must be one of: {', '.join(VARIANT_NAMES)}")
        self.halt()
        with self.lock:
            warnings = self.session.set_option("UCI_Variant", args[0].lower())
            self.session.new_game()
            self.seats = self._default_seats()
            self._forget_game()
        self._position_changed()
        self._warn(warnings)

    def cmd_setboard(self, args: list[str]) -> None:
        if not args:
            raise CecpError("setboard needs a position string")
        self.halt()
        try:
            with self.lock:
                before = self.session.position.variant
                self.session.set_position(" ".join(args), [])
                self.last_think = None  # its score was another position's
                if self.session.position.variant.name != before.name:
                    self.seat_clock = {}  # seattime names the other game's seats
                if self.nseats != before.nseats:
                    self.seats = set(range(1, self.nseats))
        finally:  # refused, the old position stays, and so does analysis of it
            self._position_changed()

    def cmd_force(self, args: list[str]) -> None:
        self.halt()
        with self.lock:
            self.force = True

    def cmd_go(self, args: list[str]) -> None:
        self.halt()
        with self.lock:
            self.analyzing = False
            self.force = False
            self.resigned = False
            self.seats = {self.session.position.turn}
            self._think(self.received)

    def cmd_playother(self, args: list[str]) -> None:
        self.halt()
        with self.lock:
            self.force = False
            self.resigned = False
            self.seats = set(range(self.nseats)) - {self.session.position.turn}

    def cmd_usermove(self, args: list[str]) -> None:
        if len(args) != 1:
            raise CecpError("usermove needs exactly one move")
        text = args[0]
        with self.lock:
            current = self.current
            if current is not None and current.kind == "think":
                raise IllegalMove("not your turn: the engine is thinking (send ? or force)")
            move = self._legal(text)
            if (current is not None and current.kind == "ponder"
                    and move == current.ponder_move):
                # The clocks as `time`/`otim` gave them with this move, not as they stood
                # when the pondering began.
                self.session.play(text)
                if self.session.ponderhit(self._limits(), self.received):
                    current.kind = "think"  # the ponder search now answers for real
                    return
                self.session.undo()
        self.halt()
        with self.lock:
            self.session.play(text)
            self.resigned = False
            if self.analyzing:
                self._analyze()
                return
            if self.force:
                return
            if self.session.outcome() is not None or self.session.position.turn in self.seats:
                # (which claims the result if the user's move ended the game)
                self._think(self.received)

    def _legal(self, text: str):
        from canter.engine import parse_move

        pos = self.session.position
        outcome = pos.outcome()
        if outcome is not None:
            raise IllegalMove(f"the game is over: {outcome.text()}")
        try:
            return parse_move(pos, text)
        except ValueError as exc:
            reason = getattr(exc, "reason", None) or str(exc)
            raise IllegalMove(reason) from None

    def cmd_undo(self, args: list[str]) -> None:
        self._take_back(1, "undo")

    def cmd_remove(self, args: list[str]) -> None:
        self._take_back(self._plies_since_last_turn(), "remove")

    def _plies_since_last_turn(self) -> int:
        """Plies back to the last move of the seat now on move: two in Camelot, one round in
        Tri-Camelot, fewer where an eliminated seat no longer moves (passes are no moves).
        More than the game has when that seat has not moved since new/setboard."""
        pos = self.session.position
        seat = pos.turn
        work = pos.copy()
        have = len(self.session.move_texts)
        for plies in range(1, have + 1):
            work.pop()
            if work.turn == seat:
                return plies
        return max(have + 1, self.nseats)

    def _take_back(self, plies: int, command: str) -> None:
        if len(self.session.move_texts) < plies:
            have = len(self.session.move_texts)
            raise CecpError(f"{command} needs {plies} move{'s' if plies > 1 else ''} to take "
                            f"back, the game since new/setboard has {have}")
        self.halt()
        with self.lock:
            for _ in range(plies):
                self.session.undo()
            self.last_think = None  # its score was a later position's
        self._position_changed()

    def cmd_result(self, args: list[str]) -> None:
        self.halt()
        with self.lock:
            self.force = True  # the game is over for the GUI: no move until new or go

    # ---- clocks and limits ----------------------------------------------------------------
    def cmd_level(self, args: list[str]) -> None:
        try:
            self.level = parse_level(args)
        except ValueError as exc:
            raise CecpError(str(exc)) from None
        self.st = None

    def cmd_st(self, args: list[str]) -> None:
        self.st = self._number(args, "st: seconds per move", minimum=0.01)

    def cmd_sd(self, args: list[str]) -> None:
        self.sd = int(self._number(args, "sd: depth", minimum=1, integer=True))

    def cmd_time(self, args: list[str]) -> None:
        self.own_clock = self._clock(self._number(args, "time: centiseconds", minimum=-1e12))

    def cmd_otim(self, args: list[str]) -> None:
        self.other_clock = self._clock(self._number(args, "otim: centiseconds",
                                                    minimum=-1e12))

    def cmd_seattime(self, args: list[str]) -> None:
        names = [s.name for s in self.session.position.variant.seats]
        if len(args) != 2 or args[0].lower() not in names:
            raise CecpError(f"seattime needs a seat ({', '.join(names)}) and centiseconds")
        centis = self._number(args[1:], "seattime: centiseconds", minimum=-1e12)
        self.seat_clock[names.index(args[0].lower())] = self._clock(centis)

    def _clock(self, centis: float) -> tuple[float, int]:
        self.clock_serial += 1
        return centis / 100, self.clock_serial

    @staticmethod
    def _number(args: list[str], what: str, minimum: float, integer: bool = False) -> float:
        if len(args) != 1:
            raise CecpError(f"{what} needed (one number)")
        try:
            value = parse_number(args[0], what, minimum, integer)
        except ValueError as exc:
            raise CecpError(str(exc)) from None
        return max(0.0, value)

    # ---- during the game ------------------------------------------------------------------
    def cmd_move_now(self, args: list[str]) -> None:
        with self.lock:
            current = self.current
        if current is not None and current.kind == "think":
            self.session.stop_search()  # its answer, the move, is printed before we return

    def cmd_ping(self, args: list[str]) -> None:
        # Every earlier command is done: a search they started runs on its own thread.
        with self.lock:
            self.session.prepare()
        # N is a number to xboard; whatever a client sent, all of it comes back to be matched,
        # uncut (the line limit bounds it), only escaped to printable ASCII.
        self.out.line("pong" + (" " + printable(" ".join(args)) if args else ""))

    def cmd_draw(self, args: list[str]) -> None:
        with self.lock:
            pos = self.session.position
            if self.nseats != 2 or pos.outcome() is not None or self.resigned:
                return  # a three-seat draw is not two players' business; a resigned game is over
            claimable = pos.rules.repetition == "claim" and pos.can_claim_draw()
            score = None
            for search in (self.current, self._recent_think()):
                if search is not None and search.last is not None:
                    score = engine_score(search.last)
                    break
            if claimable or (score is not None and score <= DRAW_ACCEPT):
                self.out.line("offer draw")

    def _recent_think(self) -> Search | None:
        """The engine's last search for its own move while its score still speaks for this
        position: up to the opponent's reply to that move (xboard's draw offer comes with
        or after it), not after further moves nor a take-back (which forgets it)."""
        think = self.last_think
        if think is None or len(self.session.move_texts) - think.plies > self.nseats:
            return None
        return think

    def cmd_hard(self, args: list[str]) -> None:
        self.pondering = True

    def cmd_easy(self, args: list[str]) -> None:
        self.pondering = False
        with self.lock:
            current = self.current
        if current is not None and current.kind == "ponder":
            self.halt()

    def cmd_post(self, args: list[str]) -> None:
        self.post = True

    def cmd_nopost(self, args: list[str]) -> None:
        self.post = False

    def cmd_analyze(self, args: list[str]) -> None:
        self.halt()
        with self.lock:
            self.analyzing = True
            self.force = True  # as xboard expects: leaving analysis plays no move
            self._analyze()

    def cmd_exit(self, args: list[str]) -> None:
        if not self.analyzing:
            raise CecpError("exit leaves analyze mode, and the engine is not analysing")
        self.halt()
        self.analyzing = False

    def cmd_status(self, args: list[str]) -> None:
        with self.lock:
            current = self.current
            if current is None or current.kind != "analyze":
                return
            info = current.last
            total = len(self.session.position.legal_moves())
        centis = int(((info.time if info else 0) or 0) * 100)
        nodes = (info.nodes if info else 0) or 0
        depth = (info.depth if info else 0) or 0
        self.out.line(f"stat01: {centis} {nodes} {depth} 0 {total}")

    def cmd_hint(self, args: list[str]) -> None:
        with self.lock:
            current = self.current
            if current is not None and current.kind == "ponder":
                self.out.line(f"Hint: {current.ponder_text}")
                return
            if current is not None and current.kind == "analyze" and current.last \
                    and current.last.pv:
                self.out.line(f"Hint: {self._fmt(current.last.pv[0])}")
                return
            if current is not None or self.session.outcome() is not None:
                return  # the engine is thinking, or there is nothing to hint at
            search = Search("hint", self.session.position.variant)
            if not self._start(search, Limits(depth=self.sd, movetime=HINT_TIME)):
                return
        search.answered.wait(HINT_TIME + 5)
        self.session.stop_search()
        if search.best is not None:
            self.out.line(f"Hint: {_format(search.variant, search.best)}")

    def cmd_quit(self, args: list[str]) -> bool:
        return False

    # ---- referee (answers are comment lines, which CECP GUIs ignore) ----------------------
    def cmd_legal(self, args: list[str]) -> None:
        if len(args) > 1:
            raise CecpError("legal takes at most one cell or move")
        with self.lock:
            moves = self.session.legal_texts(args[0] if args else None)
        self.comment(" ".join(["legal", *moves]))

    def cmd_getposition(self, args: list[str]) -> None:
        with self.lock:
            self.comment("position " + self.session.position_string())

    def cmd_board(self, args: list[str]) -> None:
        with self.lock:
            self.comment(referee.board_line(self.session.position.variant))

    def cmd_pieces(self, args: list[str]) -> None:
        with self.lock:
            self.comment(referee.pieces_line(self.session.position))

    def cmd_turn(self, args: list[str]) -> None:
        with self.lock:
            self.comment(referee.turn_line(self.session.position))

    def cmd_ranking(self, args: list[str]) -> None:
        with self.lock:
            self.comment(referee.ranking_line(self.session.position))

    def cmd_d(self, args: list[str]) -> None:
        with self.lock:
            session = self.session
            pos = session.position
            lines = ["# " + row for row in session.board_lines()]
            outcome = pos.outcome()
            lines.append("# " + (f"result {outcome.text()}" if outcome
                                 else f"turn {pos.variant.seats[pos.turn].name}"))
            engine = ", ".join(pos.variant.seats[s].name for s in sorted(self.seats))
            doing = {"think": "; thinking", "analyze": "; analysing", "ponder":
                     f"; pondering on {self.current.ponder_text}"}.get(
                self.current.kind, "") if self.current is not None else ""
            lines.append(f"# engine plays {engine or 'no seat'}"
                         + (" (force mode)" if self.force else "") + doing)
            lines.append("# position " + session.position_string())
        self.out.lines(lines)

    def cmd_help(self, args: list[str]) -> None:
        self.out.lines(HELP)


def _format(variant, move) -> str:
    from canter.engine import format_move

    return format_move(variant, move)


def _one_line(text: str) -> str:
    return " ".join(text.split())
