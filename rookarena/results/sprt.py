"""Sequential tests for regression matches: the generalised SPRT over games or deal pairs, and a points test.

Pure maths on counts (stdlib only), kept as running tallies: adding a game or a deal pair is O(1) for
the Elo tests, and so is their log-likelihood ratio; the points test's grows with the distinct
differences seen (a few hundred at most in Rook, well under a millisecond).

Theory of operation. A sequential probability ratio test compares two simple hypotheses H0 and H1
after every observation and stops when the log-likelihood ratio (LLR) of H1 against H0 leaves
``(ln(β / (1 − α)), ln((1 − β) / α))``: below, H0 is accepted; above, H1. α is the chance of accepting
H1 when H0 is true, β of accepting H0 when H1 is true.

- **Elo tests** (``--sprt ELO0 ELO1``) are the *generalised* SPRT of fishtest and fastchess: the
  outcome distribution is left free (no model of draws) and each hypothesis only fixes its mean score,
  ``expected_score(elo)`` per game. The LLR is ``N · Σ p̂ᵢ · ln(p₁ᵢ / p₀ᵢ)``, with p̂ the observed
  frequencies and pⱼ the maximum-likelihood distribution whose mean is the score Hj expects (found
  from a one-dimensional secular equation). Zero counts are regularised to 1e-3, as fishtest does,
  so that a short run of identical results cannot decide alone.
- **The unit.** Without duplicate deals the outcomes are the games (trinomial: loss, draw, win).
  With duplicate deals the two games of a deal share the cards and their results are strongly
  anti-correlated, so the outcome is the deal pair (pentanomial: 0, ½, 1, 1½ or 2 points over the
  two games; per game 0, ¼, ½, ¾, 1). Treating the pair's games as independent overstates the
  variance, and the test then needs more games than necessary and errs less often than it says.
- **The points test** (``--sprt-points D0 D1``) is on the paired point difference per deal pair
  (NEW's final score minus OLD's, summed over the two games): H0: μ = D0, H1: μ = D1. It is the
  generalised SPRT again, over the distinct differences seen instead of five pair scores: each
  hypothesis keeps the distribution on those values closest to the observed one with its mean (the
  empirical likelihood), so the test takes the differences' skew and tails as they are (Rook's are
  skewed and heavy-tailed, and a normal test erred 3.5–4% on one side and 6–6.3% on the other); the
  LLR is Bartlett-corrected for the tails (:func:`points_gsprt_llr`). It decides nothing before
  ``POINTS_MIN_PAIRS`` pairs (an early sample too often lacks the rare large differences: with 10
  pairs the plain test accepted H0 15% of the time when H1 was true), and nothing at all once NEW
  forfeited a game of a pair (no points to compare, and leaving it out would pass a NEW that
  crashes). The realised error rates are checked in ``tests/results/test_sprt_calibration.py``
  and ``bench/sprt.py --gate``.
- **Caps.** What a ``--games`` cap allows a test is figured in :mod:`rookarena.results.caps`.
"""

from __future__ import annotations

import bisect
import dataclasses
import enum
import math
from collections.abc import Sequence

from rookarena.results.stats import expected_score

REGULARISATION = 1e-3  # the count given to an outcome never seen (fishtest's epsilon)
POINTS_MIN_PAIRS = 100  # the points test decides nothing before this many deal pairs (see above)
ELO_LIMIT = 1000.0  # Elo hypotheses beyond ±1000 (a score past 99.7 %) are refused
POINTS_LIMIT = 10_000.0  # points hypotheses beyond ±10,000 a deal pair (no pair of games can differ so much)
# The least distance between the hypotheses. Closer Elo hypotheses need billions of games to tell apart and
# their scores differ by less than floating point resolves near ±ELO_LIMIT; closer points hypotheses ask
# about a tenth of a point, finer than any score of the game moves.
ELO_MIN_WIDTH = 0.1
POINTS_MIN_WIDTH = 0.1
BARTLETT_CLAMP = 15.0  # the points test's Bartlett factor a (see points_gsprt_llr) taken at most
TRINOMIAL_SCORES = (0.0, 0.5, 1.0)  # a game: loss, draw, win
PENTANOMIAL_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # a deal pair's points per game: 0, ½, 1, 1½, 2 over two


class Hypothesis(enum.StrEnum):
    """The hypothesis an SPRT accepted: H0 (the first bound) or H1 (the second)."""

    H0 = "H0"
    H1 = "H1"


class Model(enum.StrEnum):
    """What a test counts: games (trinomial), deal pairs (pentanomial) or points per deal pair."""

    TRINOMIAL = "trinomial"
    PENTANOMIAL = "pentanomial"
    POINTS = "points"


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """The LLR bounds ``(ln(β / (1 − α)), ln((1 − β) / α))`` for error rates α (false H1) and β (false H0)."""
    check_error_rates(alpha, beta)
    # Differences of logarithms: (1 - beta) / alpha overflows to inf for alpha below about 1e-308.
    return math.log(beta) - math.log1p(-alpha), math.log1p(-beta) - math.log(alpha)


def check_error_rates(alpha: float, beta: float) -> None:
    """Raise ValueError unless 0 < α, β and α + β < 1 (with α + β ≥ 1 the bounds cross)."""
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise ValueError(f"expected 0 < alpha, 0 < beta and alpha + beta < 1, got alpha={alpha!r} beta={beta!r}")


def check_hypotheses(h0: float, h1: float, model: Model) -> None:
    """Raise ValueError unless both bounds are finite, h0 < h1, at least the least width apart and within the
    limit of the model (±ELO_LIMIT, ±POINTS_LIMIT)."""
    unit = "points" if model is Model.POINTS else "elo"
    if not (math.isfinite(h0) and math.isfinite(h1)):
        raise ValueError(f"expected finite {unit} bounds, got {h0!r} and {h1!r}")
    if not h0 < h1:
        raise ValueError(f"expected {unit}0 < {unit}1, got {h0!r} and {h1!r}")
    limit = POINTS_LIMIT if model is Model.POINTS else ELO_LIMIT
    if max(abs(h0), abs(h1)) > limit:
        raise ValueError(f"expected {unit} bounds within ±{limit:g}, got {h0!r} and {h1!r}")
    width = POINTS_MIN_WIDTH if model is Model.POINTS else ELO_MIN_WIDTH
    if not h1 - h0 >= width * (1 - 1e-9):  # 0.2 and 0.3 are 0.1 apart, though not as floats
        raise ValueError(
            f"expected {unit}1 - {unit}0 >= {width:g} (no test tells closer bounds apart), got {h0!r} and {h1!r}"
        )


# --- the generalised SPRT over outcome counts -------------------------------------------------------------


def _constrained_mle(values: Sequence[float], probs: Sequence[float], s: float) -> list[float]:
    """The distribution on ``values`` closest (in likelihood) to ``probs`` whose mean is ``s``.

    By Lagrange, qᵢ = pᵢ / (1 + x·(aᵢ − s)) with x the root of Σ pᵢ (aᵢ − s) / (1 + x (aᵢ − s)) = 0,
    which is decreasing in x on the interval where every 1 + x (aᵢ − s) > 0. Newton's method, kept
    inside that bracket by bisection. Needs every pᵢ > 0 and min(a) < s < max(a).
    """
    shifted = [a - s for a in values]
    low, high = min(shifted), max(shifted)
    lo, hi = -1 / high, -1 / low  # the poles: every q stays positive strictly inside
    pairs = list(zip(probs, shifted, strict=True))
    x = 0.0
    for _ in range(200):
        f = fp = 0.0
        for p, a in pairs:
            t = a / (1 + x * a)
            pt = p * t
            f += pt
            fp -= pt * t
        if abs(f) < 1e-16:
            break
        if f > 0:
            lo = x
        else:
            hi = x
        step = x - f / fp if fp < 0 else math.nan  # fp underflows to 0 for vanishing weights: bisect instead
        new = step if lo < step < hi else (lo + hi) / 2
        # A root beside a pole (a weight next to nothing) is found to float resolution: a step onto the pole, or
        # past it by rounding, would divide by zero. 1 + new·a is linear in a: its least is at the least or the
        # largest a.
        if abs(new - x) <= 1e-16 * max(1.0, abs(x)) or min(1 + new * low, 1 + new * high) <= 0:
            break
        x = new
    return [p / (1 + x * a) for p, a in zip(probs, shifted, strict=True)]


def gsprt_llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalised SPRT's LLR of elo1 against elo0 from outcome counts (fishtest's ``LLR_logistic``).

    ``counts`` has 3 entries (games lost, drawn, won) or 5 (deal pairs scoring 0, ½, 1, 1½, 2).
    No observation at all: 0.
    """
    values = _values(len(counts))
    if min(counts) < 0:
        raise ValueError(f"gsprt: expected counts >= 0, got {list(counts)!r}")
    if sum(counts) == 0:
        return 0.0
    regular = [c if c > 0 else REGULARISATION for c in counts]
    return _likelihood_ratio(values, regular, expected_score(elo0), expected_score(elo1))


def _likelihood_ratio(values: Sequence[float], weights: Sequence[float], s0: float, s1: float) -> float:
    """N · Σ p̂ᵢ · ln(q₁ᵢ / q₀ᵢ): the log of the ratio of the largest likelihoods of the observations (each
    ``values[i]`` seen ``weights[i]`` times, every weight > 0) among the distributions on ``values`` whose
    mean is s1 and s0. Needs min(values) < s0, s1 < max(values)."""
    n = math.fsum(weights)
    probs = [w / n for w in weights]
    q0 = _constrained_mle(values, probs, s0)
    q1 = _constrained_mle(values, probs, s1)
    return n * math.fsum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, q0, q1, strict=True))


def normal_llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The normal approximation of the LLR, N·(s1 − s0)·(2m − s0 − s1) / (2·var) (fishtest's ``LLR_alt2``).

    With trinomial counts this is the test ``match --sprt`` used before the generalised SPRT (a sample
    without spread gets one virtual win and loss, as it did); kept for comparisons (``bench/sprt.py``).
    """
    values = _values(len(counts))
    n = sum(counts)
    if n == 0:
        return 0.0
    if sum(1 for c in counts if c > 0) == 1:
        counts = [c + 1 if i in (0, len(counts) - 1) else c for i, c in enumerate(counts)]
        n += 2
    mean = sum(c * v for c, v in zip(counts, values, strict=True)) / n
    var = sum(c * (v - mean) ** 2 for c, v in zip(counts, values, strict=True)) / n
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def _values(size: int) -> tuple[float, ...]:
    if size == 3:
        return TRINOMIAL_SCORES
    if size == 5:
        return PENTANOMIAL_SCORES
    raise ValueError(f"gsprt: expected 3 (games) or 5 (deal pairs) counts, got {size!r}")


def points_llr(n: int, mean: float, variance: float, d0: float, d1: float) -> float:
    """The LLR of μ = d1 against μ = d0 for n normal values, σ² taken as the sample's ``variance``.

    n·(d1 − d0)·(2·mean − d0 − d1) / (2·variance): Wald's test of a normal mean with the variance
    estimated as it goes (``variance`` is the unbiased one, divided by n − 1). Values without spread
    keep the LLR finite with a variance floor of 1e-9 of the squared distance between the hypotheses.
    The points test used this until its errors on skewed differences were measured (``bench/sprt.py``);
    kept for comparisons.
    """
    if n == 0:
        return 0.0
    v = max(variance, 1e-9 * (d1 - d0) ** 2)
    return n * (d1 - d0) * (2 * mean - d0 - d1) / (2 * v)


def points_gsprt_llr(differences: Sequence[tuple[float, int]], d0: float, d1: float) -> float:
    """The points test's LLR of μ = d1 against μ = d0 from the deal pairs' differences, as (value, count).

    The generalised SPRT of the Elo tests, over the values seen: each hypothesis' likelihood is the
    largest one among the distributions on the observed differences whose mean is its μ (the empirical
    likelihood of Owen), so no shape is assumed: the test is as skewed and as heavy-tailed as the
    differences. The values are first mapped to (d − d0) / (d1 − d0), which changes no likelihood and
    puts the hypotheses at 0 and 1. As fishtest regularises an outcome never seen, two virtual
    observations of weight ``REGULARISATION`` one hypothesis-width outside both the values and the
    hypotheses keep every LLR finite, even when a hypothesis lies outside the values seen (identical
    bots: every difference 0). The LLR is then divided by 1 + a / n, the Bartlett correction of the
    empirical likelihood of a mean (DiCiccio, Hall and Romano, 1991), a = κ̂ / 2 − γ̂² / 3 from the
    sample's kurtosis and skewness (within [0, ``BARTLETT_CLAMP``]): the likelihood ratio overstates the
    evidence by that factor on average, more so for heavier tails. No observation at all: 0.
    """
    if not differences:
        return 0.0
    width = d1 - d0
    values = [(value - d0) / width for value, _ in differences]
    counts = [float(count) for _, count in differences]
    lowest, highest = min(values[0], 0.0) - 1.0, max(values[-1], 1.0) + 1.0  # values: ordered, as d0 < d1
    llr = _likelihood_ratio([lowest, *values, highest], [REGULARISATION, *counts, REGULARISATION], 0.0, 1.0)
    return llr / (1.0 + bartlett(values, counts) / sum(counts))


def bartlett(values: Sequence[float], counts: Sequence[float]) -> float:
    """a = κ / 2 − γ² / 3 of the values (each seen ``counts`` times), within [0, ``BARTLETT_CLAMP``]; 0
    without spread."""
    if len(set(values)) < 2:
        return 0.0  # (computed, the spread of one value could come out as a rounding error, not 0)
    n = math.fsum(counts)
    mean = math.fsum(c * v for v, c in zip(values, counts, strict=True)) / n
    m2, m3, m4 = (math.fsum(c * (v - mean) ** k for v, c in zip(values, counts, strict=True)) / n for k in (2, 3, 4))
    if m2 <= 0:
        return 0.0
    a = (m4 / m2) / m2 / 2 - ((m3 / m2) / m2) * (m3 / m2) / 3
    return max(0.0, min(BARTLETT_CLAMP, a)) if math.isfinite(a) else BARTLETT_CLAMP


# --- the running tests -----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class SPRTResult:
    """The state of a sequential test after ``games`` games (``pairs`` deal pairs; 0 without duplicates)."""

    games: int
    llr: float
    lower: float  # ln(β / (1 − α)): accept H0 at or below
    upper: float  # ln((1 − β) / α): accept H1 at or above
    h0: float  # Elo (or points per deal pair, for the points test) under H0
    h1: float
    decision: Hypothesis | None  # None: keep playing
    model: Model = Model.TRINOMIAL
    pairs: int = 0
    forfeits: int = 0  # points test: deal pairs NEW forfeited before their first hand (it then cannot decide)


@dataclasses.dataclass(frozen=True, slots=True)
class SequentialTest:
    """A sequential test: its model, its two hypotheses and its error rates; validated on creation."""

    model: Model
    h0: float
    h1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        check_hypotheses(self.h0, self.h1, self.model)
        check_error_rates(self.alpha, self.beta)

    @property
    def bounds(self) -> tuple[float, float]:
        return sprt_bounds(self.alpha, self.beta)

    @property
    def unit(self) -> str:
        """What the test counts: ``game`` (trinomial) or ``deal pair``."""
        return "game" if self.model is Model.TRINOMIAL else "deal pair"

    def start(self) -> Tally:
        """The empty tally of this test."""
        size = 3 if self.model is Model.TRINOMIAL else 5
        return Tally(self, (0,) * size, 0)


@dataclasses.dataclass(frozen=True, slots=True)
class Tally:
    """A test's running sums: outcome counts, the games, the pairs NEW forfeited before any points were
    scored, and (points test only) how often each point difference was seen, as (value, count) by value."""

    test: SequentialTest
    counts: tuple[int, ...]
    games: int
    forfeits: int = 0
    differences: tuple[tuple[float, int], ...] = ()

    @property
    def pairs(self) -> int:
        return 0 if self.test.model is Model.TRINOMIAL else sum(self.counts)

    def add_game(self, score: float) -> Tally:
        """One more game scoring ``score`` (1, 0.5 or 0 for NEW); only for the trinomial model."""
        if self.test.model is not Model.TRINOMIAL:
            raise ValueError(f"a {self.test.model} test counts deal pairs, not games")
        index = _index(TRINOMIAL_SCORES, score)
        counts = tuple(c + (i == index) for i, c in enumerate(self.counts))
        return dataclasses.replace(self, counts=counts, games=self.games + 1)

    def add_pair(self, score: float, difference: float) -> Tally:
        """One more deal pair: NEW's score over its two games (0 to 2) and its point difference."""
        if self.test.model is Model.TRINOMIAL:
            raise ValueError("a trinomial test counts games, not deal pairs")
        index = _index(PENTANOMIAL_SCORES, score / 2)
        counts = tuple(c + (i == index) for i, c in enumerate(self.counts))
        differences = self.differences
        if self.test.model is Model.POINTS:
            differences = _seen(differences, float(difference))
        return dataclasses.replace(self, counts=counts, games=self.games + 2, differences=differences)

    def add_forfeit(self) -> Tally:
        """One more deal pair in which NEW forfeited a game: no points to compare.

        The points test counts its two games but can then never decide (the pair's difference is
        unknown, and leaving it out would let a NEW that crashes pass); the Elo tests count such
        a pair by its games (``add_pair``), as lost.
        """
        if self.test.model is not Model.POINTS:
            raise ValueError(f"a {self.test.model} test counts a forfeited pair by its games")
        return dataclasses.replace(self, games=self.games + 2, forfeits=self.forfeits + 1)

    def result(self) -> SPRTResult:
        """The LLR of the games so far and the decision it makes."""
        test = self.test
        if test.model is Model.POINTS:
            llr = points_gsprt_llr(self.differences, test.h0, test.h1)
            ready = self.pairs >= POINTS_MIN_PAIRS and not self.forfeits
        else:
            llr = gsprt_llr(self.counts, test.h0, test.h1)
            ready = True
        lower, upper = test.bounds
        decision = None
        if ready:
            decision = Hypothesis.H1 if llr >= upper else Hypothesis.H0 if llr <= lower else None
        return SPRTResult(
            self.games, llr, lower, upper, test.h0, test.h1, decision, test.model, self.pairs, self.forfeits
        )


def _seen(differences: tuple[tuple[float, int], ...], value: float) -> tuple[tuple[float, int], ...]:
    """``differences`` with one more sighting of ``value``; still ordered by value."""
    if not math.isfinite(value):
        raise ValueError(f"expected a finite point difference, got {value!r}")
    at = bisect.bisect_left(differences, (value,))
    if at < len(differences) and differences[at][0] == value:
        return (*differences[:at], (value, differences[at][1] + 1), *differences[at + 1 :])
    return (*differences[:at], (value, 1), *differences[at:])


def _index(scores: Sequence[float], score: float) -> int:
    for i, value in enumerate(scores):
        if abs(value - score) < 1e-9:
            return i
    raise ValueError(f"expected a score among {list(scores)!r}, got {score!r}")


# --- verdicts --------------------------------------------------------------------------------------------


class Outcome(enum.StrEnum):
    """What a match established, each with its own exit status: not worse (0), worse (3), undecided (4)."""

    NOT_WORSE = "not worse"
    WORSE = "worse"
    UNDECIDED = "undecided"


@dataclasses.dataclass(frozen=True, slots=True)
class Verdict:
    """The question a test answers, its answer in words, and what it established."""

    question: str
    answer: str
    outcome: Outcome

    @property
    def worse(self) -> bool:
        return self.outcome is Outcome.WORSE


def verdict(result: SPRTResult) -> Verdict:
    """What a test's outcome says about NEW against OLD.

    NEW is shown worse only when H0 was accepted and even H1 is "not better" (h1 <= 0): then H0 says
    NEW is worse by |h0| and two equal bots reach it at most β of the time. With h1 > 0 the test asks
    whether NEW is better, and accepting H0 means "not shown better", never "worse". A test that did
    not decide is undecided, whatever its LLR: never a pass.
    """
    unit = " points per deal pair" if result.model is Model.POINTS else " Elo"
    h0, h1 = f"{result.h0:+g}{unit}", f"{result.h1:+g}{unit}"
    if result.h1 <= 0:
        question = f"is NEW worse than OLD? (H0: {h0}, worse; H1: {h1}, not worse)"
        answers = {Hypothesis.H0: "yes: NEW is worse", Hypothesis.H1: "no: NEW is not worse"}
    elif result.h0 >= 0:
        question = f"is NEW better than OLD? (H0: {h0}, not better; H1: {h1}, better)"
        answers = {Hypothesis.H0: "no: NEW is not shown better", Hypothesis.H1: "yes: NEW is better"}
    else:
        question = f"is NEW nearer {h0} or {h1}? (H0: {h0}; H1: {h1})"
        answers = {Hypothesis.H0: f"nearer {h0}", Hypothesis.H1: f"nearer {h1}"}
    if result.decision is None:
        if result.forfeits:
            pairs = "deal pair" if result.forfeits == 1 else "deal pairs"
            why = f"NEW forfeited a game of {result.forfeits} {pairs}, which have no points to compare"
            return Verdict(question, f"undecided after {result.games} games: {why}", Outcome.UNDECIDED)
        return Verdict(question, f"undecided after {result.games} games", Outcome.UNDECIDED)
    worse = result.decision is Hypothesis.H0 and result.h1 <= 0
    return Verdict(question, answers[result.decision], Outcome.WORSE if worse else Outcome.NOT_WORSE)
