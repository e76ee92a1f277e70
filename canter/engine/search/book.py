"""The engine's opening book: positions it has searched deeply ahead of time, with the moves
worth playing there (docs/book.md).

One line per position:

    <key> <move> <weight> [<move> <weight> ...] ; <score> <depth>

The key is the position string without its two counters (quiet and ply), so a position
reached by another move order, or later in a game, is the same entry. The book only
suggests: every move is checked with the rules library before it is offered, and a move
that is not legal in its position is reported and never played. No I/O here beyond reading
the book files shipped in the package.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from canter.engine.rules.notation import format_move, parse_move
from canter.engine.rules.position import Position

FORMAT_VERSION = 1
KEY_FIELDS = 6  # variant placement turn castle-moves duties eliminated
MAX_WEIGHT = 1_000_000
MAX_DEPTH = 1000
BOOKS_DIR = "books"


class BookError(ValueError):
    """A malformed book; `line` is the 1-based line number of the fault, if it has one."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {reason}" if line is not None else reason)
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class BookEntry:
    key: str
    moves: tuple[tuple[str, int], ...]  # (move text, weight), in the file's order
    score: int  # centipawns for the seat to move, from the search that made the entry
    depth: int


@dataclass
class Book:
    entries: dict[str, BookEntry] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, pos: Position) -> BookEntry | None:
        return self.entries.get(position_key(pos))

    def add(self, entry: BookEntry) -> None:
        self.entries[entry.key] = entry


def position_key(pos: Position) -> str:
    """What identifies a position for play: the position string minus quiet and ply. (The
    quiet counter matters only near the draw limit, far from any opening.)"""
    return " ".join(pos.to_string().split()[:KEY_FIELDS])


def key_position(key: str, rules: object | None = None) -> Position:
    """The position a key stands for, with both counters at zero."""
    return Position.from_string(f"{key} 0 0", rules)


def _whole(text: str, what: str, line: int, low: int, high: int, signed: bool = False) -> int:
    body = text[1:] if signed and text.startswith("-") else text
    if not body.isdecimal():
        raise BookError(f"{what} '{text[:20]}' is not a whole number", line)
    if len(body) > len(str(max(abs(low), abs(high)))) + 1:  # (int() refuses 4,300 digits)
        raise BookError(f"{what} '{text[:20]}...' is not from {low} to {high}", line)
    value = int(text)
    if not low <= value <= high:
        raise BookError(f"{what} {value} is not from {low} to {high}", line)
    return value


def parse_line(text: str, line: int) -> BookEntry | None:
    """One book line (None for a blank or `#` comment line), or BookError naming `line`."""
    parts = text.split()
    if not parts or parts[0].startswith("#"):
        return None
    if ";" not in parts:
        raise BookError("no ';' before the score and depth", line)
    semi = parts.index(";")
    if semi < KEY_FIELDS:
        raise BookError(f"the position key needs {KEY_FIELDS} fields, found {semi}", line)
    key, body, tail = parts[:KEY_FIELDS], parts[KEY_FIELDS:semi], parts[semi + 1:]
    if not body:
        raise BookError("no moves", line)
    if len(body) % 2:
        raise BookError(f"move '{body[-1][:20]}' has no weight", line)
    if len(tail) != 2:
        raise BookError("after ';' come exactly a score and a depth", line)
    moves = []
    for i in range(0, len(body), 2):
        weight = _whole(body[i + 1], f"weight of {body[i][:20]}", line, 1, MAX_WEIGHT)
        moves.append((body[i], weight))
    score = _whole(tail[0], "score", line, -MAX_WEIGHT, MAX_WEIGHT, signed=True)
    depth = _whole(tail[1], "depth", line, 0, MAX_DEPTH)
    return BookEntry(" ".join(key), tuple(moves), score, depth)


def parse_book(text: str) -> Book:
    """A whole book; the first bad line raises BookError with its number. Keys are not
    checked against the rules here (that would parse every position of a large book at
    start-up); moves are checked when a position is probed."""
    book = Book()
    if text.startswith("\ufeff"):  # a byte-order mark some editors write: no part of a key
        text = text[1:]
    for number, raw in enumerate(text.splitlines(), start=1):
        entry = parse_line(raw, number)
        if entry is None:
            continue
        if entry.key in book.entries:
            raise BookError("the position is already in the book", number)
        book.add(entry)
    return book


def format_entry(entry: BookEntry) -> str:
    moves = " ".join(f"{text} {weight}" for text, weight in entry.moves)
    return f"{entry.key} {moves} ; {entry.score} {entry.depth}"


def book_moves(entry: BookEntry, pos: Position) -> tuple[list[tuple[object, int]], list[str]]:
    """The entry's moves that are legal in `pos`, with their weights, and one problem text
    for each that is not (those are never offered)."""
    legal = pos.legal_moves() if pos.outcome() is None else []
    found, problems = [], []
    for text, weight in entry.moves:
        try:
            move = parse_move(pos, text)
        except ValueError as exc:
            problems.append(f"book move {text[:40]} ignored: {exc}")
            continue
        if move not in legal:
            problems.append(f"book move {text[:40]} ignored: not a legal move here")
            continue
        found.append((move, weight))
    return found, problems


def choose(moves: list[tuple[object, int]], allowed: list | None = None):
    """The book's move: the heaviest of `moves` that is also in `allowed` (if given); the
    first in the file wins a tie, so the choice is the same on every run."""
    best, best_weight = None, 0
    for move, weight in moves:
        if allowed is not None and move not in allowed:
            continue
        if weight > best_weight:
            best, best_weight = move, weight
    return best


def spelled(pos: Position, moves: list[tuple[object, int]]) -> list[tuple[str, int]]:
    return [(format_move(pos.variant, m), w) for m, w in moves]


@cache
def shipped_book(variant_name: str) -> Book | None:
    """The book that comes with canter for a game, or None if there is none. Read once per
    process, when first asked for."""
    path = resources.files(__package__).joinpath(BOOKS_DIR, f"{variant_name}.txt")
    if not path.is_file():
        return None
    return parse_book(path.read_text(encoding="utf-8"))
