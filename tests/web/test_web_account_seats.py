"""A seat of the account at a table on a device that never held its secret (resigning
and the rematch work there, by the session alone), a seat kept for an invited account,
and a player at the table taking their seat back from a stand-in."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

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
from web.test_web_table_clocks import _game as clocked_game
from web.test_web_table_clocks import _hold


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


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose clocks may be as short as a second (`--min-clock`), and whose
    bots pause after each move, so that a stand-in does not finish a game in a blink."""
    folder = tmp_path_factory.mktemp("quick")
    srv = Server(
        f"sqlite:///{folder / 'tianxia.sqlite3'}",
        folder,
        "--games-per-minute",
        "0",
        "--open-games",
        "0",
        "--min-clock",
        "1",
        "--bot-pause",
        "0.3",
        forked=True,
    )
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.mark.timeout(120)
def test_a_player_at_the_table_takes_their_seat_back_from_the_stand_in(
    quick: Server, page: Page
) -> None:
    gid = clocked_game(quick, ["open", "bot:random"], clock=5, clock_policy="bot")
    _hold(page, quick, gid, {0: quick.join(gid, 0, "Anna")})
    # Anna watches her five seconds run out: a stand-in plays for her, and she is
    # offered her seat back without leaving the page.
    back = page.locator("#seats li.seat0 #take-back")
    expect(back).to_be_visible(timeout=30000)
    expect(page.locator("#seats")).to_contain_text("A bot plays for Anna until they return.")
    back.click()
    # Hers again, her bank whole (five seconds more before a stand-in could return).
    expect(page.locator("#seats")).not_to_contain_text("A bot plays for Anna", timeout=4000)
    expect(back).to_have_count(0)
    expect(page.locator("#players li.seat0 .tag.standin")).to_have_count(0)
