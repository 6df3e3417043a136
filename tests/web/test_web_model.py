"""The report's data, the page's JSON embedding, the game as text, and the three commands."""

from __future__ import annotations

import json
import pathlib
import random
import re
import subprocess
import sys
from typing import Any

import fault_games
import pytest
import web_games
from click.testing import CliRunner

from rookarena.cli import main
from rookarena.engine.presets import preset
from rookarena.results import export, gamesindex, standings
from rookarena.web import index, model, page, sources, text
from rookarena.wire import position, records

NAMES = ["alpha", "beta", "gamma"]


@pytest.fixture
def league_dir(tmp_path: pathlib.Path) -> tuple[pathlib.Path, list[dict[str, Any]]]:
    played = web_games.league_records(NAMES, deals=3)
    directory = tmp_path / "results"
    directory.mkdir()
    (directory / "logs").mkdir()
    web_games.add_fault(played, directory, 2, 1)
    web_games.write_dir(directory, played, NAMES, deals=3)
    return directory, played


def test_standings_rows_are_the_standings_json(league_dir: tuple[pathlib.Path, list[dict[str, Any]]]) -> None:
    directory, played = league_dir
    found = sources.load([directory])
    data = model.report_data(found.records, found.info, found.tails)
    expected = export.standings_json(standings.standings(played))["standings"]
    assert data["standings"]["rows"] == json.loads(json.dumps(expected))
    keys = [column["key"] for column in data["standings"]["columns"]]
    assert keys == list(expected[0])
    assert all(column["help"] for column in data["standings"]["columns"])


def test_the_report_keeps_the_anchors_of_league_json(league_dir: tuple[pathlib.Path, list[dict[str, Any]]]) -> None:
    directory, played = league_dir
    meta = json.loads((directory / "league.json").read_text())
    meta["anchors"] = {"beta": 25}
    (directory / "league.json").write_text(json.dumps(meta))
    found = sources.load([directory])
    rows = {row["bot"]: row for row in model.report_data(found.records, found.info, found.tails)["standings"]["rows"]}
    assert rows["beta"]["rating"] == {"elo": 25.0, "error": 0.0} and rows["beta"]["anchor"]
    expected = export.standings_json(standings.standings(played, anchors={"beta": 25.0}))["standings"]
    assert {row["bot"]: row["rating"] for row in expected} == {bot: row["rating"] for bot, row in rows.items()}


def test_an_added_column_is_labelled_by_its_key() -> None:
    columns = model.columns([{"rank": 1, "bot": "x", "new_figure": 2.5}])
    assert columns[2] == {"key": "new_figure", "label": "new_figure", "help": model.UNKNOWN_COLUMN}


def test_league_info_rules_and_command(league_dir: tuple[pathlib.Path, list[dict[str, Any]]]) -> None:
    directory, _ = league_dir
    found = sources.load([directory])
    league = model.report_data(found.records, found.info, found.tails)["league"]
    assert league["name"] == "web-test"
    assert league["format"] == "round-robin"
    assert league["games"] == 18 and league["planned_games"] == 18
    assert league["seed"] == "1"
    assert league["rules"]["preset"] == "tournament"
    assert league["rules"]["differences"] == []
    assert f"rookarena run {directory / 'config.yaml'} --out {directory}" in league["command"]
    assert league["duration_seconds"] is not None and league["duration_seconds"] >= 0


def test_knobs_that_differ_from_the_preset_are_listed() -> None:
    record = web_games.league_records(NAMES[:2], deals=1)[0]
    record["rules"] = {**record["rules"], "target": 500}
    record["rules_name"] = "tournament+"
    info = model.rules_info(record)
    assert info["preset"] == "tournament"
    assert info["differences"] == [{"knob": "target", "value": 500, "preset": 300}]


def test_faults_carry_the_end_of_the_bots_log(league_dir: tuple[pathlib.Path, list[dict[str, Any]]]) -> None:
    directory, played = league_dir
    found = sources.load([directory])
    faults = model.report_data(found.records, found.info, found.tails)["faults"]
    assert len(faults) == 1
    fault = faults[0]
    assert fault["game"] == played[2]["game_id"] and fault["kind"] == "timeout" and fault["hand"] == 1
    assert fault["log"]["name"].startswith(played[2]["seats"][1])
    assert fault["log"]["lines"][0].endswith("log line 11 <b>&amp;</b>")
    assert len(fault["log"]["lines"]) == sources.TAIL_LINES


def test_crosstable_marks_intervals_that_exclude_half() -> None:
    played = web_games.league_records(NAMES[:2], deals=6)
    for record in played:  # alpha wins every game
        team = record["teams"].index("alpha")
        record["result"] = {**record["result"], "winner": team}
    cross = model.crosstable(played, ["alpha", "beta"])
    cell = cross["cells"][0][1]
    assert cell["wins"] == 12 and cell["significant"] and cell["lo"] > 0.5
    assert cross["cells"][1][0]["significant"] and cross["cells"][1][0]["hi"] < 0.5
    even = model.crosstable(web_games.league_records(NAMES[:2], deals=1), ["alpha", "beta"])
    assert not even["cells"][0][1]["significant"]


def test_neighbours_are_the_standings_neighbours() -> None:
    played = web_games.league_records(NAMES, deals=3)
    rows = standings.standings(played)
    data = model.neighbours(played, rows)
    pairs = standings.neighbours(played, [row.name for row in rows])
    assert [(d["higher"], d["lower"], d["games"]) for d in data] == [(p.a, p.b, p.games) for p in pairs]
    ranks = {row.name: row.rank for row in rows}
    assert [d["ranks"] for d in data] == [[ranks[p.a], ranks[p.b]] for p in pairs]
    for d, p in zip(data, pairs, strict=True):
        assert p.duplicate is not None
        assert d["diff"] == {"kind": "dup", "value": p.duplicate.mean, "lo": p.duplicate.lo, "hi": p.duplicate.hi}
        assert d["apart"] == (p.duplicate.lo > 0 or p.duplicate.hi < 0)
    assert model.neighbours(played, rows[:2]) == []  # two entries: a match says it all


def test_the_cap_keeps_faulted_closest_and_lopsided_games() -> None:
    played = web_games.league_records(NAMES, deals=5)
    played[7]["faults"] = [{"seat": 0, "bot": "x", "kind": "crash", "detail": "", "line": "", "hand": 1}]
    links = model.partners(played)
    summaries = [model.game_summary(r, i, links.get(model.game_id(r, i))) for i, r in enumerate(played)]
    digest = index.digest(played)
    plan = index.embed_plan(digest, 8)
    chosen = [digest.ids[p] for p in plan.positions]
    assert len(chosen) == 8 and not plan.note["all"] and plan.note["total"] == 30
    assert played[7]["game_id"] in chosen and links[played[7]["game_id"]] in chosen
    margins = sorted(s["margin"] for s in summaries if not s["faults"])
    kept = [s["margin"] for s in summaries if s["id"] in chosen and not s["faults"]]
    assert margins[0] in kept and margins[-1] in kept
    assert index.embed_plan(digest, 100).note["all"]


def test_script_json_cannot_end_the_script_element() -> None:
    blob = page.script_json({"detail": "</script><script>alert(1)</script> & <!--", "n": 1})
    assert "</" not in blob and "<!--" not in blob and "&" not in blob
    assert json.loads(str(blob)) == {"detail": "</script><script>alert(1)</script> & <!--", "n": 1}


def test_the_page_is_self_contained(league_dir: tuple[pathlib.Path, list[dict[str, Any]]]) -> None:
    directory, _ = league_dir
    found = sources.load([directory])
    html = page.render(model.report_data(found.records, found.info, found.tails), "a <title>")
    assert "<title>a &lt;title&gt;</title>" in html
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "<link" not in html and "@import" not in html
    assert html.count("</script>") == 3  # the data and the two scripts


def _views_by_hand(record: dict[str, Any]) -> list[list[Any]]:
    """For each hand, the engine's view of every seat once the hand's last decision is made (before
    the score), replayed through the engine from the record's deals."""
    return [hand[-1] for hand in web_games.engine_views(record)]


@pytest.mark.parametrize("preset_name", ["tournament", "open-nest"])
def test_show_for_a_seat_holds_only_what_its_view_holds(preset_name: str) -> None:
    played = web_games.league_records(NAMES[:2], deals=2, rules=preset(preset_name).rules)
    for record in played:
        record["rules_name"] = preset_name
        views = _views_by_hand(record)
        for seat in range(4):
            shown = text.game_text(record, seat=seat)
            blocks = shown.split("\n\nhand ")[1:]
            assert len(blocks) == len(record["hands"])
            for hand, block, seen in zip(record["hands"], blocks, views, strict=True):
                known = {str(c) for c in hand["deal"][seat]} | {c for t in hand.get("tricks", []) for c in t["cards"]}
                v = seen[seat]
                known |= {str(c) for c in v.nest or ()} | {str(c) for c in v.discards or ()}
                if v.nest is None:
                    assert text.hand_text(hand["nest"], record["rules"]) not in block
                lines = [line for line in block.splitlines() if line.startswith(("  seat", "  discards"))]
                cards = set()
                for line in lines:
                    for group in re.findall(r"([RGBY]) ((?:\d+ ?)+)", line):
                        cards |= {f"{group[0]}{n}" for n in group[1].split()}
                assert cards <= known, (seat, hand["number"], sorted(cards - known))


def test_show_everything_lists_every_card() -> None:
    record = web_games.league_records(NAMES[:2], deals=1)[0]
    shown = text.game_text(record)
    assert text.hand_text(record["hands"][0]["nest"], record["rules"]) in shown
    assert f"result: {record['teams'][record['result']['winner']]} wins" in shown


def test_commands(league_dir: tuple[pathlib.Path, list[dict[str, Any]]], tmp_path: pathlib.Path) -> None:
    directory, played = league_dir
    runner = CliRunner()
    out = tmp_path / "r.html"
    result = runner.invoke(main, ["report", str(directory), "-o", str(out), "--embed", "4"])
    assert result.exit_code == 0, result.output
    assert "18 games, 4 embedded" in result.output and out.stat().st_size > 10_000
    gid = played[0]["game_id"]
    result = runner.invoke(main, ["replay", str(directory), gid, "-o", str(tmp_path / "g.html")])
    assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["show", str(directory), gid, "--seat", "2"])
    assert result.exit_code == 0 and result.output.startswith(f"game {gid}:")
    result = runner.invoke(main, ["show", str(directory), "nope"])
    assert result.exit_code == 2 and "no game 'nope'" in result.output and "Traceback" not in result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(main, ["report", str(empty)])
    assert result.exit_code == 1 and "no games.jsonl" in result.output


def test_report_with_an_sprt_for_a_match(tmp_path: pathlib.Path) -> None:
    played = web_games.league_records(NAMES[:2], deals=4)
    directory = tmp_path / "match"
    directory.mkdir()
    with (directory / "games.jsonl").open("w", encoding="utf-8") as stream:
        for record in played:
            records.write(stream, record)
    result = CliRunner().invoke(main, ["report", str(directory), "--sprt", "0", "50"])
    assert result.exit_code == 0, result.output
    html = (directory / "report.html").read_text(encoding="utf-8")
    blob = json.loads(re.search(r'id="rookarena-data">(.*?)</script>', html, re.S).group(1))  # type: ignore[union-attr]
    head = blob["match"]
    assert head["a"] == "alpha" and len(head["running"]) == 8
    assert [p["games"] for p in head["sprt"]["points"]] == [2, 4, 6, 8]
    assert head["sprt"]["lower"] < 0 < head["sprt"]["upper"]
    assert "neither the commands" in blob["league"]["command"]


@pytest.mark.slow
def test_report_of_a_real_match(tmp_path: pathlib.Path) -> None:
    """End to end: a match between real bot processes, then the three commands as a user runs them."""
    bot = f"{sys.executable} -m rookarena.randombot"
    run = [sys.executable, "-m", "rookarena"]
    subprocess.run(
        [*run, "match", f"{bot} 1", f"{bot} 2", "--games", "2", "--out", str(tmp_path)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    report = subprocess.run([*run, "report", str(tmp_path)], capture_output=True, text=True, timeout=60, check=True)
    assert "2 games, 2 embedded" in report.stdout
    ids = model.game_ids(records.read((tmp_path / "games.jsonl").read_text(encoding="utf-8").splitlines()))
    shown = subprocess.run(
        [*run, "show", str(tmp_path), ids[0]], capture_output=True, text=True, timeout=60, check=True
    )
    assert "trick  1" in shown.stdout


def test_a_seats_view_leaves_out_fault_details_that_name_cards() -> None:
    record = web_games.league_records(NAMES[:2], deals=1)[0]
    detail = "illegal 'play B13': seat 1 does not hold B13 (holds R6, G6, G7)"
    record["faults"] = [{"seat": 1, "bot": "beta", "kind": "illegal", "detail": detail, "line": "play B13", "hand": 1}]
    record["result"] = {**record["result"], "reason": f"forfeit: seat 1 (beta) illegal: {detail}"}
    assert detail in text.game_text(record)
    for seat in (0, 2, 3):
        shown = text.game_text(record, seat=seat)
        assert "holds" not in shown and "play B13" not in shown
        assert "fault: seat 1 (" in shown


TIME = re.compile(r"(?<=[(, ])-(?=[,) ])|(\d+\.\d)(?: ms)?(\*?)")


@pytest.mark.parametrize("preset_name", ["tournament", "open-nest", "kentucky"])
def test_show_prints_each_decisions_time_beside_it(preset_name: str) -> None:
    rng = random.Random(preset_name)
    for record in web_games.league_records(NAMES[:2], deals=2, rules=preset(preset_name).rules):
        times = web_games.add_times(record, rng)
        # show prints a hand's discards before its trump, whichever the bidder decided first
        later = {"trump": 1, "play": 2}
        printed = sorted(
            zip(web_games.decisions(record), times, strict=True),
            key=lambda made: (made[0][0], later.get(made[0][2].split()[0], 0)),
        )
        expected = [value for _, value in printed]
        for seat in (None, 1):
            shown = text.game_text(record, seat=seat)
            assert "times: the milliseconds each decision took" in shown
            body = shown.split("\n\nhand ", 1)[1]
            found = [(None if m[0] == "-" else float(m[1]), m[2] == "*") for m in TIME.finditer(body)]
            assert [value for value, _ in found] == [None if v is None else float(v) for v in expected]
            assert [starred for _, starred in found] == [v == 987.6 for v in expected]
        trick = next(line for line in shown.splitlines() if line.startswith("  trick  1"))
        hand = record["hands"][0] if record["hands"][0]["bidder"] is not None else record["hands"][1]
        assert trick.split()[2].split(":")[0] == str(hand["tricks"][0]["leader"])


def test_show_of_a_record_without_times_prints_none() -> None:
    record = web_games.league_records(NAMES[:2], deals=1)[0]
    shown = text.game_text(record)
    assert " ms" not in shown and "times:" not in shown
    record["decision_ms"] = "garbled"
    assert text.game_text(record) == shown


def test_show_marks_the_slowest_of_the_decisions_it_shows() -> None:
    record = web_games.league_records(NAMES[:2], deals=1)[0]
    web_games.add_times(record, random.Random(3))
    record["decision_ms"][2].append(5000)  # a forfeit's last decision: in no recorded hand
    shown = text.game_text(record)
    assert "5000.0" not in shown and len(re.findall(r"987\.6(?: ms)?\*", shown)) == 1


def test_the_fault_list_places_a_fault_in_the_words_of_show_from_a_record_or_an_index_digest() -> None:
    record = fault_games.forfeited("tournament", 3, 23)
    record["faults"][0]["line"] = '{"id":1,"action":"</script><b>x</b>"}'
    where = position.fault_where(record, record["faults"][0])
    assert where.startswith(f"seat {record['faults'][0]['seat']} was asked to ")
    assert f"  at the fault: {where}\n" in text.game_text(record)
    (fault,) = model.faults(index.digest([record]), {})
    assert fault["where"] == where
    slim = index.Digest()
    slim.add(gamesindex.slim(record), "g")
    assert slim.unplaced() == [0] and model.faults(slim, {})[0]["where"] == ""
    slim.place({0: record})
    assert slim.unplaced() == [] and model.faults(slim, {})[0]["where"] == where
    html = str(page.script_json({"faults": model.faults(slim, {})}))
    assert "</script><b>" not in html and json.loads(html)["faults"][0]["where"] == where
