"""Bradley–Terry ratings on the Elo scale, with model-based or cluster-robust (deal pair) error bars.

Pure maths on results (stdlib only): the fit is Newton's method on the penalised log-likelihood, the
matrices are small (one row per entry) and solved by Gauss–Jordan elimination.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence

from rookarena.results.stats import ELO_PER_NATURAL_UNIT, Z95, ClusterSums


@dataclasses.dataclass(frozen=True, slots=True)
class Rating:
    """A rating on the Elo scale and its error bar (±z standard errors; 95 % by default)."""

    elo: float
    error: float


def bradley_terry(
    results: Iterable[tuple[str, str, float]],
    prior_draws: float = 1.0,
    z: float = Z95,
    anchors: Mapping[str, float] | None = None,
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

    ``anchors`` fixes the ratings of the entries it names (on the Elo scale) at the values it gives: the
    others are fitted against them, the prior then pulling only on the free entries, and nothing is
    shifted, so adding an entry leaves every anchor's number as it is. An anchor's error is 0 and a free
    entry's is that of its own rating given the anchors. Anchors that played no game are ignored; with
    none that played, the ratings are centred as above.
    """
    return _ratings(((a, b, score, 1) for a, b, score in results), prior_draws, z, robust=False, anchors=anchors)


def bradley_terry_clustered(
    clusters: Iterable[tuple[str, str, float, int]],
    prior_draws: float = 1.0,
    z: float = Z95,
    anchors: Mapping[str, float] | None = None,
) -> dict[str, Rating]:
    """Bradley–Terry ratings from ``(entry_a, entry_b, score_of_a, games)`` clusters, such as deal pairs.

    The same fit as :func:`bradley_terry` (a cluster counts as its games), but the errors are the
    cluster-robust (sandwich) ones, F⁻¹·(M + P)·F⁻¹: M = Σ_c g_c·g_cᵀ sums the outer products of each
    cluster's score gradient g_c = (S_c − n_c·p_ab)·(e_a − e_b), so that the anti-correlated games of
    a duplicate pair count for what they tell together, and P is the prior's own information (its
    virtual games count as independent). A pairing whose clusters all scored alike (a sweep, or every
    pair split) shows nothing of how clusters vary: it keeps the model's weight, its games' binomial
    variance. M only needs, per pairing, the running sums of :class:`ClusterSums`. ``anchors`` as in
    :func:`bradley_terry`.
    """
    return _ratings(clusters, prior_draws, z, robust=True, anchors=anchors)


def _ratings(
    clusters: Iterable[tuple[str, str, float, int]],
    prior_draws: float,
    z: float,
    robust: bool,
    anchors: Mapping[str, float] | None = None,
) -> dict[str, Rating]:
    if prior_draws < 0:
        raise ValueError(f"bradley_terry: expected prior_draws >= 0, got {prior_draws!r}")
    sums: dict[tuple[str, str], ClusterSums] = {}
    names: set[str] = set()
    for a, b, score, count in clusters:
        if not 0 <= score <= count:
            raise ValueError(f"bradley_terry: expected a score in [0, {count}], got {score!r} for {a!r} vs {b!r}")
        names.update((a, b))
        if a == b:
            continue
        key, s = ((a, b), score) if a < b else ((b, a), count - score)
        sums[key] = sums.get(key, ClusterSums()).add(s, count)
    order = sorted(names)
    if not order:
        return {}
    index = {name: i for i, name in enumerate(order)}
    pairs = [(index[a], index[b], float(t.games), t.score) for (a, b), t in sums.items()]
    given = {index[name]: float(elo) for name, elo in (anchors or {}).items() if name in index}
    if given:
        return _anchored(order, sums, pairs, prior_draws, z, robust, given)
    if prior_draws == 0 and not _strongly_connected(len(order), pairs):
        raise ValueError(
            "bradley-terry ratings diverge without a prior: some entries never lost (or never won) points "
            "to the rest; use prior_draws > 0"
        )
    fit = _BradleyTerry(len(order), pairs, prior_draws)
    theta, covariance = fit.solve()
    size = len(theta)
    if robust:
        meat = [[0.0] * size for _ in range(size)]
        for (a, b), t in sums.items():
            i, j = index[a], index[b]
            p = _sigmoid(theta[i] - theta[j])
            if t.variance_of_mean > 1e-12 * t.mean * (1 - t.mean) / t.games:
                w = max(0.0, t.score2 - 2 * p * t.cross + p * p * t.size2)  # Σ_c (S_c − n_c·p)²
            else:  # every cluster alike (a sweep): no evidence of how clusters vary, so the binomial weight
                w = t.games * p * (1 - p)
            meat[i][i] += w
            meat[j][j] += w
            meat[i][j] -= w
            meat[j][i] -= w
        for i, rating in enumerate(theta):
            q = _sigmoid(rating)
            meat[i][i] += prior_draws * q * (1 - q)
        covariance = _product(_product(covariance, meat), covariance)
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


def _anchored(
    order: Sequence[str],
    sums: Mapping[tuple[str, str], ClusterSums],
    pairs: list[tuple[int, int, float, float]],
    prior_draws: float,
    z: float,
    robust: bool,
    given: Mapping[int, float],
) -> dict[str, Rating]:
    """The ratings of the entries not in ``given`` (index to Elo) fitted with those held where they are."""
    fit = _BradleyTerry(len(order), pairs, prior_draws, {i: elo / ELO_PER_NATURAL_UNIT for i, elo in given.items()})
    theta, covariance = fit.solve()
    free = fit.free
    if robust:
        where = {entry: k for k, entry in enumerate(free)}
        meat = [[0.0] * len(free) for _ in free]
        index = {name: i for i, name in enumerate(order)}
        for (a, b), t in sums.items():
            i, j = index[a], index[b]
            p = _sigmoid(theta[i] - theta[j])
            if t.variance_of_mean > 1e-12 * t.mean * (1 - t.mean) / t.games:
                w = max(0.0, t.score2 - 2 * p * t.cross + p * p * t.size2)
            else:
                w = t.games * p * (1 - p)
            for x, y, sign in ((i, i, 1), (j, j, 1), (i, j, -1), (j, i, -1)):
                if x in where and y in where:
                    meat[where[x]][where[y]] += sign * w
        for k, entry in enumerate(free):
            q = _sigmoid(theta[entry])
            meat[k][k] += prior_draws * q * (1 - q)
        covariance = _product(_product(covariance, meat), covariance)
    errors = {entry: z * math.sqrt(max(0.0, covariance[k][k])) * ELO_PER_NATURAL_UNIT for k, entry in enumerate(free)}
    return {
        name: Rating(given[i], 0.0) if i in given else Rating(theta[i] * ELO_PER_NATURAL_UNIT, errors[i])
        for i, name in enumerate(order)
    }


def _product(x: Sequence[Sequence[float]], y: Sequence[Sequence[float]]) -> list[list[float]]:
    columns = list(zip(*y, strict=True))
    return [[math.fsum(a * b for a, b in zip(row, column, strict=True)) for column in columns] for row in x]


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


MAX_STEP = 1.0  # natural log-odds units (about 174 Elo): the longest move of a rating in one Newton step


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x))


class _BradleyTerry:
    """The penalised log-likelihood in natural log-odds units, and its Newton maximisation."""

    def __init__(
        self,
        size: int,
        pairs: list[tuple[int, int, float, float]],
        prior: float,
        fixed: Mapping[int, float] | None = None,
    ) -> None:
        self.size = size
        self.pairs = pairs  # (i, j, games, score of i)
        self.prior = prior
        self.fixed = dict(fixed or {})  # entries held at their values; the prior pulls only on the rest
        self.free = [i for i in range(size) if i not in self.fixed]

    def log_likelihood(self, theta: Sequence[float]) -> float:
        total = 0.0
        for i, j, n, s in self.pairs:
            d = theta[i] - theta[j]
            total += s * _log_sigmoid(d) + (n - s) * _log_sigmoid(-d)
        for i in self.free:
            t = theta[i]
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
        for i in self.free:
            q = _sigmoid(theta[i])
            grad[i] += self.prior * (0.5 - q)
            info[i][i] += self.prior * q * (1 - q)
        if self.fixed:  # only the free entries move: their part of the gradient and of the information
            return [grad[i] for i in self.free], [[info[i][j] for j in self.free] for i in self.free]
        if self.prior == 0:
            # The likelihood ignores a common shift: adding J/n fixes the gauge (sum of ratings = 0)
            # without changing the Newton step, whose components then sum to zero as the gradient's do.
            for row in info:
                for k in range(size):
                    row[k] += 1 / size
        return grad, info

    def solve(self, max_iterations: int = 200) -> tuple[list[float], list[list[float]]]:
        """The maximum and the inverse information there (over the free entries only when some are fixed)."""
        theta = [self.fixed.get(i, 0.0) for i in range(self.size)]
        current = self.log_likelihood(theta)
        moving = self.free if self.fixed else list(range(self.size))
        for _ in range(max_iterations):
            grad, info = self.gradient_and_information(theta)
            step = [0.0] * self.size
            for i, d in zip(moving, _solve(info, grad), strict=True):
                step[i] = d
            # Far from the maximum (an entry swept by an anchor far below it, say) the quadratic model
            # overshoots to where the information underflows: no step moves a rating by more than MAX_STEP.
            longest = max((abs(d) for d in step), default=0.0)
            if longest > MAX_STEP:
                step = [d * MAX_STEP / longest for d in step]
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
                if self.prior == 0 and not self.fixed:
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
