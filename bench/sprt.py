"""The sequential tests of ``rookarena match``: realised error rates and games to a decision.

Three parts, each printed as a table:

1. **Simulated pairs.** Deal pairs are drawn from a joint distribution of the two games' results (by
   default the one measured between the heuristic bot and its 5%-noise copy: 92% of the pairs split),
   exponentially tilted so that the true Elo is exactly ELO0, or exactly ELO1. On the same pairs run
   the pair test of today (the generalised SPRT over pentanomial pair scores) and the test rookarena
   used before (the normal approximation over games, trinomial, looked at after every pair). The
   share of runs accepting the wrong hypothesis is the realised α (at ELO0) or β (at ELO1).
2. **Real bots.** The sample heuristic bot against a copy playing a random card 5% of the time
   (``bench/noisy_bot.py``'s rule), played in-process on duplicate deals, or read from the
   ``games.jsonl`` of a real ``rookarena match`` run (``--records DIR``). Sequential runs are drawn
   from those pairs with replacement (a bootstrap of the real distribution): the pair test, the old
   game test and the points test (``--sprt-points 0 D1``, D1 the points per pair that match ELO1 in
   this sample), games to a decision and how often each hypothesis was accepted.
3. **Bookkeeping.** What ``match --sprt`` spends on the test per finished pair (running sums), against
   recomputing the head-to-head over every record after each pair, as it did before.

``--gate`` runs four other parts instead, on real pairs (played in-process as in part 2, read from
``--records``, or from a ``--pairs`` JSON file, which is written when missing):

4. **The points test on skewed differences**: realised α and β of ``--sprt-points 0 16`` and of the
   plain normal test, on the real differences as played (right-skewed) and negated (left-skewed),
   4,000 runs a cell (``--gate-runs``); the runs are vectorised with numpy (``PointsRuns``), and the
   part first prints how far that copy's LLR is from rookarena's on real tallies.
5. **The CI example** (``--games 2000 --sprt -10 0``) on the real pairs tilted to a true Elo of −10, 0
   and −20: the shares that exit 3, 0 and 4 (undecided).
6. **Power**: for bounds [−10, 0], [−5, 0], [0, 5], [0, 10], the chance that a true difference X is
   caught (H0 accepted) within 1,000, 2,000 and 5,000 games (``--power-runs``, default 400).
7. **Coverage** of the Elo interval and the duplicate difference's t-interval at 5 to 100 pairs.

``python bench/sprt.py --gate --pairs pairs.json`` took 36 minutes on a loaded two-core machine
(under ``nice``); ``--noise 0.3 --games 2000 --parts 4`` measures part 4 on a 30%-noise copy.

Run: ``python bench/sprt.py`` (about two minutes: 200 runs a case, 300 real games), or ``--long`` (1000
runs, 2000 real games: about ten minutes on one core). ``--records DIR`` uses a match's games instead of
playing them. Run under ``nice -n 10`` on a shared machine.
"""

from __future__ import annotations

import argparse
import bisect
import dataclasses
import importlib.util
import itertools
import json
import math
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from rookarena.engine.actions import parse_action
from rookarena.engine.game import team_of
from rookarena.engine.presets import PRESETS
from rookarena.results import sprt, standings, store
from rookarena.results.sprt import Hypothesis, Model, SequentialTest
from rookarena.results.stats import ClusterSums, elo_interval, expected_score, t_interval
from rookarena.wire import records
from rookarena.wire.messages import act_message
from rookarena.wire.records import derive_seed

ROOT = Path(__file__).resolve().parent.parent
# (NEW's score in the first game, in the second) -> share of deal pairs: heuristic against the 5%-noise copy,
# 931 pairs of a real `rookarena match` (seed 11).
MEASURED = {(0.0, 0.0): 26, (0.0, 1.0): 440, (1.0, 0.0): 415, (1.0, 1.0): 50}
CAP = 60_000  # games; a run still undecided there counts as undecided
Pair = tuple[float, float, float]  # NEW's score in game 1, in game 2, its point difference over both


@dataclasses.dataclass
class Runs:
    """Decisions and games of many runs of one test."""

    h0: int = 0
    h1: int = 0
    undecided: int = 0
    games: list[int] = dataclasses.field(default_factory=list)

    def add(self, decision: Hypothesis | None, games: int) -> None:
        if decision is Hypothesis.H0:
            self.h0 += 1
        elif decision is Hypothesis.H1:
            self.h1 += 1
        else:
            self.undecided += 1
        self.games.append(games)

    @property
    def runs(self) -> int:
        return len(self.games)

    @property
    def mean_games(self) -> float:
        return statistics.fmean(self.games)


def old_llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """The per-game test of rookarena 0.1: the normal approximation over trinomial counts."""
    return sprt.normal_llr(counts, elo0, elo1)


def run_both(draw: Any, elo0: float, elo1: float, points: tuple[float, float] | None) -> dict[str, tuple[Any, int]]:
    """One sequential run of each test on the same stream of pairs (``draw()`` gives the next pair)."""
    pair_test = SequentialTest(Model.PENTANOMIAL, elo0, elo1).start()
    point_test = SequentialTest(Model.POINTS, *points).start() if points else None
    lower, upper = sprt.sprt_bounds()
    counts = [0, 0, 0]  # losses, draws, wins of NEW, game by game
    out: dict[str, tuple[Any, int]] = {}
    games = 0
    while games < CAP and len(out) < (3 if points else 2):
        first, second, diff = draw()
        games += 2
        if "pair" not in out:
            pair_test = pair_test.add_pair(first + second, diff)
            decision = pair_test.result().decision
            if decision is not None:
                out["pair"] = (decision, games)
        if "old" not in out:
            for score in (first, second):
                counts[int(2 * score)] += 1
            llr = old_llr(counts, elo0, elo1)
            if llr >= upper or llr <= lower:
                out["old"] = (Hypothesis.H1 if llr >= upper else Hypothesis.H0, games)
        if point_test is not None and "points" not in out:
            point_test = point_test.add_pair(first + second, diff)
            decision = point_test.result().decision
            if decision is not None:
                out["points"] = (decision, games)
    for name in ("pair", "old", *(("points",) if points else ())):
        out.setdefault(name, (None, games))
    return out


def tilted(joint: dict[tuple[float, float], float], elo: float) -> dict[tuple[float, float], float]:
    """``joint`` exponentially tilted until NEW's mean score per game is ``expected_score(elo)``."""
    target = expected_score(elo)
    lo, hi = -80.0, 80.0
    weights = dict(joint)
    for _ in range(200):
        lam = (lo + hi) / 2
        weights = {k: p * math.exp(lam * (k[0] + k[1]) / 2) for k, p in joint.items()}
        total = sum(weights.values())
        mean = sum(w * (k[0] + k[1]) / 2 for k, w in weights.items()) / total
        lo, hi = (lam, hi) if mean < target else (lo, lam)
    total = sum(weights.values())
    return {k: w / total for k, w in weights.items()}


def sampler(items: Sequence[Any], weights: Sequence[float], rng: random.Random) -> Any:
    cumulative = list(itertools.accumulate(weights))
    total = cumulative[-1]

    def draw() -> Any:
        return items[min(bisect.bisect_right(cumulative, rng.random() * total), len(items) - 1)]

    return draw


def rate(count: int, runs: int) -> str:
    return f"{100 * count / runs:5.1f}%"


def correlated(rho: float) -> dict[tuple[float, float], float]:
    """Two games of equal chances whose results have correlation ``rho`` (no draws)."""
    same, split = (1 + rho) / 4, (1 - rho) / 4
    return {(0.0, 0.0): same, (1.0, 1.0): same, (0.0, 1.0): split, (1.0, 0.0): split}


def simulated(
    runs: int, elo0: float, elo1: float, rng: random.Random, base: dict[tuple[float, float], float], name: str
) -> None:
    print(f"\n1. simulated pairs ({name}), SPRT [{elo0:g}, {elo1:g}], alpha = beta = 0.05, {runs} runs a case")
    print(f"   {'true Elo':>8}  {'test':<22} {'H0':>6} {'H1':>6} {'error':>6}  {'games (mean)':>12}")
    ratios = []
    for elo, wrong in ((elo0, "h1"), (elo1, "h0")):
        joint = tilted(base, elo)
        keys = list(joint)
        draw = sampler([(a, b, 0.0) for a, b in keys], [joint[k] for k in keys], rng)
        pair, old = Runs(), Runs()
        for _ in range(runs):
            out = run_both(draw, elo0, elo1, None)
            pair.add(*out["pair"])
            old.add(*out["old"])
        for label, r in (("pairs (GSPRT, penta)", pair), ("games (old, normal)", old)):
            err = getattr(r, wrong)
            print(
                f"   {elo:>+8g}  {label:<22} {rate(r.h0, r.runs)} {rate(r.h1, r.runs)} {rate(err, r.runs)}"
                f"  {r.mean_games:>12.0f}" + (f"  ({r.undecided} undecided)" if r.undecided else "")
            )
        ratios.append(old.mean_games / pair.mean_games)
    print(f"   games, old test / pair test: {ratios[0]:.2f}x at elo0, {ratios[1]:.2f}x at elo1 (goal >= 2.3x)")


# --- real bots -------------------------------------------------------------------------------------------


def load_heuristic() -> ModuleType:
    path = ROOT / "sample_bots" / "python" / "heuristic_bot.py"
    spec = importlib.util.spec_from_file_location("sample_heuristic_bot", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play_pairs(deals: int, noise: float, seed: int) -> list[Pair]:
    """The heuristic bot (NEW) against its noisy copy (OLD) on ``deals`` duplicate deals, in-process."""
    bot = load_heuristic()
    rules = PRESETS["tournament"].rules
    mapping = rules.to_mapping()
    out = []
    for deal in range(deals):
        deal_seed = derive_seed(seed, "deal", deal)
        scores, diff = [], 0.0
        for new_team in (0, 1):
            game = records.new_game(rules, deal_seed)
            rng = random.Random(derive_seed(seed, "noise", deal, new_team))
            while not game.is_over:
                seat = game.to_act
                request = act_message(game, seat, game.legal_actions(), 1000, 0)
                legal = request["legal"]
                noisy = team_of(seat) != new_team
                if noisy and request["view"]["phase"] == "play" and len(legal) > 1 and rng.random() < noise:
                    answer = legal[int(rng.random() * len(legal))]
                else:
                    answer = str(bot.decide(request, mapping))
                game.apply(parse_action(answer))
            outcome = game.outcome
            assert outcome is not None
            winner = outcome.winner
            scores.append(0.5 if winner is None else float(winner == new_team))
            diff += outcome.scores[new_team] - outcome.scores[1 - new_team]
        out.append((scores[0], scores[1], diff))
    return out


def pairs_from_records(directory: Path, new: str) -> list[Pair]:
    played = [json.loads(line) for line in (directory / "games.jsonl").read_text().splitlines() if line.strip()]
    out = []
    for first, second in zip(played[::2], played[1::2], strict=False):
        outcome = standings.pair_outcome(first, second, new)
        if outcome is None or outcome[1] is None:
            continue
        a, b = store.game_result(first), store.game_result(second)
        s1 = a.score if a.teams[0] == new else 1 - a.score
        s2 = b.score if b.teams[0] == new else 1 - b.score
        out.append((s1, s2, outcome[1]))
    return out


def real(pairs: list[Pair], runs: int, elo0: float, elo1: float, rng: random.Random, source: str) -> None:
    sums = ClusterSums()
    for first, second, _ in pairs:
        sums = sums.add(first + second, 2)
    elo = elo_interval(sums)
    diffs = [d for _, _, d in pairs]
    mean, sd = statistics.fmean(diffs), statistics.stdev(diffs)
    joint = Counter((a, b) for a, b, _ in pairs)
    split = sum(v for (a, b), v in joint.items() if a + b == 1) / len(pairs)
    firsts = [a for a, _, _ in pairs]
    seconds = [b for _, b, _ in pairs]
    rho = statistics.correlation(firsts, seconds) if len(set(firsts)) > 1 and len(set(seconds)) > 1 else math.nan
    print(f"\n2. real bots: {source}")
    print(
        f"   {len(pairs)} deal pairs: NEW's Elo {elo.elo:+.1f} [{elo.lo:+.1f}, {elo.hi:+.1f}] over pairs; "
        f"{100 * split:.0f}% of pairs split, correlation of a pair's games {rho:+.2f}; "
        f"points per pair {mean:+.1f}, sd {sd:.1f}"
    )
    # The points per pair that match elo1 in this sample: the points difference scales with the Elo.
    d1 = round(mean * elo1 / elo.elo, 1) if elo.elo > 0 and elo1 > 0 else max(1.0, round(0.1 * sd, 1))
    print(f"   SPRT [{elo0:g}, {elo1:g}] and points test [0, {d1:g}] (points per pair), {runs} bootstrap runs")
    print(f"   {'test':<22} {'H0':>6} {'H1':>6}  {'games (mean)':>12}  {'median':>7}")
    draw = sampler(pairs, [1.0] * len(pairs), rng)
    results = {"pair": Runs(), "old": Runs(), "points": Runs()}
    for _ in range(runs):
        out = run_both(draw, elo0, elo1, (0.0, d1))
        for name, (decision, games) in out.items():
            results[name].add(decision, games)
    names = {"pair": "pairs (GSPRT, penta)", "old": "games (old, normal)", "points": "points per pair"}
    for key, r in results.items():
        print(
            f"   {names[key]:<22} {rate(r.h0, r.runs)} {rate(r.h1, r.runs)}  {r.mean_games:>12.0f}"
            f"  {statistics.median(r.games):>7.0f}" + (f"  ({r.undecided} undecided)" if r.undecided else "")
        )
    # The points test's realised error rates on these differences, centred and shifted to 0 and to D1.
    centre = statistics.fmean(diffs)
    errors = []
    for shift, wrong in ((0.0, Hypothesis.H1), (d1, Hypothesis.H0)):
        test = SequentialTest(Model.POINTS, 0.0, d1)
        count = 0
        for _ in range(runs):
            tally = test.start()
            while (result := tally.result()).decision is None and tally.games < CAP:
                tally = tally.add_pair(1.0, diffs[int(rng.random() * len(diffs))] - centre + shift)
            count += result.decision is wrong
        errors.append(rate(count, runs))
    print(f"   points test on these differences shifted to 0 and to {d1:g}: alpha {errors[0]}, beta {errors[1]}")
    pair, old, points = (results[k].mean_games for k in ("pair", "old", "points"))
    print(f"   games, old test / pair test: {old / pair:.2f}x (goal >= 3x); points / pair test: {points / pair:.2f}x")


def bookkeeping(pairs: list[Pair], elo0: float, elo1: float) -> None:
    """What `match --sprt` spends on the test per finished pair: running sums, against recomputing everything."""
    played: list[dict[str, Any]] = []
    for deal, (first, second, diff) in enumerate(pairs):
        for index, (score, teams) in enumerate(((first, ["new", "old"]), (second, ["old", "new"]))):
            winner = None if score == 0.5 else int((score == 1.0) != (teams[0] == "new"))
            points = [0, 0] if index else [int(diff), 0]
            played.append(
                {"teams": teams, "seed": deal, "result": {"winner": winner, "scores": points, "hands": 1}, "hands": []}
            )
    started = time.perf_counter()
    tally = SequentialTest(Model.PENTANOMIAL, elo0, elo1).start()
    for one, two in zip(played[::2], played[1::2], strict=True):
        outcome = standings.pair_outcome(one, two, "new")
        assert outcome is not None
        tally = tally.add_pair(outcome[0], outcome[1] or 0.0)
        tally.result()
    running = time.perf_counter() - started
    started = time.perf_counter()
    points_tally = SequentialTest(Model.POINTS, 0.0, 16.0).start()
    for _, _, diff in pairs:
        points_tally = points_tally.add_pair(1.0, diff)
        points_tally.result()
    solving = time.perf_counter() - started
    # Before: the head-to-head of every record so far, after every pair (quadratic); timed on a prefix.
    prefix = min(len(played), 1000)
    started = time.perf_counter()
    for end in range(2, prefix + 1, 2):
        standings.head_to_head(played[:end], "new", "old")
    again = time.perf_counter() - started
    print(f"\n3. the test's bookkeeping in `match`, {len(pairs)} pairs ({2 * len(pairs)} games)")
    print(f"   running sums: {1e6 * running / len(pairs):.0f} us a pair, {running:.2f} s in all")
    print(
        f"   the points test [0, 16] (likelihoods over {len(points_tally.differences)} distinct differences): "
        f"{1e6 * solving / len(pairs):.0f} us a pair, {solving:.2f} s in all"
    )
    print(
        f"   recomputed over all records after each pair (as before): {again:.2f} s for the first {prefix} games "
        f"alone (quadratic: about {again * (len(played) / prefix) ** 2:.0f} s for all {len(played)})"
    )


# --- the gate: points-test calibration on skewed differences, the CI example, power, small samples -------


class PointsRuns:
    """Many runs of the points test [0, d1] at once (numpy), each a bootstrap from one population.

    The package's test (:func:`rookarena.results.sprt.points_gsprt_llr`) costs a pure-Python solve per
    pair, far too slow for thousands of runs; this is the same statistic over arrays: the constrained
    maximum likelihood on the population's values (a value not yet drawn has weight 0) plus the two
    regularising observations, by Newton's method kept inside its poles, then the Bartlett factor.
    :func:`check_vectorised` shows it agrees with the package's on real tallies.
    """

    def __init__(self, population: Sequence[float], d1: float) -> None:
        self.support = np.unique(np.asarray(population, dtype=float))
        self.index = np.searchsorted(self.support, np.asarray(population, dtype=float))
        self.d1 = d1

    def llr(self, counts: Any, support: Any = None) -> Any:
        """The points test's LLR for each row of ``counts`` (times each value of ``support``, by default the
        population's, was drawn)."""
        seen = counts > 0
        values = (self.support if support is None else support) / self.d1  # (d - d0) / (d1 - d0) with d0 = 0
        lowest = np.minimum(np.where(seen, values, np.inf).min(axis=1), 0.0) - 1.0
        highest = np.maximum(np.where(seen, values, -np.inf).max(axis=1), 1.0) + 1.0
        eps = sprt.REGULARISATION
        rows = counts.shape[0]
        a = np.concatenate([lowest[:, None], np.broadcast_to(values, (rows, values.size)), highest[:, None]], axis=1)
        w = np.concatenate([np.full((rows, 1), eps), counts, np.full((rows, 1), eps)], axis=1)
        n = w.sum(axis=1)
        p = w / n[:, None]
        total = np.zeros(rows)
        present = np.concatenate([np.ones((rows, 1), bool), seen, np.ones((rows, 1), bool)], axis=1)
        for s, sign in ((0.0, -1.0), (1.0, 1.0)):
            g = np.where(present, a - s, 0.0)  # a value never drawn weighs nothing, and sets no pole
            low = -1.0 / g.max(axis=1)  # the poles: every 1 + x·g stays positive strictly between them
            high = -1.0 / g.min(axis=1)
            x = np.zeros(rows)
            for _ in range(60):
                t = g / (1.0 + x[:, None] * g)
                f = (p * t).sum(axis=1)
                fp = -(p * t * t).sum(axis=1)
                low = np.where(f > 0, x, low)
                high = np.where(f > 0, high, x)
                step = x - f / fp
                new = np.where((low < step) & (step < high), step, (low + high) / 2)
                if np.all(np.abs(new - x) <= 1e-15 * np.maximum(1.0, np.abs(x))):
                    x = new
                    break
                x = new
            # ln of the constrained likelihood over the observed one: -Σ wᵢ ln(1 + x·gᵢ)
            total += sign * -(w * np.log1p(x[:, None] * g)).sum(axis=1)
        raw = counts.sum(axis=1)
        mean = (counts * values).sum(axis=1) / raw
        dev = values[None, :] - mean[:, None]
        m2, m3, m4 = ((counts * dev**k).sum(axis=1) / raw for k in (2, 3, 4))
        with np.errstate(divide="ignore", invalid="ignore"):
            bart = m4 / m2 / m2 / 2 - (m3 / m2 / m2) * (m3 / m2) / 3
        bart = np.where(
            m2 > 0, np.where(np.isfinite(bart), np.clip(bart, 0.0, sprt.BARTLETT_CLAMP), sprt.BARTLETT_CLAMP), 0.0
        )
        return total / (1.0 + bart / raw)

    def errors(self, shift: float, runs: int, seed: int) -> tuple[float, float, float, float, float, float]:
        """Shares of runs accepting H1 and H0, and mean pairs, for the new test and the plain normal test,
        when the population is moved to mean ``shift``."""
        rng = np.random.default_rng(seed)
        support = self.support - self.support[self.index].mean() + shift
        lower, upper = sprt.sprt_bounds()
        counts = np.zeros((runs, support.size))
        sums = np.zeros((runs, 2))
        decided = np.zeros((runs, 2), dtype=np.int8)
        used = np.zeros((runs, 2))
        active = np.arange(runs)
        n = 0
        while active.size and n < CAP // 2:
            drawn = self.index[rng.integers(0, self.index.size, size=active.size)]
            counts[active, drawn] += 1
            value = support[drawn]
            sums[active, 0] += value
            sums[active, 1] += value * value
            n += 1
            if n < sprt.POINTS_MIN_PAIRS:
                continue
            mean = sums[active, 0] / n
            variance = np.maximum((sums[active, 1] - n * mean * mean) / (n - 1), 1e-9 * self.d1**2)
            plain = n * self.d1 * (2 * mean - self.d1) / (2 * variance)
            for j, llr in enumerate((self.llr(counts[active], support), plain)):
                open_ = decided[active, j] == 0
                verdict = np.where(llr >= upper, 1, np.where(llr <= lower, -1, 0)) * open_
                decided[active, j] += verdict.astype(np.int8)
                used[active[verdict != 0], j] = n
            active = active[(decided[active] == 0).any(axis=1)]
        h1 = (decided == 1).mean(axis=0)
        h0 = (decided == -1).mean(axis=0)
        pairs = used.mean(axis=0)
        return h1[0], h0[0], pairs[0], h1[1], h0[1], pairs[1]


def check_vectorised(diffs: Sequence[float], d1: float, rng: random.Random) -> float:
    """The largest gap between :class:`PointsRuns`' LLR and the package's over 20 tallies drawn from ``diffs``."""
    worst = 0.0
    for _ in range(20):
        size = rng.randrange(sprt.POINTS_MIN_PAIRS, 1000)
        drawn = [rng.choice(diffs) + rng.choice((0.0, d1 / 2, d1)) for _ in range(size)]
        shifted = PointsRuns(drawn, d1)
        counts = np.bincount(shifted.index, minlength=shifted.support.size)[None, :].astype(float)
        tally = SequentialTest(Model.POINTS, 0.0, d1).start()
        for d in drawn:
            tally = tally.add_pair(1.0, d)
        worst = max(worst, abs(float(shifted.llr(counts)[0]) - tally.result().llr))
    return worst


def points_errors(
    diffs: Sequence[float], d1: float, runs: int, rng: random.Random
) -> dict[str, tuple[float, float, float, float]]:
    """Realised α (truth 0) and β (truth d1) of the points test [0, d1], new and old (the plain normal
    test), on ``diffs`` recentred, and the pairs each took on average."""
    sim = PointsRuns(diffs, d1)
    at0 = sim.errors(0.0, runs, rng.randrange(2**32))
    at1 = sim.errors(d1, runs, rng.randrange(2**32))
    return {"new": (at0[0], at1[1], at0[2], at1[2]), "old": (at0[3], at1[4], at0[5], at1[5])}


def points_calibration(pairs: list[Pair], runs: int, rng: random.Random, source: str) -> None:
    diffs = [d for _, _, d in pairs]
    mean, sd = statistics.fmean(diffs), statistics.stdev(diffs)
    skew = statistics.fmean([(d - mean) ** 3 for d in diffs]) / statistics.pstdev(diffs) ** 3
    kurtosis = statistics.fmean([(d - mean) ** 4 for d in diffs]) / statistics.pstdev(diffs) ** 4
    d1 = 16.0
    se = math.sqrt(0.05 * 0.95 / runs)
    print(f"\n4. the points test [0, {d1:g}] on skewed real differences: {source}")
    print(
        f"   {len(diffs)} differences, sd {sd:.1f}, skewness {skew:+.2f}, kurtosis {kurtosis:.1f}; {runs} runs "
        f"a cell (se of a 5% rate {100 * se:.2f}%)"
    )
    gap = check_vectorised(diffs, d1, rng)
    print(f"   (the vectorised test here and rookarena's differ by at most {gap:.1e} in LLR over 20 real tallies)")
    print(f"   {'differences':<24} {'test':<5} {'alpha':>7} {'beta':>7} {'pairs at 0':>11} {'at D1':>7}")
    for label, sign in (("right-skewed (as played)", 1.0), ("left-skewed (negated)", -1.0)):
        found = points_errors([sign * d for d in diffs], d1, runs, rng)
        for name in ("new", "old"):
            alpha, beta, at_h0, at_h1 = found[name]
            print(f"   {label:<24} {name:<5} {100 * alpha:6.2f}% {100 * beta:6.2f}% {at_h0:11.0f} {at_h1:7.0f}")


def run_to_cap(draw: Any, test: SequentialTest, cap_pairs: int) -> tuple[Hypothesis | None, int]:
    """One run of a pair test up to ``cap_pairs`` deal pairs: its decision (None: undecided) and pairs used."""
    tally = test.start()
    for pair in range(1, cap_pairs + 1):
        first, second = draw()
        tally = tally.add_pair(first + second, 0.0)
        decision = tally.result().decision
        if decision is not None:
            return decision, pair
    return None, cap_pairs


def joint_of(pairs: list[Pair]) -> dict[tuple[float, float], float]:
    return {k: float(v) for k, v in Counter((a, b) for a, b, _ in pairs).items()}


def gate(pairs: list[Pair], runs: int, rng: random.Random) -> None:
    """The documented CI example, --games 2000 --sprt -10 0, with the truth at ELO0 and at ELO1."""
    base = joint_of(pairs)
    test = SequentialTest(Model.PENTANOMIAL, -10.0, 0.0)
    print(f"\n5. the CI example, --games 2000 --sprt -10 0, on the real pairs tilted to the true Elo; {runs} runs")
    print(f"   {'true Elo':>8}  {'exit 3 (worse)':>14} {'exit 0 (pass)':>13} {'exit 4 (undecided)':>18}")
    for elo in (-10.0, 0.0, -20.0):
        joint = tilted(base, elo)
        keys = list(joint)
        draw = sampler(keys, [joint[k] for k in keys], rng)
        found = Counter(run_to_cap(draw, test, 1000)[0] for _ in range(runs))
        print(
            f"   {elo:>+8g}  {rate(found[Hypothesis.H0], runs):>14} {rate(found[Hypothesis.H1], runs):>13}"
            f" {rate(found[None], runs):>18}"
        )


POWER_BOUNDS = ((-10.0, 0.0), (-5.0, 0.0), (0.0, 5.0), (0.0, 10.0))
POWER_TRUTH = (0.0, -5.0, -10.0, -20.0)
POWER_GAMES = (1000, 2000, 5000)


def power(pairs: list[Pair], runs: int, rng: random.Random) -> None:
    """The chance that a true difference X is caught (H0 accepted) within N games, for common bounds."""
    base = joint_of(pairs)
    cap = max(POWER_GAMES) // 2
    print(f"\n6. power on the real pairs tilted to the true Elo X: H0 accepted within N games, {runs} runs a cell")
    print("   (for ELO1 <= 0 H0 is 'worse', exit 3; for ELO0 >= 0 it is 'not shown better'; in brackets H1)")
    header = "".join(f" {f'N={n}':>16}" for n in POWER_GAMES)
    print(f"   {'bounds':<10} {'X':>5}{header}")
    for bounds in POWER_BOUNDS:
        test = SequentialTest(Model.PENTANOMIAL, *bounds)
        for elo in POWER_TRUTH:
            joint = tilted(base, elo)
            keys = list(joint)
            draw = sampler(keys, [joint[k] for k in keys], rng)
            done = [run_to_cap(draw, test, cap) for _ in range(runs)]
            cells = []
            for n in POWER_GAMES:
                h0 = sum(1 for d, used in done if d is Hypothesis.H0 and 2 * used <= n)
                h1 = sum(1 for d, used in done if d is Hypothesis.H1 and 2 * used <= n)
                cells.append(f"{100 * h0 / runs:5.1f}% ({100 * h1 / runs:4.1f}%)")
            print(
                f"   [{bounds[0]:g}, {bounds[1]:g}]{'':<{8 - len(f'{bounds[0]:g}{bounds[1]:g}')}}{elo:>+5g}"
                + "".join(f" {c:>16}" for c in cells)
            )


def coverage(pairs: list[Pair], reps: int, rng: random.Random) -> None:
    """How often the 95% intervals of a match of n deal pairs cover the truth (the population's values)."""
    sums = ClusterSums()
    for first, second, _ in pairs:
        sums = sums.add(first + second, 2)
    true_score = sums.mean
    diffs = [d for _, _, d in pairs]
    true_diff = statistics.fmean(diffs)
    print(f"\n7. coverage of the 95% intervals over n resampled real pairs, {reps} matches a cell")
    print(f"   {'pairs':>5}  {'Elo interval':>12}  {'dup t-interval':>14}")
    for n in (5, 10, 20, 30, 50, 100):
        elo_hits = dup_hits = 0
        for _ in range(reps):
            chosen = [pairs[int(rng.random() * len(pairs))] for _ in range(n)]
            s = ClusterSums()
            for first, second, _ in chosen:
                s = s.add(first + second, 2)
            interval = elo_interval(s)
            lo, hi = expected_score(interval.lo), expected_score(interval.hi)
            elo_hits += lo <= true_score <= hi
            dup = t_interval([d for _, _, d in chosen])
            dup_hits += dup.lo <= true_diff <= dup.hi
        print(f"   {n:>5}  {100 * elo_hits / reps:11.1f}%  {100 * dup_hits / reps:13.1f}%")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--long", action="store_true", help="1000 runs a case and 2000 real games")
    parser.add_argument("--runs", type=int, help="runs a case (default 200, or 1000 with --long)")
    parser.add_argument("--games", type=int, help="real games to play in-process (default 300, or 2000)")
    parser.add_argument("--records", type=Path, help="a `rookarena match --out` directory to take the games from")
    parser.add_argument("--new", default="heuristic", help="NEW's name in --records (default: heuristic)")
    parser.add_argument("--noise", type=float, default=0.05, help="the noisy copy's share of random cards")
    parser.add_argument("--sprt", nargs=2, type=float, default=(0.0, 10.0), metavar=("ELO0", "ELO1"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", type=Path, help="a JSON file of real pairs to use (written there if missing)")
    parser.add_argument(
        "--gate",
        action="store_true",
        help="only parts 4-7: the points test on skewed real differences, the CI example, power, interval coverage",
    )
    parser.add_argument("--gate-runs", type=int, default=4000, help="runs a cell in parts 4, 5 and 7 (default 4000)")
    parser.add_argument("--power-runs", type=int, default=400, help="runs a cell in part 6 (default 400)")
    parser.add_argument("--parts", default="4567", help="with --gate, which of parts 4 to 7 to run (default 4567)")
    args = parser.parse_args(argv)
    runs = args.runs or (1000 if args.long else 200)
    games = args.games or (2000 if args.long else 300)
    elo0, elo1 = args.sprt
    rng = random.Random(args.seed)
    started = time.perf_counter()
    if args.gate:
        if args.pairs and args.pairs.exists():
            pairs = [tuple(p) for p in json.loads(args.pairs.read_text())]
            source = f"{args.pairs}"
        elif args.records:
            pairs = pairs_from_records(args.records, args.new)
            source = f"{args.records / 'games.jsonl'} ({args.new} as NEW)"
        else:
            pairs = play_pairs(games // 2, args.noise, args.seed)
            source = f"heuristic (NEW) against its {100 * args.noise:g}%-noise copy, {2 * len(pairs)} games in-process"
            if args.pairs:
                args.pairs.write_text(json.dumps(pairs))
        if "4" in args.parts:
            points_calibration(pairs, args.gate_runs, rng, source)
        if "5" in args.parts:
            gate(pairs, args.gate_runs, rng)
        if "6" in args.parts:
            power(pairs, args.power_runs, rng)
        if "7" in args.parts:
            coverage(pairs, args.gate_runs, rng)
        print(f"\n({time.perf_counter() - started:.0f} s)")
        return 0
    measured = {k: float(v) for k, v in MEASURED.items()}
    simulated(runs, elo0, elo1, rng, measured, "the heuristic bot's pairs against its 5%-noise copy, rho -0.84")
    simulated(runs, elo0, elo1, rng, correlated(-0.56), "a weaker anti-correlation, rho -0.56")
    if args.records:
        pairs = pairs_from_records(args.records, args.new)
        source = f"{args.records / 'games.jsonl'} ({args.new} as NEW)"
    else:
        pairs = play_pairs(games // 2, args.noise, args.seed)
        source = f"heuristic (NEW) against its {100 * args.noise:g}%-noise copy, {2 * len(pairs)} games in-process"
    real(pairs, runs, elo0, elo1, rng, source)
    bookkeeping(pairs, elo0, elo1)
    print(f"\n({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
