"""Sequential tests for regression matches: the generalised SPRT over games or deal pairs, and a points test.

Pure maths on counts and sums (stdlib only), kept as running tallies: adding a game or a deal pair is
O(1), and so is the log-likelihood ratio of a tally.

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
  (NEW's final score minus OLD's, summed over the two games): H0: μ = D0, H1: μ = D1. Its LLR is half
  the difference of the evidence against each (:func:`evidence_against`): the normal likelihood
  ratio with σ² estimated under the hypothesis, corrected for the sample's skewness and scaled by a
  measured calibration for its kurtosis (:func:`calibration`), because Rook's differences are skewed
  and heavy-tailed (kurtosis 3.5 to 12 between the heuristic bot and its noisy copies) and the plain
  normal test erred 5.8–6.0% on the side of the short tail and 3.6–3.9% on the other. It decides
  nothing before ``POINTS_MIN_PAIRS`` pairs (an
  early s² is often far too small: with 10 pairs the plain test accepted H0 15% of the time when H1
  was true), and nothing at all once NEW forfeited a pair before its first hand (no points to
  compare, and leaving it out would pass a NEW that crashes). The realised error rates are checked
  in ``tests/results/test_sprt_calibration.py`` and ``bench/sprt.py --gate``.
- **Caps.** What a ``--games`` cap allows a test is figured in :mod:`rookarena.results.caps`.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Sequence

from rookarena.results.stats import expected_score

REGULARISATION = 1e-3  # the count given to an outcome never seen (fishtest's epsilon)
POINTS_MIN_PAIRS = 100  # the points test decides nothing before this many deal pairs (see above)
ELO_LIMIT = 1000.0  # Elo hypotheses beyond ±1000 (a score past 99.7 %) are refused
POINTS_LIMIT = 10_000.0  # points hypotheses beyond ±10,000 a deal pair (no pair of games can differ so much)
SKEW_WEIGHT = 0.8  # the share of the skewness correction the points test applies (measured: see evidence_against())
SKEW_CLAMP = 0.5  # the points test's skewness correction changes a hypothesis' evidence by at most ±50 %
POINTS_CALIBRATION = 1.02  # the points test's evidence scale for light tails (measured: see calibration())
KURTOSIS_WEIGHT = 0.0175  # how much each unit of the differences' excess kurtosis shrinks it (measured)
KURTOSIS_CLAMP = 30.0  # the sample kurtosis the points test's calibration takes at most
POINTS_VARIANCE_FLOOR = 0.01  # the points test takes the differences' sd as at least a tenth of D1 − D0
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
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def check_error_rates(alpha: float, beta: float) -> None:
    """Raise ValueError unless 0 < α, β and α + β < 1 (with α + β ≥ 1 the bounds cross)."""
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise ValueError(f"expected 0 < alpha, 0 < beta and alpha + beta < 1, got alpha={alpha!r} beta={beta!r}")


def check_hypotheses(h0: float, h1: float, model: Model) -> None:
    """Raise ValueError unless both bounds are finite, h0 < h1 and (for Elo) within ±ELO_LIMIT."""
    unit = "points" if model is Model.POINTS else "elo"
    if not (math.isfinite(h0) and math.isfinite(h1)):
        raise ValueError(f"expected finite {unit} bounds, got {h0!r} and {h1!r}")
    if not h0 < h1:
        raise ValueError(f"expected {unit}0 < {unit}1, got {h0!r} and {h1!r}")
    limit = POINTS_LIMIT if model is Model.POINTS else ELO_LIMIT
    if max(abs(h0), abs(h1)) > limit:
        raise ValueError(f"expected {unit} bounds within ±{limit:g}, got {h0!r} and {h1!r}")


# --- the generalised SPRT over outcome counts -------------------------------------------------------------


def _constrained_mle(values: Sequence[float], probs: Sequence[float], s: float) -> list[float]:
    """The distribution on ``values`` closest (in likelihood) to ``probs`` whose mean is ``s``.

    By Lagrange, qᵢ = pᵢ / (1 + x·(aᵢ − s)) with x the root of Σ pᵢ (aᵢ − s) / (1 + x (aᵢ − s)) = 0,
    which is decreasing in x on the interval where every 1 + x (aᵢ − s) > 0. Newton's method, kept
    inside that bracket by bisection. Needs every pᵢ > 0 and min(a) < s < max(a).
    """
    shifted = [a - s for a in values]
    lo, hi = -1 / max(shifted), -1 / min(shifted)  # the poles: every q stays positive strictly inside
    x = 0.0
    for _ in range(200):
        f = fp = 0.0
        for p, a in zip(probs, shifted, strict=True):
            t = a / (1 + x * a)
            f += p * t
            fp -= p * t * t
        if abs(f) < 1e-16:
            break
        if f > 0:
            lo = x
        else:
            hi = x
        step = x - f / fp
        new = step if lo < step < hi else (lo + hi) / 2
        if abs(new - x) <= 1e-16 * max(1.0, abs(x)):
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
    n = math.fsum(regular)
    probs = [c / n for c in regular]
    s0, s1 = expected_score(elo0), expected_score(elo1)
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


def evidence_against(n: int, mean: float, m2: float, m3: float, mu: float, floor: float) -> float:
    """How strongly n point differences speak against "their mean is ``mu``": about −2 log of a likelihood ratio.

    n · ln(1 + ȳ² / σ̂²) · (1 + c), with ȳ = mean − μ, σ̂² the sample's variance (``m2 / n``, at
    least ``floor``) and c = λ · ȳ·μ̂₃ / σ̂⁴ (μ̂₃ = ``m3 / n`` the third central moment, λ
    ``SKEW_WEIGHT``) clamped to ±``SKEW_CLAMP``; the test scales it by its :func:`calibration`.
    n · ln(1 + ȳ² / σ̂²) is the normal likelihood ratio with the variance estimated under the
    hypothesis, which far from both hypotheses still tells the nearer one.
    Why c: in a skewed sample the variance moves with the mean (their covariance is μ₃ / n), so a
    right-skewed sample that falls short of μ also shows a small variance, and the plain statistic
    then overstates the evidence on the low side (β 6.5% against α 3.7% on the heuristic bot's real
    differences, ``bench/sprt.py``); σ̂² + μ̂₃·ȳ / σ̂² is the variance with that dependence regressed out
    (a control variate), to first order. Why λ < 1: the regression's coefficient μ̂₃ / σ̂² is itself
    estimated from the sample, and noisily (the sample skewness has a standard error near 0.7 at 300
    of Rook's differences), with a noise that moves with the mean (an outlier raises both), so the
    full correction overshot: on differences of skewness +0.15 it erred 5.5% and 5.7% on one side
    where the uncorrected test was even. Shrinking the coefficient by its own estimated reliability,
    max(0, 1 − se² / skew²) with se² from the sample's fifth and sixth moments, changed nothing
    there (the sample's se is as unreliable as its skewness, and large in the same samples), so the
    shrink is one measured factor (``bench/sprt.py --gate``, part 4). 0 when the mean is μ; finite
    for any finite input.
    """
    if n == 0:
        return 0.0
    gap = mean - mu
    variance = max(m2 / n, floor)
    skew = SKEW_WEIGHT * gap * (m3 / n) / (variance * variance)
    correction = max(-SKEW_CLAMP, min(SKEW_CLAMP, skew))
    return n * math.log1p(gap * gap / variance) * (1 + correction)


def calibration(n: int, m2: float, m4: float) -> float:
    """The points test's scale on its evidence, for a sample with these central sums: k₀ / (1 + w · (κ̂ − 3)).

    κ̂ = n · m4 / m2² is the sample's kurtosis (taken within [3, ``KURTOSIS_CLAMP``]), k₀ is
    ``POINTS_CALIBRATION`` and w ``KURTOSIS_WEIGHT``. Why: the test estimates σ² as it goes, and an
    estimate that happens to be small overstates the evidence; how often that happens grows with the
    tails (the variance of σ̂²/σ² is (κ − 1)/n), so heavy-tailed differences need their evidence
    shrunk and light-tailed ones do not. One fixed factor could not do both: fitted to the heuristic
    bot against its 5%-noise copy (kurtosis 12) it made the test conservative (2.2–3.2%) against a
    30%-noise copy (kurtosis 3.5). k₀ > 1 offsets what Wald's bounds lose to the last pair's overshoot.
    Both constants are measured (``bench/sprt.py --gate``, part 4, on right- and left-skewed real
    differences of kurtosis 3.5 to 12).
    """
    if n < 2 or m2 <= 0:
        return POINTS_CALIBRATION  # no spread yet: no tails to measure
    kurtosis = n * (m4 / m2) / m2  # (m4 / m2) / m2: m2² alone could underflow to 0
    if not math.isfinite(kurtosis):
        kurtosis = KURTOSIS_CLAMP
    excess = max(0.0, min(KURTOSIS_CLAMP, kurtosis) - 3.0)
    return POINTS_CALIBRATION / (1.0 + KURTOSIS_WEIGHT * excess)


def skewed_points_llr(n: int, mean: float, m2: float, m3: float, m4: float, d0: float, d1: float) -> float:
    """The points test's LLR of μ = d1 against μ = d0: half the difference of the evidence against each,
    scaled by the sample's :func:`calibration`.

    To first order near the hypotheses, for a symmetric sample, this is :func:`points_llr` times the
    calibration. The sample's variance is floored at ``POINTS_VARIANCE_FLOOR`` times (d1 − d0)², so
    that differences without spread (two copies of one bot) give a plain, finite LLR.
    """
    floor = POINTS_VARIANCE_FLOOR * (d1 - d0) ** 2
    against = evidence_against(n, mean, m2, m3, d0, floor) - evidence_against(n, mean, m2, m3, d1, floor)
    return calibration(n, m2, m4) * against / 2


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
        return Tally(self, (0,) * size, 0, 0.0, 0.0)


@dataclasses.dataclass(frozen=True, slots=True)
class Tally:
    """A test's running sums: outcome counts, and the pairs' point differences (count, mean, Σ(d − mean)²,
    Σ(d − mean)³, Σ(d − mean)⁴), and the pairs NEW forfeited before any points were scored."""

    test: SequentialTest
    counts: tuple[int, ...]
    games: int
    mean: float
    m2: float
    m3: float = 0.0
    forfeits: int = 0
    m4: float = 0.0

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
        n = sum(counts)
        # Welford's and Pébay's updates of the central moments (from the old ones): stable at any magnitude.
        delta = difference - self.mean
        step = delta / n
        spread = delta * step * (n - 1)
        m4 = self.m4 + spread * step * step * (n * n - 3 * n + 3) + 6 * step * step * self.m2 - 4 * step * self.m3
        m3 = self.m3 + spread * step * (n - 2) - 3 * step * self.m2
        return Tally(self.test, counts, self.games + 2, self.mean + step, self.m2 + spread, m3, self.forfeits, m4=m4)

    def add_forfeit(self) -> Tally:
        """One more deal pair that NEW forfeited before its first hand: no points to compare.

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
            n = self.pairs
            llr = skewed_points_llr(n, self.mean, self.m2, self.m3, self.m4, test.h0, test.h1)
            ready = n >= POINTS_MIN_PAIRS and not self.forfeits
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
            why = f"NEW forfeited {result.forfeits} {pairs} before the first hand, which have no points to compare"
            return Verdict(question, f"undecided after {result.games} games: {why}", Outcome.UNDECIDED)
        return Verdict(question, f"undecided after {result.games} games", Outcome.UNDECIDED)
    worse = result.decision is Hypothesis.H0 and result.h1 <= 0
    return Verdict(question, answers[result.decision], Outcome.WORSE if worse else Outcome.NOT_WORSE)
