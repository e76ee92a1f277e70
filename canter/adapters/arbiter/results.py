"""The results of a run: the game-record file (appended one finished game at a time, the
run's journal) and the tally the statistics are computed from.

Nothing is lost: each game is written with one `write` on a file opened for appending,
flushed and fsynced before the next is started. A run killed while writing leaves at most
one cut-off game at the end; reading for a resume drops it (the file is truncated back to
the end of the last complete game) and that game is played again.
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from canter.adapters.arbiter.schedule import Job
from canter.adapters.arbiter.stats import (
    MultiSeatStats,
    TwoSeatStats,
    pentanomial,
    two_seat_stats,
)
from canter.adapters.records.format import GameRecord, RecordError, read_games, write_game


class ResumeError(ValueError):
    """The output file does not belong to this run."""


class ResultsFile:
    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()

    def load(self) -> tuple[list[GameRecord], int]:
        """The complete games in the file, and how many bytes of a cut-off game at its
        end were dropped (the file is truncated to its last complete game)."""
        if not os.path.exists(self.path):
            return [], 0
        with open(self.path, "rb") as f:
            data = f.read()
        text = data.decode("utf-8", errors="replace")
        games, cut = _complete_prefix(text, self.path)
        kept_bytes = len(text[:cut].encode("utf-8"))
        dropped = len(data) - kept_bytes
        if dropped:
            with open(self.path, "r+b") as f:
                f.truncate(kept_bytes)
        return games, dropped

    def append(self, record: GameRecord) -> None:
        data = write_game(record).encode("utf-8")
        with self._lock:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                view = memoryview(data)
                while view:
                    written = os.write(fd, view)
                    view = view[written:]
                os.fsync(fd)
            finally:
                os.close(fd)


def _offset_of_line(text: str, line: int) -> int:
    if line <= 1:
        return 0
    offset = 0
    for _ in range(line - 1):
        nl = text.find("\n", offset)
        if nl < 0:
            return len(text)
        offset = nl + 1
    return offset


def _complete_prefix(text: str, path: str) -> tuple[list[GameRecord], int]:
    """The games of the longest prefix of `text` (cut at a line start) made of complete
    games only, and the prefix's length. Only a cut-off last game may be dropped: damage
    that would cost more than that is an error, never silently truncated."""
    bad_line = None
    try:
        games = list(read_games(text, allow_unterminated=True))
        if not games or games[-1].result != "*":
            return games, len(text)
        bad_line = games[-1].line
    except RecordError as exc:
        bad_line = exc.line
    cut = _offset_of_line(text, bad_line + 1)
    while cut > 0:
        cut = text.rfind("\n", 0, cut - 1) + 1  # the start of the line before
        try:
            games = list(read_games(text[:cut], allow_unterminated=True))
        except RecordError:
            continue
        if games and games[-1].result == "*":
            continue
        if text[cut:].count("[Event ") > 1 or (text[cut:].count("[Round ") > 1):
            break
        return games, cut
    raise ResumeError(
        f"{path}: damaged at line {bad_line}, and not only in a cut-off last game; "
        "repair it or use another output file")


# ---------------------------------------------------------------- the tally


def ranking_of(record: GameRecord) -> list[list[int]]:
    """Seats best first, from a finished record: the Ranking tag (three seats), else the
    result token (the seats with points first, the rest sharing the next place)."""
    seat_names = [s.lower() for s in record.seat_tags]
    tag = record.tags.get("Ranking")
    if tag:
        groups = [[seat_names.index(n.strip().lower()) for n in g.split("=")]
                  for g in tag.split(">")]
        return groups
    points = record.points
    if points is None:
        raise ValueError("unfinished game")
    top = [s for s, p in enumerate(points) if p > 0]
    rest = [s for s, p in enumerate(points) if p == 0]
    return [top, rest] if rest else [top]


@dataclass
class GameEntry:
    job: Job
    ranking: list[list[int]]  # player indices, best first
    points: tuple[Fraction, ...]  # per seat
    termination: str
    reason: str
    plies: int


@dataclass
class Tally:
    names: list[str]
    entries: dict[int, GameEntry] = field(default_factory=dict)

    def add(self, job: Job, record: GameRecord) -> GameEntry:
        seats_ranking = ranking_of(record)
        ranking = [[job.players[s] for s in group] for group in seats_ranking]
        entry = GameEntry(
            job,
            ranking,
            record.points or (),
            record.tags.get("Termination", "normal"),
            record.tags.get("Reason", ""),
            len(record.moves),
        )
        self.entries[job.number] = entry
        return entry

    @property
    def games(self) -> int:
        return len(self.entries)

    def score(self, a: int, b: int) -> tuple[int, int, int]:
        """W/D/L of player a against b over their two-seat games."""
        w = d = lo = 0
        for e in self.entries.values():
            if set(e.job.players) != {a, b} or len(e.job.players) != 2:
                continue
            if len(e.ranking) == 1:
                d += 1
            elif e.ranking[0] == [a]:
                w += 1
            else:
                lo += 1
        return w, d, lo

    def points_of(self, a: int, b: int, e: GameEntry) -> float:
        if len(e.ranking) == 1:
            return 0.5
        return 1.0 if e.ranking[0] == [a] else 0.0

    def pairs(self, a: int, b: int) -> list[tuple[float, float]]:
        """Points of a in the complete colour-swapped pairs (same encounter and block)
        against b."""
        blocks: dict[tuple[int, int], list[GameEntry]] = {}
        for e in self.entries.values():
            if set(e.job.players) == {a, b} and len(e.job.players) == 2:
                blocks.setdefault((e.job.encounter, e.job.block), []).append(e)
        out = []
        for games in blocks.values():
            if len(games) == 2:
                out.append((self.points_of(a, b, games[0]), self.points_of(a, b, games[1])))
        return out

    def pentanomial(self, a: int, b: int) -> tuple[int, int, int, int, int]:
        return pentanomial(self.pairs(a, b))

    def two_seat(self, a: int, b: int) -> TwoSeatStats | None:
        w, d, lo = self.score(a, b)
        return two_seat_stats(w, d, lo) if w + d + lo else None

    def overall(self, a: int) -> tuple[int, int, int]:
        """W/D/L of player a against everyone (two seats)."""
        w = d = lo = 0
        for b in range(len(self.names)):
            if b != a:
                x, y, z = self.score(a, b)
                w, d, lo = w + x, d + y, lo + z
        return w, d, lo

    def multi(self) -> MultiSeatStats:
        stats = MultiSeatStats()
        for number in sorted(self.entries):
            stats.add(self.entries[number].ranking)
        return stats

    def terminations(self) -> Counter[str]:
        return Counter(e.termination for e in self.entries.values())
