"""The `canter` command line.

Started bare, `canter` is an engine speaking the line protocol on stdin/stdout, the way
arbiters and GUIs expect. Subcommands are loaded lazily so that a bare start stays fast.
"""

from __future__ import annotations

import importlib

import click

# name -> (module, attribute, one-line help). Each module owns its click command.
_MEASURE, _ARBITER = "canter.adapters.measure.cli", "canter.adapters.arbiter.cli"
SUBCOMMANDS: dict[str, tuple[str, str, str]] = {
    "perft": (_MEASURE, "perft", "Count the move tree (move generator test)."),
    "book": ("canter.adapters.book.cli", "book", "Build, show and probe opening books."),
    "solve": ("canter.adapters.solve.cli", "solve", "Prove game values (Camette)."),
    "tables": ("canter.adapters.tables.cli", "tables",
               "Build, probe and list the endgame tables."),
    "bench": (_MEASURE, "bench", "Search fixed positions; print nodes and nps."),
    "match": (_ARBITER, "match", "Play a match between engines."),
    "tournament": (_ARBITER, "tournament", "Round-robin or gauntlet."),
    "compliance": (_ARBITER, "compliance", "Protocol conformance run."),
    "replay": ("canter.adapters.records.cli", "replay", "Validate a game-record file."),
    "transcript": ("canter.adapters.transcript.cli", "transcript", "Record/replay sessions."),
    "play": ("canter.adapters.play.cli", "play", "Play in the terminal."),
    "show": ("canter.adapters.pictures.cli", "show", "Draw a position or game (text or SVG)."),
    "gui": ("canter.adapters.gui.cli", "gui", "Play, watch and analyse in the browser."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        entry = SUBCOMMANDS.get(name)
        if entry is None:
            return None
        module_name, attr, _ = entry
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            return _unavailable(name)
        return getattr(module, attr)

    def invoke(self, ctx: click.Context) -> object:
        # Ctrl-C in a command that does not handle it (perft, bench, book build, tables
        # build, ...): exit 130, as the shells and the commands that handle it do, not
        # click's "Aborted!" and 1, which a script cannot tell from a failure. What such a
        # command writes is written whole as it goes, so there is nothing to save.
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("Interrupted", err=True)
            ctx.exit(130)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, SUBCOMMANDS[name][2]) for name in sorted(SUBCOMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _unavailable(name: str) -> click.Command:
    @click.command(name=name)
    def command() -> None:
        raise click.ClickException(f"'{name}' is not available in this build")

    return command


# `-h` as well as `--help`, as most command-line tools (and cutechess-cli) accept; the
# setting is inherited by every subcommand's context.
@click.group(cls=LazyGroup, invoke_without_command=True,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="canter")
@click.pass_context
def main(ctx: click.Context) -> None:
    """canter: the engine for the Camelot family (Camelot, Tri-Camelot, Cam, Camette,
    Chivalry, Grand Cam).

    With no command, run the engine on its line protocol (stdin/stdout).
    """
    if ctx.invoked_subcommand is None:
        from canter.protocol.main import run

        ctx.exit(run())
