"""Replay a transcript against a fresh engine process and say exactly where it diverged."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from canter.adapters.text import count
from canter.adapters.transcript.format import (
    CloseInput,
    Comment,
    Expect,
    ExpectExit,
    Quiet,
    Send,
    SetTimeout,
    SkipTo,
    Sleep,
    Step,
    Transcript,
)
from canter.adapters.transcript.session import EOF, EngineGone, EngineProcess, now

DEFAULT_TIMEOUT = 10.0
LOG_KEEP = 200  # session lines kept for the failure report (the report shows the tail)

# Called with each session event as it happens: ("send" | "recv" | "skip" | "note", text).
EventHook = Callable[[str, str], None]


@dataclass
class Failure:
    step: Step | None  # None when the engine could not even be started
    step_number: int  # 1-based among the steps that act (comments not counted)
    expected: str
    received: str

    def where(self) -> str:
        if self.step is None:
            return "engine start"
        return f"step {self.step_number} (line {self.step.line_no}): {self.step.describe()}"


@dataclass
class RunResult:
    source: str
    steps_run: int
    elapsed: float
    failure: Failure | None = None
    log: list[str] = field(default_factory=list)
    stderr_tail: list[str] = field(default_factory=list)
    exit_code: int | None = None

    @property
    def passed(self) -> bool:
        return self.failure is None


class _Failed(Exception):
    def __init__(self, expected: str, received: str) -> None:
        super().__init__(expected, received)
        self.expected = expected
        self.received = received


def run_transcript(
    transcript: Transcript,
    argv: Sequence[str],
    default_timeout: float = DEFAULT_TIMEOUT,
    on_event: EventHook | None = None,
) -> RunResult:
    """Run every step in order against a new engine process; stop at the first failure."""
    started = now()
    log: deque[str] = deque(maxlen=LOG_KEEP)

    def event(kind: str, text: str) -> None:
        log.append({"send": "> ", "recv": "< ", "skip": "< ", "note": "# "}[kind] + text)
        if on_event is not None:
            on_event(kind, text)

    try:
        engine = EngineProcess(argv)
    except OSError as exc:
        failure = Failure(None, 0, f"a running engine: {' '.join(argv)}",
                          exc.strerror or str(exc))
        return RunResult(transcript.source, 0, now() - started, failure)

    steps = [step for step in transcript.steps if not isinstance(step, Comment)]
    runner = _Runner(engine, default_timeout, event)
    failure = None
    done = 0
    try:
        for number, step in enumerate(steps, start=1):
            try:
                runner.run(step)
            except _Failed as failed:
                failure = Failure(step, number, failed.expected, failed.received)
                break
            done = number
    finally:
        code = engine.stop()
    return RunResult(
        transcript.source,
        done,
        now() - started,
        failure,
        list(log),
        list(engine.stderr_tail),
        code,
    )


class _Runner:
    def __init__(self, engine: EngineProcess, default_timeout: float, event) -> None:
        self.engine = engine
        self.default_timeout = default_timeout
        self.timeout = default_timeout
        self.event = event

    def run(self, step: Step) -> None:
        if isinstance(step, Send):
            self._send(step)
        elif isinstance(step, Expect):
            self._expect(step)
        elif isinstance(step, SkipTo):
            self._skip_to(step)
        elif isinstance(step, SetTimeout):
            self.timeout = self.default_timeout if step.seconds is None else step.seconds
        elif isinstance(step, Quiet):
            self._quiet(step)
        elif isinstance(step, Sleep):
            time.sleep(step.seconds)
        elif isinstance(step, CloseInput):
            self.event("note", "input closed")
            self.engine.close_input()
        elif isinstance(step, ExpectExit):
            self._expect_exit(step)
        else:  # pragma: no cover - parse() only makes the steps above
            raise TypeError(f"cannot run {step!r}")

    def _send(self, step: Send) -> None:
        shown = step.data[:-1] if step.data.endswith("\n") and not step.escaped else step.data
        self.event("send", shown if not step.escaped else repr(step.data))
        try:
            self.engine.send(step.data, self.timeout)
        except EngineGone as gone:
            raise _Failed("the engine reading its input", self._gone(str(gone))) from None
        except TimeoutError:
            raise _Failed("the engine reading its input",
                          f"its input was still full after {self.timeout:g} s") from None

    def _next_line(self, deadline: float, expected: str) -> str:
        try:
            line = self.engine.read_line(max(0.0, deadline - now()))
        except TimeoutError:
            raise _Failed(expected, f"nothing within {self.timeout:g} s") from None
        if line is EOF:
            raise _Failed(expected, self._gone("end of output"))
        return line

    def _expect(self, step: Expect) -> None:
        expected = step.matcher.describe()
        line = self._next_line(now() + self.timeout, expected)
        self.event("recv", line)
        if not step.matcher.matches(line):
            raise _Failed(expected, repr(line))

    def _skip_to(self, step: SkipTo) -> None:
        deadline = now() + self.timeout
        expected = f"a line matching {step.matcher.describe()}"
        skipped = 0
        while True:
            try:
                line = self._next_line(deadline, expected)
            except _Failed as failed:
                skipped_text = count(skipped, "line")
                raise _Failed(expected, f"{failed.received} ({skipped_text} skipped)") from None
            if step.matcher.matches(line):
                self.event("recv", line)
                return
            skipped += 1
            self.event("skip", line)

    def _quiet(self, step: Quiet) -> None:
        try:
            line = self.engine.read_line(step.seconds)
        except TimeoutError:
            return
        if line is not EOF:
            self.event("recv", line)
            raise _Failed(f"no output for {step.seconds:g} s", repr(line))

    def _expect_exit(self, step: ExpectExit) -> None:
        deadline = now() + self.timeout
        want = "exit" + ("" if step.code is None else f" with code {step.code}")
        try:
            line = self.engine.read_line(max(0.0, deadline - now()))
        except TimeoutError:
            raise _Failed(want, f"still running after {self.timeout:g} s") from None
        if line is not EOF:
            self.event("recv", line)
            raise _Failed(f"{want}, with no more output", repr(line))
        code = self.engine.wait(max(0.0, deadline - now()))
        if code is None:
            raise _Failed(want, f"output closed but still running after {self.timeout:g} s")
        self.event("note", f"exited with code {code}")
        if step.code is not None and code != step.code:
            raise _Failed(want, f"exit with code {code}")

    def _gone(self, what: str) -> str:
        code = self.engine.wait(0.5)
        if code is None:
            return f"{what} (engine still running)"
        return f"{what} (engine exited with code {code})"


# ---- reporting -----------------------------------------------------------------------


REPORT_WIDTH = 300  # characters of one line of a failure report; a longer one is cut


def _cut(text: str) -> str:
    """A line of the report, cut to REPORT_WIDTH: a step may send or receive megabytes."""
    if len(text) <= REPORT_WIDTH:
        return text
    return f"{text[:REPORT_WIDTH]}... ({len(text) - REPORT_WIDTH} more characters)"


def format_failure(result: RunResult, tail: int = 12) -> list[str]:
    """The lines that explain a failed run: where, what was wanted, what came, context."""
    failure = result.failure
    if failure is None:
        return []
    lines = [
        f"  at {_cut(failure.where())}",
        f"    expected: {_cut(failure.expected)}",
        f"    received: {_cut(failure.received)}",
    ]
    if result.log and tail > 0:  # (log[-0:] would be the whole log)
        lines.append("  last lines of the session (> sent, < received, # note):")
        lines.extend("    " + _cut(entry) for entry in result.log[-tail:])
    if result.stderr_tail and tail > 0:
        lines.append("  last lines of the engine's stderr:")
        lines.extend("    " + _cut(entry) for entry in result.stderr_tail[-tail:])
    return lines


def summary(results: Sequence[RunResult], not_run: int = 0) -> str:
    """`N passed, N failed`, and `, N not run` when --fail-fast left files unrun (so that
    they are not silently missing from the count)."""
    passed = sum(result.passed for result in results)
    line = f"{passed} passed, {len(results) - passed} failed"
    return line + (f", {not_run} not run" if not_run else "")
