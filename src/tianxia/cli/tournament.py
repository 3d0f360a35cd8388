"""`tianxia tournament GAME --bots a,b,c -n N`: seeded games between bots, rated and charted."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from tianxia.cli.app import app
from tianxia.cli.common import load


@app.command()
def tournament(
    game_name: str = typer.Argument(..., metavar="GAME"),
    bots: str = typer.Option(
        ...,
        "--bots",
        "-b",
        help="entrants, comma separated; options after colons: ismcts:time_limit=1",
    ),
    n: int = typer.Option(20, "-n", help="number of games"),
    players: int = typer.Option(0, "--players", "-p", help="seats per game (0: the smallest)"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option name=value"),
    seed: int = typer.Option(0, "--seed", help="tournament seed: same seed, same games"),
    workers: int = typer.Option(0, "--workers", "-j", help="processes (0: one per core)"),
    out: Path = typer.Option(
        Path("runs/tournament"), "--out", help="folder for logs, results and charts (git-ignored)"
    ),
    ray: str | None = typer.Option(
        None,
        "--ray",
        metavar="[ADDRESS]",
        help="play the games as Ray tasks: on the cluster at ADDRESS, or (alone, or "
        "`local`) on a private one on this machine",
    ),
    fresh: bool = typer.Option(
        False, "--fresh", help="forget the games of an earlier run in --out instead of resuming"
    ),
) -> None:
    """Play N games between bots with seats rotated; rate them and chart the results.

    With fewer entrants than seats the last one fills the empty seats. Every finished game
    is written to OUT/games.jsonl at once; the same command run again resumes from it.
    """
    from tianxia.play import GameRecord, Tournament
    from tianxia.play.tournament import Forecast, Journal, default_workers, format_seconds

    if n < 1:
        raise typer.BadParameter("-n must be at least 1")
    if workers < 0:
        raise typer.BadParameter("--workers must be 0 (one per core) or more")
    game = load(game_name, players or None, option)
    entrants = [b.strip() for b in bots.split(",") if b.strip()]
    try:
        plan = Tournament(game, entrants, games=n, seed=seed)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from e
    console = Console()
    journal = out / "games.jsonl"
    held = 0
    if fresh:
        journal.unlink(missing_ok=True)
    elif journal.exists():
        # Counted as the run will count them: games of this tournament and length only.
        try:
            held = len(Journal(journal, plan).load())
        except ValueError as e:
            raise typer.BadParameter(str(e)) from e
        console.print(f"resuming from {journal}: {held} of {n} games already played")
    with contextlib.ExitStack() as stack:
        pool = None
        if ray is not None:
            from tianxia.play.cluster import RayPool

            try:
                pool = stack.enter_context(RayPool(ray, cpus=workers or None))
            except ValueError as e:
                raise typer.BadParameter(str(e)) from e
            jobs = pool.workers()
            console.print(f"Ray at {ray}: {jobs} CPUs")
        else:
            jobs = workers or default_workers()
        forecast = Forecast(plan, jobs)
        if n - held > 1:
            forecast.probe()
        with progress_bar(console) as bar:
            task = bar.add_task(f"{game_name} {game.players}p", total=n, left=None, at=0.0)

            def on_game(record: GameRecord) -> None:
                forecast.add(record)
                # The journal's games come first; the forecast speaks after the first game
                # this run plays, and only if more remain.
                if len(forecast.done) == held + 1 and held + 1 < n:
                    bar.console.print(
                        f"first game: {format_seconds(record.seconds)}; {forecast.summary()}"
                    )
                bar.update(task, advance=1, left=forecast.remaining(), at=time.monotonic())

            try:
                result = plan.run(workers=jobs, on_game=on_game, journal=journal, pool=pool)
            except ValueError as e:
                raise typer.BadParameter(str(e)) from e
    table = Table(title=f"{game.info.title}: {n} games, {game.players} players, seed {seed}")
    for col in result.COLUMNS:
        table.add_column(col, justify="left" if col == "bot" else "right")
    for row in result.table_rows():
        table.add_row(*row)
    console.print(table)
    for path in result.save(out):
        console.print(f"wrote {path}")


def ray_address_optional(argv: list[str]) -> list[str]:
    """`argv` with a bare `--ray` (last, or followed by another option) made `--ray=local`.

    The option's value is optional on the command line, which typer cannot declare.
    """
    out = list(argv)
    for i, arg in enumerate(out):
        if arg == "--ray" and (i + 1 == len(out) or out[i + 1].startswith("-")):
            out[i] = "--ray=local"
    return out


class TimeLeftColumn(ProgressColumn):
    """The forecast's time left, counting down between finished games.

    rich's own column estimates from the last 30 s of progress, which for games longer
    than that holds no finished game and shows nothing; the forecast prices every game
    still to play by who sits in it instead.
    """

    def render(self, task: Task) -> Text:
        from tianxia.play.tournament import format_seconds

        if task.finished:
            return Text("done", style="progress.remaining")
        left = task.fields.get("left")
        if left is None:
            return Text("timing a game", style="progress.remaining")
        since = time.monotonic() - float(task.fields.get("at", 0.0))
        return Text(f"~{format_seconds(max(0.0, left - since))} left", style="progress.remaining")


def progress_bar(console: Console) -> Progress:
    """Games done of all, time spent and time left."""
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TimeLeftColumn(),
        console=console,
        transient=True,
    )
