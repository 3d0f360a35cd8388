"""The line under the board says what a spot is and does, on a tap or focus as under a
mouse; once a view takes the spot's move away, the line no longer tells of it."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from serving import Server


@pytest.mark.timeout(90)
def test_the_line_under_the_board_forgets_a_move_that_is_gone(site: Server, page: Page) -> None:
    gid = site.new_game("mandarin", ["open", "bot:easy"])
    secret = site.join(gid, 0, "Anna")
    page.goto(f"{site.base}/?lang=en")
    page.evaluate(
        "([gid, s]) => localStorage.setItem('tianxia.seats', JSON.stringify({[gid]: {0: s}}))",
        [gid, secret],
    )
    page.goto(f"{site.base}/games/{gid}?lang=en")
    sign = page.locator(".board-wrap .spot[data-actions*='sign ']").first
    expect(sign).to_be_visible()
    sign.focus()
    details = page.locator("#details")
    expect(details).to_contain_text("choose this sign")
    told = details.inner_text()
    sign.click()
    # The sign is chosen: no sector offers a sign any more, and the line says nothing of it.
    expect(page.locator(".board-wrap .spot[data-actions*='sign ']")).to_have_count(0)
    expect(details).not_to_have_text(told)
    expect(details).not_to_contain_text("choose this sign")
