"""Every number option of every command refuses what is not a number (nan, inf) with one plain sentence.

The table is generated from the commands themselves, so an option added later is covered without a line
here; a float option must use the finite type to be accepted at all (click's own float range lets nan in).
"""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from rookarena.cli import main
from rookarena.cli.common import FiniteFloat


def commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    found: list[tuple[tuple[str, ...], click.Command]] = []
    ctx = click.Context(group)
    every = {name: group.get_command(ctx, name) for name in group.list_commands(ctx)}  # (loaded as they run)
    for name, command in sorted((name, command) for name, command in every.items() if command is not None):
        if isinstance(command, click.Group):
            found += commands(command, (*prefix, name))
        else:
            found.append(((*prefix, name), command))
    return found


FLOATS = [
    (path, param)
    for path, command in commands(main)
    for param in command.params
    if isinstance(param, click.Option) and isinstance(param.type, click.FloatRange)
]
CASES = [(path, param.opts[0], value) for path, param in FLOATS for value in ("nan", "NaN", "inf", "-inf", "1e999")]


def test_every_float_range_is_finite_and_some_exist() -> None:
    assert len(FLOATS) >= 8, [(path, param.name) for path, param in FLOATS]
    for path, param in FLOATS:
        assert isinstance(param.type, FiniteFloat), (path, param.name)


@pytest.mark.parametrize(("path", "flag", "value"), CASES, ids=[f"{' '.join(p)} {f} {v}" for p, f, v in CASES])
def test_a_number_that_is_not_one_is_a_usage_error(path: tuple[str, ...], flag: str, value: str) -> None:
    result = CliRunner().invoke(main, [*path, f"{flag}={value}"])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert f"Invalid value for '{flag}'" in result.output
    assert "is not a finite number" in result.output or "is not in the range" in result.output, result.output
    assert "Traceback" not in result.output
