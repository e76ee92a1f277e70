"""Parsing what an engine prints: `id`, `option`, `info` and `bestmove` lines.

Pure functions, no I/O. A line that starts with a known keyword but does not follow the
protocol raises `LineError` with the reason; the client turns it into an
`EngineProtocolError` carrying the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields

# A move in official notation: cells joined by "-" (step, canter leg) or "x" (jump leg).
# Files A-N, ranks 1-18 cover every board of the family (Chivalry's N, Tri-Camelot's 18);
# whether the move is legal is for the rules library to say, not the parser.
_CELL = r"[A-Na-n](?:1[0-8]|[1-9])"
MOVE_RE = re.compile(rf"{_CELL}(?:[-xX]{_CELL})+")

# Words an engine may start a line with (engine -> client).
ENGINE_KEYWORDS = frozenset(
    {"id", "uciok", "readyok", "bestmove", "copyprotection", "registration", "info", "option"}
)

# `bestmove` values meaning "there is no legal move".
NO_MOVE = frozenset({"(none)", "0000", "none"})


class LineError(ValueError):
    """A line that starts with a protocol keyword but is malformed."""


def is_move(text: str) -> bool:
    return MOVE_RE.fullmatch(text) is not None


def _check_move(text: str, what: str) -> str:
    if not is_move(text):
        raise LineError(f"{what} {text!r} is not a move in official notation")
    return text


# ---------------------------------------------------------------- id / option


def parse_id(line: str) -> tuple[str, str]:
    """`id name Foo 1.0` -> ("name", "Foo 1.0")."""
    parts = line.split(None, 2)
    if len(parts) < 3 or parts[0] != "id":
        raise LineError("expected 'id name <text>' or 'id author <text>'")
    return parts[1], parts[2].strip()


OPTION_TYPES = ("check", "spin", "combo", "button", "string")
_OPTION_WORDS = ("name", "type", "default", "min", "max", "var")


@dataclass(frozen=True)
class Option:
    """An option the engine declared in its handshake."""

    name: str
    type: str  # check | spin | combo | button | string
    default: str | int | bool | None = None
    min: int | None = None
    max: int | None = None
    var: tuple[str, ...] = ()

    def coerce(self, value: object) -> str | None:
        """The text to send for `value` (None for a button), or ValueError saying why the
        value does not fit the option."""
        if self.type == "button":
            if value not in (None, True):
                raise ValueError(f"option {self.name!r} is a button and takes no value")
            return None
        if self.type == "check":
            if isinstance(value, str) and value.lower() in ("true", "false"):
                return value.lower()
            if not isinstance(value, bool):
                raise ValueError(f"option {self.name!r} is a check: give True or False")
            return "true" if value else "false"
        if self.type == "spin":
            try:
                number = int(str(value)) if not isinstance(value, int) else value
            except ValueError:
                raise ValueError(
                    f"option {self.name!r} is a spin: {value!r} is no integer"
                ) from None
            if isinstance(number, bool):
                raise ValueError(f"option {self.name!r} is a spin: {value!r} is no integer")
            if (self.min is not None and number < self.min) or (
                self.max is not None and number > self.max
            ):
                raise ValueError(
                    f"option {self.name!r}: {number} is outside {self.min}..{self.max}"
                )
            return str(number)
        if self.type == "combo":
            text = str(value)
            for v in self.var:
                if v.lower() == text.lower():
                    return v
            raise ValueError(f"option {self.name!r}: {text!r} is not one of {list(self.var)}")
        if value is None:
            # str(None) would set the text "None"; the empty string is a value of its own
            raise ValueError(f"option {self.name!r} is a string: give a text ('' for "
                             f"empty), not None")
        text = str(value)
        if "\n" in text or "\r" in text:
            # Refused here, where configure() checks every option before sending any: the
            # writer refuses a line end too, but only once the options before are sent.
            raise ValueError(f"option {self.name!r}: a value cannot contain a line end "
                             f"(\\n or \\r): {text[:40]!r}")
        return text


def parse_option(line: str) -> Option:
    """`option name Hash type spin default 16 min 1 max 1024` -> Option. Names and string
    values may contain spaces; the keyword words delimit them."""
    tokens = line.split()
    if not tokens or tokens[0] != "option":
        raise LineError("expected 'option name ... type ...'")
    entries: list[tuple[str, list[str]]] = []
    for token in tokens[1:]:
        if token in _OPTION_WORDS:
            if token != "var" and any(key == token for key, _ in entries):
                raise LineError(f"'{token}' appears twice")
            entries.append((token, []))
        elif not entries:
            raise LineError(f"unexpected {token!r} before 'name'")
        else:
            entries[-1][1].append(token)
    parts = {key: words for key, words in entries if key != "var"}
    var = [" ".join(words) for key, words in entries if key == "var"]
    name = " ".join(parts.get("name", []))
    if not name:
        raise LineError("option without a name")
    kind = " ".join(parts.get("type", []))
    if kind not in OPTION_TYPES:
        raise LineError(f"option {name!r} has unknown type {kind!r}")
    default_text = " ".join(parts["default"]) if "default" in parts else None
    default: str | int | bool | None = default_text
    lo = hi = None
    try:
        if kind == "spin":
            if default_text is None:
                raise LineError(f"spin option {name!r} has no default")
            default = int(default_text)
            lo = int(" ".join(parts["min"])) if "min" in parts else None
            hi = int(" ".join(parts["max"])) if "max" in parts else None
    except ValueError as exc:
        if isinstance(exc, LineError):
            raise
        raise LineError(f"spin option {name!r} has a non-integer default/min/max") from None
    if kind == "check":
        if default_text not in ("true", "false"):
            raise LineError(f"check option {name!r} needs default true or false")
        default = default_text == "true"
    if kind == "string" and default_text == "<empty>":
        default = ""
    return Option(name=name, type=kind, default=default, min=lo, max=hi, var=tuple(var))


# ---------------------------------------------------------------- info


@dataclass(frozen=True)
class Score:
    """An evaluation from the point of view of the side (seat) to move.

    Exactly one of `cp` (centi-pawn-like units) and `win` (+N: the mover wins in N own
    moves; -N: loses in N) is set. `bound` is None, "lower" or "upper"."""

    cp: int | None = None
    win: int | None = None
    bound: str | None = None

    def __str__(self) -> str:
        if self.win is not None:
            text = f"#{self.win}" if self.win >= 0 else f"#-{-self.win}"
        else:
            text = f"{(self.cp or 0) / 100:+.2f}"
        if self.bound == "lower":
            text += "+"  # at least this
        elif self.bound == "upper":
            text += "-"
        return text


@dataclass
class Info:
    """One `info` line (or several merged, see `merge`). Times are in seconds."""

    depth: int | None = None
    seldepth: int | None = None
    score: Score | None = None
    nodes: int | None = None
    nps: int | None = None
    time: float | None = None
    hashfull: int | None = None
    tbhits: int | None = None
    multipv: int | None = None
    pv: list[str] | None = None
    currmove: str | None = None
    currmovenumber: int | None = None
    string: str | None = None
    # keyword -> rest of line, for keywords this client does not know
    unknown: dict[str, str] = field(default_factory=dict)

    def merge(self, newer: Info) -> Info:
        """A copy with every field `newer` sets taken from `newer`."""
        merged = Info(**{f.name: getattr(self, f.name) for f in fields(self)})
        for f in fields(newer):
            value = getattr(newer, f.name)
            if f.name == "unknown":
                merged.unknown = {**self.unknown, **newer.unknown}
            elif value is not None:
                setattr(merged, f.name, value)
        return merged


_INT_FIELDS = {
    "depth",
    "seldepth",
    "nodes",
    "nps",
    "hashfull",
    "tbhits",
    "multipv",
    "currmovenumber",
}
_INFO_WORDS = _INT_FIELDS | {"time", "score", "pv", "currmove", "string", "cpuload", "sbhits"}


def _int(token: str, what: str) -> int:
    try:
        return int(token)
    except ValueError:
        raise LineError(f"'{what}' needs an integer, got {token!r}") from None


def parse_info(line: str) -> Info:
    tokens = line.split()
    if not tokens or tokens[0] != "info":
        raise LineError("expected 'info ...'")
    info = Info()
    i = 1
    n = len(tokens)

    def arg() -> str:
        if i + 1 >= n:
            raise LineError(f"'{tokens[i]}' has no value")
        return tokens[i + 1]

    while i < n:
        word = tokens[i]
        if word == "string":
            # everything after "string" is free text, kept with its spacing
            info.string = line.split("string", 1)[1].strip()
            break
        if word in _INT_FIELDS:
            setattr(info, word, _int(arg(), word))
            i += 2
        elif word in ("cpuload", "sbhits"):
            _int(arg(), word)
            i += 2
        elif word == "time":
            info.time = _int(arg(), word) / 1000.0
            i += 2
        elif word == "currmove":
            info.currmove = _check_move(arg(), "currmove")
            i += 2
        elif word == "score":
            i += 1
            cp = win = None
            bound = None
            while i < n and tokens[i] in ("cp", "mate", "win", "lowerbound", "upperbound"):
                kind = tokens[i]
                if kind in ("lowerbound", "upperbound"):
                    bound = kind[:5]
                    i += 1
                    continue
                if i + 1 >= n:
                    raise LineError(f"'score {kind}' has no value")
                value = _int(tokens[i + 1], f"score {kind}")
                if kind == "cp":
                    cp = value
                else:
                    win = value
                i += 2
            if (cp is None) == (win is None):
                raise LineError("'score' needs exactly one of 'cp N' or 'win N'/'mate N'")
            info.score = Score(cp=cp, win=win, bound=bound)
        elif word == "pv":
            i += 1
            pv: list[str] = []
            while i < n and tokens[i] not in _INFO_WORDS:
                pv.append(_check_move(tokens[i], "pv move"))
                i += 1
            info.pv = pv
        else:
            # Unknown keyword: keep it and the rest of the line (its arity is unknown).
            info.unknown[word] = " ".join(tokens[i + 1 :])
            break
    return info


# ---------------------------------------------------------------- bestmove


def parse_bestmove(line: str) -> tuple[str | None, str | None]:
    """`bestmove C8-D9 ponder H11-F9` -> ("C8-D9", "H11-F9"); `bestmove (none)` -> (None,
    None)."""
    tokens = line.split()
    if not tokens or tokens[0] != "bestmove":
        raise LineError("expected 'bestmove MOVE'")
    if len(tokens) < 2:
        raise LineError("'bestmove' without a move")
    move = None if tokens[1] in NO_MOVE else _check_move(tokens[1], "bestmove")
    ponder = None
    if len(tokens) >= 3:
        if tokens[2] != "ponder" or len(tokens) != 4:
            raise LineError("after the move only 'ponder MOVE' may follow")
        ponder = None if tokens[3] in NO_MOVE else _check_move(tokens[3], "ponder move")
    return move, ponder
