"""``rookarena simulate``: games of the built-in random players, in process."""

from __future__ import annotations

import secrets
import signal
import time
from collections.abc import Iterator
from typing import Any

import click

from rookarena.cli import text as report
from rookarena.cli.common import load_rules, main
from rookarena.cli.group import MOST_GAMES
from rookarena.players.simulate import random_game, summarize
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
    stream = open(out, "w", encoding="utf-8") if out else None  # noqa: SIM115

    stop: list[int] = []  # a stop signal arrived: the games played so far are summed up

    def played() -> Iterator[dict[str, Any]]:
        """Each game as it is played, written and then counted, never kept: any number of games fits."""
        for index in range(games):
            if stop:
                return
            record = random_game(rules_value, derive_seed(seed, index), name)
            if stream is not None:
                records.write(stream, record)
            yield record

    from .stopping import stop_signals  # noqa: PLC0415 - (it imports trio, which a simulation needs not)

    # The signals that stop any command stop a simulation after the game in play, with its summary.
    handlers = {sig: signal.signal(sig, lambda number, frame: stop.append(number)) for sig in stop_signals()}
    started = time.perf_counter()
    try:
        summary = summarize(played())
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
        if stream is not None:
            stream.close()
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
