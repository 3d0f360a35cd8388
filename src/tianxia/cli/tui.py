"""`tianxia tui`: the terminal player."""

from __future__ import annotations

import typer

from tianxia.cli.app import app


@app.command()
def tui(
    game: str = typer.Option("china", help="The game the set-up screen shows first."),
    players: int | None = typer.Option(None, help="Its player count."),
    seat: list[str] = typer.Option(
        [], "--seat", help="Per seat in order: human, random, easy, medium or hard."
    ),
    option: list[str] = typer.Option([], "--option", "-o", help="A game option, name=value."),
    seed: int = typer.Option(0, help="Seed of the chance stream."),
    bot_delay: float = typer.Option(0.3, help="Seconds a bot waits before moving."),
) -> None:
    """Open the terminal player: choose a game and seats, then play."""
    from tianxia.cli.common import parse_options
    from tianxia.tui import TianxiaApp

    TianxiaApp(
        game=game,
        players=players,
        options=parse_options(option),
        seats=seat,
        seed=seed,
        bot_delay=bot_delay,
    ).run()
