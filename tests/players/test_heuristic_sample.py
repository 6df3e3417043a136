"""The sample heuristic bot a bot author reads (``sample_bots/python/heuristic_bot.py``, plain Python
with no package import) decides as the package's heuristic does, at every decision of generated games."""

from __future__ import annotations

import importlib.util
from types import ModuleType
from typing import Any

from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from rookarena.engine.presets import PRESETS
from rookarena.players.base import Deadline
from rookarena.players.heuristic import HeuristicPlayer
from rookarena.players.inprocess import play_game

SAMPLE = ROOT / "sample_bots" / "python" / "heuristic_bot.py"


def sample_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sample_heuristic_bot", SAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SAMPLE_BOT = sample_module()


class Compared(HeuristicPlayer):
    """The package's heuristic, asking the sample bot the same request and keeping where they differ."""

    def __init__(self, differences: list[str]) -> None:
        super().__init__()
        self.differences = differences

    def act(self, request: dict[str, Any], deadline: Deadline) -> str:
        ours = super().act(request, deadline)
        theirs = SAMPLE_BOT.decide(request, self.rules)
        if theirs != ours:
            self.differences.append(f"{request['view']} legal {request['legal']}: package {ours}, sample {theirs}")
        return ours


def test_the_sample_bot_is_standalone() -> None:
    source = SAMPLE.read_text(encoding="utf-8")
    assert "rookarena" not in "".join(line for line in source.splitlines() if "import" in line)


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 3))
def test_the_sample_bot_decides_as_the_package_heuristic(preset: str, seed: int, dealer: int) -> None:
    differences: list[str] = []
    play_game(PRESETS[preset].rules, seed, [Compared(differences) for _ in range(4)], first_dealer=dealer)
    assert not differences, f"{len(differences)} decisions differ under {preset}, seed {seed}: {differences[0]}"


def test_the_comparison_catches_a_difference(monkeypatch: Any) -> None:
    monkeypatch.setattr(SAMPLE_BOT, "decide", lambda request, rules: request["legal"][-1])
    differences: list[str] = []
    play_game(PRESETS["tournament"].rules, 7, [Compared(differences) for _ in range(4)])
    assert differences
