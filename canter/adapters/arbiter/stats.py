"""Match statistics: pure functions over game results, no I/O.

Two seats (engine A against engine B, results from A's point of view):
W/D/L, score, Elo difference with a 95 % interval, LOS, draw ratio, pentanomial counts over
colour-swapped game pairs (and Elo from them), and the generalised SPRT (GSPRT) used by
fishtest, fastchess and cutechess-style arbiters.

Three seats (Tri-Camelot): per-engine average rank, points, and a pairwise "finished ahead
of" table, from each game's ranking.

Conventions: a score is the mean points per game in [0, 1] (win 1, draw 1/2, loss 0); Elo
uses the logistic model `score = 1 / (1 + 10 ** (-elo / 400))`.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from canter.adapters.text import count

Ranking = Sequence[Sequence[Hashable]]  # best first; players sharing a place share a list

# Two-sided 95 % quantile of the standard normal distribution.
Z95 = 1.959963984540054


def elo_from_score(score: float) -> float:
    """Elo difference for an expected score; +-inf at 1 and 0."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


# ---------------------------------------------------------------- two seats


@dataclass(frozen=True)
class EloEstimate:
    """Elo difference with a 95 % interval. `margin` is half the interval's width (the
    "+-" figure cutechess prints); `low`/`high` are the interval's ends, which are not
    symmetric around `elo` because the logistic curve is not linear."""

    elo: float
    low: float
    high: float

    @property
    def margin(self) -> float:
        return (self.high - self.low) / 2.0


@dataclass(frozen=True)
class TwoSeatStats:
    wins: int
    draws: int
    losses: int
    score: float  # mean points per game, in [0, 1]
    draw_ratio: float
    elo: EloEstimate
    los: float  # likelihood of superiority, in [0, 1]

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def describe(self) -> str:
        """One line in the spirit of cutechess's summary."""
        return (
            f"W/D/L {self.wins}/{self.draws}/{self.losses} ({count(self.games, 'game')}), "
            f"score {self.score:.3f}, Elo {self.elo.elo:+.1f} +/- {self.elo.margin:.1f}, "
            f"LOS {100 * self.los:.1f} %, draws {100 * self.draw_ratio:.1f} %"
        )


def _interval(mean: float, variance_of_mean: float) -> EloEstimate:
    spread = Z95 * math.sqrt(variance_of_mean)
    return EloEstimate(
        elo=elo_from_score(mean),
        low=elo_from_score(mean - spread),
        high=elo_from_score(mean + spread),
    )


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: P(A stronger than B) from wins and losses (draws carry no
    information here), normal approximation as in cutechess."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def two_seat_stats(wins: int, draws: int, losses: int) -> TwoSeatStats:
    """W/D/L from A's point of view -> score, Elo with 95 % interval (trinomial variance of
    the per-game score), LOS and draw ratio."""
    n = wins + draws + losses
    if n == 0:
        raise ValueError("no games")
    score = (wins + 0.5 * draws) / n
    variance = (
        wins * (1.0 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * (0.0 - score) ** 2
    ) / n
    if variance <= VAR_FLOOR:
        # Every game the same result: no sample spread, and an interval of +/- 0 would
        # claim a certainty no run has. One pseudo-game spread over the three results
        # gives the spread, as in the SPRT (`sprt`).
        _, variance = _wdl_mean_var(wins + 1 / 3, draws + 1 / 3, losses + 1 / 3)
    return TwoSeatStats(
        wins=wins,
        draws=draws,
        losses=losses,
        score=score,
        draw_ratio=draws / n,
        elo=_interval(score, variance / n),
        los=los(wins, losses),
    )


def wdl(results: Iterable[float]) -> tuple[int, int, int]:
    """Count W/D/L from per-game points (1, 0.5, 0)."""
    w = d = lo = 0
    for r in results:
        if r == 1:
            w += 1
        elif r == 0.5:
            d += 1
        elif r == 0:
            lo += 1
        else:
            raise ValueError(f"a game scores 1, 0.5 or 0, not {r!r}")
    return w, d, lo


# Pentanomial: the points A scores over a pair of games played from one opening with the
# colours swapped: index 0 = 0 points (LL), 1 = 1/2 (LD), 2 = 1 (DD or WL), 3 = 3/2 (WD),
# 4 = 2 (WW).


def pentanomial(pairs: Iterable[tuple[float, float]]) -> tuple[int, int, int, int, int]:
    """Counts [LL, LD, DD+WL, WD, WW] from pairs of per-game points for A."""
    counts = [0, 0, 0, 0, 0]
    for a, b in pairs:
        total = a + b
        index = round(total * 2)
        if index / 2 != total or not 0 <= index <= 4:
            raise ValueError(f"a pair scores 0, 1/2, 1, 3/2 or 2 points, not {total!r}")
        counts[index] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4]


def _wdl_mean_var(w: float, d: float, lo: float) -> tuple[float, float]:
    total = w + d + lo
    mean = (w + 0.5 * d) / total
    return mean, (w * (1 - mean) ** 2 + d * (0.5 - mean) ** 2 + lo * mean**2) / total


def _pair_mean_var(penta: Sequence[float]) -> tuple[float, float, float]:
    """Number of pairs, mean per-game score and per-pair variance of the per-game score."""
    if len(penta) != 5:
        raise ValueError("pentanomial counts have 5 entries")
    n = sum(penta)
    if n <= 0:
        raise ValueError("no game pairs")
    values = (0.0, 0.25, 0.5, 0.75, 1.0)  # pair points / 2 = mean per-game score
    mean = sum(c * v for c, v in zip(penta, values, strict=True)) / n
    var = sum(c * (v - mean) ** 2 for c, v in zip(penta, values, strict=True)) / n
    return n, mean, var


def _scores_mean_var(scores: Sequence[float], pseudo: Sequence[float]) -> tuple[float, float]:
    """Mean and variance of the scores, each pseudo-score weighing 1 / len(pseudo)."""
    weight = 1.0 / len(pseudo) if pseudo else 0.0
    total = len(scores) + weight * len(pseudo)
    mean = (sum(scores) + weight * sum(pseudo)) / total
    var = (sum((x - mean) ** 2 for x in scores)
           + weight * sum((x - mean) ** 2 for x in pseudo)) / total
    return mean, var


def pairwise_score(ranking: Ranking, player: Hashable) -> float | None:
    """The player's mean score in one game against each other player in it: 1 for
    finishing ahead, 1/2 for sharing the place, 0 for finishing behind (None if the
    player is not in the ranking or alone in it)."""
    place = {p: i for i, group in enumerate(ranking) for p in group}
    if player not in place or len(place) < 2:
        return None
    mine = place[player]
    points = [1.0 if mine < at else 0.5 if mine == at else 0.0
              for p, at in place.items() if p != player]
    return sum(points) / len(points)


def scores_elo(scores: Sequence[float]) -> EloEstimate:
    """Elo with 95 % interval from one score in 0..1 per sample (such as a pairwise score
    per multi-seat game), the interval from the scores' spread."""
    n = len(scores)
    if n == 0:
        raise ValueError("no scores")
    mean, var = _scores_mean_var(scores, ())
    if var <= VAR_FLOOR:  # all scores equal: the spread of one pseudo-sample, as `sprt`
        _, var = _scores_mean_var(scores, (0.0, 0.5, 1.0))
    return _interval(mean, var / n)


def pentanomial_elo(penta: Sequence[int]) -> EloEstimate:
    """Elo with 95 % interval, treating each colour-swapped pair as one sample (this
    removes the opening's bias from the variance, as fastchess does)."""
    n, mean, var = _pair_mean_var(penta)
    if var <= VAR_FLOOR:  # all pairs alike: the spread of one pseudo-pair, as `sprt`
        _, _, var = _pair_mean_var([c + 0.2 for c in penta])
    return _interval(mean, var / n)


@dataclass(frozen=True)
class SprtResult:
    llr: float
    lower: float  # accept H0 (elo = elo0) at or below this
    upper: float  # accept H1 (elo = elo1) at or above this
    decision: str | None  # "H0", "H1" or None (go on playing)

    @property
    def finished(self) -> bool:
        return self.decision is not None


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError("alpha and beta lie strictly between 0 and 1")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


VAR_FLOOR = 1e-12  # a sample variance at most this is none: every sample the same
UNSEEN = 1e-3  # the count given an outcome not yet seen: every outcome stays possible
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # pair points / 2: a pair's mean game score
GAME_SCORES = (0.0, 0.5, 1.0)


def _fit_mean(values: Sequence[float], freqs: Sequence[float], mean: float) -> list[float]:
    """The distribution over `values` of the given mean that makes the observed `freqs`
    likeliest: freq_i / (1 + lam (v_i - mean)), with lam the root (found by halving its
    interval, where the root's function falls) that makes the mean right. `mean` lies
    strictly between the least and the greatest value."""
    gaps = [v - mean for v in values]
    lo, hi = -1.0 / max(gaps), -1.0 / min(gaps)  # every 1 + lam * gap above 0 inside

    def excess(lam: float) -> float:
        return sum(f * g / (1.0 + lam * g) for f, g in zip(freqs, gaps, strict=True))

    for _ in range(200):
        mid = (lo + hi) / 2.0
        if mid in (lo, hi):
            break
        if excess(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    lam = (lo + hi) / 2.0
    return [f / (1.0 + lam * g) for f, g in zip(freqs, gaps, strict=True)]


def _gsprt_llr(values: Sequence[float], counts: Sequence[float], elo0: float,
               elo1: float) -> float:
    """Log-likelihood ratio of H1 (mean score s1) against H0 (s0) for samples taking
    `values` `counts` times: each hypothesis's likeliest distribution of that mean (the
    generalised SPRT with the likelihood maximised, as fastchess and fishtest compute
    it). The normal approximation used before, n ((m - s0)^2 - (m - s1)^2) / (2 var),
    took the variance at the sample mean: a few one-sided results (8 won pairs and 1
    drawn) made it next to nothing and accepted H1 after 18 games."""
    counts = [c if c > 0 else UNSEEN for c in counts]
    n = sum(counts)
    freqs = [c / n for c in counts]
    p0 = _fit_mean(values, freqs, score_from_elo(elo0))
    p1 = _fit_mean(values, freqs, score_from_elo(elo1))
    return n * sum(f * math.log(b / a) for f, a, b in zip(freqs, p0, p1, strict=True)
                   if f > 0.0)


def sprt(
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
    *,
    wdl: tuple[int, int, int] | None = None,
    penta: Sequence[int] | None = None,
    scores: Sequence[float] | None = None,
) -> SprtResult:
    """Generalised SPRT (logistic Elo) of H0: elo = elo0 against H1: elo = elo1.

    Give one of `penta` (counts over colour-swapped pairs; preferred, as fastchess),
    `wdl` (per-game counts, trinomial) or `scores` (one score in 0..1 per sample, such as
    an engine's pairwise score in each multi-seat game, see `pairwise_score`). Bounds are
    log(beta/(1-alpha)) and log((1-beta)/alpha). Outcomes not yet seen (a pair class, a
    draw, a score of 0, 1/4, 1/2, 3/4 or 1) count as `UNSEEN` of a sample, so that a short
    one-sided run is weak evidence and a long one still decides."""
    if elo0 >= elo1:
        raise ValueError("elo0 must be below elo1")
    lower, upper = sprt_bounds(alpha, beta)
    if sum(x is not None for x in (wdl, penta, scores)) != 1:
        raise ValueError("give exactly one of wdl=, penta= and scores=")
    if scores is not None:
        if len(scores) == 0:
            raise ValueError("no scores")
        if any(not 0.0 <= x <= 1.0 for x in scores):
            raise ValueError("scores lie in 0..1")
        tally: dict[float, int] = dict.fromkeys(PAIR_SCORES, 0)
        for x in scores:
            tally[x] = tally.get(x, 0) + 1
        values = sorted(tally)
        counts = [tally[v] for v in values]
    elif penta is not None:
        _pair_mean_var(penta)  # (checks the counts)
        values, counts = PAIR_SCORES, list(penta)
    else:
        w, d, lo = wdl  # type: ignore[misc]
        if w + d + lo == 0:
            raise ValueError("no games")
        values, counts = GAME_SCORES, [lo, d, w]
    llr = _gsprt_llr(values, counts, elo0, elo1)
    decision = "H1" if llr >= upper else "H0" if llr <= lower else None
    return SprtResult(llr=llr, lower=lower, upper=upper, decision=decision)


# ---------------------------------------------------------------- three seats


@dataclass
class MultiSeatStats:
    """Per-engine figures over multi-seat games.

    `points`: 1 per game won outright; k players sharing first place get 1/k each.
    `average_rank`: players sharing places share the mean of those places (two tied for
    2nd and 3rd both rank 2.5). `ahead[a][b]`: games in which a finished strictly ahead of
    b; `level[a][b]`: games in which they shared a place."""

    games: dict[Hashable, int] = field(default_factory=dict)
    points: dict[Hashable, float] = field(default_factory=dict)
    rank_sum: dict[Hashable, float] = field(default_factory=dict)
    ahead: dict[Hashable, dict[Hashable, int]] = field(default_factory=dict)
    level: dict[Hashable, dict[Hashable, int]] = field(default_factory=dict)

    def average_rank(self, player: Hashable) -> float:
        return self.rank_sum[player] / self.games[player]

    @property
    def players(self) -> list[Hashable]:
        return list(self.games)

    def add(self, ranking: Ranking) -> None:
        seen = [p for group in ranking for p in group]
        if len(set(seen)) != len(seen):
            raise ValueError(f"a player appears twice in the ranking {ranking!r}")
        if not seen:
            raise ValueError("empty ranking")
        place = 1
        for i, group in enumerate(ranking):
            if not group:
                raise ValueError("empty place in the ranking")
            shared_rank = place + (len(group) - 1) / 2.0
            for p in group:
                self.games[p] = self.games.get(p, 0) + 1
                self.rank_sum[p] = self.rank_sum.get(p, 0.0) + shared_rank
                self.points[p] = self.points.get(p, 0.0) + (1.0 / len(group) if i == 0 else 0.0)
                row = self.ahead.setdefault(p, {})
                lrow = self.level.setdefault(p, {})
                for q in group:
                    if q != p:
                        lrow[q] = lrow.get(q, 0) + 1
                for later in ranking[i + 1 :]:
                    for q in later:
                        row[q] = row.get(q, 0) + 1
            place += len(group)


def multi_seat_stats(rankings: Iterable[Ranking]) -> MultiSeatStats:
    """Fold game rankings (e.g. `[["alpha"], ["beta", "gamma"]]`) into MultiSeatStats."""
    stats = MultiSeatStats()
    for ranking in rankings:
        stats.add(ranking)
    return stats
