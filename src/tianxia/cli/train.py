"""`tianxia train GAME --players N --iterations K --out PATH`: expert iteration (extra `learn`)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from tianxia.cli.app import app
from tianxia.cli.common import load


@app.command()
def train(
    game_name: str = typer.Argument(..., metavar="GAME"),
    players: int = typer.Option(0, "--players", "-p", help="seats per game (0: the smallest)"),
    iterations: int = typer.Option(10, "--iterations", "-k", help="self-play and training rounds"),
    out: Path = typer.Option(..., "--out", help="the weights file to write (.npz)"),
    games: int = typer.Option(16, "--games", "-n", help="self-play games per iteration"),
    simulations: int = typer.Option(64, "--simulations", help="search simulations per move"),
    hidden: str = typer.Option("128,128", "--hidden", help="hidden layer widths, comma separated"),
    hook: float = typer.Option(
        0.5, "--hook", help="weight of the evaluation hook in a leaf's value during self-play"
    ),
    epochs: int = typer.Option(4, "--epochs", help="passes over the window per iteration"),
    window: int = typer.Option(4, "--window", help="iterations of games trained on"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option name=value"),
    seed: int = typer.Option(0, "--seed", help="same seed and settings, same games"),
    workers: int = typer.Option(0, "--workers", "-j", help="games at once (0: one per core)"),
    backend: str = typer.Option("auto", "--backend", help="auto (Ray if installed), ray or pool"),
    checkpoint: Path | None = typer.Option(
        None, "--checkpoint", help="folder of the run's games and model (default: OUT.train)"
    ),
) -> None:
    """Train the `learned` bot's network by self-play with the guided search.

    Every finished game and every iteration's model are checkpointed; the same command
    run again continues where a killed run stopped (and a larger -k goes on training).
    """
    from tianxia.bots.learned_train import TrainConfig, default_workers
    from tianxia.bots.learned_train import train as run

    game = load(game_name, players or None, option)
    for name, value in (("--iterations", iterations), ("--games", games)):
        if value < 1:
            raise typer.BadParameter(f"{name} must be at least 1")
    if simulations < 1 or epochs < 1 or window < 1:
        raise typer.BadParameter("--simulations, --epochs and --window must be at least 1")
    if not 0.0 <= hook <= 1.0:
        raise typer.BadParameter(f"--hook must lie in 0..1, not {hook}")
    try:
        widths = [int(w) for w in hidden.split(",") if w.strip()]
    except ValueError:
        raise typer.BadParameter(f"--hidden takes widths such as 128,128, not {hidden!r}") from None
    if not widths or min(widths) < 1:
        raise typer.BadParameter(f"--hidden takes widths such as 128,128, not {hidden!r}")
    config = TrainConfig(
        game=game.NAME,
        players=game.players,
        iterations=iterations,
        games=games,
        simulations=simulations,
        hidden=widths,
        hook=hook,
        epochs=epochs,
        window=window,
        seed=seed,
        options=dict(game.spec()["options"]),
    )
    console = Console()
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console) as bar:
        rounds = bar.add_task("iterations", total=iterations)
        played = bar.add_task("self-play games", total=games)

        def progress(what: str, done: int, total: int) -> None:
            bar.update(rounds if what == "iterations" else played, completed=done, total=total)

        try:
            net = run(
                config,
                out,
                checkpoint=checkpoint,
                workers=workers or default_workers(),
                backend=backend,
                progress=progress,
            )
        except ValueError as e:
            raise typer.BadParameter(str(e)) from e
    trained = net.header.get("trained", {})
    console.print(
        f"{out}: {game.info.title}, {game.players} players, after "
        f"{trained.get('iterations', '?')} iterations and {trained.get('games', '?')} games"
    )
