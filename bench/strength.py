"""The standard strength test: this working tree's engine against a frozen earlier build.

    python bench/strength.py --base REV
        [--variant camelot|cam|camette|chivalry|grand-cam|tri-camelot]
        [--tc 10+0.1 | --st 1] [--concurrency 2] [--games N] [--pgn FILE] [--change TEXT]
        [--option NAME=VALUE ...] [--base-option NAME=VALUE ...]

REV (a sha, tag, `HEAD~3`, `main`) is installed into its own virtualenv by bench/frozen.py
(reused once built). `canter match` then plays `python -m canter` of this checkout (`new`)
against it, from shipped openings: `bench/openings-camelot-2ply.txt` (600 level 2-ply
starts), `bench/openings-chivalry-2ply.txt` (300) and `bench/openings-tri-camelot-6ply.txt`
(334 level 6-ply starts), so that a run of 1,000 games plays each start once or twice in
each seat: engines that search by the clock replay much the same game from the same start,
and a small book spends a long run on repeats (Cam and Camette play the built-in book).
`--openings FILE` plays another file (`bench/openings-camelot-sprt.txt`, the 40-opening
book of the Camelot runs up to the pair race, resumes those), `--openings builtin` the
built-in book (which resumes the runs before 2026-11-25):
- The two-seat games (Camelot, Cam, Camette, Chivalry): SPRT elo0=0 elo1=5 alpha=0.05
  beta=0.05, stopping at the first decision or at --games (default 20,000); with --fixed,
  no SPRT: exactly --games games (default 1,000), the verdict from the likelihood of
  superiority (the acceptance of a whole piece of work over at least 1,000 games, whatever
  an SPRT would have decided on the way);
- Grand Cam: new plays a whole team against the base (the arbiter's --teams), from
  `bench/openings-grand-cam-4ply.txt` (100 level 4-ply starts), each once with new on each
  team; the same SPRT over those pairs of games, or --fixed;
- Tri-Camelot: new against two copies of the base, the same SPRT over new's pairwise
  score per game (1 for finishing ahead of a base, 1/2 for sharing its place, 0 for
  finishing behind, averaged over the two), stopping at the first decision or at --games
  (default 1,002: 334 openings in all three seat rotations), which is judged by the
  likelihood of superiority; with --fixed, no SPRT: exactly --games games.
--option sets an engine option of `new` (e.g. `--base HEAD --option
EvalFile=bench/texel-camelot.json` tests a weight set against the same build); an existing
path in a value is made absolute. Give --pgn to be able to resume: the same command with
the same file plays only the missing games (and a decided SPRT does not play on). Ctrl-C
or SIGTERM stops a run and still prints its row. The last line is a row for the results
table in docs/search.md ("Testing at real limits").
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from frozen import CHECKOUT, FreezeError, Parser, freeze

# This checkout's package, whether or not it is installed: the test is of this tree.
sys.path.insert(0, str(CHECKOUT))

from canter.adapters.arbiter.stats import pairwise_score, scores_elo  # noqa: E402
from canter.adapters.arbiter.tc import TimeControl  # noqa: E402

SPRT = "elo0=0 elo1=5 alpha=0.05 beta=0.05"
BUILTIN = "builtin"  # --openings: the arbiter's built-in book of the variant
DEFAULT_OPENINGS = {
    "camelot": Path(__file__).resolve().parent / "openings-camelot-2ply.txt",
    "chivalry": Path(__file__).resolve().parent / "openings-chivalry-2ply.txt",
    "grand-cam": Path(__file__).resolve().parent / "openings-grand-cam-4ply.txt",
    "tri-camelot": Path(__file__).resolve().parent / "openings-tri-camelot-6ply.txt",
}
# Two seats, and Grand Cam with an engine a team (the arbiter's --teams): the pentanomial
# SPRT over pairs of games; Tri-Camelot: the SPRT over new's pairwise score per game.
TWO_SEATS = ("camelot", "cam", "camette", "chivalry")
TEAMS = ("grand-cam",)
PAIRED = (*TWO_SEATS, *TEAMS)
VARIANTS = (*PAIRED, "tri-camelot")
SPRT_GAMES = 20_000  # the cap of an SPRT that has not decided
TRI_GAMES = 1_002  # 334 rounds of three rotations
MIN_GAMES = 1_000  # fewer games without an SPRT decision decide nothing
FIXED_GAMES = MIN_GAMES  # --fixed: games played when --games is not given
KEEP_LOS = 0.95  # without an SPRT decision: kept when the gain is this likely
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Limit:
    kind: str  # "tc", "st" or "nodes" (the last for tests of the script only)
    value: str

    def __str__(self) -> str:
        return f"{self.kind} {self.value}"


def engine_field(command: list[str], name: str, directory: Path | None = None,
                 options: tuple[tuple[str, str], ...] = ()) -> str:
    """One `--engine` value; quoted so that paths with spaces survive the arbiter's split."""
    if len(command) == 1:
        # a single command word is split again by the arbiter: quote it twice
        words = ["cmd=" + shlex.quote(command[0])]
    else:
        words = ["cmd=" + command[0], *command[1:]]
    words.append(f"name={name}")
    if directory is not None:
        words.append(f"dir={directory}")
    words += [f"option.{key}={value}" for key, value in options]
    return shlex.join(words)


def base_names(variant: str, sha: str) -> list[str]:
    name = f"base-{sha[:7]}"
    return [name] if variant in PAIRED else [name, f"{name}-2"]


def match_command(*, python: str, base_command: str, base_sha: str, variant: str,
                  limit: Limit, concurrency: int, games: int, pgn: str | None,
                  json_path: str, timemargin: int | None = None,
                  checkout: Path = CHECKOUT, options: tuple[tuple[str, str], ...] = (),
                  base_options: tuple[tuple[str, str], ...] = (),
                  openings: str | None = None, fixed: bool = False) -> list[str]:
    """The `canter match` command line of the test. The working tree's engine runs in the
    checkout (`checkout_env` puts the copy of the package taken at the start first, so
    `-m canter` imports that whatever the caller's folder).
    `openings`: a file, or None for the variant's built-in book. `fixed`: a run
    without the SPRT (two seats or three)."""
    command = [python, "-m", "canter", "match", "--variant", variant,
               "--engine", engine_field([python, "-m", "canter"], "new", checkout, options)]
    for name in base_names(variant, base_sha):
        command += ["--engine", engine_field([base_command], name, None, base_options)]
    if variant in TEAMS:
        command.append("--teams")  # new plays both seats of a team, the base the other two
    command += [f"--{limit.kind}", limit.value, "--concurrency", str(concurrency),
                "--games", str(games)]
    if timemargin is not None:
        command += ["--timemargin", str(timemargin)]
    if openings is not None:
        command += ["--openings", openings]
    if not fixed:
        command += ["--sprt", SPRT]
    if pgn is not None:
        command += ["--pgn", pgn]
    command += ["--json", json_path]
    return command


def checkout_env(environ: dict[str, str] | None = None, root: Path = CHECKOUT
                 ) -> dict[str, str]:
    """The arbiter's environment: `root` (this checkout, or a copy of its package) first
    on PYTHONPATH, so `python -m canter match` and `new` are that code from any folder,
    installed or not. PYTHONSAFEPATH keeps `python -m` from putting its folder (`new`
    runs in the checkout) before it. The base is not touched by it: a frozen build runs
    isolated (frozen.write_launcher)."""
    env = dict(os.environ if environ is None else environ)
    rest = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(root) + (os.pathsep + rest if rest else "")
    env["PYTHONSAFEPATH"] = "1"
    return env


SCRATCH_PREFIX = "canter-strength-"
OWNER_FILE = "owner.pid"


def sweep_scratch(folder: Path | None = None) -> list[Path]:
    """Remove the scratch folders (each with its copy of the package, about 3 MB) that
    runs killed outright (SIGKILL, a machine's OOM killer) left behind: those whose
    `owner.pid` names a process that is gone. A folder without the file, or whose owner
    still runs (or whose number now belongs to another process), is kept. Returns those
    removed."""
    folder = Path(tempfile.gettempdir()) if folder is None else folder
    removed = []
    for path in folder.glob(SCRATCH_PREFIX + "*"):
        try:
            pid = int((path / OWNER_FILE).read_text(encoding="ascii"))
            os.kill(pid, 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
        except (OSError, ValueError):
            continue  # no owner file, unreadable, or a process of another user: keep it
    return removed


def snapshot_package(dest: Path, checkout: Path = CHECKOUT) -> Path:
    """A copy of the checkout's package, edits and all, for `new` to run: edits made to the
    tree while a run plays then never reach its later games (an engine restarted after a
    crash or a stall would import them). Returns the folder to put on PYTHONPATH."""
    shutil.copytree(checkout / "canter", dest / "canter",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return dest


# ---------------------------------------------------------------- the verdict


def fixed_games_verdict(games: int, total: int, los: float) -> str:
    """Without an SPRT decision: kept only when the gain is likely enough over enough games."""
    if games < MIN_GAMES:
        if games < total:
            return f"unfinished ({games} of {total} games): resume with the same --pgn"
        return f"too few games to decide (LOS {100 * los:.1f} %; at least {MIN_GAMES:,})"
    stopped = f" (stopped at {games} of {total} games)" if games < total else ""
    return f"LOS {100 * los:.1f} %: " + ("kept" if los >= KEEP_LOS else "dropped") + stopped


def as_pairs(summary: dict) -> dict:
    """A team match of two engines (--teams) read as a two-seat one: its pairing of teams,
    each one engine, as the `pairs` entry `two_seat_row` reads."""
    if summary.get("pairs") or not summary.get("teams"):
        return summary
    team = summary["teams"][0]
    if not all(len(side) == 1 for side in team["teams"]):
        return summary
    pair = dict(team, players=[side[0] for side in team["teams"]])
    return dict(summary, pairs=[pair])


def two_seat_row(summary: dict, total: int, fixed: bool = False) -> tuple[str, str, str, str]:
    """(games, result, Elo, verdict) from the arbiter's --json summary; `fixed`: a run
    without the SPRT (--fixed)."""
    pair = summary["pairs"][0]
    wins, losses, draws = pair["wins"], pair["losses"], pair["draws"]
    flip = pair["players"][0] != "new"  # the arbiter's pair runs in the order of --engine
    if flip:
        wins, losses = losses, wins
    games = wins + losses + draws
    result = f"+{wins} −{losses} ={draws}"
    elo = pair["elo"]
    los = pair["los"]
    if flip:  # (the Elo and LOS are of the first player too)
        elo = None if elo is None else -elo
        los = None if los is None else 1 - los
    margin = pair["elo_margin"]
    elo_text = "n/a" if elo is None else f"{elo:+.1f} ± {margin:.1f}" if margin is not None \
        else f"{elo:+.1f}"
    # The games come in pairs (each opening from both seats): the pentanomial margin is
    # the one that counts the pairing; the per-game one above ignores it.
    penta = pair.get("pentanomial") or []
    p_elo, p_margin = pair.get("pentanomial_elo"), pair.get("pentanomial_elo_margin")
    if sum(penta) and p_elo is not None:
        if flip:
            penta, p_elo = penta[::-1], -p_elo
        p_text = f"{p_elo:+.1f} ± {p_margin:.1f}" if p_margin is not None else f"{p_elo:+.1f}"
        elo_text += (f"; pentanomial [{', '.join(map(str, penta))}] over {sum(penta)} pairs: "
                     f"{p_text}")
    return str(games), result, elo_text, verdict(summary, games, total, los, fixed)


def verdict(summary: dict | None, games: int, total: int, los: float, fixed: bool) -> str:
    """The SPRT's decision from the arbiter's summary, else the verdict of fixed games."""
    if fixed:
        return "fixed games; " + fixed_games_verdict(games, total, los)
    sprt = (summary or {}).get("sprt") or {}
    llr = sprt.get("llr")
    decision = sprt.get("decision")
    llr_text = f"LLR {llr:+.2f} ({sprt['lower']:+.2f}, {sprt['upper']:+.2f})" \
        if llr is not None else "LLR n/a"
    if decision == "H1":
        return f"H1 accepted, {llr_text}: kept"
    if decision == "H0":
        return f"H0 accepted, {llr_text}: dropped"
    return f"{llr_text}, undecided; " + fixed_games_verdict(games, total, los)


def pairwise_scores(rankings: list[list[list[str]]], me: str) -> list[float]:
    """Per game, ME's mean score against each other seat: 1 finished ahead, 1/2 shared the
    place, 0 behind (the arbiter's "finished ahead of" table, kept game by game so that its
    spread can be measured; the arbiter's SPRT tests these scores)."""
    scores = [pairwise_score(ranking, me) for ranking in rankings]
    return [x for x in scores if x is not None]


def tri_row(rankings: list[list[list[str]]], total: int, summary: dict | None = None,
            fixed: bool = True) -> tuple[str, str, str, str]:
    """(games, result, Elo, verdict) for `new` from each game's ranking, best first; the
    verdict from the SPRT in the arbiter's summary unless `fixed`."""
    scores = pairwise_scores(rankings, "new")
    games = len(scores)
    if games == 0:
        return "0", "no games", "n/a", fixed_games_verdict(0, total, 0.5)
    points = sum(1.0 / len(r[0]) for r in rankings if "new" in r[0])
    ahead = sum(sum(1 for g in r[i + 1:] for _ in g) for r in rankings
                for i, group in enumerate(r) if "new" in group)
    behind = sum(sum(len(g) for g in r[:i]) for r in rankings
                 for i, group in enumerate(r) if "new" in group)
    level = 2 * games - ahead - behind
    est = scores_elo(scores)  # the arbiter's pairwise Elo, as its SPRT reads the scores
    mean = sum(scores) / games
    spread = math.sqrt(sum((s - mean) ** 2 for s in scores) / games / games)
    elo = est.elo + 0.0  # never -0.0
    if math.isfinite(est.low) and math.isfinite(est.high):
        elo_text = f"{elo:+.1f} ± {est.margin:.1f}"
    else:
        elo_text = f"{elo:+.1f}"
    los = 0.5 if spread == 0 else 0.5 * (1 + math.erf((mean - 0.5) / spread / math.sqrt(2)))
    result = (f"points {points:g}/{games} ({100 * points / games:.1f} %), "
              f"pairwise +{ahead} −{behind} ={level}")
    return str(games), result, elo_text, verdict(summary, games, total, los, fixed)


def scheduled(pgn: str, games: int | None = None) -> list:
    """The records of the run's games: those numbered (Round) up to `games`. A file
    resumed with a smaller --games keeps games the arbiter no longer counts, and neither
    may the row."""
    from canter.adapters.records.format import read_games_file

    records = read_games_file(pgn, allow_unterminated=True)
    if games is None:
        return list(records)

    def number(record) -> int:
        try:
            return int(record.tags.get("Round", "0"))
        except ValueError:
            return 0

    return [r for r in records if 1 <= number(r) <= games]


def read_rankings(pgn: str, games: int | None = None) -> list[list[list[str]]]:
    """Each finished game's ranking by player name, best first, from the records."""
    from canter.adapters.arbiter.results import ranking_of

    rankings = []
    for record in scheduled(pgn, games):
        if record.points is None:
            continue
        names = record.players
        rankings.append([[names[s] for s in group] for group in ranking_of(record)])
    return rankings


def _movers(record) -> list[int]:
    """The seat that made each move of a record. Two seats alternate; with more, a seat
    that is out loses its turns, so the game is played through (with the record's rules)."""
    from canter.adapters.records.format import game_positions
    from canter.engine import Position

    if len(record.players) == 2:
        start = record.start_position
        first = Position.from_string(start).turn if start else 0
        return [(first + i) % 2 for i in range(len(record.moves))]
    start, moves, _ = game_positions(record)
    pos = start.copy()
    movers = []
    for move in moves:
        movers.append(pos.turn)
        pos.push(move)
    return movers


def in_play(pgn: str, games: int | None = None
            ) -> tuple[dict[str, tuple[float, int]], dict[str, tuple[float, int]]]:
    """From the records' move comments, each player's mean completed search depth over its
    moves that carry one (book moves do not), {name: (mean, moves)}, and the median of
    the seconds it thought in a game, {name: (median, games)}."""
    depths: dict[str, list[int]] = {}
    clocks: dict[str, list[float]] = {}
    for record in scheduled(pgn, games):
        names = record.players
        thought = dict.fromkeys(names, 0.0)
        for seat, comment in zip(_movers(record), record.comments, strict=False):
            if comment is None or comment.depth is None or comment.score is None:
                continue
            got = depths.setdefault(names[seat], [0, 0])
            got[0] += comment.depth
            got[1] += 1
            thought[names[seat]] += comment.time or 0.0
        if record.moves:
            for name, seconds in thought.items():
                clocks.setdefault(name, []).append(seconds)
    return ({name: (depth / moves, moves) for name, (depth, moves) in depths.items()},
            {name: (statistics.median(times), len(times)) for name, times in clocks.items()})


def depth_line(depths: dict[str, tuple[float, int]]) -> str:
    parts = [f"{name} {mean:.2f} over {moves:,} moves" for name, (mean, moves) in
             sorted(depths.items())]
    return "mean depth completed in play: " + "; ".join(parts)


def clock_line(clocks: dict[str, tuple[float, int]]) -> str:
    parts = [f"{name} {median:.2f} s" for name, (median, _) in sorted(clocks.items())]
    games = max((n for _, n in clocks.values()), default=0)
    return f"thought in a game (median over {games:,} games): " + "; ".join(parts)


def summary_row(date: str, change: str, variant: str, limit: Limit,
                cells: tuple[str, str, str, str]) -> str:
    games, result, elo, verdict = cells
    cells_text = [date, change, variant, str(limit), games, result, elo, verdict]
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells_text) + " |"


# ---------------------------------------------------------------- the command


def _git_text(*args: str) -> str:
    done = subprocess.run(["git", "-C", str(CHECKOUT), *args], capture_output=True,
                          text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else ""


def default_change(rev: str, base_sha: str) -> str:
    head = _git_text("rev-parse", "--short=7", "HEAD") or "?"
    # the engine is the package: new files there count, stray files elsewhere do not
    edited = bool(_git_text("status", "--porcelain", "--", "canter"))
    return f"{head}{' + edits' if edited else ''} vs {rev} ({base_sha[:7]})"


def tree_identity() -> str:
    """Which `new` plays: HEAD and a hash of the package's uncommitted edits and new files
    (the engine is the package; files elsewhere do not change it)."""
    import hashlib

    head = _git_text("rev-parse", "HEAD") or "?"
    digest = hashlib.sha256(_git_text("diff", "HEAD", "--binary", "--", "canter").encode())
    for name in sorted(_git_text("ls-files", "--others", "--exclude-standard", "--",
                                 "canter").splitlines()):
        digest.update(name.encode() + b"\0")
        try:
            digest.update((CHECKOUT / name).read_bytes())
        except OSError:
            pass
    edits = digest.hexdigest()[:12]
    clean = not _git_text("status", "--porcelain", "--", "canter")
    return head if clean else f"{head}+{edits}"


def holds_games(pgn: str) -> bool:
    """Has the record file anything in it (a game, or part of one)? Read only up to its
    first non-blank byte."""
    try:
        with open(pgn, "rb") as f:
            while chunk := f.read(1 << 16):
                if chunk.strip():
                    return True
    except OSError:
        pass  # missing (or unreadable: the arbiter will say so)
    return False


def check_same_new(pgn: str) -> str | None:
    """A resumed run must go on with the `new` it began with: the record file's sidecar
    `PGN.new-build` names it. None if this tree may play (the sidecar is then written),
    else why not. A sidecar beside a record file with no game in it (missing or empty)
    is stale: it is written before the arbiter accepts the run, so a run it refused (a
    bad --option), or one stopped before its first game, began nothing to pool with."""
    mark = Path(pgn + ".new-build")
    now = tree_identity()
    try:
        began = mark.read_text(encoding="utf-8").strip() if mark.exists() else None
    except (OSError, UnicodeDecodeError) as exc:
        return f"{mark}: cannot be read ({getattr(exc, 'strerror', None) or exc})"
    if began is not None and began != now and holds_games(pgn):
        return (f"{pgn} was begun by another build of the working tree (new {began}, now "
                f"{now}): resuming would pool the games of two builds in one test; give "
                "another --pgn, or go back to that build")
    if began != now:
        try:
            mark.write_text(now + "\n", encoding="utf-8")
        except OSError as exc:
            return f"{mark}: cannot be written ({exc.strerror or exc})"
    return None


def parser() -> argparse.ArgumentParser:
    p = Parser(
        description=__doc__.split("\n\n")[0],
        epilog="Every search or evaluation change is kept or dropped by this test "
               "(docs/search.md, 'Testing at real limits').")
    p.add_argument("--base", required=True, metavar="REV",
                   help="the git revision to test against (sha, tag, HEAD~3, main)")
    p.add_argument("--variant", choices=VARIANTS, default="camelot")
    limits = p.add_mutually_exclusive_group()
    limits.add_argument("--tc", help="clock for both builds (default 10+0.1)")
    limits.add_argument("--st", help="fixed seconds per move, e.g. 1")
    limits.add_argument("--nodes", help=argparse.SUPPRESS)  # tests of this script only
    p.add_argument("--concurrency", type=int, default=2, help="games at once (default 2)")
    p.add_argument("--games", type=int, default=None,
                   help=f"the SPRT's cap, or with --fixed the games: two seats default "
                        f"{SPRT_GAMES:,} ({FIXED_GAMES:,} with --fixed); Tri-Camelot a "
                        f"multiple of 3, default {TRI_GAMES:,}")
    p.add_argument("--fixed", action="store_true",
                   help="no SPRT: play exactly --games games and judge by LOS")
    p.add_argument("--pgn", help="game records; the same command with the same file resumes")
    p.add_argument("--openings", metavar="FILE|builtin",
                   help="start points (default: bench/openings-camelot-2ply.txt, "
                        "bench/openings-chivalry-2ply.txt, bench/openings-tri-camelot-6ply"
                        ".txt, bench/openings-grand-cam-4ply.txt, the built-in book for Cam "
                        "and Camette); 'builtin' for the built-in book")
    p.add_argument("--timemargin", type=int, default=None, metavar="MS",
                   help="milliseconds a search may overrun (the arbiter's --timemargin)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="an engine option of the tested engine (repeatable), e.g. "
                        "EvalFile=bench/texel-camelot.json: a weight set is tested against "
                        "the same build with --base HEAD")
    p.add_argument("--base-option", action="append", default=[], metavar="NAME=VALUE",
                   help="an engine option of the base (repeatable)")
    p.add_argument("--change", help="what the test is about, for the results row "
                                    "(default: HEAD, edits and the base)")
    p.add_argument("--repo", type=Path, default=CHECKOUT, help=argparse.SUPPRESS)
    return p


def option_pairs(p: argparse.ArgumentParser, flag: str,
                 texts: list[str]) -> tuple[tuple[str, str], ...]:
    """NAME=VALUE texts as pairs; a path value is made absolute, since the engines run in
    other folders."""
    pairs = []
    for text in texts:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            p.error(f"{flag} expects NAME=VALUE, not {text!r}")
        if value and Path(value).exists():
            value = str(Path(value).resolve())
        pairs.append((name.strip(), value))
    return tuple(pairs)


def check_args(p: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[Limit, int]:
    """The limit and the number of games, or a usage error."""
    if args.nodes is not None:
        limit = Limit("nodes", args.nodes)
    elif args.st is not None:
        limit = Limit("st", args.st)
    else:
        limit = Limit("tc", args.tc or "10+0.1")
    if limit.kind == "tc":
        try:
            clock = TimeControl.parse(limit.value)
        except ValueError as exc:
            p.error(f"--tc: {exc}")
        if clock.time is None:
            p.error(f"--tc {limit.value}: a strength test needs a clock (e.g. 10+0.1)")
    else:
        try:
            amount = float(limit.value)
        except ValueError:
            amount = math.nan
        if not (math.isfinite(amount) and amount > 0) or (
                limit.kind == "nodes" and not limit.value.isdigit()):
            p.error(f"--{limit.kind} must be a number above 0, not {limit.value!r}")
    if args.timemargin is not None and args.timemargin < 0:
        p.error(f"--timemargin must be at least 0 ms, not {args.timemargin}")
    if args.concurrency < 1:
        p.error(f"--concurrency must be at least 1, not {args.concurrency}")
    if args.pgn:  # before a build is frozen, and before its sidecar is written beside it
        from canter.adapters.files import OutputPathError, check_output_file

        try:
            check_output_file(args.pgn)
        except OutputPathError as exc:
            p.error(f"--pgn {exc}")
    if args.openings not in (None, BUILTIN) and not Path(args.openings).is_file():
        p.error(f"--openings {args.openings}: no such file")
    games = args.games
    if args.variant in PAIRED:
        if games is None:
            games = FIXED_GAMES if args.fixed else SPRT_GAMES
        if games < 2:
            p.error(f"--games must be at least 2 (one pair of games), not {games}")
    else:
        games = TRI_GAMES if games is None else games
        if games < 3 or games % 3:
            p.error(f"--games must be a positive multiple of 3 for tri-camelot (every "
                    f"opening in all three seat rotations), not {games}")
    return limit, games


def openings_path(given: str | None, variant: str) -> str | None:
    """The file the arbiter is given, or None for its built-in book."""
    if given == BUILTIN:
        return None
    if given is None:
        default = DEFAULT_OPENINGS.get(variant)
        return str(default) if default is not None else None
    return str(Path(given).resolve())


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    limit, games = check_args(p, args)
    options = option_pairs(p, "--option", args.option)
    base_options = option_pairs(p, "--base-option", args.base_option)
    try:
        build = freeze(args.base, repo=args.repo)
    except FreezeError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    base_sha = build.sha
    change = args.change or default_change(args.base, base_sha)
    if args.pgn:
        problem = check_same_new(args.pgn)
        if problem:
            print(f"Error: {problem}", file=sys.stderr)
            return 2
    sweep_scratch()
    with tempfile.TemporaryDirectory(prefix=SCRATCH_PREFIX) as scratch:
        (Path(scratch) / OWNER_FILE).write_text(str(os.getpid()), encoding="ascii")
        json_path = str(Path(scratch) / "summary.json")
        # Tri-Camelot's Elo is read from the records' rankings: keep them even without --pgn
        pgn = args.pgn or (str(Path(scratch) / "games.pgn") if args.variant not in PAIRED
                           else None)
        # `new` keeps the engine's command and folder (what a resume checks) but imports
        # the package as it was when the run began.
        frozen_new = snapshot_package(Path(scratch) / "new")
        command = match_command(python=sys.executable, base_command=str(build.command),
                                base_sha=base_sha, variant=args.variant, limit=limit,
                                concurrency=args.concurrency, games=games, pgn=pgn,
                                json_path=json_path, timemargin=args.timemargin,
                                options=options, base_options=base_options,
                                openings=openings_path(args.openings, args.variant),
                                fixed=args.fixed)
        print("$ " + shlex.join(command), flush=True)
        match = subprocess.Popen(command, env=checkout_env(root=frozen_new))
        # SIGTERM (`kill`, a batch system, a run in the background, where Ctrl-C's signal
        # is ignored) ends the run as Ctrl-C does: the arbiter, which alone receives no
        # signal then, is handed it, saves its games and summary, and the row is printed.
        previous = signal.signal(signal.SIGTERM,
                                 lambda signum, frame: match.send_signal(signal.SIGTERM))
        try:
            code = match.wait()
        except KeyboardInterrupt:  # the arbiter has the same signal: let it save and end
            code = match.wait()
        finally:
            signal.signal(signal.SIGTERM, previous)
        try:
            summary = json.loads(Path(json_path).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return code or 1  # the arbiter said why
        if args.variant in PAIRED:
            summary = as_pairs(summary)
            if not summary.get("pairs"):
                return code or 1
            cells = two_seat_row(summary, games, args.fixed)
        else:
            cells = tri_row(read_rankings(pgn, games) if Path(pgn).exists() else [], games,
                            summary, args.fixed)
        if pgn and Path(pgn).exists():
            # Whether a change searched deeper, or spent more of its clock, in the games it
            # played, not just in a benchmark: what the engines reported with their moves.
            depths, clocks = in_play(pgn, games)
            print(depth_line(depths))
            print(clock_line(clocks))
    print(summary_row(time.strftime("%Y-%m-%d", time.gmtime()), change, args.variant, limit,
                      cells))
    return code


if __name__ == "__main__":
    sys.exit(main())
