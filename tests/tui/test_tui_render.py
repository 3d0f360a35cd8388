"""Every board renderer draws every position of a seeded random game, for each seat and
for a spectator, and shows what the observation holds."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import tianxia
from tianxia.core import Match
from tianxia.games.silkroad.data import load_data
from tianxia.games.silkroad.game import SilkroadGame
from tianxia.games.silkroad.position import position
from tianxia.tui.render import Context, generic, render, renderer_for


def drawn(name: str, obs: Any, ctx: Context) -> str:
    console = Console(width=140, record=True, file=io.StringIO(), color_system=None)
    console.print(render(name, obs, ctx))
    return console.export_text()


def expected(name: str, obs: dict[str, Any]) -> list[str]:
    """Words the board must show for this observation."""
    if name == "china":
        return [p["name"] for p in obs["provinces"]]
    if name == "greatwall":
        return [s["name"] for s in obs["sections"]] + [str(f) for f in obs["scores"]]
    if name == "emperor":
        return ["Emperor of China", "borders", "Kiangsu", "~"] + [
            str(p["score"]) for p in obs["players"]
        ]
    if name == "mandarin":
        return ["rat", "ox", "tiger", "pig", f"dispenser: {obs['dispenser']}"]
    if name == "silkroad":
        return ["Samarkand", "Venice"] + [m["colour"] for m in obs["merchants"]]
    return []


@pytest.mark.parametrize("name", tianxia.list_games())
def test_every_position_is_drawn_for_every_seat_and_a_spectator(name: str) -> None:
    game = tianxia.load_game(name)
    match = Match(game, seed=4)
    rng = random.Random(4)
    step = 0
    while True:
        if step % 15 == 0 or match.state.is_terminal():
            for viewer in [None, *range(game.players)]:
                obs = match.state.observation(viewer)
                names = tuple(f"P{i + 1}" for i in range(game.players))
                text = drawn(name, obs, Context(viewer, game.players, names, layout=game.layout()))
                for word in expected(name, obs):
                    assert word in text, f"{word!r} missing from the board of {name}"
        if match.state.is_terminal():
            break
        match.resolve_chance()
        if not match.state.is_terminal():
            match.play(rng.choice(match.state.legal_actions()))
        step += 1


def test_a_game_without_its_own_renderer_gets_the_generic_one() -> None:
    assert renderer_for("highcard") is generic.render
    obs = {"seat": 1, "cards": [1, 2], "players": [{"score": 3}, {"score": 5}]}
    text = drawn("highcard", obs, Context(1, 2, ("P1", "P2")))
    assert "P2" in text  # the seat, by its name
    assert "1, 2" in text
    assert "score" in text and "3" in text and "5" in text


@pytest.mark.parametrize("name", [n for n in tianxia.list_games() if n != "highcard"])
def test_each_game_has_its_own_renderer(name: str) -> None:
    assert renderer_for(name) is not generic.render


def test_counts_read_1_card_not_1_cards() -> None:
    from tianxia.tui.render.common import plural
    from tianxia.tui.screens import option_text

    assert plural(1, "card") == "1 card" and plural(0, "card") == "0 cards"
    assert (option_text(True), option_text(False), option_text("4-5")) == ("on", "off", "4-5")


def test_the_silk_road_shows_the_bazaar_row_and_a_track_that_has_run_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    printed = Path(__file__).parents[1] / "data" / "silkroad-printed-bazaar"
    monkeypatch.setenv("TIANXIA_DATA_DIR", str(printed))
    load_data.cache_clear()
    try:
        game = tianxia.load_game("silkroad", players=4)
        assert isinstance(game, SilkroadGame)
    finally:
        monkeypatch.delenv("TIANXIA_DATA_DIR")
        load_data.cache_clear()
    ctx = Context(None, 4, ("P1", "P2", "P3", "P4"), layout=game.layout())
    on = position(game, [10, 20, 19, 5], marker=6, deck_bazaars=1)
    assert "6 of 6: 20/12/7 ounces, -2 miles" in drawn("silkroad", on.observation(None), ctx)
    past = position(game, [10, 20, 19, 5], marker=7, deck_bazaars=0, bazaar_cards=(1, 0, 0, 0))
    text = drawn("silkroad", past.observation(None), ctx)
    assert "past the last of 6 rows: the bazaar track has run out" in text
