"""``rookarena simulate``: games of the built-in random players, in process."""

from __future__ import annotations

import contextlib
import pathlib
import secrets
import signal
import time
from collections.abc import Iterator
from typing import Any

import click

from rookarena.cli import text as report
from rookarena.cli.common import load_rules, main
from rookarena.cli.group import MOST_GAMES
from rookarena.errors import RookError
from rookarena.players.simulate import random_game, summarize
from rookarena.results import files
from rookarena.wire import records
from rookarena.wire.names import printable
from rookarena.wire.records import derive_seed


@main.command()
@click.option("--rules", "rules_spec", default="tournament", show_default=True, help="Preset name or YAML file.")
@click.option(
    "--games",
    type=click.IntRange(1, MOST_GAMES),
    default=100,
    show_default=True,
    help=f"Games to play (at most {MOST_GAMES:,}).",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    help="Seed of the deals and the players (default: drawn from the OS, and printed).",
)
@click.option("--out", type=click.Path(dir_okay=False, writable=True), help="Write the records here (JSON lines).")
def simulate(rules_spec: str, games: int, seed: int | None, out: str | None) -> None:
    """Play whole games between random players in-process; print a summary, optionally keep the records."""
    name, rules_value = load_rules(rules_spec)
    drawn = seed is None
    seed = secrets.randbits(records.SEED_BITS) if seed is None else seed
    if out:
        problem = files.over_results(pathlib.Path(out), [], "the simulated records")
        if problem:
            raise click.BadParameter(problem, param_hint="'--out'")
    # The records whole or not at all (a new file renamed over the old when the last game is written), so
    # a full disk or a crash leaves an older file as it was, never one cut short.
    saving = files.output(pathlib.Path(out)) if out else contextlib.nullcontext(None)

    stop: list[int] = []  # a stop signal arrived: the games played so far are summed up

    def played() -> Iterator[dict[str, Any]]:
        """Each game as it is played, written and then counted, never kept: any number of games fits."""
        for index in range(games):
            if stop:
                return
            record = random_game(rules_value, derive_seed(seed, index), name)
            if stream is not None:
                stream.write((records.dumps(record) + "\n").encode())
            yield record

    from .stopping import stop_signals  # noqa: PLC0415 - (it imports trio, which a simulation needs not)

    # The signals that stop any command stop a simulation after the game in play, with its summary.
    handlers = {sig: signal.signal(sig, lambda number, frame: stop.append(number)) for sig in stop_signals()}
    started = time.perf_counter()
    try:
        with saving as stream:
            summary = summarize(played())
    except RookError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    seconds = time.perf_counter() - started
    click.echo(f"rules: {printable(name)} ({rules_value.digest})")
    if drawn:
        click.echo(f"seed: {seed} (drawn; replay the same games with --seed {seed})")
    click.echo(report.simulation_summary(summary, seconds), nl=False)
    if out:
        click.echo(f"records: {printable(str(out))}")
    if stop:
        click.echo(f"stopped after {summary.games} of {games} games: the figures above are theirs", err=True)
        raise SystemExit(130)
