"""A full game of every registered title played through the terminal player by
keystrokes: seat 0 a person choosing from the list or typing the notation, the other
seats greedy bots (the "easy" strength: fast, and purposeful enough to end games soon)."""

from __future__ import annotations

import asyncio
import functools
import io
import random
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import OptionList, Static

import tianxia
from tianxia.tui import TianxiaApp
from tianxia.tui.screens import GameScreen, HandOverScreen, MessageScreen, SetupScreen


def sync(fn: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async test under plain pytest (no asyncio plugin is installed)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(fn(*args, **kwargs))

    return wrapper


def plain(widget: Static) -> str:
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


# Three titles in make test, the two longest games (Mandarin, the Silk Road) in make
# test-long: the keystrokes are the same, only the game is longer.
@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.slow) if n in ("mandarin", "silkroad") else n
        for n in tianxia.list_games()
    ],
)
@sync
async def test_a_full_game_by_keystrokes_against_bots(name: str) -> None:
    cls = tianxia.core.game_class(name)
    players = cls.MIN_PLAYERS
    seats = ["human"] + ["easy"] * (players - 1)
    app = TianxiaApp(game=name, players=players, seats=seats, seed=3, bot_delay=0)
    chooser = random.Random(5)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        await pilot.click("#start")
        await pilot.pause()
        table = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        played = table.table
        mine = 0
        limit = played.game.info.max_game_length
        while not played.state.is_terminal():
            assert len(played.match.log) <= limit
            await app.workers.wait_for_complete()
            if isinstance(app.screen, HandOverScreen):
                await pilot.press("enter")
                continue
            if not table.awaiting_human():
                await pilot.pause()
                continue
            legal = played.state.legal_actions()
            options = table.query_one("#actions", OptionList)
            assert options.option_count == len(legal)
            before = len(played.match.log)
            # Mostly the highlighted first move (one key), sometimes a few rows down, and
            # now and then a move anywhere in the list typed in notation.
            if mine % 25 == 24:
                i = chooser.randrange(len(legal))
            elif chooser.random() < 0.7:
                i = 0
            else:
                i = chooser.randrange(min(4, len(legal)))
            if i < 4:
                await pilot.press(*(["down"] * i), "enter")
            else:
                await pilot.press("slash", *str(legal[i]), "enter")
            assert played.match.log[before] == legal[i]
            assert played.match.seat_of(before) == 0
            mine += 1
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert mine > 0
        assert isinstance(app.screen, MessageScreen)
        body = plain(app.screen.query_one("#message-body", Static))
        assert "Final scores" in body
        for seat, score in enumerate(played.state.scores()):
            assert f"P{seat + 1}" in body and f"{score:g}" in body
        assert tianxia.replay(played.game, played.match.log) == played.state
