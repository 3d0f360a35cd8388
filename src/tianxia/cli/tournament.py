"""`tianxia tournament GAME --bots a,b,c -n N`: seeded games between bots, rated and charted."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

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
) -> None:
    """Play N games between bots with seats rotated; rate them and chart the results.

    With fewer entrants than seats the last one fills the empty seats.
    """
    from tianxia.play import Tournament
    from tianxia.play.tournament import default_workers

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
    columns = (*Progress.get_default_columns()[:1], BarColumn(), MofNCompleteColumn())
    with Progress(*columns, TimeRemainingColumn(), console=console, transient=True) as bar:
        task = bar.add_task(f"{game_name} {game.players}p", total=n)
        result = plan.run(workers=workers or default_workers(), on_game=lambda _: bar.advance(task))
    table = Table(title=f"{game.info.title}: {n} games, {game.players} players, seed {seed}")
    for col in result.COLUMNS:
        table.add_column(col, justify="left" if col == "bot" else "right")
    for row in result.table_rows():
        table.add_row(*row)
    console.print(table)
    for path in result.save(out):
        console.print(f"wrote {path}")
