"""A person at the table, as Playwright clicks it: the board's spots first, else the list."""

from __future__ import annotations

import contextlib
import random

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

# A click on a piece the next view has just redrawn or taken away does nothing, as it
# would for a person; the caller looks at the table again.
CLICK_MS = 5000


def my_turn(page: Page) -> bool:
    return page.locator("#moves-box").is_visible() and (
        page.locator(".board-wrap .spot").count() > 0 or page.locator("#moves button").count() > 0
    )


def click_a_move(page: Page, rng: random.Random) -> str:
    """Click one legal move: a spot on the board when there is one, else a listed move.
    Returns what was clicked, or "" when the view changed under the click."""
    page.set_default_timeout(CLICK_MS)
    try:
        return _click(page, rng)
    except (PlaywrightError, ValueError):
        return ""
    finally:
        page.set_default_timeout(30000)


def _click(page: Page, rng: random.Random) -> str:
    spots = page.locator(".board-wrap .spot")
    listed = page.locator("#moves button.move")
    n_spots, n_listed = spots.count(), listed.count()
    if not n_spots + n_listed:
        return ""  # a bot moved: look again
    k = rng.randrange(n_spots + n_listed)
    if k < n_spots:
        target = spots.nth(k)
        label = target.get_attribute("aria-label") or "spot"
        # A person clicks the piece itself, not the middle of everything the spot holds
        # (a die and the words beside it have empty paper between them).
        shape = target.locator("rect, circle, polygon, path, ellipse, text").first
        (shape if shape.count() else target).click()
        menu = page.locator("#menu")
        if menu.is_visible():
            items = menu.locator("#menu-items button")
            choice = items.nth(rng.randrange(items.count()))
            label += " → " + choice.inner_text()
            choice.click()
        return label
    target = listed.nth(k - n_spots)
    label = target.inner_text()
    group = target.locator("xpath=..")
    if "move-group" in (group.get_attribute("class") or ""):
        # A long run of moves is one list: pick one of them, then press its button.
        pick = group.locator("select")
        options = pick.locator("option")
        label = options.nth(rng.randrange(options.count())).get_attribute("value") or ""
        pick.select_option(label)
    target.click()
    return label


def wait_for_the_next_view(page: Page, log_length: int, status: str | None = None) -> None:
    """Wait until the page has moved on after a click: a new line in the log, a refusal
    or a new status. A click that landed as the view changed may have done nothing; the
    caller's loop then simply looks again."""
    with contextlib.suppress(PlaywrightError):
        page.wait_for_function(
            "([n, s]) => document.querySelectorAll('#log li').length !== n"
            " || document.getElementById('refusal').textContent !== ''"
            " || (s !== null && document.getElementById('status').textContent !== s)",
            arg=[log_length, status],
            timeout=10000,
        )


def play_to_the_end(
    page: Page, rng: random.Random, limit: int = 3000, moves: int | None = None
) -> int:
    """Click moves until the game is over (or `moves` moves were clicked); returns how
    many moves were clicked."""
    clicks = 0
    status = page.locator("#status")
    for _ in range(limit):
        text = status.inner_text()
        if page.locator("#scores-box").is_visible() or clicks == moves:
            return clicks
        if page.locator("#curtain").is_visible():
            page.locator("#curtain-go").click()
            continue
        if my_turn(page):
            seq_before = page.locator("#log li").count()
            if not click_a_move(page, rng):
                continue
            clicks += 1
            wait_for_the_next_view(page, seq_before, text)
        else:
            page.wait_for_timeout(30)
    expect(page.locator("#scores-box")).to_be_visible()
    return clicks
