"""Text of the CECP-style dialect: feature lines, thinking lines, result claims, clocks.

Pure functions, no session and no threads, so the wire format can be read (and tested) in
one place; `canter.protocol.cecp` does the talking.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from canter.engine.search.limits import SearchInfo
from canter.protocol import options as opt
from canter.protocol.lines import INT_MAX, echo, parse_decimal, parse_whole

MATE_BASE = 100_000  # xboard shows scores beyond this as forced wins ("mate")

# Options a CECP GUI reaches through commands of its own, so they are not offered twice:
# the game through `variant`, pondering through `hard`/`easy`, processes through `cores`.
HIDDEN_OPTIONS = frozenset({opt.option_key("UCI_Variant"), opt.PONDER.key, opt.THREADS.key})
# The command that sets each hidden option, for the error that points to it.
HIDDEN_BY = {opt.option_key("UCI_Variant"): "the 'variant' command",
             opt.PONDER.key: "'hard' and 'easy'", opt.THREADS.key: "the 'cores' command"}

# Options only this dialect has (the session core knows nothing of resigning).
RESIGN = opt.OptionSpec("Resign Threshold", opt.SPIN, 0, 0, 100_000)
CECP_OPTIONS = (RESIGN,)


def feature_lines(name: str, variants: Sequence[str],
                  option_values: Sequence[tuple[opt.OptionSpec, object]]) -> list[str]:
    """The answer to `protover 2`: done=0 first (so the GUI waits for all of it), the
    protocol features, one line per option, then done=1."""
    lines = [
        "feature done=0",
        "feature ping=1 setboard=1 usermove=1 time=1 draw=1 playother=1 analyze=1 "
        "colors=0 san=0 sigint=0 sigterm=0 reuse=1 name=0 nps=0 debug=0 memory=0 smp=1",
        f'feature myname="{name}" variants="{",".join(variants)}"',
    ]
    lines += [f'feature option="{option_feature(spec, value)}"'
              for spec, value in option_values]
    lines.append("feature done=1")
    return lines


def option_feature(spec: opt.OptionSpec, value: object) -> str:
    """`NAME -TYPE ...` as in `feature option="..."`; a combo marks its current choice
    with a leading `*`."""
    if spec.kind == opt.BUTTON:
        return f"{spec.name} -button"
    if spec.kind == opt.CHECK:
        return f"{spec.name} -check {1 if value else 0}"
    if spec.kind == opt.SPIN:
        return f"{spec.name} -spin {value} {spec.min} {spec.max}"
    if spec.kind == opt.COMBO:
        choices = [("*" if c == value else "") + c for c in spec.choices]
        return f"{spec.name} -combo {' /// '.join(choices)}"
    return f"{spec.name} -string {value}"


def option_value_text(spec: opt.OptionSpec, text: str | None) -> str | None:
    """A CECP option value as the session core expects it (checks are 1/0 here)."""
    if spec.kind == opt.CHECK and text is not None and text.strip() in ("0", "1"):
        return "true" if text.strip() == "1" else "false"
    return text


def engine_score(info: SearchInfo) -> int | None:
    """Centi-Men from the mover's view; a forced win in N own moves is MATE_BASE + N, a
    forced loss in N is -(MATE_BASE + N)."""
    if info.score_win is not None:
        n = info.score_win
        return MATE_BASE + n if n > 0 else -(MATE_BASE + abs(n))
    return info.score_cp


def thinking_line(info: SearchInfo, fmt: Callable[[object], str]) -> str | None:
    """`ply score time nodes pv` (time in centiseconds), or None for a report that is not
    a finished line (no depth or no pv, or only a bound on the score)."""
    if info.depth is None or not info.pv or info.bound is not None:
        return None
    score = engine_score(info)
    centis = int((info.time or 0.0) * 100)
    pv = " ".join(fmt(m) for m in info.pv)
    return f"{info.depth} {score if score is not None else 0} {centis} {info.nodes or 0} {pv}"


def result_token(ranking: Sequence[Sequence[int]], nseats: int) -> str:
    """Points per seat in seat order joined by '-': the seats sharing first place share one
    point ("1-0", "1/2-1/2", "0-1-0", "1/2-1/2-0"); the records' convention."""
    points = [Fraction(0)] * nseats
    first = ranking[0] if ranking else range(nseats)
    for seat in first:
        points[seat] = Fraction(1, len(first))
    return "-".join(str(p) for p in points)


def result_claim(outcome, nseats: int) -> str:
    """`1-0 {White wins: two pieces in the black castle}` for an Outcome."""
    text = outcome.text()
    return f"{result_token(outcome.ranking, nseats)} {{{text[:1].upper()}{text[1:]}}}"


@dataclass
class Level:
    """`level MPS BASE INC`: moves per time control (0: the whole game), base time and
    increment in seconds."""

    moves: int = 40
    base: float = 300.0
    inc: float = 0.0


def parse_level(args: list[str]) -> Level:
    """ValueError with a client-fit message unless `MPS BASE INC` is well formed; BASE is
    minutes or minutes:seconds, INC seconds (fractions allowed)."""
    if len(args) != 3:
        raise ValueError("level needs MPS BASE INC, e.g. level 40 5 0 or level 0 2:30 1")
    mps_text, base_text, inc_text = args
    try:
        mps = parse_whole(mps_text)
    except ValueError:
        raise ValueError(f"moves per control must be a whole number, not '{echo(mps_text)}'") \
            from None
    except OverflowError:
        raise ValueError(f"moves per control must be at most {INT_MAX}") from None
    try:
        if ":" in base_text:
            minutes, seconds = base_text.split(":", 1)
            if seconds[:1] in ("+", "-"):
                raise ValueError(seconds)  # (5:-30 is not a time)
            base = parse_whole(minutes) * 60 + parse_decimal(seconds)
        else:
            base = parse_decimal(base_text) * 60
    except (ValueError, OverflowError):
        raise ValueError(f"base time must be minutes or minutes:seconds, not '{echo(base_text)}'") \
            from None
    try:
        inc = parse_decimal(inc_text)
    except ValueError:
        raise ValueError(f"increment must be seconds, not '{echo(inc_text)}'") from None
    if mps < 0 or base < 0 or inc < 0:
        raise ValueError("level values must not be negative")
    if not (math.isfinite(base) and math.isfinite(inc)):
        raise ValueError("level times must be finite numbers")
    return Level(mps, base, inc)


def parse_number(text: str, what: str, minimum: float = 0, integer: bool = False) -> float:
    """A number for a clock or limit: whole numbers within 64 bits, decimals finite (a GUI's
    `inf` or `1e999` would make a clock that never runs out)."""
    try:
        value = parse_whole(text) if integer else parse_decimal(text)
    except ValueError:
        kind = "a whole number" if integer else "a number"
        raise ValueError(f"{what} must be {kind}, not '{echo(text)}'") from None
    except OverflowError:
        raise ValueError(f"{what} must be at most {INT_MAX}") from None
    if not math.isfinite(value):
        raise ValueError(f"{what} must be a finite number, not '{echo(text)}'")
    if value < minimum:
        raise ValueError(f"{what} must be at least {minimum:g}")
    return value
