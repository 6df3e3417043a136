"""Where the search gains or loses against the heuristic, hand by hand: the auction, the nest or the play.

Each deal's first hand is played twice for each seating: by four heuristic players, and with the search
on one team (seats 0 and 2, then 1 and 3). The difference between the two (the search's team's score
change minus the other's) is what the search's decisions changed. Hands are grouped by who held the
contract in each game and at what bid, so the total is split into: the same contract (both games bid
the same amount by the same seat: what the nest and the play changed), the search outbidding where the
heuristic did not, and so on.

Run: ``python bench/phases.py [--rules tournament] [--deals 100] [--seed 9000] [--set NAME=VALUE ...]``
"""

from __future__ import annotations

import argparse
import collections
import statistics
import time

from hands import parse_settings, search_arguments

from rookarena.engine.presets import PRESETS
from rookarena.players.base import Player
from rookarena.players.heuristic import HeuristicPlayer
from rookarena.players.inprocess import play_game
from rookarena.players.search import SearchPlayer


def first_hand(
    rules_name: str, seed: int, players: list[Player]
) -> tuple[int | None, int | None, bool, str, list[int]]:
    hand = play_game(PRESETS[rules_name].rules, seed, players, game_id="hands", hands=1).history[0]
    trump = hand.trump.value if hand.trump is not None else "-"
    return hand.bidder, hand.bid, bool(hand.made), trump, list(hand.score_change)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    search_arguments(parser, deals=100, seed=9000)
    args = parser.parse_args()
    settings = parse_settings(args.level, args.set)
    groups: dict[str, list[int]] = collections.defaultdict(list)
    began = time.perf_counter()
    for seed in range(args.seed, args.seed + args.deals):
        base = first_hand(args.rules, seed, [HeuristicPlayer() for _ in range(4)])
        for ours in (0, 1):
            players: list[Player] = [
                SearchPlayer(settings, seed=1) if s % 2 == ours else HeuristicPlayer() for s in range(4)
            ]
            got = first_hand(args.rules, seed, players)
            diff = (got[4][ours] - got[4][1 - ours]) - (base[4][ours] - base[4][1 - ours])
            hb, hbid, _, htrump, _ = base
            sb, sbid, smade, strump, _ = got
            h_side = "none" if hb is None else ("us" if hb % 2 == ours else "them")
            s_side = "none" if sb is None else ("us" if sb % 2 == ours else "them")
            if hb == sb and hbid == sbid:
                key = f"same contract ({s_side} bid), trump {'same' if htrump == strump else 'other'}"
            elif h_side == s_side:
                key = f"{s_side} bid in both, other seat or bid ({'higher' if (sbid or 0) > (hbid or 0) else 'lower'})"
            else:
                key = f"contract: heuristic's game {h_side}, search's game {s_side}"
            groups[key].append(diff)
            groups[f"  search's game: {s_side} bid, {'made' if smade else 'set'}"].append(diff)
    total = sum(sum(v) for k, v in groups.items() if not k.startswith(" "))
    print(f"{args.deals} deals from {args.seed}, {time.perf_counter() - began:.0f} s; total {total:+d} points")
    for key in sorted(groups):
        values = groups[key]
        print(f"{key:70} n={len(values):4} sum={sum(values):+6d} mean={statistics.fmean(values):+7.1f}")


if __name__ == "__main__":
    main()
