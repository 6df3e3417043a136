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


def pytest_xdist_auto_num_workers(config: object) -> int:
    """``-n auto``: three workers for every two cores. Many tests spend their time waiting on bots' clocks
    and processes' starts, which leaves a core idle under one worker a core (on two cores the whole suite
    kept the CPUs 89% busy with two workers, 97% with three)."""
    cores = len(os.sched_getaffinity(0))
    return max(1, cores + cores // 2)


def random_bots_yaml(bots: list[tuple[str, int]]) -> list[str]:
    """The ``bots:`` lines of a league configuration of the package's random bots, each ``(name, seed)``,
    startable from any directory (the package on their PYTHONPATH)."""
    lines = ["bots:"]
    for name, seed in bots:
        lines += [
            f"  - name: {name}",
            f"    command: [{sys.executable}, -m, rookarena.randombot, '{seed}']",
            f"    env: {{PYTHONPATH: {ROOT}}}",
        ]
    return lines
