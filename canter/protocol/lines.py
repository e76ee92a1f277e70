"""Lines in, tokens out: the byte-level edge of the protocol.

A GUI may end lines with LF, CRLF or a lone CR, may send tabs and runs of spaces, invalid
UTF-8 or control characters. Everything here turns that into clean token lists, and turns
anything a client sent back into text safe to echo on one output line.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator

from canter.engine.rules.text import QUOTE_LIMIT  # the rules library's cut, kept alike

MAX_LINE = 1 << 16  # longer lines are dropped with an error: no command is that long
# Whole numbers are read as a C engine reads them into 64 bits: a wider one is refused
# rather than turned into a float that overflows or a clock that never runs out.
INT_MAX = (1 << 63) - 1
_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
# Quoted client text, pairs of quotes taken in order (so the words between two quoted
# pieces are never taken for one; a quote inside a word, as in "engine's", opens none).
# An opening quote is never followed by a space and a closing one never preceded by one,
# as messages quote: so a quote of the client's own that lost its partner when its text
# was cut (`move 2 ('aaaa...): malformed move ...`) cannot pair with the opening quote
# of the next quotation and have the message's words between them cut as client text.
_QUOTED = re.compile(r"(?<!\w)'(?!\s)([^'\n]*)(?<!\s)'(?!\w)")


class LineTooLong(Exception):
    def __init__(self, length: int) -> None:
        super().__init__(f"line of {length} bytes or more dropped (limit {MAX_LINE} bytes)")


def fd_reader(fd: int) -> Callable[[], bytes]:
    """A chunk source that returns as soon as any bytes arrive (no waiting for a full
    buffer, which would hold back a GUI's command until more input came)."""

    def read() -> bytes:
        try:
            return os.read(fd, 65536)
        except InterruptedError:  # pragma: no cover - retried by os.read since 3.5
            return read()

    return read


def read_lines(read_chunk: Callable[[], bytes]) -> Iterator[str | LineTooLong]:
    """Yield decoded lines without their ends until EOF; a final unterminated line counts.

    CR is taken as a line end at once (not held back waiting for a possible LF), and an LF
    straight after a CR is then skipped, so CR, LF and CRLF clients all get prompt answers.
    A line over MAX_LINE bytes is yielded as a LineTooLong marker instead.
    """
    pending = bytearray()
    skip_lf = False
    overflow = 0  # bytes of a too-long line already thrown away
    while True:
        chunk = read_chunk()
        if not chunk:
            break
        start = 0
        n = len(chunk)
        if skip_lf and n and chunk[0] == 0x0A:
            start = 1
        skip_lf = False
        i = start
        while i < n:
            b = chunk[i]
            if b == 0x0A or b == 0x0D:
                length = overflow + len(pending) + i - start
                if length > MAX_LINE:
                    yield LineTooLong(length)
                    overflow = 0
                    pending.clear()
                else:
                    pending += chunk[start:i]
                    yield _decode(pending)
                    pending.clear()
                if b == 0x0D:
                    if i + 1 < n:
                        if chunk[i + 1] == 0x0A:
                            i += 1
                    else:
                        skip_lf = True
                start = i + 1
            i += 1
        if start < n:
            pending += chunk[start:]
        if len(pending) > MAX_LINE:
            overflow += len(pending)
            pending.clear()
    if overflow:
        yield LineTooLong(overflow + len(pending))
    elif pending:
        yield _decode(pending)


def _decode(raw: bytes | bytearray) -> str:
    return bytes(raw).decode("utf-8", errors="replace")


def tokenize(line: str) -> list[str]:
    """Split on any run of whitespace (spaces, tabs, form feeds, ...)."""
    return line.split()


def echo(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Client text made safe for a one-line error message: control and non-ASCII
    characters escaped, then shortened to `limit` characters as written (an escape is
    never cut in two), so that the line stays short whatever the client sent."""
    out: list[str] = []
    used = 0
    for i, c in enumerate(text):
        piece = printable(c)
        if used + len(piece) > limit:
            return "".join(out) + "..."
        out.append(piece)
        used += len(piece)
        if used == limit and i + 1 < len(text):
            return "".join(out) + "..."
    return "".join(out)


def printable(text: str) -> str:
    """`text` as printable ASCII: every other character escaped the way Python's
    unicode_escape writes it (\\x00, \\xe9, \\u20ac, \\U0001f600). Already-escaped text
    is left as it is, so this may be applied to a whole line at the end."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(
        c if c.isascii() and c.isprintable() else c.encode("unicode_escape").decode("ascii")
        for c in text
    )


def error_text(message: str) -> str:
    """An error message made fit for one output line: whitespace runs (line ends included)
    become one space, client text the rules library quoted in full is cut to QUOTE_LIMIT
    characters, and everything is printable ASCII."""
    flat = " ".join(message.split())
    return printable(_QUOTED.sub(_quoted_piece, flat))


def _quoted_piece(match: re.Match) -> str:
    """A quoted piece escaped, then cut to QUOTE_LIMIT as written (as `echo` does); one
    that `echo` already cut is left as it is, not cut a second time."""
    piece = match.group(1)
    shown = printable(piece)
    if len(shown) <= QUOTE_LIMIT or (
            shown == piece and piece.endswith("...") and len(piece) <= QUOTE_LIMIT + 3):
        return f"'{shown}'"
    return f"'{echo(piece, QUOTE_LIMIT)}'"


def parse_whole(text: str) -> int:
    """A whole number in ASCII digits, optionally signed, within 64 bits; ValueError (not a
    whole number) or OverflowError (too large) otherwise. Python's int() would also take
    '1_000', ' 7' and other scripts' digits, and numbers of any length."""
    if not _WHOLE.fullmatch(text):
        raise ValueError(text)
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > 19 or abs(int(text)) > INT_MAX:
        raise OverflowError(text)
    return int(text)


_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
                      r"|[+-]?(?:inf|infinity|nan)", re.IGNORECASE)


def parse_decimal(text: str) -> float:
    """A decimal number in ASCII (`1.5`, `-2`, `.25`, `1e3`, and `inf` and `nan`, for the
    caller to refuse by name); ValueError otherwise. Python's float() would also take
    '1_000' and other scripts' digits ('١٢٣' as 123)."""
    if not _DECIMAL.fullmatch(text):
        raise ValueError(text)
    return float(text)


def split_at(tokens: list[str], keyword: str) -> tuple[list[str], list[str] | None]:
    """tokens before the first `keyword` (case-insensitive) and those after it (None if
    the keyword is absent)."""
    for i, tok in enumerate(tokens):
        if tok.lower() == keyword:
            return tokens[:i], tokens[i + 1 :]
    return tokens, None
