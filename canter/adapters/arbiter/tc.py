"""Time controls and clocks for the arbiter.

A time control limits one seat's searches. Forms (cutechess-cli style):

    40/60+0.5   40 moves in 60 s, then again 40 in 60 s, +0.5 s per move
    60+0.5      the whole game in 60 s, +0.5 s per move;  `1:30+1` (minutes:seconds) too
    inf         no clock
plus, separately or together with a clock: `st=SECONDS` (fixed time per move, sent as
`go movetime`), `depth=N`, `nodes=N`.

The arbiter keeps each seat's clock itself and charges the time from sending `go` to
reading `bestmove` (the client's `elapsed`); a seat whose clock (or fixed time) is
exceeded by more than the time margin loses on time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from canter.adapters.client.engine import Limit
from canter.adapters.params import MAX_SECONDS

# Times reach an engine in whole milliseconds: a time below one would be sent as 0
# (`movetime 0` is refused by the client; a clock of 0 is lost before a move is made).
MIN_SECONDS = 0.001

_TC_RE = re.compile(
    r"^(?:(?P<moves>\d+)/)?(?P<time>\d+(?:\.\d*)?|\d+:\d{1,2}(?:\.\d*)?)(?:\+(?P<inc>\d+(?:\.\d*)?))?$"
)


def _seconds(text: str) -> float:
    if ":" in text:
        minutes, seconds = text.split(":", 1)
        if float(seconds) >= 60:
            raise ValueError(f"{text!r}: the seconds of m:ss must be below 60")
        return int(minutes) * 60 + float(seconds)
    return float(text)


@dataclass(frozen=True)
class TimeControl:
    """One seat's limits. `time` None means no clock; `moves` 0 means the whole game."""

    time: float | None = None  # seconds on the clock at the start of each period
    inc: float = 0.0
    moves: int = 0  # moves per period (0: the rest of the game)
    movetime: float | None = None  # st=: fixed seconds per move
    depth: int | None = None
    nodes: int | None = None

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """`40/60+0.5`, `60+0.5`, `1:30`, `inf`."""
        text = text.strip()
        if text.lower() in ("inf", "infinite", "none", ""):
            return cls()
        if len(text) > 40:  # (no clock is written longer; int() refuses 4,300 digits)
            raise ValueError(f"time control '{text[:20]}...' is too long: at most 40 "
                             "characters, e.g. 40/60+0.5")
        m = _TC_RE.match(text)
        if m is None:
            raise ValueError(
                f"time control {text!r} is not MOVES/TIME+INC, TIME+INC or inf "
                "(times in seconds or m:ss, e.g. 40/60+0.5)"
            )
        moves = int(m["moves"]) if m["moves"] else 0
        if m["moves"] and moves == 0:
            raise ValueError(f"time control {text!r}: moves per period must be at least 1")
        try:
            seconds = _seconds(m["time"])
        except ValueError as exc:
            raise ValueError(f"time control {exc}") from None
        inc = float(m["inc"] or 0)
        if seconds <= 0:
            raise ValueError(f"time control {text!r}: the time must be above 0")
        if seconds < MIN_SECONDS or 0 < inc < MIN_SECONDS:
            what = ("the time must be" if seconds < MIN_SECONDS
                    else "the increment must be 0 or")
            raise ValueError(f"time control {text!r}: {what} at least {MIN_SECONDS:g} s "
                             "(times are sent in whole milliseconds)")
        # (Beyond this a clock is no clock: in milliseconds it leaves 64 bits, or is inf.)
        if seconds > MAX_SECONDS or inc > MAX_SECONDS:
            raise ValueError(f"time control {text!r}: times must be at most "
                             f"{MAX_SECONDS:g} seconds")
        return cls(time=seconds, inc=inc, moves=moves)

    def with_limits(
        self,
        *,
        movetime: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
    ) -> TimeControl:
        return TimeControl(
            self.time,
            self.inc,
            self.moves,
            movetime if movetime is not None else self.movetime,
            depth if depth is not None else self.depth,
            nodes if nodes is not None else self.nodes,
        )

    @property
    def bounded(self) -> bool:
        """True if the arbiter can tell how long a search may take."""
        return self.time is not None or self.movetime is not None

    def text(self) -> str:
        """The TimeControl tag: `40/60+0.5`, `st=0.5`, `depth=3`, ... joined by spaces."""
        parts = []
        if self.time is not None:
            clock = f"{self.moves}/" if self.moves else ""
            clock += _num(self.time)
            if self.inc:
                clock += "+" + _num(self.inc)
            parts.append(clock)
        if self.movetime is not None:
            parts.append(f"st={_num(self.movetime)}")
        if self.depth is not None:
            parts.append(f"depth={self.depth}")
        if self.nodes is not None:
            parts.append(f"nodes={self.nodes}")
        return " ".join(parts) or "inf"


def _num(x: float) -> str:
    return f"{x:.3f}".rstrip("0").rstrip(".")


class Clocks:
    """The clocks of one game, one per seat."""

    def __init__(self, controls: list[TimeControl]) -> None:
        self.controls = controls
        self.left = [tc.time if tc.time is not None else 0.0 for tc in controls]
        self.moves_made = [0] * len(controls)

    def limit(self, seat: int) -> Limit:
        """The `go` limit for `seat`: every seat's remaining time (when the seat to move
        has a clock), its movestogo, fixed time, depth, nodes."""
        tc = self.controls[seat]
        times = incs = None
        movestogo = None
        if tc.time is not None:
            # seats without a clock are sent a nominal day so every keyword is present
            times = [
                self.left[s] if c.time is not None else 86400.0
                for s, c in enumerate(self.controls)
            ]
            incs = [c.inc for c in self.controls]
            if not any(incs):
                incs = None
            if tc.moves:
                movestogo = tc.moves - self.moves_made[seat] % tc.moves
        return Limit(
            depth=tc.depth,
            nodes=tc.nodes,
            movetime=tc.movetime,
            times=times,
            incs=incs,
            movestogo=movestogo,
        )

    def allowed(self, seat: int) -> float | None:
        """Seconds the seat may take for this move before it loses on time (margin not
        included), or None if nothing bounds it."""
        tc = self.controls[seat]
        bounds = []
        if tc.time is not None:
            bounds.append(self.left[seat])
        if tc.movetime is not None:
            bounds.append(tc.movetime)
        return min(bounds) if bounds else None

    def charge(self, seat: int, elapsed: float) -> None:
        """Take `elapsed` off the seat's clock, then add the increment and, at the end of a
        period, the next period's time."""
        tc = self.controls[seat]
        self.moves_made[seat] += 1
        if tc.time is None:
            return
        self.left[seat] -= elapsed
        self.left[seat] += tc.inc
        if tc.moves and self.moves_made[seat] % tc.moves == 0:
            self.left[seat] += tc.time
