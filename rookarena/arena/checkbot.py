"""``rookarena check-bot``: play a bot through every phase under several presets and grade it.

First the handshake probe of :mod:`rookarena.arena.handshake`: the bot is started alone, sent the referee's
hello and timed (a bot whose reply never came in a game is probed the same way, asked once). Then, for each
preset, the bot plays both seats of one team against the packaged random bot, under the referee's own rules and
clock (so the checker is never stricter than a real match). The opponents pass in odd hands, so that any bid
wins the auction, and take the bid at ``bid_max`` in even ones: a sane bot then meets every phase as bidder, as
the bidder's partner and as a defender (it wins an auction, discards, names trump, leads, follows, wins a trick
and plays the Rook). A phase never reached is a failure, not a pass. Each game stops at the bot's first fault,
which is reported with the exact line it sent and advice chosen by its cause (:mod:`rookarena.wire.advice`);
lines the referee ignored, slow starts and slow decisions are warnings.
"""

from __future__ import annotations

import dataclasses
import pathlib
import re
import sys
from collections.abc import Sequence
from typing import Any

from rookarena.arena import ownpackage, proctree
from rookarena.arena.bots import BotProcess, BotSpec
from rookarena.arena.handshake import BUFFERED, OPPONENT_NAME, SILENT, Probe, first_reply, probe
from rookarena.arena.match import Match, MatchConfig
from rookarena.arena.referee import FaultPolicy, TimeControl
from rookarena.arena.specs import Limits
from rookarena.engine.presets import preset
from rookarena.engine.rules import Rules
from rookarena.errors import RookError
from rookarena.wire.advice import Cause, diagnose, ignored_cause
from rookarena.wire.names import name_from_hello, printable
from rookarena.wire.position import asked, fault_part

CHECK_PRESETS = ("tournament", "open-nest", "kentucky")
OPPONENT = (sys.executable, "-m", "rookarena.randombot", "--mixed")
PHASES = (
    "call in the auction",
    "win an auction",
    "discard",
    "name trump",
    "play as the bidder's partner",
    "defend against the opponents' bid",
    "lead",
    "follow",
    "win a trick",
    "play the Rook",
)
CHECK_HANDS = 12  # hands per game at most
SLOW_START = 0.25  # of the startup deadline: a hello later than this is a warning
SLOW_MOVE = 0.5  # of the move time: a decision slower than this is a warning


@dataclasses.dataclass(frozen=True, slots=True)
class Check:
    name: str
    passed: bool
    detail: str
    advice: str = ""
    warning: bool = False  # passed, but fragile


@dataclasses.dataclass(frozen=True, slots=True)
class Card:
    """A report card: the name the bot is known by (its hello's, once it has said hello) and its checks."""

    name: str
    checks: list[Check]


async def check_bot(
    spec: BotSpec,
    *,
    games: int,
    seed: int,
    time: TimeControl,
    log_dir: pathlib.Path | None,
    presets: Sequence[str | tuple[str, Rules]] = CHECK_PRESETS,
) -> Card:
    """The bot's report card."""
    probed = await probe(spec, time.startup)
    checks: list[Check] = []
    hello = probed.hello
    if hello is None:
        cause = probed.fault or diagnose("timeout", "no hello")
        tail = f"; its stderr ended with: {probed.stderr_tail!r}" if probed.stderr_tail else ""
        checks.append(Check("handshake", False, cause.detail + tail, cause.advice))
        return Card(spec.name, checks)
    view = "" if hello.view else "; declined the view"
    checks.append(Check("handshake", True, f"name {hello.name!r}, version {hello.version!r}{view}"))
    checks.extend(_hello_warnings(probed, time.startup))
    # The hello is the bot's to write: its name may hold newlines or control characters, and it names the
    # games, the logs and the report's lines, so it is made a valid name first (as a league does).
    name = name_from_hello(hello.name)
    name = name if name != OPPONENT_NAME else f"{name}-2"
    spec = dataclasses.replace(spec, name=name)
    ignored: list[str] = []
    errors: list[str] = []  # an error line of the bot's stderr, for each preset that had one
    slowest = 0.0
    for entry in presets:  # a preset's name, or a league's rules and their name
        preset_name, rules = (entry, preset(entry).rules) if isinstance(entry, str) else entry
        played, procs, seen = await _play(spec, preset_name, rules, games, seed, time, log_dir)
        reply = (
            await first_reply(spec, preset_name, check_rules(rules), time, seed)
            if _awaited_a_reply(played, name, seen)
            else None
        )
        failures = _faults(preset_name, played, name, seen, procs, buffered=reply == BUFFERED, silent=reply == SILENT)
        checks.extend(failures)
        error = _stderr_error(procs)
        errors.extend([error] if error else [])
        if not failures:
            checks.append(Check(f"{preset_name}: games", True, f"{len(played)} games without a fault"))
            checks.append(_with_error(_phases(preset_name, played, name), error))
        # Every bot of these games is stopped: what is still re-parented here was left by the bot, though it
        # dropped its mark and left its session (a clean environment, then setsid).
        checks.extend(_exits(preset_name, procs, proctree.kill_strays()))
        ignored.extend(reason for reasons in seen.values() for reason in reasons)
        slowest = max([slowest, *(_slowest(record, name) for record in played)])
    checks.extend(_ignored_warnings(ignored))
    if errors and all(check.passed for check in checks):
        checks.append(
            Check(
                "stderr",
                True,
                f"the bot wrote errors on its stderr, such as {errors[0]!r}",
                "a bot that recovers from its own errors still plays worse: fix what its stderr shows "
                "(check-bot --logs DIR keeps it)",
                warning=True,
            )
        )
    if slowest > SLOW_MOVE * time.move and all(check.passed for check in checks):
        checks.append(
            Check(
                "decisions",
                True,
                f"the slowest took {slowest * 1000:.0f} ms of the {time.move * 1000:.0f} ms allowed",
                "a loaded machine can push a decision past its deadline: answer well within deadline_ms",
                warning=True,
            )
        )
    return Card(name, checks)


async def _play(
    spec: BotSpec,
    preset_name: str,
    rules: Rules,
    games: int,
    seed: int,
    time: TimeControl,
    log_dir: pathlib.Path | None,
) -> tuple[list[dict[str, Any]], list[BotProcess], dict[int, list[str]]]:
    """Play the games of one preset; return the records, the bot's processes and, by game index, the
    lines of the bot that the referee ignored during it."""
    # the opponent is this package's: run by this Python, which the bot's clean environment must not keep from it
    opponent = BotSpec(OPPONENT_NAME, OPPONENT, env={"PYTHONPATH": ownpackage.python_path(None, inherited=False)})
    played: list[dict[str, Any]] = []
    seen: dict[int, list[str]] = {}
    counted = [0, 0]
    procs: list[BotProcess] = []
    match = Match(
        MatchConfig(
            team_a=(spec, spec),
            team_b=(opponent, opponent),
            rules=check_rules(rules),
            rules_name=preset_name,
            games=games,
            seed=seed,
            time=time,
            policy=FaultPolicy.FORFEIT,
            limits=Limits(startup=time.startup, grace=1.0),
            log_dir=log_dir,
            withdraw_after=games + 1,
            match_id=f"check-{_safe(preset_name)}",
        )
    )

    def on_record(record: dict[str, Any]) -> None:
        reasons: list[str] = []
        for slot in (0, 1):
            proc = match.procs[slot]
            if proc is None:
                continue
            if proc not in procs:
                procs.append(proc)
                counted[slot] = 0
            reasons.extend(proc.ignored[counted[slot] :])
            counted[slot] = len(proc.ignored)
        seen[len(played)] = reasons
        played.append(record)

    await match.run(on_record)
    _opponent_played(played, match)
    return played, procs, seen


class CheckerError(RookError):
    """The checker's own opponent could not play: the bot was not checked."""


def _opponent_played(played: list[dict[str, Any]], match: Match) -> None:
    """Raise :class:`CheckerError` when the checker's opponent had a fault: the bot cannot be graded on games
    its opponent did not play (a fault of the checker's setup, never the bot's)."""
    for record in played:
        for fault in record.get("faults", []):
            if record["seats"][fault["seat"]] == OPPONENT_NAME:
                error = fault.get("error")
                tail = " | ".join(error) if isinstance(error, list) and error else ""
                tail = tail or _stderr_tail([proc for proc in match.procs[2:] if proc is not None])
                said = f"; its stderr says: {printable(tail)!r}" if tail else ""
                unimported = "No module named" in tail
                raise CheckerError(
                    f"check-bot's own opponent ({' '.join(OPPONENT[1:])}) could not play ({fault['kind']}: "
                    f"{fault['detail']}{said}), so the bot was not checked"
                    + (
                        ": run check-bot with a Python that imports rookarena without PYTHONPATH or PYTHONUSERBASE "
                        "(its virtual environment's, say)"
                        if unimported
                        else ""
                    )
                )


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in name)


def check_rules(rules: Rules) -> Rules:
    """The rules, stopped after ``CHECK_HANDS`` hands: enough for every phase to come up (and for the end
    of a game), without games that drag on when both teams keep failing their bids."""
    return dataclasses.replace(rules, hand_limit=min(rules.hand_limit, CHECK_HANDS))


def _hello_warnings(probed: Probe, startup: float) -> list[Check]:
    assert probed.hello is not None
    out = []
    if probed.hello.missing:
        fields = " and ".join(repr(field) for field in probed.hello.missing)
        out.append(
            Check(
                "hello",
                True,
                f"the hello has no {fields}; the referee tolerates it today, PROTOCOL.md §3 says not to rely on it",
                'send {"type":"hello","name":...,"version":...,"protocol":"rook/1"}',
                warning=True,
            )
        )
    if probed.seconds > SLOW_START * startup:
        out.append(
            Check(
                "start",
                True,
                f"the hello came after {probed.seconds:.1f} s of the {startup:g} s allowed",
                "a loaded machine can push a slow start past the startup deadline: load less before the hello",
                warning=True,
            )
        )
    out.extend(_ignored_warnings(list(probed.ignored)))
    return out


def _mine(record: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """The faults of the checked bot in a game, but for not exiting at the end (checked on its own)."""
    mine = [seat for seat in range(4) if record["seats"][seat] == name]
    return [f for f in record.get("faults", []) if f["seat"] in mine and not f["detail"].startswith("did not exit")]


def _awaited_a_reply(played: list[dict[str, Any]], name: str, seen: dict[int, list[str]]) -> bool:
    """Whether the bot's first fault is a reply that never came, with nothing of its output to explain it:
    no line it wrote without its newline, no line the referee ignored (a wrong id) in that game."""
    for index, record in enumerate(played):
        for fault in _mine(record, name):
            detail = fault["detail"]
            return (
                fault["kind"] == "timeout"
                and detail.startswith("no reply")
                and not fault["line"]
                and not seen.get(index)
            )
    return False


def _faults(
    preset_name: str,
    played: list[dict[str, Any]],
    name: str,
    seen: dict[int, list[str]],
    procs: list[BotProcess],
    *,
    buffered: bool = False,
    silent: bool = False,
) -> list[Check]:
    """The bot's first fault in each game that had one, as one failed check; ``buffered``: its replies
    were found to sit in its stdout buffer, which explains its timeouts; ``silent``: it was found never to
    answer a request at all (:func:`rookarena.arena.handshake.first_reply`), so no decision of its was late."""
    out = []
    for index, record in enumerate(played):
        for fault in _mine(record, name):
            first = (
                not silent
                and fault.get("hand") == 1
                and fault.get("decision") is not None
                and _first_ask(record, fault)
            )
            late = buffered and fault["kind"] == "timeout"
            cause = diagnose(
                fault["kind"],
                fault["detail"],
                fault["line"],
                seen.get(index, ()),
                first_decision=first,
                flushed_late=late,
            )
            detail = f"game {record['game_id']} (game {index + 1}), {faultplace(record, fault)}: {fault['kind']}: "
            detail += cause.detail
            if fault["line"]:
                detail += f"; the bot sent: {fault['line'][:300]!r}"
            error = fault.get("error") if fault["kind"] == "crash" else None
            tail = " | ".join(error) if isinstance(error, list) and error else ""
            if not tail and fault["kind"] == "crash":
                tail = _stderr_tail(procs)
            if tail:
                # The recorded lines are escaped already (wire.names.printable): quoted as they are, not again.
                detail += f'; its stderr says: "{printable(tail)}"'
            out.append(Check(f"{preset_name}: game", False, detail, cause.advice))
            break
    if len(out) > 1:
        first = out[0]
        more = f" (and faults in {len(out) - 1} more of the {len(played)} games)"
        return [dataclasses.replace(first, detail=first.detail + more)]
    return out


def faultplace(record: dict[str, Any], fault: dict[str, Any]) -> str:
    """``hand 2, asked to follow to B10 in trick 3``: where in the game a fault was."""
    where = f"hand {fault['hand']}"
    part = fault_part(record, fault)
    if part is not None:
        where += f", asked {asked(part, list(fault.get('legal') or []))}"
    return where


def _first_ask(record: dict[str, Any], fault: dict[str, Any]) -> bool:
    """Whether the fault was on its seat's first request of the game."""
    part = fault_part(record, fault)
    if part is None:
        return False
    return not any(call["seat"] == fault["seat"] for call in part.get("auction") or [])


def _stderr_tail(procs: list[BotProcess]) -> str:
    for proc in procs:
        lines = proc.stderr_tail.decode(errors="replace").strip().splitlines()
        if lines:
            return lines[-1][:200]
    return ""


ERROR_LINE = re.compile(
    r"Traceback \(most recent call last\)|\b\w*(?:Error|Exception)\b|panicked at|Segmentation fault"
)


def _stderr_error(procs: list[BotProcess]) -> str:
    """The last line of the bot's stderr (the tail kept of it) that reads as an error, or ""."""
    for proc in procs:
        for line in reversed(proc.stderr_tail.decode(errors="replace").splitlines()):
            if ERROR_LINE.search(line):
                return printable(line.strip()[:200])
    return ""


def _with_error(check: Check, error: str) -> Check:
    """A failed check, with the error the bot's stderr shows as its likely cause."""
    if check.passed or not error:
        return check
    advice = f"its stderr shows an error, which may be why: fix it first ({check.advice})"
    return dataclasses.replace(check, detail=f"{check.detail}; its stderr shows: {error!r}", advice=advice)


def _phases(preset_name: str, played: list[dict[str, Any]], name: str) -> Check:
    reached: set[str] = set()
    hands = 0
    for record in played:
        mine = {seat for seat in range(4) if record["seats"][seat] == name}
        for hand in record["hands"]:
            hands += 1
            if any(entry["seat"] in mine for entry in hand["auction"]):
                reached.add("call in the auction")
            if hand.get("bidder") is not None and hand["bidder"] not in mine:
                reached.add("defend against the opponents' bid")
            if hand.get("bidder") in mine:
                reached.add("win an auction")
                if (hand["bidder"] + 2) % 4 in mine and hand.get("tricks"):
                    reached.add("play as the bidder's partner")
                if hand.get("discards"):
                    reached.add("discard")
                if hand.get("trump"):
                    reached.add("name trump")
            for trick in hand.get("tricks", []):
                for position, card in enumerate(trick["cards"]):
                    if (trick["leader"] + position) % 4 in mine:
                        reached.add("lead" if position == 0 else "follow")
                        if card == "ROOK":
                            reached.add("play the Rook")
                if trick.get("winner") in mine:
                    reached.add("win a trick")
    missing = [phase for phase in PHASES if phase not in reached]
    if not missing:
        return Check(f"{preset_name}: phases", True, "; ".join(PHASES))
    detail = f"in {hands} hands the bot never did: {', '.join(missing)}"
    if "win an auction" in missing:
        advice = (
            "the opponents here pass in every other hand, where any bid wins the auction: a bot that never bids "
            "is never asked to discard or name trump, and cannot be checked; bid with a good hand"
        )
    else:
        advice = "run more games (--games) or another --seed so that every phase comes up"
    return Check(f"{preset_name}: phases", False, detail, advice)


def _exits(preset_name: str, procs: list[BotProcess], strays: int = 0) -> list[Check]:
    """How the bot's processes ended after 'bye', and ``strays``: the processes found left behind once
    they had all ended, outside their sessions and without their mark."""
    if strays:
        return [
            Check(
                f"{preset_name}: exit",
                False,
                f"left {strays} process(es) running after it was stopped (outside its session, without its mark)",
                diagnose("protocol", "exited leaving processes").advice,
            )
        ]
    told = [proc for proc in procs if proc.told_bye]  # the others were stopped for a fault named above
    if not told:
        return []
    for proc in told:
        if proc.ended_by not in ("exit", None):
            return [
                Check(
                    f"{preset_name}: exit",
                    False,
                    f"still running {proc.limits.grace:g} s after 'bye' and end of input; stopped by {proc.ended_by}",
                    diagnose("protocol", "did not exit").advice,
                )
            ]
        if proc.left_behind:
            return [
                Check(
                    f"{preset_name}: exit",
                    False,
                    f"exited but left {proc.left_behind} process(es) of its own running",
                    diagnose("protocol", "exited leaving processes").advice,
                )
            ]
    return [Check(f"{preset_name}: exit", True, "exited on 'bye' / end of input")]


def _ignored_warnings(reasons: list[str]) -> list[Check]:
    counts: dict[Cause, int] = {}
    for reason in reasons:
        cause = ignored_cause(reason)
        counts[cause] = counts.get(cause, 0) + 1
    return [
        Check("stdout", True, f"{count} line(s) ignored: {cause.detail}", cause.advice, warning=True)
        for cause, count in counts.items()
    ]


def _slowest(record: dict[str, Any], name: str) -> float:
    times = [
        timing.get("max", 0.0) / 1000
        for seat, timing in enumerate(record.get("timing", []))
        if record["seats"][seat] == name
    ]
    return max(times, default=0.0)
