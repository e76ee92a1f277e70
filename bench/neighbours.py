"""What wins a three-seat game: a logistic fit of "this seat won" on each seat's own score
and its two neighbours', split into material and position, over game records.

    python bench/neighbours.py bench/records/tri-*.pgn
    python bench/neighbours.py --plies 24,36,48 games.pgn

For every game and every ply asked for (after the book), each seat gives one row: its own
material (Men and Knights at the evaluation's values) and the rest of its score (race,
advance, defence, cohesion, tempo: `Evaluator.scores` less the material), the same two for
the seat on its left (whose castle it aims at) and for the seat on its right (which aims at
its castle), and whether it won. The seats themselves are two more columns (the second
and third seat against the first), since the turn order alone changes the odds. The fit is
Newton's method on the log-likelihood, in pure Python; it prints each coefficient per 100
points of score (a Man) with its standard error, and beside it the coefficient as a per
cent of the own position's. The neighbour shares of evaluate.py (`left_material` and so
on) are on that scale with the sign turned, since the opponents' part is subtracted: a
left material at -36 % of the own position reads as `left_material` 36.

The fit reads what decided games between the engines that played them; it is a guide to
what to measure at the board, not a measurement.
"""

from __future__ import annotations

import argparse
import math
import sys

from benchargs import existing_file, game_records

from canter.adapters.records.format import ReplayError, game_positions
from canter.engine.search.evaluate import Evaluator

COLUMNS = ("constant", "second seat", "third seat", "own material", "own position",
           "left material", "left position", "right material", "right position")


def rows_of(paths: list[str], plies: list[int]) -> dict[int, list[tuple[list[float], int]]]:
    """Per ply, one (features, won) row per seat of every game that lasted that long."""
    out: dict[int, list[tuple[list[float], int]]] = {p: [] for p in plies}
    ev = None
    for path in paths:
        for game in game_records(path):
            try:
                start, moves, end = game_positions(game)
            except ReplayError as exc:
                print(f"{path}: game at line {game.line} skipped: {exc}", file=sys.stderr)
                continue
            if start.variant.nseats != 3 or start.variant.teams:
                continue
            outcome = end.outcome()
            if outcome is None or outcome.winner is None:
                continue  # unfinished or drawn: no seat won
            if ev is None:
                ev = Evaluator(start.variant)
            pos = start.copy()
            for ply, move in enumerate(moves, start=1):
                pos.push(move)
                if ply not in out:
                    continue
                scores = ev.scores(pos)
                material = [ev.material(pos, s) for s in range(3)]
                for seat in range(3):
                    row = [1.0, float(seat == 1), float(seat == 2)]
                    for s in (seat, ev.left[seat], ev.right[seat]):
                        row += [material[s] / 100, (scores[s] - material[s]) / 100]
                    out[ply].append((row, int(outcome.wins_for(seat))))
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """a x = b by Gaussian elimination with partial pivoting (a is small and dense)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-12:
            raise ValueError("the columns are not independent (too few games?)")
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def _inverse_diagonal(a: list[list[float]]) -> list[float]:
    n = len(a)
    return [_solve(a, [float(i == j) for i in range(n)])[j] for j in range(n)]


def fit(rows: list[tuple[list[float], int]]) -> tuple[list[float], list[float], float]:
    """Coefficients, their standard errors and the log-likelihood."""
    k = len(rows[0][0])
    w = [0.0] * k
    for _ in range(30):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in rows:
            p = 1 / (1 + math.exp(-sum(a * b for a, b in zip(w, x, strict=True))))
            d = y - p
            v = p * (1 - p)
            for i in range(k):
                grad[i] += d * x[i]
                vi = v * x[i]
                row = hess[i]
                for j in range(i, k):
                    row[j] += vi * x[j]
        for i in range(k):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    loglik = 0.0
    for x, y in rows:
        z = sum(a * b for a, b in zip(w, x, strict=True))
        loglik -= math.log1p(math.exp(-z)) if y else math.log1p(math.exp(z))
    se = [math.sqrt(max(v, 0.0)) for v in _inverse_diagonal(hess)]
    return w, se, loglik


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="+", type=existing_file,
                    help="game records (PGN-style, three seats)")
    ap.add_argument("--plies", default="30,42",
                    help="plies at which positions are taken, by commas (default 30,42)")
    args = ap.parse_args(argv)
    try:
        args.plies = sorted({int(x) for x in args.plies.split(",")})
    except ValueError:
        ap.error(f"--plies takes whole numbers separated by commas, not {args.plies!r}")
    table = rows_of(args.records, args.plies)
    for ply in args.plies:
        rows = table[ply]
        if len(rows) < 30 * len(COLUMNS):
            print(f"ply {ply}: {len(rows) // 3} games, too few to fit")
            continue
        w, se, loglik = fit(rows)
        print(f"ply {ply}: {len(rows) // 3} games won by a seat, log-likelihood {loglik:.1f}")
        own = w[COLUMNS.index("own position")]
        for name, coef, err in zip(COLUMNS, w, se, strict=True):
            ratio = f"   {100 * coef / own:+5.0f} % of own position" if own and name.startswith(
                ("own", "left", "right")) else ""
            print(f"  {name:15} {coef:+.3f} ± {err:.3f}{ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
