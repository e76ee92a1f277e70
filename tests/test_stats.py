"""Statistics against figures worked out by hand (the working is in the comments)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from canter.adapters.arbiter.stats import (
    PAIR_SCORES,
    UNSEEN,
    _fit_mean,
    elo_from_score,
    los,
    multi_seat_stats,
    pairwise_score,
    pentanomial,
    pentanomial_elo,
    score_from_elo,
    scores_elo,
    sprt,
    sprt_bounds,
    two_seat_stats,
    wdl,
)


def close(a: float, b: float, tol: float = 0.05) -> bool:
    return abs(a - b) <= tol


def test_elo_score_curve():
    # 0.75 -> -400 log10(1/0.75 - 1) = -400 log10(1/3) = 400 * 0.477121 = 190.85
    assert close(elo_from_score(0.75), 190.85)
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    # 10^(-100/400) = 0.562341 -> 1/1.562341 = 0.640065
    assert close(score_from_elo(100), 0.640065, 1e-6)


def test_two_seat_6_2_2():
    s = two_seat_stats(6, 2, 2)
    # score = (6 + 2/2) / 10 = 0.7 ; draw ratio 2/10
    assert s.score == pytest.approx(0.7)
    assert s.draw_ratio == pytest.approx(0.2)
    assert s.games == 10
    # Elo = -400 log10(1/0.7 - 1) = -400 log10(0.428571) = -400 * -0.367977 = 147.19
    assert close(s.elo.elo, 147.19)
    # per-game variance = (6*0.3^2 + 2*0.2^2 + 2*0.7^2)/10 = (0.54+0.08+0.98)/10 = 0.16
    # sd of mean = sqrt(0.16/10) = 0.126491 ; 1.959964 * 0.126491 = 0.247918
    # high: score 0.947918 -> -400 log10(0.054944) = 504.02
    # low:  score 0.452082 -> -400 log10(1.211980) = -33.40
    assert close(s.elo.high, 504.02, 0.1)
    assert close(s.elo.low, -33.40, 0.1)
    assert close(s.elo.margin, (504.02 + 33.40) / 2, 0.1)
    # LOS = 1/2 (1 + erf((6-2)/sqrt(2*8))) = 1/2 (1 + erf(1)) = 1/2 (1.842701) = 0.921350
    assert s.los == pytest.approx(0.921350, abs=1e-6)
    assert s.describe() == (
        "W/D/L 6/2/2 (10 games), score 0.700, Elo +147.2 +/- 268.7, LOS 92.1 %, draws 20.0 %"
    )


def test_two_seat_even_and_edges():
    s = two_seat_stats(3, 4, 3)
    assert s.elo.elo == 0.0 and s.los == pytest.approx(0.5)
    # symmetric interval around 0 when the score is exactly 1/2
    assert s.elo.low == pytest.approx(-s.elo.high)
    assert los(0, 0) == 0.5
    with pytest.raises(ValueError):
        two_seat_stats(0, 0, 0)


def test_wdl_counts():
    assert wdl([1, 0.5, 0, 1, 1]) == (3, 1, 1)
    with pytest.raises(ValueError):
        wdl([0.25])


PAIRS = [(1, 1), (1, 0.5), (0.5, 0.5), (0, 1), (0, 0.5), (1, 0)]


def test_pentanomial_counts_and_elo():
    # pair totals 2, 1.5, 1, 1, 0.5, 1 -> [LL=0, LD=1, DD+WL=3, WD=1, WW=1]
    penta = pentanomial(PAIRS)
    assert penta == (0, 1, 3, 1, 1)
    e = pentanomial_elo(penta)
    # mean per-game score = (0.25 + 3*0.5 + 0.75 + 1)/6 = 3.5/6 = 0.583333
    # -400 log10(1/0.583333 - 1) = -400 log10(0.714286) = 58.45
    assert close(e.elo, 58.45)
    # pair variance = ((0.25-m)^2 + 3(0.5-m)^2 + (0.75-m)^2 + (1-m)^2)/6
    #   = (0.111111 + 0.020833 + 0.027778 + 0.173611)/6 = 0.055556
    # sd of mean = sqrt(0.055556/6) = 0.096225 ; * 1.959964 = 0.188597
    # high: 0.771930 -> -400 log10(0.295455) = 211.8 ; low: 0.394736 -> -400 log10(1.533338) = -74.2
    assert close(e.high, 211.8, 0.3)
    assert close(e.low, -74.2, 0.3)
    with pytest.raises(ValueError):
        pentanomial([(1, 0.25)])


def _likeliest_wdl(freqs: tuple[float, float, float], mean: float) -> list[float]:
    """The (loss, draw, win) distribution of the given mean score that makes `freqs`
    likeliest, found by a plain search over its one free share (the win), not by the
    formula the code uses: draw = 2 (mean - win), loss = 1 - win - draw."""
    def shares(win: float) -> list[float]:
        draw = 2 * (mean - win)
        return [1 - win - draw, draw, win]

    def loglik(win: float) -> float:
        return sum(f * math.log(p) for f, p in zip(freqs, shares(win), strict=True))

    lo, hi = max(0.0, 2 * mean - 1) + 1e-12, mean - 1e-12  # every share above 0
    for _ in range(200):  # ternary search: the log-likelihood is concave in the share
        a, b = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if loglik(a) < loglik(b):
            lo = a
        else:
            hi = b
    return shares((lo + hi) / 2)


@pytest.mark.parametrize("wdl, elo1", [((60, 20, 20), 50), ((20, 20, 60), 50),
                                       ((31, 40, 29), 5), ((7, 2, 3), 20)])
def test_sprt_llr_from_wdl_is_the_ratio_of_the_likeliest_distributions(wdl, elo1):
    w, d, lo = wdl
    n = w + d + lo
    freqs = (lo / n, d / n, w / n)
    p0 = _likeliest_wdl(freqs, score_from_elo(0))
    p1 = _likeliest_wdl(freqs, score_from_elo(elo1))
    expected = n * sum(f * math.log(b / a) for f, a, b in zip(freqs, p0, p1, strict=True))
    assert sprt(0, elo1, wdl=wdl).llr == pytest.approx(expected, abs=1e-6)


def test_sprt_decides_both_ways_from_wdl():
    assert sprt(0, 50, wdl=(60, 20, 20)).decision == "H1"  # LLR +5.96
    assert sprt(0, 50, wdl=(20, 20, 60)).decision == "H0"  # LLR -8.41
    # bounds ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = +2.944439
    r = sprt(0, 10, 0.05, 0.05, penta=(0, 1, 3, 1, 1))
    assert r.lower == pytest.approx(-2.944439, abs=1e-6)
    assert r.upper == pytest.approx(2.944439, abs=1e-6)
    assert r.decision is None and not r.finished
    # asymmetric alpha/beta: lower = ln(0.1/0.95) = -2.251292, upper = ln(0.9/0.05) = 2.890372
    assert sprt_bounds(0.05, 0.1) == pytest.approx((-2.251292, 2.890372), abs=1e-6)


@given(counts=st.lists(st.integers(0, 50), min_size=5, max_size=5).filter(
           lambda c: sum(c) > 0),
       elo=st.floats(-300, 300), seed=st.integers(0, 2**32 - 1))
def test_the_fitted_pentanomial_is_the_likeliest_of_its_mean(counts, elo, seed):
    """The distribution each hypothesis is scored by: its mean is the hypothesis's, and no
    small change that keeps the total and the mean makes the counts likelier."""
    import random

    values = PAIR_SCORES
    n = sum(c or UNSEEN for c in counts)
    freqs = [(c or UNSEEN) / n for c in counts]
    mean = score_from_elo(elo)
    fitted = _fit_mean(values, freqs, mean)
    assert sum(fitted) == pytest.approx(1.0, abs=1e-9)
    assert sum(p * v for p, v in zip(fitted, values, strict=True)) == pytest.approx(mean,
                                                                                   abs=1e-9)

    def loglik(dist):
        return sum(f * math.log(p) for f, p in zip(freqs, dist, strict=True))

    rng = random.Random(seed)
    for _ in range(5):
        # a direction d with sum(d) = 0 and sum(d * v) = 0: three free parts, the 4th and
        # 5th solved for
        d = [rng.uniform(-1, 1) for _ in range(3)]
        # d3 + d4 = -sum(d[:3]); 0.75 d3 + d4 = -sum(d_i v_i, i < 3)
        rest, moment = -sum(d), -sum(x * v for x, v in zip(d, values, strict=False))
        d3 = (rest - moment) / 0.25
        d.extend([d3, rest - d3])
        step = 1e-4 * min(fitted) / max(abs(x) for x in d)
        for sign in (1, -1):
            moved = [p + sign * step * x for p, x in zip(fitted, d, strict=True)]
            assert loglik(moved) <= loglik(fitted) + 1e-12


def test_a_few_one_sided_pairs_do_not_decide():
    # Eight pairs won twice and one won once: the normal approximation, with the variance
    # taken at the sample mean, put the LLR at +4.92 and accepted H1 after 18 games. The
    # likeliest distributions of mean 0.5 and 0.5072 both fit such a run badly: +0.13.
    r = sprt(0, 5, penta=(0, 0, 0, 1, 8))
    assert r.llr == pytest.approx(0.1286, abs=1e-3) and r.decision is None
    # and mirrored
    assert sprt(0, 5, penta=(8, 1, 0, 0, 0)).decision is None
    # Near even and many pairs, the two agree within a few per cent (the normal
    # approximation: n ((m - s0)^2 - (m - s1)^2) / (2 var), worked below).
    penta = (144, 20, 506, 25, 182)
    n = sum(penta)
    m = sum(c * v for c, v in zip(penta, PAIR_SCORES, strict=True)) / n
    var = sum(c * (v - m) ** 2 for c, v in zip(penta, PAIR_SCORES, strict=True)) / n
    s0, s1 = score_from_elo(0), score_from_elo(5)
    normal = n * ((m - s0) ** 2 - (m - s1) ** 2) / (2 * var)
    assert sprt(0, 5, penta=penta).llr == pytest.approx(normal, rel=0.03)


def test_sprt_rejects_bad_arguments():
    with pytest.raises(ValueError):
        sprt(5, 0, wdl=(1, 1, 1))
    with pytest.raises(ValueError):
        sprt(0, 5)
    with pytest.raises(ValueError):
        sprt(0, 5, alpha=0, wdl=(1, 1, 1))
    # Three straight wins: evidence for H1 (pseudo-counts keep the variance above zero),
    # but not yet a decision.
    early = sprt(0, 5, wdl=(3, 0, 0))
    assert early.llr > 0 and early.decision is None


def test_three_seat_tables():
    games = [
        [["A"], ["B", "C"]],  # A wins; B and C share 2nd/3rd -> rank 2.5 each
        [["B"], ["C"], ["A"]],  # B first, C second, A third
        [["A", "B", "C"]],  # a draw: all share 1st-3rd -> rank 2, points 1/3 each
    ]
    s = multi_seat_stats(games)
    # points: A 1 + 0 + 1/3 = 1.3333 ; B 0 + 1 + 1/3 = 1.3333 ; C 0 + 0 + 1/3 = 0.3333
    assert s.points["A"] == pytest.approx(4 / 3)
    assert s.points["B"] == pytest.approx(4 / 3)
    assert s.points["C"] == pytest.approx(1 / 3)
    # ranks: A (1 + 3 + 2)/3 = 2 ; B (2.5 + 1 + 2)/3 = 1.8333 ; C (2.5 + 2 + 2)/3 = 2.1667
    assert s.average_rank("A") == pytest.approx(2.0)
    assert s.average_rank("B") == pytest.approx(5.5 / 3)
    assert s.average_rank("C") == pytest.approx(6.5 / 3)
    # ahead: game 1 A>B, A>C ; game 2 B>C, B>A, C>A
    assert s.ahead["A"] == {"B": 1, "C": 1}
    assert s.ahead["B"] == {"C": 1, "A": 1}
    assert s.ahead["C"] == {"A": 1}
    # level: game 1 B=C ; game 3 all pairs
    assert s.level["B"]["C"] == 2 and s.level["A"]["B"] == 1
    assert s.games == {"A": 3, "B": 3, "C": 3}
    with pytest.raises(ValueError):
        multi_seat_stats([[["A"], ["A"]]])


def test_sprt_decides_a_run_of_identical_results():
    # Colour-swapped pairs all won twice: no spread, yet a long enough run is plainly H1
    # (each outcome not seen counts as a thousandth of a pair, so 250 pairs, LLR +3.57:
    # a run that one-sided fits neither hypothesis well, and 0..5 tells them apart slowly).
    assert sprt(0, 5, penta=(0, 0, 0, 0, 250)).decision == "H1"
    assert sprt(0, 5, penta=(250, 0, 0, 0, 0)).decision == "H0"
    assert sprt(0, 5, wdl=(500, 0, 0)).decision == "H1"
    assert sprt(0, 5, penta=(0, 0, 0, 0, 150)).decision is None
    # One pair alone decides nothing.
    assert sprt(0, 5, penta=(0, 0, 0, 0, 1)).decision is None


def test_pairwise_score_of_one_multi_seat_game():
    # Ahead of both: 1; behind both: 0; first shared with one, ahead of the third:
    # (1/2 + 1) / 2 = 3/4; not in the game: None.
    assert pairwise_score([["a"], ["b"], ["c"]], "a") == 1.0
    assert pairwise_score([["a"], ["b"], ["c"]], "c") == 0.0
    assert pairwise_score([["a", "b"], ["c"]], "b") == 0.75
    assert pairwise_score([["b"], ["a", "c"]], "a") == 0.25
    assert pairwise_score([["b"], ["c"]], "a") is None


def test_sprt_and_elo_from_scores():
    # Scores 1, 1/2, 1/2, 1/4, 3/4, 1: mean 4/6 = 0.666667; squared deviations
    # 0.111111, 0.027778, 0.027778, 0.173611, 0.006944, 0.111111: variance 0.458333/6
    # = 0.076389. The SPRT over scores that are all quarters is the pentanomial one over
    # their counts (0, 1/4, 1/2, 3/4, 1: 0, 1, 2, 1, 2).
    scores = [1.0, 0.5, 0.5, 0.25, 0.75, 1.0]
    r = sprt(0, 50, scores=scores)
    assert r.llr == pytest.approx(sprt(0, 50, penta=(0, 1, 2, 1, 2)).llr, abs=1e-9)
    assert 0 < r.llr < 2.9 and r.decision is None
    # Elo of 0.666667 = 400 log10(2) = +120.4; interval from the variance of the mean
    # 0.076389 / 6 = 0.012731, spread 1.96 * 0.112833 = 0.221148: 0.445519 .. 0.887815.
    est = scores_elo(scores)
    assert est.elo == pytest.approx(120.41, abs=0.01)
    assert est.low == pytest.approx(elo_from_score(0.445519), abs=0.05)
    assert est.high == pytest.approx(elo_from_score(0.887815), abs=0.05)
    # Many such games decide for H1; their mirror image for H0.
    assert sprt(0, 50, scores=scores * 20).decision == "H1"
    assert sprt(0, 50, scores=[1 - x for x in scores] * 20).decision == "H0"
    # All equal: the outcomes not seen keep a share, and a long run decides.
    assert sprt(0, 5, scores=[1.0] * 250).decision == "H1"
    assert sprt(0, 5, scores=[1.0]).decision is None
    # Equal scores that are not binary fractions: their variance is rounding error, and
    # they count as equal too, not as an infinitely sure result.
    for equal in ([0.7] * 3, [1 / 3] * 10, [0.1] * 10):
        r = sprt(0, 5, scores=equal)
        assert r.decision is None and abs(r.llr) < 1, (equal[0], r.llr)
    with pytest.raises(ValueError, match="0..1"):
        sprt(0, 5, scores=[1.5])
    with pytest.raises(ValueError, match="exactly one"):
        sprt(0, 5, scores=[1.0], wdl=(1, 0, 0))


def test_a_run_of_identical_results_never_claims_an_interval_of_zero():
    """No sample spread (every game or pair alike): the interval takes the spread of one
    pseudo-sample, as the SPRT does, and narrows as the run grows."""
    for few, many in ((two_seat_stats(0, 4, 0).elo, two_seat_stats(0, 400, 0).elo),
                      (pentanomial_elo((0, 0, 2, 0, 0)), pentanomial_elo((0, 0, 200, 0, 0))),
                      (scores_elo([0.5] * 4), scores_elo([0.5] * 400))):
        assert few.elo == 0.0 and few.low < 0 < few.high
        assert 0 < many.margin < few.margin
    # pseudo-pair over [0, 0, 2, 0, 0]: 2.2 pairs at 0.5 and 0.2 each at 0, .25, .75, 1
    # (mean 0.5): variance (0.2 * (0.0625 + 0.25) * 2) / 3 = 0.041667; of the mean over 2
    # pairs 0.020833, spread 1.959964 * 0.144338 = 0.282897: 0.217103 .. 0.782897
    e = pentanomial_elo((0, 0, 2, 0, 0))
    assert e.high == pytest.approx(elo_from_score(0.782897), abs=0.05)
    # all won: the Elo is infinite, its lower end finite
    won = pentanomial_elo((0, 0, 0, 0, 3))
    assert won.elo == math.inf and 0 < won.low < math.inf
