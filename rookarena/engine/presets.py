"""The named rule sets: the official game, one per source description, and further known variants.

Each preset is a :class:`Rules` value plus where it comes from; ``docs/rules.md`` explains every choice.
A rules mapping from YAML is a preset plus knob overrides (:func:`resolve`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from rookarena.engine.rules import (
    AllPass,
    BidMade,
    BothCross,
    FirstLead,
    NestOrder,
    NestSeenBy,
    NestTo,
    RookRank,
    Rules,
    TargetRule,
)
from rookarena.errors import RulesError


@dataclasses.dataclass(frozen=True, slots=True)
class Preset:
    name: str
    description: str
    rules: Rules


TOURNAMENT = Rules()

PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset(
            "tournament",
            "official Tournament Rook (Kentucky Discard, Hasbro 2010): 41 cards, bids 70-120",
            TOURNAMENT,
        ),
        Preset(
            "bidders-nest",
            "opener must bid, the nest's counters go to the bidder's team, the bid needs more than its points",
            dataclasses.replace(
                TOURNAMENT, opener_may_pass=False, nest_to=NestTo.BIDDER_TEAM, bid_made=BidMade.MORE_THAN
            ),
        ),
        Preset(
            "open-nest",
            "nest shown to all, trump named before the discard, the bidder leads the first trick",
            dataclasses.replace(
                TOURNAMENT,
                nest_seen_by=NestSeenBy.ALL,
                nest_order=NestOrder.TRUMP_THEN_DISCARD,
                first_lead=FirstLead.BIDDER,
            ),
        ),
        Preset(
            "traditional",
            "left of the bidder leads, play to more than 300, the bidders win when both teams pass it",
            dataclasses.replace(
                TOURNAMENT,
                first_lead=FirstLead.LEFT_OF_BIDDER,
                target_rule=TargetRule.EXCEED,
                both_cross=BothCross.BIDDER_WINS,
            ),
        ),
        Preset(
            "full-deck",
            "tournament rules with all 57 cards: hands of 13, the 1s to 4s rank lowest and count nothing",
            dataclasses.replace(TOURNAMENT, ranks=tuple(range(1, 15))),
        ),
        Preset(
            "ten-half",
            "tournament rules with the Rook ranked between the 10 and the 11 of trump",
            dataclasses.replace(TOURNAMENT, rook_rank=RookRank.TEN_HALF),
        ),
        Preset(
            "kentucky",
            "pagat's Kentucky Rook: 45 cards, 1s high worth 15, bids 100-180, a stuck dealer bids 100",
            dataclasses.replace(
                TOURNAMENT,
                ranks=(5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 1),
                counters=((1, 15), (5, 5), (10, 10), (14, 10)),
                bid_min=100,
                bid_max=180,
                all_pass=AllPass.DEALER_MUST_BID,
            ),
        ),
    )
}


def preset(name: str) -> Preset:
    """The preset called ``name``, or a :class:`RulesError` listing the known names."""
    found = PRESETS.get(name)
    if found is None:
        raise RulesError(f"unknown preset {name!r}: expected one of {', '.join(PRESETS)}")
    return found


def resolve(spec: str | Mapping[str, Any], where: str = "rules") -> tuple[str, Rules]:
    """Read a rules spec: a preset name, or a mapping ``{preset: NAME, <knob>: value, ...}``.

    Returns a display name (the preset's, with ``+`` when knobs were overridden) and the rules.
    """
    if isinstance(spec, str):
        found = preset(spec)
        return found.name, found.rules
    if not isinstance(spec, Mapping):
        raise RulesError(f"{where}: expected a preset name or a mapping with 'preset:' and knobs, got {spec!r}")
    knobs = dict(spec)
    base_name = knobs.pop("preset", "tournament")
    if not isinstance(base_name, str):
        raise RulesError(f"{where}.preset: {base_name!r}: expected one of {', '.join(PRESETS)}")
    try:
        base = preset(base_name)
    except RulesError as exc:
        raise RulesError(f"{where}.preset: {exc}") from None
    rules = Rules.from_mapping(knobs, base=base.rules, where=where)
    name = base.name if rules == base.rules else f"{base.name}+"
    return name, rules
