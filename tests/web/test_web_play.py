"""Every title played in a real browser: the lobby, the table, the board's clicks."""

from __future__ import annotations

import random
import re

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from serving import Server
from web.clicking import play_to_the_end

TITLES = ["greatwall"]


@pytest.mark.parametrize("title", TITLES)
def test_a_game_against_bots_is_two_clicks_from_the_lobby_and_plays_to_the_end(
    site: Server, page: Page, title: str
) -> None:
    page.goto(site.base + "/?lang=en")
    page.locator(f"button.quick[data-game={title}]").click()  # one click: a game with bots
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f]+$"))
    expect(page.locator(".board-wrap svg")).to_be_visible()
    clicks = play_to_the_end(page, random.Random(7))
    assert clicks > 0
    expect(page.locator("#status")).to_have_text("Game over")
    assert page.locator("#scores tr").count() >= 2
