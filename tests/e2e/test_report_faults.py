"""The report's fault list places each fault on a request in the words of ``show``: a real league whose
bots answer illegally (one with markup in its line) or crash, its report, and the records beside it."""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys
from typing import Any

from conftest import ROOT, TEST_BOTS

from rookarena.wire import position, records

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
AUTHOR = TEST_BOTS / "author_bot.py"


def rookarena(*args: str, cwd: pathlib.Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "rookarena", *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=ENV, timeout=300, check=False)


def _blob(html: str) -> Any:
    found = re.search(r'<script type="application/json" id="rookarena-data">(.*?)</script>', html, re.S)
    assert found is not None
    return json.loads(found[1])


def test_the_report_says_where_each_fault_happened_as_show_does(tmp_path: pathlib.Path) -> None:
    bots = ["  - name: good", f"    command: [{sys.executable}, -m, rookarena.randombot, '1']"]
    for mode in ("lowercase", "markup", "crash2"):
        bots += [f"  - name: {mode}", f"    command: [{sys.executable}, {AUTHOR}, {mode}]"]
    config = tmp_path / "league.yaml"
    head = ["name: faulty", "games: 2", "seed: 5", "jobs: 1", "time: {move: 2, startup: 10}", "bots:"]
    config.write_text("\n".join([*head, *bots]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    ran = rookarena("run", str(config), "--out", str(out), cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert (out / "games.idx").exists()  # the report reads the index, then the faulted games' records again
    report = tmp_path / "report.html"
    made = rookarena("report", str(out), "-o", str(report), "--embed", "0", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    html = report.read_text(encoding="utf-8")
    assert "</script><b>" not in html  # the bot's line is in the page, escaped
    with (out / "games.jsonl").open(encoding="utf-8") as stream:
        by_id = {record["game_id"]: record for record in records.read(stream)}
    shown = _blob(html)["faults"]
    kinds = {fault["kind"] for fault in shown if fault["where"]}
    assert {"illegal", "crash"} <= kinds, shown
    placed = 0
    for fault in shown:
        record = by_id[fault["game"]]
        same = ("seat", "kind", "detail")
        (kept,) = [f for f in record["faults"] if all(f[key] == fault[key] for key in same)]
        assert fault["where"] == position.fault_where(record, kept)
        if "decision" not in kept:
            assert fault["where"] == ""
            continue
        placed += 1
        assert fault["where"].startswith(f"seat {kept['seat']} was asked to ") and " holding " in fault["where"]
        if kept["kind"] == "crash":
            assert fault["where"].endswith("gave no answer (crash)")
        else:
            assert fault["where"].endswith(f"answered {kept['line']!r}")
        text = rookarena("show", str(out), fault["game"], cwd=tmp_path)
        assert f"  at the fault: {fault['where']}\n" in text.stdout  # the words of show, exactly
    assert placed >= 3
    assert any("</script><b>play" in fault["where"] for fault in shown)
