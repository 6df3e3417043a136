"""The commands that are views and tools around the results: the built-in bots, the HTML report and
replay viewer, a game as text, and the decision diff."""

from __future__ import annotations

import os
import pathlib
from typing import TYPE_CHECKING, Any

import click

from rookarena.cli.common import (
    FiniteFloat,
    _logging,
    _spec,
    bank_option,
    main,
    move_time_option,
    reads_records,
    startup_option,
)
from rookarena.cli.group import MOST_GAMES
from rookarena.errors import RookError
from rookarena.results import directory as results
from rookarena.wire import records
from rookarena.wire.names import printable, safe_file_name

if TYPE_CHECKING:
    from rookarena.arena.specs import TimeControl
    from rookarena.web.sources import Stored


def _load_results(directories: tuple[str, ...]) -> Any:
    """The records of DIRECTORIES (shards merged) with their settings and logs, for the web commands."""
    from rookarena.web import sources  # noqa: PLC0415 (jinja2 and the pages load only for these commands)

    try:
        found = sources.load([pathlib.Path(d) for d in directories])
    except RookError as exc:
        raise click.ClickException(str(exc)) from None
    if not found.records:
        raise click.ClickException(f"no games in {', '.join(repr(d) for d in directories)}")
    return found


def _write_page(path: pathlib.Path, text: str) -> None:
    """The page whole or not at all: a full disk leaves no page cut short, and an older page as it was."""
    try:
        results.write_file(path, text)
    except RookError as exc:
        raise click.ClickException(str(exc)) from None


def _output(output: str | None) -> pathlib.Path | None:
    """The -o option's file, refused when its text names a folder (``pages/``: a path object drops the slash)."""
    if output is not None and output.endswith(("/", os.sep)):
        raise click.BadParameter(f"{printable(output)!r} names a folder: give the page's file name", param_hint="'-o'")
    return pathlib.Path(output) if output is not None else None


def _page_path(path: pathlib.Path, directories: tuple[str, ...]) -> pathlib.Path:
    """``path``, unless a page written there would replace one of the results' own files, or cannot be written
    at all (said before any work: a diff replays every game first)."""
    problem = results.over_results(path, [pathlib.Path(d) for d in directories])
    if problem:
        raise click.BadParameter(problem, param_hint="'-o'")
    existed = path.exists()
    try:
        with open(path, "ab"):  # opened as the page will be (a missing directory, no permission, a read-only disk)
            pass
    except OSError as exc:
        raise click.BadParameter(
            f"{printable(str(path))}: cannot be written: {exc.strerror or exc}", param_hint="'-o'"
        ) from None
    if not existed:
        path.unlink(missing_ok=True)
    return path


@main.command("report")
@click.argument("directories", nargs=-1, required=True, type=click.Path(file_okay=False, exists=True))
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="The HTML file (default: DIR/report.html).")
@click.option(
    "--embed",
    type=click.IntRange(0, MOST_GAMES),
    default=400,
    show_default=True,
    help="Games embedded for the viewer; past it, the faulted, closest and most lopsided ones.",
)
@click.option("--sprt", nargs=2, type=float, metavar="ELO0 ELO1", help="Show this SPRT's LLR per deal pair (a match).")
@click.option("--alpha", type=FiniteFloat(0.0001, 0.5), default=0.05, show_default=True, help="SPRT α.")
@click.option("--beta", type=FiniteFloat(0.0001, 0.5), default=0.05, show_default=True, help="SPRT β.")
@reads_records
def report_command(
    directories: tuple[str, ...],
    output: str | None,
    embed: int,
    sprt: tuple[float, float] | None,
    alpha: float,
    beta: float,
) -> None:
    """Write one self-contained HTML page of the results in DIRECTORIES (shards merged as in standings).

    The page needs no network: league, standings, rating plots, crosstable, match and SPRT, faults with
    the bots' stderr, and the games in a replay viewer. Open it in a browser, or mail it.
    """
    from rookarena import __version__  # noqa: PLC0415
    from rookarena.results import sprt as sequential  # noqa: PLC0415
    from rookarena.web import index, model, page, sources  # noqa: PLC0415

    path = _page_path(_output(output or None) or pathlib.Path(directories[0]) / "report.html", directories)
    try:
        found = sources.scan([pathlib.Path(d) for d in directories])
    except RookError as exc:
        raise click.ClickException(str(exc)) from None
    if not len(found.digest):
        raise click.ClickException(f"no games in {', '.join(repr(d) for d in directories)}")
    test = None
    if sprt is not None:
        try:
            test = sequential.SequentialTest(
                sequential.Model(model.sprt_model(found.digest.results)), sprt[0], sprt[1], alpha, beta
            )
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--sprt") from None
    plan = index.embed_plan(found.digest, embed)
    try:
        lines = found.lines(plan.positions, replayed=True)  # the viewer plays what it embeds: it must replay
    except RookError as exc:
        raise click.ClickException(str(exc)) from None
    data = model.report_page(found.digest, plan, {}, found.info, found.tails, test, __version__, lean=True)
    raw = {
        "games": found.digest.index_json(plan.partner, plan.positions),
        "records": page.records_json({found.digest.ids[p]: lines[p] for p in plan.positions}),
    }
    del lines
    try:
        with results.output(path) as stream:  # whole or not at all, however large
            size = page.write(stream, data, f"rookarena: {data['league']['name']}", raw)
    except RookError as exc:
        raise click.ClickException(str(exc)) from None
    note = data["embed"]
    click.echo(
        f"report: {printable(str(path))} ({size / 1024:,.0f} KiB; {note['total']} games, {note['embedded']} embedded)"
    )


def _find_game(directory: str, game: str) -> dict[str, Any]:
    """The record of GAME in DIRECTORY, found by searching the file rather than reading every record."""
    from rookarena.web import model, sources  # noqa: PLC0415

    path = pathlib.Path(directory) / results.GAMES_FILE
    if not path.exists():
        raise click.ClickException(f"{directory}: no {results.GAMES_FILE} here")
    record = sources.find_record(path, game)
    if record is not None:
        try:
            return sources.replayable(record, game, path)
        except RookError as exc:
            raise click.ClickException(str(exc)) from None
    ids: list[str] = []
    count = 0
    try:  # the first few ids, parsed; the rest only counted (a mistyped id in 100,000 games is said at once)
        for index, (_, found) in enumerate(sources.each_line(path)):
            ids.append(model.game_id(found, index))
            if len(ids) == 5:
                break
        with path.open("rb") as stream:
            count = sum(1 for line in stream if line.strip())
    except RookError as exc:
        raise click.ClickException(str(exc)) from None
    if not count:
        raise click.ClickException(f"no games in {directory!r}")
    shown = ", ".join(repr(i) for i in ids) + (f" ... ({count} games)" if count > 5 else "")
    raise click.BadParameter(f"no game {game!r} in {directory!r}: expected one of {shown}", param_hint="GAME_ID")


@main.command("replay")
@click.argument("directory", type=click.Path(file_okay=False, exists=True))
@click.argument("game")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="The HTML file (default: DIR/GAME_ID.html).")
@reads_records
def replay_command(directory: str, game: str, output: str | None) -> None:
    """Write the replay viewer of game GAME of DIRECTORY as one HTML file (with its duplicate partner)."""
    from rookarena import __version__  # noqa: PLC0415
    from rookarena.web import model, page, sources  # noqa: PLC0415

    # A game id from the records (someone else's, perhaps) is made a safe file name: no path reaches outside DIR.
    default = pathlib.Path(directory) / safe_file_name(game, ".html")
    path = _page_path(_output(output or None) or default, (directory,))
    record = _find_game(directory, game)
    games = [(game, record)]
    stored = pathlib.Path(directory) / results.GAMES_FILE
    partner = sources.find_partner(stored, record, game)
    if partner is not None:
        try:
            games.append((partner[0], sources.replayable(partner[1], partner[0], stored)))
        except RookError as exc:
            raise click.ClickException(f"{exc} (the duplicate partner of {game!r})") from None
    data = model.replay_page(games, version=__version__)
    _write_page(path, page.render(data, f"rookarena: {game}"))
    click.echo(f"replay: {printable(str(path))}")


@main.command("show")
@click.argument("directory", type=click.Path(file_okay=False, exists=True))
@click.argument("game")
@click.option("--seat", type=click.IntRange(0, 3), help="Only what this seat knew.")
@reads_records
def show_command(directory: str, game: str, seat: int | None) -> None:
    """Print game GAME of DIRECTORY as text: every hand's cards, auction, nest, trump, tricks and scores."""
    from rookarena.web import text  # noqa: PLC0415

    record = _find_game(directory, game)
    click.echo(text.game_text(record, seat=seat, game_id=game), nl=False)


@main.command("diff")
@click.argument("new_command", metavar="NEW")
@click.argument("old", metavar="OLD")
@click.option(
    "--from",
    "directories",
    multiple=True,
    required=True,
    type=click.Path(file_okay=False, exists=True),
    help="A results directory holding OLD's games (a league's or a match's --out); repeat for shards.",
)
@click.option("--game", "wanted", multiple=True, metavar="ID", help="Only this game (repeat for more).")
@click.option("--limit", type=click.IntRange(1, MOST_GAMES), help=f"At most this many games ({MOST_GAMES:,} or fewer).")
@move_time_option(None, "Seconds per decision (default: the league's, else 1).")
@bank_option(None, "Seconds of time bank per game (default: the league's, else 0).")
@startup_option(None, "Seconds to start and say hello (default: the league's, else 10).", least=0.1)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Also write the diff as an HTML page here.")
@click.option("-v", "--verbose", count=True, help="Log bot traffic (-vv for every line).")
def diff_command(
    new_command: str,
    old: str,
    directories: tuple[str, ...],
    wanted: tuple[str, ...],
    limit: int | None,
    move_time: float | None,
    bank: float | None,
    startup: float | None,
    output: str | None,
    verbose: int,
) -> None:
    """Replay OLD's games to the bot NEW and list the decisions where NEW would have acted differently.

    NEW is a command, as for match ('python3 bot.py --level 2'); OLD is the name of a bot in the results.
    For every game in which OLD held a seat, NEW is sent exactly the lines OLD's seat was sent, and at
    each of OLD's decisions its answer is compared with OLD's recorded action. The game always follows
    OLD's choices, so a different answer shows where NEW departs from OLD, not where it would have led.
    Prints the counts by kind of decision (bid, discard, trump, lead, follow), then each difference with
    the seat's view; -o writes the same as a page whose differences open in the replay viewer.
    """
    from rookarena import __version__  # noqa: PLC0415
    from rookarena.arena.differ import Differ, run_starts  # noqa: PLC0415
    from rookarena.web import diff as diff_page  # noqa: PLC0415
    from rookarena.web import page  # noqa: PLC0415

    _logging(verbose)
    spec = _spec(new_command, None, "new", "'NEW'")  # a command that cannot run is said before any reading
    if output is not None:
        _page_path(_output(output) or pathlib.Path(), directories)
    games = _diff_games(directories, old, wanted, limit)
    from rookarena.arena.specs import Limits  # noqa: PLC0415

    from .stopping import run_until_stopped  # noqa: PLC0415 (only the diff runs bots)

    clock = _diff_clock(directories[0], move_time, bank, startup)
    for gid, record in games:  # every record must replay before any bot is started
        try:
            records.replay(record)
        except RookError as exc:
            raise click.ClickException(f"game {gid!r} does not replay: {exc}") from None
    starts = run_starts([pathlib.Path(d) for d in directories], old, games.ids())
    differ = Differ(spec, old, clock, Limits(startup=clock.startup), starts)
    result = run_until_stopped(differ.run, games, what="the diff was not finished")
    summary = diff_page.summarize(
        new=result.new,
        new_hello=result.new_hello,
        old=old,
        games=len(result.games),
        answers=result.answers,
        restarts=result.restarts,
    )
    click.echo(diff_page.text(summary), nl=False)
    _say_clock(clock, directories[0], (move_time, bank, startup))
    if output is not None:
        involved = {answer.decision.game_id for answer in (*summary.differences, *summary.faults)}
        data = diff_page.page_data(summary, games.records(involved), version=__version__)
        _write_page(pathlib.Path(output), page.render(data, f"rookarena diff: {result.new} against {old}"))
        click.echo(f"page: {printable(str(output))}")


def _diff_games(directories: tuple[str, ...], old: str, wanted: tuple[str, ...], limit: int | None) -> Stored:
    """The games of ``old`` that ``diff`` replays (``--game``, ``--limit``), each bad choice refused in one line."""
    from rookarena.web import sources  # noqa: PLC0415

    try:
        found = sources.select([pathlib.Path(d) for d in directories], old, set(wanted), limit)
    except RookError as exc:
        raise click.ClickException(str(exc)) from None
    if not found.known:
        raise click.ClickException(f"no games in {', '.join(repr(d) for d in directories)}")
    names = found.names
    if old not in names:
        shown = ", ".join(repr(name) for name in names)
        raise click.BadParameter(
            f"no bot {old!r} in the games of {', '.join(directories)}: expected one of {shown}", param_hint="OLD"
        )
    games = found.games
    known = found.known
    missing = [gid for gid in wanted if gid not in known]
    if missing:
        raise click.BadParameter(f"no game {missing[0]!r} in {', '.join(directories)}", param_hint="--game")
    if not games:
        raise click.ClickException(f"{old!r} played no game that can be replayed in {', '.join(directories)}")
    return games


def _say_clock(clock: TimeControl, directory: str, given: tuple[float | None, ...]) -> None:
    """The clock NEW gets, and where each part of it came from (a match's directory records none)."""
    from rookarena.arena.specs import seconds_text  # noqa: PLC0415

    if all(value is not None for value in given):
        source = "as given"
    elif (pathlib.Path(directory) / results.PLAN_FILE).exists():
        source = "the league's, where not given"
    else:
        source = (
            "the defaults where not given: a match's records keep no clock, so give --move-time and --bank as "
            "the match had them"
        )
    move, bank, startup = (seconds_text(value) for value in (clock.move, clock.bank, clock.startup))
    click.echo(f"clock: {move} s a move, a bank of {bank} s, {startup} s to start ({source})", err=True)


def _diff_clock(directory: str, move_time: float | None, bank: float | None, startup: float | None) -> TimeControl:
    """The clock ``diff`` gives NEW: each option given, else the league's (league.json), else the default."""
    import json  # noqa: PLC0415

    from rookarena.arena.specs import TimeControl  # noqa: PLC0415 (see FAULT_POLICIES)

    settings: dict[str, Any] = {}
    try:
        meta = json.loads((pathlib.Path(directory) / results.PLAN_FILE).read_text(encoding="utf-8"))
        settings = dict(meta.get("time") or {}) if isinstance(meta, dict) else {}
    except (OSError, ValueError, RecursionError):
        pass
    return TimeControl(
        move=move_time if move_time is not None else float(settings.get("move", 1.0)),
        bank=bank if bank is not None else float(settings.get("bank", 0.0)),
        startup=startup if startup is not None else float(settings.get("startup", 10.0)),
    )
