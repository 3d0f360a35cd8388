"""`tianxia replay FILE`: step through a saved match."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console

from tianxia.cli.app import app
from tianxia.core import CHANCE, IllegalActionError, Match, NotationError


@app.command()
def replay(
    file: Path = typer.Argument(..., help="a match saved by play, simulate or the terminal player"),
    upto: int = typer.Option(-1, "--upto", help="stop after this many actions"),
    board: bool = typer.Option(False, "--board", help="print the spectator's view at the end"),
) -> None:
    """Replay a saved match action by action and check it against the rules."""
    console = Console()
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        full = Match.from_json(data)
    except (
        OSError,
        json.JSONDecodeError,
        KeyError,
        ValueError,
        IllegalActionError,
        NotationError,
    ) as e:
        console.print(f"[red]cannot replay {file}[/red]: {e}")
        raise typer.Exit(1) from e
    steps = len(full.log) if upto < 0 else min(upto, len(full.log))
    for i in range(steps):
        seat = full.seat_of(i)
        who = "chance" if seat == CHANCE else f"seat {seat}"
        console.print(f"{i + 1:>4}  {who:>8}  {full.log[i]}")
    state = full.history[steps]
    if board:
        console.print_json(json.dumps(state.observation(None)))
    console.print(f"scores after {steps} actions: {state.scores()}")
    if state.is_terminal():
        console.print(f"final returns: {state.returns()}")
