"""The statistics against hand computations, independent brute force, and properties."""

from __future__ import annotations

import ast
import itertools
import math
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rookarena.results import ratings, stats
from rookarena.results.sprt import Hypothesis
from rookarena.results.stats import ClusterSums, Interval

Z = 1.959963984540054  # Φ⁻¹(0.975)
ELO = 400 / math.log(10)  # 173.7178 Elo per natural log-odds unit


def test_stats_imports_only_the_stdlib_maths() -> None:
    source = (Path(stats.__file__)).read_text(encoding="utf-8")
    modules: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            modules.add(node.module or "")
    assert modules <= {"__future__", "dataclasses", "math", "statistics", "collections.abc"}


def test_z95() -> None:
    assert abs(stats.Z95 - Z) < 1e-15
    assert stats.normal_cdf(Z) == pytest.approx(0.975, abs=1e-15)
    assert stats.normal_cdf(0) == 0.5


# --- Wilson ---------------------------------------------------------------------------------------


def test_wilson_seven_of_ten() -> None:
    # p = 0.7, n = 10, z² = 3.841459, z²/n = 0.3841459
    # centre = (0.7 + 0.1920729) / 1.3841459 = 0.6444844
    # half   = 1.959964 · √(0.7·0.3/10 + 3.841459/400) / 1.3841459 = 1.959964 · √0.0306036 / 1.3841459
    #        = 1.959964 · 0.1749389 / 1.3841459 = 0.2477062
    # → [0.3967781, 0.8922087]
    got = stats.wilson(7, 10)
    assert got.estimate == 0.7
    assert got.lo == pytest.approx(0.3967781, abs=1e-7)
    assert got.hi == pytest.approx(0.8922087, abs=1e-7)


def test_wilson_other_z_and_fractional_successes() -> None:
    # z = 1: centre = (0.7 + 0.05) / 1.1 = 0.6818182; half = √(0.021 + 0.0025) / 1.1 = 0.1532971 / 1.1 = 0.1393610
    got = stats.wilson(7, 10, z=1.0)
    assert got.lo == pytest.approx(0.5424572, abs=1e-7)
    assert got.hi == pytest.approx(0.8211792, abs=1e-7)
    # 2 of 4 (say 1 win, 2 draws, 1 loss): z²/n = 0.9603647, centre 0.5,
    # half = 1.959964 · √(0.0625 + 3.841459/64) / 1.9603647 = 1.959964 · 0.3500327 / 1.9603647 = 0.3499610
    got = stats.wilson(2.0, 4)
    assert got.lo == pytest.approx(0.1500390, abs=1e-7)
    assert got.hi == pytest.approx(0.8499610, abs=1e-7)


def test_wilson_edges() -> None:
    assert stats.wilson(0, 0) == Interval(0.5, 0.0, 1.0)
    # 0 of 5: centre = (z²/10) / (1 + z²/5) = 0.3841459 / 1.7682918 = 0.2172412 = half → [0, 0.4344825]
    got = stats.wilson(0, 5)
    assert got.lo == 0.0
    assert got.hi == pytest.approx(0.4344825, abs=1e-7)
    got = stats.wilson(5, 5)
    assert got.hi == 1.0
    assert got.lo == pytest.approx(1 - 0.4344825, abs=1e-7)
    for bad in [(-1, 4), (5, 4), (1, -1)]:
        with pytest.raises(ValueError, match="expected 0 <= successes <= trials"):
            stats.wilson(*bad)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=10_000), st.data())
def test_wilson_contains_the_proportion(trials: int, data: st.DataObject) -> None:
    halves = data.draw(st.integers(min_value=0, max_value=2 * trials))
    got = stats.wilson(halves / 2, trials)
    assert 0 <= got.lo <= got.estimate <= got.hi <= 1
    narrower = stats.wilson(halves / 2, trials, z=1.0)
    assert got.lo <= narrower.lo + 1e-12 and narrower.hi <= got.hi + 1e-12


# --- Elo and LOS ---------------------------------------------------------------------------------


def test_elo_from_score() -> None:
    # 75 %: −400·log10(1/0.75 − 1) = 400·log10(3) = 190.8485
    assert stats.elo_from_score(0.75) == pytest.approx(190.8485019, abs=1e-6)
    assert stats.elo_from_score(0.25) == pytest.approx(-190.8485019, abs=1e-6)
    assert stats.elo_from_score(0.5) == 0
    assert stats.elo_from_score(1) == math.inf
    assert stats.elo_from_score(0) == -math.inf
    assert stats.expected_score(190.8485019) == pytest.approx(0.75)
    with pytest.raises(ValueError, match="expected a score in"):
        stats.elo_from_score(1.5)


def test_elo_difference_with_interval() -> None:
    # 30 W, 0 D, 10 L: s = 0.75, var = (30·0.25² + 10·0.75²) / 40 = 0.1875, se = √(0.1875/40) = 0.0684653
    # s ± 1.959964·se = 0.75 ± 0.1341895 = [0.6158105, 0.8841895]
    # Elo: −400·log10(1/0.6158105 − 1) = −400·log10(0.6238740) = 81.9606
    #      −400·log10(1/0.8841895 − 1) = −400·log10(0.1309785) = 353.1191
    got = stats.elo_difference(30, 0, 10)
    assert (got.games, got.score) == (40, 0.75)
    assert got.elo == pytest.approx(190.8485, abs=1e-4)
    assert got.lo == pytest.approx(81.9606, abs=1e-4)
    assert got.hi == pytest.approx(353.1191, abs=1e-4)


def test_elo_difference_draws_and_clamping() -> None:
    # 0 W, 1 D, 1 L: s = 0.25, var = (0.25² + 0.25²) / 2 = 0.0625, se = 0.1767767, margin 0.3464765:
    # [−0.0965, 0.5964765] → the low end is clamped to 0 (−inf); −400·log10(0.6765121) = 67.8894
    got = stats.elo_difference(0, 1, 1)
    assert got.elo == pytest.approx(-190.8485, abs=1e-4)
    assert got.lo == -math.inf
    assert got.hi == pytest.approx(67.8894, abs=1e-4)


def test_elo_difference_sweeps_and_no_games() -> None:
    # 5 wins of 5: no spread, so the Wilson interval bounds it. Its low end is 1 / (1 + z²/n)
    # = 1 / (1 + 3.841459/5) = 0.565511, and −400·log10(1/0.565511 − 1) = +45.7895; the high end is 1.
    sweep = stats.elo_difference(5, 0, 0)
    assert (sweep.games, sweep.score, sweep.elo, sweep.hi) == (5, 1.0, math.inf, math.inf)
    assert sweep.lo == pytest.approx(45.7895, abs=1e-4)
    # 0 of 3: the mirror image, low end −inf; high end z²/n / (1 + z²/n) = 1.280486/2.280486 = 0.561496.
    lost = stats.elo_difference(0, 0, 3)
    assert (lost.elo, lost.lo) == (-math.inf, -math.inf)
    assert lost.hi == pytest.approx(-400 * math.log10(1 / 0.5614961 - 1), abs=1e-3)
    assert stats.elo_difference(0, 0, 0) == stats.EloDifference(0, 0.5, 0.0, -math.inf, math.inf)
    # All draws: s = 0.5 with no spread; Wilson for 2 of 4 is 0.5 ± 0.349961 → ±ELO(0.849961) = ±301.3.
    draws = stats.elo_difference(0, 4, 0)
    assert (draws.elo, draws.score) == (0.0, 0.5)
    assert draws.hi == pytest.approx(-400 * math.log10(1 / 0.8499611 - 1), abs=1e-2)
    assert draws.lo == pytest.approx(-draws.hi)
    with pytest.raises(ValueError, match="expected counts >= 0"):
        stats.elo_difference(-1, 0, 0)


def test_los() -> None:
    # (10 − 5) / √15 = 1.2909944; Φ(1.2909944) = 0.9016472
    assert stats.los(10, 5) == pytest.approx(0.9016472, abs=1e-7)
    assert stats.los(5, 10) == pytest.approx(1 - 0.9016472, abs=1e-7)
    assert stats.los(0, 1) == pytest.approx(0.1586553, abs=1e-7)  # Φ(−1)
    assert stats.los(3, 3) == 0.5
    assert stats.los(0, 0) == 0.5


# --- Student's t -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("df", "expected"),
    [
        (1, 12.706204736174707),
        (2, 4.302652729749464),
        (5, 2.570581835636314),
        (10, 2.228138851986273),
        (30, 2.042272456301238),
    ],
)
def test_t_quantile_known_values(df: int, expected: float) -> None:
    assert stats.t_quantile(0.975, df) == pytest.approx(expected, rel=1e-11)
    assert stats.t_quantile(0.025, df) == pytest.approx(-expected, rel=1e-11)


@pytest.mark.parametrize("df", [3.5, 100, 9_999, 10_000, 1e5, 1e7, 1e9, 1e12, 1e15])
@pytest.mark.parametrize("p", [1e-10, 0.001, 0.025, 0.3, 0.975, 0.999999])
def test_t_quantile_against_scipy(df: float, p: float) -> None:
    from scipy import stats as scipy_stats  # type: ignore[import-untyped]

    assert stats.t_quantile(p, df) == pytest.approx(float(scipy_stats.t.ppf(p, df)), rel=1e-11)


def test_t_quantile_tends_to_the_normal() -> None:
    assert stats.t_quantile(0.975, math.inf) == pytest.approx(Z, abs=1e-15)
    # t(0.975, df) ≈ z + (z³ + z)/(4·df): 1e6 degrees of freedom add 2.37e-6 to z.
    assert stats.t_quantile(0.975, 1e6) == pytest.approx(Z + 2.37e-6, abs=1e-8)
    assert stats.t_quantile(0.5, 7) == 0.0
    # Far tails: df = 1 is the Cauchy distribution, F⁻¹(p) = −1/(π·p) for a small p.
    assert stats.t_quantile(1e-100, 1) == pytest.approx(-1 / (math.pi * 1e-100), rel=1e-9)
    assert stats.t_upper_tail(1e300, 3) == 0.0
    assert stats.t_upper_tail(0, 3) == 0.5
    for bad_p, bad_df in [(0.0, 3.0), (1.0, 3.0), (0.9, 0.0)]:
        with pytest.raises(ValueError, match="t_quantile"):
            stats.t_quantile(bad_p, bad_df)


@settings(max_examples=100, deadline=None)
@given(st.floats(min_value=0.001, max_value=0.999))
def test_t_quantile_closed_forms(p: float) -> None:
    # df = 1 is the Cauchy distribution; df = 2 has F⁻¹(p) = (2p − 1) / √(2p(1 − p)).
    assert stats.t_quantile(p, 1) == pytest.approx(math.tan(math.pi * (p - 0.5)), rel=1e-9, abs=1e-12)
    assert stats.t_quantile(p, 2) == pytest.approx((2 * p - 1) / math.sqrt(2 * p * (1 - p)), rel=1e-9, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.floats(min_value=0.5, max_value=200), st.floats(min_value=-30, max_value=30))
def test_t_tail_is_the_inverse_of_the_quantile(df: float, t: float) -> None:
    p = stats.t_upper_tail(-t, df)  # P(T <= t), accurate in both tails
    if 1e-300 < p < 1 - 1e-9:
        assert stats.t_quantile(p, df) == pytest.approx(t, rel=1e-6, abs=1e-9)


def test_regularized_beta() -> None:
    # I_x(1, 1) = x; I_x(2, 1) = x²; I_x(a, b) = 1 − I_{1−x}(b, a)
    assert stats.regularized_beta(0.3, 1, 1) == pytest.approx(0.3, abs=1e-15)
    assert stats.regularized_beta(0.3, 2, 1) == pytest.approx(0.09, abs=1e-15)
    assert stats.regularized_beta(0.3, 2.5, 4) == pytest.approx(1 - stats.regularized_beta(0.7, 4, 2.5), abs=1e-14)
    assert stats.regularized_beta(0.0, 2, 3) == 0.0
    assert stats.regularized_beta(1.0, 2, 3) == 1.0


def test_t_interval() -> None:
    # [60, 160]: mean 110, sd = √((50² + 50²)/1) = 70.7107, se = 50, half = 12.7062047·50 = 635.3102
    got = stats.t_interval([60, 160])
    assert (got.n, got.mean) == (2, 110)
    assert got.half_width == pytest.approx(635.3102368, abs=1e-6)
    assert (got.lo, got.hi) == pytest.approx((110 - 635.3102368, 110 + 635.3102368))
    # [1, 2, 3, 4, 5]: mean 3, sd = √(10/4) = 1.5811388, se = 0.7071068, t(0.975, 4) = 2.7764451 → 1.9632432
    assert stats.t_interval([1, 2, 3, 4, 5]).half_width == pytest.approx(1.9632432, abs=1e-7)
    # 90 %: t(0.95, 4) = 2.1318468 → 2.1318468 · 0.7071068 = 1.5074433
    assert stats.t_interval([1, 2, 3, 4, 5], 0.9).half_width == pytest.approx(1.5074433, abs=1e-7)
    assert stats.t_interval([7.5]) == stats.MeanInterval(1, 7.5, math.inf)
    with pytest.raises(ValueError, match="at least one value"):
        stats.t_interval([])


# --- Bradley–Terry -------------------------------------------------------------------------------------

Results = list[tuple[str, str, float]]


def _log_likelihood(ratings: Sequence[float], names: Sequence[str], results: Results, prior: float) -> float:
    """Written out on the Elo scale, independently of the module: the penalised log-likelihood."""

    def expected(d: float) -> float:
        return 1 / (1 + 10 ** (-d / 400))

    r = dict(zip(names, ratings, strict=True))
    total = 0.0
    for a, b, s in results:
        e = expected(r[a] - r[b])
        total += s * math.log(e) + (1 - s) * math.log(1 - e)
    for x in ratings:
        total += prior * (0.5 * math.log(expected(x)) + 0.5 * math.log(1 - expected(x)))
    return total


def _brute_force(names: Sequence[str], results: Results, prior: float) -> list[float]:
    """Maximise by cyclic coordinate ascent, each coordinate by golden-section search on [−1000, 1000]."""
    x = [0.0] * len(names)
    golden = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        for k in range(len(x)):

            def f(v: float, k: int = k) -> float:
                return _log_likelihood([*x[:k], v, *x[k + 1 :]], names, results, prior)

            lo, hi = -1000.0, 1000.0
            while hi - lo > 1e-9:
                m1, m2 = hi - golden * (hi - lo), lo + golden * (hi - lo)
                if f(m1) < f(m2):
                    lo = m1
                else:
                    hi = m2
            x[k] = (lo + hi) / 2
    return x


def _hessian(f: Callable[[list[float]], float], x: list[float], h: float = 1e-2) -> list[list[float]]:
    size = len(x)

    def at(*moves: tuple[int, float]) -> float:
        y = list(x)
        for k, d in moves:
            y[k] += d
        return f(y)

    return [
        [
            (at((i, h), (j, h)) - at((i, h), (j, -h)) - at((i, -h), (j, h)) + at((i, -h), (j, -h))) / (4 * h * h)
            for j in range(size)
        ]
        for i in range(size)
    ]


def _inverse3(m: list[list[float]]) -> list[list[float]]:
    """A 3×3 inverse by cofactors."""
    cof = [
        [
            m[(i + 1) % 3][(j + 1) % 3] * m[(i + 2) % 3][(j + 2) % 3]
            - m[(i + 1) % 3][(j + 2) % 3] * m[(i + 2) % 3][(j + 1) % 3]
            for j in range(3)
        ]
        for i in range(3)
    ]
    det = sum(m[0][j] * cof[0][j] for j in range(3))
    return [[cof[j][i] / det for j in range(3)] for i in range(3)]


ROUND_ROBIN: Results = [
    ("A", "B", 1.0),
    ("A", "B", 1.0),  # A swept B
    ("B", "C", 1.0),
    ("B", "C", 0.5),  # B took 1.5 of 2 from C
    ("A", "C", 1.0),
    ("C", "A", 1.0),  # A and C split
]
UNBALANCED: Results = [
    ("A", "B", 1.0),
    ("B", "A", 0.5),
    ("A", "B", 0.0),  # A took 1.5 of 3 from B
    ("C", "B", 1.0),  # C beat B in their one game
    ("A", "C", 1.0),
    ("A", "C", 1.0),
    ("C", "A", 1.0),
    ("A", "C", 0.5),  # A took 2.5 of 4 from C
]


@pytest.mark.parametrize("results", [ROUND_ROBIN, UNBALANCED], ids=["balanced", "unbalanced"])
def test_bradley_terry_three_entries_against_brute_force(results: Results) -> None:
    names = ["A", "B", "C"]
    got = ratings.bradley_terry(results)
    raw = _brute_force(names, results, prior=1.0)
    mean = sum(raw) / 3
    assert list(got) == names
    for name, value in zip(names, raw, strict=True):
        assert got[name].elo == pytest.approx(value - mean, abs=1e-4)
    # Error bars: of each centred rating r_k − mean(r), from C = (−H)⁻¹, H the Hessian of the
    # log-likelihood in Elo units at the maximum (differentiated numerically here; the prior makes it
    # invertible): Var = C_kk − 2/3·Σ_j C_kj + 1/9·Σ_ij C_ij.
    hessian = _hessian(lambda r: _log_likelihood(r, names, results, 1.0), raw)
    covariance = _inverse3([[-v for v in row] for row in hessian])
    total = sum(sum(row) for row in covariance)
    for k, name in enumerate(names):
        variance = covariance[k][k] - 2 / 3 * sum(covariance[k]) + total / 9
        assert got[name].error == pytest.approx(Z * math.sqrt(variance), rel=1e-4)


def test_bradley_terry_balanced_round_robin_ranks_by_total_score() -> None:
    # In a balanced round robin the total scores are sufficient: A 3 of 4, B and C 1.5 of 4 each,
    # so B and C rate the same although B beat C.
    got = ratings.bradley_terry(ROUND_ROBIN)
    assert got["A"].elo > 0 > got["B"].elo
    assert got["B"].elo == pytest.approx(got["C"].elo, abs=1e-9)
    assert got["A"].elo == pytest.approx(-2 * got["B"].elo, abs=1e-9)


def test_bradley_terry_two_entries_closed_form_without_prior() -> None:
    # A scores 3 of 4 against B. Without a prior the MLE difference is elo_from_score(0.75) = 190.8485,
    # centred: ±95.4243. Fisher information (natural units) of the difference: n·p(1−p) = 4·0.75·0.25 = 0.75;
    # in the mean-zero gauge each rating is ± half the difference: var = 1/(4·0.75) = 1/3,
    # error = 1.959964·0.5773503·173.7178 = 196.5766.
    got = ratings.bradley_terry([("A", "B", 1), ("A", "B", 1), ("B", "A", 0), ("A", "B", 0)], prior_draws=0)
    assert got["A"].elo == pytest.approx(95.42425, abs=1e-4)
    assert got["B"].elo == pytest.approx(-95.42425, abs=1e-4)
    assert got["A"].error == pytest.approx(196.5766, abs=1e-3)
    assert got["B"].error == pytest.approx(196.5766, abs=1e-3)


def test_bradley_terry_two_entries_with_prior() -> None:
    # With the prior, by symmetry r_B = −r_A = −x, and the score equation of A is
    #   3 − 4·E(2x) + (0.5 − E(x)) = 0 with E(d) = 1/(1 + 10^(−d/400)); solved here by bisection.
    def equation(x: float) -> float:
        return 3 - 4 * stats.expected_score(2 * x) + 0.5 - stats.expected_score(x)

    lo, hi = 0.0, 400.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if equation(mid) > 0 else (lo, mid)
    got = ratings.bradley_terry([("A", "B", 1), ("A", "B", 1), ("A", "B", 1), ("A", "B", 0)])
    assert got["A"].elo == pytest.approx(lo, abs=1e-6)
    assert got["B"].elo == pytest.approx(-lo, abs=1e-6)
    assert 0 < got["A"].elo < 95.42425  # shrunk towards 0 by the prior


def test_bradley_terry_unbeaten_is_finite_with_the_prior_only() -> None:
    sweep: Results = [("A", "B", 1.0)] * 3
    got = ratings.bradley_terry(sweep)
    assert math.isfinite(got["A"].elo) and got["A"].elo > 0
    a, b = _brute_force(["A", "B"], sweep, 1.0)
    assert got["A"].elo == pytest.approx((a - b) / 2, abs=1e-3)
    with pytest.raises(ValueError, match="diverge without a prior"):
        ratings.bradley_terry(sweep, prior_draws=0)
    # A beat B, B beat C, C beat A: every entry took points from every other through the cycle.
    cycle = ratings.bradley_terry([("A", "B", 1.0), ("B", "C", 1.0), ("C", "A", 1.0)], prior_draws=0)
    assert all(r.elo == pytest.approx(0, abs=1e-9) for r in cycle.values())
    with pytest.raises(ValueError, match="diverge without a prior"):
        ratings.bradley_terry([("A", "B", 1.0), ("B", "C", 1.0), ("A", "C", 1.0)], prior_draws=0)


def test_bradley_terry_edges() -> None:
    assert ratings.bradley_terry([]) == {}
    # A game against itself is ignored, but the entry is rated: 0, and alone it is its own mean, so the
    # error of its centred rating is 0.
    alone = ratings.bradley_terry([("A", "A", 1.0)])
    assert alone["A"].elo == 0
    assert alone["A"].error == 0
    with pytest.raises(ValueError, match="prior_draws > 0"):  # two groups that never met
        ratings.bradley_terry([("A", "B", 1.0), ("B", "A", 1.0), ("C", "D", 0.5)], prior_draws=0)
    with pytest.raises(ValueError, match="expected a score"):
        ratings.bradley_terry([("A", "B", 2.0)])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from("ABCDE"), st.sampled_from("ABCDE"), st.sampled_from([0.0, 0.5, 1.0])),
        min_size=1,
        max_size=30,
    )
)
def test_bradley_terry_properties(results: Results) -> None:
    got = ratings.bradley_terry(results)
    assert math.fsum(r.elo for r in got.values()) == pytest.approx(0, abs=1e-7)
    assert all(math.isfinite(r.elo) and (r.error > 0 or len(got) == 1) for r in got.values())
    # Reversing every result negates every rating.
    flipped = ratings.bradley_terry([(a, b, 1 - s) for a, b, s in results])
    for name, rating in got.items():
        assert flipped[name].elo == pytest.approx(-rating.elo, abs=1e-6)
        assert flipped[name].error == pytest.approx(rating.error, rel=1e-6)
    # The order of the results does not matter.
    again = ratings.bradley_terry(list(reversed(results)))
    for name, rating in got.items():
        assert again[name].elo == pytest.approx(rating.elo, abs=1e-6)


def test_hypothesis_round_trips() -> None:
    for member in Hypothesis:
        assert Hypothesis(str(member)) is member
    assert list(itertools.chain(Hypothesis)) == [Hypothesis.H0, Hypothesis.H1]


# --- clustered games (duplicate deal pairs) ------------------------------------------------------------


def test_cluster_sums_of_single_games_are_the_per_game_interval() -> None:
    sums = ClusterSums()
    for score in [1.0] * 6 + [0.5] * 2 + [0.0] * 2:
        sums = sums.add(score, 1)
    assert stats.elo_interval(sums) == stats.elo_difference(6, 2, 2)
    assert (sums.games, sums.clusters, sums.mean) == (10, 10, 0.7)


def test_cluster_variance_against_numpy() -> None:
    import numpy as np

    pairs = [2.0, 1.0, 1.0, 1.5, 0.0, 1.0, 2.0, 1.0, 0.5, 1.0, 1.0, 2.0]
    sums = ClusterSums()
    for score in pairs:
        sums = sums.add(score, 2)
    per_game = np.array(pairs) / 2
    # Pairs of equal size: the variance of the mean per game is the pairs' population variance over C.
    assert sums.variance_of_mean == pytest.approx(float(np.var(per_game) / len(pairs)), rel=1e-12)
    got = stats.elo_interval(sums)
    margin = Z * math.sqrt(float(np.var(per_game)) / len(pairs))
    mean = float(per_game.mean())
    assert got.lo == pytest.approx(-400 * math.log10(1 / (mean - margin) - 1), rel=1e-12)
    assert got.hi == pytest.approx(-400 * math.log10(1 / (mean + margin) - 1), rel=1e-12)
    # LOS is Φ of the mean's distance from ½ in standard errors.
    assert stats.los_clustered(sums) == pytest.approx(
        0.5 * math.erfc(-(mean - 0.5) / math.sqrt(2 * float(np.var(per_game)) / len(pairs))), rel=1e-12
    )


def test_split_pairs_give_a_narrower_interval_than_independent_games() -> None:
    # Every pair split 1-1 but two: the anti-correlation makes the pair far less variable than its games.
    sums, games = ClusterSums(), []
    for first, second in [(1.0, 0.0)] * 18 + [(1.0, 1.0), (0.0, 0.0)]:
        sums = sums.add(first + second, 2)
        games += [first, second]
    paired = stats.elo_interval(sums)
    independent = stats.elo_difference(games.count(1.0), 0, games.count(0.0))
    assert paired.elo == independent.elo == 0.0
    assert paired.hi - paired.lo < 0.5 * (independent.hi - independent.lo)


def test_cluster_sums_without_spread_fall_back_to_wilson() -> None:
    sums = ClusterSums()
    for _ in range(5):
        sums = sums.add(1.0, 2)
    got = stats.elo_interval(sums)
    bounds = stats.wilson(5, 10)
    assert (got.elo, got.lo, got.hi) == (0.0, stats.elo_from_score(bounds.lo), stats.elo_from_score(bounds.hi))
    assert stats.los_clustered(sums) == 0.5
    assert stats.elo_interval(ClusterSums()).games == 0
    with pytest.raises(ValueError, match="cluster sums"):
        sums.add(3.0, 2)
