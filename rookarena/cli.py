"""The command line. The only module that prints or reads YAML; everything else is called from here."""

from __future__ import annotations

import pathlib
import sys
import time
from typing import Any

import click
import yaml

from rookarena import records, report
from rookarena.errors import RookError
from rookarena.presets import PRESETS, preset, resolve
from rookarena.rules import Rules
from rookarena.simulate import derive_seed, random_game, summarize


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rookarena")
def main() -> None:
    """Referee and tournament runner for computer Rook."""


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


def load_rules(spec: str) -> tuple[str, Rules]:
    """A preset name, or a YAML file holding ``preset:`` and knob overrides."""
    path = pathlib.Path(spec)
    if spec in PRESETS or not (path.suffix in (".yaml", ".yml", ".json") or path.exists()):
        try:
            return resolve(spec)
        except RookError as exc:
            raise click.BadParameter(f"{exc}, or a YAML rules file", param_hint="--rules") from None
    try:
        data: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise click.BadParameter(f"cannot read {spec!r}: {exc.strerror}", param_hint="--rules") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{spec}:{mark.line + 1}" if mark is not None else spec
        raise click.ClickException(f"{where}: not valid YAML: {getattr(exc, 'problem', exc)}") from None
    try:
        return resolve(data if data is not None else {})
    except RookError as exc:
        raise click.ClickException(f"{spec}: {exc}") from None


@main.command()
@click.option("--rules", "rules_spec", default="tournament", show_default=True, help="Preset name or YAML file.")
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True, help="Games to play.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the deals and the players.")
@click.option("--out", type=click.Path(dir_okay=False, writable=True), help="Write the records here (JSON lines).")
def simulate(rules_spec: str, games: int, seed: int, out: str | None) -> None:
    """Play whole games between random players in-process; print a summary, optionally keep the records."""
    name, rules_value = load_rules(rules_spec)
    batch = []
    stream = open(out, "w", encoding="utf-8") if out else None  # noqa: SIM115
    started = time.perf_counter()
    try:
        for index in range(games):
            record = random_game(rules_value, derive_seed(seed, index), name)
            batch.append(record)
            if stream is not None:
                records.write(stream, record)
    finally:
        if stream is not None:
            stream.close()
    seconds = time.perf_counter() - started
    click.echo(f"rules: {name} ({rules_value.digest})")
    click.echo(report.simulation_summary(summarize(batch), seconds), nl=False)
    if out:
        click.echo(f"records: {out}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
