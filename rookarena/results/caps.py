"""What a ``--games`` cap allows a sequential test: the fewest units that can decide, and the expected number.

:func:`min_decision` is the fewest games or deal pairs after which some sample can reach a bound of the
test, and :func:`expected_games` Wald's approximation of the games to a decision when the truth is at
either bound: ``match`` refuses a cap under the first and warns under the second. Pure, stdlib only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rookarena.results.sprt import POINTS_MIN_PAIRS, Model, SequentialTest, _values, gsprt_llr
from rookarena.results.stats import expected_score

# The spread of a unit's score per game that the expected games are figured with: deal pairs that
# split as the heuristic bot's against its 5%-noise copy (92% split, bench/sprt.py), and games or pairs
# of independent games without draws; the points test's sd is that of the same pairs' differences.
REFERENCE_PAIR_VARIANCE = 0.0203
INDEPENDENT_VARIANCE = {Model.TRINOMIAL: 0.25, Model.PENTANOMIAL: 0.125}
REFERENCE_POINTS_SD = 120.0
MOST_UNITS = 1 << 40  # past any --games: min_decision stops looking there


def _extreme_llrs(values: Sequence[float], n: int, elo0: float, elo1: float) -> tuple[float, float]:
    """The highest and the lowest LLR that n outcomes on at most two of ``values`` can give.

    For each two values the LLR is searched over the split of the n outcomes (ternary search inside,
    both ends and their neighbours checked). ``tests/results/test_sprt.py`` checks against every outcome count
    that no other sample does better for small n.
    """
    hi, lo = -math.inf, math.inf
    size = len(values)
    for i in range(size):
        for j in range(i + 1, size):

            def llr(k: int, i: int = i, j: int = j) -> float:
                counts = [0] * size
                counts[i], counts[j] = k, n - k
                return gsprt_llr(counts, elo0, elo1)

            for sign in (1.0, -1.0):
                a, b = 1, n - 1
                while b - a > 2:
                    m1, m2 = a + (b - a) // 3, b - (b - a) // 3
                    if sign * llr(m1) < sign * llr(m2):
                        a = m1
                    else:
                        b = m2
                for k in {0, 1, n - 1, n, *range(max(0, a), min(n, b) + 1)}:
                    value = llr(k)
                    hi, lo = max(hi, value), min(lo, value)
    return hi, lo


def _can_decide(test: SequentialTest, n: int) -> bool:
    lower, upper = test.bounds
    hi, lo = _extreme_llrs(_values(3 if test.model is Model.TRINOMIAL else 5), n, test.h0, test.h1)
    return hi >= upper or lo <= lower


def min_decision(test: SequentialTest) -> int:
    """The fewest units (games, or deal pairs with duplicate deals) after which the test can decide at all.

    The points test: ``POINTS_MIN_PAIRS``. The Elo tests: the smallest n at which some
    sample of n outcomes reaches a bound (found by doubling, then bisection over n).
    """
    if test.model is Model.POINTS:
        return POINTS_MIN_PAIRS  # far enough from the hypotheses, any number of pairs reaches a bound
    n = 1
    while not _can_decide(test, n):
        n *= 2
        if n > MOST_UNITS:
            return n  # more than any cap allows: the caller refuses the test, the search need go no further
    lo, hi = n // 2, n  # lo cannot decide (or is 0), hi can
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _can_decide(test, mid):
            hi = mid
        else:
            lo = mid
    return hi


def expected_units(test: SequentialTest, variance: float) -> float:
    """Wald's approximation of the mean units to a decision when the truth is at either bound (the larger).

    Each unit moves the LLR by (s₁ − s₀)·(2x − s₀ − s₁) / (2v) on average, ±(s₁ − s₀)² / (2v) at the
    bounds, x a unit's score per game and v its variance (``variance``; for the points test, in
    points², with D0, D1 for s₀, s₁). A run that ends at a bound has moved by that bound, so it takes
    ((1 − α)·lower + α·upper) / drift units under H0 and (β·lower + (1 − β)·upper) / drift under H1.
    """
    lower, upper = test.bounds
    if test.model is Model.POINTS:
        gap = test.h1 - test.h0
    else:
        gap = expected_score(test.h1) - expected_score(test.h0)
    drift = gap * gap / (2 * variance)
    if drift == 0:  # hypotheses no float tells apart: no number of units decides
        return math.inf
    under_h0 = ((1 - test.alpha) * lower + test.alpha * upper) / -drift
    under_h1 = (test.beta * lower + (1 - test.beta) * upper) / drift
    return max(under_h0, under_h1)


def expected_games(test: SequentialTest) -> tuple[float, float]:
    """The expected games to a decision at the bounds: for bots like the reference, and for a spread
    as wide as independent games give (the points test: both for the reference sd)."""
    games_per_unit = 1 if test.model is Model.TRINOMIAL else 2
    if test.model is Model.POINTS:
        typical = wide = expected_units(test, REFERENCE_POINTS_SD**2)
    else:
        wide = expected_units(test, INDEPENDENT_VARIANCE[test.model])
        typical = expected_units(test, REFERENCE_PAIR_VARIANCE) if test.model is Model.PENTANOMIAL else wide
    return games_per_unit * typical, games_per_unit * wide
