"""Tune the evaluation's weights on positions labelled with game results (Texel's method),
in pure Python.

    python bench/texel_tune.py camelot.texel --iterations 400 --out weights.json

The data come from bench/texel_data.py; they are of one game, whose evaluator is fitted
(--variant, if given, must be that game). The evaluation of a two-sided game is linear in its
weights (evaluate.py `Evaluator.terms`, with the endgame quarter applied to the sum but for
the pair race, which is added after it), so each
position's counts are computed once, and an iteration is a few passes over columns of
numbers. First the scale K of the sigmoid  result ~ 1 / (1 + 10^(-K * eval / 400))  is fitted
with the current weights (three seats: result ~ 1 / (1 + 10^(-K * eval / 400 - B)) with an
offset B fitted too, since an even position gives each seat a third, not a half, of a
win), then the weights (Man stays 100: it fixes the scale) follow the
gradient of the mean squared error (Adam steps). A share of the games (--holdout) is kept out
of the fit and its error reported, so overfitting shows; the weights written are those with
the lowest held-out error seen.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import dataclass, field, fields, replace
from operator import mul

import benchargs
from benchargs import existing_file, positive_float, positive_int, share

from canter.engine import VARIANT_NAMES, Position, PositionError, get_variant
from canter.engine.search.evaluate import (
    TERM_NAMES,
    Evaluator,
    Weights,
    term_weights,
    weight_changes,
    weights_for,
    weights_from_terms,
)

LN10 = math.log(10)
# Terms the tuner leaves alone: Man is the unit of the scale.
ANCHOR = ("man",)
PAIR_RACE = TERM_NAMES.index("pair_race")  # added after the endgame quarter, never cut


@dataclass
class Data:
    """Positions as columns: one list of counts per term, the endgame-cut flags, results."""

    cols: list[list[float]] = field(default_factory=lambda: [[] for _ in TERM_NAMES])
    mine_thin: list[bool] = field(default_factory=list)
    theirs_thin: list[bool] = field(default_factory=list)
    results: list[float] = field(default_factory=list)

    def add(self, counts: list[float], mine_thin: bool, theirs_thin: bool,
            result: float) -> None:
        for col, x in zip(self.cols, counts, strict=True):
            col.append(x)
        self.mine_thin.append(mine_thin)
        self.theirs_thin.append(theirs_thin)
        self.results.append(result)

    def __len__(self) -> int:
        return len(self.results)


def parse_result(text: str) -> float:
    """A result of the side to move: a number or a fraction from 0 (a loss) to 1 (a win);
    anything else (`7`, `1/0`, `nan`) is a ValueError, not a label the fit would chase."""
    text = text.strip()
    try:
        if "/" in text:
            a, b = text.split("/")
            value = int(a) / int(b)
        else:
            value = float(text)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"result {text!r} is not a number from 0 to 1") from None
    if not 0.0 <= value <= 1.0:  # (nan fails this too)
        raise ValueError(f"result {text!r} is not a number from 0 to 1")
    return value


class OtherGame(ValueError):
    """A data file's position of another game than the one tuned."""


class Sample(tuple):
    """(game number, position string, result of the side to move), unpacked as a tuple;
    `line` is where the file holds it, so that a bad position found later is named."""

    line: int

    def __new__(cls, game: int, text: str, result: float, line: int = 0) -> Sample:
        sample = super().__new__(cls, (game, text, result))
        sample.line = line
        return sample


def read_samples(path: str, variant: str | None = None) -> list[tuple[int, str, float]]:
    """(game number, position string, result of the side to move) for each line. Every
    position must be of one game: `variant`'s if given, else the first line's (the
    evaluator fitted is that game's, and another game's position would be scored by
    terms that are not its own, or not even fit its board)."""
    samples: list[tuple[int, str, float]] = []
    pending: list[tuple[str, float, int]] = []
    game, first = variant, None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            if line.startswith("#"):
                parts = line.split()
                if len(parts) == 3 and parts[1] == "game" and parts[2].isdecimal():
                    samples += [Sample(int(parts[2]), text, r, k) for text, r, k in pending]
                    pending = []
                continue
            text, sep, label = line.rpartition(" ; result ")
            if not sep:
                raise ValueError(f"{path}:{n}: no ' ; result ' in the line")
            try:
                result = parse_result(label)
            except ValueError as exc:
                raise ValueError(f"{path}:{n}: {exc}") from None
            name = text.split(maxsplit=1)[0] if text.strip() else ""
            if name not in VARIANT_NAMES:
                raise ValueError(f"{path}:{n}: not a position string (it begins "
                                 f"{name[:20]!r}, not the name of a game)")
            if game is None:
                game, first = name, n
            if name != game:
                given = (f"--variant {variant}" if variant else
                         f"the game of line {first}, {game}: tune one game at a time")
                raise OtherGame(f"{path}:{n}: a position of {name}, not of {given}")
            pending.append((text, result, n))
    # Lines after the last game mark (a run cut short) count as one more game.
    samples += [Sample(-1, text, r, k) for text, r, k in pending]
    return samples


def data_variant(samples: list[tuple[int, str, float]]) -> str | None:
    """The game of the positions (read_samples has made them all one), None if none."""
    return samples[0][1].split(maxsplit=1)[0] if samples else None


def build(samples: list[tuple[int, str, float]], ev: Evaluator) -> Data:
    data = Data()
    for sample in samples:
        _, text, result = sample
        try:
            pos = Position.from_string(text)
        except PositionError as exc:
            where = f"line {sample.line}" if isinstance(sample, Sample) else repr(text)
            raise ValueError(f"{where}: not a position string ({exc})") from None
        counts, mine_thin, theirs_thin = ev.terms(pos, pos.turn)
        data.add(counts, mine_thin, theirs_thin, result)
    return data


def split(samples: list[tuple[int, str, float]], holdout: float,
          seed: int = 0) -> tuple[list, list]:
    """Whole games to each side (positions of one game are alike)."""
    games = sorted({g for g, _, _ in samples})
    random.Random(seed).shuffle(games)
    held = set(games[: round(len(games) * holdout)])
    train = [s for s in samples if s[0] not in held]
    valid = [s for s in samples if s[0] in held]
    return train, valid


def _sums(data: Data, weights: list[float]) -> tuple[list[float], list[float]]:
    """Per position: the sum the endgame quarter may cut, and the pair race (never cut)."""
    acc = [0.0] * len(data)
    for j, (w, col) in enumerate(zip(weights, data.cols, strict=True)):
        if w and j != PAIR_RACE:
            acc = [a + w * x for a, x in zip(acc, col, strict=True)]
    race = [weights[PAIR_RACE] * x for x in data.cols[PAIR_RACE]]
    return acc, race


def _cuts(data: Data, acc: list[float]) -> list[float]:
    return [0.25 if (d > 0 and m) or (d < 0 and t) else 1.0
            for d, m, t in zip(acc, data.mine_thin, data.theirs_thin, strict=True)]


def evals(data: Data, weights: list[float]) -> list[float]:
    acc, race = _sums(data, weights)
    return [d * cut + r for d, cut, r in zip(acc, _cuts(data, acc), race, strict=True)]


def _sigmoid(x: float) -> float:
    if x < -50:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def mse(data: Data, weights: list[float], k: float, bias: float = 0.0) -> float:
    if not len(data):
        return float("nan")
    c = k * LN10 / 400
    b = bias * LN10
    total = 0.0
    for e, y in zip(evals(data, weights), data.results, strict=True):
        total += (y - _sigmoid(c * e + b)) ** 2
    return total / len(data)


def _golden(err, a: float, b: float) -> float:
    """The x of least err(x) in [a, b] (err unimodal there)."""
    g = (math.sqrt(5) - 1) / 2
    x1, x2 = b - g * (b - a), a + g * (b - a)
    f1, f2 = err(x1), err(x2)
    for _ in range(60):
        if f1 < f2:
            b, x2, f2 = x2, x1, f1
            x1 = b - g * (b - a)
            f1 = err(x1)
        else:
            a, x1, f1 = x1, x2, f2
            x2 = a + g * (b - a)
            f2 = err(x2)
    return (a + b) / 2


def fit_k(data: Data, weights: list[float], lo: float = 0.01, hi: float = 10.0,
          bias: float = 0.0) -> float:
    """The K of least error: golden-section search on log K (the error is unimodal in K)."""
    es = evals(data, weights)
    return math.exp(_golden(lambda logk: _squares(es, data.results, math.exp(logk), bias),
                            math.log(lo), math.log(hi)))


def fit_bias(data: Data, weights: list[float], k: float) -> float:
    """The offset B of least error for this K, in the sigmoid's units (log10 of the odds)."""
    es = evals(data, weights)
    return _golden(lambda bias: _squares(es, data.results, k, bias), -3.0, 3.0)


def _squares(es: list[float], ys: list[float], k: float, bias: float) -> float:
    """The summed squared error of evals `es` against results `ys` for this K and B."""
    c = k * LN10 / 400
    b = bias * LN10
    return sum((y - _sigmoid(c * e + b)) ** 2 for e, y in zip(es, ys, strict=True))


def fit_scale(data: Data, weights: list[float], offset: bool) -> tuple[float, float]:
    """(K, B): K alone where `offset` is false (B = 0), else K and B in turns."""
    k = fit_k(data, weights)
    if not offset:
        return k, 0.0
    bias = 0.0
    for _ in range(4):
        bias = fit_bias(data, weights, k)
        k = fit_k(data, weights, bias=bias)
    return k, bias


def gradient(data: Data, weights: list[float], k: float, free: list[int],
             bias: float = 0.0) -> list[float]:
    c = k * LN10 / 400
    b = bias * LN10
    n = len(data)
    acc, race = _sums(data, weights)
    cuts = _cuts(data, acc)
    # d MSE / d eval for each position; the endgame quarter scales every term's share of
    # the eval but the pair race's.
    r = []
    for d, cut, rc, y in zip(acc, cuts, race, data.results, strict=True):
        s = _sigmoid(c * (d * cut + rc) + b)
        r.append(2 * (s - y) * s * (1 - s) * c / n)
    g = [0.0] * len(weights)
    for j in free:
        if j == PAIR_RACE:
            g[j] = sum(map(mul, r, data.cols[j]))
        else:
            g[j] = sum(a * cut * x for a, cut, x in zip(r, cuts, data.cols[j], strict=True))
    return g


def tune(train: Data, start: list[float], k: float, iterations: int, rate: float = 1.0,
         valid: Data | None = None, frozen: tuple[str, ...] = (),
         log=None, bias: float = 0.0) -> tuple[list[float], int]:
    """Adam on the training error from `start`. Returns the weights with the lowest held-out
    error seen (the training error's when there is no held-out set) and the iteration they
    were seen at."""
    frozen = frozen + ANCHOR
    free = [j for j, name in enumerate(TERM_NAMES) if name not in frozen]
    w = list(start)
    m = [0.0] * len(w)
    v = [0.0] * len(w)
    b1, b2, eps = 0.9, 0.999, 1e-12
    judge = valid if valid is not None and len(valid) else train
    best, best_err, best_it = list(w), mse(judge, w, k, bias), 0
    for it in range(1, iterations + 1):
        g = gradient(train, w, k, free, bias)
        for j in free:
            m[j] = b1 * m[j] + (1 - b1) * g[j]
            v[j] = b2 * v[j] + (1 - b2) * g[j] * g[j]
            mh = m[j] / (1 - b1 ** it)
            vh = v[j] / (1 - b2 ** it)
            w[j] -= rate * mh / (math.sqrt(vh) + eps)
        if judge is not train or it % 10 == 0 or it == iterations:
            err = mse(judge, w, k, bias)
            if err < best_err:
                best, best_err, best_it = list(w), err, it
        if log and (it % 25 == 0 or it == iterations):
            log(f"iteration {it}: training {mse(train, w, k, bias):.6f}"
                + (f", held out {mse(valid, w, k, bias):.6f}" if judge is valid else ""))
    return best, best_it


TUNED_FIELDS = ("man", "knight", "advance", "race", "defence", "cohesion", "hanging",
                "tempo", "race_step", "defended", "chain", "threat1", "threat2", "pair_race")


def _weights_file_or_none(path: str) -> bool:
    """May `--out` replace the file at `path`? Only if there is none, it is empty, or it
    is a weights file: a JSON object whose keys are evaluation weights (this script's
    own output, or an EvalFile)."""
    try:
        with open(path, "rb") as f:
            data = f.read(1 << 20)
    except FileNotFoundError:
        return True
    except OSError:
        return True  # (check_output_file and the write itself say what is wrong)
    if not data.strip():
        return True
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        return False
    names = {f.name for f in fields(Weights)}
    return isinstance(value, dict) and set(value) <= names


def tuned_json(weights: Weights, game: Weights | None = None) -> dict[str, object]:
    """The tuned fields, and any other field where `weights` differs from the game's own
    (`game`: a --start file's `race_pieces`, say, which shaped the fit and must go with
    it), so that a file loaded for another game changes no more."""
    out: dict[str, object] = {}
    names = list(TUNED_FIELDS)
    if game is not None:
        names += [f.name for f in fields(weights)
                  if f.name not in TUNED_FIELDS
                  and getattr(weights, f.name) != getattr(game, f.name)]
    for name in names:
        value = getattr(weights, name)
        out[name] = list(value) if isinstance(value, tuple) else value
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", type=existing_file, help="a file from bench/texel_data.py")
    ap.add_argument("--variant", type=benchargs.variant, default=None,
                    help="the game of the data (default: the game its positions are of)")
    ap.add_argument("--iterations", type=positive_int, default=300)
    ap.add_argument("--rate", type=positive_float, default=1.0,
                    help="Adam step, in weight units")
    ap.add_argument("--holdout", type=share, default=0.1,
                    help="share of the games kept out of the fit, from 0 (none) to below 1")
    ap.add_argument("--freeze", default="", help="terms left as they are, e.g. hanging,chain")
    ap.add_argument("--start", type=existing_file,
                    help="JSON weights to start from (default: the built-in ones)")
    ap.add_argument("--out", help="write the tuned weights here as JSON")
    a = ap.parse_args(argv)
    changes: dict[str, object] = {}
    if a.start:
        try:
            with open(a.start, encoding="utf-8") as f:
                changes = weight_changes(json.load(f))
        except (OSError, ValueError, RecursionError) as exc:
            ap.error(f"--start {a.start}: {getattr(exc, 'strerror', None) or exc}")
    if a.out:  # checked before hours of tuning, never one of the run's own inputs
        from canter.adapters.files import OutputPathError, check_output_file, same_file

        for given, option in ((a.data, "the data file"), (a.start, "--start")):
            if given and same_file(a.out, given):
                ap.error(f"--out {a.out} is {option}: writing it would destroy it")
        try:
            check_output_file(a.out)
        except OutputPathError as exc:
            ap.error(f"--out {exc}")
        if not _weights_file_or_none(a.out):
            ap.error(f"--out {a.out} exists and is not a weights file (a JSON object of "
                     "evaluation weights); it is left as it is: give another file, or "
                     "remove it first")
    frozen = tuple(filter(None, a.freeze.split(",")))
    for name in frozen:
        if name not in TERM_NAMES:
            ap.error(f"--freeze: no term '{name}' (terms: {', '.join(TERM_NAMES)})")

    def log(text: str) -> None:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()

    started = time.time()
    try:
        samples = [s for s in read_samples(a.data, a.variant)]
    except OtherGame as exc:
        sys.exit(f"Error: {exc}; nothing was tuned or written")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        sys.exit(f"Error: {a.data}: not a data file of bench/texel_data.py ({exc}); nothing "
                 "was tuned or written")
    variant = get_variant(a.variant or data_variant(samples) or "camelot")
    game = weights_for(variant)
    try:
        # Over the game's own weights, as the engine's EvalFile option reads a file.
        base = replace(game, **changes)
    except (TypeError, ValueError) as exc:
        sys.exit(f"Error: --start {a.start}: {exc}")
    train_s, valid_s = split(samples, a.holdout)
    ev = Evaluator(variant, base)
    try:
        train, valid = build(train_s, ev), build(valid_s, ev)
    except ValueError as exc:
        sys.exit(f"Error: {a.data}: {exc}; nothing was tuned or written")
    games = len({g for g, _, _ in samples})
    log(f"{len(samples)} positions from {games} games: {len(train)} to fit, {len(valid)} "
        f"held out ({time.time() - started:.0f} s to read)")
    if not train:
        sys.exit(f"Error: {a.data}: no position to fit (a data file of bench/texel_data.py "
                 "holds one per line): nothing was tuned or written")
    start = [float(x) for x in term_weights(base)]
    three = variant.nseats > 2 and not variant.is_team_game
    k, bias = fit_scale(train, start, offset=three)
    scale = f"K = {k:.4f}" + (f", B = {bias:.4f}" if three else "")
    before = (mse(train, start, k, bias), mse(valid, start, k, bias))
    log(f"{scale}; error before: training {before[0]:.6f}, held out {before[1]:.6f}")
    best, at = tune(train, start, k, a.iterations, a.rate, valid, frozen, log, bias)
    tuned = weights_from_terms(best, base)
    final = [float(x) for x in term_weights(tuned)]  # rounded, as the engine will use them
    after = (mse(train, final, k, bias), mse(valid, final, k, bias))
    print(f"positions: {len(train)} to fit, {len(valid)} held out; {scale}")
    print(f"error before: training {before[0]:.6f}, held out {before[1]:.6f}")
    print(f"error after:  training {after[0]:.6f}, held out {after[1]:.6f} "
          f"(weights of iteration {at})")
    print(f"{'term':10} {'before':>7} {'after':>7}")
    for name, x, y in zip(TERM_NAMES, start, final, strict=True):
        print(f"{name:10} {x:7.0f} {y:7.0f}")
    if a.out:
        from canter.adapters.files import replace_file

        try:  # whole or not at all
            replace_file(a.out, json.dumps(tuned_json(tuned, game), indent=1) + "\n")
        except OSError as exc:
            print(json.dumps(tuned_json(tuned, game), indent=1))  # the hours of work
            sys.exit(f"Error: --out {a.out}: cannot be written ({exc.strerror}); the "
                     "weights are printed above")
        print(f"weights written to {a.out}")
    print(f"{time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
