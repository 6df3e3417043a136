"""``rookarena run``: a league from its YAML configuration, resumable and shardable."""

from __future__ import annotations

import dataclasses
import itertools
import os
import pathlib
import re
import secrets
import shlex
from typing import TYPE_CHECKING, Any

import click

from rookarena.arena import proctree
from rookarena.cli.common import (
    WIDE_HELP,
    FiniteFloat,
    _logging,
    _table_format,
    main,
    render_standings,
    write_standings,
)
from rookarena.cli.group import MOST_JOBS, this_program
from rookarena.engine.seeding import SEED_BITS
from rookarena.errors import RookError
from rookarena.results import directory as results
from rookarena.wire import records
from rookarena.wire.names import printable

if TYPE_CHECKING:
    from rookarena.arena.league import PlannedGame as Game
    from rookarena.arena.specs import LeagueConfig
    from rookarena.cli.progress import Progress


@main.command()
@click.argument("config_file", metavar="CONFIG", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--jobs", type=click.IntRange(1, MOST_JOBS), help="Games in parallel (default: the config's, else CPU count)."
)
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
    "--standings-every",
    type=FiniteFloat(min=0),
    metavar="SECONDS",
    help="Print the standings so far between games, at most this often (0: after every game; or press s).",
)
@click.option(
    "--holdout",
    is_flag=True,
    help="Play deals nobody chose: a seed drawn from the OS, whatever the configuration says, its SHA-256 "
    "printed before the first game and recorded in league.json, the seed itself at the end.",
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
    from rookarena.arena import isolation, league  # noqa: PLC0415 (see FAULT_POLICIES)
    from rookarena.arena.config import load as load_config  # noqa: PLC0415

    from .progress import Progress, finished_records, plan_text  # noqa: PLC0415

    _logging(verbose)
    try:
        config = load_config(config_file)
    except RookError as exc:
        raise click.ClickException(str(exc)) from None
    label = f"{'/'.join(map(str, _parse_shard(shard)))}" if shard is not None else None  # "" is refused too
    out_dir = pathlib.Path(out) if out else _default_out(config.name, label, resume)
    if holdout:
        if seed is not None:
            raise click.BadParameter("a held-out run draws its own seed: give --holdout or --seed, not both")
        if shard is not None:
            raise click.BadParameter(
                "--holdout draws a seed for this run alone, and the shards of a league must share one: draw one "
                f"yourself (python3 -c 'import secrets; print(secrets.randbits({SEED_BITS}))') and give every "
                "shard the same --seed",
                param_hint="'--holdout'",
            )
        config = dataclasses.replace(config, seed=secrets.randbits(SEED_BITS), seed_drawn=True)
    config = _league_seed(config, config_file, seed, out_dir if resume else None, shard)
    commitment = records.seed_commitment(config.seed) if holdout else None
    isolated = isolation.isolate_league(config, out_dir)  # league.json keeps the commands as written
    whole = league.plan(isolated)
    games = _slice(whole, shard)
    wanted = jobs or config.jobs
    _check_can_run(config, min(wanted, max(1, len(league.units(games, wanted)))), out_dir, shard is not None)
    if dry_run:
        try:
            finished = results.prepare(out_dir, config, resume, label, write=False)
        except RookError as exc:
            raise click.ClickException(str(exc)) from None
        todo = [game for game in games if game.game_id not in finished]
        click.echo(plan_text(config, games, todo, jobs or config.jobs, out_dir, (shard, len(whole)) if shard else None))
        return
    lock = results.ResultsLock(out_dir)
    try:
        lock.acquire()
        finished = results.prepare(out_dir, config, resume, label, holdout=commitment, planned=len(games))
    except RookError as exc:
        lock.release()
        raise click.ClickException(str(exc)) from None
    click.echo(f"results go to {printable(str(out_dir))}", err=True)
    if commitment is not None:
        click.echo(f"holdout: the deals' seed is committed as sha256 {commitment} (revealed at the end)", err=True)
    _seed_lines(config, holdout)
    todo = [game for game in games if game.game_id not in finished]
    count = _workers(config, jobs or config.jobs, todo, out_dir)
    progress = Progress(
        len(games), len(games) - len(todo), finished_records(out_dir) if finished else None, standings_every
    )
    resume_hint = _resume_hint(config_file, out_dir, shard, seed, holdout)
    try:
        _play(config, isolated, todo, count, out_dir, progress, resume_hint, verbose)
    finally:
        lock.release()
    _closing(out_dir, progress, fmt, wide)
    _seed_closing(config.seed, config.seed_drawn, "seed:")
    if commitment is not None:
        click.echo(f"holdout: seed {config.seed} is the one committed as sha256 {commitment}", err=True)


def _slice(games: list[Game], shard: str | None) -> list[Game]:
    """The games of slice K/N (``--shard``), refused when it would be empty; all of them without a shard."""
    from rookarena.arena import league  # noqa: PLC0415 (see FAULT_POLICIES)

    if not shard:
        return games
    k, n = _parse_shard(shard)
    deals = len({game.number // 2 for game in games})
    if n > deals:  # some slices would be empty, whichever this one is
        raise click.BadParameter(
            f"{shard!r}: this league's {len(games)} games form {deals} deal pair(s), so some of {n} slices would "
            f"be empty: use at most {deals} slices",
            param_hint="--shard",
        )
    return league.shard(games, k, n)


def _check_can_run(config: LeagueConfig, jobs: int, out_dir: pathlib.Path, sharded: bool) -> None:
    """Refuse, before any game, a run the machine cannot give its open files for ``jobs`` games at once (no
    more than it has units of work) or its isolation (nor a shard whose isolated bots would see the other
    shards' results)."""
    from rookarena.arena import isolation, preflight  # noqa: PLC0415 (see FAULT_POLICIES)

    bot_limits = [entry.bot.limits or config.limits for entry in config.entries]
    problems = preflight.check_open_files(jobs, bot_limits)
    if problems:
        raise click.ClickException("; ".join(dict.fromkeys(problems)))  # each problem once, however many bots
    if isolation.any_isolated(config):
        try:
            isolation.check()
        except RookError as exc:
            raise click.ClickException(str(exc)) from None
        problem = isolation.shards_in_sight(config, out_dir) if sharded else None
        if problem:
            raise click.ClickException(problem)


def _workers(config: LeagueConfig, jobs: int, todo: list[Game], out_dir: pathlib.Path) -> int:
    """How many workers play ``todo``: no more than its units of work. Their CPUs are noted in league.json;
    one worker is this process, kept with its bots on one CPU under ``pin_cpus: true``."""
    from rookarena.arena import league, pool  # noqa: PLC0415 (see FAULT_POLICIES)

    count = min(jobs, max(1, len(league.units(todo, jobs))))
    planned = count if todo else jobs  # (a run with nothing to play notes what it would do)
    placement = pool.placement(config.pin_cpus, planned)
    if count == 1 and placement:
        try:
            os.sched_setaffinity(0, {placement[0]})  # before any thread: every thread and bot inherits it
        except OSError as exc:
            click.echo(f"warning: cannot keep this run on CPU {placement[0]}: {exc.strerror}", err=True)
            placement = None
    results.note_placement(out_dir, config.pin_cpus, placement, proctree.tracking())
    return count


def _play(
    config: LeagueConfig,
    isolated: LeagueConfig,
    todo: list[Game],
    count: int,
    out_dir: pathlib.Path,
    progress: Progress,
    resume_hint: str,
    verbose: int,
) -> None:
    """Play ``todo`` on ``count`` workers, each record written as it arrives; a stop says what is kept."""
    from rookarena.arena import league, pool  # noqa: PLC0415 (see FAULT_POLICIES)

    from .progress import Keys  # noqa: PLC0415
    from .stopping import StopRequestedError, first_error, ignore_stop_signals, run_trio, until_signal  # noqa: PLC0415

    sink = results.RecordSink(out_dir / results.GAMES_FILE)

    def on_record(record: dict[str, Any]) -> None:
        sink.write(record)
        progress.update(record)

    keys = Keys.watch(progress)
    if keys is not None:
        click.echo("press s for the standings so far", err=True)
    progress.show()
    where = out_dir / results.GAMES_FILE
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
        click.echo(
            f"{_kept(where, progress.done)} of {progress.total} games are in {printable(str(where))}; "
            f"{printable(resume_hint)}",
            err=True,
        )
        raise SystemExit(1) from None
    except* StopRequestedError:
        ignore_stop_signals()
        progress.finish()
        click.echo(f"stopped: {progress.done} of {progress.total} games are in {printable(str(where))}", err=True)
        click.echo(resume_hint, err=True)
        raise SystemExit(130) from None
    finally:
        if keys is not None:
            keys.close()
        sink.close()


def _closing(out_dir: pathlib.Path, progress: Progress, fmt: str, wide: bool) -> None:
    """The standings of every game in ``out_dir`` (read as ``rookarena standings`` reads them), written
    beside the records; exit 1 naming each bot that never completed its handshake."""
    from .progress import last_log_line  # noqa: PLC0415

    progress.finish()
    try:
        merged = results.merge_results([out_dir])
    except RookError as exc:
        raise click.ClickException(str(exc)) from None
    summary = progress.summary(out_dir / "logs")
    if summary:
        click.echo(summary, err=True)
    try:
        click.echo(write_standings(out_dir, merged.games, fmt, wide))
    except RookError as exc:  # the standings files could not be written (a full disk): the games are kept
        click.echo(render_standings(merged.games, fmt, wide, results.recorded_anchors([out_dir])))
        raise click.ClickException(
            f"{exc}: every game is in {out_dir / results.GAMES_FILE}, and "
            f"`{shlex.join(['rookarena', 'standings', str(out_dir)])}` prints this table again"
        ) from None
    except (ArithmeticError, ValueError) as exc:  # a figure that cannot be computed is a defect, never a lost game
        raise click.ClickException(
            f"the standings could not be computed ({exc}), a defect of rookarena's: every game is in "
            f"{out_dir / results.GAMES_FILE}"
        ) from None
    silent = merged.never_started
    if silent:
        for name, count in sorted(silent.items()):
            tail = last_log_line(out_dir / "logs", name)
            fault = _first_fault(out_dir, name)
            said = (f": {fault}" if fault else "") + (f"; its stderr ended with: {tail!r}" if tail else "")
            click.echo(f"error: {name} never completed its handshake in its {count} game(s){said}", err=True)
        click.echo("the standings above rank bots that never played: fix them and run again", err=True)
        raise SystemExit(1)


def _first_fault(out_dir: pathlib.Path, name: str) -> str:
    """The first fault recorded against the bot ``name`` ("crash: cannot start './bot': Exec format error"), or
    "": what a bot that never said hello, and may have written nothing to stderr, did instead."""
    try:
        for record in results.each_record(out_dir / results.GAMES_FILE):
            for fault in record.get("faults") or ():
                if isinstance(fault, dict) and fault.get("bot") == name:
                    return " ".join(f"{fault.get('kind')}: {fault.get('detail')}".split())[:300]
    except (RookError, OSError):  # the standings were read from the same file just before
        return ""
    return ""


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
    if recorded is not None:  # drawn by the run that began the league, or given it: recorded, not drawn now
        return dataclasses.replace(config, seed=recorded, seed_drawn=False)
    if shard:
        raise click.ClickException(
            f"{config_file}: seed: the shards of a league must share its seed and the configuration has none: "
            f"give every shard the same --seed (such as --seed {config.seed}) or write it as `seed:`"
        )
    return config


def _resume_hint(config_file: str, out_dir: pathlib.Path, shard: str | None, seed: int | None, holdout: bool) -> str:
    """The line a stopped run ends with: a command to paste, whatever the paths hold, that runs this program
    again as it was run (:func:`this_program`) on the same shard and seed."""
    words = [*this_program(), "run", config_file, "--out", str(out_dir), "--resume"]
    words += ["--shard", shard] if shard else []
    words += ["--seed", str(seed)] if seed is not None else ["--holdout"] if holdout else []  # the same seed again
    return f"resume with: {shlex.join(words)}"


def _seed_lines(config: LeagueConfig, holdout: bool) -> None:
    """The first lines' word on the seed: drawn (where it is recorded; a held-out run's only at the end), or
    guessable by isolated bots."""
    from rookarena.arena import isolation  # noqa: PLC0415 (see FAULT_POLICIES)

    if config.seed_drawn and not holdout:
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
    if not re.fullmatch(r"[0-9]{1,9}/[0-9]{1,9}", text):  # (int() would take ' 2', '+2', '2_0' and other digits)
        raise click.BadParameter(f"{text!r}: expected K/N, such as 2/5", param_hint="--shard")
    k, n = (int(part) for part in text.split("/"))
    if not 1 <= k <= n:
        raise click.BadParameter(f"{text!r}: expected 1 <= K <= N", param_hint="--shard")
    return k, n


def _kept(where: pathlib.Path, counted: int) -> int:
    """The games in the records file as it is now, which is less than the run ``counted`` when the file
    was removed or replaced under it."""
    try:
        return len(results.finished_ids(where))
    except RookError:
        return counted
