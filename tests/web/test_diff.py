"""``rookarena diff``: a bot's recorded games replayed to another bot, with real processes throughout.

The games come from a real match whose OLD bot logs every line it received and sent
(``tests/bots/variant_bot.py``). That log is the independent truth: the lines NEW is sent must be the
same bytes, and the decisions where a variant must differ are computed from OLD's logged requests and
answers with the variant's one changed rule, not from the diff's own reconstruction.
"""

from __future__ import annotations

import copy
import json
import pathlib
import sys
from collections.abc import Iterator
from typing import Any

import pytest
import trio
from click.testing import CliRunner
from conftest import ROOT, TEST_BOTS

from rookarena.arena.differ import Diff, Differ
from rookarena.arena.specs import BotSpec, Limits, TimeControl, command_of
from rookarena.cli import main
from rookarena.web import diff as diff_page
from rookarena.wire import records, transcript
from rookarena.wire.names import printable
from rookarena.wire.transcript import Decision, DecisionKind, News

VARIANT = TEST_BOTS / "variant_bot.py"
HEURISTIC = f"{sys.executable} {ROOT / 'sample_bots' / 'python' / 'heuristic_bot.py'}"
RANDOM = f"{sys.executable} -m rookarena bot random"
RANDOM_PARTNER = f"{sys.executable} -m rookarena.randombot 4"  # the other packaged random bot
GAMES = 4  # two duplicate deal pairs
MOVE = 5.0  # seconds a decision: far more than any of these bots needs, however busy the machine


def variant(rule: str, logs: pathlib.Path | None = None) -> str:
    return f"{sys.executable} {VARIANT} {rule}" + (f" {logs}" if logs is not None else "")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[pathlib.Path, pathlib.Path]:
    """A match of OLD (the logging heuristic, team A) against the two seeded random bots (``rnd`` at team B's
    first seat, ``rookarena-random`` at its second): the results and OLD's logs."""
    out, logs = tmp_path_factory.mktemp("match"), tmp_path_factory.mktemp("old-logs")
    args = ["match", variant("same", logs), RANDOM, "--name-a", "old", "--name-b", "rnd", "--partner-b", RANDOM_PARTNER]
    options = ["--games", str(GAMES), "--seed", "3", "--move-time", str(MOVE), "--out", str(out)]
    result = CliRunner().invoke(main, [*args, *options])
    assert result.exit_code == 0, result.output
    return out, logs


def records_of(out: pathlib.Path) -> list[dict[str, Any]]:
    return list(records.read((out / "games.jsonl").read_text().splitlines()))


def run_diff(
    out: pathlib.Path, new: str, old: str = "old", move: float = MOVE, limit: int | None = None, grace: float = 1.0
) -> Diff:
    games = transcript.select(records_of(out), old, limit=limit)
    spec = BotSpec("new", command_of(new))
    return trio.run(Differ(spec, old, TimeControl(move=move), Limits(grace=grace)).run, games)


def conversations(logs: pathlib.Path) -> dict[int, list[str]]:
    """Each logged process's received lines, by program (0: the team's first seat, 1: its second)."""
    out = {}
    for path in logs.glob("*.log"):
        lines = path.read_text().splitlines()
        received = [line[2:] for line in lines if line.startswith("< ")]
        first_game = next(json.loads(line) for line in received if '"type":"game"' in line)
        out[first_game["seat"] // 2] = received
    return out


def exchanges(logs: pathlib.Path) -> Iterator[tuple[str, dict[str, Any], str]]:
    """Every request OLD was sent, with its game id and OLD's answer, from OLD's own logs."""
    for path in sorted(logs.glob("*.log")):
        game, request = "", None
        for line in path.read_text().splitlines():
            message = json.loads(line[2:]) if line[2:].strip() else {}
            if line.startswith("< ") and message.get("type") == "game":
                game = message["game"]
            elif line.startswith("< ") and message.get("type") == "act":
                request = message
            elif line.startswith("> ") and "action" in message and request is not None:
                assert message["id"] == request["id"]
                yield game, request, message["action"]
                request = None


def key(decision: Decision) -> tuple[str, int, int | None, int]:
    return (decision.game_id, decision.hand, decision.trick, decision.seat)


def request_key(game: str, request: dict[str, Any]) -> tuple[str, int, int | None, int]:
    view = request["view"]
    trick = len(view["tricks"]) + 1 if view["phase"] == "play" else None
    return (game, view["hand_number"], trick, view["seat"])


def lowest(legal: list[str], ranks: list[int]) -> str:
    """The changed rule, written again here: the lowest number led, the Rook highest, the first such."""
    return min(legal, key=lambda a: len(ranks) if a == "play ROOK" else ranks.index(int(a.split()[1][1:])))


def test_new_is_sent_exactly_the_lines_old_received(
    played: tuple[pathlib.Path, pathlib.Path], tmp_path: pathlib.Path
) -> None:
    out, old_logs = played
    result = run_diff(out, variant("same", tmp_path))
    assert not [a for a in result.answers if a.differs or a.fault]
    old, new = conversations(old_logs), conversations(tmp_path)
    assert set(old) == set(new) == {0, 1}
    for program in (0, 1):
        assert new[program] == old[program]  # hello, game, deal, news, every act with its id, game_over, bye
    assert old[0][-1] == '{"type":"bye"}'


def test_the_heuristic_against_itself_differs_nowhere(played: tuple[pathlib.Path, pathlib.Path]) -> None:
    out, logs = played
    result = run_diff(out, HEURISTIC)
    asked = {key(a.decision) for a in result.answers}
    assert asked == {request_key(game, request) for game, request, _ in exchanges(logs)}  # every decision of OLD's
    assert len(result.games) == GAMES
    assert not [a for a in result.answers if a.differs or a.fault]
    assert {a.decision.kind for a in result.answers} == set(DecisionKind)


def test_the_seeded_random_bots_against_themselves_differ_nowhere(played: tuple[pathlib.Path, pathlib.Path]) -> None:
    out, _ = played
    assert [seats for r in records_of(out) for seats in [transcript.seats_of(r, "rnd")]] == [[1], [0], [1], [0]]
    same = run_diff(out, RANDOM, old="rnd")
    assert same.answers and not [a for a in same.answers if a.differs or a.fault]
    partner = run_diff(out, RANDOM_PARTNER, old="rookarena-random")
    assert {a.decision.seat for a in partner.answers} == {2, 3}
    assert partner.answers and not [a for a in partner.answers if a.differs or a.fault]
    other = run_diff(out, f"{RANDOM} --seed 7", old="rnd", limit=1)  # the same bot seeded otherwise: not the same play
    assert len([a for a in other.answers if a.differs]) > 10


def test_a_changed_rule_differs_in_exactly_the_decisions_it_changes(played: tuple[pathlib.Path, pathlib.Path]) -> None:
    out, logs = played
    ranks = records_of(out)[0]["rules"]["ranks"]
    expected = {}
    for game, request, answer in exchanges(logs):
        view = request["view"]
        if view["phase"] == "play" and not view["trick"]:
            changed = lowest(request["legal"], ranks)
            if changed != answer:
                expected[request_key(game, request)] = (answer, changed)
    assert len(expected) >= 5
    result = run_diff(out, variant("lowest-lead"))
    found = {key(a.decision): (a.decision.old, a.action) for a in result.answers if a.differs}
    assert found == expected
    assert {a.decision.kind for a in result.answers if a.differs} == {DecisionKind.LEAD}
    again = run_diff(out, variant("lowest-lead"))
    assert again.answers == result.answers  # deterministic bots: the same diff every run


def test_one_process_plays_a_seat_across_games(played: tuple[pathlib.Path, pathlib.Path]) -> None:
    """A bot that changes its play from its process's second game on differs only there: NEW is not
    restarted between games, so it sees the history a process of OLD's saw."""
    out, _ = played
    result = run_diff(out, variant("history"))
    first = result.games[0]
    differing = {a.decision.game_id for a in result.answers if a.differs}
    assert differing and first not in differing
    assert result.restarts == 0


def test_new_gets_a_fresh_process_where_the_referee_started_one(tmp_path: pathlib.Path) -> None:
    """A league that cut its pairing into two runs, and an OLD that crashed in the first game of each
    (under faults: substitute the games go on): NEW's processes begin and end where OLD's did, and each
    process of OLD's that lived to the end of its run was sent exactly what the NEW process in its place was."""
    old_logs, new_logs = tmp_path / "old", tmp_path / "new"
    old_logs.mkdir()
    new_logs.mkdir()
    config = tmp_path / "league.yaml"
    old = [sys.executable, str(VARIANT), "crash-first:20", str(old_logs)]
    bots = [{"name": "old", "command": old}, {"name": "rnd", "command": command_of(RANDOM)}]
    settings = {"name": "split", "games": 4, "seed": 2, "jobs": 2, "faults": "substitute", "bots": bots}
    config.write_text(json.dumps({**settings, "time": {"move": MOVE, "startup": 10, "bank": 0}}))
    out = tmp_path / "results"
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(out)])
    assert result.exit_code == 0, result.output
    played = sorted(records_of(out), key=lambda record: str(record["game_id"]))
    lost = [[transcript.died(r, seat) for seat in transcript.seats_of(r, "old")] for r in played]
    assert lost == [[True, True], [False, False]] * 2  # the first game of each run (its seats 0 and 2)
    diff = CliRunner().invoke(main, ["diff", variant("same", new_logs), "old", "--from", str(out)])
    assert diff.exit_code == 0, diff.output

    def lives(logs: pathlib.Path) -> list[tuple[str, list[str]]]:
        out = []
        for path in logs.glob("*.log"):
            received = [line[2:] for line in path.read_text().splitlines() if line.startswith("< ")]
            out.append((next(json.loads(line)["game"] for line in received if '"type":"game"' in line), received))
        return sorted(out)

    old_lives, new_lives = lives(old_logs), lives(new_logs)
    starts = ["old-vs-rnd-0001", "old-vs-rnd-0002", "old-vs-rnd-0003", "old-vs-rnd-0004"]
    assert [first for first, _ in new_lives] == [first for first, _ in old_lives] == sorted(starts * 2)
    survivors = [i for i, (first, _) in enumerate(old_lives) if not first.endswith(("0001", "0003"))]
    assert len(survivors) == 4
    for i in survivors:
        assert new_lives[i] == old_lives[i]
    assert diff.output.count("skipped") == 1  # the column: NEW itself never failed


def test_a_crash_is_reported_at_its_decision_and_the_bot_restarted(played: tuple[pathlib.Path, pathlib.Path]) -> None:
    out, _ = played
    result = run_diff(out, variant("crash-at:5"), limit=2)
    skipped = {}
    for gid in result.games:
        for seat in (0, 1, 2, 3):
            mine = [a for a in result.answers if a.decision.game_id == gid and a.decision.seat == seat]
            if not mine:
                continue
            skipped[(gid, seat)] = len(mine) - 5
            assert all(a.fault is None for a in mine[:4])
            assert mine[4].fault is not None and mine[4].fault.startswith("crash: ")
            assert "crashing as asked" in mine[4].fault
            assert all(a.fault is not None and a.fault.startswith("skipped: ") for a in mine[5:])
    assert result.restarts == 2  # both programs, for the second game
    summary = diff_page.summarize(new="n", new_hello="", old="old", games=2, answers=result.answers)
    assert {(gid, seat): n for gid, seat, n, _ in summary.skipped} == skipped
    assert len(summary.faults) == len(skipped) == summary.counts[-1].faults


def test_an_illegal_answer_is_a_fault_of_that_decision_only(played: tuple[pathlib.Path, pathlib.Path]) -> None:
    out, _ = played
    result = run_diff(out, variant("illegal-at:3"))
    faults = [a for a in result.answers if a.fault is not None]
    assert len(faults) == 2  # the third request of each of the two processes, which play on
    assert all(a.fault is not None and a.fault.startswith("illegal: 'play B99'") for a in faults)
    assert all(a.action == "play B99" and not a.differs for a in faults)
    assert result.restarts == 0


def test_a_bot_that_never_starts_has_every_decision_skipped(played: tuple[pathlib.Path, pathlib.Path]) -> None:
    out, _ = played
    result = run_diff(out, f"{sys.executable} {TEST_BOTS / 'bad_bot.py'} crash-start", limit=1)
    assert result.answers and result.new_hello == ""
    assert {a.fault for a in result.answers} == {"skipped: crash: at startup: exited with status 3"}


@pytest.mark.slow
def test_a_timeout_is_reported_and_the_bot_restarted(played: tuple[pathlib.Path, pathlib.Path]) -> None:
    out, _ = played
    result = run_diff(out, variant("slow-at:2"), move=1.0, limit=2, grace=0.2)
    timeouts = [a for a in result.answers if a.fault is not None and a.fault.startswith("timeout: ")]
    assert len(timeouts) == 4  # each program's second request, in each game
    assert result.restarts == 2


def test_the_command_prints_counts_and_differences_and_writes_a_page(
    played: tuple[pathlib.Path, pathlib.Path], tmp_path: pathlib.Path
) -> None:
    out, _ = played
    page = tmp_path / "diff.html"
    args = ["diff", variant("lowest-lead"), "old", "--from", str(out), "--move-time", str(MOVE), "-o", str(page)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"NEW {variant('lowest-lead')!r} (variant lowest-lead) against OLD 'old': {GAMES} games")
    table = {line.split()[0]: line.split()[1:] for line in lines[2:9]}
    assert table["decision"] == ["total", "differ", "faults", "skipped"]
    assert table["bid"][1] == table["discard"][1] == table["trump"][1] == table["follow"][1] == "0"
    assert int(table["lead"][1]) == int(table["total"][1]) > 0
    differences = [line for line in lines if line.startswith("game ") and "(lead): OLD 'play " in line]
    assert len(differences) == int(table["total"][1])
    assert "trick empty" in result.output and "trump " in result.output
    html = page.read_text()
    assert '"kind":"diff"' in html and "Decision diff" in html  # the page's script is written into it
    args = ["diff", HEURISTIC, "old", "--from", str(out), "--game", "match-0002", "--move-time", str(MOVE)]
    same = CliRunner().invoke(main, args)
    assert same.exit_code == 0, same.output
    assert ": 1 games," in same.output and "no decision differs" in same.output
    # A match's directory keeps no clock: the diff says which it used, and that it was the defaults'.
    assert f"clock: {MOVE:g} s a move, a bank of 0 s, 10 s to start (the defaults where not given: " in same.output


@pytest.mark.parametrize("hostile", ["adv\nseat 0 (other) crash: forged", "bell\x07\x1b[31mred\u202e"])
def test_a_hostile_hello_reaches_the_output_only_escaped(
    hostile: str, played: tuple[pathlib.Path, pathlib.Path]
) -> None:
    out, _ = played
    named = f"{sys.executable} {TEST_BOTS / 'named_bot.py'} {hostile.encode().hex()}"
    result = CliRunner().invoke(main, ["diff", named, "old", "--from", str(out), "--game", "match-0001"])
    assert result.exit_code == 0, result.output
    assert all(ch.isprintable() or ch == "\n" for ch in result.output), repr(result.output)
    assert not any(line.startswith("seat 0 (other)") for line in result.output.splitlines())
    assert result.output.splitlines()[0].startswith(f"NEW {named!r} ({printable(hostile)} 1) against OLD 'old'")


def test_the_command_refuses_an_unknown_bot_or_game(played: tuple[pathlib.Path, pathlib.Path]) -> None:
    out, _ = played
    result = CliRunner().invoke(main, ["diff", HEURISTIC, "nobody", "--from", str(out)])
    assert result.exit_code == 2
    assert "no bot 'nobody'" in result.output and "'old'" in result.output and "'rnd'" in result.output
    result = CliRunner().invoke(main, ["diff", HEURISTIC, "old", "--from", str(out), "--game", "match-9999"])
    assert result.exit_code == 2 and "no game 'match-9999'" in result.output


def test_the_command_refuses_a_record_that_does_not_replay(
    played: tuple[pathlib.Path, pathlib.Path], tmp_path: pathlib.Path
) -> None:
    out, _ = played
    games = records_of(out)
    games[1]["hands"][0]["tricks"][0]["winner"] = (games[1]["hands"][0]["tricks"][0]["winner"] + 1) % 4
    (tmp_path / "games.jsonl").write_text("".join(records.dumps(record) + "\n" for record in games))
    result = CliRunner().invoke(main, ["diff", HEURISTIC, "old", "--from", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.startswith("Error: game 'match-0002' does not replay: hands[0].tricks[0].winner: ")
    assert "Traceback" not in result.output


# -- the pure part -------------------------------------------------------------------------------------


def test_a_forfeited_game_is_replayed_to_its_last_hand_then_ends_as_it_did(
    played: tuple[pathlib.Path, pathlib.Path],
) -> None:
    out, _ = played
    record = copy.deepcopy(records_of(out)[0])
    record["hands"] = record["hands"][:2]
    reason = "forfeit: seat 1 (rnd) crash: exited with status 1"
    record["result"] = {"winner": 0, "scores": record["hands"][-1]["scores"], "hands": 2, "reason": reason}
    record["forfeit"] = {"seat": 1, "team": 1, "kind": "crash"}
    record["faults"] = [
        {"seat": 1, "bot": "rnd", "kind": "crash", "detail": "exited with status 1", "line": "", "hand": 3}
    ]
    steps = list(transcript.script(record, [0, 2], "g"))
    decisions = [s for s in steps if isinstance(s, Decision)]
    assert {d.hand for d in decisions} == {1, 2}
    last = [json.loads(line) for s in steps if isinstance(s, News) and s.seat == 0 for line in s.data.splitlines()]
    assert last[-2]["type"] == "deal" and last[-2]["hand_number"] == 3
    assert last[-1] == {"type": "game_over", "winner": 0, "scores": record["hands"][-1]["scores"], "reason": reason}


def test_decisions_cover_every_action_of_the_seats_and_their_viewer_steps(
    played: tuple[pathlib.Path, pathlib.Path],
) -> None:
    out, _ = played
    record = records_of(out)[1]
    decisions = [s for s in transcript.script(record, [1, 3]) if isinstance(s, Decision)]
    actions: list[tuple[int, str]] = []  # (seat, action) of every action, in order, as the record has them
    for hand in record["hands"]:
        actions += [(call["seat"], call["action"]) for call in hand["auction"]]
        if hand["bidder"] is not None:
            actions += [(hand["bidder"], f"discard {card}") for card in hand["discards"]]
            actions.append((hand["bidder"], f"trump {hand['trump']}"))  # discard-then-trump
            for trick in hand["tricks"]:
                actions += [((trick["leader"] + i) % 4, f"play {card}") for i, card in enumerate(trick["cards"])]
    assert [(d.seat, d.old) for d in decisions] == [a for a in actions if a[0] in (1, 3)]
    first = record["hands"][0]
    opener = next(d for d in decisions if d.hand == 1)
    calls_before = [c["seat"] for c in first["auction"]].index(opener.seat)
    assert opener.step == calls_before  # the viewer's step 0 is the deal, then one step per action
    assert all(d.view["seat"] == d.seat and list(d.legal) and d.old in d.legal for d in decisions)


def test_the_text_lists_each_difference_with_the_view() -> None:
    view = {
        "seat": 2,
        "hand": ["R5", "G9", "ROOK"],
        "auction": [],
        "bidder": 2,
        "high_bid": 85,
        "trump": "G",
        "trick_leader": 1,
        "trick": ["Y9"],
        "counters": [10, 25],
        "scores": [120, -80],
        "nest": None,
        "discards": None,
    }
    decision = Decision("g-1", 2, 3, 4, DecisionKind.FOLLOW, ("play R5", "play ROOK"), view, "play R5", 40, False)
    other = Decision("g-1", 0, 3, 4, DecisionKind.FOLLOW, ("play R5",), view, "play R5", 42, True)
    answers = [
        transcript.Answer(decision, "play ROOK"),
        transcript.Answer(other, None, "crash: exited with status 3"),
        transcript.Answer(other, None, "skipped: NEW faulted earlier in this game (crash)"),
    ]
    summary = diff_page.summarize(new="new", new_hello="v 1", old="old", games=1, answers=answers)
    assert [(c.kind, c.decisions, c.differ, c.faults, c.skipped) for c in summary.counts][-2:] == [
        ("follow", 3, 1, 1, 1),
        ("total", 3, 1, 1, 1),
    ]
    text = diff_page.text(summary)
    assert "game g-1 hand 3 trick 4 seat 2 (follow): OLD 'play R5', NEW 'play ROOK'" in text
    assert "hand R5 G9 ROOK; bid 85 by seat 2; trump G; trick 1:Y9; counters 10 to 25; scores 120 to -80" in text
    assert "game g-1 hand 3 trick 4 seat 0 (follow): OLD 'play R5', NEW crash: exited with status 3" in text
    assert "game g-1 seat 0: 1 decisions: NEW faulted earlier in this game (crash)" in text
    assert "2 decisions were played by the referee in OLD's place" in text
    data = diff_page.page_data(summary, {"g-1": {"game_id": "g-1"}})
    assert data["diff"]["differences"][0]["step"] == 40 and data["diff"]["differences"][0]["embedded"]
    assert list(data["records"]) == ["g-1"]


@pytest.mark.parametrize("command", ["diff", "report", "replay"])
@pytest.mark.parametrize("where", ["missing-folder", "a-folder", "a-new-folder/"])
def test_a_page_that_cannot_be_written_is_said_before_any_work(
    played: tuple[pathlib.Path, pathlib.Path], tmp_path: pathlib.Path, command: str, where: str
) -> None:
    """-o where no file can be made (a folder that does not exist, a path that is a folder): one usage line
    before any game is read or replayed, no bot started, nothing left behind."""
    out, _ = played
    page = {"missing-folder": str(tmp_path / "missing" / "page.html"), "a-folder": str(tmp_path)}.get(
        where, f"{tmp_path / 'missing'}/"
    )
    game = records_of(out)[0]["game_id"]
    args = {
        "diff": ["diff", f"{sys.executable} -c 'raise SystemExit(7)'", "old", "--from", str(out)],
        "report": ["report", str(out)],
        "replay": ["replay", str(out), game],
    }[command]
    result = CliRunner().invoke(main, [*args, "-o", page])
    assert result.exit_code == 2, result.output
    said = ("cannot be written", "is a directory", "names a folder")
    assert any(words in result.output for words in said), result.output
    assert "Traceback" not in result.output and not (tmp_path / "missing").exists()
