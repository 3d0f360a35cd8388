"""The end-of-game summary in Chromium: each seat's rating before and after the game,
after a restart of the server too; two bots of one strength named apart in it."""

from __future__ import annotations

import random
import time

import pytest

pytest.importorskip("playwright")
pytest.importorskip("openskill")

import httpx
from playwright.sync_api import Page, expect

from server.client import Player, create, join, play_to_the_end
from serving import Server
from tianxia.web.i18n import gettext_for


def _finished_rated_game(site: Server) -> tuple[str, str, list[dict[str, float]]]:
    g = create(site.base, "greatwall", 3, ["open", "bot:random", "bot:random"])
    # Ratings are accounts': Anna plays signed in.
    with httpx.Client(base_url=site.base, timeout=60) as anna:
        r = anna.post("/api/accounts", json={"name": "Anna", "password": "correct horse battery"})
        anna.headers["X-CSRF-Token"] = r.json()["csrf"]
        secret = str(anna.post(f"/api/games/{g['id']}/join", json={"seat": 0}).json()["secret"])
    play_to_the_end([Player(site.base, g["id"], secret)], random.Random(4))
    for _ in range(100):
        changes = httpx.get(f"{site.base}/api/games/{g['id']}").json()["rating_changes"]
        if changes:
            return g["id"], secret, changes
        time.sleep(0.05)
    raise AssertionError("the game was not rated")


def _open(page: Page, site: Server, gid: str, secret: str, lang: str) -> None:
    page.goto(f"{site.base}/?lang={lang}")
    page.evaluate(
        "([gid, s]) => localStorage.setItem('tianxia.seats', JSON.stringify({[gid]: {'0': s}}))",
        [gid, secret],
    )
    page.goto(f"{site.base}/games/{gid}?lang={lang}")
    expect(page.locator("#scores-box")).to_be_visible()


def _rows(page: Page) -> dict[str, str]:
    """Each summary row's player name and its rating cell."""
    rows: dict[str, str] = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('#scores tbody tr')].map("
        "r => [[...r.querySelector('th').childNodes].filter(n => n.nodeType === 3)"
        ".map(n => n.textContent).join('').trim(), r.querySelector('td.rating')"
        " ? r.querySelector('td.rating').textContent : null]))"
    )
    return rows


def _expected(change: dict[str, float], decimal: str) -> str:
    """The rating cell as the page writes it: one decimal, the change signed."""
    before, after = change["before"], change["after"]
    # The change is the difference of the two numbers shown.
    delta = float(f"{after:.1f}") - float(f"{before:.1f}")
    signed = f"{delta:+.1f}" if round(delta, 1) else "0.0"
    text = f"{before:.1f} → {after:.1f} ({signed})"
    return text.replace(".", decimal)


def test_the_summary_shows_each_seats_rating_change_and_keeps_it_after_a_restart(
    site: Server, page: Page
) -> None:
    gid, secret, changes = _finished_rated_game(site)
    _open(page, site, gid, secret, "en")
    expect(page.locator("#scores thead")).to_contain_text("Rating")
    rows = _rows(page)
    by_seat = {c["seat"]: c for c in changes}
    # Two random bots, two names; each row says its seat's change in the page's words.
    assert set(rows) == {"Anna", "random bot A", "random bot B"}
    for seat, name in enumerate(["Anna", "random bot A", "random bot B"]):
        assert rows[name] == _expected(by_seat[seat], "."), (name, rows[name], by_seat[seat])
    assert "random bot A" in page.locator("#players").inner_text()
    assert "random bot B" in page.locator("#players").inner_text()

    site.restart()
    _open(page, site, gid, secret, "de")
    expect(page.locator("#scores thead")).to_contain_text("Wertungszahl")
    rows = _rows(page)
    de = gettext_for("de")
    bots = [de("{strength} bot {letter}").format(letter=k, strength=de("random")) for k in "AB"]
    assert set(rows) == {"Anna", *bots}
    for seat, name in enumerate(["Anna", *bots]):
        assert rows[name] == _expected(by_seat[seat], ","), (name, rows[name])
    # The lobby's list of games names the two bots apart as well.
    page.goto(f"{site.base}/?lang=de")
    listed = page.locator(".seats-text", has_text="Anna").first
    expect(listed).to_contain_text(", ".join(bots))


def test_an_unrated_game_has_no_rating_column(site: Server, page: Page) -> None:
    g = create(site.base, "greatwall", 2, ["open", "open"])
    secrets = [
        join(site.base, g["id"], s, player="one-browser", name=n)
        for s, n in ((0, "Anna"), (1, "Bert"))
    ]
    play_to_the_end([Player(site.base, g["id"], s) for s in secrets], random.Random(5))
    _open(page, site, g["id"], secrets[0], "en")
    expect(page.locator("#scores tbody tr")).to_have_count(2)
    assert page.locator("#scores td.rating").count() == 0
    assert "Rating" not in page.locator("#scores thead").inner_text()
