"""``rookarena standings``: the table of one or more results directories."""

from __future__ import annotations

import json
import pathlib
from typing import TYPE_CHECKING

import click

from rookarena.cli.common import WIDE_HELP, _table_or_json, main, reads_records, render_standings
from rookarena.errors import RookError
from rookarena.results import directory as results
from rookarena.results import export, standings

if TYPE_CHECKING:
    pass


@main.command("standings")
@click.argument("directories", nargs=-1, required=True, type=click.Path(file_okay=False, exists=True))
@click.option(
    "--format",
    "fmt",
    default="simple",
    show_default=True,
    callback=_table_or_json,
    help="Any tabulate table format, or json (the rows of standings.json).",
)
@click.option("--wide", is_flag=True, help=WIDE_HELP)
@reads_records
def standings_command(directories: tuple[str, ...], fmt: str, wide: bool) -> None:
    """Print the standings of one results directory, or of several (shards) merged."""
    paths = [pathlib.Path(d) for d in directories]
    try:
        merged = results.merge_results(paths)
        missing = results.missing_shards(paths)
        unfinished = results.unfinished_runs(merged.held)
    except RookError as exc:
        raise click.ClickException(str(exc)) from None
    if missing:
        click.echo(f"warning: shards {', '.join(missing)} are missing: the table covers only the others", err=True)
    for sentence in unfinished:
        click.echo(f"warning: {sentence}", err=True)
    played = merged.games
    planned = [path for path in paths if (path / results.PLAN_FILE).exists()]
    for path in paths if planned else ():
        if path not in planned:  # a match's, or a league's records copied without their plan: not checked
            click.echo(
                f"warning: {path} has no {results.PLAN_FILE}: its games are counted with {planned[0]}'s without "
                "checking that they are of the same league (its seed and bots)",
                err=True,
            )
    anchors = results.recorded_anchors(paths)
    if fmt == "json":
        rows = standings.standings(played, anchors=anchors)
        click.echo(json.dumps(export.standings_json(rows), indent=2, allow_nan=False))
        return
    click.echo(render_standings(played, fmt, wide, anchors))
