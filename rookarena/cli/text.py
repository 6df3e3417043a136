"""Text for people: values in, strings out. Nothing here prints."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from rookarena.engine.presets import Preset
from rookarena.engine.rules import KNOBS
from rookarena.players.simulate import Summary
from rookarena.results import tables
from rookarena.results.stats import EloDifference
from rookarena.results.store import GameResult


def rules_yaml(preset: Preset) -> str:
    """Every knob of a preset as YAML (JSON scalars and flow collections are YAML) with comments."""
    lines = [f"# {preset.name}: {preset.description}", f"preset: {preset.name}"]
    for key, value in preset.rules.to_mapping().items():
        knob = KNOBS[key]
        lines.append(f"{key}: {_flow(value)}  # {knob.help}; {knob.allowed}")
    return "\n".join(lines) + "\n"


def _flow(value: Any) -> str:
    if isinstance(value, str) and value.replace("-", "").isalpha() and value not in ("true", "false", "null"):
        return value
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def presets_list(presets: list[Preset]) -> str:
    width = max(len(p.name) for p in presets)
    return "\n".join(f"{p.name:<{width}}  {p.description}" for p in presets) + "\n"


def simulation_summary(summary: Summary, seconds: float) -> str:
    made = f"{summary.bids_made} of {summary.bids}"
    if summary.bids:
        made += f" ({100 * summary.bids_made / summary.bids:.1f}%)"
    rows = [
        ("games", summary.games),
        ("hands", f"{summary.hands} ({summary.redeals} redealt)"),
        ("average bid", f"{summary.average_bid:.1f}"),
        ("bids made", made),
        ("wins team 0 (seats 0, 2)", summary.wins[0]),
        ("wins team 1 (seats 1, 3)", summary.wins[1]),
        ("draws at the hand limit", summary.draws),
        ("hands per second", f"{summary.hands / seconds:,.0f}" if seconds > 0 else "-"),
    ]
    return tables.tabulate(rows, tablefmt="plain") + "\n"


def game_line(record: dict[str, Any], name_a: str, done: int, total: int) -> str:
    """One line of progress after a game of a match."""
    result = record["result"] or {}
    winner = result.get("winner")
    seats = record["seats"]
    outcome = "drawn" if winner is None else f"{seats[winner]} wins"
    faults = record.get("faults", [])
    note = f", {len(faults)} fault(s): {faults[0]['bot']} {faults[0]['kind']}" if faults else ""
    scores = result.get("scores", [0, 0])
    a_team = 0 if seats[0] == name_a else 1
    return (
        f"game {done}/{total}: {outcome}, {scores[a_team]} to {scores[1 - a_team]} "
        f"(A at seats {'0,2' if a_team == 0 else '1,3'}){note}"
    )


def report_card(name: str, checks: list[Any], log_note: str) -> str:
    """The check-bot verdict: one line per check (PASS, WARN or FAIL), advice under each failure and warning."""
    failing = [check for check in checks if not check.passed]
    # The first line says the first failure's cause: what to change, and where PROTOCOL.md says so.
    lines = [f"check-bot {name}" + (f": {failing[0].advice or failing[0].detail}" if failing else "")]
    for check in checks:
        mark = "FAIL" if not check.passed else "WARN" if getattr(check, "warning", False) else "PASS"
        lines.append(f"  {mark}  {check.name}: {check.detail}")
        if mark != "PASS" and check.advice:
            lines.append(f"        advice: {check.advice}")
    failed = sum(not check.passed for check in checks)
    warned = sum(check.passed and getattr(check, "warning", False) for check in checks)
    if failed:
        verdict = f"NOT compliant: {failed} check(s) failed"
    elif warned:
        verdict = f"compliant, with {warned} warning(s)"
    else:
        verdict = "compliant"
    lines.append(f"{name}: {verdict} ({log_note})")
    return "\n".join(lines)


def match_faults(results: list[GameResult], a: str, b: str) -> str:
    """``faults: new crash 3, timeout 1 (in 4 of 240 games); old none``: each side's faults by kind."""
    parts = []
    for name in (a, b):
        kinds: Counter[str] = Counter()
        games = 0
        for g in results:
            if name not in g.teams:
                continue
            team = g.teams.index(name)
            mine = [kind for faulty, kind in g.faults if faulty == team]
            kinds.update(mine)
            games += bool(mine)
        if kinds:
            listed = tables.faults_text(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
            parts.append(f"{name} {listed} (in {games} of {len(results)} games)")
        else:
            parts.append(f"{name} none")
    return "faults: " + "; ".join(parts)


def fixed_verdict(elo: EloDifference) -> str:
    """The fixed-sample verdict that ``--at-cap fixed`` takes for an undecided test: the 95% Elo interval."""
    interval = f"Elo {_signed(elo.elo)} [{_signed(elo.lo)}, {_signed(elo.hi)}]"
    answer = "NEW is worse (the whole interval below 0)" if elo.hi < 0 else "NEW is not shown worse"
    return f"at the cap (--at-cap fixed): the fixed-sample verdict, {interval}: {answer}"


def _signed(value: float) -> str:
    """``+12.3``, ``-inf``: one decimal, signed, never ``-0.0``."""
    return f"{round(value, 1) + 0.0:+.1f}"
