"""``rookarena match``: two bots, one pair of seats each, optionally to an SPRT verdict."""

from __future__ import annotations

import pathlib
import secrets
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import click

from rookarena.arena import proctree
from rookarena.cli import text as report
from rookarena.cli.common import (
    FAULT_POLICIES,
    ISOLATIONS,
    WIDE_HELP,
    _logging,
    _name_option,
    _never_started,
    bank_option,
    load_rules,
    main,
    move_time_option,
    screen_width,
    startup_option,
)
from rookarena.cli.gate import check_cap, exit_status, status_line
from rookarena.cli.group import MOST_GAMES
from rookarena.cli.match_teams import teams
from rookarena.cli.run_cmd import _guessable_warning, _seed_closing
from rookarena.errors import RookError
from rookarena.results import directory as results
from rookarena.results import sprt as sequential
from rookarena.results import standings, store, tables
from rookarena.results.summary import standings_text
from rookarena.wire import records
from rookarena.wire.names import printable
from rookarena.wire.position import fault_line

if TYPE_CHECKING:
    from rookarena.arena.match import Match, MatchConfig
    from rookarena.arena.specs import BotSpec


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
@click.argument("command_a")
@click.argument("command_b")
@click.option("--partner-a", help="A different program for team A's second seat.")
@click.option("--partner-b", help="A different program for team B's second seat.")
@click.option("--name-a", callback=_name_option, help="Name of team A's bot (default: from the command).")
@click.option("--name-b", callback=_name_option, help="Name of team B's bot (default: from the command).")
@click.option(
    "--games",
    type=click.IntRange(1, MOST_GAMES),
    default=2,
    show_default=True,
    help=f"Games to play (at most {MOST_GAMES:,}, as a league).",
)
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
@move_time_option(1.0)
@bank_option(0.0)
@startup_option(10.0)
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
    f"at least {sequential.ELO_MIN_WIDTH:g} apart, within ±1000). Over deal pairs with duplicate deals, over "
    "games without.",
)
@click.option(
    "--sprt-points",
    nargs=2,
    type=float,
    metavar="D0 D1",
    help="Stop as soon as a sequential test on A's point difference per deal pair (both games summed; no shape "
    "assumed: skewed and heavy-tailed differences are taken as they are) accepts H0: mean = D0 or H1: mean = D1 "
    f"(D0 < D1, at least {sequential.POINTS_MIN_WIDTH:g} apart, within ±10000). Needs duplicate deals; not "
    "with --sprt.",
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
         ELO1 (D1) > 0 ("not shown better": not a regression check, as the
         closing line says); without a test (or undecided with --at-cap
         fixed) when the 95% Elo interval reaches 0
      1  an error (Error: ...)
      2  a usage error, such as invalid --sprt bounds, or a --games too small
         for the test ever to decide (checked before any game)
      3  A is shown worse: the test accepted H0 and ELO1 (D1) <= 0, as with
         --sprt -10 0 ("is A worse?"); without a test (or undecided with
         --at-cap fixed), the whole 95% Elo interval is below 0
      4  the test did not decide within --games (without --at-cap fixed);
         the points test also when A forfeited a game of a deal pair
      5  with --fail-on-faults: A had a fault in some game (and is not shown worse)
      130  stopped by Ctrl-C, SIGTERM or SIGHUP
    """
    from rookarena.arena.match import Match  # noqa: PLC0415

    _logging(verbose)
    test = _test_for(games, duplicate, sprt, sprt_points, (alpha, beta))
    out_dir = pathlib.Path(out) if out else None
    lock = _match_out(out_dir) if out_dir is not None else None
    isolated = isolation_kind == "bwrap"
    team_a, team_b = teams((command_a, partner_a, name_a), (command_b, partner_b, name_b), startup, out_dir, isolated)
    seed, drawn = _match_seed(seed, holdout)
    if isolated and records.guessable(seed):
        click.echo(_guessable_warning(seed, "--seed"), err=True)
    config = _config(team_a, team_b, rules_spec, games, seed, duplicate, (move_time, bank, startup), faults, out_dir)
    watch = _Watch(config.names[0], games, test, results.RecordSink(out_dir / results.GAMES_FILE) if out_dir else None)
    _play(Match(config), watch, games, lock)
    status = _closing(watch, config.names[1], out_dir, wide, (at_cap, fail_on_faults))
    _seed_closing(seed, drawn, "--seed")
    if holdout:
        click.echo(f"holdout: seed {seed} is the one committed as sha256 {records.seed_commitment(seed)}", err=True)
    if status:
        raise SystemExit(status)


def _test_for(
    games: int,
    duplicate: bool,
    sprt: tuple[float, float] | None,
    sprt_points: tuple[float, float] | None,
    errors: tuple[float, float],
) -> sequential.SequentialTest | None:
    """The sequential test the options ask for, refused or warned about when --games is too small for it."""
    if duplicate and games % 2:
        raise click.BadParameter(
            f"expected an even number with --duplicate (each deal is played twice), got {games}", param_hint="--games"
        )
    test = _sequential_test(sprt, sprt_points, errors[0], errors[1], duplicate)
    warning = check_cap(test, games) if test is not None else None
    if warning is not None:
        click.echo(warning, err=True)
    return test


def _config(
    team_a: tuple[BotSpec, BotSpec],
    team_b: tuple[BotSpec, BotSpec],
    rules_spec: str,
    games: int,
    seed: int,
    duplicate: bool,
    clock: tuple[float, float, float],
    faults: str,
    out_dir: pathlib.Path | None,
) -> MatchConfig:
    """The match's settings from the command line's options."""
    from rookarena.arena.match import MatchConfig  # noqa: PLC0415
    from rookarena.arena.specs import FaultPolicy, Limits, TimeControl  # noqa: PLC0415 (see FAULT_POLICIES)

    name, rules_value = load_rules(rules_spec)
    move_time, bank, startup = clock
    return MatchConfig(
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
        names=(team_a[0].name, team_b[0].name),
    )


def _closing(watch: _Watch, other: str, out_dir: pathlib.Path | None, wide: bool, verdict: tuple[str, bool]) -> int:
    """Print the standings and the verdict; the exit status the verdict asks for."""
    click.echo(standings_text(watch.played, "simple", crosstable=False, wide=wide, width=screen_width("simple")))
    status = _verdict(watch, other, *verdict)
    if out_dir is not None:
        click.echo(f"records: {printable(str(out_dir / 'games.jsonl'))}")
    return status


def _play(runner: Match, watch: _Watch, games: int, lock: results.ResultsLock | None) -> None:
    """Run the match to its end, a stop request or Ctrl-C, leaving no bot process and no lock behind."""
    from .stopping import StopRequestedError, first_error, ignore_stop_signals, run_trio, until_signal  # noqa: PLC0415

    watch.stop = runner.stop
    try:
        run_trio(until_signal, runner.run, watch.on_record)
    except* StopRequestedError:
        ignore_stop_signals()
        click.echo(f"interrupted after {len(watch.played)} of {games} games", err=True)
        raise SystemExit(130) from None
    except* RookError as group:  # a record that could not be written (a full disk): no verdict from part of a run
        click.echo(f"stopped after {len(watch.played)} of {games} games: {first_error(group)}", err=True)
        raise SystemExit(1) from None
    finally:
        # every bot is stopped: what is still re-parented to this process was left by one of them
        proctree.kill_strays()
        if watch.sink is not None:
            watch.sink.close()
        if lock is not None:
            lock.release()
    _never_started(watch.spoke.silent(), runner)


def _match_seed(seed: int | None, holdout: bool) -> tuple[int, bool]:
    """The deals' seed (drawn when not given, its commitment shown first for --holdout) and whether it was drawn."""
    if holdout and seed is not None:
        raise click.BadParameter("a held-out match draws its own seed: give --holdout or --seed, not both")
    drawn = seed is None
    seed = secrets.randbits(records.SEED_BITS) if seed is None else seed
    if holdout:
        click.echo(f"holdout: the deals' seed is committed as sha256 {records.seed_commitment(seed)}", err=True)
    return seed, drawn


class _Watch:
    """Each finished game as it arrives: written, shown on one line, and added to the test's running sums
    (O(1) per finished game or deal pair; a pair's first game waits in ``pending``); the match is stopped
    when the test decides."""

    def __init__(
        self, name: str, games: int, test: sequential.SequentialTest | None, sink: results.RecordSink | None
    ) -> None:
        self.name, self.games, self.sink = name, games, sink
        # What the summary needs of each game, not its record (a few hundred bytes a game, against several
        # KiB), so that a long match's memory stays small; and whether each side's bots ever said hello.
        self.played: list[store.GameResult] = []
        self.spoke = results.Spoke()
        self.tally = test.start() if test is not None else None
        self.pending: list[dict[str, Any]] = []
        self.decision: sequential.SPRTResult | None = None
        self.stop: Callable[[], None] = lambda: None

    def on_record(self, record: dict[str, Any]) -> None:
        if self.sink is not None:
            self.sink.write(record)
        self.played.append(store.game_result(record, keep=False))
        self.spoke.add(record)
        click.echo(report.game_line(record, self.name, len(self.played), self.games), err=True)
        for fault in record.get("faults") or []:  # where, and what the bot did: as run says it
            click.echo(fault_line(record, fault), err=True)
        if self.tally is None or self.decision is not None or not self._count(record):
            return
        result = self.tally.result()
        if result.decision is not None:
            self.decision = result
            click.echo(f"test decided after {len(self.played)} games", err=True)
            self.stop()

    def _count(self, record: dict[str, Any]) -> bool:
        """Add ``record`` to the test's sums; whether they changed."""
        tally = self.tally
        assert tally is not None
        if tally.test.model is sequential.Model.TRINOMIAL:
            game = store.game_result(record)
            self.tally = tally.add_game(game.score if game.teams[0] == self.name else 1 - game.score)
            return True
        if not self.pending:
            self.pending.append(record)
            return False
        first = self.pending.pop()
        outcome = standings.pair_outcome(first, record, self.name)
        if outcome is None:
            return False  # not a pair
        cut_short = outcome[1] is None or bool(first.get("forfeit") or record.get("forfeit"))
        if cut_short and tally.test.model is sequential.Model.POINTS:
            # A forfeited game's points are no result (none before its first hand, the scores of the moment
            # after it). NEW's forfeit stops the points test deciding at all (it must not pass by crashing,
            # early or late in its games); OLD's leaves the pair out.
            if not _faulted(store.game_results([first, record]), self.name):
                return False
            self.tally = tally.add_forfeit()
        else:
            self.tally = tally.add_pair(outcome[0], outcome[1] or 0.0)
        return True

    def outcome(self) -> sequential.SPRTResult | None:
        """The test's result: its decision, or where it stands at the end; None without a test."""
        if self.decision is not None:
            return self.decision
        return self.tally.result() if self.tally is not None else None


def _verdict(watch: _Watch, other: str, at_cap: str, fail_on_faults: bool) -> int:
    """Print the match summary, the question and its answer, the faults and the status line; the exit status."""
    played, name = watch.played, watch.name
    summary = standings.head_to_head(played, name, other)
    outcome = watch.outcome()
    click.echo("")
    click.echo(tables.match_summary(summary, outcome))
    fixed = sequential.Outcome.WORSE if summary.elo.hi < 0 else sequential.Outcome.NOT_WORSE
    asks_worse = True  # whether the verdict answers "is NEW worse?" (the fixed-sample one does)
    if outcome is None:
        found = fixed
        click.echo("question: is NEW worse than OLD? (the whole 95% Elo interval below 0)")
        worse = found is sequential.Outcome.WORSE
        click.echo(f"answer: {'yes: NEW is worse' if worse else 'no: NEW is not shown worse'}")
    else:
        found = sequential.verdict(outcome).outcome
        asks_worse = outcome.h1 <= 0
        if found is sequential.Outcome.UNDECIDED and at_cap == "fixed":
            found, asks_worse = fixed, True
            click.echo(report.fixed_verdict(summary.elo))
    click.echo(report.match_faults(store.game_results(played), name, other))
    status = exit_status(found, _faulted(played, name), fail_on_faults)
    click.echo(status_line(status, asks_worse))
    return status


def _faulted(played: Sequence[store.GameResult], name: str) -> bool:
    """Whether ``name`` had a fault in any of the games ``played``."""
    for g in store.each_result(played):
        if name in g.teams and any(faulty == g.teams.index(name) for faulty, _ in g.faults):
            return True
    return False


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
