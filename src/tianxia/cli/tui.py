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
    bot_delay: float = typer.Option(0.3, min=0.0, help="Seconds a bot waits before moving."),
) -> None:
    """Open the terminal player: choose a game and seats, then play."""
    from tianxia.cli.common import load
    from tianxia.play.table import SeatPlan
    from tianxia.tui import TianxiaApp
    from tianxia.tui.screens import playable_games

    if game not in playable_games():
        raise typer.BadParameter(f"no game called {game!r} (games: {', '.join(playable_games())})")
    variant = load(game, players, option)
    if len(seat) > variant.players:
        raise typer.BadParameter(f"{len(seat)} seats given for {variant.players} players")
    for s in seat:
        try:
            SeatPlan.parse(s)
        except ValueError as e:
            raise typer.BadParameter(str(e)) from e
    TianxiaApp(
        game=game,
        players=variant.players,
        options=dict(variant.options),
        seats=[s.strip().lower().removeprefix("bot:") for s in seat],
        seed=seed,
        bot_delay=bot_delay,
    ).run()
