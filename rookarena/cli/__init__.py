"""The command line. The only module that prints or reads YAML; everything else is called from here."""

from __future__ import annotations

import dataclasses
import itertools
import json
import logging
import os
import pathlib
import secrets
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from rookarena.arena import proctree
from rookarena.cli import text as report
from rookarena.engine.presets import PRESETS, preset, resolve
from rookarena.engine.rules import Rules
from rookarena.errors import RookError
from rookarena.players.simulate import random_game, summarize
from rookarena.results import directory as results
from rookarena.results import sprt as sequential
from rookarena.results import standings, tables
from rookarena.results.standings import GameResult, Record
from rookarena.wire import records
from rookarena.wire.names import name_from_hello, name_problem
from rookarena.wire.records import derive_seed

from .gate import check_cap, exit_status, status_line

if TYPE_CHECKING:
    from rookarena.arena.bots import BotSpec
    from rookarena.arena.config import LeagueConfig
    from rookarena.arena.match import Match

# The commands that run bots import trio, the referee and the league runner when they run, so that the
# views of the results (show, report, standings) and --help start without them.
FAULT_POLICIES = ("forfeit", "substitute")  # rookarena.arena.referee.FaultPolicy's values (a test keeps them equal)
ISOLATIONS = ("none", "bwrap")  # rookarena.arena.isolation.CHOICES (a test keeps them equal)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rookarena")
def main() -> None:
    """Referee and tournament runner for computer Rook."""


@main.group()
def rules() -> None:
    """List and show the rule presets."""


@rules.command("list")
def rules_list() -> None:
    """One preset a line: its name, then what it is."""
    click.echo(report.presets_list(list(PRESETS.values())), nl=False)


@rules.command("show")
@click.argument("name")
def rules_show(name: str) -> None:
    """Every knob of preset NAME as YAML that can be edited and passed back with --rules FILE."""
    try:
        found = preset(name)
    except RookError as exc:
        raise click.BadParameter(str(exc), param_hint="NAME") from None
    click.echo(report.rules_yaml(found), nl=False)


WIDE_HELP = (
    "Every column of the standings (the CSV and JSON files always have them all). The default table "
    "shows: # rank; bot; games; score % (a draw counts half); Elo: Bradley–Terry rating relative to "
    "the table's mean, ± its 95% half-width; dup diff: the mean point difference per deal pair (own "
    "minus opponent's final score, both games summed) ± its 95% t half-width; faults (when any): "
    "the most frequent kind and its count, +N for other kinds. --wide adds wins, losses, draws, "
    "the score's 95% Wilson interval, points "
    "for and against per game, bids won, made %, sets, average bid and the faults by kind. With "
    "duplicate deals every ± counts deal pairs as the units; the line under the table says so."
)


def load_rules(spec: str) -> tuple[str, Rules]:
    """A preset name, or a YAML file holding ``preset:`` and knob overrides."""
    path = pathlib.Path(spec)
    if spec in PRESETS or not (path.suffix in (".yaml", ".yml", ".json") or path.exists()):
        try:
            return resolve(spec)
        except RookError as exc:
            raise click.BadParameter(f"{exc}, or a YAML rules file", param_hint="--rules") from None
    import yaml  # noqa: PLC0415

    try:
        data: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise click.BadParameter(f"cannot read {spec!r}: {exc.strerror}", param_hint="--rules") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{spec}:{mark.line + 1}" if mark is not None else spec
        raise click.ClickException(f"{where}: not valid YAML: {getattr(exc, 'problem', exc)}") from None
    try:
        return resolve(data if data is not None else {})
    except RookError as exc:
        raise click.ClickException(f"{spec}: {exc}") from None


def _table_format(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """A tabulate table format, or a usage error naming the choices (the default needs no check, and no
    import of tabulate before the games)."""
    if value == "simple":
        return value
    import tabulate  # noqa: PLC0415 - imported only when a format must be checked

    if value not in tabulate.tabulate_formats:
        raise click.BadParameter(f"{value!r}: expected one of {', '.join(sorted(tabulate.tabulate_formats))}")
    return value


def _table_or_json(ctx: click.Context, param: click.Parameter, value: str) -> str:
    return value if value == "json" else _table_format(ctx, param, value)


def _name_option(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A bot's name given on the command line: it becomes part of game ids and file names."""
    problem = None if value is None else name_problem(value)
    if problem is not None:
        raise click.BadParameter(f"{value!r} cannot be a name: {problem}")
    return value


def _match_out(out_dir: pathlib.Path) -> results.ResultsLock:
    """Lock a match's results directory, refusing one that holds a league's or another match's games."""
    lock = results.ResultsLock(out_dir)
    try:
        lock.acquire()
        if (out_dir / results.PLAN_FILE).exists():
            raise results.ResultsError(f"{out_dir} holds a league's results: use another --out")
        games = out_dir / results.GAMES_FILE
        if games.exists() and games.stat().st_size > 0:
            raise results.ResultsError(f"{out_dir} already holds the games of another match: use another --out")
    except RookError as exc:
        lock.release()
        raise click.ClickException(str(exc)) from None
    return lock


@main.command()
@click.option("--rules", "rules_spec", default="tournament", show_default=True, help="Preset name or YAML file.")
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True, help="Games to play.")
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    help="Seed of the deals and the players (default: drawn from the OS, and printed).",
)
@click.option("--out", type=click.Path(dir_okay=False, writable=True), help="Write the records here (JSON lines).")
def simulate(rules_spec: str, games: int, seed: int | None, out: str | None) -> None:
    """Play whole games between random players in-process; print a summary, optionally keep the records."""
    name, rules_value = load_rules(rules_spec)
    drawn = seed is None
    seed = secrets.randbits(records.SEED_BITS) if seed is None else seed
    batch = []
    stream = open(out, "w", encoding="utf-8") if out else None  # noqa: SIM115
    started = time.perf_counter()
    try:
        for index in range(games):
            record = random_game(rules_value, derive_seed(seed, index), name)
            batch.append(record)
            if stream is not None:
                records.write(stream, record)
    finally:
        if stream is not None:
            stream.close()
    seconds = time.perf_counter() - started
    click.echo(f"rules: {name} ({rules_value.digest})")
    if drawn:
        click.echo(f"seed: {seed} (drawn; replay the same games with --seed {seed})")
    click.echo(report.simulation_summary(summarize(batch), seconds), nl=False)
    if out:
        click.echo(f"records: {out}")


@main.command()
@click.argument("command_a")
@click.argument("command_b")
@click.option("--partner-a", help="A different program for team A's second seat.")
@click.option("--partner-b", help="A different program for team B's second seat.")
@click.option("--name-a", callback=_name_option, help="Name of team A's bot (default: from the command).")
@click.option("--name-b", callback=_name_option, help="Name of team B's bot (default: from the command).")
@click.option("--games", type=click.IntRange(min=1), default=2, show_default=True, help="Games to play.")
@click.option(
    "--seed", type=click.IntRange(min=0), help="Seed of the deals (default: drawn from the OS, and printed at the end)."
)
@click.option(
    "--isolation",
    "isolation_kind",
    type=click.Choice(ISOLATIONS),
    default="none",
    show_default=True,
    help="bwrap: run every bot in a bubblewrap sandbox of its own (docs/league.md §8).",
)
@click.option("--rules", "rules_spec", default="tournament", show_default=True, help="Preset name or YAML file.")
@click.option(
    "--move-time", type=click.FloatRange(min=0.001), default=1.0, show_default=True, help="Seconds per decision."
)
@click.option(
    "--bank", type=click.FloatRange(min=0), default=0.0, show_default=True, help="Extra seconds per game and seat."
)
@click.option(
    "--startup",
    type=click.FloatRange(min=0.001),
    default=10.0,
    show_default=True,
    help="Seconds to start and say hello.",
)
@click.option(
    "--faults",
    type=click.Choice(FAULT_POLICIES),
    default="forfeit",
    show_default=True,
    help="A fault forfeits the game, or a random legal action is substituted.",
)
@click.option(
    "--duplicate/--no-duplicate", default=True, show_default=True, help="Play each deal twice, seats swapped."
)
@click.option("--out", type=click.Path(file_okay=False), help="Directory for games.jsonl and the bots' stderr logs.")
@click.option(
    "--sprt",
    nargs=2,
    type=float,
    metavar="ELO0 ELO1",
    help="Stop as soon as a sequential test accepts H0: elo = ELO0 or H1: elo = ELO1 (A over B; ELO0 < ELO1, "
    "finite, within ±1000). Over deal pairs with duplicate deals, over games without.",
)
@click.option(
    "--sprt-points",
    nargs=2,
    type=float,
    metavar="D0 D1",
    help="Stop as soon as a sequential test on A's point difference per deal pair (both games summed, skew-"
    "corrected) accepts H0: mean = D0 or H1: mean = D1 (D0 < D1, within ±10000). Needs duplicate deals; not with "
    "--sprt.",
)
@click.option(
    "--alpha",
    type=float,
    default=0.05,
    show_default=True,
    help="The test's chance of accepting H1 when H0 is true; 0 < alpha, alpha + beta < 1.",
)
@click.option(
    "--beta",
    type=float,
    default=0.05,
    show_default=True,
    help="The test's chance of accepting H0 when H1 is true; 0 < beta, alpha + beta < 1.",
)
@click.option(
    "--at-cap",
    type=click.Choice(["undecided", "fixed"]),
    default="undecided",
    show_default=True,
    help="When the test has not decided after --games: exit 4 (undecided), or take the fixed-sample verdict "
    "(the 95% Elo interval, as without a test).",
)
@click.option("--fail-on-faults", is_flag=True, help="Exit 5 when NEW (A) had a fault in any game, unless shown worse.")
@click.option(
    "--holdout",
    is_flag=True,
    help="Deals nobody chose: a seed drawn from the OS, its SHA-256 printed before the first game, the seed "
    "at the end.",
)
@click.option("--wide", is_flag=True, help=WIDE_HELP)
@click.option("-v", "--verbose", count=True, help="Log bot traffic (-vv for every line).")
def match(
    command_a: str,
    command_b: str,
    partner_a: str | None,
    partner_b: str | None,
    name_a: str | None,
    name_b: str | None,
    games: int,
    seed: int | None,
    isolation_kind: str,
    rules_spec: str,
    move_time: float,
    bank: float,
    startup: float,
    faults: str,
    duplicate: bool,
    out: str | None,
    sprt: tuple[float, float] | None,
    sprt_points: tuple[float, float] | None,
    alpha: float,
    beta: float,
    at_cap: str,
    fail_on_faults: bool,
    holdout: bool,
    wide: bool,
    verbose: int,
) -> None:
    """Play COMMAND_A (team A, seats 0 and 2) against COMMAND_B (team B) and print who won what.

    Each command is one string, split as a shell would: for example 'python3 bot.py --level 2'. For
    regression tests A is the new version and B the old: the summary gives A's win rate and Elo
    difference with 95% intervals, the likelihood that A is stronger, and the paired difference over
    duplicate deals. With duplicate deals every interval and test counts deal pairs, not games.

    \b
    The summary ends with the question asked, its answer, each side's faults
    and the exit status:
      0  A is not shown worse: the test accepted H1, or accepted H0 with
         ELO1 (D1) > 0 ("not shown better"); without a test (or undecided with
         --at-cap fixed) when the 95% Elo interval reaches 0
      1  an error (Error: ...)
      2  a usage error, such as invalid --sprt bounds, or a --games too small
         for the test ever to decide (checked before any game)
      3  A is shown worse: the test accepted H0 and ELO1 (D1) <= 0, as with
         --sprt -10 0 ("is A worse?"); without a test (or undecided with
         --at-cap fixed), the whole 95% Elo interval is below 0
      4  the test did not decide within --games (without --at-cap fixed);
         the points test also when A forfeited a deal pair before its first hand
      5  with --fail-on-faults: A had a fault in some game (and is not shown worse)
      130  stopped by Ctrl-C or SIGTERM
    """
    from rookarena.arena.bots import Limits  # noqa: PLC0415 (see FAULT_POLICIES)
    from rookarena.arena.match import Match, MatchConfig  # noqa: PLC0415
    from rookarena.arena.referee import FaultPolicy, TimeControl  # noqa: PLC0415

    from .stopping import StopRequestedError, ignore_stop_signals, run_trio, until_signal  # noqa: PLC0415

    _logging(verbose)
    if duplicate and games % 2:
        raise click.BadParameter(
            f"expected an even number with --duplicate (each deal is played twice), got {games}", param_hint="--games"
        )
    test = _sequential_test(sprt, sprt_points, alpha, beta, duplicate)
    warning = check_cap(test, games) if test is not None else None
    if warning is not None:
        click.echo(warning, err=True)
    out_dir = pathlib.Path(out) if out else None
    lock = _match_out(out_dir) if out_dir is not None else None
    name, rules_value = load_rules(rules_spec)
    a, b, a2, b2 = _hello_names(
        [
            (_spec(command_a, name_a, "a"), name_a is not None),
            (_spec(command_b, name_b, "b"), name_b is not None),
            (_spec(partner_a, None, "a2") if partner_a else None, False),
            (_spec(partner_b, None, "b2") if partner_b else None, False),
        ],
        startup,
    )
    assert a is not None and b is not None
    if a.name == b.name:
        a, b = dataclasses.replace(a, name=a.name + "-a"), dataclasses.replace(b, name=b.name + "-b")
    team_a = (a, a2 if a2 is not None and a2.command != a.command else a)
    team_b = (b, b2 if b2 is not None and b2.command != b.command else b)
    if holdout and seed is not None:
        raise click.BadParameter("a held-out match draws its own seed: give --holdout or --seed, not both")
    drawn = seed is None
    seed = secrets.randbits(records.SEED_BITS) if seed is None else seed
    if holdout:
        click.echo(f"holdout: the deals' seed is committed as sha256 {records.seed_commitment(seed)}", err=True)
    if isolation_kind == "bwrap":
        team_a, team_b = _isolated_teams(team_a, team_b, out_dir)
        if records.guessable(seed):
            click.echo(_guessable_warning(seed, "--seed"), err=True)
    config = MatchConfig(
        team_a=team_a,
        team_b=team_b,
        rules=rules_value,
        rules_name=name,
        games=games,
        seed=seed,
        duplicate=duplicate,
        time=TimeControl(move=move_time, bank=bank, startup=startup),
        policy=FaultPolicy(faults),
        limits=Limits(startup=startup),
        log_dir=out_dir,
        names=(a.name, b.name),
    )
    played: list[dict[str, Any]] = []
    sink = results.RecordSink(out_dir / results.GAMES_FILE) if out_dir else None

    decision: list[sequential.SPRTResult] = []
    # The test's running sums: O(1) per finished game or deal pair. A pair's first game waits in `pending`.
    tally = [test.start()] if test is not None else []
    pending: list[dict[str, Any]] = []

    def on_record(record: dict[str, Any]) -> None:
        played.append(record)
        if sink is not None:
            sink.write(record)
        click.echo(report.game_line(record, a.name, len(played), games), err=True)
        if not tally or decision:
            return
        if tally[0].test.model is sequential.Model.TRINOMIAL:
            game = standings.game_result(record)
            tally[0] = tally[0].add_game(game.score if game.teams[0] == a.name else 1 - game.score)
        elif not pending:
            pending.append(record)
            return
        else:
            first = pending.pop()
            outcome = standings.pair_outcome(first, record, a.name)
            if outcome is None:
                return  # not a pair
            if outcome[1] is None and tally[0].test.model is sequential.Model.POINTS:
                # A game forfeited before its first hand: no points. NEW's forfeit stops the points test
                # deciding at all (it must not pass by crashing); OLD's leaves the pair out.
                if not _faulted([first, record], a.name):
                    return
                tally[0] = tally[0].add_forfeit()
            else:
                tally[0] = tally[0].add_pair(outcome[0], outcome[1] or 0.0)
        result = tally[0].result()
        if result.decision is not None:
            decision.append(result)
            click.echo(f"test decided after {len(played)} games", err=True)
            runner.stop()

    runner = Match(config)
    try:
        run_trio(until_signal, runner.run, on_record)
    except StopRequestedError:
        ignore_stop_signals()
        click.echo(f"interrupted after {len(played)} of {games} games", err=True)
        raise SystemExit(130) from None
    finally:
        # every bot is stopped: what is still re-parented to this process was left by one of them
        proctree.kill_strays()
        if sink is not None:
            sink.close()
        if lock is not None:
            lock.release()
    _never_started(played, runner)
    click.echo(results.standings_text(played, "simple", crosstable=False, wide=wide, width=_columns()))
    summary = standings.head_to_head(played, a.name, b.name)
    outcome = decision[0] if decision else tally[0].result() if tally else None
    click.echo("")
    click.echo(tables.match_summary(summary, outcome))
    fixed = sequential.Outcome.WORSE if summary.elo.hi < 0 else sequential.Outcome.NOT_WORSE
    if outcome is None:
        found = fixed
        click.echo("question: is NEW worse than OLD? (the whole 95% Elo interval below 0)")
        worse = found is sequential.Outcome.WORSE
        click.echo(f"answer: {'yes: NEW is worse' if worse else 'no: NEW is not shown worse'}")
    else:
        found = sequential.verdict(outcome).outcome
        if found is sequential.Outcome.UNDECIDED and at_cap == "fixed":
            found = fixed
            click.echo(report.fixed_verdict(summary.elo))
    results_played = standings.game_results(played)
    click.echo(report.match_faults(results_played, a.name, b.name))
    status = exit_status(found, _faulted(played, a.name), fail_on_faults)
    click.echo(status_line(status))
    if out_dir is not None:
        click.echo(f"records: {out_dir / 'games.jsonl'}")
    _seed_closing(seed, drawn, "--seed")
    if holdout:
        click.echo(f"holdout: seed {seed} is the one committed as sha256 {records.seed_commitment(seed)}", err=True)
    if status:
        raise SystemExit(status)


def _faulted(played: Sequence[dict[str, Any]], name: str) -> bool:
    """Whether ``name`` had a fault in any of the records ``played``."""
    for g in standings.each_result(played):
        if name in g.teams and any(faulty == g.teams.index(name) for faulty, _ in g.faults):
            return True
    return False


def _isolated_teams(
    team_a: tuple[BotSpec, BotSpec], team_b: tuple[BotSpec, BotSpec], out_dir: pathlib.Path | None
) -> tuple[tuple[BotSpec, BotSpec], tuple[BotSpec, BotSpec]]:
    """Both teams' programs under bubblewrap, each team hidden from the other's files and the records."""
    from rookarena.arena import isolation  # noqa: PLC0415 (see FAULT_POLICIES)

    try:
        isolation.check()
    except RookError as exc:
        raise click.ClickException(str(exc)) from None

    def shut(team: tuple[BotSpec, BotSpec], other: tuple[BotSpec, BotSpec]) -> tuple[BotSpec, BotSpec]:
        hidden = isolation.hidden_paths(out_dir, None, other)
        # each game in new processes, as in a league: a kept process would remember deals it meets again
        first, second = (dataclasses.replace(isolation.isolate(spec, hidden), per_game=True) for spec in team)
        return first, second

    return shut(team_a, team_b), shut(team_b, team_a)


def _sequential_test(
    sprt: tuple[float, float] | None,
    points: tuple[float, float] | None,
    alpha: float,
    beta: float,
    duplicate: bool,
) -> sequential.SequentialTest | None:
    """The test `match` runs, checked before any game: one line and exit status 2 for a bad argument."""
    if sprt is not None and points is not None:
        raise click.BadParameter("use --sprt or --sprt-points, not both", param_hint="--sprt-points")
    if points is not None and not duplicate:
        raise click.BadParameter("the points test counts deal pairs: drop --no-duplicate", param_hint="--sprt-points")
    try:
        sequential.check_error_rates(alpha, beta)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--alpha/--beta") from None
    if sprt is None and points is None:
        return None
    model = sequential.Model.POINTS
    if sprt is not None:
        model = sequential.Model.PENTANOMIAL if duplicate else sequential.Model.TRINOMIAL
    bounds = sprt if sprt is not None else points
    assert bounds is not None
    try:
        return sequential.SequentialTest(model, bounds[0], bounds[1], alpha, beta)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--sprt" if sprt is not None else "--sprt-points") from None


def _columns() -> int:
    """The terminal's width (80 when it cannot be told), for fitting the standings."""
    return shutil.get_terminal_size((80, 24)).columns


@main.command("check-bot")
@click.argument("command")
@click.option("--games", type=click.IntRange(min=1), default=4, show_default=True, help="Games per preset.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the deals.")
@click.option(
    "--move-time", type=click.FloatRange(min=0.001), default=2.0, show_default=True, help="Seconds per decision."
)
@click.option(
    "--startup", type=click.FloatRange(min=0.001), default=10.0, show_default=True, help="Seconds to say hello."
)
@click.option("--logs", type=click.Path(file_okay=False), help="Keep the bot's stderr logs in this directory.")
def check_bot(command: str, games: int, seed: int, move_time: float, startup: float, logs: str | None) -> None:
    """Play COMMAND through every phase under several presets and print a report card.

    The bot plays both seats of one team against the packaged random bot, which passes in the auction
    whenever it may, so that the bot wins auctions; every phase (win an auction, discard, name trump,
    lead, follow, play the Rook) must come up under each preset. Faults fail, with advice by cause;
    fragile behaviour (answering twice, a slow start, a hello missing fields) warns. Exits 0 only when
    the bot is compliant (warnings allowed).
    """
    from rookarena.arena import checkbot  # noqa: PLC0415 - not imported for run, which needs none of it
    from rookarena.arena.referee import TimeControl  # noqa: PLC0415

    spec = _spec(command, None, "bot")
    with tempfile.TemporaryDirectory(prefix="rookarena-check-") as scratch:
        log_dir = pathlib.Path(logs) if logs else pathlib.Path(scratch)
        log_dir.mkdir(parents=True, exist_ok=True)
        card = checkbot.run(
            spec, games=games, seed=seed, time=TimeControl(move=move_time, startup=startup), log_dir=log_dir
        )
    note = f"stderr logs in {log_dir}" if logs else "--logs DIR keeps the bot's stderr logs"
    click.echo(report.report_card(card.name, card.checks, note))
    if not all(check.passed for check in card.checks):
        raise SystemExit(1)


@main.command()
@click.argument("config_file", metavar="CONFIG", type=click.Path(exists=True, dir_okay=False))
@click.option("--jobs", type=click.IntRange(min=1), help="Games in parallel (default: the config's, else CPU count).")
@click.option("--out", type=click.Path(file_okay=False), help="Results directory (default: results/NAME).")
@click.option("--resume", is_flag=True, help="Continue a league in --out, skipping its finished games.")
@click.option("--shard", metavar="K/N", help="Run only the K-th of N disjoint slices of the games.")
@click.option(
    "--format", "fmt", default="simple", show_default=True, callback=_table_format, help="Any tabulate table format."
)
@click.option("--wide", is_flag=True, help=WIDE_HELP)
@click.option("--dry-run", is_flag=True, help="Print the plan (pairings, units, games, deals) and play nothing.")
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    help="Seed of the deals, instead of the configuration's (with none there, one is drawn from the OS, or the "
    "recorded one is kept by --resume).",
)
@click.option(
    "--holdout",
    is_flag=True,
    help="Play deals nobody chose: a seed drawn from the OS, whatever the configuration says, its SHA-256 "
    "printed before the first game and recorded in league.json, the seed itself at the end.",
)
@click.option(
    "--standings-every",
    type=click.FloatRange(min=0),
    metavar="SECONDS",
    help="Print the standings so far between games, at most this often (0: after every game; or press s).",
)
@click.option("-v", "--verbose", count=True, help="Log bot traffic (-vv for every line).")
def run(
    config_file: str,
    jobs: int | None,
    out: str | None,
    resume: bool,
    shard: str | None,
    seed: int | None,
    holdout: bool,
    fmt: str,
    wide: bool,
    dry_run: bool,
    standings_every: float | None,
    verbose: int,
) -> None:
    """Run the league of CONFIG and print its standings."""
    from rookarena.arena import isolation, league, pool, preflight  # noqa: PLC0415 (see FAULT_POLICIES)
    from rookarena.arena.config import load as load_config  # noqa: PLC0415

    from .progress import Keys, Progress, finished_records, last_log_line, plan_text  # noqa: PLC0415
    from .stopping import (  # noqa: PLC0415
        StopRequestedError,
        first_error,
        ignore_stop_signals,
        run_trio,
        until_signal,
    )

    _logging(verbose)
    try:
        config = load_config(config_file)
    except RookError as exc:
        raise click.ClickException(str(exc)) from None
    label = f"{'/'.join(map(str, _parse_shard(shard)))}" if shard else None
    out_dir = pathlib.Path(out) if out else _default_out(config.name, label, resume)
    if holdout:
        if seed is not None:
            raise click.BadParameter("a held-out run draws its own seed: give --holdout or --seed, not both")
        config = dataclasses.replace(config, seed=secrets.randbits(records.SEED_BITS), seed_drawn=True)
    config = _league_seed(config, config_file, seed, out_dir if resume else None, shard)
    commitment = records.seed_commitment(config.seed) if holdout else None
    isolated = isolation.isolate_league(config, out_dir)  # league.json keeps the commands as written
    games = league.plan(isolated)
    if shard:
        k, n = _parse_shard(shard)
        sliced = league.shard(games, k, n)
        if not sliced:
            deals = len({game.number // 2 for game in games})
            raise click.BadParameter(
                f"{shard!r}: this league's {len(games)} games form {deals} deal pair(s), so slice {k} of {n} would "
                f"be empty: use at most {deals} slices",
                param_hint="--shard",
            )
        games = sliced
    bot_limits = [entry.bot.limits or config.limits for entry in config.entries]
    problems = preflight.check_open_files(jobs or config.jobs, bot_limits)
    if problems:
        raise click.ClickException("; ".join(problems))
    if isolation.any_isolated(config):
        try:
            isolation.check()
        except RookError as exc:
            raise click.ClickException(str(exc)) from None
    if dry_run:
        try:
            finished = results.prepare(out_dir, config, resume, label, write=False)
        except RookError as exc:
            raise click.ClickException(str(exc)) from None
        todo = [game for game in games if game.game_id not in finished]
        click.echo(plan_text(config, games, todo, jobs or config.jobs, out_dir))
        return
    lock = results.ResultsLock(out_dir)
    try:
        lock.acquire()
        finished = results.prepare(out_dir, config, resume, label, holdout=commitment)
    except RookError as exc:
        lock.release()
        raise click.ClickException(str(exc)) from None
    click.echo(f"results go to {out_dir}", err=True)
    if commitment is not None:
        click.echo(f"holdout: the deals' seed is committed as sha256 {commitment} (revealed at the end)", err=True)
    _seed_lines(config)
    todo = [game for game in games if game.game_id not in finished]
    # No more jobs than units of work, and one unit is played here rather than by a worker process of its own.
    count = min(jobs or config.jobs, max(1, len(league.units(todo, jobs or config.jobs))))
    planned = count if todo else jobs or config.jobs  # (a run with nothing to play notes what it would do)
    placement = pool.placement(config.pin_cpus, planned)
    if count == 1 and placement:  # `pin_cpus: true` with one job: this process and its bots on one CPU
        try:
            os.sched_setaffinity(0, {placement[0]})  # before any thread: every thread and bot inherits it
        except OSError as exc:
            click.echo(f"warning: cannot keep this run on CPU {placement[0]}: {exc.strerror}", err=True)
            placement = None
    results.note_placement(out_dir, config.pin_cpus, placement, proctree.tracking())
    progress = Progress(
        len(games), len(games) - len(todo), finished_records(out_dir) if finished else None, standings_every
    )
    sink = results.RecordSink(out_dir / results.GAMES_FILE)

    def on_record(record: dict[str, Any]) -> None:
        sink.write(record)
        progress.update(record)

    resume_hint = f"resume with: rookarena run {config_file} --out {out_dir} --resume" + (
        f" --shard {shard}" if shard else ""
    )
    keys = Keys.watch(progress)
    if keys is not None:
        click.echo("press s for the standings so far", err=True)
    progress.show()
    try:
        if count == 1:
            try:
                run_trio(until_signal, league.run, isolated, todo, 1, out_dir / "logs", on_record)
            finally:  # every bot is stopped: what is still re-parented to this process was left by one of them
                proctree.kill_strays()
        else:
            run_trio(until_signal, pool.run, config, todo, count, str(out_dir / "logs"), on_record, verbose)
    except* RookError as group:
        progress.finish()
        click.echo(f"stopped: {first_error(group)}", err=True)
        where = out_dir / results.GAMES_FILE
        click.echo(f"{progress.done} of {progress.total} games are in {where}; {resume_hint}", err=True)
        raise SystemExit(1) from None
    except* StopRequestedError:
        ignore_stop_signals()
        progress.finish()
        click.echo(
            f"stopped: {progress.done} of {progress.total} games are in {out_dir / results.GAMES_FILE}", err=True
        )
        click.echo(resume_hint, err=True)
        raise SystemExit(130) from None
    finally:
        if keys is not None:
            keys.close()
        sink.close()
        lock.release()
    progress.finish()
    try:
        merged = results.merge_results([out_dir])  # read the same way as `rookarena standings` reads them
    except RookError as exc:
        raise click.ClickException(str(exc)) from None
    summary = progress.summary(out_dir / "logs")
    if summary:
        click.echo(summary, err=True)
    click.echo(write_standings(out_dir, merged.games, fmt, wide))
    silent = merged.never_started
    if silent:
        for name, count in sorted(silent.items()):
            tail = last_log_line(out_dir / "logs", name)
            said = f"; its stderr ended with: {tail!r}" if tail else ""
            click.echo(f"error: {name} never completed its handshake in its {count} game(s){said}", err=True)
        click.echo("the standings above rank bots that never played: fix them and run again", err=True)
        raise SystemExit(1)
    _seed_closing(config.seed, config.seed_drawn, "seed:")
    if commitment is not None:
        click.echo(f"holdout: seed {config.seed} is the one committed as sha256 {commitment}", err=True)


def _league_seed(
    config: LeagueConfig, config_file: str, seed: int | None, resumed: pathlib.Path | None, shard: str | None
) -> LeagueConfig:
    """The league with the seed it plays under: --seed, else the configuration's, else (none written) the
    one recorded in the results directory it resumes, else the one drawn when the configuration was read."""
    if seed is not None:
        return dataclasses.replace(config, seed=seed, seed_drawn=False)
    if not config.seed_drawn:
        return config
    recorded = results.recorded_seed(resumed) if resumed is not None else None
    if recorded is not None:
        return dataclasses.replace(config, seed=recorded)
    if shard:
        raise click.ClickException(
            f"{config_file}: seed: the shards of a league must share its seed and the configuration has none: "
            f"give every shard the same --seed (such as --seed {config.seed}) or write it as `seed:`"
        )
    return config


def _seed_lines(config: LeagueConfig) -> None:
    """The first lines' word on the seed: drawn (where it is recorded), or guessable by isolated bots."""
    from rookarena.arena import isolation  # noqa: PLC0415 (see FAULT_POLICIES)

    if config.seed_drawn:
        click.echo(f"seed {config.seed} (drawn: recorded in league.json)", err=True)
    elif isolation.any_isolated(config) and records.guessable(config.seed):
        click.echo(_guessable_warning(config.seed, "`seed:`"), err=True)


def _guessable_warning(seed: int, where: str) -> str:
    return (
        f"warning: seed {seed} has {seed.bit_length()} bits, short enough for a bot to guess and so to "
        f"deal every hand itself: drop {where} to have one drawn, or give one of {records.SEED_BITS} random bits"
    )


def _seed_closing(seed: int, drawn: bool, how: str) -> None:
    """The closing line that lets the organiser replay the deals."""
    click.echo(f"seed: {seed}" + (f" (drawn; replay the same deals with {how} {seed})" if drawn else ""), err=True)


@main.command("standings")
@click.argument("directories", nargs=-1, required=True, type=click.Path(file_okay=False, exists=True))
@click.option(
    "--format",
    "fmt",
    default="simple",
    show_default=True,
    callback=_table_or_json,
    help="Any tabulate table format, or json (the rows of standings.json).",
)
@click.option("--wide", is_flag=True, help=WIDE_HELP)
def standings_command(directories: tuple[str, ...], fmt: str, wide: bool) -> None:
    """Print the standings of one results directory, or of several (shards) merged."""
    paths = [pathlib.Path(d) for d in directories]
    try:
        played = results.merge_results(paths).games
        missing = results.missing_shards(paths)
    except RookError as exc:
        raise click.ClickException(str(exc)) from None
    if missing:
        click.echo(f"warning: shards {', '.join(missing)} are missing: the table covers only the others", err=True)
    anchors = results.recorded_anchors(paths)
    if fmt == "json":
        rows = standings.standings(played, anchors=anchors)
        click.echo(json.dumps(tables.standings_json(rows), indent=2, allow_nan=False))
        return
    click.echo(render_standings(played, fmt, wide, anchors))


def render_standings(
    played: Sequence[Record | GameResult], fmt: str, wide: bool = False, anchors: dict[str, float] | None = None
) -> str:
    """The standings (compact and fitted to the terminal unless ``wide``) and the crosstable."""
    return results.standings_text(played, fmt, wide=wide, width=_columns(), anchors=anchors)


def write_standings(out_dir: pathlib.Path, played: Sequence[Record | GameResult], fmt: str, wide: bool = False) -> str:
    """Write the standings (text, CSV, JSON) and the crosstable next to the records; return the text shown."""
    return results.write(out_dir, played, fmt, wide=wide, width=_columns())


def _default_out(name: str, shard: str | None, resume: bool) -> pathlib.Path:
    """results/NAME (or its shard's folder); a new run never lands on an old one's games: it takes
    NAME-2, NAME-3, ... instead, while --resume continues the latest."""
    suffix = f"shard-{shard.replace('/', '-of-')}" if shard else ""
    candidates = (pathlib.Path("results") / (name if n == 1 else f"{name}-{n}") / suffix for n in itertools.count(1))
    latest = None
    for candidate in candidates:
        taken = (candidate / results.GAMES_FILE).exists() and (candidate / results.GAMES_FILE).stat().st_size > 0
        if not taken:
            return latest if resume and latest is not None else candidate
        latest = candidate
    raise AssertionError("unreachable")  # pragma: no cover


def _parse_shard(text: str) -> tuple[int, int]:
    try:
        k, n = (int(part) for part in text.split("/"))
    except ValueError:
        raise click.BadParameter(f"{text!r}: expected K/N, such as 2/5", param_hint="--shard") from None
    if not 1 <= k <= n:
        raise click.BadParameter(f"{text!r}: expected 1 <= K <= N", param_hint="--shard")
    return k, n


def _spec(command: str, name: str | None, fallback: str) -> BotSpec:
    from rookarena.arena.bots import BotSpec, command_of  # noqa: PLC0415

    try:
        words = command_of(command)
    except ValueError as exc:
        raise click.BadParameter(f"{command!r}: {exc}") from None
    if shutil.which(words[0]) is None and not pathlib.Path(words[0]).exists():
        raise click.BadParameter(f"{command!r}: no program {words[0]!r} found")
    return BotSpec(name=name or _bot_name(words) or fallback, command=words)


def _hello_names(specs: list[tuple[BotSpec | None, bool]], startup: float) -> list[BotSpec | None]:
    """Each spec named by its bot's hello, unless the name was given (PROTOCOL.md §5: the config's or the
    command line's name, else the hello's); name clashes get a suffix. The bots are started once, side by
    side, for their hello; one that does not complete the handshake stops the command with one line."""
    import trio  # noqa: PLC0415

    from rookarena.arena import checkbot  # noqa: PLC0415 - not imported for run, which needs none of it

    probes: dict[int, checkbot.Probe] = {}

    async def ask(index: int, spec: BotSpec) -> None:
        probes[index] = await checkbot.probe(spec, startup)

    async def ask_all() -> None:
        async with trio.open_nursery() as nursery:
            for index, (spec, given) in enumerate(specs):
                if spec is not None and not given:
                    nursery.start_soon(ask, index, spec)

    trio.run(ask_all)
    named: list[BotSpec | None] = []
    for index, (spec, _) in enumerate(specs):
        found = probes.get(index)
        if spec is not None and found is not None:
            if found.hello is None:
                cause = found.fault.detail if found.fault is not None else "no hello"
                tail = f"; its stderr ended with: {found.stderr_tail!r}" if found.stderr_tail else ""
                raise click.ClickException(f"{' '.join(spec.command)!r} never completed its handshake: {cause}{tail}")
            spec = dataclasses.replace(spec, name=name_from_hello(found.hello.name))
        taken = [other.name for other in named if other is not None and other.command != spec.command] if spec else []
        if spec is not None and spec.name in taken:
            spec = dataclasses.replace(spec, name=f"{spec.name}-{taken.count(spec.name) + 1}")
        named.append(spec)
    return named


def _never_started(played: list[dict[str, Any]], runner: Match) -> None:
    """A match that did not really happen is not reported: when every game was forfeited by one side
    whose bot never completed a handshake, say so in one line (the caller exits 1)."""
    sides = {record["teams"][record["forfeit"]["team"]] if record.get("forfeit") else None for record in played}
    if len(sides) != 1 or None in sides:
        return
    side = sides.pop()
    procs = [proc for proc in runner.procs if proc is not None and proc.spec.name == side]
    if not procs or any(proc.hello is not None for proc in procs):
        return
    fault = next((proc.fault for proc in procs if proc.fault is not None), None)
    detail = f": {fault.kind}: {fault.detail}" if fault is not None else ""
    tails = [proc.stderr_tail.decode(errors="replace").strip().splitlines() for proc in procs]
    tail = next((lines[-1][:200] for lines in tails if lines), "")
    said = f"; its stderr ended with: {tail!r}" if tail else ""
    raise click.ClickException(f"{side} never completed its handshake in {len(played)} game(s){detail}{said}")


def _bot_name(words: tuple[str, ...]) -> str:
    """A short name from a command: the script's stem if there is one, else the program's."""
    if "-m" in words[:-1]:
        return words[words.index("-m") + 1].rsplit(".", 1)[-1]
    for word in words:
        path = pathlib.Path(word)
        if path.suffix in (".py", ".js", ".rb", ".pl", ".sh", ".jar", ".java"):
            return path.stem
    if pathlib.Path(words[0]).name == "java":  # java [-cp DIR] [options] MainClass [args]
        rest = list(words[1:])
        while rest and rest[0].startswith("-"):
            rest = rest[2:] if rest[0] in ("-cp", "-classpath", "--class-path") else rest[1:]
        if rest:
            return rest[0].rsplit(".", 1)[-1]
    return pathlib.Path(words[0]).name


def _logging(verbose: int) -> None:
    level = logging.WARNING if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)


# The commands of the built-in bots, the pages and the diff register themselves on import.
from . import tools  # noqa: E402, F401

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
