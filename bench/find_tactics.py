"""Find tactics for the tactics suite: positions from played games where one move wins
material or the game by force and every other move does not.

    python bench/find_tactics.py GAMES.pgn [...] --screen 0.3 --st 60 --verify 120 \
        --every 3 --max-positions 2000 --seen found.seen --out bench/tactics-camelot.txt

Positions are taken from the games after the first --skip plies, every --every'th one of
each game (starting at a different ply in each game, so both sides are sampled even when
--every is even), each distinct position once, at most --max-positions of them.

With --drops they are taken instead where a two-seat game was decided suddenly: from the
scores the arbiter writes after each move (`{+0.34/5 0.2s}`), every stretch where the
loser's own score fell from at least --drop-high to at most --drop-low (in Men) within
--drop-within of its moves gives the positions before every move of that stretch, the
winner's and the loser's. That is where the games between two close builds are lost, so a
suite made of them measures the tactics that decide games rather than those a short search
already sees (use --screen 0 with it: a short screen would keep only what the loser's
search could have found). A negative --gain (say -100) keeps also the only moves of a
defence: the one move that holds (scoring at least --gain) when every other loses --gap
more, which is what the loser missed.

Each is first screened: a MultiPV-2 search of --screen seconds. Only a position whose
margins already reach half of --gain and --gap goes on to the MultiPV-2 search of --st
seconds (a forced win the second move shares can never be kept, so it does not pass
either). That is a candidate when the best move's score is at least --gain above the side's
static standing (the engine's `eval`) and at least --gap above the second move's. A
candidate is searched again for --verify seconds (a second, deeper search); it is kept
when the same move is best and both margins hold. Kept positions are appended to --out as
lines of the suite format read by bench/tactics.py (which ignores all after the first `;`):

    <position string> bm <move> ; gap <cp> ; gain <cp> ; score <cp> ; depth <d> ;
        source <file>:<game>:<ply>

(on one line), where gap, gain, score (the best move's) and depth are those of the
--verify search. A forced win in n moves counts as a score of 100,000 - n (so a win in
one move is only one point better than a win in two, far below any --gap in use).

Runs resume: positions already in --out are skipped, and so are those listed in --seen
(every position examined is appended there with its verdict, so a run stopped at any point
goes on where it stopped). Progress, with the rates of candidates and of kept positions,
goes to standard error.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass

from benchargs import (
    DEFAULT_ENGINE,
    check_outputs,
    engine_env,
    existing_file,
    positive_float,
    seconds_or_none,
)
from late_losses import LOSER_INDEX, score_in_men

from canter.adapters.client import Engine, Info, Limit
from canter.adapters.records.format import GameRecord, RecordError, decode_records, read_games
from canter.engine import Position, format_move, parse_move

WIN = 100_000
# Scores beyond this are forced wins (or losses): WIN less the moves to the end.
WON = WIN - 1_000


def score_value(info: Info) -> int | None:
    if info.score is None:
        return None
    if info.score.win is not None:  # a sooner win scores higher, by one a move
        n = info.score.win
        return WIN - n if n > 0 else -WIN - n
    return info.score.cp


@dataclass(frozen=True)
class Reading:
    """What one MultiPV-2 search says of a position."""

    move: str
    first: int  # the best move's score
    second: int  # the second move's score
    before: int  # the static standing (`eval`)
    depth: int

    @property
    def gap(self) -> int:
        return self.first - self.second

    @property
    def gain(self) -> int:
        # won against the standing, and against what the quiet alternative keeps anyway
        return self.first - min(self.before, self.second)

    def holds(self, gain: int, gap: int) -> bool:
        """Whether the best move wins `gain` and beats the second move by `gap`."""
        return self.gap >= gap and self.gain >= gain and self.first >= gain

    def promising(self, gain: int, gap: int) -> bool:
        """Whether a short search already sees half of the margins (or a forced win the
        second move lacks), so that a long search is worth its time."""
        if self.first >= WON and self.second < WON:
            return True
        return self.holds(_half(gain), _half(gap))


def _half(margin: int) -> int:
    """Half a margin, rounded up; a margin below 0 (a gain that may be a loss) is kept
    whole, since half of it would ask more of the screen than of the long search."""
    return min(margin, (margin + 1) // 2)


def lines_of(engine: Engine, position: str, seconds: float) -> dict[int, Info]:
    """The last info of each MultiPV line of a search of `seconds`."""
    result = engine.play(position, Limit(movetime=seconds))
    best: dict[int, Info] = {}
    for info in result.infos:
        k = info.multipv or 1
        if info.pv and info.score is not None:
            best[k] = info
    return best


def read(engine: Engine, position: str, seconds: float) -> Reading | None:
    """A MultiPV-2 search of `seconds` (the engine set to MultiPV 2), or None when the
    engine reports no two scored lines."""
    engine.checked_position(position)
    answer = engine.query("eval", "eval").split()  # the static standing: `eval cp N`
    if len(answer) != 3 or answer[1] != "cp":
        return None
    lines = lines_of(engine, position, seconds)
    if 1 not in lines or 2 not in lines:
        return None
    first, second = score_value(lines[1]), score_value(lines[2])
    if first is None or second is None:
        return None
    assert lines[1].pv
    return Reading(lines[1].pv[0], first, second, int(answer[2]), lines[1].depth or 0)


def judge(engine: Engine, position: str, seconds: float, gain: int,
          gap: int) -> Reading | None:
    """The reading when the position is a tactic at this search time."""
    reading = read(engine, position, seconds)
    return reading if reading is not None and reading.holds(gain, gap) else None


def finished_games(path: str) -> list[GameRecord]:
    """The games of a record file; a last game cut off before its result (a match still
    writing the file) is left out, since its last move may be cut in two."""
    with open(path, "rb") as f:
        text = decode_records(f.read(), cut_off_ok=True)
    try:
        games = list(read_games(text, allow_unterminated=True))
    except RecordError:
        # cut inside a move: drop the last game's text, from its first tag on
        starts = [m.start() for m in re.finditer(r"(?m)^(?!\[).*\n\[", text)]
        text = text[:starts[-1] + 1] if starts else ""
        games = list(read_games(text, allow_unterminated=True))
    if games and not text.rstrip().endswith(games[-1].result):
        games.pop()
    return games


def starts(paths: list[str]) -> Iterator[tuple[str, int, GameRecord, Position]]:
    """(path, game number, game, start position) of every finished game of the files."""
    for path in paths:
        for number, game in enumerate(finished_games(path), start=1):
            yield path, number, game, (Position.from_string(game.start_position)
                                       if game.start_position
                                       else Position.start(game.variant))


def positions(paths: list[str], skip: int, every: int = 1) -> list[tuple[str, str]]:
    """(position string, source) of every `every`'th position of each game after `skip`
    plies, each distinct position once."""
    out = []
    seen: set[str] = set()
    for path, number, game, pos in starts(paths):
        for ply, text in enumerate(game.moves, start=1):
            try:
                pos.push(parse_move(pos, text))
            except ValueError:
                break
            # game n starts n - 1 plies later, to sample both sides when `every` is even
            if ply < skip or (ply - skip - number + 1) % every:
                continue
            if pos.outcome() is not None or len(pos.legal_moves()) < 2:
                continue
            text = pos.to_string()
            if text not in seen:
                seen.add(text)
                out.append((text, f"{os.path.basename(path)}:{number}:{ply}"))
    return out


@dataclass(frozen=True)
class Drops:
    """Where a sudden fall of the loser's score counts: from `high` or more to `low` or
    less (in Men) within `within` of its own scored moves."""

    high: float = 0.0
    low: float = -2.0
    within: int = 3


def drop_stretches(game: GameRecord, movers: list[int], drops: Drops) -> list[range]:
    """The move indices of each stretch of the game where its loser's score fell
    suddenly: from the loser's last move scored `drops.high` or more to its first move
    scored `drops.low` or less, when at most `drops.within` of its scored moves apart.
    `movers` is the seat that made each move. Empty for a game no side won."""
    loser = LOSER_INDEX.get(game.result)
    if loser is None:
        return []
    scored = []  # (move index, score in Men) of the loser's scored moves
    for i, seat in enumerate(movers):
        comment = game.comments[i] if i < len(game.comments) else None
        if seat == loser and comment is not None and comment.score is not None:
            scored.append((i, score_in_men(comment.score)))
    stretches = []
    for k, (index, score) in enumerate(scored):
        if score > drops.low or (k and scored[k - 1][1] <= drops.low):
            continue  # not low, or already low before: the fall began earlier
        before = [i for i, s in scored[max(0, k - drops.within):k] if s >= drops.high]
        if before:
            stretches.append(range(before[-1], index + 1))
    return stretches


def drop_positions(paths: list[str], drops: Drops) -> list[tuple[str, str]]:
    """(position string, source) of the position before every move of each sudden fall
    (`drop_stretches`) in the decided two-seat games of the files, each once."""
    out = []
    seen: set[str] = set()
    for path, number, game, pos in starts(paths):
        if pos.variant.nseats != 2 or pos.variant.is_team_game:
            continue
        before, movers = [], []
        for text in game.moves:
            before.append(pos.to_string())
            movers.append(pos.turn)
            try:
                pos.push(parse_move(pos, text))
            except ValueError:
                break
        for stretch in drop_stretches(game, movers, drops):
            for i in stretch:
                if i >= len(before) or before[i] in seen:
                    continue
                if len(Position.from_string(before[i]).legal_moves()) < 2:
                    continue
                seen.add(before[i])
                out.append((before[i], f"{os.path.basename(path)}:{number}:{i}"))
    return out


def sample(paths: list[str], skip: int, every: int,
           drops: Drops | None = None) -> list[tuple[str, str]]:
    """`positions` (or `drop_positions`), but a file that cannot be read is left out with
    a warning rather than ending a long run."""
    out: list[tuple[str, str]] = []
    for path in paths:
        try:
            found = (positions([path], skip, every) if drops is None
                     else drop_positions([path], drops))
        except (OSError, ValueError) as error:
            print(f"{path}: left out: {error}", file=sys.stderr)
            continue
        known = {p for p, _ in out}
        out += [p for p in found if p[0] not in known]
    return out


def already(path: str) -> set[str]:
    """Position strings listed in a suite or a --seen file (text before ` bm ` or ` ; `)."""
    if not path or not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as f:
        return {line.split(" bm ", 1)[0].split(" ; ", 1)[0].strip() for line in f
                if line.strip() and not line.startswith("#")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="+", type=existing_file,
                        help="game-record files to take positions from")
    parser.add_argument("--screen", type=seconds_or_none, default=0.3,
                        help="screening search, seconds (0: none, every position gets --st)")
    parser.add_argument("--st", type=positive_float, default=60.0, help="first search, seconds")
    parser.add_argument("--verify", type=positive_float, default=120.0,
                        help="second search, seconds")
    parser.add_argument("--gain", type=int, default=150, help="centipawns won at least")
    parser.add_argument("--gap", type=int, default=150, help="over the second move, at least")
    parser.add_argument("--skip", type=int, default=6, help="opening plies left out")
    parser.add_argument("--every", type=int, default=1,
                        help="take every Nth position of each game")
    parser.add_argument("--drops", action="store_true",
                        help="take the positions of the sudden falls of losers' scores")
    parser.add_argument("--drop-high", type=float, default=Drops.high,
                        help="with --drops: the loser's score before the fall, at least")
    parser.add_argument("--drop-low", type=float, default=Drops.low,
                        help="with --drops: its score after the fall, at most")
    parser.add_argument("--drop-within", type=int, default=Drops.within,
                        help="with --drops: the fall takes at most this many of its moves")
    parser.add_argument("--max-positions", type=int, default=0,
                        help="examine at most this many positions in this run (0: all)")
    parser.add_argument("--limit", type=int, default=0, help="stop after this many found")
    parser.add_argument("--seen", default="",
                        help="file of examined positions: appended to, and skipped on resume")
    parser.add_argument("--engine", default=DEFAULT_ENGINE,
                        help="the engine's command (default: this checkout's)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    if args.every < 1:
        parser.error("--every must be at least 1")
    if args.max_positions < 0 or args.screen < 0:
        parser.error("--max-positions and --screen cannot be negative")

    check_outputs(parser, (("--out", args.out), ("--seen", args.seen)))
    done = already(args.out) | already(args.seen)
    drops = (Drops(args.drop_high, args.drop_low, args.drop_within) if args.drops
             else None)
    taken = sample(args.games, args.skip, args.every, drops)
    if not taken:  # (all of them done already is a finished run, resumed: no error)
        raise SystemExit(f"Error: no position to examine in {', '.join(args.games)} "
                         "(game records, past --skip plies)")
    todo = [p for p in taken if p[0] not in done]
    if args.max_positions:
        todo = todo[:args.max_positions]
    passed = candidates = found = 0
    started = time.monotonic()
    margin = max(5.0, args.verify, args.st)
    with Engine.start(shlex.split(args.engine), search_margin=margin,
                      env=engine_env(args.engine)) as engine:
        engine.configure({"MultiPV": 2})
        for index, (position, source) in enumerate(todo, start=1):
            verdict: Reading | None = None
            step = "screened out"
            if args.screen > 0:
                screen = read(engine, position, args.screen)
                go_on = screen is not None and screen.promising(args.gain, args.gap)
            else:
                go_on = True
            if go_on:
                passed += 1
                step = "no tactic"
                first = judge(engine, position, args.st, args.gain, args.gap)
                if first is not None:
                    candidates += 1
                    step = "not verified"
                    second = judge(engine, position, args.verify, args.gain, args.gap)
                    if second is not None and second.move == first.move:
                        verdict = second
            if verdict is not None:
                pos = Position.from_string(position)
                move = format_move(pos.variant, parse_move(pos, verdict.move))
                step = f"tactic {move}"
                with open(args.out, "a", encoding="utf-8") as f:
                    f.write(f"{position} bm {move} ; gap {verdict.gap} ; gain {verdict.gain}"
                            f" ; score {verdict.first} ; depth {verdict.depth} ; source {source}\n")
                found += 1
            if args.seen:
                with open(args.seen, "a", encoding="utf-8") as f:
                    f.write(f"{position} ; {step} ; source {source}\n")
            spent = time.monotonic() - started
            print(f"[{index}/{len(todo)}] {source}: {step} ({passed} passed the screen, "
                  f"{candidates} candidates, {found} kept: one per "
                  f"{index / found if found else float('inf'):.0f} positions; "
                  f"{spent / index:.2f} s a position, {spent:.0f} s)", file=sys.stderr)
            if args.limit and found >= args.limit:
                break
    print(f"{len(todo)} positions examined, {passed} passed the screen, {candidates} "
          f"candidates, {found} kept", file=sys.stderr)


if __name__ == "__main__":
    main()
