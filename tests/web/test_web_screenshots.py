"""Pictures of every board in a browser, at a desk's size and a phone's.

They are taken in `make test-long` and `make screenshots` (with TIANXIA_SCREENSHOTS=1,
which also writes them to docs/screenshots/); every board is drawn in a browser in `make
test` by the acceptance, keyboard and pseudo-locale games.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, expect

from serving import Server
from web.clicking import click_a_move, wait_for_the_next_view

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = {"desk": (1280, 860), "phone": (390, 844)}


def _keep(png: bytes, name: str, tmp: Path) -> None:
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
    (tmp / name).write_bytes(png)
    if os.environ.get("TIANXIA_SCREENSHOTS") == "1":
        (DOCS / name).write_bytes(png)


@pytest.mark.slow
@pytest.mark.parametrize("title", ["china", "greatwall", "emperor", "mandarin", "silkroad"])
def test_each_board_in_a_browser(
    site: Server, browser: Browser, title: str, tmp_path: Path
) -> None:
    for size, (width, height) in SIZES.items():
        # Without motion: a piece fading in would be caught half drawn.
        page = browser.new_context(
            viewport={"width": width, "height": height}, reduced_motion="reduce"
        ).new_page()
        page.goto(site.base + "/?lang=en")
        # A player who gave a name, as the pictures in the docs show one.
        page.locator("#f-name").fill("Anna")
        page.locator("#f-name").dispatch_event("change")
        page.locator("#f-name").blur()
        if title == "china" and size == "desk":
            # The cards' pictures are drawn on the server the first time they are asked for.
            # Polled from here: the pages' policy forbids the string evaluation that
            # wait_for_function would do inside the page.
            for _ in range(600):
                if page.evaluate(
                    "() => [...document.images].every(i => i.complete && i.naturalWidth > 0)"
                ):
                    break
                page.wait_for_timeout(100)
            _keep(page.screenshot(full_page=False), "web-lobby.png", tmp_path)
        page.locator(f"button.quick[data-game={title}]").click()
        expect(page.locator(".board-wrap svg")).to_be_visible()
        rng = random.Random(11)
        for _ in range(14):  # into the middle of a game, where there is something to see
            if page.locator("#moves-box").is_visible():
                n = page.locator("#log li").count()
                if not click_a_move(page, rng):
                    continue
                wait_for_the_next_view(page, n)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(300)
        _keep(page.screenshot(full_page=size == "phone"), f"web-{title}-{size}.png", tmp_path)
        page.context.close()
