"""The results of a run: the game-record file (appended one finished game at a time, the
run's journal), the other files a run writes, and the tally the statistics are computed
from.

Nothing is lost, and no file that is not the run's own is touched:
- each game is written with one `write` on a file opened for appending, flushed and fsynced
  before the next is started. A run killed while writing leaves at most one cut-off game at
  the end; reading for a resume sets it aside in a side file (FILE.cut-off) and that game is
  played again.
- a file is resumed only if it is made of the arbiter's game records; anything else (notes,
  JSON, binary, another encoding, damage before the last game) is refused, byte for byte
  as it was.
- the summary is written to a temporary file in the target's folder and renamed over it, so
  the target holds either the old summary or the new one.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

try:
    import fcntl
except ImportError:  # not on POSIX: runs are not locked against each other
    fcntl = None  # type: ignore[assignment]

from canter.adapters.arbiter.schedule import Job
from canter.adapters.arbiter.stats import (
    MultiSeatStats,
    TwoSeatStats,
    pairwise_score,
    pentanomial,
    two_seat_stats,
)
from canter.adapters.files import OutputPathError, check_output_file, replace_file, write_all
from canter.adapters.records.format import (
    GameRecord,
    RecordError,
    bom_length,
    decode_records,
    read_games,
    write_game,
)


class ResumeError(ValueError):
    """The output file is not this run's to append to: not a game-record file, damaged, or
    (see Arbiter.load) from another run."""


class OutputError(ValueError):
    """An output path that cannot be written; the message names the option and the path."""


# Every record the arbiter writes starts with this line (write_game puts Event first), and
# nothing else in a record starts a line with it: tag values and comments stay on one line.
RECORD_START = '[Event "'
_RECORD_START_RE = re.compile(r"^\[Event \"", re.MULTILINE)
NOT_RECORDS = "not a game-record file of canter's arbiter"
ADVICE = "give another --pgn file"


@dataclass
class Contents:
    """What a game-record file holds: its complete games, the bytes they take, and a
    cut-off game after them (empty if none)."""

    games: list[GameRecord]
    kept: int
    tail: bytes = b""


class ResultsFile:
    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._held: int | None = None  # the descriptor holding the run's lock on the file
        self._made = False

    def hold(self) -> None:
        """Lock the file for this run (an advisory lock, released when the run ends or
        dies): a second run on the same file at once would write its games twice, or
        take a game the first is writing for a cut-off one and set it aside. ResumeError
        if another run holds it."""
        made = not os.path.lexists(self.path)
        fd = os.open(self.path, os.O_RDONLY | os.O_CREAT, 0o644)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise ResumeError(f"{self.path}: another run is writing to it; wait for it "
                                  "to end, or use another output file") from None
        self._held, self._made = fd, made

    def release(self) -> None:
        """Unlock; a file this run made and wrote nothing to is removed again."""
        if self._held is None:
            return
        try:
            if self._made and os.fstat(self._held).st_size == 0:
                with contextlib.suppress(OSError):
                    os.unlink(self.path)
        finally:
            os.close(self._held)
            self._held = None

    def read(self) -> Contents:
        """The file's complete games and its cut-off last game, if any; the file is not
        changed. ResumeError if it is not the arbiter's game records, or is damaged
        anywhere but in a cut-off last game."""
        from canter.adapters.files import MAX_RECORDS_INPUT, InputTooLarge, read_at_most

        try:
            with open(self.path, "rb") as f:
                data = read_at_most(f, MAX_RECORDS_INPUT, "the arbiter's game records")
        except FileNotFoundError:
            return Contents([], 0)
        except OSError as exc:
            raise ResumeError(f"{self.path}: cannot be read ({exc.strerror})") from None
        except InputTooLarge as exc:
            raise ResumeError(f"{self.path}: {exc}") from None
        return parse_contents(data, self.path)

    def set_aside(self, contents: Contents) -> str:
        """Move the cut-off game `read` found into a side file next to this one (never
        over an existing file), then cut it from this file. Returns the side file's path.
        Killed in between, the next run finds the game again and sets it aside again: a
        copy too many, never one too few."""
        size = os.path.getsize(self.path)
        if size != contents.kept + len(contents.tail):
            raise ResumeError(f"{self.path} changed while it was being read; try again")
        side = self._side_path()
        fd = os.open(side, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            write_all(fd, contents.tail)
            os.fsync(fd)
        finally:
            os.close(fd)
        fd = os.open(self.path, os.O_WRONLY)
        try:
            os.ftruncate(fd, contents.kept)
            os.fsync(fd)
        finally:
            os.close(fd)
        return side

    def _side_path(self) -> str:
        side = f"{self.path}.cut-off"
        n = 2
        while os.path.lexists(side):
            side = f"{self.path}.cut-off.{n}"
            n += 1
        return side

    def load(self) -> tuple[list[GameRecord], int]:
        """The complete games in the file, and how many bytes of a cut-off game at its
        end were set aside (in `self.side`)."""
        contents = self.read()
        self.side: str | None = None
        if contents.tail:
            self.side = self.set_aside(contents)
        return contents.games, len(contents.tail)

    def append(self, record: GameRecord) -> None:
        """Write one game at the end of the file. A file whose last game lost its closing
        blank line (a writer killed just after the result) gets it back first, so that the
        new record starts a line of its own; a write that fails is cut off again, so that
        no fragment is left for the next game to follow."""
        data = write_game(record).encode("utf-8")
        with self._lock:
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                size = os.fstat(fd).st_size
                if size:
                    os.lseek(fd, max(0, size - 2), os.SEEK_SET)
                    tail = os.read(fd, 2)
                    data = b"\n" * (2 - (len(tail) - len(tail.rstrip(b"\n")))) + data
                try:
                    write_all(fd, data)
                    os.fsync(fd)
                except OSError:
                    with contextlib.suppress(OSError):
                        os.ftruncate(fd, size)
                    raise
            finally:
                os.close(fd)


def parse_contents(data: bytes, path: str) -> Contents:
    """Split a game-record file into its complete games and a cut-off last game.

    The arbiter's records each start a line with `[Event "`; the text is cut there into
    records. Every record but the last must be one complete game; the last is a complete
    game or the beginning of one (a writer killed in mid-record). Anything else refuses
    the whole file: either it is not the arbiter's (a file given by mistake) or it is
    damaged in a way a cut-off game does not explain."""
    if not data.strip():
        return Contents([], len(data))  # empty: a file made ready for the run
    try:
        text = decode_records(data, cut_off_ok=True)
    except RecordError as exc:
        raise ResumeError(f"{path}: {NOT_RECORDS} ({exc.message.split(':')[0]}); "
                          f"{ADVICE}") from None
    starts = [m.start() for m in _RECORD_START_RE.finditer(text)]
    last_line = text.rpartition("\n")[2]
    if last_line and RECORD_START.startswith(last_line):
        starts.append(len(text) - len(last_line))  # a record cut off in its first tag
    head = text[: starts[0]] if starts else text
    if head.strip():
        line = head.lstrip().split("\n", 1)[0]
        shown = line if len(line) <= 40 else line[:37] + "..."
        raise ResumeError(f"{path}: {NOT_RECORDS} (it starts with {ascii(shown)}, not a "
                          f"game record's {RECORD_START}...); {ADVICE}")
    games: list[GameRecord] = []
    first_problem: str | None = None
    tail_at: int | None = None
    bounds = [*starts, len(text)]
    for i, (begin, end) in enumerate(zip(bounds, bounds[1:], strict=False)):
        chunk = text[begin:end]
        first_line = text.count("\n", 0, begin) + 1
        try:
            found = list(read_games(chunk))
            problem = (None if len(found) == 1
                       else f"line {first_line}: more than one game in one record")
        except RecordError as exc:
            found, problem = [], f"line {exc.line + first_line - 1}: {exc.message}"
        if problem is None:
            game = found[0]
            game.line += first_line - 1
            game.move_lines = [n + first_line - 1 for n in game.move_lines]
            games.append(game)
        elif i == len(starts) - 1 and first_problem is None and _is_cut_off(chunk):
            tail_at = begin
        elif first_problem is None:
            first_problem = problem
    if first_problem is not None:
        if not games:  # not one record of the arbiter's in it: a file given by mistake
            raise ResumeError(f"{path}: {NOT_RECORDS} ({first_problem}); {ADVICE}")
        raise ResumeError(
            f"{path}: damaged at {first_problem}, and not only in a cut-off last game; "
            "repair it or use another output file")
    # (A byte-order mark before the text counts in the file's bytes, not in the text.)
    bom = bom_length(data)
    if tail_at is not None:
        kept = bom + len(text[:tail_at].encode("utf-8"))
        return Contents(games, kept, data[kept:])
    if bom + len(text.encode("utf-8")) != len(data):
        # a character cut in two after a complete game: no record ends that way
        raise ResumeError(f"{path}: damaged at its end (bytes that are not UTF-8 text after "
                          "the last game); repair it or use another output file")
    return Contents(games, len(data))


_PRINTABLE_RE = re.compile(r"[^\x00-\x08\x0b-\x1f\x7f]*")


def _is_cut_off(chunk: str) -> bool:
    """Whether a record is the beginning of one game: its complete lines read as one game
    without a result, and what follows them (a line cut before its end) is text."""
    complete, _, rest = chunk.rpartition("\n")
    if not _PRINTABLE_RE.fullmatch(rest):
        return False
    if not complete:
        return True  # only the first line, cut: the chunk starts with [Event "
    try:
        found = list(read_games(complete + "\n", allow_unterminated=True))
    except RecordError:
        return False
    return len(found) == 1 and found[0].result == "*"


# ---------------------------------------------------------------- output paths


def check_output_path(option: str, path: str, *, append: bool,
                      regular: bool = True) -> None:
    """Whether `path` can be written by the run, checked before any game (see
    files.check_output_file). OutputError names the option, the path and the problem."""
    try:
        check_output_file(path, append=append, regular=regular)
    except OutputPathError as exc:
        raise OutputError(f"{option} {exc}") from None


_SUMMARY_RE = re.compile(rb'\A\s*\{\s*"variant"\s*:\s*"[^"]*"\s*,\s*"seats"\s*:\s*\d')


def check_summary_target(path: str) -> None:
    """--json replaces its file: only an earlier summary (or an empty file) may be
    replaced, never a file of the user's given by mistake."""
    try:
        with open(path, "rb") as f:
            head = f.read(256)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputError(f"--json {path}: cannot be read ({exc.strerror})") from None
    if head.strip() and not _SUMMARY_RE.match(head):
        raise OutputError(f"--json {path}: exists and is not a summary written by canter's "
                          "arbiter; it is left as it is: give another --json file")


def write_summary(path: str, data: object) -> None:
    replace_file(path, json.dumps(data, indent=2) + "\n")


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
    # Team games: the two sides as sorted player indices (one engine playing both seats of
    # a team is one index), and the first side's points: 1, 1/2 or 0.
    sides: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    side_points: float = 0.0


def _first_places(ranking: list[list[int]]) -> list[list[int]]:
    """A ranking of players with each player kept at its best place only (one engine that
    plays both seats of a team appears once)."""
    seen: set[int] = set()
    out = []
    for group in ranking:
        kept = [p for p in dict.fromkeys(group) if p not in seen]
        seen.update(kept)
        if kept:
            out.append(kept)
    return out


@dataclass
class Tally:
    names: list[str]
    entries: dict[int, GameEntry] = field(default_factory=dict)
    team_of: tuple[int, ...] = ()  # team games: the team of each seat (variant data)

    def add(self, job: Job, record: GameRecord) -> GameEntry:
        seats_ranking = ranking_of(record)
        ranking = [[job.players[s] for s in group] for group in seats_ranking]
        sides = None
        side_points = 0.0
        if self.team_of:
            ranking = _first_places(ranking)
            side_seats = [[s for s, t in enumerate(self.team_of) if t == team]
                          for team in sorted(set(self.team_of))]
            sides = tuple(tuple(sorted({job.players[s] for s in seats}))
                          for seats in side_seats)
            if len(seats_ranking) == 1:
                side_points = 0.5
            else:
                side_points = 1.0 if seats_ranking[0][0] in side_seats[0] else 0.0
        entry = GameEntry(
            job,
            ranking,
            record.points or (),
            record.tags.get("Termination", "normal"),
            record.tags.get("Reason", ""),
            len(record.moves),
            sides,  # type: ignore[arg-type]  # two teams: a pair
            side_points,
        )
        self.entries[job.number] = entry
        return entry

    def team_scores(self) -> dict[tuple[tuple[int, ...], tuple[int, ...]], list[int]]:
        """Team games: W/D/L per pairing of teams (a team is its engines), from the first
        team's side, the pair ordered by player indices."""
        out: dict[tuple[tuple[int, ...], tuple[int, ...]], list[int]] = {}
        for e in self.entries.values():
            if e.sides is None:
                continue
            a, b = e.sides
            points = e.side_points
            if b < a:
                a, b, points = b, a, 1.0 - points
            wdl = out.setdefault((a, b), [0, 0, 0])
            wdl[0 if points == 1.0 else 1 if points == 0.5 else 2] += 1
        return out

    def team_pairs(self, a: int, b: int) -> list[tuple[float, float]]:
        """Team games of engines a and b each playing a whole team (`--teams`): a's points
        in each complete pair of games of one encounter and block (a once on each team)."""
        blocks: dict[tuple[int, int], list[GameEntry]] = {}
        for e in self.entries.values():
            if e.sides is not None and set(e.sides) == {(a,), (b,)} and a != b:
                blocks.setdefault((e.job.encounter, e.job.block), []).append(e)
        out = []
        for games in blocks.values():
            if len(games) == 2:
                first, second = (g.side_points if g.sides[0] == (a,) else 1.0 - g.side_points
                                 for g in games)
                out.append((first, second))
        return out

    def team_pentanomial(self, a: int, b: int) -> tuple[int, int, int, int, int]:
        return pentanomial(self.team_pairs(a, b))

    def team_points(self, player: int) -> tuple[int, float]:
        """Team games: (games, points) of one engine, a team's result counting once for
        each engine in it (1 a win, 1/2 a draw)."""
        games, points = 0, 0.0
        for e in self.entries.values():
            if e.sides is None:
                continue
            for i, side in enumerate(e.sides):
                if player in side:
                    games += 1
                    points += e.side_points if i == 0 else 1.0 - e.side_points
        return games, points

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

    @property
    def multi_seat(self) -> bool:
        """Games of more than two seats, each for itself (not team games)."""
        return not self.team_of and any(len(e.job.players) > 2 for e in self.entries.values())

    def pairwise_scores(self, a: int) -> list[float]:
        """Multi-seat games, in game order: a's mean score against each other player of
        the game (1 finished ahead, 1/2 shared the place, 0 behind)."""
        out = []
        for number in sorted(self.entries):
            score = pairwise_score(self.entries[number].ranking, a)
            if score is not None:
                out.append(score)
        return out

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
