"""Every way a league or a match may write a bot's command runs isolated as it runs without isolation: the
sandbox shows the bot its own program and the programs its command starts, wherever they are named. A
``sandbox:`` prefix, an interpreter's option (``python3 -u bot.py``) or a program found on the bot's own PATH
had hidden the bot's program from it, and every game of the entry was a crash; so had a virtual
environment's script named by its path (its ``#!`` interpreter and environment were not shown), or linked
from another directory (as pipx links its programs). And no process of an isolated bot runs outside its
sandbox: ``match`` had started each bot once unsandboxed, to ask its name."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap (bwrap) on PATH"),
]

RANDOM_BOT = ROOT / "sample_bots" / "python" / "random_bot.py"


def entries(tmp_path: pathlib.Path) -> dict[str, str]:
    """Each kind of command, as the YAML of one bot entry (after its name)."""
    program_dir = tmp_path / "pbin"
    program_dir.mkdir()
    wrapper = program_dir / "mybot"
    # the system's Python: a program found on PATH runs what its first line names, which the sandbox shows
    wrapper.write_text("#!/usr/bin/python3\n" + RANDOM_BOT.read_text(encoding="utf-8"), encoding="utf-8")
    wrapper.chmod(0o755)
    python = json.dumps(sys.executable)
    here = json.dumps(str(RANDOM_BOT))
    path = json.dumps(f"{program_dir}:/usr/bin:/bin")
    return {
        "prefixed": f"command: [{python}, {here}]\n    sandbox: [setpriv, --no-new-privs]",
        "option": f"command: [{python}, -u, {here}]",
        "options": f"command: [{python}, -B, -X, dev, {here}]",
        "own-path": f"command: [mybot]\n    env: {{PATH: {path}}}",
        "prefixed-builtin": (
            f"command: [rookarena, bot, random, --seed, '3']\n    sandbox: [setpriv, --no-new-privs]\n"
            f"    env: {{PATH: {json.dumps(str(pathlib.Path(sys.executable).parent) + ':/usr/bin:/bin')}}}"
        )
        if (pathlib.Path(sys.executable).parent / "rookarena").exists()
        else f"command: [{python}, {here}]",
        "plain": f"command: [{python}, {here}]",
        # the environment's script by its path, the environment not on the bot's PATH (run by cron, say)
        "venv-script": f"command: [{json.dumps(str(SCRIPT))}, bot, random, --seed, '5']\n    env: {{PATH: {SYSTEM}}}",
        # found on PATH as a link into the environment, as pipx installs it
        "linked-script": f"command: [rookarena, bot, random]\n    env: {{PATH: {json.dumps(str(linked(tmp_path)))}}}",
        # python3 found on PATH as a version manager's shim (pyenv's, asdf's), which runs a program of its root
        "shim": f"command: [python3, {here}]\n    env: {{PATH: {json.dumps(shims(tmp_path))}}}",
        # a script of the system's Python that imports a package installed with pip install --user
        "user-site": f"command: [/usr/bin/python3, {json.dumps(str(user_site_bot(tmp_path)))}]",
        # a script whose first line finds the environment's Python through env
        "env-shebang": f"command: [{json.dumps(str(env_script(tmp_path)))}]\n    env: {{PATH: {json.dumps(PATH)}}}",
    }


SCRIPT = pathlib.Path(sys.executable).parent / "rookarena"  # the environment's program (an installed checkout's)
SYSTEM = "/usr/bin:/bin"
PATH = f"{pathlib.Path(sys.executable).parent}:{SYSTEM}"  # the environment's programs first


def linked(tmp_path: pathlib.Path) -> str:
    """A directory holding only a link to the environment's ``rookarena``, then the system's: the PATH."""
    links = tmp_path / "links"
    links.mkdir(exist_ok=True)
    if not (links / "rookarena").exists():
        (links / "rookarena").symlink_to(SCRIPT)
    return f"{links}:/usr/bin:/bin"


def shims(tmp_path: pathlib.Path) -> str:
    """A version manager's folder: ``shims/python3`` runs ``libexec/run``, which runs the system's Python."""
    root = tmp_path / "manager"
    (root / "shims").mkdir(parents=True, exist_ok=True)
    (root / "libexec").mkdir(exist_ok=True)
    for path, text in (
        (root / "libexec" / "run", 'exec /usr/bin/python3 "$@"'),
        (root / "shims" / "python3", f'exec "{root}/libexec/run" "$@"'),
    ):
        path.write_text(f"#!/bin/sh\n{text}\n", encoding="utf-8")
        path.chmod(0o755)
    return f"{root / 'shims'}:{SYSTEM}"


HOME = "home"  # the referee's HOME in these tests, under tmp_path


def user_site_bot(tmp_path: pathlib.Path) -> pathlib.Path:
    """The sample random bot, importing first a module of the user site of the system's Python under HOME."""
    version = subprocess.run(
        ["/usr/bin/python3", "-c", "import sys; print(f'{sys.version_info[0]}.{sys.version_info[1]}')"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    site = tmp_path / HOME / ".local" / "lib" / f"python{version}" / "site-packages"
    site.mkdir(parents=True, exist_ok=True)
    (site / "user_installed.py").write_text("READY = True\n", encoding="utf-8")
    folder = tmp_path / "userbot"
    folder.mkdir(exist_ok=True)
    bot = folder / "bot.py"
    bot.write_text("import user_installed\n" + RANDOM_BOT.read_text(encoding="utf-8"), encoding="utf-8")
    return bot


def env_script(tmp_path: pathlib.Path) -> pathlib.Path:
    """The sample random bot, run by ``#!/usr/bin/env python3``: the environment's Python, first on PATH."""
    folder = tmp_path / "envbot"
    folder.mkdir(exist_ok=True)
    script = folder / "envbot"
    script.write_text("#!/usr/bin/env python3\n" + RANDOM_BOT.read_text(encoding="utf-8"), encoding="utf-8")
    script.chmod(0o755)
    return script


@pytest.mark.parametrize(
    "kind",
    [
        *("prefixed", "option", "options", "own-path", "prefixed-builtin"),
        *("venv-script", "linked-script", "env-shebang", "shim", "user-site"),
    ],
)
def test_an_isolated_bot_plays_however_its_command_is_written(tmp_path: pathlib.Path, kind: str) -> None:
    if kind in ("own-path", "shim", "user-site") and not pathlib.Path("/usr/bin/python3").exists():
        pytest.skip("no /usr/bin/python3 for a program found on PATH")
    if kind in ("venv-script", "linked-script") and not SCRIPT.exists():
        pytest.skip(f"no {SCRIPT} (the package is not installed beside the tests' Python)")
    written = entries(tmp_path)
    config = tmp_path / "league.yaml"
    config.write_text(
        "name: iso\ngames: 2\nseed: 4\nisolation: bwrap\ntime: {move: 2, startup: 15}\nbots:\n"
        f"  - name: {kind}\n    {written[kind]}\n"
        f"  - name: plain\n    {written['plain']}\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "rookarena", "run", str(config), "--out", str(tmp_path / "out"), "--jobs", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(tmp_path / HOME)},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    played = [json.loads(line) for line in (tmp_path / "out" / "games.jsonl").read_text().splitlines()]
    assert len(played) == 2 and all(record["faults"] == [] for record in played), [r["faults"] for r in played]


ESCAPER = """import os, runpy, sys
try:  # the pytest folder, under /tmp: a sandbox's /tmp is its own, where that folder does not exist
    with open({mark!r}, "a") as out:
        out.write(str(os.getpid()) + "\\n")
except OSError:
    pass
sys.argv = [sys.argv[0], "--seed", "7"]
runpy.run_path({bot!r}, run_name="__main__")
"""


def match_forms(tmp_path: pathlib.Path) -> dict[str, str]:
    """Ways to write a match's COMMAND: the environment's script by its path, by its name on PATH, through a
    link, and a bot that leaves a mark wherever it runs unsandboxed."""
    folder = tmp_path / "escaper"
    folder.mkdir(exist_ok=True)
    shutil.copy(RANDOM_BOT, folder / "random_bot.py")  # in its own folder, which its sandbox shows it
    (folder / "escaper.py").write_text(
        ESCAPER.format(mark=str(tmp_path / "unsandboxed"), bot=str(folder / "random_bot.py")), encoding="utf-8"
    )
    (tmp_path / "links").mkdir(exist_ok=True)
    if not (tmp_path / "links" / "rookarena").exists():
        (tmp_path / "links" / "rookarena").symlink_to(SCRIPT)
    return {
        "venv-script": f"{SCRIPT} bot heuristic",
        "on-path": "rookarena bot random --seed 2",
        "linked": f"{tmp_path / 'links' / 'rookarena'} bot random --seed 4",
        "escaper": f"{sys.executable} {folder / 'escaper.py'}",
    }


@pytest.mark.parametrize(
    ("form_a", "form_b"), [("venv-script", "on-path"), ("on-path", "venv-script"), ("escaper", "linked")]
)
def test_an_isolated_match_runs_every_bot_process_in_its_sandbox(
    tmp_path: pathlib.Path, form_a: str, form_b: str
) -> None:
    if not SCRIPT.exists():
        pytest.skip(f"no {SCRIPT} (the package is not installed beside the tests' Python)")
    forms = match_forms(tmp_path)
    out = tmp_path / "out"
    options = ["--games", "2", "--seed", "3", "--isolation", "bwrap", "--move-time", "2", "--startup", "15"]
    done = subprocess.run(
        [sys.executable, "-m", "rookarena", "match", forms[form_a], forms[form_b], *options, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=tmp_path,
        env={**os.environ, "PATH": PATH},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    played = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(played) == 2 and all(record["faults"] == [] for record in played), [r["faults"] for r in played]
    # not for its hello either: the names come from hellos said in the sandbox
    assert not (tmp_path / "unsandboxed").exists(), (tmp_path / "unsandboxed").read_text()
