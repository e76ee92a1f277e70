"""`canter replay FILE...`: check every game of game-record files with the rules."""

from __future__ import annotations

import sys

import click

from canter.adapters.files import MAX_RECORDS_INPUT, InputTooLarge, read_at_most
from canter.adapters.records.format import (
    GameRecord,
    RecordError,
    decode_records,
    read_games,
    replay_game,
)


def _describe(game: GameRecord, outcome: str | None) -> str:
    why = outcome or game.tags.get("Reason") or game.tags.get("Termination")
    return f"{game.result} ({why})" if why else game.result


@click.command()
@click.argument("files", metavar="FILE...", nargs=-1, required=True)
def replay(files: tuple[str, ...]) -> None:
    """Validate every move of every game in FILE (a game-record file; '-' for stdin) with
    canter's rules, and print each game's final position string and result.

    Exits with status 1 if any game is invalid (its number, ply, move and reason are
    printed), 2 if a file cannot be read as game records (not UTF-8 text, no game in it,
    a malformed or cut-off record: one `Error:` line names the file and the line)."""
    total = invalid = 0
    unreadable = False
    for name in files:
        prefix = f"{name}: " if len(files) > 1 else ""
        number = 0
        try:
            # Opened one at a time: a file that cannot be read is one error line, and the
            # files after it are still checked.
            with click.open_file(name, "rb") as stream:
                data = read_at_most(stream, MAX_RECORDS_INPUT, "a game-record file")
        except OSError as exc:
            unreadable = True
            click.echo(f"Error: {name}: cannot read: {exc.strerror or exc}", err=True)
            continue
        except InputTooLarge as exc:
            unreadable = True
            click.echo(f"Error: {name}: cannot read: {exc}", err=True)
            continue
        try:
            text = decode_records(data)
            if not text.strip():
                unreadable = True
                click.echo(f"Error: {name}: no game in the file (it is empty)", err=True)
                continue
            found = 0
            for number, game in enumerate(read_games(text), start=1):
                found += 1
                total += 1
                result = replay_game(game)
                if result.error is None:
                    click.echo(
                        f"{prefix}game {number}: {result.final_position} "
                        f"result {_describe(game, result.outcome)}"
                    )
                    continue
                invalid += 1
                ply, move, reason = result.error
                if ply == 0 and move:
                    where = f"result {move}"
                elif ply == 0:
                    where = "start"
                else:
                    line = game.move_lines[ply - 1] if ply <= len(game.move_lines) else 0
                    where = f"ply {ply} (line {line}), move {move}"
                click.echo(f"{prefix}game {number}: INVALID at {where}: {reason}", err=True)
            if not found:  # (comments and escape lines only)
                unreadable = True
                click.echo(f"Error: {name}: no game in the file", err=True)
        except (RecordError, InputTooLarge) as exc:
            unreadable = True
            click.echo(f"Error: {name}: cannot read: {exc}", err=True)
    summary = f"{total} game{'s' if total != 1 else ''}, {invalid} invalid"
    click.echo(summary, err=True)
    if unreadable:
        sys.exit(2)
    if invalid:
        sys.exit(1)
