"""Duplicate first hands, in process: a search setting against the heuristic, hand by hand.

A whole game is about five hands, and whether a team wins it depends on all of them, so a game is a
noisy measure of a change to the search. This plays only the first hand of each deal (scores 0 to 0,
dealer 0), twice: the search on seats 0 and 2 with the heuristic on 1 and 3, then the other way round.
The figure is the mean, over deals, of the search's team's hand score change minus the heuristic's
team's, added over the two seatings (points a deal pair, with its 95% interval), and what it is made
of: the auctions each side won, the bids made, and the points of each side as bidder and as defender.
The search runs without a clock (each decision its whole budget), so the same command gives the same
figures; the seconds of its decisions are reported by phase.

Run: ``python bench/hands.py [--rules tournament] [--deals 200] [--seed 9000] [--level 3] [--set exact=4 ...]``
(``--set`` overrides a field of :class:`rookarena.players.search.Settings`; ``--against`` another
setting of the search, same form, instead of the heuristic); ``--compare A B`` pairs two ``--out`` files.
``--oracle opponents`` (or ``all``) is a diagnostic, not a bot: the search's deals in the play hold the
opponents' true hands (or every true hand), to measure what a better reading of the cards could be worth.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import pathlib
import statistics
import time
from typing import Any

from rookarena.engine.game import Game
from rookarena.engine.presets import PRESETS
from rookarena.players import search
from rookarena.players.base import Deadline, Player
from rookarena.players.fast import Deck
from rookarena.players.heuristic import HeuristicPlayer
from rookarena.players.inference import sample_fitting
from rookarena.players.inprocess import play_game
from rookarena.players.search import SearchPlayer, Settings, settings_for
from rookarena.players.worlds import Knowledge


def parse_settings(level: int, pairs: list[str]) -> Settings:
    settings = settings_for(level, think=0)
    fields = {field.name: field for field in dataclasses.fields(Settings)}
    changes: dict[str, Any] = {}
    for pair in pairs:
        name, _, text = pair.partition("=")
        if name not in fields:
            raise SystemExit(f"no setting {name!r}: one of {', '.join(fields)}")
        current = getattr(settings, name)
        if text == "None":
            changes[name] = None
        elif isinstance(current, bool):
            changes[name] = text.lower() in ("1", "true", "yes")
        elif isinstance(current, int) and not isinstance(current, bool):
            changes[name] = int(text)
        else:
            changes[name] = float(text)
    return dataclasses.replace(settings, **changes)


@dataclasses.dataclass
class Timing:
    by_phase: dict[str, list[float]] = dataclasses.field(default_factory=dict)


class Timed:
    """A player whose decisions (those with a choice) are timed by phase."""

    def __init__(self, player: Player, timing: Timing) -> None:
        self.player = player
        self.timing = timing
        self.name = player.name
        self.view = player.view

    def start_game(self, message: dict[str, Any]) -> None:
        self.player.start_game(message)

    def act(self, request: dict[str, Any], deadline: Deadline) -> str:
        began = time.perf_counter()
        answer = self.player.act(request, deadline)
        if len(request["legal"]) > 1:
            phase = request["view"]["phase"]
            self.timing.by_phase.setdefault(phase, []).append(time.perf_counter() - began)
        return answer


class Oracle:
    """Deals for the search's play that hold the truth (``--oracle``): the opponents' hands, or every hand.

    The search samples a deal, then the opponents' true cards are put in their hands; the cards the sample
    had given them go, in the sample's order, to the other holders in place of the true ones they held.
    """

    def __init__(self, which: str) -> None:
        self.which = which
        self.game: Game | None = None
        self.deck: Deck | None = None  # the game's, made once a game
        self.sampled = sample_fitting

    def fitting(self, knowledge: Knowledge, rng: Any, misfits: Any, grouped: bool = False) -> list[list[int]]:
        held = self.sampled(knowledge, rng, misfits, grouped)
        assert self.game is not None and self.deck is not None
        deck = self.deck
        true = [[deck.index[str(card)] for card in hand] for hand in self.game.hands]
        true.append([deck.index[str(card)] for card in self.game.discards])
        seat = knowledge.seat
        shown = [(seat + 1) % 4, (seat + 3) % 4] if self.which == "opponents" else [h for h in range(5) if h != seat]
        theirs = {card for holder in shown for card in true[holder]}
        displaced = [card for holder in shown for card in held[holder] if card not in theirs]
        out = [list(cards) for cards in held]
        for holder in range(5):
            if holder in shown:
                out[holder] = list(true[holder])
            elif holder != seat:
                kept = [card for card in held[holder] if card not in theirs]
                need = len(held[holder]) - len(kept)
                out[holder], displaced = kept + displaced[:need], displaced[need:]
        return out

    def watch(self, game: Game, seat: int, answer: str, legal: list[str]) -> None:
        """``play_game``'s check: the game object, the same one (changed in place) for all of its decisions."""
        if game is not self.game:
            self.game, self.deck = game, Deck.of(game.rules)


def search_arguments(parser: argparse.ArgumentParser, deals: int, seed: int) -> None:
    """The options every bench of a search setting against an opponent takes: the rules, the deals, the
    search's level and the settings it changes."""
    parser.add_argument("--rules", default="tournament", choices=sorted(PRESETS))
    parser.add_argument("--deals", type=int, default=deals)
    parser.add_argument("--seed", type=int, default=seed, help="the first deal's seed; the others follow it")
    parser.add_argument("--level", type=int, default=3)
    parser.add_argument("--set", nargs="*", default=[], metavar="NAME=VALUE")


def paired(diffs: list[float]) -> tuple[float, float]:
    """The mean of deal-by-deal differences and the half-width of its 95% interval (two or more)."""
    return statistics.fmean(diffs), 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))


def read_out(path: str) -> list[str]:
    """The lines of an ``--out`` file, or one line saying why it cannot be read."""
    try:
        return pathlib.Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise SystemExit(f"{path}: cannot read it ({getattr(error, 'strerror', None) or error})") from None


def compare(first: str, second: str) -> None:
    """The mean and 95% interval of the deal-by-deal difference of two ``--out`` files (same deals)."""
    try:
        a, b = ([int(line) for line in read_out(path)] for path in (first, second))
        diffs = [float(y - x) for x, y in zip(a, b, strict=True)]
    except ValueError:
        raise SystemExit(f"{first} and {second}: not two bench/hands.py --out files of the same deals") from None
    if len(diffs) < 2:
        raise SystemExit(f"{first} and {second} hold {len(diffs)} deal(s): two or more are needed")
    mean, half = paired(diffs)
    differ = sum(1 for d in diffs if d)
    print(f"{second} minus {first}: {mean:+.1f} ± {half:.1f} a deal pair ({differ} of {len(diffs)} differ)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    search_arguments(parser, deals=200, seed=9000)
    parser.add_argument("--against", nargs="*", default=None, metavar="NAME=VALUE")
    parser.add_argument("--against-level", type=int, default=3)
    parser.add_argument("--out", help="write each deal pair's difference here, one a line")
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"), help="two --out files, deal by deal: B minus A")
    parser.add_argument("--oracle", choices=["opponents", "all"], help="a diagnostic: the play's deals hold the truth")
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
        return
    settings = parse_settings(args.level, args.set)
    other = parse_settings(args.against_level, args.against) if args.against is not None else None
    timing = Timing()
    diffs: list[int] = []
    won = {"search": 0, "other": 0}
    made = {"search": 0, "other": 0}
    as_bidder = {"search": 0, "other": 0}
    as_defender = {"search": 0, "other": 0}
    oracle = Oracle(args.oracle) if args.oracle else None
    if oracle is not None:
        setattr(search, "sample_fitting", oracle.fitting)  # noqa: B010 - the search's name for it: the play's deals only
    began = time.perf_counter()
    for seed in range(args.seed, args.seed + args.deals):
        pair = 0
        for ours in (0, 1):
            players: list[Player] = []
            for seat in range(4):
                if seat % 2 == ours:
                    players.append(Timed(SearchPlayer(settings, seed=1), timing))
                elif other is not None:
                    players.append(SearchPlayer(other, seed=2))
                else:
                    players.append(HeuristicPlayer())
            check = oracle.watch if oracle is not None else None
            hand = play_game(PRESETS[args.rules].rules, seed, players, game_id="hands", hands=1, check=check).history[0]
            change = hand.score_change
            pair += change[ours] - change[1 - ours]
            if hand.bidder is not None:
                side = "search" if hand.bidder % 2 == ours else "other"
                won[side] += 1
                made[side] += bool(hand.made)
                bidders = hand.bidder % 2
                as_bidder[side] += change[bidders]
                as_defender["other" if side == "search" else "search"] += change[1 - bidders]
        diffs.append(pair)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as file:
            file.writelines(f"{diff}\n" for diff in diffs)
    n = len(diffs)
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else 0.0
    print(
        f"rules {args.rules}, deals {args.seed}..{args.seed + n - 1} ({n} pairs), {time.perf_counter() - began:.0f} s"
    )
    print(f"search: {settings}")
    print(f"against: {other if other is not None else 'heuristic'}")
    print(f"dup diff: {mean:+.1f} ± {half:.1f} points a deal pair")
    for side in ("search", "other"):
        rate = made[side] / won[side] if won[side] else 0.0
        print(
            f"  {side:6}: won {won[side]} auctions, made {made[side]} ({rate:.1%}); "
            f"points as bidder {as_bidder[side]:+d}, as defender {as_defender[side]:+d}"
        )
    for phase, times in sorted(timing.by_phase.items()):
        print(f"  {phase:8} {len(times):6} decisions, mean {statistics.fmean(times):.4f} s, max {max(times):.3f} s")


if __name__ == "__main__":
    main()
