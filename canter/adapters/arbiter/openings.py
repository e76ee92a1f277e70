"""Openings for the arbiter: a file of start points, each checked with the rules.

One opening per line; blank lines and lines starting with `#` are skipped. A line is
either a position string (`camelot 2/8/... w 0,0 - - 0 0`, optionally followed by
`moves M1 M2 ...`) or a sequence of moves from the variant's start (`D6-F8 H11-F9`; move
numbers like `1.` are ignored). A file whose first non-blank line starts with `[` is read
as game records (docs/game-records.md): each game's start position and moves.

Each variant has a built-in book (`books/<variant>.txt`, installed with the package), used
when a match is given no `--openings`: distinct short random starts, so that engines with
deterministic limits do not play the same game over and over.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from canter.engine import (
    NotationError,
    Position,
    PositionError,
    format_move,
    get_variant,
    parse_move,
)
from canter.engine.rules.variant import VARIANT_NAMES

_NUMBER = re.compile(r"^\d+\.+")


@dataclass(frozen=True)
class Opening:
    """A start point: `position` is a position string, or None for the variant's start;
    `moves` are played from it (canonical spelling) and written to the record."""

    position: str | None
    moves: tuple[str, ...] = ()
    label: str = ""

    def start(self, variant: str) -> Position:
        pos = (
            Position.start(get_variant(variant))
            if self.position is None
            else Position.from_string(self.position)
        )
        for text in self.moves:
            pos.push(parse_move(pos, text))
        return pos


def _check(variant: str, position: str | None, moves: list[str], where: str) -> Opening:
    try:
        pos = (
            Position.start(get_variant(variant))
            if position is None
            else Position.from_string(position)
        )
    except PositionError as exc:
        raise ValueError(f"{where}: bad position string: {exc}") from None
    if pos.variant.name != variant:
        raise ValueError(f"{where}: a {pos.variant.name} position, but the match plays {variant}")
    canonical = []
    for i, text in enumerate(moves, start=1):
        if pos.outcome() is not None:
            raise ValueError(f"{where}: move {i} ({text}): the game is already over")
        try:
            move = parse_move(pos, text)
        except (NotationError, ValueError) as exc:
            other = _other_variant(moves) if position is None and i == 1 else None
            if other is not None:
                raise ValueError(f"{where}: {' '.join(moves)} is a {other} opening, but the "
                                 f"match plays {variant}") from None
            raise ValueError(f"{where}: move {i} ({text}): {exc}") from None
        canonical.append(format_move(pos.variant, move))
        pos.push(move)
    if pos.outcome() is not None:
        raise ValueError(f"{where}: the game is already decided ({pos.outcome()})")
    if position is not None and position.split() == Position.start(pos.variant).to_string().split():
        position = None  # the standard start: engines get `position startpos`
    return Opening(position, tuple(canonical), where)


def _other_variant(moves: list[str]) -> str | None:
    """The variant in whose start all of `moves` are legal, if any (a book of the other
    game is a likely mistake, worth naming)."""
    for name in VARIANT_NAMES:
        pos = Position.start(get_variant(name))
        try:
            for text in moves:
                pos.push(parse_move(pos, text))
        except (NotationError, ValueError):
            continue
        return name
    return None


def _moves(words: list[str]) -> list[str]:
    """The moves of a move list: "1.D6-F8" and "1. D6-F8" lose their move number, and a
    result token at the end (copied from a game record) is no move."""
    from canter.adapters.records.format import RESULT_RE

    return [m for w in words if (m := _NUMBER.sub("", w)) and not RESULT_RE.match(m)]


def parse_openings(text: str, variant: str, source: str = "openings") -> list[Opening]:
    """All openings of a file's text; ValueError with the line number of a bad one."""
    lines = text.splitlines()
    # Game records start with a tag (after any `%` escape lines of theirs).
    first = next((ln.strip() for ln in lines if ln.strip() and not ln.startswith("%")), "")
    if first.startswith("["):
        return _from_records(text, variant, source)
    openings = []
    for number, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0].strip()  # (a comment, whole-line or after the moves)
        if not line:
            continue
        words = line.split()
        where = f"{source} line {number}"
        if words[0].lower() in VARIANT_NAMES:
            if "moves" in words:
                cut = words.index("moves")
                position, moves = " ".join(words[:cut]), _moves(words[cut + 1 :])
            else:
                position, moves = line, []
        else:
            position, moves = None, _moves(words)
        openings.append(_check(variant, position, moves, where))
    if not openings:
        raise ValueError(f"{source}: no openings in the file")
    return openings


def _from_records(text: str, variant: str, source: str) -> list[Opening]:
    from canter.adapters.records.format import RecordError, read_games

    try:
        games = list(read_games(text, allow_unterminated=True))
    except RecordError as exc:
        raise ValueError(f"{source}: {exc}") from None
    openings = []
    for i, game in enumerate(games, start=1):
        where = f"{source} game {i} (line {game.line})"
        if game.variant != variant:
            raise ValueError(f"{where}: a {game.variant} game, but the match plays {variant}")
        openings.append(_check(variant, game.start_position, list(game.moves), where))
    if not openings:
        raise ValueError(f"{source}: no games in the file")
    return openings


def load_openings(path: str, variant: str) -> list[Opening]:
    """The openings of a file; ValueError names the file and what is wrong with it."""
    from canter.adapters.files import MAX_TEXT_INPUT, InputTooLarge, read_at_most

    try:
        with open(path, "rb") as f:
            data = read_at_most(f, MAX_TEXT_INPUT, "an openings file")
    except InputTooLarge as exc:
        raise ValueError(f"{path}: {exc}") from None
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ValueError(f"{path}: is a directory, not an openings file") from None
    except OSError as exc:
        raise ValueError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8-sig")  # (a leading byte-order mark is dropped)
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not a UTF-8 text file (byte 0x{data[exc.start]:02x} at "
                         f"offset {exc.start})") from None
    if "\0" in text:
        raise ValueError(f"{path}: a binary file, not an openings file")
    return parse_openings(text, variant, path)


def load_book(variant: str) -> list[Opening]:
    """The built-in book of `variant`, installed with the package."""
    from importlib.resources import files

    name = f"{variant}.txt"
    text = files("canter.adapters.arbiter").joinpath("books", name).read_text("utf-8")
    return parse_openings(text, variant, f"built-in book {name}")


def opening_order(count: int, blocks: int, order: str, seed: int) -> list[int]:
    """Which opening each block of games uses: sequential (0, 1, 2, ..., wrapping) or
    random (each opening once per pass through the file, shuffled with `seed`, so a run is
    reproducible and a resumed run picks the same ones)."""
    if order == "sequential":
        return [b % count for b in range(blocks)]
    if order != "random":
        raise ValueError(f"opening order {order!r} is not sequential or random")
    rng = random.Random(seed)
    picks: list[int] = []
    while len(picks) < blocks:
        batch = list(range(count))
        rng.shuffle(batch)
        picks.extend(batch)
    return picks[:blocks]
