"""Search speed against a frozen build: CPU seconds of the same fixed-depth searches.

    python bench/search_speed.py --base REV [--depth 4] [--rounds 3] [--variant camelot]

REV (a sha, tag, `HEAD~3`, `main`) is installed into its own virtualenv by bench/frozen.py
(reused once built). Each round runs one process of each build in turn, the base first:
each searches the variant's positions of `canter bench` to --depth from a cleared
searcher and reports its nodes and the CPU seconds it used (`time.process_time`, search
only). A change of speed alone leaves the nodes equal, and the script says so when they
are not. The least time of the rounds is each build's figure, since other load on the
machine only ever adds time; the median and every round are printed too, so the spread
shows. On a busy machine the rounds of one build can differ by a fifth: run it idle.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys

from frozen import CHECKOUT, FreezeError, Parser, freeze

from canter.engine import VARIANT_NAMES

# Run by each build's own Python: only the public search API, so an older build runs it.
PROBE = """
import json, os, sys, time
import canter
from canter.engine.search.bench import bench_positions
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher
variant, depth = sys.argv[1], int(sys.argv[2])
nodes, cpu = 0, 0.0
for pos in bench_positions():
    if pos.variant.name != variant:
        continue
    searcher = Searcher()
    started = time.process_time()
    result = searcher.search(pos, Limits(depth=depth), lambda info: None, StopFlag())
    cpu += time.process_time() - started
    nodes += result.info.nodes
print(json.dumps({"nodes": nodes, "cpu": cpu, "package": os.path.dirname(canter.__file__)}))
"""


def measure(python: str, cwd: str | None, variant: str, depth: int) -> dict:
    """One process's {nodes, cpu, package}; a failing probe raises with its last line of
    error. Without `cwd` the probe runs isolated (`-I`): `python -c` would otherwise put
    the caller's folder first on the path, and from a checkout import its package, not
    the build's."""
    flags = [] if cwd else ["-I"]
    done = subprocess.run([python, *flags, "-c", PROBE, variant, str(depth)], cwd=cwd,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"{python} failed: {last}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, metavar="REV",
                        help="the build to compare with (a git revision)")
    parser.add_argument("--depth", type=int, default=4, help="search depth (default 4)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="processes of each build, run in turn (default 3)")
    parser.add_argument("--variant", choices=VARIANT_NAMES, default="camelot",
                        help="whose bench positions (default camelot)")
    args = parser.parse_args(argv)
    if args.depth < 1:
        parser.error(f"--depth must be at least 1, not {args.depth}")
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, not {args.rounds}")
    try:
        build = freeze(args.base)
    except FreezeError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    # The working tree runs from the checkout, so `canter` is this tree's package.
    runs = {f"base-{build.sha[:7]}": (str(build.python), None),
            "new": (sys.executable, str(CHECKOUT))}
    times: dict[str, list[float]] = {name: [] for name in runs}
    packages: dict[str, str] = {}
    nodes: dict[str, int] = {}
    print(f"{args.variant} bench positions, depth {args.depth}, {args.rounds} rounds")
    for round_no in range(1, args.rounds + 1):
        for name, (python, cwd) in runs.items():
            try:
                got = measure(python, cwd, args.variant, args.depth)
            except RuntimeError as exc:
                print(f"Error: {exc}", file=sys.stderr)
                return 1
            if round_no == 1:
                print(f"{name}: the package in {got['package']}")
                packages[name] = got["package"]
            nodes[name] = got["nodes"]
            times[name].append(got["cpu"])
            print(f"round {round_no}  {name:14} nodes {got['nodes']:>10,}  "
                  f"cpu {got['cpu']:7.2f} s", flush=True)
    (base_name, new_name) = runs
    if packages[base_name] == packages[new_name]:
        print(f"warning: both runs imported the package in {packages[new_name]}: "
              "the figures compare a build with itself")
    for label, pick in (("least", min), ("median", statistics.median)):
        old, new = pick(times[base_name]), pick(times[new_name])
        print(f"{label} cpu: {base_name} {old:.2f} s, new {new:.2f} s "
              f"({100 * (new / old - 1):+.1f} %)")
    if nodes[base_name] != nodes[new_name]:
        print(f"the searches differ: {nodes[base_name]:,} nodes against "
              f"{nodes[new_name]:,}, so the times are of different trees")
    else:
        print(f"same nodes ({nodes[new_name]:,}): the same search, only its speed differs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
