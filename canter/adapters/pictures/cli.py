"""`canter show`: draw a position or a game, as text or as pictures."""

from __future__ import annotations

import os
import sys

import click


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
    try:
        return Position.from_string(text), [], {}, False
    except PositionError as exc:
        if len(words) == 1:
            raise click.BadParameter(
                f"'{text}' is neither a file nor a position string ({exc})",
                param_hint="POSITION|GAME-FILE") from None
        raise click.BadParameter(str(exc), param_hint="POSITION") from None


def _load_game(path: str, game_number: int):
    from canter.adapters.records.format import (
        RecordError,
        ReplayError,
        game_positions,
        read_games_file,
    )

    try:
        games = read_games_file(path, allow_unterminated=True)
    except (OSError, UnicodeDecodeError, RecordError) as exc:
        raise click.BadParameter(f"{path}: {exc}", param_hint="GAME-FILE") from None
    if not games:
        raise click.BadParameter(f"{path}: no game in the file", param_hint="GAME-FILE")
    if not 1 <= game_number <= len(games):
        raise click.BadParameter(f"{path} has {len(games)} game(s), not {game_number}",
                                 param_hint="--game")
    game = games[game_number - 1]
    try:
        start, moves, _ = game_positions(game)
    except ReplayError as exc:
        raise click.BadParameter(f"{path}: {exc}", param_hint="GAME-FILE") from None
    return start, moves, dict(game.tags), True


@click.command(name="show")
@click.argument("source", nargs=-1, metavar="[POSITION|GAME-FILE]")
@click.option("--variant", default="camelot", show_default=True,
              help="Variant of the start position drawn when no argument is given.")
@click.option("--move", "move_texts", multiple=True, metavar="MOVE",
              help="Play this move (official notation) first; repeatable. The last one is "
                   "drawn as the last move.")
@click.option("--ply", type=int, metavar="N",
              help="Draw the position after N plies (0 = the start; default: the end). "
                   "Negative: that many plies before the end (-1 = before the last move, "
                   "-TOTAL = the start).")
@click.option("--game", "game_number", type=click.IntRange(1), default=1, show_default=True,
              help="Which game of a file with several.")
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False), metavar="OUT",
              help="Write the drawn position as SVG to OUT ('-' for standard output).")
@click.option("--svg-dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Write one SVG per ply: DIR/000.svg (start), DIR/001.svg, ...")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), metavar="OUT",
              help="Write one self-contained HTML page stepping through the game.")
@click.option("--color/--no-color", default=None,
              help="Colour the text board (default: when the output is a terminal).")
def show(source: tuple[str, ...], variant: str, move_texts: tuple[str, ...], ply: int | None,
         game_number: int, svg_path: str | None, svg_dir: str | None, html_path: str | None,
         color: bool | None) -> None:
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

    start, moves, tags, is_game = _load_source(source, variant, game_number)
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
    if ply is None:
        index = len(frames) - 1
    else:
        total = len(frames) - 1
        # --ply -K: K plies before the end, so the position after TOTAL - K plies
        index = ply if ply >= 0 else total + ply
        if not 0 <= index <= total:
            raise click.BadParameter(f"the game has {total} plies; {ply} is outside "
                                     f"-{total}..{total}", param_hint="--ply")
    shown, last = frames[index]
    wrote = False
    if svg_dir:
        os.makedirs(svg_dir, exist_ok=True)
        width = max(3, len(str(len(moves))))
        for i, picture in enumerate(svg.game_svgs(start, moves)):
            with open(os.path.join(svg_dir, f"{i:0{width}d}.svg"), "w", encoding="utf-8") as f:
                f.write(picture)
        click.echo(f"wrote {len(frames)} SVG files to {svg_dir}", err=True)
        wrote = True
    if html_path:
        title = _title(tags, start) if is_game else f"canter: {start.variant.name}"
        page = html.game_html(start, moves, title=title, tags=tags)
        _write(html_path, page)
        wrote = True
    if svg_path:
        _write(svg_path, svg.board_svg(shown, last))
        wrote = True
    if not wrote:
        if color is None:
            color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        # color=: click strips ANSI codes off a non-terminal unless told; --color says so
        click.echo(render(shown, color=color, last_move=last), color=color)
        if len(frames) > 1:
            click.echo(f"ply {index} of {len(frames) - 1}")


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


def _write(path: str, text: str) -> None:
    if path == "-":
        click.echo(text, nl=False)
        return
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        raise click.FileError(path, str(exc)) from None
