"""Records from someone else (a CI artifact) printed to a terminal: ``rookarena standings`` and ``rookarena
show`` write every string of a forged record printable, so that no name, rules' name, fault, game id or
comment can set the terminal's title, clear its screen or reverse its line."""

from __future__ import annotations

import copy
import json
import pathlib
import re
import tempfile
from typing import Any

import pytest
import web_games
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rookarena.cli import main
from rookarena.web import diff as diff_page
from rookarena.wire.transcript import Answer, Decision, DecisionKind

EVIL = "<img src=x>\x1b]0;PWNED\x07\x1b[2J\u202eevil"
CONTROLS = "\x00\x07\x08\x0b\x0c\r\n\t\x1b\x7f\x85\x9b\u061c\u200b\u200e\u200f\u2028\u2029"
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
NAMES = ["alpha", "beta", "gamma"]
PLAYED = web_games.league_records(NAMES, deals=1)
FORMATS = ["simple", "plain", "grid", "github", "html", "tsv", "latex", "rst"]

evil_texts = st.text(alphabet=st.sampled_from(CONTROLS + BIDI + "[]0;m<>&漢a\u0301 "), min_size=1, max_size=16)


def unsafe(text: str, tabs: bool = False) -> list[str]:
    """Every character of ``text`` that could drive a terminal or reorder its line (newlines aside)."""
    allowed = "\n\t" if tabs else "\n"
    return [ch for ch in text if ch not in allowed and not ch.isprintable()]


def forge(evil: str, replayable: bool = False) -> tuple[list[dict[str, Any]], list[str]]:
    """The league's records with ``evil`` in every string a reader shows: the names (seats, teams, the
    pairing), the game id, the rules' name and hash, the result's reason, every field of a fault (its
    bot, kind, detail, the line sent and the stderr it quotes) and a comment; ``replayable`` leaves out
    the fields a replay checks against the rules (the rules' name and hash, the reason), so that ``show``
    prints the game rather than refusing it."""
    names = {name: f"{name}{evil}{index}" for index, name in enumerate(NAMES)}
    played = copy.deepcopy(PLAYED)
    for record in played:
        record["seats"] = [names[name] for name in record["seats"]]
        record["teams"] = [names[name] for name in record["teams"]]
        record["league"]["pairing"] = sorted(names[name] for name in record["league"]["pairing"])
        record["league"]["name"] = f"web-test{evil}"
        record["game_id"] = f"{record['game_id']}{evil}"
        if not replayable:
            record["rules_name"] = f"tournament{evil}"
            record["rules_hash"] = f"c0ffee{evil}"
            record["result"]["reason"] = f"reached the target{evil}"
        first = record["hands"][0]
        record["faults"] = [
            {
                "seat": 0,
                "bot": record["seats"][0],
                "kind": f"timeout{evil}",
                "detail": f"no reply within 1 s{evil}",
                "line": f"play R5{evil}",
                "error": [f"Traceback{evil}", f"ValueError: {evil}"],
                "hand": 1,
                "decision": 0,
                "legal": [call["action"] for call in first["auction"][:1]],
            }
        ]
        record["comments"] = [{"seat": 0, "hand": 1, "decision": 0, "text": f"I pass{evil}"}]
    return played, [names[name] for name in NAMES]


def write(directory: pathlib.Path, evil: str, replayable: bool = False) -> list[dict[str, Any]]:
    played, names = forge(evil, replayable)
    web_games.write_dir(directory, played, names, deals=1)
    return played


def commands(directory: pathlib.Path, played: list[dict[str, Any]]) -> list[tuple[list[str], bool]]:
    """Every command line that prints these records, with whether its output is TSV (tabs between cells)."""
    out = [(["standings", str(directory), "--format", fmt], fmt == "tsv") for fmt in FORMATS]
    out += [(["standings", str(directory), "--wide"], False)]
    gid = played[0]["game_id"]
    out += [(["show", str(directory), gid], False)]
    out += [(["show", str(directory), gid, "--seat", str(seat)], False) for seat in range(4)]
    return out


def check(directory: pathlib.Path, evil: str) -> list[dict[str, Any]]:
    """Every command that prints the records forged with ``evil``, each printable: the standings of
    every string forged, and ``show`` of the records it prints (a forged rules' hash is refused, printable)."""
    runner = CliRunner()
    played = write(directory, evil)
    shown = write(directory.with_name(directory.name + "-shown"), evil, replayable=True)
    for args, tabs in commands(directory, played):
        if args[0] == "show":
            refused = runner.invoke(main, args)
            assert refused.exit_code == 1 and "rules_hash" in refused.output, (args, refused.output)
            assert unsafe(refused.output) == [], (args, refused.output)
            args = ["show", str(directory.with_name(directory.name + "-shown")), shown[0]["game_id"], *args[3:]]
        done = runner.invoke(main, args)
        assert done.exit_code == 0, (args, done.output)
        assert done.stdout.strip(), args
        assert unsafe(done.output, tabs) == [], (args, done.output)
    return played


def test_a_forged_record_is_printed_printable(tmp_path: pathlib.Path) -> None:
    played = check(tmp_path / "forged", EVIL)
    runner = CliRunner()
    escaped = "<img src=x>\\x1b]0;PWNED\\x07\\x1b[2J\\u202eevil"
    refused = runner.invoke(main, ["show", str(tmp_path / "forged"), played[0]["game_id"]]).output
    assert f"rules_hash: 'c0ffee{escaped}' is not the hash of the rules" in refused, refused
    shown = runner.invoke(main, ["show", str(tmp_path / "forged-shown"), played[0]["game_id"]]).stdout
    fields = ("alpha", "timeout", "no reply within 1 s", "ValueError: ")
    for field in fields:
        assert f"{field}{escaped}" in shown, (field, shown)
    assert '"I pass<img src=x>\\u001b]0;PWNED\\u0007\\u001b[2J\\u202eevil"' in shown  # quoted as JSON, then escaped
    assert f"game alpha-vs-beta-0001{escaped}" in shown
    table = runner.invoke(main, ["standings", str(tmp_path / "forged"), "--wide"]).stdout
    assert f"alpha{escaped}0" in table and f"timeout{escaped}" in table


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(evil=evil_texts)
def test_any_forged_text_is_printed_printable(evil: str) -> None:
    with tempfile.TemporaryDirectory() as base:
        check(pathlib.Path(base) / "forged", evil)


CARDS = {"deal", "nest", "discards", "cards", "rules"}  # read as cards (or knobs): a forged one is refused


def spoil(value: Any, key: str = "") -> Any:
    """``value`` with every string in it forged, those read as cards or rules aside."""
    if key in CARDS:
        return value
    if isinstance(value, str):
        return value + "\x1b[2J\u202e"
    if isinstance(value, list):
        return [spoil(item, key) for item in value]
    if isinstance(value, dict):
        return {name: spoil(item, name) for name, item in value.items()}
    return value


@pytest.mark.parametrize("seat", [None, 0, 1])
def test_every_string_of_a_record_forged_at_once(tmp_path: pathlib.Path, seat: int | None) -> None:
    """Every string of a record forged, even where a league writes a number (a hand's number, the seed, a
    seat), or a card forged: ``show`` refuses each record, which no longer replays, in one printable line
    that quotes what it found."""
    played = copy.deepcopy(PLAYED)
    record = spoil(played[0])
    record["hands"][0]["number"] = "1\x1b]0;PWNED\x07"
    record["seed"] = "7\u202e"
    record["first_dealer"] = 3
    cards = copy.deepcopy(played[1])  # only a card forged: the refusal quotes it
    cards["hands"][0]["deal"][0][0] = "R5\x1b[2J"
    directory = tmp_path / "spoiled"
    web_games.write_dir(directory, [record, cards, *played[2:]], NAMES, deals=1)
    seats = [] if seat is None else ["--seat", str(seat)]
    done = CliRunner().invoke(main, ["show", str(directory), record["game_id"], *seats])
    assert done.exit_code == 1 and "does not replay" in done.output, done.output
    assert unsafe(done.output) == [] and done.output.count("\n") == 1, done.output
    assert "\\x1b[2J\\u202e" in done.output
    refused = CliRunner().invoke(main, ["show", str(directory), cards["game_id"], *seats])
    assert refused.exit_code == 1 and "R5\\x1b[2J" in refused.output, refused.output
    assert unsafe(refused.output) == [], refused.output


def test_the_diff_text_is_printable() -> None:
    """``rookarena diff``'s text: the game ids, OLD's actions and comments and the reasons come from records."""
    view = {"hand": ["R5", "G7"], "auction": [], "bidder": None, "trump": None, "scores": [0, 0]}
    decision = Decision(
        game_id=f"g{EVIL}",
        seat=1,
        hand=1,
        trick=None,
        kind=DecisionKind.BID,
        legal=("pass", "bid 70"),
        view=view,
        old=f"pass{EVIL}",
        step=3,
        suspect=False,
        old_comment=f"said{EVIL}",
    )
    answers = [
        Answer(decision, "bid 70", comment=f"mine{EVIL}"),
        Answer(decision, None, fault=f"crash: {EVIL}"),
        Answer(decision, None, fault=f"skipped: after its crash{EVIL}"),
    ]
    summary = diff_page.summarize(new=f"new{EVIL}", new_hello=EVIL, old=f"old{EVIL}", games=1, answers=answers)
    text = diff_page.text(summary)
    assert unsafe(text) == [], text
    assert "g<img src=x>\\x1b]0;PWNED\\x07\\x1b[2J\\u202eevil" in text


@pytest.mark.parametrize("fmt", ["json"])
def test_json_stays_exact(tmp_path: pathlib.Path, fmt: str) -> None:
    """The machine format keeps every name exactly as the records hold it (JSON's escapes are no terminal's)."""
    played = write(tmp_path / "forged", EVIL)
    done = CliRunner().invoke(main, ["standings", str(tmp_path / "forged"), "--format", fmt])
    assert done.exit_code == 0, done.output
    assert unsafe(done.stdout) == []
    names = {row["bot"] for row in json.loads(done.stdout)["standings"]}
    assert names == {name for record in played for name in record["teams"]}


def test_show_lines_up_a_wide_name(tmp_path: pathlib.Path) -> None:
    """A name of wide characters (two columns each) keeps ``show``'s cards in one column."""
    from rookarena.wire.names import display_width

    names = ["漢字漢字", "beta"]
    played = web_games.league_records(names, deals=1)
    directory = web_games.write_dir(tmp_path / "wide", played, names, deals=1)
    shown = CliRunner().invoke(main, ["show", str(directory), played[0]["game_id"]]).stdout
    seats = [line for line in shown.splitlines() if line.startswith("  seat ") and "wins the bid" not in line]
    assert len(seats) >= 4 and any("漢字漢字" in line for line in seats), shown
    cards = [re.search(r" ([RGBY] \d|ROOK)", line) for line in seats[:4]]  # where each seat's cards begin
    starts = {display_width(line[: found.start(1)]) for line, found in zip(seats, cards, strict=False) if found}
    assert len(starts) == 1 and all(cards), "\n".join(seats[:4])
