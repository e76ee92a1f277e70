"""Positions from self-play labelled with the games' results, for tuning the evaluation by
Texel's method (bench/texel_tune.py).

    python bench/texel_data.py --variant camelot --games 400 --nodes 500 --out camelot.texel

The searcher plays itself in process under a node limit (deterministic), after a few random
opening plies seeded by the game number. Each quiet position (the game goes on and the side
to move has no compulsory capture) after the book plies and before the game is decided (the
searcher has seen a forced win or loss) becomes a line

    <position string> ; result <points of the side to move>

points: a win 1, a loss 0, a draw 1/2 (two seats) or 1/3 (three seats). A game is written
whole, then a line `# game N`; a rerun with the same --out appends and skips the games the
file already holds, so an interrupted run resumes. The file's first line names how its games
are made (`# texel_data variant=camelot nodes=500 seed=0 opening=4 book=8`): a run made
otherwise is refused, since its game N would not be the game N the file holds (give it
another --out).

    python bench/texel_data.py --variant camelot --records match.pgn ... --out camelot.texel

takes the positions from game records instead, such as the arbiter's records of matches at
real time controls: every position before a move the engine searched (book moves carry no
score) that is quiet, until a score in the record says a side has a forced result, labelled
with the game's result. Only finished games ended normally (no time forfeit, crash or
adjudication) of the variant are read; the games are numbered from --first in the order
read, across the files, so a rerun with the same files skips what the output holds (its
first line: `# texel_data variant=camelot records`).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Iterator
from multiprocessing import Pool

from benchargs import check_outputs, existing_file, positive_int, variant

from canter.adapters.records.format import (
    GameRecord,
    RecordError,
    ReplayError,
    game_positions,
    parse_result,
    read_games_file,
)
from canter.engine import Position, get_variant
from canter.engine.rules.movegen import must_capture
from canter.engine.search.limits import Limits, SearchInfo, StopFlag
from canter.engine.search.searcher import Searcher

MAX_PLIES = 400  # an unfinished game counts as a draw, as in bench/selfplay.py
GAME_MARK = re.compile(r"^# game (\d+)\s*$")
HEADER = "# texel_data "  # then the settings the games were made with


class OtherSettings(ValueError):
    """The output file holds games made with other settings."""


class BadRecords(ValueError):
    """A --records file that is not game records."""


def header(variant: str, **settings: object) -> str:
    """The line naming how a file's games are made: the same game number means the same
    game only under the same settings."""
    words = [f"variant={variant}"] + [f"{k}={v}" for k, v in settings.items()]
    return HEADER + " ".join(words)


def check_header(path: str, wanted: str) -> bool:
    """May this run append to `path`? Raises OtherSettings if the file names other
    settings. Returns whether the file still needs the header (none there, and no game:
    a file begun before headers were written has its games kept as they are)."""
    found = []
    games = False
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith(HEADER):
                    found.append(line.strip())
                elif line.strip():
                    games = True
    except FileNotFoundError:
        return True
    for line in found:
        if line != wanted:
            raise OtherSettings(
                f"{path} holds games made with other settings ({line[len(HEADER):]}; this "
                f"run: {wanted[len(HEADER):]}): appending would mix them, or skip games "
                "it does not hold; give another --out, or the settings of the file")
    return not found and not games


def points(pos: Position, seat: int) -> float:
    """What the game gave `seat`: 1 a win, 0 a loss, a draw shared by the seats."""
    out = pos.outcome()
    n = pos.variant.nseats
    if out is None or out.winner is None:
        return 1 / n
    return 1.0 if out.wins_for(seat) else 0.0


def play_game(variant: str, index: int, nodes: int, seed: int, opening: int,
              book: int) -> tuple[list[str], Position]:
    """One game: its labelled lines and its last position."""
    pos = Position.start(get_variant(variant))
    rng = random.Random(seed * 1_000_003 + index)
    for _ in range(opening):
        if pos.outcome() is not None:
            break
        pos.push(rng.choice(pos.legal_moves()))
    # One searcher per seat, so neither reads the other's table.
    searchers = [Searcher() for _ in range(pos.variant.nseats)]
    limits = Limits(nodes=nodes)
    kept: list[tuple[str, int]] = []
    decided = False
    while pos.outcome() is None and len(pos.move_stack) < MAX_PLIES:
        last: list[SearchInfo] = []
        result = searchers[pos.turn].search(pos, limits, last.append, StopFlag())
        info = result.info or (last[-1] if last else None)
        # Once a side has a forced result the rest of the game says nothing about the
        # evaluation (the search decides it), so its positions are left out.
        if info is not None and info.score_win is not None:
            decided = True
        if (not decided and len(pos.move_stack) >= book and not must_capture(pos)):
            kept.append((pos.to_string(), pos.turn))
        pos.push(result.best)
    lines = [f"{text} ; result {_points_text(points(pos, seat))}" for text, seat in kept]
    return lines, pos


def record_lines(record: GameRecord, variant: str) -> list[str] | None:
    """The labelled lines of one game record, or None when the record does not qualify: another
    variant, a team game, unfinished, or not ended by the rules."""
    try:
        if record.variant != variant:
            return None
    except ValueError:
        return None
    rules = get_variant(variant)
    if rules.teams or record.tags.get("Termination", "normal") != "normal":
        return None
    try:
        result = parse_result(record.result, rules.nseats)
        start, moves, _ = game_positions(record)
    except (ValueError, ReplayError):
        return None
    if result is None:
        return None
    pos = start.copy()
    lines = []
    for i, move in enumerate(moves):
        comment = record.comments[i] if i < len(record.comments) else None
        score = comment.score if comment is not None else None
        # From the first forced result announced the game says nothing about the evaluation.
        if score is not None and score.startswith("#"):
            break
        if score is not None and not must_capture(pos):
            lines.append(f"{pos.to_string()} ; result {_points_text(float(result[pos.turn]))}")
        pos.push(move)
    return lines


def run_records(paths: list[str], variant: str, out: str, first: int = 0,
                quiet: bool = False) -> int:
    """Write the positions of the records' games the file does not hold yet; returns the
    number of lines written. BadRecords names a file that is not game records (all are
    read before a line is written); OtherSettings, an --out of another run."""
    mark = header(variant, source="records")
    fresh = check_header(out, mark)
    files = []
    for path in paths:
        try:
            files.append((path, read_games_file(path)))
        except RecordError as exc:
            raise BadRecords(f"{path}: not game records ({exc})") from None
    done = done_games(out)
    written = games = 0
    index = first
    with open(out, "a", encoding="utf-8") as f:
        if fresh:
            f.write(mark + "\n")
        for path, records in files:
            for record in records:
                number, index = index, index + 1
                lines = None if number in done else record_lines(record, variant)
                if lines is None:
                    continue
                f.writelines(line + "\n" for line in lines)
                f.write(f"# game {number}\n")
                written += len(lines)
                games += 1
            if not quiet:
                sys.stderr.write(f"{path}: {games} games, {written} positions so far\n")
    return written


def _points_text(p: float) -> str:
    return "0.5" if p == 0.5 else ("1/3" if abs(p - 1 / 3) < 1e-9 else f"{p:g}")


def done_games(path: str) -> set[int]:
    """The games a previous run wrote whole."""
    done = set()
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = GAME_MARK.match(line)
                if m:
                    done.add(int(m.group(1)))
    except FileNotFoundError:
        pass
    return done


def _job(args: tuple) -> tuple[int, list[str], int]:
    variant, index, nodes, seed, opening, book = args
    lines, last = play_game(variant, index, nodes, seed, opening, book)
    return index, lines, len(last.move_stack)


def run(variant: str, games: int, nodes: int, out: str, seed: int = 0, jobs: int = 1,
        opening: int = 4, book: int = 8, first: int = 0, quiet: bool = False) -> int:
    """Play the games the file does not hold yet; returns the number of lines written.
    OtherSettings if `out` holds games made otherwise."""
    mark = header(variant, nodes=nodes, seed=seed, opening=opening, book=book)
    fresh = check_header(out, mark)
    done = done_games(out)
    todo = [(variant, i, nodes, seed, opening, book)
            for i in range(first, first + games) if i not in done]
    written = 0
    started = time.time()
    results: Iterator[tuple[int, list[str], int]]
    pool = Pool(jobs) if jobs > 1 else None
    results = pool.imap_unordered(_job, todo) if pool else map(_job, todo)
    try:
        with open(out, "a", encoding="utf-8") as f:
            if fresh:
                f.write(mark + "\n")
                f.flush()
            for k, (index, lines, plies) in enumerate(results, 1):
                f.writelines(line + "\n" for line in lines)
                f.write(f"# game {index}\n")
                f.flush()
                written += len(lines)
                if not quiet:
                    secs = time.time() - started
                    sys.stderr.write(f"game {index}: {plies} plies, {len(lines)} positions; "
                                     f"{k}/{len(todo)} games, {written} positions, "
                                     f"{secs:.0f} s\n")
    finally:
        if pool:
            pool.terminate()
    return written


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", type=variant, default="camelot")
    ap.add_argument("--games", type=positive_int, default=100)
    ap.add_argument("--nodes", type=positive_int, default=500, help="node limit per move")
    ap.add_argument("--out", required=True, help="data file (appended to)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the random openings")
    ap.add_argument("--jobs", type=positive_int, default=1)
    ap.add_argument("--opening", type=int, default=4, help="random plies at the start")
    ap.add_argument("--book", type=int, default=8, help="plies not written at the start")
    ap.add_argument("--first", type=int, default=0, help="number of the first game")
    ap.add_argument("--records", nargs="+", type=existing_file, metavar="PGN",
                    help="take the positions from these game records instead of self-play")
    a = ap.parse_args(argv)
    get_variant(a.variant)  # a bad name fails here, before any process starts
    check_outputs(ap, (("--out", a.out),))  # a bad path is said now, not after a game
    try:
        if a.records:
            n = run_records(a.records, a.variant, a.out, a.first)
        else:
            n = run(a.variant, a.games, a.nodes, a.out, a.seed, a.jobs, a.opening, a.book,
                    a.first)
    except (OtherSettings, BadRecords) as exc:
        sys.exit(f"Error: {exc}; nothing was written")
    except (OSError, UnicodeDecodeError) as exc:
        sys.exit(f"Error: --out {a.out}: {getattr(exc, 'strerror', None) or exc}")
    print(f"{n} positions written to {a.out}")


if __name__ == "__main__":
    main()
