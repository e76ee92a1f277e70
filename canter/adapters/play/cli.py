"""`canter play`: a game in the terminal against the engine, or between people."""

from __future__ import annotations

import os
import shlex
import sys

import click


def default_engine_command() -> list[str]:
    """This canter, started the way it is installed here."""
    return [sys.executable, "-m", "canter"]


@click.command(name="play")
@click.option("--variant", default="camelot", show_default=True,
              help="camelot or tri-camelot (ignored with --position or --load).")
@click.option("--position", "position_text", metavar="POSITION",
              help="Start from this position string instead of the start position.")
@click.option("--load", "load_path", metavar="FILE", type=click.Path(dir_okay=False),
              help="Go on from the last position of this game record.")
@click.option("--human", "human_text", metavar="SEATS",
              help="Seats typed at the terminal: a seat name, several separated by ',', "
                   "'all' (people only) or 'none' (the engine plays itself). "
                   "Default: the first seat (White or Blue).")
@click.option("--engine", "engine_text", metavar="COMMAND",
              help="Engine command line (default: this canter).")
@click.option("--depth", type=click.IntRange(1), help="Engine search depth.")
@click.option("--movetime", type=click.FloatRange(min=0.001, min_open=False),
              help="Engine time per move, in seconds.")
@click.option("--nodes", type=click.IntRange(1), help="Engine node limit per move.")
@click.option("--setoption", "setoptions", multiple=True, metavar="NAME=VALUE",
              help="An engine option, e.g. 'Skill Level=5' (repeatable). 'Rule ...' "
                   "options also set the rules the game is refereed by, e.g. "
                   "'Rule Repetition=claim' (then 'draw' claims a third repetition).")
@click.option("--clock", metavar="MIN[+SEC]",
              help="Clocks for every seat, e.g. 5+3: five minutes, 3 s added per move.")
@click.option("--save", "save_path", metavar="FILE", type=click.Path(dir_okay=False),
              help="Write the game record to FILE when the game ends or is left.")
@click.option("--color/--no-color", default=None,
              help="Colour the board (default: when the output is a terminal).")
def play(variant: str, position_text: str | None, load_path: str | None,
         human_text: str | None, engine_text: str | None, depth: int | None,
         movetime: float | None, nodes: int | None, setoptions: tuple[str, ...],
         clock: str | None, save_path: str | None, color: bool | None) -> None:
    """Play in the terminal. Type moves in official notation; 'help' lists the commands
    (moves, undo, hint, draw, board, save FILE, load FILE, quit).

    The engine (default: this canter) is started as a separate program and driven through
    the protocol; --depth, --movetime, --nodes and --clock set how long it thinks (1 s a
    move when none is given)."""
    from canter.adapters.play.game import (
        EngineSettings,
        TerminalGame,
        load_record,
        parse_clock,
        parse_seats,
        rules_from_options,
    )
    from canter.engine import Position, PositionError, get_variant

    if position_text and load_path:
        raise click.UsageError("give --position or --load, not both")
    moves = []
    tags: dict[str, str] = {}
    notes = None
    try:
        if load_path:
            start, moves, tags, notes = load_record(load_path)
        elif position_text:
            start = Position.from_string(position_text)
        else:
            start = Position.start(get_variant(variant))
    except KeyError as exc:
        raise click.BadParameter(str(exc.args[0]), param_hint="--variant") from None
    except PositionError as exc:
        raise click.BadParameter(str(exc), param_hint="--position") from None
    except (OSError, ValueError) as exc:
        raise click.BadParameter(f"{load_path}: {exc}", param_hint="--load") from None
    v = start.variant
    try:
        humans = parse_seats(v, human_text) if human_text is not None else {0}
        clock_pair = parse_clock(clock) if clock else None
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    options: dict[str, str] = {}
    for item in setoptions:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"'{item}' is not NAME=VALUE", param_hint="--setoption")
        options[name.strip()] = value.strip()
    try:
        # The terminal referees the game too: it must end it where the engine would.
        start.rules = rules_from_options(start.rules, options)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--setoption") from None
    command = shlex.split(engine_text) if engine_text else default_engine_command()
    if not command:
        raise click.BadParameter("empty command", param_hint="--engine")
    if color is None:
        color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    game = TerminalGame(
        start, moves, humans,
        EngineSettings(command, depth=depth, movetime=movetime, nodes=nodes, options=options),
        clock=clock_pair, color=color, tags=tags, notes=notes, save_path=save_path,
        clock_text=f"{clock_pair[0]:g}+{clock_pair[1]:g}" if clock_pair else None,
    )
    sys.exit(game.run())
