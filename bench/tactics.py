"""How many positions of a tactics suite an engine solves in a given time.

    python bench/tactics.py --st 1 [bench/tactics-camelot.txt ...] [--engine CMD]
        [--option "Search Switches=capext=1" ...]

A suite has one position per line (bench/find_tactics.py writes them):
`<position string> bm <move> [; ...]`; `#` lines are comments. Each position is searched
with `go movetime` by an engine process (any engine that speaks canter's protocol); it is
solved when the engine's move is the `bm` move (any spelling of it: the rules library
compares the moves). Prints a line per failed position, then the solve rate and the mean
depth reached.
"""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from benchargs import DEFAULT_ENGINE, engine_env, existing_path, positive_float
from strength import option_pairs

from canter.adapters.client import Engine, EngineError, Limit
from canter.engine import Position, parse_move
from canter.engine.rules.notation import NotationError

HERE = Path(__file__).resolve().parent

Entry = tuple[str, str, str]  # position string, the suite's move, source


def suite_entries(path: Path) -> list[Entry]:
    """(position string, best move, source) per line; the source is '' when the line
    names none."""
    suite = []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SystemExit(f"Error: {path}: not a suite file "
                         f"({getattr(exc, 'strerror', None) or exc})") from None
    for number, line in enumerate(text.splitlines(), start=1):
        head, *fields = [part.strip() for part in line.split(";")]
        if not head or head.startswith("#"):
            continue
        position, sep, move = head.partition(" bm ")
        if not sep or not move.strip():
            raise SystemExit(f"{path}:{number}: expected '<position string> bm <move>'")
        # Checked here, before the engine starts: a bad position would otherwise be a
        # traceback halfway through the suite, and a `bm` that is no move at all (a typo,
        # a cell of no board) a miss that no engine could ever solve. A well-formed move
        # that is not legal there stays a miss, as any move the engine does not play.
        try:
            pos = Position.from_string(position.strip())
        except ValueError as exc:
            raise SystemExit(f"{path}:{number}: not a position string ({exc})") from None
        try:
            parse_move(pos, move.strip())
        except NotationError as exc:
            raise SystemExit(f"{path}:{number}: bm {move.strip()} is not a move "
                             f"({exc})") from None
        except ValueError:
            pass
        source = next((f.split(None, 1)[1] for f in fields
                       if f.startswith("source ") and len(f.split(None, 1)) == 2), "")
        suite.append((position.strip(), move.strip(), source))
    return suite


def read_suite(path: Path) -> list[tuple[str, str]]:
    """(position string, best move) per line."""
    return [(position, move) for position, move, _ in suite_entries(path)]


def same_move(position: str, a: str, b: str) -> bool:
    pos = Position.from_string(position)
    try:
        return parse_move(pos, a) == parse_move(pos, b)
    except ValueError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("suites", nargs="*", type=existing_path,
                        help="suite files (default: bench/tactics-*.txt)")
    parser.add_argument("--st", type=positive_float, default=1.0, help="seconds per position")
    parser.add_argument("--engine", default=DEFAULT_ENGINE,
                        help="the engine's command (default: this checkout's)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an engine option to set before the suite (repeatable)")
    args = parser.parse_args()
    options = dict(option_pairs(parser, "--option", args.option))
    suites = args.suites or sorted(HERE.glob("tactics-*.txt"))
    if not suites:
        raise SystemExit("no suite: give a file, or make one with bench/find_tactics.py")
    # Every suite is read, and checked, before the engine starts: a bad line is said at
    # once, not after the suites before it have been played.
    read = [(path, read_suite(path)) for path in suites]
    try:
        engine_cm = Engine.start(shlex.split(args.engine), env=engine_env(args.engine))
    except (OSError, EngineError) as error:
        raise SystemExit(f"Error: --engine {args.engine}: {error}") from None
    with engine_cm as engine:
        try:
            engine.configure(options)
        except ValueError as error:
            raise SystemExit(f"--option: {error}") from None
        for path, suite in read:
            solved, depths = 0, []
            for position, best in suite:
                result = engine.play(position, Limit(movetime=args.st))
                if result.info.depth is not None:
                    depths.append(result.info.depth)
                if result.move is not None and same_move(position, result.move, best):
                    solved += 1
                else:
                    print(f"  missed: {position} bm {best}, played {result.move}")
            mean = sum(depths) / len(depths) if depths else 0.0
            rate = 100.0 * solved / len(suite) if suite else 0.0
            print(f"{path.name}: {solved} of {len(suite)} solved ({rate:.1f} %) at "
                  f"{args.st:g} s a position, mean depth {mean:.1f}")


if __name__ == "__main__":
    main()
