"""What every test shares: the project's paths, and the helper modules' folder on the import path.

Tests live in the folder named after the package folder they test (``tests/engine/`` for
``rookarena/engine/``, ...); ``tests/e2e/`` holds the end-to-end ones that run real bot processes
through leagues, sandboxes or a cluster. Helpers several folders use (``procs``, ``web_games``,
``contract_cases``, ``slurm_cluster``), the test bots (``tests/bots/``) and the golden records
(``tests/golden/``) stay here at the top. A test module takes a path with ``from conftest import ROOT``.
"""

from __future__ import annotations

import os
import pathlib
import sys

import pytest

TESTS = pathlib.Path(__file__).resolve().parent
"""This folder."""

ROOT = TESTS.parent
"""The project's checkout: README, protocol/, sample_bots/, configs/."""

TEST_BOTS = TESTS / "bots"
"""The misbehaving and scripted bots the tests run as real processes."""

GOLDEN = TESTS / "golden"
"""The golden records ``tests/golden/regenerate.py`` writes."""

# Commands such as ``rookarena bot search`` name the installed script, which lives beside the interpreter
# that runs the tests: found first, whether or not the virtual environment was activated.
os.environ["PATH"] = os.pathsep.join([str(pathlib.Path(sys.executable).parent), os.environ.get("PATH", "")])

# The longest tests, with their seconds on a 2-core machine: run first, so that on several workers (-n auto)
# the short tests fill the time around them instead of one worker finishing alone with a long test at the
# end. A name that no longer matches only loses its place; the order never changes what a test checks.
LONGEST = {
    "tests/e2e/test_secrecy_peeking.py::test_over_a_thousand_isolated_seat_games_nothing_is_learned": 250,
    "tests/e2e/test_secrecy_peeking.py::test_over_a_thousand_seat_games_the_messages_tell_no_card": 85,
    "tests/e2e/test_chaos.py::test_chaos_league": 85,
    "tests/cli/test_match_cli.py::test_an_undecided_run_exits_4_unless_the_fixed_verdict_is_asked_for": 42,
    "tests/e2e/test_slurm.py::test_a_sharded_league_on_slurm_gives_the_unsharded_table": 39,
    "tests/cli/test_match_cli.py::test_identical_bots_get_a_plain_points_llr": 34,
    "tests/results/test_sprt_calibration.py": 25,
    "tests/arena/test_fault_positions.py::test_each_fault_is_placed_where_its_seat_was_asked": 24,
}
SLOW = 10  # seconds assumed for any other test marked slow


def expected_seconds(item: pytest.Item) -> float:
    """How long a test is expected to take, for the order the tests are handed out in."""
    for name, seconds in LONGEST.items():
        if item.nodeid == name or item.nodeid.startswith((name + "[", name + "::")):
            return seconds
    return SLOW if item.get_closest_marker("slow") is not None else 0


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest tests first (a stable sort: the rest keep their files' order)."""
    items.sort(key=lambda item: -expected_seconds(item))
