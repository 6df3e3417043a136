"""rookarena installed as a user installs it, not run from its checkout: the processes it starts with its own
Python (the league's referee workers, check-bot's opponent) import the same package, and nothing else.

- A copy in a virtual environment's site-packages beside a package named like a standard module (PyPI's
  ``pathlib`` backport): the workers had been given that site-packages on PYTHONPATH, ahead of the standard
  library, and every league with ``jobs`` above 1 stopped with the backport's traceback.
- A copy found only through PYTHONPATH (``pip install --target``): check-bot's opponent, started in a bot's
  clean environment, could not import the package, and a compliant bot was called NOT compliant.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import site
import subprocess
import sys

import pytest
from conftest import ROOT

from rookarena.arena import checkbot
from rookarena.arena.specs import BotSpec, TimeControl

pytestmark = pytest.mark.slow

PACKAGE = ROOT / "rookarena"
RANDOM_BOT = ROOT / "sample_bots" / "python" / "random_bot.py"
BASE = getattr(sys, "_base_executable", sys.executable)  # the Python the tests' environment was made from


def copy_package(into: pathlib.Path) -> None:
    shutil.copytree(PACKAGE, into / "rookarena", ignore=shutil.ignore_patterns("__pycache__"))


def installed_venv(tmp_path: pathlib.Path) -> pathlib.Path:
    """A virtual environment holding a copy of the package in its site-packages, the tests' environment's
    packages (click, trio, ...) reached through a .pth line, and a ``pathlib`` that breaks whoever imports
    it; its Python."""
    venv = tmp_path / "venv"
    subprocess.run([BASE, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    packages = pathlib.Path(purelib)
    copy_package(packages)
    (packages / "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n", encoding="utf-8")
    (packages / "pathlib.py").write_text('raise ImportError("a backport shadowed the standard pathlib")\n')
    return python


def rookarena(
    python: str | pathlib.Path, args: list[str], cwd: pathlib.Path, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """``python -m rookarena ARGS``, run in ``cwd`` with ``env``, its output captured."""
    command = [str(python), "-m", "rookarena", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False, cwd=cwd, env=env)


def test_an_installed_copy_runs_a_league_with_workers(tmp_path: pathlib.Path) -> None:
    python = installed_venv(tmp_path)
    bots = [
        f"  - name: r{seed}\n    command: [{json.dumps(str(python))}, -m, rookarena.randombot, '{seed}']"
        for seed in (1, 2, 3)
    ]
    config = tmp_path / "league.yaml"
    config.write_text("name: copy\ngames: 2\nseed: 3\njobs: 2\nbots:\n" + "\n".join(bots) + "\n", encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = rookarena(python, ["run", str(config), "--out", str(tmp_path / "out")], tmp_path, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "backport" not in done.stderr
    played = (tmp_path / "out" / "games.jsonl").read_text().splitlines()
    assert len(played) == 6 and all(json.loads(line)["faults"] == [] for line in played)


def test_check_bot_runs_its_opponent_from_a_copy_on_pythonpath(tmp_path: pathlib.Path) -> None:
    found = subprocess.run([BASE, "-c", "import rookarena"], capture_output=True, timeout=60, check=False, cwd=tmp_path)
    if found.returncode == 0:
        pytest.skip(f"{BASE} imports rookarena without PYTHONPATH")
    target = tmp_path / "target"
    copy_package(target)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), *site.getsitepackages()])}
    done = rookarena(
        BASE, ["check-bot", f"{BASE} {RANDOM_BOT}", "--rules", "tournament", "--games", "2"], tmp_path, env
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "compliant" in done.stdout and "NOT compliant" not in done.stdout


async def test_an_opponent_that_cannot_play_is_said_to_be_the_checkers(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever keeps check-bot's own opponent from playing, the bot is not graded on those games: one error
    says the opponent failed, and how."""
    broken = (sys.executable, "-c", "import sys; sys.stderr.write('No module named rookarena\\n'); sys.exit(1)")
    monkeypatch.setattr(checkbot, "OPPONENT", broken)
    spec = BotSpec("random-py", (sys.executable, str(RANDOM_BOT)))
    with pytest.raises(checkbot.CheckerError, match=r"own opponent .* could not play .*so the bot was not checked"):
        await checkbot.check_bot(
            spec, games=2, seed=1, time=TimeControl(move=2.0, startup=10.0), log_dir=tmp_path, presets=["tournament"]
        )
