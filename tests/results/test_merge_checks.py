"""Reading several results directories as one league: what is merged, what is refused, what is warned of.

Games played under other rules are never counted with a league's (each record's ``rules_hash``); a shard
is said to be missing only when its games are not there some other way (an unsharded copy, or another
cut of the league that is whole); a directory without its ``league.json`` is counted with a warning.
"""

from __future__ import annotations

import json
import pathlib
import random
from typing import Any

import pytest
from click.testing import CliRunner
from web_games import league_records, write_dir

from rookarena.cli import main
from rookarena.engine.presets import preset

NAMES = ["a", "b", "c"]
PLAYED = league_records(NAMES, deals=2, seed=5)


def _dir(path: pathlib.Path, played: list[dict[str, object]], shard: str | None) -> pathlib.Path:
    write_dir(path, played, NAMES, deals=2)
    meta = json.loads((path / "league.json").read_text())
    (path / "league.json").write_text(json.dumps({**meta, "shard": shard}))
    return path


def _slices(n: int) -> list[list[dict[str, object]]]:
    """The league's games cut into ``n`` slices, two games (a deal pair) at a time, in turn."""
    pairs = [PLAYED[i : i + 2] for i in range(0, len(PLAYED), 2)]
    return [[game for pair in pairs[k::n] for game in pair] for k in range(n)]


def _standings(*directories: pathlib.Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["standings", *map(str, directories)])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("seed", range(8))
def test_a_shard_is_missing_only_when_its_games_are(tmp_path: pathlib.Path, seed: int) -> None:
    rng = random.Random(seed)
    dirs: list[pathlib.Path] = []
    held: dict[int, set[int]] = {}
    for n in rng.sample([2, 3], rng.randint(1, 2)):
        for k in sorted(rng.sample(range(1, n + 1), rng.randint(1, n))):
            dirs.append(_dir(tmp_path / f"s{k}-of-{n}", _slices(n)[k - 1], f"{k}/{n}"))
            held.setdefault(n, set()).add(k)
    full = rng.random() < 0.4
    if full:
        dirs.append(_dir(tmp_path / "full", PLAYED, None))
    code, table, warned = _standings(*dirs)
    assert code == 0, warned
    whole = full or any(len(ks) == n for n, ks in held.items())
    assert ("are missing" in warned) == (not whole), (held, full, warned)
    if whole:
        assert table == _standings(_dir(tmp_path / "alone", PLAYED, None))[1]


def test_games_under_other_rules_are_not_counted_with_a_leagues(tmp_path: pathlib.Path) -> None:
    """The games of another league of the same name (other rules, another seed), say only its games.jsonl
    copied back from a node, were counted as the missing shard's."""
    ours = [_dir(tmp_path / f"s{k}", _slices(3)[k - 1], f"{k}/3") for k in (2, 3)]
    other = league_records(NAMES, deals=2, seed=9, rules=preset("kentucky").rules)
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in other[:2]))
    code, _, said = _standings(*ours, bare)
    assert code == 1, said
    assert "played under other rules" in said and str(bare / "games.jsonl") in said, said


def test_a_directory_without_its_plan_is_counted_with_a_warning(tmp_path: pathlib.Path) -> None:
    ours = [_dir(tmp_path / f"s{k}", _slices(3)[k - 1], f"{k}/3") for k in (2, 3)]
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in _slices(3)[0]))
    code, _, said = _standings(*ours, bare)
    assert code == 0, said
    assert f"warning: {bare} has no league.json: its games are counted with " in said, said


def test_the_slurm_merge_keeps_the_last_standings_when_it_finds_no_shard(tmp_path: pathlib.Path) -> None:
    """deploy/slurm/merge.sbatch given the wrong N found no shard, ran ``rookarena standings`` with no
    directory, and had already emptied the last good standings.txt."""
    import os
    import subprocess
    import sys

    from conftest import ROOT

    results = tmp_path / "results"
    for k in (1, 2, 3):
        _dir(results / f"shard-{k}-of-3", _slices(3)[k - 1], f"{k}/3")
    env = {
        **os.environ,
        "SLURM_SUBMIT_DIR": str(tmp_path),
        "PATH": f"{pathlib.Path(sys.executable).parent}:{os.environ['PATH']}",
    }
    env.pop("ROOKARENA_VENV", None)
    script = str(ROOT / "deploy" / "slurm" / "merge.sbatch")
    good = subprocess.run(["bash", script, "results", "3"], env=env, capture_output=True, text=True, check=False)
    assert good.returncode == 0, good.stderr
    table = (results / "standings.txt").read_text()
    assert "a " in table and table == good.stdout
    wrong = subprocess.run(["bash", script, "results", "4"], env=env, capture_output=True, text=True, check=False)
    assert wrong.returncode == 1
    assert wrong.stderr.strip() == (
        "merge: no shard of 4 in results (expected results/shard-K-of-4 for K from 1 to 4): is N the array's size?"
    )
    assert (results / "standings.txt").read_text() == table
    assert sorted(p.name for p in results.iterdir()) == [
        "shard-1-of-3",
        "shard-2-of-3",
        "shard-3-of-3",
        "standings.txt",
    ]


@pytest.mark.parametrize("seed", range(20))
def test_a_changed_list_of_settings_is_said_by_what_changed(seed: int) -> None:
    """Bots added or taken away were said as two identical dumps cut at 60 characters ('[{"name": "ra",
    ... there, [{"name": "ra", ... here'); the first difference is named, or else the entries one side has."""
    from rookarena.results.directory import first_difference

    rng = random.Random(seed)
    bots: list[dict[str, Any]] = [
        {"name": f"bot{n}", "command": ["python3", "-m", "rookarena.randombot", str(n)]} for n in range(6)
    ]
    old = bots[: rng.randint(1, 5)]
    new = [dict(bot) for bot in old]
    if rng.random() < 0.5:
        new = new[: rng.randint(0, len(new) - 1)] if rng.random() < 0.5 else [*new, *bots[len(new) : len(new) + 1]]
        change = first_difference({"bots": old}, {"bots": new})
        assert change is not None and change.startswith(f"bots: {len(old)} there, {len(new)} here (only "), change
        beyond = (new if len(new) > len(old) else old)[min(len(old), len(new))]
        assert str(beyond["name"]) in change
    else:
        at = rng.randrange(len(new))
        new[at] = {**new[at], "name": "changed"}
        change = first_difference({"bots": old}, {"bots": new})
        assert change == f'bots[{at}].name: "{old[at]["name"]}" there, "changed" here'
