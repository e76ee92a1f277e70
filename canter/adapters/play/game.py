"""A game in the terminal: people type moves, engine seats are played by an engine process.

The engine is an outside program driven through the protocol by the client library
(`canter.adapters.client.engine`), exactly as a GUI would drive it; the rules library is used here
only to check the people's moves, to keep the position and to tell when the game is over.
"""

from __future__ import annotations

import os
import re
import select
import shlex
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from canter.adapters.text import count
from canter.engine import (
    AmbiguousMoveError,
    IllegalMoveError,
    Move,
    NotationError,
    Position,
    format_move,
    parse_move,
)
from canter.engine.rules.textboard import render
from canter.engine.rules.variant import Rules

HELP = """\
commands:
  <move>       a move in official notation, e.g. C6-B5, E5xE7xE9, F5-F9-H11xF13
  moves        list the legal moves
  undo         take back your last move (and the engine's replies since)
  hint         ask the engine for a move
  resign       give the game up
  draw         claim a draw by third repetition (with 'Rule Repetition=claim')
  board        draw the board again
  save FILE    save the game as a game record (a name with spaces in quotes)
  load FILE    load a game record and go on from its last position
               ('load FILE N': game N of a file of several)
  retry        after an engine failed: ask a fresh engine for its move
  help         this text
  quit         leave the game"""


class Hangup(KeyboardInterrupt):
    """The terminal closed (SIGHUP) or the program was told to end (SIGTERM): the game is
    left as at Ctrl-C, and saved if it is to be."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_hangup(signum: int, frame: object) -> None:
    raise Hangup(signum)


class TimeForfeit(Exception):
    """A person's clock ran out while waiting for a move."""


class Resigned(Exception):
    """A person gave the game up."""


class DrawClaimed(Exception):
    """A person claimed a draw the rules allow."""


# A line longer than this is no command nor move (the longest file name a system takes is
# 4096 bytes): it is dropped whole, so a flood of input without a newline cannot fill memory.
MAX_LINE = 64 * 1024


class LineTooLong(ValueError):
    """A line longer than MAX_LINE came in; it was read to its end and dropped."""


class LineReader:
    """Lines from a file descriptor, with an optional deadline per line.

    Reads raw bytes so that `select` is never fooled by text already sitting in a Python
    buffer; a terminal in canonical mode delivers whole lines anyway."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()
        # How much of the buffer is known to hold no newline: each chunk read is searched
        # once, not the whole buffer again (which was quadratic in the line's length).
        self.scanned = 0
        self.dropping = False  # inside a line over MAX_LINE: what comes is thrown away
        self.eof = False

    def readline(self, timeout: float | None = None) -> str | None:
        """The next line without its end, None at end of input; TimeoutError if `timeout`
        seconds pass without a whole line; LineTooLong (once the newline or the end of
        input has come) for a line of more than MAX_LINE bytes."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            end = self.buffer.find(b"\n", self.scanned)
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[:end + 1]
                self.scanned = 0
                if self.dropping or end > MAX_LINE:
                    self.dropping = False
                    raise LineTooLong(f"a line of more than {MAX_LINE:,} bytes")
                return line.decode("utf-8", "replace").rstrip("\r")
            self.scanned = len(self.buffer)
            if len(self.buffer) > MAX_LINE:
                self.dropping = True  # keep only the fact, never the line
                self.buffer.clear()
                self.scanned = 0
            if self.eof:
                if self.dropping:
                    self.dropping = False
                    raise LineTooLong(f"a line of more than {MAX_LINE:,} bytes")
                if not self.buffer:
                    return None
                line = bytes(self.buffer)
                self.buffer.clear()
                self.scanned = 0
                return line.decode("utf-8", "replace").rstrip("\r")
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                ready, _, _ = select.select([self.fd], [], [], left)
                if not ready:
                    raise TimeoutError
            chunk = os.read(self.fd, 65536)
            if chunk:
                self.buffer += chunk
            else:
                self.eof = True


def rules_from_options(rules: Rules, options: dict[str, str]) -> Rules:
    """The rulings the engine is given through its `Rule ...` options, for the game the
    terminal referees too (so both end it at the same point). ValueError for a bad value."""
    for name, value in options.items():
        words = name.lower().split()
        if len(words) > 1 and words[0] == "rule":  # 'Rule Repetition' -> repetition
            rules = rules.with_option("_".join(words[1:]), value)
    return rules


def under_options(start: Position, options: dict[str, str]) -> Position:
    """`start` refereed by the rulings of the engine's `Rule ...` options. Built again from
    its position string when they differ, since a ruling may change the game itself (Grand
    Cam's side castles: which castles a seat may enter). ValueError for a bad value."""
    rules = rules_from_options(start.rules, options)
    if rules == start.rules:
        return start
    return Position.from_string(start.to_string(), rules)


def check_replay(start: Position, moves: Sequence[Move]) -> None:
    """ValueError unless every move of a loaded record is legal from `start` under its
    rulings: the record was checked under its own Rules, and the Rule options may differ
    (a shorter quiet limit ends the game sooner; closed side castles refuse a jump)."""
    pos = start.copy()
    for number, move in enumerate(moves, 1):
        text = format_move(pos.variant, move)
        ended = pos.outcome()
        if ended is not None:
            raise ValueError(f"under the Rule options given the game is over before ply "
                             f"{number} ({text}): {ended.text()}")
        if move not in pos.legal_moves():
            raise ValueError(f"ply {number} ({text}) is not legal under the Rule options "
                             "given")
        pos.push(move)


MAX_CLOCK_MINUTES = 10_000  # about a week: longer is a typing slip


def parse_clock(text: str) -> tuple[float, float]:
    """'5' -> five minutes, no increment; '5+3' -> five minutes, 3 s per move (seconds).
    ASCII digits only: `\\d` and float() would take any script's (Arabic-Indic '١' as 1)."""
    match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(?:\+\s*([0-9]+(?:\.[0-9]+)?))?\s*",
                         text, re.ASCII)
    if not match:
        raise ValueError(f"clock '{text}' is not MINUTES or MINUTES+SECONDS (e.g. 5+3)")
    minutes, increment = float(match.group(1)), float(match.group(2) or 0.0)
    if minutes <= 0:
        raise ValueError("the clock needs some time")
    if minutes > MAX_CLOCK_MINUTES or increment > MAX_CLOCK_MINUTES * 60:
        raise ValueError(f"clock '{text}': at most {MAX_CLOCK_MINUTES} minutes "
                         "(and as many seconds of increment)")
    return minutes * 60.0, increment


def format_clock(seconds: float) -> str:
    seconds = max(0.0, seconds)
    minutes, secs = divmod(int(seconds), 60)
    if seconds < 20:
        return f"{minutes}:{seconds - 60 * minutes:04.1f}"
    return f"{minutes}:{secs:02d}"


def parse_seats(variant, text: str) -> set[int]:
    """'white', 'white,black', 'all', 'none', seat letters too -> seat indices."""
    words = [w for w in re.split(r"[,\s]+", text.strip().lower()) if w]
    if words == ["all"]:
        return set(range(variant.nseats))
    if not words:  # ('' would read as no seat: 'none' says so)
        raise ValueError("no seat named: give seat names, 'all' or 'none'")
    if words == ["none"]:
        return set()
    seats = set()
    for word in words:
        try:
            seats.add(variant.seat_index(word))
        except KeyError:
            known = ", ".join(s.name for s in variant.seats)
            raise ValueError(f"unknown seat '{word}' for {variant.name} ({known}, all, none)")\
                from None
    return seats


@dataclass
class EngineSettings:
    command: Sequence[str]
    depth: int | None = None
    movetime: float | None = None
    nodes: int | None = None
    options: dict[str, str] = field(default_factory=dict)


@dataclass
class Clocks:
    left: list[float]
    increment: float

    def text(self, variant) -> str:
        return "clocks: " + "  ".join(
            f"{s.name} {format_clock(t)}" for s, t in zip(variant.seats, self.left, strict=True)
        )


class TerminalGame:
    """One game. `start` is the position the game began from, `moves` those already played
    from it (a loaded record); `humans` the seats typed at the terminal."""

    def __init__(
        self,
        start: Position,
        moves: Sequence[Move],
        humans: set[int],
        engine: EngineSettings,
        clock: tuple[float, float] | None = None,
        color: bool = False,
        reader: LineReader | None = None,
        write: Callable[[str], None] | None = None,
        tags: dict[str, str] | None = None,
        notes: Sequence[dict | None] | None = None,
        save_path: str | None = None,
        clock_text: str | None = None,
        loaded_from: str | None = None,
    ) -> None:
        self.start = start.copy()
        self.pos = start.copy()
        for move in moves:
            self.pos.push(move)
        # engine comments per move played, for the game record
        self.notes: list[dict | None] = list(notes) if notes else [None] * len(moves)
        self.humans = humans
        self.engine_settings = engine
        self.engine = None
        self.clocks = Clocks([clock[0]] * start.variant.nseats, clock[1]) if clock else None
        self.color = color
        # Only a game a person plays reads the terminal: with no person at the board its
        # input may well be closed (`canter play --human none <&-`).
        if reader is None and humans:
            reader = LineReader(sys.stdin.fileno())
        self.reader = reader
        self.write = write or (lambda text: print(text, flush=True))
        self.tags = dict(tags or {})
        self.save_path = save_path
        self.clock_text = clock_text
        self.loaded_from = loaded_from  # the record file the game came from: save may replace it
        self.saved_to: list[str] = []  # files this game was saved to: save may replace them
        self.result_text: str | None = None
        self.result_token = "*"
        self.termination: str | None = None
        self.engine_failed = False  # its last search failed: a person may move for it
        self._take_recorded_result()

    @property
    def variant(self):
        return self.pos.variant

    # ---------------------------------------------------------------- the loop
    def run(self) -> int:
        """Play until the game ends or the person quits; 0 unless the engine failed or the
        game could not be saved at the end."""
        self.show_board()
        code = 1
        held = {}
        try:
            if threading_main():
                for signum in (signal.SIGHUP, signal.SIGTERM):
                    held[signum] = signal.signal(signum, _raise_hangup)
            code = self._loop()
        finally:
            for signum, handler in held.items():
                signal.signal(signum, handler)
            self.close_engine()
            if self.save_path and not self.save(self.save_path):
                code = code or 1
        return code

    def _loop(self) -> int:
        from canter.adapters.client.engine import EngineError

        try:
            while True:
                if self.announce_if_over():
                    return 0
                seat = self.pos.turn
                if seat in self.humans:
                    if not self.human_turn(seat):
                        self.write("game left unfinished")
                        return 0
                elif not self.engine_failed:
                    try:
                        self.engine_turn(seat)
                    except EngineError as exc:
                        if not self.humans:  # no one at the board to go on with the game
                            raise
                        self._engine_down(exc)
                elif not self.human_turn(seat):
                    self.write("game left unfinished")
                    return 1
        except EngineError as exc:
            self.write(f"engine error: {exc}")
            return 1
        except TimeForfeit as exc:
            self.end_on_time(exc.args[0])
            return 0
        except Resigned as exc:
            self.end_by_forfeit(exc.args[0], " resigns", "resignation")
            return 0
        except DrawClaimed as exc:
            self.end_by_claim(exc.args[0])
            return 0
        except Hangup as exc:
            self.write("\nended by a signal: game left unfinished")
            return 128 + exc.signum
        except KeyboardInterrupt:
            self.write("\ninterrupted: game left unfinished")
            return 130

    def announce_if_over(self) -> bool:
        outcome = self.pos.outcome()
        if outcome is None and self.result_token != "*":  # ended as the record says
            self.write(f"game over: {self.result_text}")
            return True
        if outcome is None:
            return False
        from canter.adapters.records.format import result_from_ranking

        self.end(outcome.text(), result_from_ranking(outcome.ranking, self.variant.nseats),
                 "normal")
        return True

    def end(self, text: str, token: str, termination: str) -> None:
        """Record how the game ended (for the saved record) and say so."""
        self.result_text = text
        self.result_token = token
        self.termination = termination
        self.write(f"game over: {text}")

    def end_on_time(self, seat: int) -> None:
        self.end_by_forfeit(seat, "'s time ran out", "time forfeit")

    def end_by_forfeit(self, seat: int, what: str, termination: str) -> None:
        """The game ends against one seat: with two seats the other wins; with three, the
        others share the point (the arbiter's ruling for a seat that forfeits)."""
        from fractions import Fraction

        from canter.adapters.records.format import result_token

        v = self.variant
        loser = v.seats[seat].name
        if v.is_team_game:
            # The seat's team forfeits; the other team shares the point.
            winners = [s for s in range(v.nseats) if s not in v.partners[seat]]
            names = " and ".join(v.seats[s].name for s in winners)
            share = Fraction(1, len(winners))
            self.end(f"{names} win: {loser}{what}",
                     result_token([share if s in winners else 0 for s in range(v.nseats)]),
                     termination)
            return
        if v.nseats == 2:
            text = f"{v.seats[1 - seat].name} wins: {loser}{what}"
        else:
            text = f"{loser}{what}; the others share the point"
        share = Fraction(1, v.nseats - 1)
        self.end(text, result_token([0 if s == seat else share for s in range(v.nseats)]),
                 termination)

    def end_by_claim(self, seat: int) -> None:
        from canter.adapters.records.format import result_from_ranking
        from canter.engine.rules.outcome import ranking_for

        n = self.variant.nseats
        self.end(f"draw: third repetition, claimed by {self.variant.seats[seat].name}",
                 result_from_ranking(ranking_for(n, None, self.pos.eliminated), n), "normal")

    def show_board(self) -> None:
        last = self.pos.move_stack[-1] if self.pos.move_stack else None
        self.write(render(self.pos, color=self.color, last_move=last))
        if self.clocks:
            self.write(self.clocks.text(self.variant))

    # ---------------------------------------------------------------- people
    def human_turn(self, seat: int) -> bool:
        """Read commands until a move is made (True) or the person quits (False)."""
        name = self.variant.seats[seat].name
        began = time.monotonic()
        if self.pos.rules.repetition == "claim" and self.pos.repetitions() >= 3:
            self.write("this position has occurred for the third time: 'draw' claims the draw")
        while True:
            timeout = None
            if self.clocks:
                timeout = self.clocks.left[seat] - (time.monotonic() - began)
            self.write_prompt(f"{name}> ")
            assert self.reader is not None  # (built whenever a person plays)
            try:
                line = self.reader.readline(timeout)
            except TimeoutError:
                self.clocks.left[seat] = 0.0
                self.write("")
                raise TimeForfeit(seat) from None
            except LineTooLong as exc:
                self.write(f"{exc}: ignored (no command or move is that long)")
                continue
            if line is None:
                return False
            words = line.split()
            if not words:
                continue
            command, args = words[0].lower(), words[1:]
            if command in ("save", "load"):
                # A file name may hold spaces in quotes, as in a shell, and start with ~.
                try:
                    args = [os.path.expanduser(a) for a in shlex.split(line)[1:]]
                except ValueError as exc:  # an unclosed quote
                    self.write(f"{command}: {exc}")
                    continue
            if command in ("quit", "exit"):
                return False
            handler = self.COMMANDS.get(command)
            if handler is not None:
                # The clock ran while the prompt waited, whatever the command: a person who
                # waits and then types 'undo' (or 'load', 'retry', which end the turn too)
                # has used that time. Charged as the command comes in, before it runs (out
                # of time already: a forfeit before it changes a thing; the board it shows
                # has the clock as it is), and given back if the turn goes on, whose time is
                # then charged whole when it ends.
                spent = time.monotonic() - began
                self.charge(seat, spent)
                if handler(self, args):
                    return True
                if self.clocks:
                    self.clocks.left[seat] += spent
                continue
            if len(words) > 1:
                self.write(f"unknown command '{command}' (type 'help')")
                continue
            if not any(ch.isdigit() for ch in words[0]):
                # every cell has a row number: a word without a digit is a mistyped command,
                # not a move, and a notation error would only confuse
                self.write(f"unknown command or move '{words[0]}' (type 'help')")
                continue
            if self.try_human_move(seat, words[0], began):
                return True

    def write_prompt(self, text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    def try_human_move(self, seat: int, text: str, began: float) -> bool:
        try:
            move = parse_move(self.pos, text)
        except (NotationError, IllegalMoveError, AmbiguousMoveError) as exc:
            self.write(str(exc))
            return False
        self.charge(seat, time.monotonic() - began, self.clocks.increment if self.clocks else 0.0)
        self.make(move, f"{self.variant.seats[seat].name} plays")
        return True

    def charge(self, seat: int, spent: float, increment: float = 0.0) -> None:
        """Take the time a seat's prompt waited off its clock, adding `increment` (given for
        a move, not for a command such as 'undo'); TimeForfeit if it was more than the
        clock held. Nothing without clocks."""
        if not self.clocks:
            return
        if spent > self.clocks.left[seat]:
            self.clocks.left[seat] = 0.0
            raise TimeForfeit(seat)
        self.clocks.left[seat] += increment - spent

    def make(self, move: Move, who: str, detail: str = "", note: dict | None = None) -> None:
        self.engine_failed = False  # a person moved for it: its next turn is its own again
        self.write(f"{who} {format_move(self.variant, move)}{detail}")
        self.pos.push(move)
        self.notes.append(note)
        self.show_board()

    def cmd_moves(self, args: list[str]) -> bool:
        moves = sorted((format_move(self.variant, m) for m in self.pos.legal_moves()),
                       key=_move_order)
        duty = " (a capture is compulsory)" if self.pos.must_capture() else ""
        self.write(f"{len(moves)} legal moves{duty}:")
        self.write(_columns(moves))
        return False

    def cmd_undo(self, args: list[str]) -> bool:
        # Take back plies until a person is to move again, at least one.
        base = len(self.start.move_stack)
        if len(self.pos.move_stack) <= base:
            self.write("nothing to undo")
            return False
        taken = []
        while len(self.pos.move_stack) > base:
            taken.append(format_move(self.variant, self.pos.pop()))
            self.notes.pop()
            if self.pos.turn in self.humans:
                break
        if self.pos.turn not in self.humans:
            # Only engine moves before: replay them, nothing a person can take back.
            for text in reversed(taken):
                self.pos.push(parse_move(self.pos, text))
                self.notes.append(None)
            self.write("nothing of yours to undo")
            return False
        self.engine_failed = False
        self.write("took back " + ", ".join(reversed(taken)))
        self.show_board()
        # The person to move now is not necessarily the one who asked (two people): end
        # this turn so the loop prompts the right seat.
        return True

    def cmd_hint(self, args: list[str]) -> bool:
        from canter.adapters.client.engine import EngineError

        try:
            result = self.ask_engine()
        except EngineError as exc:
            # People can go on without the hint; a fresh engine is started next time.
            self.write(f"no hint: engine error: {exc}")
            if self.engine is not None:
                self.engine.close()
                self.engine = None
            return False
        if result.move is None:
            self.write("hint: the engine has no move")
        else:
            self.write(f"hint: {result.move}{_info_text(result)}")
        return False

    def _engine_down(self, exc: Exception) -> None:
        """The engine failed on its move: the game stays, and the person at the board
        chooses how it goes on."""
        name = self.variant.seats[self.pos.turn].name
        self.write(f"engine error: {exc}")
        if self.engine is not None:
            self.engine.close()
            self.engine = None
        self.engine_failed = True
        self.write(f"the game stays: 'retry' asks a fresh engine for {name}'s move; or type "
                   f"a move for {name}, 'save FILE', or 'quit'")

    def cmd_retry(self, args: list[str]) -> bool:
        if not self.engine_failed:
            self.write("nothing to retry: the engine has not failed")
            return False
        self.engine_failed = False
        return True  # the engine's turn again, with a fresh engine

    def person_seat(self, command: str) -> int | None:
        """The person's seat a command at the prompt speaks for: the seat to move, or, at
        an engine's seat (prompted there after it failed), the one seat people play. None,
        said why, when there are several: which of them meant it is not known."""
        if self.pos.turn in self.humans:
            return self.pos.turn
        if len(self.humans) == 1:
            return next(iter(self.humans))
        v = self.variant
        people = ", ".join(v.seats[s].name for s in sorted(self.humans))
        self.write(f"{command}: {v.seats[self.pos.turn].name} is the engine's seat and "
                   f"several people play ({people}): {command} at your own prompt")
        return None

    def cmd_resign(self, args: list[str]) -> bool:
        # At the engine's seat after it failed, 'resign' gives up the person's game, never
        # the engine's (which would hand the person the win).
        seat = self.person_seat("resign")
        if seat is None:
            return False
        raise Resigned(seat)

    def cmd_draw(self, args: list[str]) -> bool:
        """A claim by the person at the prompt (at the engine's seat after it failed: the
        one person playing); the game ends only when the rules grant it (a draw offer
        would need the engine's consent, which the protocol does not carry)."""
        pos = self.pos
        mode = pos.rules.repetition
        if mode != "claim":
            self.write("no draw to claim: " + (
                "the third repetition ends the game by itself under these rules"
                if mode == "auto" else "repetition draws are off under these rules"))
            return False
        times = pos.repetitions()
        if times < 3:
            self.write(f"no draw to claim: this position has occurred {times} "
                       f"time{'s' if times > 1 else ''}, a claim needs 3")
            return False
        seat = self.person_seat("draw")  # the engine claims nothing: a person does
        if seat is None:
            return False
        raise DrawClaimed(seat)

    def cmd_board(self, args: list[str]) -> bool:
        self.show_board()
        return False

    def cmd_help(self, args: list[str]) -> bool:
        self.write(HELP)
        return False

    def cmd_save(self, args: list[str]) -> bool:
        if len(args) != 1:
            self.write("usage: save FILE")
            return False
        self.save(args[0])
        return False

    def played(self) -> list[Move]:
        return self.pos.move_stack[len(self.start.move_stack):]

    def players(self) -> list[str]:
        engine = self.engine_settings.command
        engine_name = os.path.basename(engine[0]) if engine else "engine"
        if engine[1:3] == ["-m", "canter"]:
            engine_name = "canter"
        return ["human" if s in self.humans else engine_name for s in range(self.variant.nseats)]

    def save(self, path: str) -> bool:
        try:
            save_record(path, self.start, self.played(), self.players(), self.notes,
                        self.result_token, self.termination, self.result_text,
                        self.clock_text, loaded=self.loaded_from, tags=self.tags,
                        saved=self.saved_to)
        except (OSError, ValueError) as exc:
            self.write(f"cannot save {path}: {_reason(exc)}")
            return False
        self.saved_to.append(path)
        self.write(f"saved {count(len(self.played()), 'move')} to {path}")
        return True

    def cmd_load(self, args: list[str]) -> bool:
        if len(args) not in (1, 2) or (len(args) == 2 and not (
                args[1].isascii() and args[1].isdecimal() and len(args[1]) <= 9)):
            self.write("usage: load FILE [N] (N: which game of the file, from 1)")
            return False
        number = int(args[1]) if len(args) == 2 else 1
        try:
            start, moves, tags, notes, games = load_record(args[0], number)
        except (OSError, ValueError) as exc:
            self.write(f"cannot load {args[0]}: {_reason(exc)}")
            return False
        if start.variant.name != self.variant.name:
            self.write(f"cannot load: {args[0]} is a {start.variant.name} game, this is "
                       f"{self.variant.name}")
            return False
        try:
            # The rulings given with --setoption hold for every game of the session; under
            # them the record's position itself may be refused (a castle a seat may not
            # enter).
            start = under_options(start, self.engine_settings.options)
            check_replay(start, moves)
        except ValueError as exc:
            self.write(f"cannot load {args[0]}: {exc}")
            return False
        # Everything is checked: from here on nothing can fail. The engine is not told of
        # the new game here but dropped, and a fresh one is started when it is next asked
        # (open_engine gives it the loaded game's rulings): the live engine may have died
        # while idle, or refuse a ruling of the record (a quiet limit beyond its range),
        # and open_engine reports either as an engine failure the person can go on from.
        self.close_engine()
        self.start = start.copy()
        self.pos = start.copy()
        for move in moves:
            self.pos.push(move)
        self.notes = list(notes)
        self.tags = dict(tags)
        self.loaded_from = args[0]
        self.result_text, self.result_token, self.termination = None, "*", None
        self.engine_failed = False
        self._take_recorded_result()
        self.write(loaded_text(args[0], len(moves), number, games))
        self.show_board()
        return True  # the seat to move may have changed

    COMMANDS: dict[str, Callable[[TerminalGame, list[str]], bool]] = {
        "moves": cmd_moves,
        "undo": cmd_undo,
        "hint": cmd_hint,
        "resign": cmd_resign,
        "draw": cmd_draw,
        "board": cmd_board,
        "help": cmd_help,
        "?": cmd_help,
        "save": cmd_save,
        "load": cmd_load,
        "retry": cmd_retry,
    }

    # ---------------------------------------------------------------- the engine
    def open_engine(self):
        if self.engine is None:
            from canter.adapters.client.engine import Engine

            self.write("starting engine: " + " ".join(self.engine_settings.command))
            engine = Engine.start(list(self.engine_settings.command))
            options: dict[str, str] = {}
            if "uci_variant" in engine.options:
                options["UCI_Variant"] = self.variant.name
            # The game's rulings (a loaded record's Rules tag, --setoption), so the engine
            # ends the game where the terminal does; then the options as given.
            options.update(self._rule_options(engine))
            options.update(self.engine_settings.options)
            try:
                engine.configure(options)
                engine.new_game()
            except ValueError as exc:  # an option the engine does not have, or a bad value
                from canter.adapters.client.engine import EngineStateError

                engine.close()
                raise EngineStateError(str(exc)) from None
            except BaseException:
                engine.close()
                raise
            self.engine = engine
        return self.engine

    def _rule_options(self, engine) -> dict[str, str]:
        """Every ruling of the game as the `Rule ...` options the engine declares."""
        from dataclasses import fields

        rules = self.start.rules
        out = {}
        for f in fields(rules):
            # (The protocol's own spelling, docs/protocol.md: 'Rule ' and the field in
            # title case, so quiet_limit is 'Rule Quiet Limit'.)
            name = "Rule " + f.name.replace("_", " ").title()
            if name.lower() in engine.options:
                value = getattr(rules, f.name)
                out[name] = ("true" if value else "false") if isinstance(value, bool) \
                    else str(value)
        return out

    def _take_recorded_result(self) -> None:
        """A loaded record that ended by something the rules do not see (a resignation, a
        forfeit, an agreed draw) stays ended: its result is the game's."""
        token = self.tags.get("Result", "*")
        if token != "*" and self.pos.outcome() is None:
            self.result_token = token
            self.termination = self.tags.get("Termination")
            self.result_text = self.tags.get("Reason") or f"{token} by the record" + (
                f" ({self.termination})" if self.termination else "")

    def close_engine(self) -> None:
        if self.engine is not None:
            from canter.adapters.client.engine import EngineError

            try:
                self.engine.quit()
            except EngineError:
                self.engine.close()
            self.engine = None

    def limit(self):
        from canter.adapters.client.engine import Limit

        s = self.engine_settings
        times = incs = None
        if self.clocks:
            times = list(self.clocks.left)
            incs = [self.clocks.increment] * len(times)
        if s.depth is None and s.movetime is None and s.nodes is None and times is None:
            return Limit(movetime=1.0)
        return Limit(depth=s.depth, movetime=s.movetime, nodes=s.nodes, times=times, incs=incs)

    def ask_engine(self):
        engine = self.open_engine()
        played = [format_move(self.variant, m)
                  for m in self.pos.move_stack[len(self.start.move_stack):]]
        return engine.play(self.start.to_string(), self.limit(), moves=played)

    def engine_turn(self, seat: int) -> None:
        name = self.variant.seats[seat].name
        self.write(f"{name} is thinking...")
        result = self.ask_engine()
        if self.clocks:
            if result.elapsed > self.clocks.left[seat]:
                self.clocks.left[seat] = 0.0
                raise TimeForfeit(seat)
            self.clocks.left[seat] += self.clocks.increment - result.elapsed
        from canter.adapters.client.engine import EngineProtocolError

        if result.move is None:
            raise EngineProtocolError("search", "bestmove (none)",
                                      f"the engine has no move for {name}, but there are "
                                      f"{len(self.pos.legal_moves())} legal moves")
        try:
            move = parse_move(self.pos, result.move)
        except (NotationError, IllegalMoveError, AmbiguousMoveError) as exc:
            raise EngineProtocolError("search", f"bestmove {result.move}",
                                      f"not a legal move: {exc}") from None
        note: dict = {"time": round(result.elapsed, 3)}
        if result.info.score is not None:
            from canter.adapters.records.format import score_text

            note["score"] = score_text(result.info.score.cp, result.info.score.win)
            note["depth"] = result.info.depth or 0
        self.make(move, f"{name} plays", _info_text(result), note)


def threading_main() -> bool:
    """Signal handlers can be set only from the main thread (tests drive games from others)."""
    import threading

    return threading.current_thread() is threading.main_thread()


def _reason(exc: OSError | ValueError) -> str:
    """What went wrong, without the errno prefix an OSError's own text carries."""
    return (exc.strerror or str(exc)) if isinstance(exc, OSError) else str(exc)


def _info_text(result) -> str:
    info = result.info
    parts = []
    if info.depth is not None:
        parts.append(f"depth {info.depth}")
    if info.score is not None:
        parts.append(f"score {info.score}")
    parts.append(f"{result.elapsed:.1f} s")
    return " (" + ", ".join(parts) + ")"


def _move_order(text: str) -> list[tuple[str, int]]:
    """Sort key: cell by cell, by file letter then rank number (F5 before F11)."""
    return [(cell[0], int(cell[1:])) for cell in re.split(r"[-x]", text)]


def _columns(words: list[str], width: int = 78) -> str:
    if not words:
        return "  (none)"
    cell = max(len(w) for w in words) + 2
    per_line = max(1, (width - 2) // cell)
    lines = []
    for i in range(0, len(words), per_line):
        lines.append("  " + "".join(w.ljust(cell) for w in words[i:i + per_line]).rstrip())
    return "\n".join(lines)


# -------------------------------------------------------------------- game records
PLAY_EVENT = "canter play"  # the Event of the records `save` writes


def loaded_text(path: str, moves: int, number: int, games: int) -> str:
    """What a load says: which game of a file of several it took, and how to take another."""
    if games == 1:
        return f"loaded {count(moves, 'move')} from {path}"
    return (f"loaded game {number} of {games} ({count(moves, 'move')}) from {path}; "
            f"'load {path} N' takes game N")


def check_save_target(path: str, loaded: str | None = None, saved: Sequence[str] = ()) -> None:
    """`save` replaces its file whole, so it may replace only a file that is missing,
    empty, or one game record that is this game saved before (`canter play`'s) or the
    game loaded (`loaded`, the file it came from): never other games of a record file,
    a game of another program's, nor a file of another kind. ValueError says why not."""
    from canter.adapters.files import MAX_TEXT_INPUT, InputTooLarge, is_special, read_at_most
    from canter.adapters.records.format import RecordError, decode_records, read_games

    if is_special(path):
        # A device or a pipe is written in place and holds no file to protect; reading it
        # first would wait for ever (a pipe with no writer, /dev/stdout on a pipe).
        return
    try:
        with open(path, "rb") as f:
            data = read_at_most(f, MAX_TEXT_INPUT, "one game record")
    except FileNotFoundError:
        return
    except InputTooLarge as exc:
        raise ValueError(f"{path} holds {exc}; saving would replace it whole: give another "
                         "file") from None
    except OSError:
        return  # check_output_file and the write itself report what is wrong
    if not data.strip():
        return
    try:
        games = list(read_games(decode_records(data)))
    except RecordError:
        games = []
    if len(games) != 1:
        what = f"{len(games)} games" if games else "no game record"
        raise ValueError(f"{path} holds {what}; saving would replace it whole: give "
                         "another file")
    from canter.adapters.files import same_file

    own = [p for p in (loaded, *saved) if p]
    if games[0].tags.get("Event") != PLAY_EVENT and not any(same_file(path, p) for p in own):
        event = games[0].tags.get("Event", "?")
        raise ValueError(f"{path} holds a game of another program's (Event \"{event}\"), not "
                         "one canter play saved or loaded; saving would replace it: give "
                         "another file")


# Tags a saved record takes from the game as it stands, never from the record it was loaded
# from: what is on the board, under which rules, and how (or whether) it ended.
_TAGS_OF_THE_GAME_NOW = frozenset({
    "Variant", "SetUp", "Position", "Rules", "Result", "Termination", "Reason", "PlyCount",
    "TimeControl", "Teams"})


def save_record(path: str, start: Position, moves: Sequence[Move], players: Sequence[str],
                notes: Sequence[dict | None] = (), result: str = "*",
                termination: str | None = None, reason: str | None = None,
                time_control: str | None = None, loaded: str | None = None,
                tags: dict[str, str] | None = None, saved: Sequence[str] = ()) -> None:
    """Write the game as a game record (docs/game-records.md); `loaded`: the file the game
    was loaded from, and `saved` those this game was saved to, which it may replace
    (check_save_target). `tags`: a loaded record's, kept (its event, players, date...)
    except what the game as it now stands says (variant, start, rules, result)."""
    import datetime

    from canter.adapters.records.format import GameRecord, write_game

    v = start.variant
    standard = Position.start(v, start.rules).to_string()
    game = GameRecord.new(
        v.name, list(players), event=PLAY_EVENT, site="terminal",
        date=datetime.date.today().strftime("%Y.%m.%d"),
        position=None if start.to_string() == standard else start.to_string(),
        time_control=time_control, rules=start.rules,
    )
    for key, value in (tags or {}).items():
        if key not in _TAGS_OF_THE_GAME_NOW:
            game.tags[key] = value
    for i, move in enumerate(moves):
        note = notes[i] if i < len(notes) else None
        game.add_move(format_move(v, move), **(note or {}))
    if result != "*" or termination is not None:
        game.set_result(result, termination=termination, reason=reason)
    from canter.adapters.files import replace_file

    check_save_target(path, loaded, saved)
    replace_file(path, write_game(game))  # killed while writing: the old file is kept


def load_record(path: str, number: int = 1
                ) -> tuple[Position, list[Move], dict[str, str], list[dict | None], int]:
    """The start position, the moves, the tags and the move comments (as keyword arguments
    of `save_record`'s notes) of game `number` (from 1) of a record file, and how many games
    the file holds. ValueError (with the record's own message) if it cannot be read or
    replayed."""
    from canter.adapters.records.format import game_positions, read_games_file

    if os.path.isdir(path):
        raise ValueError("is a folder, not a game-record file")
    games = read_games_file(path, allow_unterminated=True)
    if not games:
        raise ValueError("no game in the file")
    if not 1 <= number <= len(games):
        raise ValueError(f"the file holds {count(len(games), 'game')}, not {number}")
    game = games[number - 1]
    if not game.tags and not game.moves:
        raise ValueError("not a game-record file (no tags, no moves)")
    start, moves, _ = game_positions(game)  # ReplayError is a ValueError
    notes: list[dict | None] = []
    for comment in game.comments:
        if comment is None:
            notes.append(None)
        else:
            notes.append({"score": comment.score, "depth": comment.depth, "time": comment.time,
                          "text": comment.text})
    return start, moves, dict(game.tags), notes, len(games)
