"""`canter book build|show|probe`: the engine's opening books (docs/book.md)."""

from __future__ import annotations

import os
import sys
import time

import click

from canter.adapters.params import Seconds, read_input_file, variant_option
from canter.engine.rules.notation import IllegalMoveError, NotationError, parse_move
from canter.engine.rules.position import Position
from canter.engine.rules.posstring import PositionError
from canter.engine.search.book import (
    Book,
    BookError,
    book_moves,
    format_entry,
    parse_book,
    position_key,
    shipped_book,
    spelled,
)


def _read(path: str, param: str, empty_ok: bool = False) -> Book:
    """The book in `path`; a file that cannot be opened is a bad `param` (exit 2, as every
    command's missing file), a file that is no book a failure (exit 1)."""
    data = read_input_file(path, param, "a book")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise click.ClickException(f"{path}: not UTF-8 text") from None
    try:
        book = parse_book(text)
    except BookError as exc:
        raise click.ClickException(f"{path}: {exc}") from None
    if not book.entries and not empty_ok:
        # Shown or probed, an empty file would read as a book that knows no position.
        raise click.ClickException(f"{path}: holds no book entry")
    return book


def _book(path: str | None, variant: str, param: str) -> tuple[Book, str]:
    if path is not None:
        return _read(path, param), path
    try:
        book = shipped_book(variant)
    except BookError as exc:
        raise click.ClickException(f"the shipped {variant} book: {exc}") from None
    if book is None:
        raise click.ClickException(f"no book is shipped for {variant}")
    return book, f"shipped {variant} book"


def _position(variant: str, position: str | None, moves: str | None) -> Position:
    try:
        pos = Position.from_string(position) if position is not None else Position.start(variant)
    except (PositionError, ValueError) as exc:
        raise click.BadParameter(str(exc), param_hint="--position") from None
    for text in (moves or "").split():
        try:
            pos.push(parse_move(pos, text))
        except (NotationError, IllegalMoveError, ValueError) as exc:
            raise click.BadParameter(str(exc), param_hint="--moves") from None
    return pos


@click.group()
def book() -> None:
    """The engine's opening books: build, show, probe (docs/book.md)."""


@book.command()
@variant_option("The game whose book is built.")
@click.option("--plies", type=click.IntRange(1, 60), required=True,
              help="Length of the book's lines in plies: positions from the start to "
                   "one ply short of it get entries.")
@click.option("--depth", type=click.IntRange(1, 64), required=True,
              help="Search depth for each position.")
@click.option("--movetime", type=Seconds(), default=None,
              help="Also stop each search after this many seconds.")
@click.option("--margin", type=click.IntRange(0, 1000), default=15, show_default=True,
              help="Keep moves scoring at most this many centipawns below the best.")
@click.option("--alternatives", type=click.IntRange(1, 16), default=3, show_default=True,
              help="At most this many moves per position.")
@click.option("--max-positions", type=click.IntRange(1), default=None,
              help="Stop after searching this many new positions.")
@click.option("--out", "out", type=click.Path(dir_okay=False), required=True,
              help="The book file; entries already in it are kept and not searched again.")
def build(variant: str, plies: int, depth: int, movetime: float | None, margin: int,
          alternatives: int, max_positions: int | None, out: str) -> None:
    """Build (or extend) a book by searching from the start, breadth first."""
    from canter.adapters.book.build import BuildPlan
    from canter.adapters.book.build import build as run_build
    from canter.adapters.files import OutputPathError, check_output_file, write_all

    try:
        # Read, then added to: a device or a pipe holds no book (and reading a pipe that
        # nobody writes would wait for ever).
        check_output_file(out, append=True, regular=True)
    except OutputPathError as exc:
        raise click.BadParameter(str(exc), param_hint="--out") from None
    existing = _read(out, "--out", empty_ok=True) if os.path.exists(out) else Book()
    plan = BuildPlan(variant, plies, depth, movetime, margin, alternatives, max_positions)
    started = time.monotonic()
    try:
        fd = os.open(out, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError as exc:
        raise click.ClickException(f"{out}: {exc.strerror or 'cannot be written'}") from None

    def add(text: str) -> None:
        """Append whole lines, unbuffered: an entry is kept even if the build is then
        interrupted, and one the disk cannot take is cut off again, so the book (read
        again to go on) never ends inside a line."""
        end = os.lseek(fd, 0, os.SEEK_END)
        try:
            write_all(fd, text.encode("utf-8"))
        except OSError:
            os.ftruncate(fd, end)
            raise

    try:
        try:
            if not existing.entries and os.lseek(fd, 0, os.SEEK_END) == 0:
                add(f"# canter book, format 1: {variant}, {plies} plies, depth {depth}, "
                    f"margin {margin} cp, {alternatives} moves at most\n")
            elif not _ends_with_newline(out):
                add("\n")  # a last line without its end: the next entry starts its own
            searched, reached = run_build(plan, existing, lambda line: add(line + "\n"),
                                          lambda text: click.echo(text, err=True))
        except OSError as exc:  # a full disk: the entries written so far are kept
            raise click.ClickException(f"{out}: {exc.strerror or 'cannot be written'}; the "
                                       "entries before it are kept") from None
    finally:
        os.close(fd)
    click.echo(f"positions searched {searched}", err=True)
    click.echo(f"positions in the book along the walk {reached}", err=True)
    click.echo(f"seconds {time.monotonic() - started:.1f}", err=True)


@book.command()
@click.argument("path", required=False)
@variant_option("The game whose shipped book is shown (without PATH).")
@click.option("--lines", "count", type=click.IntRange(0), default=5, show_default=True,
              help="How many entries to print.")
def show(path: str | None, variant: str, count: int) -> None:
    """Summarise a book file (or the shipped book): positions, depths, a few entries."""
    book_, name = _book(path, variant, "PATH")
    entries = list(book_.entries.values())
    click.echo(f"book {name}")
    click.echo(f"positions {len(entries)}")
    if entries:
        depths: dict[int, int] = {}
        for entry in entries:
            depths[entry.depth] = depths.get(entry.depth, 0) + 1
        click.echo("depths " + ", ".join(f"{d}: {n}" for d, n in sorted(depths.items())))
        click.echo(f"moves {sum(len(e.moves) for e in entries)}")
        games = sorted({e.key.split()[0] for e in entries})
        click.echo("games " + ", ".join(games))
    for entry in entries[:count]:
        click.echo(format_entry(entry))


@book.command()
@click.option("--file", "path", default=None,
              help="A book file (default: the shipped book of the game).")
@variant_option("The game (its shipped book, and its start without --position).")
@click.option("--position", metavar="STRING", default=None,
              help="A position string (default: the start of the game).")
@click.option("--moves", metavar="MOVES", default=None,
              help="Moves played first, space-separated, e.g. \"D6-F8 H11-F9\".")
def probe(path: str | None, variant: str, position: str | None, moves: str | None) -> None:
    """Print the book's moves for a position, or "not in book"."""
    pos = _position(variant, position, moves)
    if path is None:
        variant = pos.variant.name
    book_, _ = _book(path, variant, "--file")
    key = position_key(pos)
    entry = book_.entries.get(key)
    click.echo(f"key {key}")
    if entry is None:
        click.echo("not in book")
        return
    found, problems = book_moves(entry, pos)
    for text, weight in spelled(pos, found):
        click.echo(f"{text} {weight}")
    for problem in problems:
        click.echo(problem, err=True)
    click.echo(f"score {entry.score} depth {entry.depth}")
    if not found:
        sys.exit(1)


def _ends_with_newline(path: str) -> bool:
    """Whether the file is empty or its last byte ends a line."""
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        if f.tell() == 0:
            return True
        f.seek(-1, os.SEEK_END)
        return f.read(1) == b"\n"
