"""`canter perft DEPTH` (count the move tree and time it) and `canter bench` (the search
speed signature: total nodes, time, nodes/s)."""

from __future__ import annotations

import time

import click

from canter.adapters.params import variant_option
from canter.engine.rules.notation import IllegalMoveError, NotationError, parse_move
from canter.engine.rules.perft import perft as count_tree
from canter.engine.rules.perft import perft_divide
from canter.engine.rules.position import Position
from canter.engine.rules.posstring import PositionError

# The searcher's deepest (alphabeta.MAX_DEPTH, as the protocol's `bench` allows; a test ties
# the two): a literal, so that the command line does not import the searcher to start.
BENCH_MAX_DEPTH = 60


class _NegativeDepthCommand(click.Command):
    """Unknown options are let through (so that `perft -1` is a DEPTH out of range, not an
    option), but a mistyped long option is still named as no option (`--divde`)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        known = {"--help"} | {name for p in self.params if isinstance(p, click.Option)
                              for name in (*p.opts, *p.secondary_opts)}
        for arg in args:
            if arg == "--":
                break
            if arg.startswith("--") and arg.split("=", 1)[0] not in known:
                raise click.NoSuchOption(arg.split("=", 1)[0], possibilities=sorted(known),
                                         ctx=ctx)
        return super().parse_args(ctx, args)


@click.command(cls=_NegativeDepthCommand, context_settings={"ignore_unknown_options": True})
@click.argument("depth", type=click.IntRange(0, 20))
@variant_option("The game whose start position is counted (ignored with --position).")
@click.option("--position", "position_string", metavar="STRING",
              help="Start from this position string instead of the start position.")
@click.option("--moves", "move_list", multiple=True, metavar="MOVE",
              help="Play these moves first (repeatable, or space-separated).")
@click.option("--divide", is_flag=True, help="One line per root move with its count.")
def perft(depth: int, variant: str, position_string: str | None, move_list: tuple[str, ...],
          divide: bool) -> None:
    """Count the distinct move sequences of length DEPTH, 0 to 20 (moves, never routes)."""
    try:
        pos = (Position.from_string(position_string) if position_string is not None
               else Position.start(variant))
    except (PositionError, ValueError) as exc:
        raise click.BadParameter(str(exc), param_hint="--position") from None
    for text in " ".join(move_list).split():
        try:
            pos.push(parse_move(pos, text))
        except (NotationError, IllegalMoveError, ValueError) as exc:
            raise click.BadParameter(str(exc), param_hint="--moves") from None
    started = time.perf_counter()
    if divide and depth > 0:
        rows = perft_divide(pos, depth)
        for text, n in rows:
            click.echo(f"{text}: {n}")
        nodes = sum(n for _, n in rows)
        click.echo("")
    else:
        nodes = count_tree(pos, depth)
    seconds = time.perf_counter() - started
    nps = nodes / seconds if seconds > 0 else 0.0
    click.echo(f"nodes {nodes}")
    click.echo(f"seconds {seconds:.3f}")
    click.echo(f"nps {nps:.0f}")


@click.command()
@click.option("--depth", type=click.IntRange(1, BENCH_MAX_DEPTH), default=None,
              help="Search depth per position (default: the bench's own).")
def bench(depth: int | None) -> None:
    """Search the fixed bench positions of the games; the node total is the signature."""
    from canter.engine.search.bench import run_bench

    result = run_bench(depth)
    nps = result.nodes / result.seconds if result.seconds > 0 else 0.0
    click.echo(f"positions {result.positions}")
    click.echo(f"nodes {result.nodes}")
    click.echo(f"seconds {result.seconds:.3f}")
    click.echo(f"nps {nps:.0f}")
