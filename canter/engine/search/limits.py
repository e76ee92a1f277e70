"""What a search is asked to do and what it reports: the contract between the protocol
session (which owns threads and clocks) and the searcher (which owns the thinking)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Limits:
    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None  # seconds
    infinite: bool = False
    mate: int | None = None  # find a win in at most this many own moves
    searchmoves: list | None = None  # list[Move] to restrict the root to
    # The searcher narrowed `searchmoves` itself (to the moves a proof leaves), so they
    # are not moves a client asked to have analysed.
    narrowed: bool = False
    # Clocks per seat (seconds remaining / increment), moves to the next time control.
    time: dict[int, float] = field(default_factory=dict)
    inc: dict[int, float] = field(default_factory=dict)
    movestogo: int | None = None
    ponder: bool = False


@dataclass
class SearchInfo:
    """One progress report; fields left None are not printed."""

    depth: int | None = None
    seldepth: int | None = None
    score_cp: int | None = None  # from the side to move's point of view
    score_win: int | None = None  # +N: mover wins in N own moves; -N: loses in N
    bound: str | None = None  # None, "lower" or "upper"
    nodes: int | None = None
    time: float | None = None  # seconds since the search started
    hashfull: int | None = None  # per mille
    tbhits: int | None = None  # endgame table probes that answered (None: none did)
    pv: list | None = None  # list[Move]
    multipv: int | None = None
    currmove: object | None = None
    currmovenumber: int | None = None
    string: str | None = None


@dataclass
class SearchResult:
    best: object | None  # Move, or None when there is no legal move
    ponder: object | None = None
    info: SearchInfo | None = None


InfoCallback = Callable[[SearchInfo], None]


class StopFlag:
    """Set by the session (stop, ponderhit turned into a deadline, quit); polled by the
    searcher. `deadline` may be moved while the search runs (ponderhit)."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self.deadline: float | None = None  # time.monotonic() value
        self.pondering = False
        # Set before a ponderhit when the clocks have moved since the `go` (CECP sends
        # them with the opponent's move): the searcher plans the move with these.
        self.clocks: Limits | None = None

    def set(self) -> None:
        self.event.set()

    def is_set(self) -> bool:
        return self.event.is_set()
