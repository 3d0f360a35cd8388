"""`tianxia play GAME`: a plain text loop, seats human or bot.

At a human seat the prompt accepts an action's notation, its number in the printed
list, or one of the words: `list`, `board`, `why` (the last bot move's explanation),
`explain <action>`, `undo`, `save <file>`, `quit`.
"""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.console import Console

import tianxia
from tianxia.cli.app import app
from tianxia.cli.common import Policy, bot_policy, load
from tianxia.core import CHANCE, IllegalActionError, Match, NotationError


def _default_game() -> str:
    names = tianxia.list_games()
    if not names:
        raise typer.BadParameter("no game is registered")
    return names[0]


def _show_actions(console: Console, match: Match) -> None:
    for i, a in enumerate(match.state.legal_actions()):
        console.print(f"  [bold]{i:>3}[/bold]  {a}")


def _show_board(console: Console, match: Match, seat: int | None) -> None:
    console.print_json(json.dumps(match.state.observation(seat)))


@app.command()
def play(
    game_name: str = typer.Argument("", metavar="GAME", help="a game from `tianxia games`"),
    players: int = typer.Option(0, "--players", "-p", help="player count (default: smallest)"),
    option: list[str] = typer.Option([], "--option", "-o", help="name=value, repeatable"),
    seats: str = typer.Option(
        "", "--seats", help="comma list of 'human' or a bot name per seat (default: seat 0 human)"
    ),
    seed: int = typer.Option(0, "--seed", help="seeds chance and the bots"),
    save: str = typer.Option("", "--save", help="write the match log here at the end"),
) -> None:
    """Play a game in the terminal against bots, or hotseat."""
    console = Console()
    name = game_name or _default_game()
    game = load(name, players or None, option)
    kinds = [s.strip() for s in seats.split(",")] if seats else []
    kinds += [
        "human" if i == 0 and not kinds else "random" for i in range(len(kinds), game.players)
    ]
    if len(kinds) != game.players:
        raise typer.BadParameter(f"{name} with {game.players} players needs {game.players} seats")
    policies: dict[int, Policy] = {}
    bots: dict[int, Any] = {}
    for seat, kind in enumerate(kinds):
        if kind != "human":
            policies[seat], bots[seat] = bot_policy(kind, game, seat, seed + 1000 * (seat + 1))
    match = Match(game, seed=seed)
    console.print(
        f"[bold]{game.info.title}[/bold], {game.players} players, seats: {', '.join(kinds)}"
    )
    last_bot: int | None = None
    while True:
        match.resolve_chance()
        state = match.state
        if state.is_terminal():
            break
        seat = state.current_player()
        if seat in policies:
            a = policies[seat](state)
            match.play(a)
            last_bot = seat
            console.print(f"seat {seat} ({kinds[seat]}): {a}")
            continue
        _show_board(console, match, seat)
        console.print(f"[bold]Seat {seat}[/bold] to act. Legal actions:")
        _show_actions(console, match)
        while True:
            try:
                text = input(f"seat {seat}> ").strip()
            except EOFError:
                console.print("input ended; the game stops here")
                _finish(console, match, save)
                return
            if not text:
                continue
            word, _, rest = text.partition(" ")
            if word == "quit":
                _finish(console, match, save)
                return
            if word == "list":
                _show_actions(console, match)
                continue
            if word == "board":
                _show_board(console, match, seat)
                continue
            if word == "why":
                bot = bots.get(last_bot) if last_bot is not None else None
                console.print(bot.explain() if bot is not None else "no bot has moved yet")
                continue
            if word == "explain" and rest:
                console.print(state.explain(rest.strip()))
                continue
            if word == "undo":
                _undo_own(console, match, seat)
                break
            if word == "save" and rest:
                match.save(rest.strip())
                console.print(f"saved to {rest.strip()}")
                continue
            try:
                legal = state.legal_actions()
                if text.isdigit() and int(text) < len(legal):
                    match.play(legal[int(text)])
                else:
                    match.play(text)
            except (IllegalActionError, NotationError) as e:
                rule = getattr(e, "rule", "")
                console.print(f"[red]refused[/red] {rule}: {getattr(e, 'reason', e)}")
                continue
            break
    _finish(console, match, save)


def _undo_own(console: Console, match: Match, seat: int) -> None:
    """Take back the seat's own actions back to its last decision, stopping at chance."""
    if not match.log or match.seat_of(len(match.log) - 1) != seat:
        console.print("nothing of yours to take back since the last hidden or random event")
        return
    while match.log and match.seat_of(len(match.log) - 1) == seat:
        console.print(f"took back {match.undo()}")
        if match.log and match.seat_of(len(match.log) - 1) == CHANCE:
            break


def _finish(console: Console, match: Match, save: str) -> None:
    state = match.state
    console.print(f"scores: {state.scores()}")
    if state.is_terminal():
        console.print(f"returns: {state.returns()}")
    if save:
        match.save(save)
        console.print(f"saved to {save}")
