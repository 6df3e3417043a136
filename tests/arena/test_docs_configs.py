"""The example configurations and the league guide stay true to the configuration loader.

``configs/league.yaml`` and ``configs/demo.yaml`` load; every YAML block of ``docs/league.md`` that is a
league configuration loads; the guide's key table lists exactly the keys the loader accepts. Commands in
the configurations are relative to the repository root, so the tests load from there.
"""

from __future__ import annotations

import pathlib
import re
from typing import Any

import pytest
import yaml
from conftest import ROOT

from rookarena.arena import config
from rookarena.arena.config import load

GUIDE = ROOT / "docs" / "league.md"
EXAMPLE = ROOT / "configs" / "league.yaml"


def fenced_blocks(text: str, language: str) -> list[str]:
    """The bodies of the ``` blocks of ``language`` in a Markdown text, in order."""
    return re.findall(rf"^```{re.escape(language)}[ \t]*\n(.*?)^```[ \t]*$", text, flags=re.MULTILINE | re.DOTALL)


def league_blocks() -> list[str]:
    """The YAML blocks of the guide that are league configurations: those with a top-level ``bots:`` key."""
    return [
        block for block in fenced_blocks(GUIDE.read_text(encoding="utf-8"), "yaml") if re.search(r"^bots:", block, re.M)
    ]


def key_table() -> list[str]:
    """The first cells of the guide's table whose header starts with ``| key |``, backticks removed."""
    lines = GUIDE.read_text(encoding="utf-8").splitlines()
    starts = [i for i, line in enumerate(lines) if re.match(r"^\|\s*key\s*\|", line)]
    assert len(starts) == 1, f"expected one table headed '| key |' in {GUIDE.name}, found {len(starts)}"
    keys = []
    for line in lines[starts[0] + 2 :]:  # past the header and its |---| line
        if not line.startswith("|"):
            break
        keys.append(line.split("|")[1].strip().strip("`"))
    return keys


def keys_used(node: Any, prefix: str = "") -> set[str]:
    """Every key path in a YAML value: ``time.move``, ``bots[].name``, ``bots[].limits.memory`` ..."""
    out: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            path = f"{prefix}{key}"
            out.add(path)
            if key not in {"rules", "env"}:  # knob names and variable names are not loader keys
                out |= keys_used(value, path + ".")
    elif isinstance(node, list):
        for item in node:
            out |= keys_used(item, prefix.removesuffix(".") + "[].")
    return out


def loader_keys() -> set[str]:
    """Every key path the loader accepts, nested ones included (a bot's ``limits`` takes the league's keys)."""
    out = set(config.TOP_KEYS)
    out |= {f"time.{key}" for key in config.TIME_KEYS}
    out |= {f"limits.{key}" for key in config.LIMIT_KEYS}
    out |= {f"bots[].{key}" for key in config.BOT_KEYS}
    return out


@pytest.mark.parametrize("name", ["league.yaml", "demo.yaml"])
def test_the_example_configs_load_from_the_repository_root(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    league = load(pathlib.Path("configs") / name)
    assert len(league.entries) >= 2
    assert league.source == (ROOT / "configs" / name).read_text(encoding="utf-8")


def test_the_full_example_uses_every_key_the_loader_accepts() -> None:
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    missing = loader_keys() - keys_used(data)
    assert not missing, f"configs/league.yaml does not show {sorted(missing)}"


def test_the_full_example_shows_each_form_of_its_values(monkeypatch: pytest.MonkeyPatch) -> None:
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    assert isinstance(data["rules"], dict) and "preset" in data["rules"] and len(data["rules"]) > 1
    commands = [bot[key] for bot in data["bots"] for key in ("command", "partner") if key in bot]
    assert any(isinstance(c, list) for c in commands) and any(isinstance(c, str) for c in commands)
    assert any("rookarena.randombot" in c for c in commands)
    monkeypatch.chdir(ROOT)
    league = load(EXAMPLE.relative_to(ROOT))
    assert any(entry.partner.command != entry.bot.command for entry in league.entries)
    assert any(entry.bot.cwd is not None and entry.bot.env for entry in league.entries)
    assert any(entry.bot.limits is not None for entry in league.entries)


def test_the_guide_has_league_blocks() -> None:
    assert len(league_blocks()) >= 1


@pytest.mark.parametrize("index", range(len(league_blocks())))
def test_every_league_block_of_the_guide_loads(
    index: int, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / f"block-{index}.yaml"
    path.write_text(league_blocks()[index], encoding="utf-8")
    monkeypatch.chdir(ROOT)
    league = load(path)
    assert len(league.entries) >= 2


def test_every_yaml_block_of_the_guide_is_yaml() -> None:
    for block in fenced_blocks(GUIDE.read_text(encoding="utf-8"), "yaml"):
        list(yaml.safe_load_all(block))


def test_the_key_table_lists_exactly_the_top_level_keys() -> None:
    top = [key for key in key_table() if "." not in key and "[" not in key]
    assert sorted(top) == sorted(config.TOP_KEYS)


def test_the_key_table_lists_exactly_the_nested_keys() -> None:
    keys = key_table()
    assert len(keys) == len(set(keys)), "a key is listed twice"
    nested = {key for key in keys if "." in key}
    expected = {key for key in loader_keys() if "." in key}
    assert nested == expected
