"""The two teams of ``rookarena match``: their bots from the command line, named from the options or from the
bots' hellos, and under ``--isolation bwrap`` shut in their sandboxes before any of them is started, for its
hello too."""

from __future__ import annotations

import dataclasses
import pathlib
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from rookarena.cli.common import _hello_names, _spec
from rookarena.errors import RookError
from rookarena.wire.names import name_key

if TYPE_CHECKING:
    from rookarena.arena.specs import BotSpec

Program = tuple[str | None, str | None, str | None]  # a team's command, its partner's command, its name
Team = tuple["BotSpec", "BotSpec"]
Shut = Callable[["BotSpec"], "BotSpec"]  # one team's bot put in its sandbox


def teams(
    team_a: Program, team_b: Program, startup: float, out_dir: pathlib.Path | None, isolated: bool
) -> tuple[Team, Team]:
    """Both teams' two seats, named from the options or the bots' hellos, the two names made distinct; when
    ``isolated``, each seat under bubblewrap (hidden from the other team's files and the records), the
    processes that answer the hello included."""
    (command_a, partner_a, name_a), (command_b, partner_b, name_b) = team_a, team_b
    assert command_a is not None and command_b is not None
    given = [name_a is not None, name_b is not None, False, False]
    specs: list[BotSpec | None] = [
        _spec(command_a, name_a, "a", "'COMMAND_A'"),
        _spec(command_b, name_b, "b", "'COMMAND_B'"),
        _spec(partner_a, None, "a2", "'--partner-a'") if partner_a is not None else None,
        _spec(partner_b, None, "b2", "'--partner-b'") if partner_b is not None else None,
    ]
    shut = _shutters(specs, out_dir) if isolated else None
    started = [shut[at % 2](spec) if shut is not None and spec is not None else spec for at, spec in enumerate(specs)]
    a, b, a2, b2 = _hello_names(list(zip(specs, given, strict=True)), startup, started)
    assert a is not None and b is not None
    if name_key(a.name) == name_key(b.name):
        a, b = dataclasses.replace(a, name=a.name + "-a"), dataclasses.replace(b, name=b.name + "-b")
    first: Team = (a, a2 if a2 is not None and a2.command != a.command else a)
    second: Team = (b, b2 if b2 is not None and b2.command != b.command else b)
    if shut is None:
        return first, second
    return (shut[0](first[0]), shut[0](first[1])), (shut[1](second[0]), shut[1](second[1]))


def _shutters(specs: list[BotSpec | None], out_dir: pathlib.Path | None) -> tuple[Shut, Shut]:
    """For each team (A: the specs at even places, B: at odd ones), what puts one of its bots in a sandbox that
    hides the other team's files and the records."""
    from rookarena.arena import isolation  # noqa: PLC0415 (see FAULT_POLICIES)

    try:
        isolation.check()
    except RookError as exc:
        raise click.ClickException(str(exc)) from None
    sides = [[spec for spec in specs[side::2] if spec is not None] for side in (0, 1)]

    def shutter(side: int) -> Shut:
        hidden = isolation.hidden_paths(out_dir, None, sides[1 - side])

        def shut(spec: BotSpec) -> BotSpec:
            # each game in new processes, as in a league: a kept process would remember deals it meets again
            return dataclasses.replace(isolation.isolate(spec, hidden), per_game=True)

        return shut

    return shutter(0), shutter(1)
