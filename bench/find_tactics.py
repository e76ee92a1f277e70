"""Find tactics for the tactics suite: positions from played games where one move wins
material or the game by force and every other move does not.

    python bench/find_tactics.py GAMES.pgn [...] --st 60 --verify 120 \
        --out bench/tactics-camelot.txt

Every position of the games (after the opening's first moves) is searched by a canter
process with MultiPV 2 for --st seconds. It is a candidate when the best move's score is
at least --gain above the side's static standing (the engine's `eval`) and at least --gap
above the second move's. A candidate is searched again for --verify seconds (a second,
deeper search); it is kept when the same move is best and both margins hold. Kept
positions are appended to --out as lines of the suite format read by bench/tactics.py:

    <position string> bm <move> ; gap <cp> ; gain <cp> ; source <file>:<game>:<ply>

A forced win in n moves counts as a score of 100,000 - n (so a win in one move is
only one point better than a win in two, far below any --gap in use). Runs resume:
positions already in --out are skipped. Progress goes to standard error.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from canter.adapters.client import Engine, Info, Limit
from canter.adapters.records.format import read_games_file
from canter.engine import Position, format_move, parse_move

WIN = 100_000


def score_value(info: Info) -> int | None:
    if info.score is None:
        return None
    if info.score.win is not None:  # a sooner win scores higher, by one a move
        n = info.score.win
        return WIN - n if n > 0 else -WIN - n
    return info.score.cp


def lines_of(engine: Engine, position: str, seconds: float) -> dict[int, Info]:
    """The last info of each MultiPV line of a search of `seconds`."""
    result = engine.play(position, Limit(movetime=seconds))
    best: dict[int, Info] = {}
    for info in result.infos:
        k = info.multipv or 1
        if info.pv and info.score is not None:
            best[k] = info
    return best


def judge(engine: Engine, position: str, seconds: float, gain: int,
          gap: int) -> tuple[str, int, int] | None:
    """(move, gap, gain) when the position is a tactic at this search time."""
    engine.checked_position(position)
    answer = engine.query("eval", "eval").split()  # the static standing: `eval cp N`
    if len(answer) != 3 or answer[1] != "cp":
        return None
    before = int(answer[2])
    engine.configure({"MultiPV": 2})
    lines = lines_of(engine, position, seconds)
    if 1 not in lines or 2 not in lines:
        return None
    first, second = score_value(lines[1]), score_value(lines[2])
    if first is None or second is None:
        return None
    found_gap, found_gain = first - second, first - min(before, second)
    if found_gap < gap or found_gain < gain or first < gain:
        return None
    assert lines[1].pv
    return lines[1].pv[0], found_gap, found_gain


def positions(paths: list[str], skip: int) -> list[tuple[str, str]]:
    """(position string, source) of every position of the games after `skip` plies."""
    out = []
    for path in paths:
        for number, game in enumerate(read_games_file(path), start=1):
            pos = (Position.from_string(game.start_position) if game.start_position
                   else Position.start(game.variant))
            for ply, text in enumerate(game.moves, start=1):
                try:
                    pos.push(parse_move(pos, text))
                except ValueError:
                    break
                if ply >= skip and pos.outcome() is None and len(pos.legal_moves()) > 1:
                    out.append((pos.to_string(), f"{os.path.basename(path)}:{number}:{ply}"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", help="game-record files to take positions from")
    parser.add_argument("--st", type=float, default=60.0, help="first search, seconds")
    parser.add_argument("--verify", type=float, default=120.0, help="second search, seconds")
    parser.add_argument("--gain", type=int, default=150, help="centipawns won at least")
    parser.add_argument("--gap", type=int, default=150, help="over the second move, at least")
    parser.add_argument("--skip", type=int, default=6, help="opening plies left out")
    parser.add_argument("--limit", type=int, default=0, help="stop after this many found")
    parser.add_argument("--engine", default=f"{sys.executable} -m canter")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    done = set()
    if os.path.exists(args.out):
        with open(args.out, encoding="utf-8") as f:
            done = {line.split(" bm ", 1)[0] for line in f if " bm " in line}
    found = 0
    todo = [p for p in positions(args.games, args.skip) if p[0] not in done]
    started = time.monotonic()
    with Engine.start(args.engine.split(), search_margin=max(5.0, args.verify)) as engine:
        for index, (position, source) in enumerate(todo, start=1):
            first = judge(engine, position, args.st, args.gain, args.gap)
            verdict = None
            if first is not None:
                second = judge(engine, position, args.verify, args.gain, args.gap)
                if second is not None and second[0] == first[0]:
                    verdict = second
            if verdict is not None:
                move, gap, gain = verdict
                pos = Position.from_string(position)
                move = format_move(pos.variant, parse_move(pos, move))
                with open(args.out, "a", encoding="utf-8") as f:
                    f.write(f"{position} bm {move} ; gap {gap} ; gain {gain} ; "
                            f"source {source}\n")
                found += 1
            print(f"[{index}/{len(todo)}] {source}: {'tactic ' + verdict[0] if verdict else '-'}"
                  f" ({found} found, {time.monotonic() - started:.0f} s)", file=sys.stderr)
            if args.limit and found >= args.limit:
                break


if __name__ == "__main__":
    main()
