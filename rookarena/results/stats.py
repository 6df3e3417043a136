"""Statistics over game results: intervals, Elo differences and Bradley–Terry ratings (the SPRT: :mod:`.sprt`).

Pure maths on numbers (stdlib ``math``, ``statistics`` and ``dataclasses`` only): no records, no I/O.
A game's score is 1 for a win, 0.5 for a draw and 0 for a loss. Elo differences use the logistic
model: a side rated ``d`` points above its opponent expects the score ``1 / (1 + 10 ** (-d / 400))``.

Where a figure has no finite value the functions say so with ``math.inf`` rather than raising: a clean
sweep has an infinite Elo difference, one value has an infinitely wide t-interval. An empty sample is
"no information": a win rate of 0.5 in [0, 1], an Elo difference of 0 in (-inf, inf), a LOS of 0.5.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from statistics import NormalDist

_NORMAL = NormalDist()
Z95 = _NORMAL.inv_cdf(0.975)  # 1.959963984540054: the two-sided 95 % normal quantile
ELO_PER_NATURAL_UNIT = 400 / math.log(10)  # Elo points per unit of natural log-odds (173.72...)


@dataclasses.dataclass(frozen=True, slots=True)
class Interval:
    """An estimate with a confidence interval ``[lo, hi]``, not necessarily symmetric about it."""

    estimate: float
    lo: float
    hi: float


def normal_cdf(x: float) -> float:
    """Φ(x), the standard normal distribution function."""
    return 0.5 * math.erfc(-x / math.sqrt(2))


def wilson(successes: float, trials: int, z: float = Z95) -> Interval:
    """The Wilson score interval of the proportion ``successes / trials`` (95 % for the default ``z``).

    ``successes`` may be fractional (a draw counts half). With no trials the estimate is 0.5 in [0, 1],
    the limit of Wilson's interval as the trials go to zero.
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"wilson: expected 0 <= successes <= trials, got {successes!r} of {trials!r}")
    if trials == 0:
        return Interval(0.5, 0.0, 1.0)
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials)) / (1 + z2n)
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == trials else min(1.0, centre + half)
    return Interval(p, lo, hi)


def expected_score(elo: float) -> float:
    """The score expected by a side ``elo`` points stronger than its opponent."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_from_score(score: float) -> float:
    """The Elo difference that expects ``score``; -inf at 0 and +inf at 1."""
    if not 0 <= score <= 1:
        raise ValueError(f"elo_from_score: expected a score in [0, 1], got {score!r}")
    if score == 0:
        return -math.inf
    if score == 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


@dataclasses.dataclass(frozen=True, slots=True)
class EloDifference:
    """The Elo difference a W/D/L record implies, with its interval (the mean score maps to ``elo``)."""

    games: int
    score: float  # mean score per game
    elo: float
    lo: float
    hi: float


def elo_difference(wins: int, draws: int, losses: int, z: float = Z95) -> EloDifference:
    """Elo difference from the score fraction, its interval from the normal approximation of the mean score.

    The per-game score's variance is taken from the sample (W/D/L with draws as 0.5); the interval
    ``mean ± z·sd/√n`` is clamped to [0, 1] and mapped through :func:`elo_from_score`. A score of 0 % or
    100 % has no finite Elo and no spread: the estimate is -inf or +inf and the interval's finite end
    comes from the Wilson interval of the score.
    """
    _check_counts(wins, draws, losses)
    games = wins + draws + losses
    if games == 0:
        return EloDifference(0, 0.5, 0.0, -math.inf, math.inf)
    score = (wins + draws / 2) / games
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / games
    if variance == 0:
        # A clean sweep has no spread to estimate from: bound it by the Wilson interval of the score instead.
        bounds = wilson(wins + draws / 2, games, z)
        return EloDifference(games, score, elo_from_score(score), elo_from_score(bounds.lo), elo_from_score(bounds.hi))
    margin = z * math.sqrt(variance / games)
    return EloDifference(
        games=games,
        score=score,
        elo=elo_from_score(score),
        lo=elo_from_score(max(0.0, score - margin)),
        hi=elo_from_score(min(1.0, score + margin)),
    )


def los(wins: int, losses: int) -> float:
    """The likelihood of superiority Φ((W − L) / √(W + L)); draws carry no information; 0.5 with no decisive games."""
    _check_counts(wins, 0, losses)
    if wins + losses == 0:
        return 0.5
    return normal_cdf((wins - losses) / math.sqrt(wins + losses))


@dataclasses.dataclass(frozen=True, slots=True)
class ClusterSums:
    """Running sums of game scores in clusters: the deal pairs of duplicate deals, a lone game its own.

    The games of a cluster are not independent (a duplicate pair's results are strongly anti-correlated),
    so the variance of the mean score is the cluster-robust one, Σ_c (S_c − n_c·m)² / N² (S_c the
    cluster's score over its n_c games, m the mean per game, N the games): with every cluster a single
    game it is the sample variance over N, as for independent games. O(1) per cluster.
    """

    games: int = 0
    clusters: int = 0
    score: float = 0.0  # Σ_c S_c
    score2: float = 0.0  # Σ_c S_c²
    cross: float = 0.0  # Σ_c S_c·n_c
    size2: int = 0  # Σ_c n_c²

    def add(self, score: float, games: int) -> ClusterSums:
        """One more cluster of ``games`` games scoring ``score`` in all."""
        if games < 1 or not 0 <= score <= games:
            raise ValueError(f"cluster sums: expected 0 <= score <= games >= 1, got {score!r} of {games!r}")
        return ClusterSums(
            self.games + games,
            self.clusters + 1,
            self.score + score,
            self.score2 + score * score,
            self.cross + score * games,
            self.size2 + games * games,
        )

    @property
    def mean(self) -> float:
        """The score per game; 0.5 without games."""
        return self.score / self.games if self.games else 0.5

    @property
    def variance_of_mean(self) -> float:
        """The cluster-robust variance of :attr:`mean`; 0 without games."""
        if self.games == 0:
            return 0.0
        m = self.mean
        spread = self.score2 - 2 * m * self.cross + m * m * self.size2
        return max(0.0, spread) / self.games**2


def elo_interval(sums: ClusterSums, z: float = Z95) -> EloDifference:
    """The Elo difference of clustered games: the mean score ± z·√(cluster-robust variance), mapped to Elo.

    As :func:`elo_difference` (which it equals when every cluster is one game), with the variance of
    the mean taken over clusters; no spread at all falls back to the Wilson interval of the score.
    """
    if sums.games == 0:
        return EloDifference(0, 0.5, 0.0, -math.inf, math.inf)
    score = sums.mean
    variance = sums.variance_of_mean
    if variance <= 1e-15 * score * (1 - score) / sums.games:
        bounds = wilson(min(sums.score, sums.games), sums.games, z)
        return EloDifference(
            sums.games, score, elo_from_score(score), elo_from_score(bounds.lo), elo_from_score(bounds.hi)
        )
    margin = z * math.sqrt(variance)
    return EloDifference(
        games=sums.games,
        score=score,
        elo=elo_from_score(score),
        lo=elo_from_score(max(0.0, score - margin)),
        hi=elo_from_score(min(1.0, score + margin)),
    )


def los_clustered(sums: ClusterSums) -> float:
    """The likelihood of superiority Φ((m − ½) / √var) with the cluster-robust variance of the mean score."""
    variance = sums.variance_of_mean
    gap = sums.mean - 0.5
    if variance <= 0:
        return 0.5 if gap == 0 else 1.0 if gap > 0 else 0.0
    return normal_cdf(gap / math.sqrt(variance))


def _check_counts(wins: int, draws: int, losses: int) -> None:
    if min(wins, draws, losses) < 0:
        raise ValueError(f"expected counts >= 0, got W={wins!r} D={draws!r} L={losses!r}")


# --- Student's t ---------------------------------------------------------------------------------


def regularized_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b), the regularized incomplete beta function, by its continued fraction (Lentz's method)."""
    if a <= 0 or b <= 0:
        raise ValueError(f"regularized_beta: expected a, b > 0, got a={a!r} b={b!r}")
    return _incomplete_beta(x, 1 - x, a, b)


def _incomplete_beta(x: float, y: float, a: float, b: float) -> float:
    """I_x(a, b) given both x and y = 1 − x, so that an x close to 1 keeps its precision through y."""
    if x <= 0:
        return 0.0
    if y <= 0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(y)
    # The continued fraction converges quickly below the mean of the distribution; use the symmetry above it.
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(x, a, b) / a
    return 1 - math.exp(log_front) * _beta_fraction(y, b, a) / b


def _beta_fraction(x: float, a: float, b: float) -> float:
    tiny, epsilon = 1e-300, 1e-16
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 100_000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1) < epsilon:
            return result
    raise ArithmeticError(f"incomplete beta did not converge for x={x!r} a={a!r} b={b!r}")  # pragma: no cover


def t_upper_tail(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom (any real df > 0)."""
    if df <= 0:
        raise ValueError(f"t distribution: expected df > 0, got {df!r}")
    if t == 0:
        return 0.5
    t2 = t * t
    # x = df / (df + t²) and its complement, each computed without cancellation; past |t| ≈ 1e154 the
    # square overflows and the tail is taken as 0.
    x, y = (0.0, 1.0) if math.isinf(t2) else (df / (df + t2), t2 / (df + t2))
    tail = 0.5 * _incomplete_beta(x, y, df / 2, 0.5)
    return tail if t > 0 else 1 - tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom; the normal's for ``df = inf``.

    Accurate to about 1e-12 relative: the upper tail (the incomplete beta) is inverted by bisection,
    except at df >= 1e4 (where the tail loses precision), which takes the Cornish–Fisher expansion of
    the quantile in powers of 1/df to the fourth, exact to rounding there.
    """
    if not 0 < p < 1:
        raise ValueError(f"t_quantile: expected 0 < p < 1, got {p!r}")
    if df <= 0:
        raise ValueError(f"t_quantile: expected df > 0, got {df!r}")
    if math.isinf(df):
        return _NORMAL.inv_cdf(p)
    if p == 0.5:
        return 0.0
    z = _NORMAL.inv_cdf(p)
    if df >= 1e4 and 100 * z * z <= df:
        return _cornish_fisher(z, df)
    # Search on the smaller tail, so that a p close to 0 keeps its precision.
    sign, tail = (-1.0, p) if p < 0.5 else (1.0, 1 - p)
    lo, hi = 0.0, 1.0
    while t_upper_tail(hi, df) > tail:
        lo, hi = hi, 2 * hi
    while hi - lo > 1e-14 * hi:
        mid = (lo + hi) / 2
        if t_upper_tail(mid, df) > tail:
            lo = mid
        else:
            hi = mid
    return sign * (lo + hi) / 2


def _cornish_fisher(z: float, df: float) -> float:
    """Student's t quantile from the normal one, z + g1/ν + g2/ν² + g3/ν³ + g4/ν⁴ (Abramowitz–Stegun 26.7.5)."""
    z2 = z * z
    g1 = z * (z2 + 1) / 4
    g2 = z * ((5 * z2 + 16) * z2 + 3) / 96
    g3 = z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / 384
    g4 = z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) / 92160
    return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df


@dataclasses.dataclass(frozen=True, slots=True)
class MeanInterval:
    """A sample mean with its t-interval ``mean ± half_width``; one value gives an infinite half-width."""

    n: int
    mean: float
    half_width: float

    @property
    def lo(self) -> float:
        return self.mean - self.half_width

    @property
    def hi(self) -> float:
        return self.mean + self.half_width


def t_interval(values: Sequence[float], confidence: float = 0.95) -> MeanInterval:
    """The mean of ``values`` with its Student t confidence interval (two-sided)."""
    n = len(values)
    if n == 0:
        raise ValueError("t_interval: expected at least one value, got none")
    if not 0 < confidence < 1:
        raise ValueError(f"t_interval: expected 0 < confidence < 1, got {confidence!r}")
    mean = math.fsum(values) / n
    if n == 1:
        return MeanInterval(1, mean, math.inf)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    return MeanInterval(n, mean, t_quantile((1 + confidence) / 2, n - 1) * sd / math.sqrt(n))
