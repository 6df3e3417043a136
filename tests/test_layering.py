"""The pure core stays pure: its modules import no I/O, processes, clock, CLI or report code.

Imports are read from the source with :mod:`ast` (nothing is imported), including imports inside
functions and ``if TYPE_CHECKING`` blocks, relative imports and ``from rookarena import cli``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import rookarena

PACKAGE = Path(rookarena.__file__).parent
PURE = [
    "engine/cards",
    "engine/rules",
    "engine/presets",
    "engine/actions",
    "engine/game",
    "engine/views",
    "players/__init__",
    "players/base",
    "players/heuristic",
    "players/fast",
    "players/worlds",
    "players/search",
    "players/inprocess",
    "wire/records",
    "players/simulate",
    "errors",
    "engine/__init__",
    "wire/__init__",
    "results/__init__",
    "wire/names",
    "results/tables",
    "wire/protocol",
    "wire/replies",
    "wire/advice",
    "results/stats",
    "results/ratings",
    "results/sprt",
    "results/standings",
    "web/model",
    "web/index",
    "web/text",
    "wire/transcript",
    "web/diff",
]
FORBIDDEN = {"trio", "click", "yaml", "subprocess", "os", "time", "socket", "rookarena.cli", "rookarena.arena"}


def imported(source: str) -> set[str]:
    """Every module name ``source`` (a module directly inside rookarena) imports, fully qualified."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                assert node.level == 1, "a relative import reaching above the package"
                full = f"rookarena.{node.module}" if node.module else "rookarena"
            else:
                full = node.module or ""
            names.add(full)
            # ``from rookarena import cli`` imports the module rookarena.cli.
            names.update(f"{full}.{alias.name}" for alias in node.names)
    return names


def forbidden(names: set[str]) -> set[str]:
    """The names that are, or are inside, a forbidden module."""
    return {name for name in names if any(name == bad or name.startswith(f"{bad}.") for bad in FORBIDDEN)}


@pytest.mark.parametrize("module", PURE)
def test_pure_module_imports(module: str) -> None:
    path = PACKAGE / f"{module}.py"
    assert path.is_file(), f"{path} is missing"
    names = imported(path.read_text(encoding="utf-8"))
    assert not forbidden(names), f"rookarena.{module} imports {sorted(forbidden(names))}"


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("import os", {"os"}),
        ("import os.path", {"os.path"}),
        ("from os import path", {"os", "os.path"}),
        ("import time as clock", {"time"}),
        ("from time import monotonic", {"time", "time.monotonic"}),
        ("import trio", {"trio"}),
        ("import yaml", {"yaml"}),
        ("def f():\n    import subprocess\n", {"subprocess"}),
        ("if TYPE_CHECKING:\n    import click\n", {"click"}),
        ("import socket", {"socket"}),
        ("from rookarena import cli", {"rookarena.cli"}),
        ("from rookarena.arena.bots import spawn", {"rookarena.arena.bots", "rookarena.arena.bots.spawn"}),
        ("from . import cli", {"rookarena.cli"}),
        ("from .arena import bots", {"rookarena.arena", "rookarena.arena.bots"}),
        ("import rookarena.cli", {"rookarena.cli"}),
    ],
)
def test_the_check_catches(source: str, caught: set[str]) -> None:
    assert forbidden(imported(source)) == caught


@pytest.mark.parametrize(
    "source",
    [
        "import random",
        "import ostrich",
        "import timeit",
        "from rookarena.engine import cards",
        "from .records import build",
        "from rookarena.reporting import x",
        "import json, hashlib",
    ],
)
def test_the_check_lets_through(source: str) -> None:
    assert forbidden(imported(source)) == set()


# The views of the results start without what runs bots: a command's modules as they are really imported.
HEAVY = (
    "trio",
    "yaml",
    "rookarena.arena.bots",
    "rookarena.arena.referee",
    "rookarena.arena.match",
    "rookarena.arena.league",
)
_IMPORTS = """
import sys
from rookarena.cli import main
try:
    main(sys.argv[1:], standalone_mode=False)
except SystemExit:
    pass
print(" ".join(sorted(name for name in sys.modules if name.split(".")[0] in ("trio", "yaml") or name in {heavy})))
"""


@pytest.mark.parametrize("command", ["--help", "show", "replay", "report", "standings"])
def test_the_views_of_the_results_import_nothing_that_runs_bots(tmp_path: Path, command: str) -> None:
    import subprocess
    import sys

    import web_games

    played = web_games.league_records(["alpha", "beta"], deals=1)
    directory = web_games.write_dir(tmp_path / "league", played, ["alpha", "beta"], deals=1)
    gid = played[0]["game_id"]
    arguments = {
        "--help": ["--help"],
        "show": ["show", str(directory), gid],
        "replay": ["replay", str(directory), gid, "-o", str(tmp_path / "g.html")],
        "report": ["report", str(directory), "-o", str(tmp_path / "r.html")],
        "standings": ["standings", str(directory)],
    }[command]
    script = _IMPORTS.replace("{heavy}", repr(set(HEAVY)))
    done = subprocess.run(
        [sys.executable, "-c", script, *arguments], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.splitlines()[-1] == "", f"rookarena {command} imported {done.stdout.splitlines()[-1]}"
    if command == "show":
        assert gid in done.stdout


def test_the_fault_policies_of_the_command_line_are_the_referees() -> None:
    from rookarena.arena import referee
    from rookarena.cli.common import FAULT_POLICIES

    assert tuple(policy.value for policy in referee.FaultPolicy) == FAULT_POLICIES


def test_the_isolations_of_the_command_line_are_the_sandboxs() -> None:
    from rookarena.arena import config, isolation
    from rookarena.cli.common import ISOLATIONS

    assert tuple(isolation.CHOICES) == ISOLATIONS == config.ISOLATIONS
