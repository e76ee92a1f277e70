"""`canter show`: draw a position or a game, as text or as pictures."""

from __future__ import annotations

import os
import re
import sys

import click

from canter.adapters.params import color_option, variant_option


def _load_source(words: tuple[str, ...], variant: str, game_number: int):
    """(start position, moves, tags, is_game) from the command-line argument."""
    from canter.engine import Position, PositionError, get_variant

    text = " ".join(words).strip()
    if not text or text.lower() == "startpos":
        try:
            return Position.start(get_variant(variant)), [], {}, False
        except KeyError as exc:
            raise click.BadParameter(str(exc.args[0]), param_hint="--variant") from None
    if len(words) == 1 and os.path.exists(text):
        return _load_game(text, game_number)
    from canter.engine.rules.text import shorten

    if len(words) == 1 and " " not in text:
        # a position string has eight fields: one word can only have been meant as a file
        raise click.BadParameter(f"{text}: no such file (and not a position string)",
                                 param_hint="GAME-FILE")
    try:
        return Position.from_string(text), [], {}, False
    except PositionError as exc:
        if len(words) == 1:
            raise click.BadParameter(
                f"'{shorten(text)}' is neither a file nor a position string ({exc})",
                param_hint="POSITION|GAME-FILE") from None
        raise click.BadParameter(str(exc), param_hint="POSITION") from None


def _load_game(path: str, game_number: int):
    from canter.adapters.files import InputTooLarge
    from canter.adapters.records.format import (
        RecordError,
        ReplayError,
        game_positions,
        read_games_file,
    )

    if os.path.isdir(path):
        raise click.BadParameter(f"{path} is a folder, not a game-record file",
                                 param_hint="GAME-FILE")
    try:
        games = read_games_file(path, allow_unterminated=True)
    except OSError as exc:
        raise click.BadParameter(f"{path}: {exc.strerror or exc}",
                                 param_hint="GAME-FILE") from None
    except (RecordError, InputTooLarge) as exc:
        raise click.BadParameter(f"{path}: {exc}", param_hint="GAME-FILE") from None
    if not games:
        raise click.BadParameter(f"{path}: no game in the file", param_hint="GAME-FILE")
    if not games[0].tags and not games[0].moves:
        raise click.BadParameter(f"{path}: not a game-record file (no tags, no moves)",
                                 param_hint="GAME-FILE")
    if not 1 <= game_number <= len(games):
        count = f"{len(games)} game{'s' if len(games) != 1 else ''}"
        raise click.BadParameter(f"{path} has {count}, not {game_number}",
                                 param_hint="--game")
    game = games[game_number - 1]
    try:
        start, moves, _ = game_positions(game)
    except ReplayError as exc:
        raise click.BadParameter(f"{path}: {exc}", param_hint="GAME-FILE") from None
    return start, moves, dict(game.tags), True


@click.command(name="show")
@click.argument("source", nargs=-1, metavar="[POSITION|GAME-FILE]")
@variant_option("The game whose start position is drawn when no argument is given.")
@click.option("--move", "move_texts", multiple=True, metavar="MOVE",
              help="Play this move (official notation) first, from the end or from the "
                   "position --ply chooses; repeatable. The last one is drawn as the last "
                   "move.")
@click.option("--ply", type=int, metavar="N",
              help="Draw the position after N plies (0 = the start; default: the end). "
                   "Negative: that many plies before the end (-1 = before the last move, "
                   "-TOTAL = the start).")
@click.option("--game", "game_number", type=click.IntRange(1), default=1, show_default=True,
              help="Which game of a file with several.")
@click.option("--svg", "svg_path", metavar="OUT",
              help="Write the drawn position as SVG to OUT ('-' for standard output).")
@click.option("--svg-dir", metavar="DIR",
              help="Write one SVG per ply: DIR/000.svg (start), DIR/001.svg, ...")
@click.option("--html", "html_path", metavar="OUT",
              help="Write one self-contained HTML page stepping through the game.")
@click.option("--view", "view_seat", metavar="SEAT",
              help="SVG/HTML: turn a square board so that this seat's castle is at the "
                   "bottom (e.g. blue in Grand Cam; default: rank 1 at the bottom).")
@color_option("the text board")
def show(source: tuple[str, ...], variant: str, move_texts: tuple[str, ...], ply: int | None,
         game_number: int, svg_path: str | None, svg_dir: str | None, html_path: str | None,
         view_seat: str | None, color: bool | None) -> None:
    """Draw a position (a position string; no argument: the start of --variant) or a game
    (a game-record file) as a text board, or as SVG/HTML with --svg, --svg-dir, --html.

    Pictures show the cells (squares or hexagons), the castles, the pieces in their seat's
    colour, the coordinates, and the last move as an arrow along its route with the
    captured cells crossed out."""
    from canter.adapters.pictures import html, svg
    from canter.engine import (
        AmbiguousMoveError,
        IllegalMoveError,
        NotationError,
        parse_move,
    )
    from canter.engine.rules.textboard import render

    if view_seat is not None and not (svg_path or svg_dir or html_path):
        raise click.BadParameter("turns pictures only (--svg, --svg-dir, --html); the text "
                                 "board always has rank 1 at the bottom", param_hint="--view")
    _check_outputs(svg_path, svg_dir, html_path, source)
    start, moves, tags, is_game = _load_source(source, variant, game_number)
    if not is_game and game_number != 1:
        # (as play's --game without --load: a position has no games to choose from)
        raise click.BadParameter("chooses a game of a game-record file; a position string "
                                 "or the start has none", param_hint="--game")
    if move_texts and ply is not None:
        # --move plays on from the position --ply chose: a line of one's own from there.
        moves = moves[:_ply_index(ply, len(moves))]
        ply = None
    pos = start.copy()
    for move in moves:
        pos.push(move)
    for text in move_texts:
        try:
            move = parse_move(pos, text)
        except (NotationError, IllegalMoveError, AmbiguousMoveError) as exc:
            raise click.BadParameter(str(exc), param_hint="--move") from None
        pos.push(move)
        moves.append(move)
    frames = svg.game_frames(start, moves)
    index = len(frames) - 1 if ply is None else _ply_index(ply, len(frames) - 1)
    shown, last = frames[index]
    view = None
    if view_seat is not None:
        v = start.variant
        try:
            view = v.seat_index(view_seat)
        except KeyError:
            seats = ", ".join(seat.name for seat in v.seats)
            raise click.BadParameter(f"{view_seat!r} is not a seat of {v.name} ({seats})",
                                     param_hint="--view") from None
        if len(v.board.directions) == 6:
            raise click.BadParameter("a hexagonal board turns only in the browser "
                                     "(canter gui)", param_hint="--view")
    wrote = False
    if svg_dir:
        from canter.adapters.files import make_output_folder

        width = max(3, len(str(len(moves))))
        names = [os.path.join(svg_dir, f"{i:0{width}d}.svg") for i in range(len(frames))]
        for name in names:  # every frame's file first: none written if one is the user's
            _check_own("--svg-dir", name)
            if os.path.isdir(name):
                raise click.BadParameter(f"{name} is a folder, not a picture",
                                         param_hint="--svg-dir")
        try:
            make_output_folder(svg_dir)
        except OSError as exc:
            raise click.ClickException(f"cannot make the folder {svg_dir}: "
                                       f"{exc.strerror or exc}") from None
        for name, picture in zip(names, svg.game_svgs(start, moves, view), strict=True):
            _write(name, picture, FRAME_MARK)
        click.echo(f"wrote {len(frames)} SVG files to {svg_dir}", err=True)
        _remove_old_frames(svg_dir, names)
        wrote = True
    if html_path:
        title = _title(tags, start) if is_game else f"canter: {start.variant.name}"
        page = html.game_html(start, moves, title=title, tags=tags, view=view)
        _write(html_path, page)
        wrote = True
    if svg_path:
        _write(svg_path, svg.board_svg(shown, last, view=view))
        wrote = True
    if not wrote:
        if color is None:
            color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        # color=: click strips ANSI codes off a non-terminal unless told; --color says so
        click.echo(render(shown, color=color, last_move=last), color=color)
        if len(frames) > 1:
            click.echo(f"ply {index} of {len(frames) - 1}")


def _ply_index(ply: int, total: int) -> int:
    """The plies played for `--ply` in a game of `total` plies (-K: K before the end)."""
    index = ply if ply >= 0 else total + ply
    if total == 0 and ply != 0:
        raise click.BadParameter(f"{ply}: no move has been played, so 0 is the only ply",
                                 param_hint="--ply")
    if not 0 <= index <= total:
        plies = f"{total} pl{'ies' if total != 1 else 'y'}"
        raise click.BadParameter(f"the game has {plies}; {ply} is outside "
                                 f"-{total}..{total}", param_hint="--ply")
    return index


def _title(tags: dict[str, str], start) -> str:
    from canter.adapters.records.format import SEAT_TAGS

    names = [tags.get(seat, "?") for seat in SEAT_TAGS.get(start.variant.name, ())]
    event = tags.get("Event", "")
    head = " vs ".join(names)
    if event and event != "?":
        head += f" ({event})"
    result = tags.get("Result")
    if result and result != "*":
        head += f" {result}"
    return head


def _check_outputs(svg_path: str | None, svg_dir: str | None, html_path: str | None,
                   source: tuple[str, ...] = ()) -> None:
    """Every output can be written, and none is the game file being drawn or the other
    output: found out before anything is drawn."""
    from canter.adapters.files import (
        OutputPathError,
        check_output_file,
        check_output_folder,
        same_file,
    )

    if (svg_path not in (None, "-") and html_path not in (None, "-")
            and same_file(svg_path, html_path)):
        raise click.UsageError(f"--svg and --html both name {svg_path}: give two files")
    for option, path in (("--svg", svg_path), ("--html", html_path)):
        if path is None or path == "-":
            continue
        if len(source) == 1 and os.path.isfile(source[0]) and same_file(path, source[0]):
            raise click.BadParameter(f"{path} is the game file being drawn: writing it would "
                                     "destroy the game", param_hint=option)
        if svg_dir is not None and _is_frame_name(path, svg_dir):
            # The frames are written first and this file after them, over one of them (or a
            # frame of a longer game later): told before anything is written.
            raise click.BadParameter(f"{path} is a frame --svg-dir {svg_dir} writes (its "
                                     "frames are DIR/000.svg, DIR/001.svg, ...): give a "
                                     "file of another name", param_hint=option)
        try:
            check_output_file(path)
        except OutputPathError as exc:
            raise click.BadParameter(str(exc), param_hint=option) from None
        _check_own(option, path)
    if svg_dir is not None:
        try:
            check_output_folder(svg_dir)
        except OutputPathError as exc:
            raise click.BadParameter(str(exc), param_hint="--svg-dir") from None


def _is_frame_name(path: str, folder: str) -> bool:
    """Is `path` a numbered SVG file in `folder`, a name --svg-dir's frames take? Compared
    by their real paths (fr/./000.svg, a link to the folder), which exist or not."""
    if not FRAME_NAME.fullmatch(os.path.basename(path)):
        return False
    return (os.path.realpath(os.path.dirname(path) or os.curdir)
            == os.path.realpath(folder))


# The mark of a picture or page written to a file, by which a later run knows the file as
# its own to replace (any other file there is the user's, and is refused).
MARK = "<!-- drawn by canter show -->"
# A frame of --svg-dir carries a mark of its own, by which a later --svg-dir knows the
# frames it may clear away, never a picture drawn with --svg into the same folder.
FRAME_MARK = "<!-- drawn by canter show: a frame of --svg-dir -->"
FRAME_NAME = re.compile(r"[0-9]{3,}\.svg")  # --svg-dir's frames: 000.svg, 001.svg, ...


def _marked(text: str, mark: str = MARK) -> str:
    head, newline, rest = text.partition("\n")
    if head.startswith("<!DOCTYPE"):  # (nothing may come before a doctype)
        return f"{head}\n{mark}\n{rest}"
    return f"{mark}\n{text}"


def _check_own(option: str, path: str) -> None:
    from canter.adapters.files import OutputPathError, check_own_file

    try:
        check_own_file(path, (MARK.encode(), FRAME_MARK.encode()),
                       "a picture or page canter show drew")
    except OutputPathError as exc:
        raise click.BadParameter(str(exc), param_hint=option) from None


def _remove_old_frames(folder: str, written: list[str]) -> None:
    """Frames an earlier `--svg-dir` left in the folder (a longer game, another width of
    number) would play on after this game's: canter's own are removed; any other file is
    left as it is and named."""
    keep = {os.path.basename(name) for name in written}
    removed, foreign = 0, []
    for entry in sorted(os.listdir(folder)):
        path = os.path.join(folder, entry)
        if entry in keep or not FRAME_NAME.fullmatch(entry) or not os.path.isfile(path):
            continue
        if not _drawn_here(path):
            foreign.append(entry)
            continue
        try:
            os.remove(path)
            removed += 1
        except OSError as exc:
            click.echo(f"warning: cannot remove the old frame {path}: "
                       f"{exc.strerror or exc}", err=True)
    if removed:
        click.echo(f"removed {removed} frame{'s' if removed != 1 else ''} of an earlier "
                   f"drawing from {folder}", err=True)
    if foreign:
        click.echo(f"warning: {folder} also holds {len(foreign)} numbered SVG file"
                   f"{'s' if len(foreign) != 1 else ''} canter did not draw "
                   f"({', '.join(foreign[:3])}{', ...' if len(foreign) > 3 else ''}); "
                   "they are left as they are", err=True)


def _drawn_here(path: str) -> bool:
    """Is the file a frame --svg-dir drew (its mark on its first or second line)?"""
    from canter.adapters.files import starts_with_mark

    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return starts_with_mark(head, (FRAME_MARK.encode(),))


def _write(path: str, text: str, mark: str = MARK) -> None:
    """Write a whole picture or page; a half-written file never replaces an old one."""
    from canter.adapters.files import replace_file

    if path == "-":
        click.echo(text, nl=False)
        return
    try:
        replace_file(path, _marked(text, mark))
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror or exc}") from None
