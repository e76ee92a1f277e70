"""Record a live session with an engine as a transcript, loosening what varies run to run.

`Recording` turns the exchange (lines sent, lines received, in arrival order) into
transcript steps; it is pure and knows no process. `record_session` drives a real engine
from a stream of input lines (a terminal or a pipe) and feeds a Recording.

What is loosened (docs/transcripts.md, "Recording"):
- the numbers after volatile fields (`time`, `nps`, `hashfull`, and `nodes` when the
  search is not deterministic, e.g. with Threads > 1) become `*` in a glob;
- the version in `id name` becomes `*`;
- a search that is not deterministic (no depth/nodes/mate limit, a clock or movetime
  limit, infinite, ponder, or a search the session talked over) keeps no `info` lines:
  its `bestmove` becomes `...* bestmove *` and its other lines become skips (`...`), since
  where they fall among the info lines is a matter of timing.
- In a CECP session (first command `xboard`) the same, by CECP's words: a search starts at
  `go`, `playother`, `analyze`, or `usermove` outside force mode, and ends at `move`, a
  resignation or a result; it is deterministic when `sd` was given and `st` was not (and
  it is not `analyze`); the time column of its thinking output (`ply score time nodes pv`)
  is loosened, and the nodes column where nodes are.
"""

from __future__ import annotations

import re
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TextIO

from canter.adapters.transcript.format import (
    EXACT,
    GLOB,
    REGEX,
    CloseInput,
    Comment,
    Expect,
    ExpectExit,
    Matcher,
    Send,
    SkipTo,
    Step,
    Transcript,
    glob_escape,
)
from canter.adapters.transcript.session import EOF, EngineGone, EngineProcess, now

VOLATILE_FIELDS = ("time", "nps", "hashfull", "nodes/second", "nodes per second")

# go keywords that make the result depend on the clock rather than on the position
_TIMED_GO = re.compile(r"(?i)^(infinite|ponder|movetime|movestogo|\w*time|\w*inc)$")
_LIMITED_GO = {"depth", "nodes", "mate"}
_VERSION = re.compile(r"\d+(\.\d+)+\S*")
# CECP thinking output: ply, score, time (centiseconds), nodes, then the principal line
_CECP_POST = re.compile(r"^(\s*\d+\s+-?\d+\s+)(\d+)(\s+)(\d+)(.*)$")
_CECP_SEARCHES = ("go", "playother", "analyze")
_AWKWARD = re.compile(r"^\s|\s$|[\x00-\x1f\x7f]")


class Recording:
    """Steps built from an exchange, in the order events happened."""

    def __init__(self, loose_fields: Iterable[str] = VOLATILE_FIELDS, loose_nodes: bool = False):
        self.steps: list[Step] = []
        self.loose_fields = tuple(loose_fields)
        self.loose_nodes = loose_nodes
        self._threads = 1
        self._cecp = False  # the first command was `xboard`
        self._force = False  # CECP force mode: a usermove starts no search
        self._depth_set = False  # CECP `sd` given
        self._time_set = False  # CECP `st` given
        self._searching = False
        self._search_racy = False
        self._line_no = 0
        # how the session went, for the recorder to refuse one that recorded nothing
        self.lines_sent = 0
        self.lines_unsent = 0  # typed after the engine had exited (or stopped reading)
        self.stuck = False  # the engine stopped reading its input
        self.lines_received = 0
        self.stopped = False  # the engine did not exit at the end of its input

    # -- events ------------------------------------------------------------------------

    def comment(self, text: str) -> None:
        self._add(Comment, "# " + text if text else "#")

    def sent(self, line: str) -> None:
        """A line written to the engine (without its line end)."""
        self.lines_sent += 1
        words = line.split()
        if self._searching:
            # Output from here to bestmove may interleave with the answers to `line`.
            self._search_racy = True
        if self.lines_sent == 1 and words[:1] == ["xboard"]:
            self._cecp = True
        if self._cecp:
            self._sent_cecp(words)
        elif words and words[0] == "go":
            self._searching = True
            self._search_racy = not _deterministic_go(words[1:]) or self._threads > 1
        elif words[:2] == ["setoption", "name"]:
            self._note_option(words[2:])
        if _AWKWARD.search(line):
            self._add(Send, line + "\n", True)
        else:
            self._add(Send, line + "\n")

    def _sent_cecp(self, words: list[str]) -> None:
        command = words[0] if words else ""
        if command == "force":
            self._force = True
        elif command in ("go", "playother", "new"):
            self._force = False
        elif command == "sd":
            self._depth_set = True
        elif command == "st":
            self._time_set = True
        elif command == "cores" and len(words) > 1 and words[1].isdecimal():
            self._threads = int(words[1])
        if command in _CECP_SEARCHES or command == "usermove" and not self._force:
            self._searching = True
            self._search_racy = (command == "analyze" or not self._depth_set
                                 or self._time_set or self._threads > 1)
        elif command == "exit":  # (leaves analyze mode: the analysis ends)
            self._searching = False

    def received(self, line: str) -> None:
        """A line the engine wrote (without its line end)."""
        self.lines_received += 1
        words = line.split()
        first = words[0] if words else ""
        if self._cecp:
            self._received_cecp(line, first)
            return
        if self._searching and self._search_racy:
            if first == "bestmove":
                self._searching = False
                self._add(SkipTo, Matcher.make(GLOB, "bestmove *"))
            elif first != "info":
                self._add(SkipTo, self._matcher(line))
            return
        if first == "bestmove":
            self._searching = False
        self._add(Expect, self._matcher(line))

    def _received_cecp(self, line: str, first: str) -> None:
        thinking = _CECP_POST.match(line)
        ends = ends_search(line)
        if self._searching and self._search_racy:
            if ends:
                self._searching = False
                self._add(SkipTo, Matcher.make(GLOB, "move *") if first == "move"
                          else self._matcher(line))
            elif not thinking:
                self._add(SkipTo, self._matcher(line))
            return
        if ends:
            self._searching = False
        self._add(Expect, self._thinking_matcher(thinking) if thinking else self._matcher(line))

    def _thinking_matcher(self, thinking: re.Match[str]) -> Matcher:
        """CECP thinking output with its time column (and its nodes, where nodes vary)
        loosened: the columns are known by place, not by a keyword before them."""
        head, _, gap, nodes, tail = thinking.groups()
        loose_nodes = self.loose_nodes or self._threads > 1
        glob = (glob_escape(head) + "*" + glob_escape(gap)
                + ("*" if loose_nodes else glob_escape(nodes)) + glob_escape(tail))
        if _AWKWARD.search(glob):
            return self._matcher(thinking.group(0))
        return Matcher.make(GLOB, glob)

    def not_sent(self, line: str, stuck: bool = False) -> None:
        """A line that could not be relayed: the engine had exited, or (`stuck`) had
        stopped reading its input."""
        self.lines_unsent += 1
        self.stuck = self.stuck or stuck
        why = "the engine had stopped reading" if stuck else "the engine had exited"
        self.comment(f"not sent, {why}: {line}")

    def silence(self) -> str | None:
        """Why the session recorded nothing worth a transcript, or None if it did: no input
        line at all (an empty input, or Ctrl-D at once, which would replace a file with
        one that checks nothing), or the engine said nothing and exited before its input
        ended, or never exited at all."""
        if not self.lines_sent and not self.lines_unsent:
            return "the input held no line for the engine: a transcript of it checks nothing"
        if self.lines_received:
            return None
        if self.lines_unsent:
            what = "stopped reading its input" if self.stuck else "exited"
            return (f"the engine {what} without saying anything ({self.lines_unsent} of "
                    f"{self.lines_sent + self.lines_unsent} input lines not sent)")
        if self.stopped:
            return (f"the engine never answered: no output to {self.lines_sent} "
                    f"line{'s' if self.lines_sent != 1 else ''}, and it did not exit when "
                    "its input ended")
        return None

    def input_closed(self) -> None:
        self._add(CloseInput)

    def exited(self, code: int | None) -> None:
        self._add(ExpectExit, code)

    def transcript(self) -> Transcript:
        return Transcript(list(self.steps))

    # -- helpers -----------------------------------------------------------------------

    def _add(self, kind: type[Step], *args: object) -> None:
        self._line_no += 1
        self.steps.append(kind(self._line_no, *args))  # type: ignore[call-arg]

    def _note_option(self, words: list[str]) -> None:
        if "value" not in words:
            return
        at = words.index("value")
        if " ".join(words[:at]).lower() == "threads" and at + 1 < len(words):
            try:
                self._threads = int(words[at + 1])
            except ValueError:
                pass  # the engine will complain; the recording just stays as it was

    def _matcher(self, line: str) -> Matcher:
        fields = list(self.loose_fields)
        if self.loose_nodes or self._threads > 1 or (self._searching and self._search_racy):
            fields.append("nodes")
        return loosen(line, fields)


def loosen(line: str, fields: Iterable[str]) -> Matcher:
    """The matcher the recorder writes for `line`: exact unless something in it varies."""
    names = sorted(set(fields), key=len, reverse=True)
    spans: list[tuple[int, int]] = []
    if names:
        pattern = re.compile(
            r"(?i)(?<![\w/])(?:" + "|".join(re.escape(name) for name in names) + r")"
            r"\s*[:=]?\s*(\d+(?:\.\d+)?[a-zA-Z%]*)"
        )
        spans = [match.span(1) for match in pattern.finditer(line)]
    if line.startswith("id name "):
        spans += [m.span() for m in _VERSION.finditer(line, len("id name "))]
    if spans:
        parts, at = [], 0
        for start, end in sorted(spans):
            parts.append(glob_escape(line[at:start]) + "*")
            at = end
        parts.append(glob_escape(line[at:]))
        glob = "".join(parts)
        if not _AWKWARD.search(glob):
            return Matcher.make(GLOB, glob)
    if _AWKWARD.search(line):
        return Matcher.make(REGEX, _regex_literal(line))
    return Matcher.make(EXACT, line)


def _regex_literal(line: str) -> str:
    """A regex matching exactly `line`, written without raw control characters or edge
    spaces (which editors strip)."""
    out = []
    for index, ch in enumerate(line):
        if ord(ch) < 32 or ord(ch) == 127 or (ch == " " and index in (0, len(line) - 1)):
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(re.escape(ch))
    return "".join(out)


def _deterministic_go(args: list[str]) -> bool:
    lowered = [word.lower() for word in args]
    if any(_TIMED_GO.match(word) for word in lowered):
        return False
    return any(word in _LIMITED_GO for word in lowered)


# ---- driving a real engine -----------------------------------------------------------


def answer_end(words: list[str]) -> Callable[[str], bool] | None:
    """A test for the last line of the answer to the command `words`, where the protocol
    names one: `uciok` after `uci`, `readyok` after `isready`, a search's move after a
    `go` with a limit (UCI's `bestmove`, CECP's `move`, or a CECP result or resignation
    where the game is over) or a `ponderhit`, and CECP's `feature ... done=1` after
    `protover`, `pong N` after `ping N`. None for any other command (and for an infinite
    or ponder search, which ends only when it is told to)."""
    command, args = (words[0], words[1:]) if words else ("", [])
    if command == "uci":
        return _starts_with(["uciok"])
    if command == "isready":
        return _starts_with(["readyok"])
    if command == "ponderhit" or command == "go" and not any(
            word.lower() in ("infinite", "ponder") for word in args):
        return ends_search
    if command == "protover":
        return lambda line: line.startswith("feature ") and "done=1" in line.split()
    if command == "ping":
        return _starts_with(["pong", *args[:1]])
    return None


_RESULT = re.compile(r"(1/2|[01])(-(1/2|[01]))+( |$)")


def ends_search(line: str) -> bool:
    """The line that ends a search: UCI's `bestmove`, CECP's `move`, `resign`, or a CECP
    result claim (`1-0 {...}`, `1-0-0 {...}`)."""
    first = line.split()[:1]
    return first in (["bestmove"], ["move"], ["resign"]) or bool(_RESULT.match(line))


def _starts_with(first: list[str]) -> Callable[[str], bool]:
    return lambda line: line.split()[:len(first)] == first


def record_session(
    argv: list[str],
    lines: Iterator[str],
    echo: TextIO | None,
    *,
    interactive: bool,
    settle: float = 0.2,
    timeout: float = 10.0,
    recording: Recording | None = None,
) -> Recording:
    """Relay `lines` to a new engine, echoing its output, and record the exchange.

    Piped (not interactive), the next line goes out only once the answer to the last one
    is in, so that answers follow their commands: after a command whose answer has a
    known last line (see `answer_end`), or a `stop` of a search, once that line has come;
    then once the engine has been quiet for `settle` seconds, counted from its first
    output line (a slow-starting engine is silent for longer). Each wait lasts at most
    `timeout` seconds.
    """
    rec = recording or Recording()
    session = _Session(EngineProcess(argv), rec, echo, settle, timeout)
    try:
        session.start()
        for raw in lines:
            line = raw[:-1] if raw.endswith("\n") else raw
            session.relay(line[:-1] if line.endswith("\r") else line, interactive)
        session.finish()
    finally:
        session.engine.stop()
    if session.failed:
        raise RecordingFailed(f"the recorder stopped reading the engine ({session.failed[0]})")
    return rec


class RecordingFailed(RuntimeError):
    """The recorder lost part of the exchange: nothing of it may be written."""


class _Session:
    """One recording: the engine, the thread that reads it into the Recording, and what
    the relay waits for before it sends the next line."""

    def __init__(self, engine: EngineProcess, rec: Recording, echo: TextIO | None,
                 settle: float, timeout: float) -> None:
        self.engine, self.rec, self.echo = engine, rec, echo
        self.settle, self.timeout = settle, timeout
        self.lock = threading.Lock()  # guards rec, last_output and _answer_end
        self.last_output = now()
        self.answered = threading.Event()  # the awaited last line of an answer has come
        self._answer_end: Callable[[str], bool] | None = None
        self.searching = threading.Event()  # a go is out and its bestmove is not in yet
        self.output_done = threading.Event()
        self.stuck = False  # the engine stopped reading: what follows cannot reach it
        self.failed: list[str] = []
        self._reader = threading.Thread(target=self._pump, daemon=True)

    def start(self) -> None:
        self._reader.start()

    # -- the engine's output (the reader thread) -----------------------------------------

    def _pump(self) -> None:
        try:
            while (line := self.engine.read_line(None)) is not EOF:
                self._take(line)
        except Exception as exc:  # a recording with holes must not be written as whole
            self.failed.append(f"{type(exc).__name__}: {exc}")
        self.output_done.set()

    def _take(self, line: str) -> None:
        with self.lock:
            self.rec.received(line)
            self.last_output = now()
            if self._answer_end is not None and self._answer_end(line):
                self._answer_end = None
                self.answered.set()
        if ends_search(line):
            self.searching.clear()
        self._echo(line)

    def _echo(self, line: str) -> None:
        if self.echo is None:
            return
        try:
            self.echo.write(line + "\n")
            self.echo.flush()
        except (OSError, ValueError):
            self.echo = None  # the echo's reader went away (`| head`): record on

    # -- the input ---------------------------------------------------------------------

    def relay(self, line: str, interactive: bool) -> None:
        """Send one input line, and (piped) wait for its answer."""
        if self.output_done.is_set() or self.stuck:
            with self.lock:
                self.rec.not_sent(line, self.stuck)
            return
        words = line.split()
        ends = answer_end(words)
        if words[:1] == ["go"]:
            self.searching.set()
        with self.lock:  # before the send: a quick answer must not come unawaited
            self.rec.sent(line)
            self._answer_end = ends
            self.answered.clear()
        if self._send(line) and not interactive:
            self._await_answer(words, ends is not None)

    def _send(self, line: str) -> bool:
        try:
            self.engine.send(line + "\n", self.timeout)
        except EngineGone:
            self.output_done.wait(self.timeout)
            return False
        except TimeoutError:
            self.stuck = True  # a hung engine
            with self.lock:
                self.rec.comment(f"the engine stopped reading its input: still full after "
                                 f"{self.timeout:g} s")
            return False
        return True

    def _await_answer(self, words: list[str], has_end: bool) -> None:
        sent_at = now()
        if has_end:
            # a slow engine may finish its answer long after `settle`
            self._wait_for(self.answered.is_set, sent_at)
        elif words[:1] == ["stop"]:
            # a slow machine may answer a stop later than `settle`: its bestmove
            # belongs before the next command
            self._wait_for(lambda: not self.searching.is_set(), sent_at)
        if self.searching.is_set():
            # An infinite search never goes quiet: give it `settle` to get going.
            self.output_done.wait(self.settle)
        else:
            self._wait_quiet(sent_at)

    def _wait_for(self, done: Callable[[], bool], since: float) -> None:
        while not done() and not self.output_done.is_set() and now() - since < self.timeout:
            time.sleep(0.01)

    def _wait_quiet(self, since: float) -> None:
        """Until the engine has been quiet for `settle` (at most `timeout` after `since`).
        (A command with a known last line has already waited for it: a slow start of the
        engine is seen there, and commands no protocol answers, CECP's `xboard`, `new`,
        `force`, cost only the settle.)"""
        while not self.output_done.is_set() and now() - since < self.timeout:
            with self.lock:
                quiet_for = now() - max(self.last_output, since)
            if quiet_for >= self.settle:
                return
            time.sleep(min(0.01, self.settle))

    # -- the end -----------------------------------------------------------------------

    def finish(self) -> None:
        """Close the engine's input (unless it has exited) and record how it ended."""
        if not self.output_done.is_set():
            self._wait_quiet(now())
        if not self.output_done.is_set():
            with self.lock:
                self.rec.input_closed()
            self.engine.close_input()
            self.output_done.wait(self.timeout)
        self._reader.join(self.timeout)
        code = self.engine.wait(self.timeout) if self.output_done.is_set() else None
        with self.lock:
            if code is None:
                self.rec.stopped = True
                self.rec.comment("the engine did not exit at the end of its input; it was "
                                 "stopped")
            else:
                self.rec.exited(code)


class InputNotText(ValueError):
    """A line of the recorder's input that is not UTF-8 text (transcripts are)."""


def stdin_lines() -> Iterator[str]:
    """Lines from stdin as they come (a terminal gets a prompt-free, line-at-a-time read).
    InputNotText for a line that is not UTF-8 text."""
    stream = sys.stdin.buffer
    number = 0
    while True:
        raw = stream.readline()
        if not raw:
            return
        number += 1
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputNotText(f"input line {number} is not UTF-8 text (byte {exc.start}); "
                               "transcripts are UTF-8") from None
