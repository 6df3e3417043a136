"""The command line's shape: one module per command, no import cycle, no long function.

The imports that count are the ones run when a module loads: those at module level, outside
``if TYPE_CHECKING`` (a function's own imports run later, when the module is complete).
"""

from __future__ import annotations

import ast
import pathlib

import pytest

import rookarena

PACKAGE = pathlib.Path(rookarena.__file__).parent
LONGEST_CLI_FUNCTION = 80
# The commands still longer than that, at most as long as they are now: none may grow, none may join.
STILL_LONG: dict[tuple[str, str], int] = {}  # none left: every command function is within the limit


def module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def loaded_imports(path: pathlib.Path, modules: set[str]) -> set[str]:
    """The package's modules that loading ``path`` imports first."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            submodules = {f"{base}.{alias.name}" for alias in node.names} & modules
            # ``from package import module`` loads the module; a package importing its own modules
            # and they each other through it is no cycle.
            found.update(submodules if len(submodules) == len(node.names) else {base, *submodules})
    return {each for each in found if each in modules and each != name}


def import_graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(path) for path in paths}
    return {module_name(path): loaded_imports(path, modules) for path in paths}


def a_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph``, as the modules around it, or None."""
    state: dict[str, int] = {}
    trail: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        trail.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*trail[trail.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        trail.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)) is not None:
            return found
    return None


def test_the_cycle_finder_finds_one() -> None:
    assert a_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert a_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_the_relative_imports_are_resolved() -> None:
    modules = {"rookarena.cli", "rookarena.cli.common", "rookarena.cli.tools"}
    path = PACKAGE / "cli" / "tools.py"
    assert "rookarena.cli.common" in loaded_imports(path, modules)
    group = {"rookarena.cli", "rookarena.cli.group", "rookarena.cli.tools"}
    assert loaded_imports(PACKAGE / "cli" / "__init__.py", group) == {"rookarena.cli.group"}


def test_the_group_knows_every_command_and_the_module_that_defines_it() -> None:
    """The group imports a command's module only when the command runs: each module's commands must be
    listed under it, or the command would not be found."""
    import click

    from rookarena.cli import group

    for path in sorted((PACKAGE / "cli").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                for decorator in node.decorator_list:
                    call = decorator if isinstance(decorator, ast.Call) else None
                    target = call.func if call is not None else decorator
                    if isinstance(target, ast.Attribute) and ast.unparse(target.value) == "main":
                        name = call.args[0].value if call is not None and call.args else node.name  # type: ignore[attr-defined]
                        assert group.COMMANDS.get(name) == path.stem, (name, path.name)
    ctx = click.Context(group.main)
    for name in group.COMMANDS:
        assert group.main.get_command(ctx, name) is not None, name
    assert group.main.list_commands(ctx) == sorted(group.COMMANDS)


def test_no_import_cycle_in_the_package() -> None:
    cycle = a_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


@pytest.mark.parametrize("path", sorted((PACKAGE / "cli").glob("*.py")), ids=lambda path: path.name)
def test_no_long_function_in_the_command_line(path: pathlib.Path) -> None:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            limit = STILL_LONG.get((path.name, node.name), LONGEST_CLI_FUNCTION)
            assert length <= limit, f"{path.name}: {node.name} is {length} lines, more than {limit}"
