"""The transcript format: a protocol session written down as one event per line.

The format is specified in docs/transcripts.md; this module parses it into steps and
writes steps back out. It knows nothing about processes (see transcript_session.py),
running (transcript_run.py) or recording (transcript_record.py).

Every non-blank line is `TAG PAYLOAD`, the tag and payload separated by exactly one space;
the payload runs to the end of the line, inner and trailing spaces included. Comments start
with `#`. Tags are a closed, versioned set so that a transcript written for a newer format
fails loudly on an older runner instead of passing vacuously.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from canter.adapters.params import MAX_SECONDS

FORMAT_VERSION = 1

# Matcher kinds, keyed by the suffix a tag carries: "<" exact, "<*" glob, "<~" regex.
EXACT, GLOB, REGEX = "exact", "glob", "regex"
_SUFFIX_KIND = {"": EXACT, "*": GLOB, "~": REGEX}
_KIND_SUFFIX = {kind: suffix for suffix, kind in _SUFFIX_KIND.items()}


class TranscriptSyntaxError(ValueError):
    """A transcript line that cannot be understood; carries the file line number."""

    def __init__(self, line_no: int, message: str, source: str = "") -> None:
        self.line_no = line_no
        self.source = source
        where = f"{source}:{line_no}" if source else f"line {line_no}"
        if not line_no:  # about the whole file
            where = source or "transcript"
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Matcher:
    """One expected line: exact text, a glob, or a regular expression (whole line)."""

    kind: str
    pattern: str
    _regex: re.Pattern[str] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def make(cls, kind: str, pattern: str) -> Matcher:
        if kind == EXACT:
            return cls(kind, pattern)
        if kind == GLOB:
            return cls(kind, pattern, re.compile(glob_to_regex(pattern), re.DOTALL))
        if kind == REGEX:
            return cls(kind, pattern, re.compile(pattern))
        raise ValueError(f"unknown matcher kind {kind!r}")

    def matches(self, line: str) -> bool:
        if self._regex is None:
            return line == self.pattern
        return self._regex.fullmatch(line) is not None

    def describe(self) -> str:
        if self.kind == EXACT:
            return repr(self.pattern)
        return f"{self.kind} {self.pattern!r}"


def glob_to_regex(pattern: str) -> str:
    """Glob with `*` (any run, spaces included), `?` (one character), `\\` escaping."""
    out: list[str] = []
    chars = iter(pattern)
    for ch in chars:
        if ch == "*":
            out.append(".*")
        elif ch == "?":
            out.append(".")
        elif ch == "\\":
            nxt = next(chars, None)
            if nxt is None:
                raise ValueError("glob ends with a lone backslash")
            out.append(re.escape(nxt))
        else:
            out.append(re.escape(ch))
    return "".join(out)


def glob_escape(text: str) -> str:
    """Text as a glob that matches exactly that text."""
    return re.sub(r"([*?\\])", r"\\\1", text)


# ---- steps ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """Base for all steps; `line_no` is where the step sits in its file (1-based)."""

    line_no: int

    def render(self) -> str:  # pragma: no cover - every subclass overrides
        raise NotImplementedError


@dataclass(frozen=True)
class Send(Step):
    """Write `data` to the engine's stdin (already including any line end)."""

    data: str
    escaped: bool = False

    def render(self) -> str:
        if self.escaped:
            return f">\\ {escape_text(self.data)}"
        return _tagged(">", self.data[:-1])

    def describe(self) -> str:
        return f"send {self.data!r}" if self.escaped else f"send {self.data[:-1]!r}"


@dataclass(frozen=True)
class Expect(Step):
    """The next output line must match."""

    matcher: Matcher

    def render(self) -> str:
        return _tagged("<" + _KIND_SUFFIX[self.matcher.kind], self.matcher.pattern)

    def describe(self) -> str:
        return f"expect {self.matcher.describe()}"


@dataclass(frozen=True)
class SkipTo(Step):
    """Read output lines, ignoring them, until one matches (that one is consumed)."""

    matcher: Matcher

    def render(self) -> str:
        return _tagged("..." + _KIND_SUFFIX[self.matcher.kind], self.matcher.pattern)

    def describe(self) -> str:
        return f"skip to {self.matcher.describe()}"


@dataclass(frozen=True)
class SetTimeout(Step):
    """Seconds allowed for each following step (None: back to the runner's default)."""

    seconds: float | None

    def render(self) -> str:
        return "@timeout " + ("default" if self.seconds is None else _num(self.seconds))

    def describe(self) -> str:
        return self.render()


@dataclass(frozen=True)
class Quiet(Step):
    """No output line may arrive during the next `seconds`."""

    seconds: float

    def render(self) -> str:
        return f"@quiet {_num(self.seconds)}"

    def describe(self) -> str:
        return f"expect silence for {_num(self.seconds)} s"


@dataclass(frozen=True)
class Sleep(Step):
    """Wait `seconds` without reading (lets a search get going before the next send)."""

    seconds: float

    def render(self) -> str:
        return f"@sleep {_num(self.seconds)}"

    def describe(self) -> str:
        return self.render()


@dataclass(frozen=True)
class CloseInput(Step):
    """Close the engine's stdin (end of file)."""

    def render(self) -> str:
        return "@eof"

    def describe(self) -> str:
        return "close the engine's input"


@dataclass(frozen=True)
class ExpectExit(Step):
    """The engine must end its output and exit, with `code` unless it is None."""

    code: int | None

    def render(self) -> str:
        return "@exit" if self.code is None else f"@exit {self.code}"

    def describe(self) -> str:
        return "expect exit" + ("" if self.code is None else f" with code {self.code}")


@dataclass(frozen=True)
class Comment(Step):
    """Kept so that a parsed transcript can be written back unchanged; never run."""

    text: str

    def render(self) -> str:
        return self.text


@dataclass
class Transcript:
    steps: list[Step]
    source: str = ""

    def render(self) -> str:
        return "".join(step.render() + "\n" for step in self.steps)

    @property
    def actions(self) -> list[Step]:
        return [step for step in self.steps if not isinstance(step, Comment)]


# ---- parsing -------------------------------------------------------------------------

_EXPECT_TAG = re.compile(r"(<|\.\.\.)([*~]?)")


def parse(text: str, source: str = "") -> Transcript:
    """Parse a whole transcript; raises TranscriptSyntaxError on the first bad line."""
    steps: list[Step] = []
    # Lines end at a newline only: str.splitlines would also break at U+0085, U+2028 and
    # the like, which an engine's output may hold and the recorder writes as they are.
    for line_no, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        try:
            step = _parse_line(line, line_no)
        except TranscriptSyntaxError:
            raise
        except ValueError as exc:
            raise TranscriptSyntaxError(line_no, str(exc), source) from None
        if step is not None:
            steps.append(step)
    for step in steps:
        if isinstance(step, _VersionMarker) and step.version > FORMAT_VERSION:
            raise TranscriptSyntaxError(
                step.line_no,
                f"written for transcript format {step.version}; this runner reads "
                f"format {FORMAT_VERSION}",
                source,
            )
    return Transcript([s for s in steps if not isinstance(s, _VersionMarker)], source)


def parse_file(path: str) -> Transcript:
    """The transcript in the file `path`. TranscriptSyntaxError for a file that is not one
    (not UTF-8 text, a bad line, or no step at all: an empty transcript checks nothing);
    OSError if it cannot be read."""
    from canter.adapters.files import MAX_TEXT_INPUT, InputTooLarge, read_at_most

    with open(path, "rb") as handle:
        try:
            data = read_at_most(handle, MAX_TEXT_INPUT, "a transcript")
        except InputTooLarge as exc:
            raise TranscriptSyntaxError(0, str(exc), path) from None
    # A byte-order mark (some editors write one first) is no part of the text.
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_no = data.count(b"\n", 0, exc.start) + 1
        raise TranscriptSyntaxError(
            line_no, f"byte {exc.start} is not UTF-8 text: not a transcript", path) from None
    transcript = parse(text, source=path)
    if not any(not isinstance(step, Comment) for step in transcript.steps):
        raise TranscriptSyntaxError(
            0, "no steps: an empty transcript would check nothing", path)
    return transcript


@dataclass(frozen=True)
class _VersionMarker(Step):
    version: int


def _parse_line(line: str, line_no: int) -> Step | None:
    if not line.strip():
        return None
    if line.lstrip().startswith("#"):
        return Comment(line_no, line)
    tag, sep, payload = line.partition(" ")
    if not tag:
        raise ValueError("a line may not start with a space")
    if tag == ">":
        return Send(line_no, payload + "\n")
    if tag == ">\\":
        return Send(line_no, unescape_text(payload), escaped=True)
    match = _EXPECT_TAG.fullmatch(tag)
    if match:
        matcher = _matcher(_SUFFIX_KIND[match.group(2)], payload)
        return (Expect if match.group(1) == "<" else SkipTo)(line_no, matcher)
    if tag.startswith("@"):
        return _directive(tag[1:], payload.split(), line_no)
    raise ValueError(f"unknown tag {tag!r} (see docs/transcripts.md for the tags)")


def _matcher(kind: str, pattern: str) -> Matcher:
    try:
        return Matcher.make(kind, pattern)
    except re.error as exc:
        raise ValueError(f"bad regular expression {pattern!r}: {exc}") from None


def _directive(name: str, args: list[str], line_no: int) -> Step:
    def arity(low: int, high: int) -> None:
        if not low <= len(args) <= high:
            want = str(low) if low == high else f"{low} to {high}"
            raise ValueError(f"@{name} takes {want} argument(s), got {len(args)}")

    if name == "timeout":
        arity(1, 1)
        return SetTimeout(line_no, None if args[0] == "default" else _seconds(args[0]))
    if name == "quiet":
        arity(1, 1)
        return Quiet(line_no, _seconds(args[0]))
    if name == "sleep":
        arity(1, 1)
        return Sleep(line_no, _seconds(args[0]))
    if name == "eof":
        arity(0, 0)
        return CloseInput(line_no)
    if name == "exit":
        arity(0, 1)
        if not args or args[0] == "any":
            return ExpectExit(line_no, None)
        try:
            if len(args[0]) > 12:
                raise ValueError
            return ExpectExit(line_no, int(args[0]))
        except ValueError:
            raise ValueError(f"exit code must be an integer or 'any', not "
                             f"{args[0][:20]!r}") from None
    if name == "format":
        arity(1, 1)
        if not args[0].isdecimal() or len(args[0]) > 9:
            raise ValueError(f"format version must be a number (at most 9 digits), not "
                             f"{args[0][:20]!r}")
        return _VersionMarker(line_no, int(args[0]))
    raise ValueError(f"unknown directive '@{name}' (see docs/transcripts.md)")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"seconds must be a number, not {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise ValueError(f"seconds must be a finite number >= 0, not {text!r}")
    if value > MAX_SECONDS:  # (the clock and the poll of a wait overflow long before inf)
        raise ValueError(f"seconds must be at most {MAX_SECONDS:.0f}, not {text!r}")
    return value


# ---- writing -------------------------------------------------------------------------

_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_UNESCAPES = {"\\": "\\", "n": "\n", "r": "\r", "t": "\t", "s": " ", "0": "\0"}


def escape_text(text: str) -> str:
    """Backslash escapes for `>\\`: control characters and edge spaces become visible."""
    out = []
    for index, ch in enumerate(text):
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch == " " and (index == 0 or index == len(text) - 1):
            out.append("\\s")
        elif ord(ch) < 32 or ord(ch) == 127:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return "".join(out)


def unescape_text(text: str) -> str:
    out: list[str] = []
    index = 0
    while index < len(text):
        ch = text[index]
        if ch != "\\":
            out.append(ch)
            index += 1
            continue
        code = text[index + 1 : index + 2]
        if code in _UNESCAPES:
            out.append(_UNESCAPES[code])
            index += 2
        elif code == "x" and re.fullmatch(r"[0-9a-fA-F]{2}", text[index + 2 : index + 4]):
            out.append(chr(int(text[index + 2 : index + 4], 16)))
            index += 4
        else:
            # quoted as written in the file: a repr would double the backslash ('\\q')
            raise ValueError(f"bad escape '{text[index:index + 2]}' (use \\\\ for a backslash)")
    return "".join(out)


def _tagged(tag: str, payload: str) -> str:
    return f"{tag} {payload}" if payload else tag


def _num(seconds: float) -> str:
    return f"{seconds:g}"
