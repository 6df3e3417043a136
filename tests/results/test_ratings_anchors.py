"""Ratings with fixed anchors: the anchors keep their numbers, the others are fitted against them."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize  # type: ignore[import-untyped]

from rookarena.results import ratings
from rookarena.results.standings import standings

ELO = 400 / math.log(10)
Z = 1.959963984540054
STRENGTH = {"a": 0.6, "b": 0.2, "c": -0.1, "d": -0.7, "e": 0.9}


def pairs(seed: int, names: str, deals: int = 12) -> list[tuple[str, str, float, int]]:
    """Deal pairs between every two of ``names``, the two games of a deal anti-correlated."""
    rng = random.Random(seed)
    out = []
    for i, x in enumerate(names):
        for y in names[i + 1 :]:
            p = 1 / (1 + math.exp(STRENGTH[y] - STRENGTH[x]))
            for _ in range(deals):
                first = 1.0 if rng.random() < p else 0.0
                second = (1.0 - first) if rng.random() < 0.6 else (1.0 if rng.random() < p else 0.0)
                out.append((x, y, first + second, 2))
    return out


def reference(
    clusters: list[tuple[str, str, float, int]], prior: float, anchors: dict[str, float]
) -> dict[str, tuple[float, float]]:
    """The anchored fit and its sandwich errors, by scipy and numpy over the free entries only."""
    names = sorted({n for c in clusters for n in c[:2]})
    free = [n for n in names if n not in anchors]
    index = {n: i for i, n in enumerate(free)}

    def full(theta: np.ndarray) -> dict[str, float]:
        return {n: anchors[n] / ELO if n in anchors else float(theta[index[n]]) for n in names}

    def nll(theta: np.ndarray) -> float:
        r = full(theta)
        total = 0.0
        for a, b, s, n in clusters:
            d = r[a] - r[b]
            total += s * math.log1p(math.exp(-d)) + (n - s) * math.log1p(math.exp(d))
        for t in theta:
            total += prior * 0.5 * (math.log1p(math.exp(-t)) + math.log1p(math.exp(t)))
        return total

    theta = optimize.minimize(nll, np.zeros(len(free)), method="BFGS", options={"gtol": 1e-12}).x
    r = full(theta)
    k = len(free)
    hessian, meat = np.zeros((k, k)), np.zeros((k, k))
    by_pairing: dict[tuple[str, str], list[tuple[float, int]]] = {}
    for a, b, s, n in clusters:
        by_pairing.setdefault((a, b), []).append((s, n))
    for (a, b), scores in by_pairing.items():
        p = 1 / (1 + math.exp(r[b] - r[a]))
        e = np.zeros(k)
        if a in index:
            e[index[a]] = 1
        if b in index:
            e[index[b]] = -1
        games = sum(n for _, n in scores)
        hessian += games * p * (1 - p) * np.outer(e, e)
        if len({s / n for s, n in scores}) > 1:
            meat += sum((s - n * p) ** 2 for s, n in scores) * np.outer(e, e)
        else:
            meat += games * p * (1 - p) * np.outer(e, e)
    for i, t in enumerate(theta):
        q = 1 / (1 + math.exp(-t))
        hessian[i, i] += prior * q * (1 - q)
        meat[i, i] += prior * q * (1 - q)
    bread = np.linalg.inv(hessian)
    cov = bread @ meat @ bread
    out = {n: (anchors[n], 0.0) for n in names if n in anchors}
    out.update({n: (theta[i] * ELO, Z * math.sqrt(cov[i, i]) * ELO) for n, i in index.items()})
    return out


@pytest.mark.parametrize(("seed", "anchors"), [(1, {"b": 0.0}), (2, {"b": 0.0, "d": -300.0}), (3, {"a": 120.0})])
def test_anchored_fit_and_errors_match_the_reference(seed: int, anchors: dict[str, float]) -> None:
    clusters = pairs(seed, "abcd")
    got = ratings.bradley_terry_clustered(clusters, 1.0, anchors=anchors)
    want = reference(clusters, 1.0, anchors)
    assert set(got) == set(want)
    for name, (elo, error) in want.items():
        assert got[name].elo == pytest.approx(elo, abs=1e-3)
        assert got[name].error == pytest.approx(error, rel=1e-4, abs=1e-6)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.floats(-400, 400), st.sampled_from([0.0, 1.0]))
def test_a_newcomer_moves_neither_the_anchors_nor_another_newcomer(seed: int, level: float, prior: float) -> None:
    """A bot that plays only the anchors is rated the same whether another such bot is added or not."""
    anchors = {"a": level, "b": level - 100, "c": level - 250}
    base = pairs(seed, "abc") + [(x, y, s, n) for x, y, s, n in pairs(seed + 1, "abcd") if "d" in (x, y)]
    more = base + [(x, y, s, n) for x, y, s, n in pairs(seed + 2, "abce") if "e" in (x, y)]
    before = ratings.bradley_terry_clustered(base, prior, anchors=anchors)
    after = ratings.bradley_terry_clustered(more, prior, anchors=anchors)
    for name, elo in anchors.items():
        assert before[name] == after[name] == ratings.Rating(elo, 0.0)
    assert after["d"].elo == pytest.approx(before["d"].elo, abs=1e-6)
    assert after["d"].error == pytest.approx(before["d"].error, abs=1e-6)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.floats(-500, 500))
def test_one_newcomer_against_one_anchor_is_the_logit_of_its_score(wins: int, losses: int, anchor: float) -> None:
    results = [("new", "anchor", 1.0)] * wins + [("new", "anchor", 0.0)] * losses
    got = ratings.bradley_terry(results, prior_draws=0, anchors={"anchor": anchor})
    assert got["new"].elo == pytest.approx(anchor + 400 * math.log10(wins / losses), abs=1e-6)
    n, p = wins + losses, wins / (wins + losses)
    assert got["new"].error == pytest.approx(Z * ELO / math.sqrt(n * p * (1 - p)), rel=1e-6)


def test_anchored_at_the_centred_fit_gives_the_centred_fit() -> None:
    """Without a prior, holding all but one entry at their centred ratings leaves the last at its own."""
    clusters = pairs(5, "abcd")
    centred = ratings.bradley_terry_clustered(clusters, prior_draws=0)
    anchors = {name: centred[name].elo for name in "abc"}
    got = ratings.bradley_terry_clustered(clusters, prior_draws=0, anchors=anchors)
    assert got["d"].elo == pytest.approx(centred["d"].elo, abs=1e-6)


def test_anchors_that_did_not_play_are_ignored() -> None:
    clusters = pairs(6, "abc")
    assert ratings.bradley_terry_clustered(clusters, anchors={"zz": 50.0}) == ratings.bradley_terry_clustered(clusters)


def test_standings_mark_the_anchors_and_share_ranks_on_equal_figures() -> None:
    records = []
    for deal, (x, y) in enumerate([("a", "b"), ("c", "b")]):
        for flip in (0, 1):  # a and c each beat b in both games of their deal: the same figures
            teams, winner = ([x, y], 0) if flip == 0 else ([y, x], 1)
            scores = [500, 100] if winner == 0 else [100, 500]
            result = {"scores": scores, "winner": winner}
            records.append({"teams": teams, "result": result, "seed": deal, "game_id": f"{deal}-{flip}"})
    rows = standings(records, anchors={"b": 0.0})
    by_name = {row.name: row for row in rows}
    assert by_name["b"].anchor and by_name["b"].rating == ratings.Rating(0.0, 0.0)
    assert not by_name["a"].anchor and by_name["a"].rating.elo > 0
    assert by_name["a"].rank == by_name["c"].rank == 1
    assert by_name["b"].rank == 3


def penalised_gradient(
    results: list[tuple[str, str, float]], prior: float, anchors: dict[str, float], got: dict[str, ratings.Rating]
) -> dict[str, float]:
    """The gradient of the penalised log-likelihood (natural units) at ``got``, for each free entry: zero at
    the maximum, whatever path the fit took to it."""
    theta = {name: rating.elo / ELO for name, rating in got.items()}
    grad = {name: 0.0 for name in got if name not in anchors}
    for a, b, score in results:
        p = 1 / (1 + math.exp(theta[b] - theta[a]))
        for name, sign in ((a, 1), (b, -1)):
            if name in grad:
                grad[name] += sign * (score - p)
    for name in grad:
        grad[name] += prior * (0.5 - 1 / (1 + math.exp(-theta[name])))
    return grad


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.floats(-3000, 3000), min_size=1, max_size=3),
    st.lists(st.floats(-4000, 4000), min_size=1, max_size=3),
    st.integers(0, 10**6),
    st.integers(1, 60),
)
def test_the_anchored_fit_reaches_its_maximum_however_far_the_newcomers_are(
    anchor_levels: list[float], strengths: list[float], seed: int, games: int
) -> None:
    """Newcomers far above or below the anchors (sweeps included) get finite ratings at the maximum of the
    penalised likelihood: Newton's first step from 0 had gone where the information underflows, and the fit
    failed as 'singular' (a bot that lost all 20 games to an anchor at -720)."""
    rng = random.Random(seed)
    anchors = {f"anchor{k}": level for k, level in enumerate(anchor_levels)}
    level = {**anchors, **{f"new{k}": strength for k, strength in enumerate(strengths)}}
    names = sorted(level)
    results = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if (a in anchors and b in anchors) or rng.random() < 0.3:
                continue
            p = 1 / (1 + 10 ** ((level[b] - level[a]) / 400))
            results += [(a, b, 1.0 if rng.random() < p else 0.0) for _ in range(games)]
    played = {name for a, b, _ in results for name in (a, b)}
    if not played & set(anchors):
        return
    got = ratings.bradley_terry(results, prior_draws=1.0, anchors=anchors)
    assert all(math.isfinite(r.elo) and math.isfinite(r.error) for r in got.values()), got
    for name, slope in penalised_gradient(results, 1.0, anchors, got).items():
        assert abs(slope) < 1e-6, (name, slope, got)


def test_a_newcomer_swept_by_a_low_anchor_is_rated_below_it() -> None:
    results = [("broken", "random", 0.0)] * 20
    got = ratings.bradley_terry(results, prior_draws=1.0, anchors={"random": -720.0})
    assert got["broken"].elo < -720 - 400
    assert penalised_gradient(results, 1.0, {"random": -720.0}, got)["broken"] == pytest.approx(0, abs=1e-9)
