"""`tianxia replay FILE`: step through a saved match."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console

from tianxia.cli.app import app
from tianxia.cli.play import scores_table
from tianxia.core import Match


def load_save(path: Path) -> Match:
    """A saved match, or a ValueError naming the file and what is wrong with it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ValueError(f"cannot read {path}: {e.strerror or e}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ValueError(f"{path} is not a saved game (it is not JSON: {e})") from None
    try:
        return Match.from_json(data)
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{path} is not a saved game this version can replay: {e}") from None


@app.command()
def replay(
    file: Path = typer.Argument(..., help="a match saved by play, simulate or the terminal player"),
    upto: int = typer.Option(-1, "--upto", help="stop after this many actions"),
    board: bool = typer.Option(False, "--board", help="draw the spectator's board at the end"),
    as_json: bool = typer.Option(
        False, "--json", help="with --board: print the observation as JSON instead"
    ),
) -> None:
    """Replay a saved match action by action and check it against the rules."""
    console = Console()
    try:
        full = load_save(file)
    except ValueError as e:
        console.print(f"[red]cannot replay:[/red] {e}", highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    steps = len(full.log) if upto < 0 else min(upto, len(full.log))
    for event in full.events_for(None)[:steps]:
        console.print(f"{event['seq']:>4}  {event['text']}", highlight=False)
    state = full.history[steps]
    if board:
        if as_json:
            console.print_json(json.dumps(state.envelope(None, steps)))
        else:
            from tianxia.tui.render import context, render

            console.print(
                render(
                    full.game.NAME,
                    state.observation(None),
                    context(full.game, None, over=state.is_terminal()),
                )
            )
    console.print(f"after {steps} of {len(full.log)} actions:")
    console.print(scores_table(full.game, state))
    if state.is_terminal():
        console.print(
            "final returns: " + ", ".join(f"{r:+.2f}" for r in state.returns()), highlight=False
        )
