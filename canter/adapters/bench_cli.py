"""`canter bench [--depth N]`: the search speed signature (total nodes, time, nodes/s)."""

from __future__ import annotations

import click


@click.command()
@click.option("--depth", type=click.IntRange(1, 64), default=None,
              help="Search depth per position (default: the bench's own).")
def bench(depth: int | None) -> None:
    """Search the fixed bench positions of both games; the node total is the signature."""
    from canter.engine.bench import run_bench

    result = run_bench(depth)
    nps = result.nodes / result.seconds if result.seconds > 0 else 0.0
    click.echo(f"positions {result.positions}")
    click.echo(f"nodes {result.nodes}")
    click.echo(f"seconds {result.seconds:.3f}")
    click.echo(f"nps {nps:.0f}")
