"""`tianxia games`: the registered games with their player counts and options."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

import tianxia
from tianxia.cli.app import app
from tianxia.core.registry import game_class


@app.command()
def games() -> None:
    """List the games, their player counts and options."""
    table = Table(title="Tianxia games")
    for col in ("name", "title", "players", "options"):
        table.add_column(col)
    for name in tianxia.list_games():
        cls = game_class(name)
        opts = "\n".join(
            f"{o.name}: {' | '.join(map(str, o.choices))} (default {o.default}) {o.help}".rstrip()
            for o in cls.OPTIONS
        )
        table.add_row(name, cls.TITLE, f"{cls.MIN_PLAYERS}-{cls.MAX_PLAYERS}", opts or "-")
    Console().print(table)
