"""``rookarena bot``: the built-in bots over rook/1, for a league's ``command:``. It loads the players alone
(not the referee, the results or the other commands), so that a bot's process starts quickly."""

from __future__ import annotations

import click

from rookarena.cli.group import FiniteFloat, main


@main.command("bot")
@click.argument("name", type=click.Choice(["random", "heuristic", "search"]))
@click.option("--level", type=click.IntRange(1, 4), help="Strength of the search bot: 1 to 4 (default 3).")
@click.option("--seed", default="0", show_default=True, help="Seed of the bot's own choices.")
@click.option(
    "--playouts",
    type=click.IntRange(1, 10**9),
    help="Playouts per decision (overrides --level's budget; at most 10^9).",
)
@click.option(
    "--think",
    type=FiniteFloat(min=0),
    help="Most seconds a decision may think (overrides --level's cap: 0.15 at level 3; 0 for none).",
)
def bot(name: str, level: int | None, seed: str, playouts: int | None, think: float | None) -> None:
    """Play the built-in bot NAME over rook/1 on stdin and stdout (for a league's `command:`).

    random plays random legal actions; heuristic is the sample heuristic bot; search samples the hidden
    cards and plays each option out (docs/bots.md). Given --seed and a budget of playouts that neither
    the move time nor --think cuts short, its play is the same on every run.
    """
    from rookarena import __version__  # noqa: PLC0415 (only this command needs the players)
    from rookarena.players import loop  # noqa: PLC0415

    raise SystemExit(loop.serve(loop.make_player(name, level, seed, playouts, think), __version__))
