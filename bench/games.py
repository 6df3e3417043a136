"""Whole duplicate games, in process: a search setting against the heuristic, deal by deal.

bench/hands.py plays only first hands, from scores of 0 to 0, so it cannot see a change that reads the
game's score. This plays whole games: each deal twice, the search on seats 0 and 2 then on 1 and 3,
with the heuristic on the others, and prints the games the search won. Two settings on the same deals
are compared deal by deal with ``--compare``: a game is the same in both until the first decision the
change alters, so only the deals that differ carry noise. The search runs without a clock, so the same
command gives the same games.

Run: ``python bench/games.py [--rules tournament] [--deals 150] [--seed 50000] [--level 3] [--set NAME=VALUE ...]
--out FILE`` (one line a deal), then ``python bench/games.py --compare A B`` for two such files.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
from typing import Any

from hands import paired, parse_settings, read_out, search_arguments

from rookarena.engine.presets import PRESETS
from rookarena.players.base import Player
from rookarena.players.heuristic import HeuristicPlayer
from rookarena.players.inprocess import play_game
from rookarena.players.search import SearchPlayer, Settings


def deal_pair(rules_name: str, seed: int, settings: Settings) -> list[dict[str, Any]]:
    """The two games of one deal, the search's team first on seats 0 and 2, then on 1 and 3."""
    out = []
    for side in (0, 1):
        players: list[Player] = [
            SearchPlayer(settings, seed=1) if seat % 2 == side else HeuristicPlayer() for seat in range(4)
        ]
        outcome = play_game(PRESETS[rules_name].rules, seed, players, game_id=f"games-{seed}").outcome
        assert outcome is not None
        out.append(
            {
                "won": outcome.winner == side,
                "ours": outcome.scores[side],
                "theirs": outcome.scores[1 - side],
                "hands": outcome.hands,
            }
        )
    return out


def load(path: str) -> dict[int, list[dict[str, Any]]]:
    lines = read_out(path)
    try:
        rows = [json.loads(line) for line in lines]
        return {row["seed"]: row["games"] for row in rows}
    except (ValueError, KeyError, TypeError):
        raise SystemExit(f"{path}: not a file that bench/games.py --out wrote (a JSON line a deal)") from None


def compare(first: str, second: str) -> None:
    a, b = load(first), load(second)
    seeds = sorted(set(a) & set(b))
    if len(seeds) < 2:
        raise SystemExit(f"{first} and {second} share {len(seeds)} deal(s): two or more are needed")
    games = 2 * len(seeds)

    def won(rows: dict[int, list[dict[str, Any]]], seed: int) -> int:
        return sum(bool(game["won"]) for game in rows[seed])

    diffs = [won(b, seed) - won(a, seed) for seed in seeds]
    mean, half = paired([float(d) for d in diffs])
    differ = sum(1 for seed in seeds if a[seed] != b[seed])
    for name, rows in ((first, a), (second, b)):
        total = sum(won(rows, seed) for seed in seeds)
        print(f"{name}: {total} of {games} games ({100 * total / games:.1f}%)")
    print(
        f"second minus first: {sum(diffs):+d} games over {len(seeds)} deals, {mean:+.3f} ± "
        f"{half:.3f} a deal (95%); {differ} deals differ"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    search_arguments(parser, deals=150, seed=50000)
    parser.add_argument("--out", help="one line a deal: its seed and its two games")
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"), help="compare two --out files deal by deal")
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
        return
    settings = parse_settings(args.level, args.set)
    began = time.perf_counter()
    won = 0
    with open(args.out, "w", encoding="utf-8") if args.out else contextlib.nullcontext() as out:
        for seed in range(args.seed, args.seed + args.deals):
            games = deal_pair(args.rules, seed, settings)
            won += sum(game["won"] for game in games)
            if out is not None:
                out.write(json.dumps({"seed": seed, "games": games}) + "\n")
                out.flush()  # each deal as it ends, so a run cut short keeps its deals
    games_played = 2 * args.deals
    print(
        f"{args.rules}, deals {args.seed} to {args.seed + args.deals - 1}: the search won {won} of {games_played} "
        f"games ({100 * won / games_played:.1f}%) in {time.perf_counter() - began:.0f} s"
    )


if __name__ == "__main__":
    main()
