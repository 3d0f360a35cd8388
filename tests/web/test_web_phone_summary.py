"""The end of a rated game on a phone, in Dutch: the summary's every column is in view,
none hidden beyond the box's edge."""

from __future__ import annotations

import random
import re
import time

import pytest

pytest.importorskip("playwright")
pytest.importorskip("openskill")

import httpx
from playwright.sync_api import Browser, expect

from server.client import Player, create, play_to_the_end
from serving import Server


@pytest.mark.timeout(120)
def test_a_rated_summary_fits_a_phone_without_scrolling_sideways(
    site: Server, browser: Browser
) -> None:
    g = create(site.base, "silkroad", 2, ["open", "bot:easy"])
    # Ratings are accounts': Anna plays signed in.
    with httpx.Client(base_url=site.base, timeout=60) as anna:
        r = anna.post("/api/accounts", json={"name": "Anna", "password": "correct horse battery"})
        anna.headers["X-CSRF-Token"] = r.json()["csrf"]
        secret = str(anna.post(f"/api/games/{g['id']}/join", json={"seat": 0}).json()["secret"])
    play_to_the_end([Player(site.base, g["id"], secret)], random.Random(3))
    for _ in range(100):
        if httpx.get(f"{site.base}/api/games/{g['id']}").json()["rating_changes"]:
            break
        time.sleep(0.05)
    page = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    ).new_page()
    page.goto(f"{site.base}/games/{g['id']}?lang=nl")
    box = page.locator("#scores-box")
    expect(box).to_be_visible()
    expect(page.locator("#scores td.rating").first).to_be_visible()
    widths = page.evaluate(
        "() => { const b = document.getElementById('scores-box');"
        " return [b.scrollWidth, b.clientWidth]; }"
    )
    assert widths[0] <= widths[1], widths
    # Each cell adds up: the change is the difference of the two ratings shown.
    for text in page.locator("#scores td.rating").all_inner_texts():
        before, after, delta = (
            float(x.replace(",", ".")) for x in re.findall(r"[-+]?\d+,\d", text)
        )
        assert round(after - before, 1) == delta, text
    # A rating's change stays with its number when the cell wraps.
    for cell in page.locator("#scores td.rating").all():
        for part in cell.locator("span").all():
            lines = part.evaluate("e => e.getClientRects().length")
            assert lines == 1, part.inner_text()
