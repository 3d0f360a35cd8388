"""A seat of the account at a table on a device that never held its secret: resigning
and the rematch work there, by the session alone."""

from __future__ import annotations

import re

import httpx
import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, expect

from serving import Server
from web.test_web_accounts import (
    PASSWORD,
    PHONE,
    _context,
    _game,
    _name,
    _sign_in,
    _sign_up,
    _summary,
)


def test_resign_and_rematch_from_the_accounts_other_device(site: Server, browser: Browser) -> None:
    name = _name("Ada")
    phone, desk = _context(browser, PHONE), _context(browser)
    first = phone.new_page()
    _sign_up(first, site, name)
    gid = _game(site, ["open", "bot:random"])
    first.goto(f"{site.base}/games/{gid}?lang=en")
    first.locator("button.take").click()
    expect(first.locator("#resign")).to_be_visible()
    second = desk.new_page()
    _sign_in(second, site, name)
    second.goto(f"{site.base}/games/{gid}?lang=en")
    expect(second.locator("#resign")).to_be_visible(timeout=15000)
    assert second.evaluate("localStorage.getItem('tianxia.seats')") in (None, "{}")
    second.once("dialog", lambda d: d.accept())
    second.locator("#resign").click()
    # Resigned, the seat is a bot's: two bots finish the game.
    expect(second.locator("#rematch")).to_be_visible(timeout=50000)
    assert _summary(site, gid)["seats"][0]["resigned"]
    second.locator("#rematch").click()
    expect(second).not_to_have_url(re.compile(f"/games/{gid}$"))
    again = second.url.rsplit("/", 1)[1].split("?")[0]
    seat = _summary(site, again)["seats"][0]
    assert seat["name"] == name and seat.get("account") is True
    phone.close()
    desk.close()


def test_a_seat_kept_for_an_account_reads_so_in_the_lobby_and_at_the_table(
    site: Server, browser: Browser
) -> None:
    mei = _name("Mei")
    r = httpx.post(f"{site.base}/api/accounts", json={"name": mei, "password": PASSWORD})
    assert r.status_code == 201, r.text
    created = httpx.post(
        f"{site.base}/api/games",
        json={"game": "greatwall", "players": 2, "seats": ["open", f"invite:{mei}"]},
    )
    assert created.status_code == 201, created.text
    gid = created.json()["id"]
    ctx = _context(browser)
    page = ctx.new_page()
    page.goto(f"{site.base}/?lang=nl")
    listed = page.locator(f"#open li[data-game='{gid}']")
    expect(listed).to_contain_text(f"gereserveerd voor {mei}")
    page.goto(f"{site.base}/games/{gid}?lang=nl")
    kept = page.locator("#seats li.seat1")
    expect(kept).to_contain_text(f"gereserveerd voor {mei}")
    # A guest is offered the open seat, not the kept one.
    expect(page.locator("#seats li.seat0 button.take")).to_be_visible()
    expect(kept.locator("button.take")).to_have_count(0)
    ctx.close()
