"""`tianxia play GAME`: a plain text loop, seats human or bot.

At a human seat the prompt accepts an action's notation, its number in the printed
list, or one of the words: `list`, `board`, `why` (the last bot move's explanation),
`explain <action>`, `undo` (the table's one undo rule: see docs/engine.md), `save <file>`,
`quit`. Before each prompt the seat reads the events since its last one, as the engine
tells them to that seat.
"""

from __future__ import annotations

import json

import typer
from rich.console import Console

import tianxia
from tianxia.cli.app import app
from tianxia.cli.common import bot_policy, load
from tianxia.core import IllegalActionError, Match, NotationError, seat_name
from tianxia.play.table import SeatPlan, Table


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
    plans = [SeatPlan("human") if k == "human" else SeatPlan("bot", k) for k in kinds]
    made = {
        seat: bot_policy(kind, game, seat, seed + 1000 * (seat + 1))[1]
        for seat, kind in enumerate(kinds)
        if kind != "human"
    }
    table = Table(Match(game, seed=seed), plans, bots=made)
    console.print(
        f"[bold]{game.info.title}[/bold], {game.players} players, seats: {', '.join(kinds)}"
    )
    seen = 0
    while True:
        state = table.state
        if state.is_terminal():
            break
        seat = table.to_move()
        if seat in table.bots:
            st, a, why = table.bot_choice(seat)
            table.play_bot(seat, st, a, why)
            console.print(f"{seat_name(seat)} ({kinds[seat]}): {a}")
            continue
        for e in table.events_for(seat, since=seen):
            who = "chance" if e["seat"] is None else seat_name(e["seat"])
            console.print(f"[dim]{e['seq']:>4} {who}: {e['text']}[/dim]")
        seen = table.seq
        _show_board(console, table.match, seat)
        console.print(f"[bold]{seat_name(seat)}[/bold] to act. Legal actions:")
        _show_actions(console, table.match)
        while True:
            try:
                text = input(f"{seat_name(seat)}> ").strip()
            except EOFError:
                console.print("input ended; the game stops here")
                _finish(console, table.match, save)
                return
            if not text:
                continue
            word, _, rest = text.partition(" ")
            if word == "quit":
                _finish(console, table.match, save)
                return
            if word == "list":
                _show_actions(console, table.match)
                continue
            if word == "board":
                _show_board(console, table.match, seat)
                continue
            if word == "why":
                last = table.last_explanation()
                console.print(last[2] if last is not None else "no bot has moved yet")
                continue
            if word == "explain" and rest:
                console.print(state.explain(rest.strip()))
                continue
            if word == "undo":
                try:
                    console.print(f"took back {table.undo(seat)}")
                except IllegalActionError as e:
                    console.print(f"[yellow]{e.rule}[/yellow]: {e.reason}")
                    continue
                seen = min(seen, table.seq)
                break
            if word == "save" and rest:
                table.save(rest.strip())
                console.print(f"saved to {rest.strip()}")
                continue
            try:
                legal = state.legal_actions()
                if text.isdigit() and int(text) < len(legal):
                    table.play(legal[int(text)], seat)
                else:
                    table.play(text, seat)
            except (IllegalActionError, NotationError) as e:
                rule = getattr(e, "rule", "")
                console.print(f"[red]refused[/red] {rule}: {getattr(e, 'reason', e)}")
                continue
            break
    _finish(console, table.match, save)


def _finish(console: Console, match: Match, save: str) -> None:
    state = match.state
    console.print(f"scores: {state.scores()}")
    if state.is_terminal():
        console.print(f"returns: {state.returns()}")
    if save:
        match.save(save)
        console.print(f"saved to {save}")
