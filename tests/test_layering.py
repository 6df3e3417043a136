"""The pure core stays pure, and the folders import one another in one direction only.

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
    "wire/conversation",
    "wire/messages",
    "wire/replies",
    "wire/advice",
    "results/stats",
    "results/ratings",
    "results/sprt",
    "results/caps",
    "results/standings",
    "results/store",
    "results/export",
    "web/model",
    "web/index",
    "web/text",
    "wire/transcript",
    "web/diff",
    "engine/seeding",
    "engine/scoring",
    "arena/specs",
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


def imported_by(path: Path, root: Path = PACKAGE) -> set[str]:
    """Every module the file at ``path`` (in the package at ``root``) imports, relative imports resolved."""
    parts = path.relative_to(root.parent).with_suffix("").parts
    package = parts if path.name == "__init__.py" else parts[:-1]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1])
                full = f"{base}.{node.module}" if node.module else base
            else:
                full = node.module or ""
            names.add(full)
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
    from rookarena.arena import specs
    from rookarena.cli.common import FAULT_POLICIES

    assert tuple(policy.value for policy in specs.FaultPolicy) == FAULT_POLICIES


def test_the_isolations_of_the_command_line_are_the_sandboxs() -> None:
    from rookarena.arena import config, isolation
    from rookarena.cli.common import ISOLATIONS

    assert tuple(isolation.CHOICES) == ISOLATIONS == config.ISOLATIONS


# Which parts of the package each part may import: engine < wire < players < arena; the results and their
# views read records and settings only; the command line ties everything together. A part is a folder, or a
# module directly inside the package; every part may import ``errors`` and the package itself (its version).
BASE = {"rookarena", "errors"}
ALLOWED: dict[str, set[str]] = {
    "engine": {"engine"},
    "wire": {"engine", "wire"},
    "players": {"engine", "wire", "players"},
    "arena": {"engine", "wire", "players", "arena"},
    "results": {"engine", "wire", "results", "arena.specs"},
    "web": {"engine", "wire", "results", "web", "arena.specs"},
    "botkit": {"engine", "wire", "players", "botkit"},
    "randombot": {"engine", "wire", "players", "botkit"},
    "errors": set(),
    "__init__": set(),
    "__main__": {"cli"},
}
FOLDERS = sorted(path.name for path in PACKAGE.iterdir() if (path / "__init__.py").is_file())
TOP = sorted(path.stem for path in PACKAGE.glob("*.py"))


def part_of(name: str) -> str | None:
    """The part of the package a module name (or a name inside a module) is in; None outside the package."""
    words = name.split(".")
    if words[0] != "rookarena":
        return None
    if len(words) == 1 or words[1] not in (*FOLDERS, *TOP):
        return "rookarena"  # the package itself, or a name in its __init__ (``from rookarena import __version__``)
    if words[1:3] == ["arena", "specs"]:
        return "arena.specs"
    return words[1]


def crossings(path: Path, root: Path = PACKAGE) -> set[str]:
    """The imports of the file at ``path`` (in the package at ``root``) that go where its part may not."""
    relative = path.relative_to(root)
    part = relative.parts[0] if len(relative.parts) > 1 else relative.stem
    if part == "cli":
        return set()
    allowed = ALLOWED[part] | BASE | {part}
    if "arena" in allowed:
        allowed = allowed | {"arena.specs"}
    return {name for name in imported_by(path, root) if (to := part_of(name)) is not None and to not in allowed}


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_every_part_of_the_package_has_its_place_in_the_table() -> None:
    assert set(FOLDERS) - {"cli"} <= set(ALLOWED), sorted(set(FOLDERS) - set(ALLOWED))
    assert set(TOP) <= set(ALLOWED), sorted(set(TOP) - set(ALLOWED))


@pytest.mark.parametrize("path", SOURCES, ids=[str(path.relative_to(PACKAGE)) for path in SOURCES])
def test_imports_go_one_way_between_the_parts(path: Path) -> None:
    assert not crossings(path), f"rookarena/{path.relative_to(PACKAGE)} imports {sorted(crossings(path))}"


NO_TRIO = ("engine", "wire", "results", "web")


@pytest.mark.parametrize("path", [path for part in NO_TRIO for path in sorted((PACKAGE / part).rglob("*.py"))])
def test_no_module_of_the_core_results_or_views_imports_trio(path: Path) -> None:
    assert not {name for name in imported_by(path) if name.split(".")[0] == "trio"}, path


@pytest.mark.parametrize(
    ("where", "source", "crossing"),
    [
        ("engine/x.py", "from rookarena.wire import records", {"rookarena.wire", "rookarena.wire.records"}),
        ("engine/x.py", "from ..wire import records", {"rookarena.wire", "rookarena.wire.records"}),
        ("wire/x.py", "from rookarena.players import heuristic", {"rookarena.players", "rookarena.players.heuristic"}),
        (
            "results/x.py",
            "from rookarena.arena.bots import BotSpec",
            {"rookarena.arena.bots", "rookarena.arena.bots.BotSpec"},
        ),
        ("results/x.py", "from rookarena.arena import config", {"rookarena.arena", "rookarena.arena.config"}),
        ("web/x.py", "import rookarena.cli", {"rookarena.cli"}),
        ("players/x.py", "from rookarena.arena import specs", {"rookarena.arena", "rookarena.arena.specs"}),
        ("results/x.py", "from rookarena.arena.specs import LeagueConfig", set()),
        ("web/x.py", "from . import model", set()),
        ("arena/x.py", "from rookarena import __version__", set()),
        ("engine/x.py", "from rookarena.errors import RulesError", set()),
        ("cli/x.py", "from rookarena.arena import bots", set()),
    ],
)
def test_the_direction_check_catches(tmp_path: Path, where: str, source: str, crossing: set[str]) -> None:
    fake = tmp_path / "rookarena"
    (fake / where).parent.mkdir(parents=True)
    (fake / where).write_text(source, encoding="utf-8")
    assert crossings(fake / where, fake) == crossing


def test_the_results_and_their_views_load_no_trio() -> None:
    import subprocess
    import sys

    script = (
        "import importlib, pkgutil, sys\n"
        "import rookarena.results, rookarena.web\n"
        "for package in (rookarena.results, rookarena.web):\n"
        "    for module in pkgutil.iter_modules(package.__path__, package.__name__ + '.'):\n"
        "        importlib.import_module(module.name)\n"
        "print(' '.join(sorted(name for name in sys.modules if name.split('.')[0] == 'trio')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "", f"importing rookarena.results and rookarena.web loaded {done.stdout.strip()}"


# What a Python bot built on the package loads: the bot-side loop, the actions and the players' helpers,
# never the referee's half of the conversation (the game, the views, the messages it builds, records).
BOT_SIDE = ("rookarena.botkit", "rookarena.randombot")
REFEREE_SIDE = ("rookarena.engine.game", "rookarena.engine.views", "rookarena.wire.messages", "rookarena.wire.records")


@pytest.mark.parametrize("module", BOT_SIDE)
def test_a_bot_built_on_the_package_loads_no_referee_code(module: str) -> None:
    import subprocess
    import sys

    script = (
        f"import sys, {module}\nprint(' '.join(sorted(name for name in sys.modules if name.startswith('rookarena'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    loaded = set(done.stdout.split())
    assert module in loaded, loaded
    assert not loaded & set(REFEREE_SIDE), f"importing {module} loaded {sorted(loaded & set(REFEREE_SIDE))}"


MOST_LINES = 500


@pytest.mark.parametrize("path", SOURCES, ids=[str(path.relative_to(PACKAGE)) for path in SOURCES])
def test_no_module_is_over_500_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_LINES, f"rookarena/{path.relative_to(PACKAGE)} has {lines} lines: split it where it has a seam"


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module of the package at ``root`` and the modules of the package it imports (anywhere in it:
    at the top, inside functions, under ``if TYPE_CHECKING``). ``from P import M`` of a submodule M counts
    as M alone (P's ``__init__`` is only run on the way, as for every submodule); a name inside a module
    counts as that module."""
    modules = {module_name(path, root): path for path in sorted(root.rglob("*.py"))}

    def owner(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(owner(alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    words = package.split(".")
                    base = ".".join([*words[: len(words) - node.level + 1], *([base] if base else [])])
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    targets.add(full if full in modules else owner(base))
        graph[name] = {target for target in targets if target is not None and target != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of two or more modules that import one another, directly or round a loop (Tarjan's
    strongly connected components), each sorted."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in order:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], order[target])
        if low[node] == order[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return sorted(found)


def test_no_modules_import_one_another() -> None:
    assert cycles(import_graph()) == []


@pytest.mark.parametrize(
    ("files", "found"),
    [
        ({"cli/__init__.py": "from rookarena.cli import tools", "cli/tools.py": "from rookarena import cli"}, 1),
        ({"cli/__init__.py": "", "cli/a.py": "from . import b", "cli/b.py": "from rookarena.cli.a import main"}, 1),
        (
            {
                "engine/__init__.py": "",
                "engine/a.py": "def f():\n    from rookarena.engine import b",
                "engine/b.py": "from rookarena.engine import c",
                "engine/c.py": "import rookarena.engine.a",
            },
            1,
        ),
        ({"engine/__init__.py": "", "engine/a.py": "from . import b", "engine/b.py": "import os"}, 0),
        # a package's __init__ importing its submodules, which import a sibling through the package: no loop
        ({"cli/__init__.py": "from . import a", "cli/a.py": "from rookarena.cli import b", "cli/b.py": ""}, 0),
        ({"cli/__init__.py": "from . import a", "cli/a.py": "from rookarena.cli import main", "cli/b.py": ""}, 1),
    ],
)
def test_the_cycle_check_catches(tmp_path: Path, files: dict[str, str], found: int) -> None:
    fake = tmp_path / "rookarena"
    fake.mkdir()
    (fake / "__init__.py").write_text("", encoding="utf-8")
    for where, source in files.items():
        (fake / where).parent.mkdir(parents=True, exist_ok=True)
        (fake / where).write_text(source, encoding="utf-8")
    assert len(cycles(import_graph(fake))) == found


CLI_MOST_LINES = 80
CLI_SOURCES = sorted((PACKAGE / "cli").glob("*.py"))


@pytest.mark.parametrize("path", CLI_SOURCES, ids=[path.name for path in CLI_SOURCES])
def test_no_function_of_the_command_line_is_over_80_lines(path: Path) -> None:
    long = [
        f"{node.name} ({(node.end_lineno or node.lineno) - node.lineno + 1} lines)"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (node.end_lineno or node.lineno) - node.lineno + 1 > CLI_MOST_LINES
    ]
    assert not long, f"rookarena/cli/{path.name}: {', '.join(long)}"
