"""`canter play`: a game in the terminal against the engine, or between people."""

from __future__ import annotations

import os
import shlex
import sys
from typing import TYPE_CHECKING

import click

from canter.adapters.params import Seconds, color_option, variant_option

if TYPE_CHECKING:
    from canter.engine.rules.variant import Rules

# Deeper than any engine searches, and node counts that fit the engines' 64-bit counters:
# a larger number is a typing slip, not a wish.
MAX_DEPTH = 1000
MAX_NODES = 2**63 - 1


def default_engine_command() -> list[str]:
    """This canter, started the way it is installed here."""
    return [sys.executable, "-m", "canter"]


@click.command(name="play")
@variant_option("The game (ignored with --position or --load).")
@click.option("--position", "position_text", metavar="POSITION",
              help="Start from this position string instead of the start position.")
@click.option("--load", "load_path", metavar="FILE",
              help="Go on from the last position of this game record.")
@click.option("--game", "game_number", type=click.IntRange(1), default=1, show_default=True,
              help="With --load: which game of a file with several.")
@click.option("--human", "human_text", metavar="SEATS",
              help="Seats typed at the terminal: a seat name, several separated by ',', "
                   "'all' (people only) or 'none' (the engine plays itself). "
                   "Default: the first seat (White, Blue in Tri-Camelot, Red in Grand Cam).")
@click.option("--engine", "engine_text", metavar="COMMAND",
              help="Engine command line (default: this canter).")
@click.option("--depth", type=click.IntRange(1, MAX_DEPTH), help="Engine search depth.")
@click.option("--movetime", type=Seconds(0.001, low_open=False),
              help="Engine time per move, in seconds.")
@click.option("--nodes", type=click.IntRange(1, MAX_NODES),
              help="Engine node limit per move.")
@click.option("--setoption", "setoptions", multiple=True, metavar="NAME=VALUE",
              help="An engine option, e.g. 'Skill Level=5' (repeatable). 'Rule ...' "
                   "options also set the rules the game is refereed by, e.g. "
                   "'Rule Repetition=claim' (then 'draw' claims a third repetition).")
@click.option("--clock", metavar="MIN[+SEC]",
              help="Clocks for every seat, e.g. 5+3: five minutes, 3 s added per move.")
@click.option("--save", "save_path", metavar="FILE",
              help="Write the game record to FILE when the game ends or is left.")
@color_option("the board")
def play(variant: str, position_text: str | None, load_path: str | None, game_number: int,
         human_text: str | None, engine_text: str | None, depth: int | None,
         movetime: float | None, nodes: int | None, setoptions: tuple[str, ...],
         clock: str | None, save_path: str | None, color: bool | None) -> None:
    """Play in the terminal. Type moves in official notation; 'help' lists the commands
    (moves, undo, hint, draw, resign, board, save FILE, load FILE [N], retry, help, quit).

    The engine (default: this canter) is started as a separate program and driven through
    the protocol; --depth, --movetime, --nodes and --clock set how long it thinks (1 s a
    move when none is given). The engine is started, and its options set, before the
    first move whenever it plays a seat or --engine is given: a command that cannot be
    started or an option it refuses ends the command at once, with status 1."""
    from canter.adapters.files import OutputPathError, check_output_file
    from canter.adapters.play.game import (
        EngineSettings,
        TerminalGame,
        check_replay,
        check_save_target,
        load_record,
        loaded_text,
        parse_clock,
        parse_seats,
        under_options,
    )
    from canter.engine import Position, PositionError, get_variant

    if position_text is not None and load_path is not None:
        raise click.UsageError("give --position or --load, not both")
    if game_number != 1 and load_path is None:
        raise click.UsageError("--game chooses a game of the file --load reads: give --load")
    if position_text is not None and not position_text.strip():
        raise click.BadParameter("empty: give a position string", param_hint="--position")
    if load_path is not None and not load_path.strip():
        raise click.BadParameter("empty: give a game-record file", param_hint="--load")
    if save_path is not None:
        try:  # before the game: a played game must not be lost at the end
            check_output_file(save_path)
            check_save_target(save_path, load_path)
        except (OutputPathError, ValueError) as exc:
            raise click.BadParameter(str(exc), param_hint="--save") from None
    try:
        command = (shlex.split(engine_text) if engine_text is not None
                   else default_engine_command())
    except ValueError as exc:  # an unclosed quotation
        raise click.BadParameter(f"{engine_text!r}: {exc}", param_hint="--engine") from None
    if not command:
        raise click.BadParameter("the engine command is empty", param_hint="--engine")
    options: dict[str, str] = {}
    for item in setoptions:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"'{item}' is not NAME=VALUE", param_hint="--setoption")
        options[name.strip()] = value.strip()
    moves = []
    tags: dict[str, str] = {}
    notes = None
    try:
        if load_path:
            start, moves, tags, notes, games = load_record(load_path, game_number)
            if games > 1:
                click.echo(loaded_text(load_path, len(moves), game_number, games), err=True)
        elif position_text:
            # Read under the Rule options: a position may be one only they allow (a piece
            # on a Grand Cam side castle under side_castles=own).
            start = Position.from_string(position_text,
                                         _rules_for(position_text, options))
        else:
            start = Position.start(get_variant(variant))
    except KeyError as exc:
        raise click.BadParameter(str(exc.args[0]), param_hint="--variant") from None
    except PositionError as exc:
        raise click.BadParameter(str(exc), param_hint="--position") from None
    except OSError as exc:
        raise click.BadParameter(f"{load_path}: {exc.strerror or exc}",
                                 param_hint="--load") from None
    except ValueError as exc:
        raise click.BadParameter(f"{load_path}: {exc}", param_hint="--load") from None
    v = start.variant
    try:
        humans = parse_seats(v, human_text) if human_text is not None else {0}
        clock_pair = parse_clock(clock) if clock else None
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        # The terminal referees the game too: it must end it where the engine would.
        start = under_options(start, options)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--setoption") from None
    try:
        check_replay(start, moves)
    except ValueError as exc:
        raise click.BadParameter(f"{load_path}: {exc}", param_hint="--load") from None
    _check_terminal(bool(humans))
    if color is None:
        color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    game = TerminalGame(
        start, moves, humans,
        EngineSettings(command, depth=depth, movetime=movetime, nodes=nodes, options=options),
        clock=clock_pair, color=color, tags=tags, notes=notes, save_path=save_path,
        clock_text=f"{clock_pair[0]:g}+{clock_pair[1]:g}" if clock_pair else None,
        loaded_from=load_path,
    )
    if humans != set(range(v.nseats)) or engine_text is not None:
        from canter.adapters.client.engine import EngineError

        try:
            game.open_engine()
        except EngineError as exc:
            why = str(exc)
            if command[0] not in why:
                why += f"; engine command: {shlex.join(command)}"
            raise click.ClickException(why) from None
        except KeyboardInterrupt:  # (as Ctrl-C in the game: not click's 'Aborted!', 1)
            click.echo("\ninterrupted before the game began")
            sys.exit(130)
    sys.exit(game.run())


def _rules_for(position_text: str, options: dict[str, str]) -> Rules | None:
    """The rulings of the string's game under the Rule options; None (the defaults) when
    either is bad, which the checks after reading report."""
    from canter.adapters.play.game import rules_from_options
    from canter.engine import get_variant

    try:
        variant = get_variant(position_text.split()[0])
        return rules_from_options(variant.default_rules, options)
    except (KeyError, IndexError, ValueError):
        return None


def _check_terminal(people: bool) -> None:
    """Refused at once, before an engine is started, with standard output closed (`>&-`:
    Python then has None for it), where the board and the moves go (and which the engine
    client needs), or, when `people` play, with standard input closed, where they type."""
    streams = [("output", sys.stdout)] + ([("input", sys.stdin)] if people else [])
    for name, stream in streams:
        try:
            ok = stream is not None and stream.fileno() >= 0
        except (OSError, ValueError):  # (io.UnsupportedOperation is both)
            ok = False
        if not ok:
            why = ("a person plays by typing at the prompt (--human none: the engine plays "
                   "itself)" if name == "input" else "the board and the moves are written "
                   "there")
            raise click.ClickException(f"standard {name} is closed: {why}")
