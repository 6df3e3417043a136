"""Hypotheses too close for a test to tell apart are refused before any game, and every pair far enough apart
gets a test whose figures (the fewest units that can decide, the expected games, the LLR) are all finite.

Close pairs are drawn anywhere in each model's range, down to neighbouring floats.
"""

from __future__ import annotations

import math
import sys

import pytest
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rookarena.cli import main
from rookarena.results import caps, sprt
from rookarena.results.sprt import Model, SequentialTest

LIMITS = {Model.TRINOMIAL: sprt.ELO_LIMIT, Model.PENTANOMIAL: sprt.ELO_LIMIT, Model.POINTS: sprt.POINTS_LIMIT}
WIDTHS = {
    Model.TRINOMIAL: sprt.ELO_MIN_WIDTH,
    Model.PENTANOMIAL: sprt.ELO_MIN_WIDTH,
    Model.POINTS: sprt.POINTS_MIN_WIDTH,
}


@st.composite
def close_pairs(draw: st.DrawFn, model: Model) -> tuple[float, float]:
    """Two hypotheses under the least width apart: neighbouring floats, or a fraction of the width."""
    limit = LIMITS[model]
    h0 = draw(st.floats(-limit, limit - WIDTHS[model]))
    gap = draw(
        st.one_of(
            st.integers(1, 4).map(lambda k: math.nextafter(h0, math.inf) - h0 if k == 1 else k * 1e-12),
            st.floats(0, WIDTHS[model], exclude_max=True),
        )
    )
    return h0, h0 + gap


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(list(Model)).flatmap(lambda m: st.tuples(st.just(m), close_pairs(m))))
def test_hypotheses_closer_than_the_least_width_are_refused(case: tuple[Model, tuple[float, float]]) -> None:
    model, (h0, h1) = case
    assume(h0 < h1 and h1 - h0 < WIDTHS[model] * (1 - 1e-9))
    with pytest.raises(ValueError, match=r"1 - .*0 >= 0\.1 \(no test tells closer bounds apart\)"):
        SequentialTest(model, h0, h1)


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(list(Model)), st.floats(0, 1), st.floats(1, 3))
def test_hypotheses_just_wide_enough_give_finite_figures(model: Model, where: float, stretch: float) -> None:
    limit, width = LIMITS[model], WIDTHS[model] * stretch
    h0 = -limit + where * (2 * limit - width)
    h1 = h0 + width
    assume(h1 <= limit)
    test = SequentialTest(model, h0, h1)
    assert 1 <= caps.min_decision(test) < caps.MOST_UNITS
    assert all(math.isfinite(games) and games > 0 for games in caps.expected_games(test))
    if model is Model.POINTS:
        assert math.isfinite(sprt.points_gsprt_llr([(h0, 3), (h1, 1)], h0, h1))


@pytest.mark.parametrize("size", [3, 5])
@pytest.mark.parametrize("power", [0, 20, 40, 60])
@pytest.mark.parametrize("bounds", [(0.0, 0.1), (999.9, 1000.0), (-1000.0, -999.9), (-1e-12, 0.0)])
def test_the_llr_is_finite_for_any_counts_even_with_vanishing_weights(
    size: int, power: int, bounds: tuple[float, float]
) -> None:
    # An outcome seen once among 2**60 (a weight of 1e-18) puts the likelihood's root beside a pole.
    for counts in ([2**power] + [0] * (size - 2) + [1], [0] * (size - 1) + [2**power], [1] * size):
        assert math.isfinite(sprt.gsprt_llr(counts, *bounds))


CLOSE = [
    ("--sprt", "-1e-12", "0"),
    ("--sprt", "0", "1e-12"),
    ("--sprt", "0", "0.09"),
    ("--sprt", "999.95", "1000"),
    ("--sprt-points", "0", "1e-12"),
    ("--sprt-points", "-5", "-4.95"),
]


@pytest.mark.parametrize(("flag", "h0", "h1"), CLOSE)
def test_match_refuses_close_bounds_as_a_usage_error(flag: str, h0: str, h1: str) -> None:
    command = f"{sys.executable} -c pass"
    result = CliRunner().invoke(main, ["match", command, command, "--games", "2", flag, h0, h1])
    assert result.exit_code == 2, result.output
    (error,) = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert error.startswith(f"Error: Invalid value for {flag}: expected "), error
    assert "0 >= 0.1 (no test tells closer bounds apart)" in error
    assert "Traceback" not in result.output


@pytest.mark.parametrize(("h0", "h1"), [(0.2, 0.3), (0.3, 0.4), (-0.1, 0.0), (999.9, 1000.0)])
def test_bounds_written_the_least_width_apart_are_accepted(h0: float, h1: float) -> None:
    for model in Model:
        assert SequentialTest(model, h0, h1).h1 == h1
