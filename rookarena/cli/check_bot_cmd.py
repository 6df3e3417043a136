"""``rookarena check-bot``: one bot against the random bot, its faults as a report card."""

from __future__ import annotations

import functools
import pathlib
import tempfile
from typing import TYPE_CHECKING

import click

from rookarena.cli import text as report
from rookarena.cli.common import _spec, load_rules, main, move_time_option, startup_option
from rookarena.engine.rules import Rules

if TYPE_CHECKING:
    pass


@main.command("check-bot")
@click.argument("command")
@click.option(
    "--games", type=click.IntRange(1, 1000), default=4, show_default=True, help="Games per preset (at most 1,000)."
)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the deals.")
@move_time_option(2.0)
@startup_option(10.0, "Seconds to say hello.")
@click.option("--logs", type=click.Path(file_okay=False), help="Keep the bot's stderr logs in this directory.")
@click.option(
    "--rules",
    "rules_specs",
    multiple=True,
    help="Check under these rules (a preset name or a YAML rules file, as a league gives them; repeatable) "
    "instead of the tournament, open-nest and kentucky presets.",
)
def check_bot(
    command: str,
    games: int,
    seed: int,
    move_time: float,
    startup: float,
    logs: str | None,
    rules_specs: tuple[str, ...],
) -> None:
    """Play COMMAND through every phase under several presets and print a report card.

    The bot plays both seats of one team against the packaged random bot, which passes in the auction
    in odd hands, so that the bot wins auctions, and takes the bid in even ones; every phase (win an
    auction, discard, name trump, play as the bidder's partner, defend, lead, follow, win a trick, play
    the Rook) must come up under each preset, or under the --rules given. Faults fail, with advice by cause;
    fragile behaviour (answering twice, a slow start, a hello missing fields) warns. Exits 0 only when
    the bot is compliant (warnings allowed).
    """
    from rookarena.arena import checkbot  # noqa: PLC0415 - not imported for run, which needs none of it
    from rookarena.arena.specs import TimeControl  # noqa: PLC0415

    from .stopping import run_until_stopped  # noqa: PLC0415

    spec = _spec(command, None, "bot", "'COMMAND'")
    with tempfile.TemporaryDirectory(prefix="rookarena-check-") as scratch:
        log_dir = pathlib.Path(logs) if logs else pathlib.Path(scratch)
        log_dir.mkdir(parents=True, exist_ok=True)
        presets: list[str | tuple[str, Rules]] = [load_rules(text) for text in rules_specs]
        presets = presets or list(checkbot.CHECK_PRESETS)
        checking = functools.partial(
            checkbot.check_bot,
            spec,
            games=games,
            seed=seed,
            time=TimeControl(move=move_time, startup=startup),
            log_dir=log_dir,
            presets=presets,
        )
        card = run_until_stopped(checking, what="the check was not finished")
    note = f"stderr logs in {log_dir}" if logs else "--logs DIR keeps the bot's stderr logs"
    click.echo(report.report_card(card.name, card.checks, note))
    if not all(check.passed for check in card.checks):
        raise SystemExit(1)
