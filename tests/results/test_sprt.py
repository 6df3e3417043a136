"""The sequential tests against independent references computed with scipy, and their verdicts.

The references maximise the likelihoods directly (scipy's SLSQP over the simplex with the mean as a
constraint; the normal likelihood with scipy.stats), sharing no code with :mod:`rookarena.results.sprt`.
"""

from __future__ import annotations

import decimal
import math
import random
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import optimize  # type: ignore[import-untyped]
from scipy import stats as scipy_stats

from rookarena.results import caps, sprt, tables
from rookarena.results.sprt import Hypothesis, Model, SequentialTest, sprt_bounds
from rookarena.results.stats import expected_score


def reference_llr(counts: list[float], elo0: float, elo1: float) -> float:
    """The generalised LLR by brute force: the constrained maximum likelihood of each hypothesis, by SLSQP."""
    size = len(counts)
    values = [i / (size - 1) for i in range(size)]
    regular = [c if c > 0 else 1e-3 for c in counts]

    def best(s: float) -> float:
        def minus(q: list[float]) -> float:
            return -sum(c * math.log(max(x, 1e-300)) for c, x in zip(regular, q, strict=True))

        constraints = [
            {"type": "eq", "fun": lambda q: sum(q) - 1},
            {"type": "eq", "fun": lambda q: sum(v * x for v, x in zip(values, q, strict=True)) - s},
        ]
        start = [1 / size] * size
        found = optimize.minimize(
            minus,
            start,
            method="SLSQP",
            bounds=[(1e-12, 1)] * size,
            constraints=constraints,
            options={"ftol": 1e-15, "maxiter": 1000},
        )
        assert found.success, found.message
        return -float(found.fun)

    return best(expected_score(elo1)) - best(expected_score(elo0))


CASES = [
    ([3, 5, 2], 0, 10),
    ([10, 0, 30], -10, 0),
    ([1, 2, 3, 4, 5], -10, 0),
    ([5, 20, 150, 25, 6], 0, 5),
    ([0, 0, 19], 0, 10),
    ([40, 10, 300, 12, 38], -5, 5),
]


@pytest.mark.parametrize(("counts", "elo0", "elo1"), CASES)
def test_gsprt_llr_matches_the_brute_force_maximum_likelihood(counts: list[float], elo0: float, elo1: float) -> None:
    assert sprt.gsprt_llr(counts, elo0, elo1) == pytest.approx(reference_llr(counts, elo0, elo1), abs=1e-5)


def test_gsprt_reference_constants() -> None:
    # Computed once with reference_llr above (scipy 1.17, SLSQP): fixed so that a change shows here.
    assert sprt.gsprt_llr([0, 0, 19], 0, 10) == pytest.approx(0.538994, abs=1e-5)
    assert sprt.gsprt_llr([3, 5, 2], 0, 10) == pytest.approx(-0.0656338, abs=1e-5)
    assert sprt.gsprt_llr([1, 2, 3, 4, 5], -10, 0) == pytest.approx(0.297925, abs=1e-5)


def test_nineteen_straight_wins_do_not_decide_the_exact_test() -> None:
    # The normal approximation accepted H1 for [0, 10] after 19 straight wins (LLR 2.97); the exact
    # generalised SPRT, with fishtest's regularisation, needs 104.
    assert sprt.normal_llr([0, 0, 19], 0, 10) == pytest.approx(2.9658, abs=1e-4)
    test = SequentialTest(Model.TRINOMIAL, 0, 10)
    tally = test.start()
    while tally.result().decision is None and tally.games < 200:
        tally = tally.add_game(1.0)
    assert (tally.games, tally.result().decision) == (104, Hypothesis.H1)


def test_the_pentanomial_llr_counts_pairs() -> None:
    # A pair of 1 (a win and a loss, or two draws) is evidence of equality; its games' scores alone
    # would look like the trinomial [1, 0, 1] per pair.
    tally = SequentialTest(Model.PENTANOMIAL, 0, 10).start()
    for _ in range(300):
        tally = tally.add_pair(1.0, 0.0)
    got = tally.result()
    assert (got.games, got.pairs) == (600, 300)
    assert got.llr == pytest.approx(reference_llr([0, 0, 300, 0, 0], 0, 10), abs=1e-4)
    assert got.decision is Hypothesis.H0


def test_points_llr_matches_the_normal_likelihood() -> None:
    rng = random.Random(5)
    diffs = [rng.gauss(30, 200) for _ in range(40)]
    sd = float(scipy_stats.tstd(diffs))  # the unbiased sample deviation

    def log_likelihood(mu: float) -> float:
        return float(sum(scipy_stats.norm.logpdf(d, mu, sd) for d in diffs))

    want = log_likelihood(50) - log_likelihood(0)
    mean = float(scipy_stats.tmean(diffs))
    assert sprt.points_llr(len(diffs), mean, sd**2, 0, 50) == pytest.approx(want, abs=1e-9)


def reference_points_llr(diffs: list[float], d0: float, d1: float) -> float:
    """The points test's LLR written out from the values themselves, with scipy: each hypothesis' empirical
    likelihood from the root of its dual equation (Brent's bracketing method, not Newton's), the two
    regularising observations, and the Bartlett factor from scipy's moments."""
    width = d1 - d0
    counted = sorted(Counter((d - d0) / width for d in diffs).items())
    values = [v for v, _ in counted]
    lowest, highest = min(values[0], 0.0) - 1.0, max(values[-1], 1.0) + 1.0
    points = [lowest, *values, highest]
    weights = [1e-3, *(float(c) for _, c in counted), 1e-3]
    total = math.fsum(weights)

    def log_likelihood(s: float) -> float:
        g = [v - s for v in points]

        def dual(x: float) -> float:
            return math.fsum(w * gi / (1 + x * gi) for w, gi in zip(weights, g, strict=True))

        lo, hi = -1 / max(g), -1 / min(g)
        x = optimize.brentq(dual, lo + 1e-12 * (hi - lo), hi - 1e-12 * (hi - lo), xtol=1e-300, rtol=1e-15, maxiter=2000)
        return -math.fsum(w * math.log1p(x * gi) for w, gi in zip(weights, g, strict=True))

    llr = log_likelihood(1.0) - log_likelihood(0.0)
    scaled = [(d - d0) / width for d in diffs]
    a = 0.0
    if max(scaled) > min(scaled):
        kurtosis = float(scipy_stats.kurtosis(scaled, fisher=False))
        skewness = float(scipy_stats.skew(scaled))
        a = min(sprt.BARTLETT_CLAMP, max(0.0, kurtosis / 2 - skewness**2 / 3))
    assert total > len(diffs)
    return llr / (1 + a / len(diffs))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(-120, 120).map(lambda k: 5.0 * k), min_size=2, max_size=60),
    st.floats(-300, 300),
    st.floats(1, 300),
)
def test_the_points_llr_is_the_regularised_empirical_likelihood_ratio(
    diffs: list[float], d0: float, width: float
) -> None:
    tally = SequentialTest(Model.POINTS, d0, d0 + width).start()
    for d in diffs:
        tally = tally.add_pair(1.0, d)
    assert tally.differences == tuple(sorted(Counter(diffs).items()))
    llr = tally.result().llr
    assert math.isfinite(llr)
    assert llr == pytest.approx(reference_points_llr(diffs, d0, d0 + width), rel=1e-7, abs=1e-7)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(-60, 60).map(lambda k: 5.0 * k), min_size=2, max_size=40),
    st.floats(-300, 300),
    st.floats(1, 300),
    st.floats(-500, 500),
    st.floats(0.1, 10),
)
def test_the_points_llr_does_not_depend_on_the_unit_or_the_origin(
    diffs: list[float], d0: float, width: float, shift: float, scale: float
) -> None:
    """Moving the differences and both hypotheses together, or measuring them in another unit, changes
    no likelihood: the LLR stays the same."""

    def llr(values: list[float], h0: float, h1: float) -> float:
        tally = SequentialTest(Model.POINTS, h0, h1).start()
        for v in values:
            tally = tally.add_pair(1.0, v)
        return tally.result().llr

    base = llr(diffs, d0, d0 + width)
    moved = llr([scale * d + shift for d in diffs], scale * d0 + shift, scale * (d0 + width) + shift)
    assert moved == pytest.approx(base, rel=1e-6, abs=1e-6)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(-4000, 4000).map(lambda k: 5.0 * k), min_size=1, max_size=120),
    st.floats(-10_000, 10_000),
    st.floats(sprt.POINTS_MIN_WIDTH, 20_000),
)
def test_the_points_llr_is_finite_for_any_differences_and_bounds(diffs: list[float], d0: float, width: float) -> None:
    d1 = d0 + width
    assume(d1 - d0 >= sprt.POINTS_MIN_WIDTH and d1 <= sprt.POINTS_LIMIT)
    tally = SequentialTest(Model.POINTS, d0, d1).start()
    for d in diffs:
        tally = tally.add_pair(1.0, d)
    llr = tally.result().llr
    assert math.isfinite(llr)
    if len(set(diffs)) == 1 and abs(diffs[0] - d0) != abs(diffs[0] - d1):
        # One value seen, however often: the hypothesis nearer to it is favoured.
        assert (llr > 0) == (abs(diffs[0] - d1) < abs(diffs[0] - d0)), llr


def test_a_skewed_sample_leans_to_the_hypothesis_on_its_long_tail() -> None:
    # Many small losses and a few big wins, with the mean exactly between the hypotheses: the normal test
    # is even (LLR 0); the empirical likelihood reaches the upper mean by weighting the few big wins a
    # little more, which costs less likelihood than the lower one, so the sample leans to H1. Mirrored,
    # to H0, by as much.
    right = [-20.0] * 80 + [300.0] * 8 + [0.0] * 12
    mean = sum(right) / len(right)
    assert sprt.points_llr(len(right), mean, 1.0, mean - 10, mean + 10) == 0

    def llr(values: list[float], h0: float, h1: float) -> float:
        tally = SequentialTest(Model.POINTS, h0, h1).start()
        for v in values:
            tally = tally.add_pair(1.0, v)
        return tally.result().llr

    leaning = llr(right, mean - 10, mean + 10)
    assert leaning > 0.1
    assert llr([-d for d in right], -mean - 10, -mean + 10) == pytest.approx(-leaning)


@pytest.mark.parametrize(
    ("values", "want"),
    [
        ([1.0, 1.0, 1.0], 0.0),  # no spread
        ([-1.0, 1.0], 0.5),  # two points: kurtosis 1, no skew
        ([0.0] * 98 + [1.0, -1.0], sprt.BARTLETT_CLAMP),  # kurtosis 50: clamped
        ([0.0, 0.0, 0.0, 1.0], 7 / 6 - 4 / 9),  # kurtosis 7/3, skewness² 4/3
    ],
)
def test_the_bartlett_factor(values: list[float], want: float) -> None:
    assert sprt.bartlett(values, [1.0] * len(values)) == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize(
    ("bounds", "diffs", "sign"),
    [
        ((-20, 0), [0.0] * 100, 1),  # identical bots: a plain, finite LLR (it was 50000000000.00)
        ((0, 1e4), [0.0] * 100, -1),
        ((-1e4, 1e4), [5.0, -5.0] * 50, 0),
    ],
)
def test_points_llr_stays_finite_and_plain(bounds: tuple[float, float], diffs: list[float], sign: int) -> None:
    tally = SequentialTest(Model.POINTS, *bounds).start()
    for d in diffs:
        tally = tally.add_pair(1.0, d)
    llr = tally.result().llr
    assert math.isfinite(llr) and abs(llr) < 1000
    assert (llr > 1e-9) - (llr < -1e-9) == sign
    assert f"{llr:.2f}" in tables.sprt_text(tally.result())


def test_points_test_waits_for_its_minimum_pairs() -> None:
    tally = SequentialTest(Model.POINTS, -50, 0).start()
    for i in range(sprt.POINTS_MIN_PAIRS - 1):
        tally = tally.add_pair(2.0, 800.0 + i)
        assert tally.result().decision is None
    tally = tally.add_pair(2.0, 810.0)
    assert tally.result().decision is Hypothesis.H1


@pytest.mark.parametrize(
    ("h0", "h1", "alpha", "beta", "message"),
    [
        (10, 0, 0.05, 0.05, "elo0 < elo1"),
        (0, 0, 0.05, 0.05, "elo0 < elo1"),
        (math.nan, 10, 0.05, 0.05, "finite"),
        (0, math.inf, 0.05, 0.05, "finite"),
        (0, 1500, 0.05, 0.05, "within"),
        (0, 10, 0.5, 0.5, "alpha \\+ beta < 1"),
        (0, 10, 0.0, 0.05, "0 < alpha"),
        (0, 10, 0.05, 1.0, "beta"),
    ],
)
def test_bad_parameters_are_refused(h0: float, h1: float, alpha: float, beta: float, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SequentialTest(Model.PENTANOMIAL, h0, h1, alpha, beta)


def test_bounds() -> None:
    assert sprt.sprt_bounds() == pytest.approx((-2.9444390, 2.9444390))
    assert sprt.sprt_bounds(0.1, 0.2) == pytest.approx((math.log(0.2 / 0.9), math.log(0.8 / 0.1)))


def result(h0: float, h1: float, decision: Hypothesis | None, model: Model = Model.PENTANOMIAL) -> sprt.SPRTResult:
    return sprt.SPRTResult(100, 0.0, -2.94, 2.94, h0, h1, decision, model, 50)


@pytest.mark.parametrize(
    ("h0", "h1", "decision", "worse", "answer"),
    [
        (-10, 0, Hypothesis.H0, True, "yes: NEW is worse"),
        (-10, 0, Hypothesis.H1, False, "no: NEW is not worse"),
        (0, 10, Hypothesis.H0, False, "no: NEW is not shown better"),
        (0, 10, Hypothesis.H1, False, "yes: NEW is better"),
        (-5, 5, Hypothesis.H0, False, "nearer -5 Elo"),
        (-20, -10, Hypothesis.H0, True, "yes: NEW is worse"),
        (-10, 0, None, False, "undecided after 100 games"),
    ],
)
def test_verdicts(h0: float, h1: float, decision: Hypothesis | None, worse: bool, answer: str) -> None:
    got = sprt.verdict(result(h0, h1, decision))
    assert (got.worse, got.answer) == (worse, answer)


def test_points_verdict_names_its_unit() -> None:
    got = sprt.verdict(result(-50, 0, Hypothesis.H0, Model.POINTS))
    assert got.worse
    assert "points per deal pair" in got.question


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=5, max_size=5))
def test_pentanomial_llr_is_finite_and_antisymmetric(counts: list[int]) -> None:
    llr = sprt.gsprt_llr(counts, -5, 5)
    assert math.isfinite(llr)
    assert sprt.gsprt_llr(counts[::-1], -5, 5) == pytest.approx(-llr, abs=1e-7)


def test_tallies_refuse_the_other_unit() -> None:
    with pytest.raises(ValueError, match="counts deal pairs"):
        SequentialTest(Model.PENTANOMIAL, 0, 10).start().add_game(1.0)
    with pytest.raises(ValueError, match="counts games"):
        SequentialTest(Model.TRINOMIAL, 0, 10).start().add_pair(1.0, 0.0)
    with pytest.raises(ValueError, match="expected a score among"):
        SequentialTest(Model.PENTANOMIAL, 0, 10).start().add_pair(0.3, 0.0)


# --- what a cap allows -----------------------------------------------------------------------------------


def compositions(n: int, size: int) -> list[list[int]]:
    """Every count vector of ``size`` outcomes summing to n."""
    if size == 1:
        return [[n]]
    return [[k, *rest] for k in range(n + 1) for rest in compositions(n - k, size - 1)]


def decides(test: SequentialTest, n: int) -> bool:
    lower, upper = test.bounds
    size = 3 if test.model is Model.TRINOMIAL else 5
    return any(not lower < sprt.gsprt_llr(c, test.h0, test.h1) < upper for c in compositions(n, size))


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from([Model.TRINOMIAL, Model.PENTANOMIAL]),
    st.floats(-500, 300),
    st.floats(60, 400),
    st.sampled_from([0.01, 0.05, 0.1, 0.2]),
)
def test_min_decision_is_the_first_sample_size_that_can_reach_a_bound(
    model: Model, h0: float, width: float, alpha: float
) -> None:
    test = SequentialTest(model, h0, min(h0 + width, sprt.ELO_LIMIT), alpha, 0.05)
    n = caps.min_decision(test)
    if n > (14 if model is Model.TRINOMIAL else 8):
        return  # every sample would take too long to list; the smaller cases check the same search
    assert decides(test, n)
    assert n == 1 or not decides(test, n - 1)


@pytest.mark.parametrize(
    ("model", "bounds", "units"),
    [
        (Model.PENTANOMIAL, (-10, 0), 101),
        (Model.PENTANOMIAL, (0, 10), 101),
        (Model.PENTANOMIAL, (-5, 0), 204),
        (Model.TRINOMIAL, (-10, 0), 101),
        (Model.PENTANOMIAL, (-50, 0), 20),
        (Model.POINTS, (-20, 0), sprt.POINTS_MIN_PAIRS),
    ],
)
def test_min_decision_table(model: Model, bounds: tuple[float, float], units: int) -> None:
    test = SequentialTest(model, *bounds)
    assert caps.min_decision(test) == units
    if model is not Model.POINTS:
        # The fastest sample at that size decides, one fewer cannot: all outcomes on two values.
        lower, upper = test.bounds
        hi, lo = caps._extreme_llrs(sprt._values(len(test.start().counts)), units, *bounds)
        assert hi >= upper or lo <= lower
        hi, lo = caps._extreme_llrs(sprt._values(len(test.start().counts)), units - 1, *bounds)
        assert lower < lo and hi < upper


def test_expected_games_at_the_bounds() -> None:
    # Wald's approximation: (1 - α)·ln(β / (1 - α)) + α·ln((1 - β) / α) over the drift (s1 - s0)² / (2v).
    test = SequentialTest(Model.PENTANOMIAL, -10, 0)
    gap = expected_score(0) - expected_score(-10)
    lower, upper = test.bounds
    per_pair = (0.95 * -lower - 0.05 * upper) / (gap * gap / (2 * 0.125))
    typical, wide = caps.expected_games(test)
    assert wide == pytest.approx(2 * per_pair)
    assert typical == pytest.approx(2 * per_pair * caps.REFERENCE_PAIR_VARIANCE / 0.125)
    assert round(typical) == 1040 and round(wide) == 6401


def test_a_forfeiting_new_never_passes_the_points_test() -> None:
    tally = SequentialTest(Model.POINTS, -20, 0).start()
    for _ in range(120):
        tally = tally.add_forfeit()
    result = tally.result()
    assert (result.games, result.pairs, result.forfeits, result.decision) == (240, 0, 120, None)
    found = sprt.verdict(result)
    assert found.outcome is sprt.Outcome.UNDECIDED and not found.worse
    assert found.answer.startswith("undecided after 240 games: NEW forfeited a game of 120 deal pairs")
    # Even a run of pairs that would decide does not, once NEW has forfeited one.
    for _ in range(200):
        tally = tally.add_pair(2.0, 500.0)
    assert tally.result().decision is None
    with pytest.raises(ValueError, match="counts a forfeited pair by its games"):
        SequentialTest(Model.PENTANOMIAL, -10, 0).start().add_forfeit()


@pytest.mark.parametrize(
    ("bounds", "message"),
    [
        ((0, 1e308), "within ±10000"),
        ((-1e308, 1e308), "within ±10000"),
        ((0, math.inf), "finite"),
        ((-20, -20), "points0 < points1"),
    ],
)
def test_absurd_points_bounds_are_refused(bounds: tuple[float, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SequentialTest(Model.POINTS, *bounds)


@pytest.mark.parametrize(
    ("decision", "h0", "h1", "outcome"),
    [
        (None, -10, 0, sprt.Outcome.UNDECIDED),
        (None, 0, 10, sprt.Outcome.UNDECIDED),
        (Hypothesis.H0, -10, 0, sprt.Outcome.WORSE),
        (Hypothesis.H1, -10, 0, sprt.Outcome.NOT_WORSE),
        (Hypothesis.H0, 0, 10, sprt.Outcome.NOT_WORSE),
        (Hypothesis.H0, -5, 5, sprt.Outcome.NOT_WORSE),
    ],
)
def test_verdict_outcomes(decision: Hypothesis | None, h0: float, h1: float, outcome: sprt.Outcome) -> None:
    assert sprt.verdict(result(h0, h1, decision)).outcome is outcome


@given(
    alpha=st.floats(min_value=5e-324, max_value=0.5, allow_subnormal=True),
    beta=st.floats(min_value=5e-324, max_value=0.49, allow_subnormal=True),
)
def test_the_bounds_are_finite_and_exact_for_every_error_rate(alpha: float, beta: float) -> None:
    """ln(β / (1 − α)) and ln((1 − β) / α), figured in 50 digits: a quotient that overflows a double (α of
    1e-320) never makes a bound infinite."""
    lower, upper = sprt_bounds(alpha, beta)
    with decimal.localcontext() as context:
        context.prec = 50
        a, b = decimal.Decimal(alpha), decimal.Decimal(beta)
        exact = (float((b / (1 - a)).ln()), float(((1 - b) / a).ln()))
    assert math.isfinite(lower) and math.isfinite(upper)
    assert lower == pytest.approx(exact[0], rel=1e-12) and upper == pytest.approx(exact[1], rel=1e-12)
