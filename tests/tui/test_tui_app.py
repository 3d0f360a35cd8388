"""The terminal player driven by keystrokes on the test game `highcard`: refusals,
hotseat hand-over, save, load, replay, and a bot's reasons."""

from __future__ import annotations

import asyncio
import functools
import io
import json
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, RichLog, Select, Static

import tianxia
from tianxia.core import Match
from tianxia.play.table import SeatPlan, Table
from tianxia.tui import TianxiaApp
from tianxia.tui.screens import (
    DEFAULT_SAVE,
    Confirm,
    GameScreen,
    HandOverScreen,
    MessageScreen,
    PathPrompt,
    ReplayScreen,
    SetupScreen,
)

SIZE = (120, 40)


def sync(fn: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async test under plain pytest (no asyncio plugin is installed)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(fn(*args, **kwargs))

    return wrapper


def plain(widget: Static) -> str:
    """What a static widget shows, as plain text."""
    console = Console(width=160, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


def log_text(app: TianxiaApp) -> str:
    log = app.screen.query_one("#log", RichLog)
    return "\n".join(strip.text for strip in log.lines)


def text_of(app: TianxiaApp, selector: str) -> str:
    return plain(app.screen.query_one(selector, Static))


async def settle(app: TianxiaApp, pilot: Pilot[None]) -> None:
    """Let bots finish thinking and the screen catch up."""
    for _ in range(3):
        await app.workers.wait_for_complete()
        await pilot.pause()


async def start(app: TianxiaApp, pilot: Pilot[None]) -> GameScreen:
    await pilot.pause()
    assert isinstance(app.screen, SetupScreen)
    await pilot.click("#start")
    await settle(app, pilot)
    table = next(s for s in app.screen_stack if isinstance(s, GameScreen))
    return table


async def type_in(pilot: Pilot[None], text: str) -> None:
    await pilot.press(*text)


@sync
async def test_a_refused_move_shows_the_rule_and_reason_and_changes_nothing() -> None:
    app = TianxiaApp(
        game="highcard", options={"swaps": False}, seats=["human", "random"], seed=2, bot_delay=0
    )
    async with app.run_test(size=SIZE) as pilot:
        table = await start(app, pilot)
        before = table.table.state
        await pilot.press("slash")
        await type_in(pilot, "swap")
        await pilot.press("enter")
        message = text_of(app, "#message")
        assert "HC-2" in message
        assert "swapping is switched off in this variant" in message
        assert table.table.state is before
        await type_in(pilot, "fold")
        await pilot.press("enter")
        assert "Not a move" in text_of(app, "#message")
        assert table.table.state is before


@sync
async def test_typed_notation_plays_the_move() -> None:
    app = TianxiaApp(game="highcard", seats=["human", "random"], seed=5, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        table = await start(app, pilot)
        await pilot.press("slash")
        await type_in(pilot, "stay")
        await pilot.press("enter")
        await settle(app, pilot)
        players = [table.table.match.seat_of(i) for i in range(len(table.table.match.log))]
        assert "stay" in [str(a) for a in table.table.match.log]
        assert 0 in players


@sync
async def test_a_full_game_against_a_bot_ends_with_the_scores() -> None:
    app = TianxiaApp(game="highcard", players=3, seats=["human", "random", "easy"], seed=9)
    app.bot_delay = 0
    async with app.run_test(size=SIZE) as pilot:
        table = await start(app, pilot)
        assert table.table.game.players == 3
        assert [p.label() for p in table.table.seats] == ["human", "bot (random)", "bot (easy)"]
        await pilot.press("down", "enter")  # swap
        await settle(app, pilot)
        state = table.table.state
        assert state.is_terminal()
        assert isinstance(app.screen, MessageScreen)
        body = plain(app.screen.query_one("#message-body", Static))
        assert "Final scores" in body
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)
        log = log_text(app)
        assert "swap" in log
        # After the end every card is shown, the other seats' deals included.
        assert "is dealt a card" not in log


@sync
async def test_the_log_hides_the_other_seats_cards_while_playing() -> None:
    app = TianxiaApp(game="highcard", seats=["random", "human"], seed=3, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        table = await start(app, pilot)
        s = table.table
        assert s.to_move() == 1
        lines = s.log_lines(1)
        p1_deal, p2_deal = lines[0], lines[1]
        assert p1_deal["action"] is None and p1_deal["text"] == "P1 is dealt a card"
        assert p2_deal["action"] is not None
        log = log_text(app)
        assert "P1 is dealt a card" in log
        assert f"P2 is dealt a {s.state.observation(1)['my_card']}" in log


@sync
async def test_hotseat_hides_each_hand_behind_a_hand_over() -> None:
    app = TianxiaApp(game="highcard", seats=["human", "human"], seed=4, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        table = await start(app, pilot)
        assert isinstance(app.screen, HandOverScreen)
        assert table.viewer() is None, "behind the hand-over the table shows no hand"
        assert "my_card" in plain(table.query_one("#board", Static))
        assert not table.awaiting_human()
        await pilot.press("enter")
        assert isinstance(app.screen, GameScreen)
        assert table.viewer() == 0
        mine = table.table.state.observation(0)["my_card"]
        assert str(mine) in text_of(app, "#board")
        await pilot.press("enter")  # stay
        assert isinstance(app.screen, HandOverScreen)
        assert table.viewer() is None
        await pilot.press("enter")
        assert table.viewer() == 1
        await pilot.press("enter")
        await settle(app, pilot)
        assert table.table.state.is_terminal()


@sync
async def test_save_load_and_replay_step_by_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Files are named relative to the working folder, so the keystrokes stay few.
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "hc.json"
    app = TianxiaApp(game="highcard", seats=["human", "random"], seed=11, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        table = await start(app, pilot)
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, PathPrompt)
        await type_in(pilot, "hc.json")  # replaces the proposed name, which is selected
        await pilot.press("enter")
        saved = json.loads(path.read_text())
        assert saved["game"] == "highcard"
        assert saved["log"] == [str(a) for a in table.table.match.log]
        assert "Saved" in text_of(app, "#message")

    # A bad file is refused with its reason and nothing starts.
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    app = TianxiaApp(game="highcard", seats=["human", "random"], bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.click("#load")
        await type_in(pilot, "bad.json")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert "not a saved game" in text_of(app, "#setup-message")

        await pilot.click("#load")
        await type_in(pilot, "hc.json")  # replaces the proposed name, which is selected
        await pilot.press("enter")
        await pilot.pause()
        assert "Continuing" in text_of(app, "#setup-message")
        await pilot.click("#start")
        await settle(app, pilot)
        table = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        assert [str(a) for a in table.table.match.log] == saved["log"]
        await pilot.press("enter")
        await settle(app, pilot)
        assert table.table.state.is_terminal()
        table.table.save(path)
        final = Match.load(path)
        await pilot.press("escape", "escape")  # close the scores, back to the set-up
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        assert setup.loaded is None, "the loaded game is not started twice"
        assert not setup.query_one("#game", Select).disabled

    app = TianxiaApp(game="highcard", bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.click("#replay")
        await type_in(pilot, "hc.json")  # replaces the proposed name, which is selected
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert f"Step 0 of {len(final.log)}" in text_of(app, "#replay-status")
        await pilot.press("right", "right")
        assert screen.step == 2
        assert f"Step 2 of {len(final.log)}" in text_of(app, "#replay-status")
        await pilot.press("left")
        assert screen.step == 1
        await pilot.press("end")
        assert "Final scores" in text_of(app, "#replay-status")
        await pilot.press("v")
        assert screen.viewer == 0
        state = tianxia.replay(final.game, final.log)
        assert str(state.observation(0)["my_card"]) in text_of(app, "#board")


@sync
async def test_why_shows_the_bots_reasons() -> None:
    app = TianxiaApp(game="highcard", seats=["random", "human"], seed=6, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        table = await start(app, pilot)
        seat, _index, text = table.table.last_explanation() or (None, None, "")
        assert seat == 0 and text
        await pilot.press("ctrl+y")
        assert isinstance(app.screen, MessageScreen)
        assert "Why did P1 play" in plain(app.screen.query_one(".dialog-title", Static))
        assert text in plain(app.screen.query_one("#message-body", Static))


@sync
async def test_setup_refuses_a_bad_seed_and_starts_nothing() -> None:
    app = TianxiaApp(game="highcard", bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.screen.query_one("#seed").value = "12x"  # type: ignore[attr-defined]
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert "whole number" in text_of(app, "#setup-message")


@sync
async def test_setup_lays_out_players_options_and_seats_of_the_chosen_game() -> None:
    app = TianxiaApp(game="highcard", bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        assert len(screen.query("#seats Select")) == 2
        screen.query_one("#players", Select).value = 3
        await pilot.pause()
        assert len(screen.query("#seats Select")) == 3
        screen.query_one("#opt-swaps", Select).value = "0"  # the first choice: no swaps
        screen.query_one("#seat-1", Select).value = "human"
        await pilot.pause()
        await pilot.click("#start")
        await pilot.pause()
        table = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        assert table.table.game.players == 3
        assert table.table.game.options["swaps"] is False
        assert table.table.humans() == [0, 1]


@sync
async def test_a_failing_bot_is_reported_and_the_position_kept() -> None:
    app = TianxiaApp(game="highcard", seats=["random", "human"], seed=6, bot_delay=0)

    class Broken:
        def act(self, state: Any) -> Any:
            raise RuntimeError("no idea")

        def explain(self) -> str:
            return ""

    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        played = Table(
            Match(tianxia.load_game("highcard"), seed=1),
            [SeatPlan("bot", "random"), SeatPlan("human")],
        )
        played.bots[0] = Broken()
        before = played.state
        await app.push_screen(GameScreen(played, bot_delay=0))
        await settle(app, pilot)
        assert played.state is before
        assert "P1's bot failed" in text_of(app, "#message")


@sync
async def test_a_move_is_chosen_with_the_mouse() -> None:
    app = TianxiaApp(game="highcard", seats=["human", "random"], seed=8, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        table = await start(app, pilot)
        actions = table.query_one("#actions", OptionList)
        assert [str(o.prompt) for o in actions.options] == ["stay", "swap"]
        # The list has a border row above its first option.
        await pilot.click("#actions", offset=(4, 2))
        await settle(app, pilot)
        assert str(table.table.match.log[2]) == "swap"
        assert table.table.match.seat_of(2) == 0


@sync
async def test_leaving_mid_game_asks_and_saves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = TianxiaApp(game="highcard", seats=["human", "random"], seed=3, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        table = await start(app, pilot)
        await pilot.press("escape")
        assert isinstance(app.screen, Confirm), "leaving a game in progress asks first"
        await pilot.press("escape")  # stay
        assert app.screen is table
        await pilot.press("escape")
        await pilot.click("#yes")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        saved = Match.load(tmp_path / DEFAULT_SAVE)
        assert saved.log == table.table.match.log
        assert "Saved the game to" in text_of(app, "#setup-message")


@sync
async def test_typing_a_move_never_fires_a_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = TianxiaApp(game="highcard", seats=["human", "random"], seed=5, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        table = await start(app, pilot)
        await type_in(pilot, "swap")  # s, w: once save and why
        assert app.screen is table
        assert table.query_one("#notation", Input).value == "swap"
        await pilot.press("enter")
        await settle(app, pilot)
        assert "swap" in [str(a) for a in table.table.match.log]
        assert not (tmp_path / DEFAULT_SAVE).exists()


@sync
async def test_help_and_the_rules_are_one_key_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "older.json").write_text("{}")
    app = TianxiaApp(game="highcard", seats=["human", "random"], seed=5, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        table = await start(app, pilot)
        await pilot.press("f1")
        assert isinstance(app.screen, MessageScreen)
        assert "Ctrl-Z" in plain(app.screen.query_one("#message-body", Static))
        await pilot.press("escape", "ctrl+r")
        assert isinstance(app.screen, MessageScreen)
        assert "docs/rules/highcard.md" in plain(app.screen.query_one("#message-body", Static))
        await pilot.press("escape", "ctrl+s")
        assert isinstance(app.screen, PathPrompt)
        # Save and load propose the same name, and list the saved games to pick from.
        assert app.screen.query_one("#path", Input).value == DEFAULT_SAVE
        files = app.screen.query_one("#files", OptionList)
        assert [str(o.prompt) for o in files.options] == ["older.json"]
        await pilot.press("escape")
        assert app.screen is table
