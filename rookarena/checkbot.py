"""``rookarena check-bot``: play a bot through every phase under several presets and grade it.

The bot plays both seats of one team against the packaged random bot, under the referee's own rules
and clock (so the checker is never stricter than a real match). Each game stops at the bot's first
fault, which is reported with the exact line it sent and advice for the common causes.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Sequence
from typing import Any

import trio

from rookarena.bots import BotSpec, Limits
from rookarena.presets import preset
from rookarena.referee import FaultPolicy, TimeControl
from rookarena.tournament import Match, MatchConfig

CHECK_PRESETS = ("tournament", "open-nest", "kentucky")
OPPONENT = (sys.executable, "-m", "rookarena.randombot")


@dataclasses.dataclass(frozen=True, slots=True)
class Check:
    name: str
    passed: bool
    detail: str
    advice: str = ""


ADVICE = {
    ("timeout", "hello"): "no hello after the referee's: does the bot flush stdout after each line "
    "(Python: print(..., flush=True); C: fflush(stdout))?",
    ("timeout", "reply"): "no reply within the deadline: does the bot flush stdout, and answer every 'act' "
    "request, not only the first?",
    ("malformed", ""): "every line on stdout must be one JSON object: write logs to stderr, not stdout",
    ("illegal", ""): "answer with one of the strings of the request's 'legal' list",
    ("limit", "line"): "a line without a newline: end every message with '\\n'",
    ("limit", "stderr"): "the bot writes too much to stderr: log less",
    ("limit", ""): "the bot used more than the league allows (see the limit named)",
    ("protocol", ""): "only send a hello after the referee's hello, and replies to 'act' requests",
    ("crash", ""): "the bot exited: see its stderr log for the error",
}


def advice_for(kind: str, detail: str) -> str:
    for (fault_kind, word), text in ADVICE.items():
        if fault_kind == kind and word in detail:
            return text
    return ""


async def check_bot(
    spec: BotSpec, *, games: int, seed: int, time: TimeControl, log_dir: Any, presets: Sequence[str] = CHECK_PRESETS
) -> list[Check]:
    checks: list[Check] = []
    opponent = BotSpec("rookarena-random", OPPONENT)
    for name in presets:
        rules = preset(name).rules
        played: list[dict[str, Any]] = []
        match = Match(
            MatchConfig(
                team_a=(spec, spec),
                team_b=(opponent, opponent),
                rules=rules,
                rules_name=name,
                games=games,
                seed=seed,
                time=time,
                policy=FaultPolicy.FORFEIT,
                limits=Limits(startup=time.startup, grace=1.0),
                log_dir=log_dir,
                withdraw_after=games + 1,
                match_id=f"check-{name}",
            )
        )
        await match.run(played.append)
        bot = match.procs[0]
        if name == presets[0] and bot is not None:
            if bot.hello is not None:
                hello = bot.hello
                view = "" if hello.view else "; declined the view"
                checks.append(Check("handshake", True, f"name {hello.name!r}, version {hello.version!r}{view}"))
            else:
                fault = bot.fault
                detail = str(fault) if fault else "no hello"
                checks.append(Check("handshake", False, detail, advice_for(fault.kind.value if fault else "", detail)))
                return checks
        checks.extend(_grade_games(name, played, spec.name))
        if bot is not None:
            checks.append(_grade_exit(name, bot.ended_by, bot.left_behind))
    return checks


def _grade_games(preset_name: str, played: list[dict[str, Any]], name: str) -> list[Check]:
    out = []
    phases: set[str] = set()
    for record in played:
        mine = [seat for seat in range(4) if record["seats"][seat] == name]
        for fault in record.get("faults", []):
            if fault["seat"] in mine:
                detail = f"game {record['game_id']}, hand {fault['hand']}: {fault['kind']}: {fault['detail']}"
                if fault["line"]:
                    detail += f"; the bot sent: {fault['line'][:300]!r}"
                out.append(Check(f"{preset_name}: game", False, detail, advice_for(fault["kind"], fault["detail"])))
        for hand in record["hands"]:
            if any(entry["seat"] in mine for entry in hand["auction"]):
                phases.add("bid")
            if hand.get("bidder") in mine:
                phases.update(("discard", "trump"))
            if any(hand.get("tricks", [])):
                phases.add("play")
    if not out:
        out.append(Check(f"{preset_name}: games", True, f"{len(played)} games without a fault"))
    missing = [phase for phase in ("bid", "discard", "trump", "play") if phase not in phases]
    if not out[0].passed:
        return out
    if missing:
        out.append(
            Check(
                f"{preset_name}: phases",
                True,
                f"never asked to {', '.join(missing)} (it never won an auction); "
                "run more games with --games to cover them",
            )
        )
    else:
        out.append(Check(f"{preset_name}: phases", True, "bid, discard, trump and play all exercised"))
    return out


def _grade_exit(preset_name: str, ended_by: str | None, left_behind: int) -> Check:
    if ended_by in ("exit", None) and left_behind:
        return Check(
            f"{preset_name}: exit",
            False,
            f"exited but left {left_behind} process(es) of its own running",
            "wait for (or kill) every child process before exiting",
        )
    if ended_by in ("exit", None):
        return Check(f"{preset_name}: exit", True, "exited on 'bye' / end of input")
    return Check(
        f"{preset_name}: exit",
        False,
        f"still running after 'bye' and end of input; stopped by {ended_by}",
        "exit when stdin reaches end of file or a 'bye' message arrives",
    )


def run(spec: BotSpec, **kwargs: Any) -> list[Check]:
    return trio.run(lambda: check_bot(spec, **kwargs))
