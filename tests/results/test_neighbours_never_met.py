"""The neighbours table has a row for every two entries next to each other in the standings, those that
never met included (a gauntlet's entries meet only its head): such a pair had been left out silently."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from rookarena.results import standings as table
from rookarena.results import summary
from rookarena.web import model


def league(seed: int, names: list[str], gauntlet: bool, dropped: float) -> list[dict[str, object]]:
    """Duplicate deal pairs of seeded results; a gauntlet's pairings all hold its first name, and each
    other pairing is left out with probability ``dropped``."""
    rng = random.Random(seed)
    strength = {name: rng.uniform(-1, 1) for name in names}
    records: list[dict[str, object]] = []
    pairings = [(names[0], b) for b in names[1:]] if gauntlet else list(itertools.combinations(names, 2))
    for a, b in pairings:
        if not gauntlet and rng.random() < dropped:
            continue
        for deal in range(rng.randint(1, 4)):
            for flip in (0, 1):
                teams = [a, b] if flip == 0 else [b, a]
                first_wins = rng.random() < 0.5 + 0.3 * (strength[teams[0]] - strength[teams[1]])
                scores = [310, 120] if first_wins else [120, 310]
                game = f"{a}-{b}-{deal}"
                records.append(
                    {
                        "teams": teams,
                        "result": {"scores": scores, "winner": 0 if first_wins else 1},
                        "seed": hash(game) & 0xFFFF,
                        "game_id": f"{game}-{flip}",
                    }
                )
    return records


@pytest.mark.parametrize("seed", range(24))
def test_every_two_neighbours_have_a_row_and_those_that_never_met_say_so(seed: int) -> None:
    rng = random.Random(seed)
    names = [f"bot{k}" for k in range(rng.randint(3, 6))]
    played = league(seed, names, gauntlet=seed % 2 == 0, dropped=0.4)
    if not played:
        return
    rows = table.standings(played)
    order = [row.name for row in rows]
    met = {frozenset(str(team) for team in g["teams"]) for g in played}  # type: ignore[attr-defined]
    text = summary.standings_text(played, "plain")
    lines = [line.split() for line in text.splitlines()]
    body = [cells for cells in lines if cells and re.fullmatch(r"\d+=?-\d+=?", cells[0])]
    shown = {(cells[1], cells[2]): cells for cells in body}
    web = {(n["higher"], n["lower"]): n for n in model.neighbours(played, rows)}
    if not any(frozenset(pair) in met for pair in itertools.pairwise(order)):
        return  # nothing to compare: no table
    for a, b in itertools.pairwise(order):
        assert (a, b) in shown, (a, b, text)
        assert (a, b) in web, (a, b, web)
        if frozenset((a, b)) in met:
            assert shown[(a, b)][-1] in ("yes", "no"), shown[(a, b)]
            assert web[(a, b)]["games"] > 0
        else:
            assert shown[(a, b)][3:] == ["0", "-", "-", "-", "never", "met"], shown[(a, b)]
            assert web[(a, b)]["games"] == 0 and not web[(a, b)]["apart"]
