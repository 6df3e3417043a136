"""The referee does exactly what PROTOCOL.md says: every row of the fault table (``contract_cases.py``)
is a real line sent by a real bot process in a real match, and gets the verdict, the message and the
check-bot advice the table gives; PROTOCOL.md §9 holds that table as rendered."""

from __future__ import annotations

import dataclasses
import pathlib
import sys
from typing import Any

import pytest
import trio
from conftest import ROOT, TEST_BOTS
from contract_cases import CASES, END, START, Case, markdown

from rookarena.arena.checkbot import _hello_warnings
from rookarena.arena.handshake import Probe, probe
from rookarena.arena.match import Match, MatchConfig
from rookarena.arena.specs import BotSpec, FaultPolicy, Limits, TimeControl
from rookarena.engine.presets import TOURNAMENT
from rookarena.wire.advice import diagnose, ignored_cause

SCRIPTED = (sys.executable, str(TEST_BOTS / "scripted_bot.py"))
OPPONENT = BotSpec("opponent", (sys.executable, "-m", "rookarena.randombot", "o"))
DOC = ROOT / "protocol" / "PROTOCOL.md"


@dataclasses.dataclass
class Outcome:
    record: dict[str, Any]
    ignored: list[str]
    hello_missing: tuple[str, ...]
    advice_from_probe: str = ""


async def play(case: Case, log_dir: pathlib.Path) -> Outcome:
    spec = BotSpec("scripted", (*SCRIPTED, case.when, case.line))
    startup = 1.5 if case.when == "noflush" else 5.0
    match = Match(
        MatchConfig(
            team_a=(spec, spec),
            team_b=(OPPONENT, OPPONENT),
            rules=TOURNAMENT,
            rules_name="tournament",
            games=1,
            seed=11,
            time=TimeControl(move=0.5, startup=startup),
            policy=FaultPolicy.FORFEIT,
            limits=Limits(startup=startup, grace=0.3),
            log_dir=log_dir,
            match_id=f"contract-{CASES.index(case)}",
        )
    )
    played: list[dict[str, Any]] = []
    await match.run(played.append)
    procs = [proc for proc in match.procs[:2] if proc is not None]
    ignored = [reason for proc in procs for reason in proc.ignored]
    missing = next((proc.hello.missing for proc in procs if proc.hello is not None), ())
    outcome = Outcome(played[0], ignored, missing)
    if case.when == "noflush":
        found = await probe(spec, 1.0)
        assert found.fault is not None
        outcome.advice_from_probe = found.fault.advice
    return outcome


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    log_dir = tmp_path_factory.mktemp("contract")
    results: dict[str, Outcome] = {}

    async def main() -> None:
        limiter = trio.CapacityLimiter(4)

        async def one(case: Case) -> None:
            async with limiter:
                results[case.name] = await play(case, log_dir)

        with trio.fail_after(120):
            async with trio.open_nursery() as nursery:
                for case in CASES:
                    nursery.start_soon(one, case)

    trio.run(main)
    return results


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_the_referee_gives_the_verdict_and_check_bot_the_advice_of_the_table(
    case: Case, outcomes: dict[str, Outcome]
) -> None:
    outcome = outcomes[case.name]
    record = outcome.record
    mine = {seat for seat in range(4) if record["seats"][seat] == "scripted"}
    faults = [fault for fault in record["faults"] if fault["seat"] in mine]
    assert all(fault["seat"] in mine for fault in record["faults"]), record["faults"]
    if case.verdict in ("accepted", "ignored"):
        assert faults == []
        assert record.get("forfeit") is None
        if case.verdict == "accepted":
            assert outcome.ignored == []
            if case.when == "hello":
                assert outcome.hello_missing == ("version", "protocol")
                hello = _hello_with(outcome.hello_missing)
                warnings = _hello_warnings(Probe(hello, None, 0.1), 10.0)
                assert [check.warning for check in warnings] == [True]
                assert "'protocol'" in warnings[0].detail
            return
        assert outcome.ignored, "the line should have been logged as ignored"
        assert any(case.detail in reason for reason in outcome.ignored), outcome.ignored
        assert all(case.advice in ignored_cause(reason).advice for reason in outcome.ignored)
        return
    assert faults, f"expected a {case.verdict} fault, got none"
    fault = faults[0]
    assert fault["kind"] == case.verdict, fault
    assert case.detail in fault["detail"], fault["detail"]
    for word in ("None", "Hello(", "Fault("):
        assert word not in fault["detail"]
    if case.when == "noflush":
        advice = outcome.advice_from_probe
    else:
        advice = diagnose(fault["kind"], fault["detail"], fault["line"], outcome.ignored).advice
    assert case.advice in advice, advice


def _hello_with(missing: tuple[str, ...]) -> Any:
    from rookarena.wire.conversation import Hello

    return Hello("x", "", True, missing)


def test_protocol_md_holds_the_fault_table_as_the_cases_render_it() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert START in text and END in text, "PROTOCOL.md §9 lacks the fault table's markers"
    shown = text[text.index(START) : text.index(END) + len(END)]
    assert shown == markdown(), "PROTOCOL.md §9 is out of date: paste the output of python tests/contract_cases.py"


def test_every_case_is_named_once_and_every_verdict_is_a_known_one() -> None:
    names = [case.name for case in CASES]
    assert len(names) == len(set(names))
    kinds = {"accepted", "ignored", "timeout", "crash", "malformed", "illegal", "protocol", "limit"}
    assert {case.verdict for case in CASES} <= kinds
