"""`rookarena match` as a CI gate: what a cap allows before the first game, and the exit status after the last.

The gate fails closed: a test that did not decide is a status of its own (4), never a pass, unless
the user asks for the fixed-sample verdict at the cap (``--at-cap fixed``); a cap under the fewest
games that can reach a decision is refused before any game is played.
"""

from __future__ import annotations

import click

from rookarena.results import caps
from rookarena.results import sprt as sequential
from rookarena.results.sprt import Outcome

EXIT_WORSE = 3  # NEW is shown worse (1 and 2 are click's errors)
EXIT_UNDECIDED = 4  # the test did not decide within --games (and --at-cap is not `fixed`)
EXIT_FAULTS = 5  # with --fail-on-faults: NEW had a fault in some game
EXIT_STATUS = {Outcome.NOT_WORSE: 0, Outcome.WORSE: EXIT_WORSE, Outcome.UNDECIDED: EXIT_UNDECIDED}


def _flag(test: sequential.SequentialTest) -> str:
    name = "--sprt-points" if test.model is sequential.Model.POINTS else "--sprt"
    return f"{name} {test.h0:g} {test.h1:g}"


def check_cap(test: sequential.SequentialTest, games: int) -> str | None:
    """Refuse a cap under the fewest games that can ever decide (a usage error); else the warning, if any,
    that the expected games to a decision at the bounds exceed the cap."""
    units = caps.min_decision(test)
    per_unit = 1 if test.model is sequential.Model.TRINOMIAL else 2
    if games < units * per_unit:
        unit = test.unit + ("s" if units != 1 else "")
        raise click.BadParameter(
            f"expected at least {units * per_unit} games: {_flag(test)} cannot decide before {units} {unit}, "
            f"got {games}",
            param_hint="--games",
        )
    typical, wide = caps.expected_games(test)
    if wide <= games:
        return None
    if test.model is sequential.Model.POINTS:
        figure = f"about {typical:,.0f} games on average for differences of sd {caps.REFERENCE_POINTS_SD:g}"
    elif test.model is sequential.Model.PENTANOMIAL:
        figure = (
            f"about {typical:,.0f} games on average when a deal's two games mostly split, "
            f"{wide:,.0f} when they are independent"
        )
    else:
        figure = f"about {wide:,.0f} games on average"
    return f"warning: --games {games} may end undecided (exit status 4): at the bounds {_flag(test)} takes {figure}"


def exit_status(outcome: Outcome, new_faulted: bool, fail_on_faults: bool) -> int:
    """Shown worse (3) first, then NEW's faults under --fail-on-faults (5), then undecided (4), else 0."""
    if outcome is Outcome.WORSE:
        return EXIT_WORSE
    if fail_on_faults and new_faulted:
        return EXIT_FAULTS
    return EXIT_STATUS[outcome]


def status_line(status: int, asks_worse: bool = True) -> str:
    """The closing line naming the exit status, so a CI log says why a step failed (or passed); ``asks_worse``:
    whether the question was whether NEW is worse (a test with ELO1 or D1 <= 0, or none), the only one whose
    0 says that NEW is not shown worse."""
    if status == 0 and not asks_worse:
        return (
            "exit status 0: the test's answer is not a regression check (it did not ask whether NEW is worse: "
            "--sprt -10 0 asks it)"
        )
    meaning = {
        0: "NEW is not shown worse",
        EXIT_WORSE: "NEW is shown worse",
        EXIT_UNDECIDED: "undecided at the cap (--at-cap fixed takes the fixed-sample verdict instead)",
        EXIT_FAULTS: "NEW had faults (--fail-on-faults)",
    }
    return f"exit status {status}: {meaning[status]}"
