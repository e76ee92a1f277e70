"""Nodes the searcher needs to complete a fixed depth on the Camelot and Tri-Camelot
`bench` positions, with search switches set one set at a time against the defaults: what
killers and history save, what the table move first and PVS change, and what a candidate
switch (move order by advance, a cap on the capture extension) would save.

    python bench/ordering_nodes.py 3
    python bench/ordering_nodes.py 4                  # a minute or two
    python bench/ordering_nodes.py 4 --switch capext_max=1 --switch order_adv=1,capext_max=1

Each row is one set of switches (`--switch`, repeatable; commas join switches into one
set), with its nodes and the change against the defaults' row. The counts are exact:
searches to a fixed depth do not depend on the clock.
"""

from __future__ import annotations

import argparse

from benchargs import positive_int

from canter.engine.search.alphabeta import switch_changes
from canter.engine.search.bench import bench_positions
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher

VARIANTS = ("camelot", "tri-camelot")
# In Camelot the table move first and PVS are on (the selectivity); in Tri-Camelot off.
SWITCH_SETS = ("killers=0", "history=0", "ttmove=0", "pvs=0", "killers=0,history=0",
               "order_adv=1", "capext_max=1")


def switch_set(text: str) -> dict[str, int]:
    try:
        return switch_changes(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def nodes_to(depth: int, switches: dict[str, int]) -> dict[str, int]:
    """variant -> nodes to complete `depth` over its bench positions."""
    nodes = dict.fromkeys(VARIANTS, 0)
    for pos in bench_positions():
        if pos.variant.name not in nodes:
            continue
        searcher = Searcher()
        searcher._search.options = dict(switches)
        result = searcher.search(pos, Limits(depth=depth), lambda info: None, StopFlag())
        nodes[pos.variant.name] += result.info.nodes
    return nodes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("depth", type=positive_int, nargs="?", default=3)
    ap.add_argument("--switch", type=switch_set, action="append", metavar="NAME=VALUE,...",
                    help="a set of search switches for one row (repeatable; default: "
                         + "; ".join(SWITCH_SETS) + ")")
    args = ap.parse_args()
    sets = args.switch or [switch_changes(s) for s in SWITCH_SETS]
    base = nodes_to(args.depth, {})
    for switches in [{}, *sets]:
        nodes = base if not switches else nodes_to(args.depth, switches)
        name = ",".join(f"{k}={v}" for k, v in switches.items()) or "defaults"
        print(f"{name:28}" + "".join(
            f" {v} {nodes[v]:>9} ({100 * nodes[v] / max(1, base[v]) - 100:+.1f} %)"
            for v in VARIANTS), flush=True)


if __name__ == "__main__":
    main()
