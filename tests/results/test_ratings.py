"""Cluster-robust Bradley–Terry errors against an independent numpy/scipy implementation of the sandwich."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from scipy import optimize  # type: ignore[import-untyped]

from rookarena.results import ratings

ELO = 400 / math.log(10)
Z = 1.959963984540054


def league(seed: int) -> list[tuple[str, str, float, int]]:
    """Deal pairs of four entries of different strengths: per pair a's score 0 to 2, anti-correlated games."""
    rng = random.Random(seed)
    strength = {"a": 0.6, "b": 0.2, "c": -0.1, "d": -0.7}
    out = []
    names = sorted(strength)
    for i, x in enumerate(names):
        for y in names[i + 1 :]:
            p = 1 / (1 + math.exp(strength[y] - strength[x]))
            for _ in range(12):
                first = 1.0 if rng.random() < p else 0.0
                # The second game of the deal goes the other way more often than chance: the cards.
                second = (1.0 - first) if rng.random() < 0.6 else (1.0 if rng.random() < p else 0.0)
                out.append((x, y, first + second, 2))
    out.append(("a", "d", 1.0, 1))  # a game outside any pair is a cluster of its own
    return out


def reference(clusters: list[tuple[str, str, float, int]], prior: float) -> dict[str, tuple[float, float]]:
    names = sorted({n for c in clusters for n in c[:2]})
    k = len(names)
    index = {n: i for i, n in enumerate(names)}

    def nll(theta: np.ndarray) -> float:
        total = 0.0
        for a, b, s, n in clusters:
            d = theta[index[a]] - theta[index[b]]
            total += s * math.log1p(math.exp(-d)) + (n - s) * math.log1p(math.exp(d))
        for t in theta:
            total += prior * 0.5 * (math.log1p(math.exp(-t)) + math.log1p(math.exp(t)))
        return total

    theta = optimize.minimize(nll, np.zeros(k), method="BFGS", options={"gtol": 1e-12}).x
    hessian = np.zeros((k, k))
    meat = np.zeros((k, k))
    by_pairing: dict[tuple[str, str], list[tuple[float, int]]] = {}
    for a, b, s, n in clusters:
        by_pairing.setdefault((a, b), []).append((s, n))
    for (a, b), scores in by_pairing.items():
        i, j = index[a], index[b]
        p = 1 / (1 + math.exp(theta[j] - theta[i]))
        e = np.zeros(k)
        e[i], e[j] = 1, -1
        games = sum(n for _, n in scores)
        hessian += games * p * (1 - p) * np.outer(e, e)
        if len({s / n for s, n in scores}) > 1:
            meat += sum((s - n * p) ** 2 for s, n in scores) * np.outer(e, e)
        else:  # all clusters alike: the binomial weight
            meat += games * p * (1 - p) * np.outer(e, e)
    for i, t in enumerate(theta):
        q = 1 / (1 + math.exp(-t))
        hessian[i, i] += prior * q * (1 - q)
        meat[i, i] += prior * q * (1 - q)
    bread = np.linalg.inv(hessian)
    cov = bread @ meat @ bread
    centre = np.eye(k) - np.full((k, k), 1 / k)
    centred = centre @ cov @ centre
    mean = theta.mean()
    return {n: ((theta[i] - mean) * ELO, Z * math.sqrt(centred[i, i]) * ELO) for n, i in index.items()}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sandwich_errors_match_the_reference(seed: int) -> None:
    clusters = league(seed)
    got = ratings.bradley_terry_clustered(clusters)
    want = reference(clusters, 1.0)
    for name, (elo, error) in want.items():
        assert got[name].elo == pytest.approx(elo, abs=1e-4)
        assert got[name].error == pytest.approx(error, rel=1e-5)


def test_clustered_fit_is_the_game_fit_and_anti_correlated_pairs_narrow_it() -> None:
    clusters = league(4)
    games = []
    for a, b, s, n in clusters:
        if n == 1:
            games.append((a, b, s))
        else:  # the pair's two games, in some order: the fit only sees their sum
            games += [(a, b, min(1.0, s)), (a, b, max(0.0, s - 1))]
    paired = ratings.bradley_terry_clustered(clusters)
    independent = ratings.bradley_terry(games)
    for name, rating in independent.items():
        assert paired[name].elo == pytest.approx(rating.elo, abs=1e-6)
        assert paired[name].error < rating.error


def test_a_clustered_league_without_a_prior_is_centred() -> None:
    got = ratings.bradley_terry_clustered(league(5), prior_draws=0)
    assert math.fsum(r.elo for r in got.values()) == pytest.approx(0, abs=1e-9)
    assert all(r.error > 0 for r in got.values())
    with pytest.raises(ValueError, match="expected a score in"):
        ratings.bradley_terry_clustered([("a", "b", 2.5, 2)])


def test_a_sweep_keeps_the_binomial_weight() -> None:
    # 4 pairs, every one won twice: no spread to estimate from; the error is then the model's.
    sweep = ratings.bradley_terry_clustered([("p", "s", 2.0, 2)] * 4)
    games = ratings.bradley_terry([("p", "s", 1.0)] * 8)
    assert sweep["p"].error == pytest.approx(games["p"].error, rel=1e-9)
    assert sweep["p"].elo == pytest.approx(games["p"].elo, abs=1e-9)
