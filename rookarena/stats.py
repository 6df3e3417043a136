"""Statistics over game results: intervals, Elo differences, Bradley–Terry ratings and the SPRT.

Pure maths on numbers (stdlib ``math``, ``statistics`` and ``dataclasses`` only): no records, no I/O.
A game's score is 1 for a win, 0.5 for a draw and 0 for a loss. Elo differences use the logistic
model: a side rated ``d`` points above its opponent expects the score ``1 / (1 + 10 ** (-d / 400))``.

Where a figure has no finite value the functions say so with ``math.inf`` rather than raising: a clean
sweep has an infinite Elo difference, one value has an infinitely wide t-interval. An empty sample is
"no information": a win rate of 0.5 in [0, 1], an Elo difference of 0 in (-inf, inf), a LOS of 0.5.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Iterable, Sequence
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

    Exact to about 1e-12: the upper tail (the incomplete beta) is inverted by bisection.
    """
    if not 0 < p < 1:
        raise ValueError(f"t_quantile: expected 0 < p < 1, got {p!r}")
    if df <= 0:
        raise ValueError(f"t_quantile: expected df > 0, got {df!r}")
    if math.isinf(df):
        return _NORMAL.inv_cdf(p)
    if p == 0.5:
        return 0.0
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


# --- Bradley–Terry ---------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Rating:
    """A rating on the Elo scale and its error bar (±z standard errors; 95 % by default)."""

    elo: float
    error: float


def bradley_terry(
    results: Iterable[tuple[str, str, float]],
    prior_draws: float = 1.0,
    z: float = Z95,
) -> dict[str, Rating]:
    """Bradley–Terry ratings on the Elo scale from ``(entry_a, entry_b, score_of_a)`` results, by name.

    The model is the logistic one: P(a beats b) = 1 / (1 + 10 ** ((r_b − r_a) / 400)); a draw counts as
    half a win and half a loss. The prior: each entry also draws ``prior_draws`` virtual games against
    a virtual opponent rated 0, so entries that never lost (or never won) still get finite ratings, and
    the information matrix is invertible. The maximum of the penalised likelihood is found by Newton's
    method with step halving (the log-likelihood is concave); the ratings are then shifted to mean 0.
    Error bars are ``z`` times the standard error of each centred rating, from F⁻¹ with F the Fisher
    information (prior included) at the maximum. With ``prior_draws=0`` the ratings are only defined up
    to a shift: the fit is done in the mean-zero gauge (F⁻¹ is then the pseudo-inverse), and raises
    ``ValueError`` when the maximum is at infinity (an entry that never lost, or never won, points to
    the rest, directly or through others). A game of an entry against itself carries no information
    and is ignored.
    """
    if prior_draws < 0:
        raise ValueError(f"bradley_terry: expected prior_draws >= 0, got {prior_draws!r}")
    games: dict[tuple[str, str], list[float]] = {}
    names: set[str] = set()
    for a, b, score in results:
        if not 0 <= score <= 1:
            raise ValueError(f"bradley_terry: expected a score in [0, 1], got {score!r} for {a!r} vs {b!r}")
        names.update((a, b))
        if a == b:
            continue
        key, s = ((a, b), score) if a < b else ((b, a), 1 - score)
        tally = games.setdefault(key, [0.0, 0.0])
        tally[0] += 1
        tally[1] += s
    order = sorted(names)
    if not order:
        return {}
    index = {name: i for i, name in enumerate(order)}
    pairs = [(index[a], index[b], n, s) for (a, b), (n, s) in games.items()]
    if prior_draws == 0 and not _strongly_connected(len(order), pairs):
        raise ValueError(
            "bradley-terry ratings diverge without a prior: some entries never lost (or never won) points "
            "to the rest; use prior_draws > 0"
        )
    fit = _BradleyTerry(len(order), pairs, prior_draws)
    theta, covariance = fit.solve()
    size = len(theta)
    mean = math.fsum(theta) / size
    # The error of each centred rating r_i − mean(r): Var = C_ii − 2/n Σ_j C_ij + 1/n² Σ_jk C_jk, so the
    # uncertainty of the overall level (which the prior alone pins down) does not widen every bar.
    row_means = [math.fsum(row) / size for row in covariance]
    grand = math.fsum(row_means) / size
    return {
        name: Rating(
            elo=(theta[i] - mean) * ELO_PER_NATURAL_UNIT,
            error=z * math.sqrt(max(0.0, covariance[i][i] - 2 * row_means[i] + grand)) * ELO_PER_NATURAL_UNIT,
        )
        for i, name in enumerate(order)
    }


def _strongly_connected(size: int, pairs: Sequence[tuple[int, int, float, float]]) -> bool:
    """Whether every entry took points, directly or through others, from every other: the condition
    for a finite maximum likelihood without a prior (an edge i → j where i scored against j)."""
    forward: list[set[int]] = [set() for _ in range(size)]
    backward: list[set[int]] = [set() for _ in range(size)]
    for i, j, n, s in pairs:
        for winner, loser, points in ((i, j, s), (j, i, n - s)):
            if points > 0:
                forward[winner].add(loser)
                backward[loser].add(winner)

    def reach(edges: list[set[int]]) -> int:
        seen, todo = {0}, [0]
        while todo:
            for k in edges[todo.pop()] - seen:
                seen.add(k)
                todo.append(k)
        return len(seen)

    return reach(forward) == size and reach(backward) == size


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x))


class _BradleyTerry:
    """The penalised log-likelihood in natural log-odds units, and its Newton maximisation."""

    def __init__(self, size: int, pairs: list[tuple[int, int, float, float]], prior: float) -> None:
        self.size = size
        self.pairs = pairs  # (i, j, games, score of i)
        self.prior = prior

    def log_likelihood(self, theta: Sequence[float]) -> float:
        total = 0.0
        for i, j, n, s in self.pairs:
            d = theta[i] - theta[j]
            total += s * _log_sigmoid(d) + (n - s) * _log_sigmoid(-d)
        for t in theta:
            total += self.prior * 0.5 * (_log_sigmoid(t) + _log_sigmoid(-t))
        return total

    def gradient_and_information(self, theta: Sequence[float]) -> tuple[list[float], list[list[float]]]:
        """The gradient and the Fisher information (minus the Hessian); in the mean-zero gauge without a prior."""
        size = self.size
        grad = [0.0] * size
        info = [[0.0] * size for _ in range(size)]
        for i, j, n, s in self.pairs:
            p = _sigmoid(theta[i] - theta[j])
            grad[i] += s - n * p
            grad[j] -= s - n * p
            w = n * p * (1 - p)
            info[i][i] += w
            info[j][j] += w
            info[i][j] -= w
            info[j][i] -= w
        for i, t in enumerate(theta):
            q = _sigmoid(t)
            grad[i] += self.prior * (0.5 - q)
            info[i][i] += self.prior * q * (1 - q)
        if self.prior == 0:
            # The likelihood ignores a common shift: adding J/n fixes the gauge (sum of ratings = 0)
            # without changing the Newton step, whose components then sum to zero as the gradient's do.
            for row in info:
                for k in range(size):
                    row[k] += 1 / size
        return grad, info

    def solve(self, max_iterations: int = 200) -> tuple[list[float], list[list[float]]]:
        theta = [0.0] * self.size
        current = self.log_likelihood(theta)
        for _ in range(max_iterations):
            grad, info = self.gradient_and_information(theta)
            step = _solve(info, grad)
            scale = 1.0
            while True:
                candidate = [t + scale * d for t, d in zip(theta, step, strict=True)]
                value = self.log_likelihood(candidate)
                if value >= current - 1e-12 * abs(current) or scale < 1e-6:
                    break
                scale /= 2
            theta, current = candidate, value
            if max((abs(d) for d in step), default=0.0) * scale < 1e-10:
                _, info = self.gradient_and_information(theta)
                covariance = _inverse(info)
                if self.prior == 0:
                    covariance = [[c - 1 / self.size for c in row] for row in covariance]
                return theta, covariance
        raise ArithmeticError("bradley-terry: Newton's method did not converge")  # pragma: no cover


def _solve(matrix: Sequence[Sequence[float]], rhs: Sequence[float]) -> list[float]:
    """x with ``matrix · x = rhs``."""
    return [row[0] for row in _gauss_jordan(matrix, [[value] for value in rhs])]


def _inverse(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    size = len(matrix)
    return _gauss_jordan(matrix, [[1.0 if r == c else 0.0 for c in range(size)] for r in range(size)])


def _gauss_jordan(matrix: Sequence[Sequence[float]], rhs: Sequence[Sequence[float]]) -> list[list[float]]:
    """X with ``matrix · X = rhs``, by Gauss–Jordan elimination with partial pivoting."""
    size = len(matrix)
    rows = [[*row, *extra] for row, extra in zip(matrix, rhs, strict=True)]
    scale = max((abs(v) for row in matrix for v in row), default=0.0) or 1.0
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) <= 1e-13 * scale:
            raise ValueError("bradley-terry: singular information matrix (entries with no games linking them)")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col]
        inv = 1 / lead[col]
        lead[:] = [v * inv for v in lead]
        for r in range(size):
            factor = rows[r][col]
            if r != col and factor:
                rows[r] = [v - factor * w for v, w in zip(rows[r], lead, strict=True)]
    return [row[size:] for row in rows]


# --- SPRT ----------------------------------------------------------------------------------------------


class Hypothesis(enum.StrEnum):
    """The hypothesis an SPRT accepted: H0 (elo = elo0) or H1 (elo = elo1)."""

    H0 = "H0"
    H1 = "H1"


@dataclasses.dataclass(frozen=True, slots=True)
class SPRTResult:
    """The state of a sequential probability ratio test after ``games`` games."""

    games: int
    llr: float
    lower: float  # ln(β / (1 − α)): accept H0 at or below
    upper: float  # ln((1 − β) / α): accept H1 at or above
    elo0: float
    elo1: float
    decision: Hypothesis | None  # None: keep playing


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """The LLR bounds ``(ln(β / (1 − α)), ln((1 − β) / α))`` for error rates α (false H1) and β (false H0)."""
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise ValueError(f"sprt: expected 0 < alpha, beta and alpha + beta < 1, got {alpha!r}, {beta!r}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0), in fishtest's normal approximation.

    LLR = N·(s1 − s0)·(2·m − s0 − s1) / (2·var), with s_i the score elo_i expects and m, var the mean
    and variance of the sample's per-game scores. A sample without spread (every game the same result)
    has var = 0; it is then counted with one virtual win and one virtual loss added, which keeps the
    LLR finite (fishtest returns 0 instead, so a run of wins could never decide). No games: 0.
    """
    _check_counts(wins, draws, losses)
    if elo1 <= elo0:
        raise ValueError(f"sprt: expected elo0 < elo1, got {elo0!r} and {elo1!r}")
    if wins + draws + losses == 0:
        return 0.0
    if [wins, draws, losses].count(0) == 2:
        wins, losses = wins + 1, losses + 1
    n = wins + draws + losses
    mean = (wins + draws / 2) / n
    variance = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean**2) / n
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def sprt(
    wins: int, draws: int, losses: int, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05
) -> SPRTResult:
    """The SPRT of elo0 against elo1 after a W/D/L record (the LLR depends on the counts only)."""
    lower, upper = sprt_bounds(alpha, beta)
    llr = sprt_llr(wins, draws, losses, elo0, elo1)
    decision = Hypothesis.H1 if llr >= upper else Hypothesis.H0 if llr <= lower else None
    return SPRTResult(wins + draws + losses, llr, lower, upper, elo0, elo1, decision)


def sprt_sequence(
    scores: Iterable[float], elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05
) -> SPRTResult:
    """Run the SPRT over per-game scores (1, 0.5, 0) in order, stopping at the first game that decides it."""
    counts = {1.0: 0, 0.5: 0, 0.0: 0}
    result = sprt(0, 0, 0, elo0, elo1, alpha, beta)
    for score in scores:
        if score not in counts:
            raise ValueError(f"sprt: expected game scores 1, 0.5 or 0, got {score!r}")
        counts[score] += 1
        result = sprt(counts[1.0], counts[0.5], counts[0.0], elo0, elo1, alpha, beta)
        if result.decision is not None:
            break
    return result
