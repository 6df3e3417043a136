"""``rookarena rules list`` and ``rookarena rules show``: the presets."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from rookarena.cli import text as report
from rookarena.cli.common import main
from rookarena.engine.presets import PRESETS, preset
from rookarena.errors import RookError

if TYPE_CHECKING:
    pass


@main.group()
def rules() -> None:
    """List and show the rule presets."""


@rules.command("list")
def rules_list() -> None:
    """One preset a line: its name, then what it is."""
    click.echo(report.presets_list(list(PRESETS.values())), nl=False)


@rules.command("show")
@click.argument("name")
def rules_show(name: str) -> None:
    """Every knob of preset NAME as YAML that can be edited and passed back with --rules FILE."""
    try:
        found = preset(name)
    except RookError as exc:
        raise click.BadParameter(str(exc), param_hint="NAME") from None
    click.echo(report.rules_yaml(found), nl=False)
