"""`tianxia simulate GAME -n N`: many seeded games between bots, with a results table."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from tianxia.cli.app import app
from tianxia.cli.common import bot_policy, load
from tianxia.core import Game, Match
from tianxia.play import play_match


def run_one(game: Game, bot_names: list[str], seed: int) -> Match:
    """One game from `seed`, seat i played by `bot_names[i]`."""
    policies = [
        bot_policy(name, game, seat, seed * 7919 + seat)[0] for seat, name in enumerate(bot_names)
    ]
    return play_match(game, policies, seed=seed)


@app.command()
def simulate(
    game_name: str = typer.Argument(..., metavar="GAME"),
    n: int = typer.Option(10, "-n", help="number of games"),
    players: int = typer.Option(0, "--players", "-p"),
    option: list[str] = typer.Option([], "--option", "-o", help="name=value, repeatable"),
    bots: str = typer.Option("random", "--bots", help="bot per seat, comma separated (cycled)"),
    seed: int = typer.Option(0, "--seed", help="game i uses seed+i"),
    log_dir: Path | None = typer.Option(None, "--log-dir", help="save every game's log here"),
) -> None:
    """Play N games between bots and report wins and mean scores per seat."""
    if n < 1:
        raise typer.BadParameter("-n must be at least 1")
    game = load(game_name, players or None, option)
    names = [b.strip() for b in bots.split(",") if b.strip()] or ["random"]
    seat_bots = [names[i % len(names)] for i in range(game.players)]
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
    wins = [0.0] * game.players
    score_sum = [0.0] * game.players
    lengths = 0
    with Progress(transient=True) as progress:
        task = progress.add_task(f"{game_name}", total=n)
        for i in range(n):
            match = run_one(game, seat_bots, seed + i)
            final = match.state
            returns = final.returns()
            best = max(returns)
            winners = [s for s, r in enumerate(returns) if r == best]
            for s in winners:
                wins[s] += 1 / len(winners)
            for s, v in enumerate(final.scores()):
                score_sum[s] += v
            lengths += len(match.log)
            if log_dir is not None:
                match.save(log_dir / f"{game_name}-{seed + i:06d}.json")
            progress.advance(task)
    table = Table(title=f"{game.info.title}: {n} games, {game.players} players, seed {seed}")
    for col in ("seat", "bot", "wins", "win %", "mean score"):
        table.add_column(col, justify="right")
    for s in range(game.players):
        table.add_row(
            str(s),
            seat_bots[s],
            f"{wins[s]:g}",
            f"{100 * wins[s] / n:.1f}",
            f"{score_sum[s] / n:.2f}",
        )
    console = Console()
    console.print(table)
    console.print(f"mean game length: {lengths / n:.1f} actions (chance outcomes included)")
