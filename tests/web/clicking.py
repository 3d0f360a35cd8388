"""A person at the table, as Playwright clicks it: the board's spots first, else the list."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, Position, expect

# A click on a piece the next view has just redrawn or taken away does nothing, as it
# would for a person; the caller looks at the table again.
CLICK_MS = 5000

# How often a person picks a kind of move, against 1 for the rest. People seldom cash
# in and do not bid on every lot: clicking at random otherwise drags a Mandarin game
# out to a thousand moves, where players make a few hundred.
HABITS: dict[str, float] = {"cash": 0.03, "bid": 0.3}


# What the table shows, read in one round trip: a long game is a thousand clicks, and
# each look at the page through separate locators costs a round trip of its own.
_LOOK = """() => {
  const shown = id => { const e = document.getElementById(id); return !!e && !e.hidden
    && getComputedStyle(e).display !== 'none' && e.getClientRects().length > 0; };
  return {
    moves: shown('moves-box'),
    spots: document.querySelectorAll('.board-wrap .spot').length,
    listed: document.querySelectorAll('#moves button.move').length,
    heads: [...document.querySelectorAll('.board-wrap .spot')].map(
        e => JSON.parse(e.dataset.actions || '[""]')[0].split(' ')[0]).concat(
      [...document.querySelectorAll('#moves button.move')].map(
        e => (e.dataset.action || e.textContent).split(' ')[0])),
    log: document.querySelectorAll('#log li').length,
    status: document.getElementById('status').textContent,
    over: shown('scores-box'),
    curtain: shown('curtain'),
  };
}"""


NOTHING: dict[str, Any] = {
    "moves": False,
    "spots": 0,
    "listed": 0,
    "heads": [],
    "log": -1,
    "status": "",
    "over": False,
    "curtain": False,
}


def look(page: Page) -> dict[str, Any]:
    """The table at a glance: which moves are offered, the log's length, the status.

    Read through `wait_for_function`, which has a time limit, not `evaluate`, which has
    none and can wait for ever on a page that stopped answering: a stuck look counts as
    nothing seen, and the caller looks again."""
    try:
        handle = page.wait_for_function(f"() => ({_LOOK})()", timeout=CLICK_MS)
        seen: dict[str, Any] = handle.json_value()
    except PlaywrightError:
        return dict(NOTHING)
    return seen


def my_turn(page: Page, seen: dict[str, Any] | None = None) -> bool:
    seen = seen or look(page)
    return bool(seen["moves"] and (seen["spots"] or seen["listed"]))


def click_a_move(page: Page, rng: random.Random, seen: dict[str, Any] | None = None) -> str:
    """Click one legal move: a spot on the board when there is one, else a listed move.
    Returns what was clicked, or "" when the view changed under the click."""
    page.set_default_timeout(CLICK_MS)
    try:
        return _click(page, rng, seen or look(page))
    except (PlaywrightError, ValueError):
        return ""
    finally:
        page.set_default_timeout(30000)


def _click(page: Page, rng: random.Random, seen: dict[str, Any]) -> str:
    spots = page.locator(".board-wrap .spot")
    listed = page.locator("#moves button.move")
    n_spots, n_listed = seen["spots"], seen["listed"]
    if not n_spots + n_listed:
        return ""  # a bot moved: look again
    heads = seen["heads"]
    k = rng.choices(range(len(heads)), [HABITS.get(h, 1.0) for h in heads])[0]
    if k < n_spots:
        target = spots.nth(k)
        label = target.get_attribute("aria-label") or "spot"
        # A person clicks the piece itself, not the middle of everything the spot holds
        # (a die and the words beside it have empty paper between them).
        # The click goes through the spot at the piece's centre: whatever of the spot
        # lies there on top (a ring's inside, the token in it) takes it, as for a hand.
        shape = target.locator("rect, circle, polygon, path, ellipse, text").first
        box = shape.bounding_box() if shape.count() else None
        outer = target.bounding_box()
        if box and outer:
            centre: Position = {
                "x": box["x"] + box["width"] / 2 - outer["x"],
                "y": box["y"] + box["height"] / 2 - outer["y"],
            }
            target.click(position=centre)
        else:
            target.click()
        if target.get_attribute("data-pick") is not None:
            # Picked, not played: then where it goes (a marked target) or one of its
            # moves without a place (the buttons under the board).
            targets = page.locator(".board-wrap .spot.target")
            own = page.locator("#moves button.move")
            n_targets, n_own = targets.count(), own.count()
            if not n_targets + n_own:
                return ""
            j = rng.randrange(n_targets + n_own)
            if j < n_targets:
                place = targets.nth(j)
                label += " → " + (place.get_attribute("aria-label") or "place")
                place.click()
            else:
                label += " → " + own.nth(j - n_targets).inner_text()
                own.nth(j - n_targets).click()
        menu = page.locator("#menu")
        if menu.is_visible():
            items = menu.locator("#menu-items button")
            choice = items.nth(rng.randrange(items.count()))
            label += " → " + choice.inner_text()
            choice.click()
        confirm_if_asked(page)
        return label
    target = listed.nth(k - n_spots)
    label = target.inner_text()
    group = target.locator("xpath=..")
    if "stepper" in (group.get_attribute("class") or ""):
        # A long run of amounts is one number field: type a legal one, then play it.
        amounts = json.loads(group.get_attribute("data-amounts") or "[]")
        amount = rng.choice(amounts)
        group.locator("input.amount").fill(str(amount))
        label = f"{label} {amount}"
    target.click()
    confirm_if_asked(page)
    return label


def confirm_if_asked(page: Page) -> None:
    """A move that asks first ("This ends the game...") is played: the person agrees."""
    box = page.locator("#confirm")
    if box.count() and box.is_visible():
        box.locator("#confirm-yes").click()


def wait_for_the_next_view(page: Page, log_length: int, status: str | None = None) -> None:
    """Wait until the page has moved on after a click: a new line in the log, a refusal,
    the hotseat's hand-over screen or a new status. A click that landed as the view changed may have done nothing; the
    caller's loop then simply looks again."""
    with contextlib.suppress(PlaywrightError):
        page.wait_for_function(
            "([n, s]) => document.querySelectorAll('#log li').length !== n"
            " || document.getElementById('refusal').textContent !== ''"
            " || !document.getElementById('curtain').hidden"
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
    for _ in range(limit):
        seen = look(page)
        if seen["over"] or clicks == moves:
            return clicks
        if seen["curtain"]:
            page.locator("#curtain-go").click()
            continue
        if my_turn(page, seen):
            if not click_a_move(page, rng, seen):
                continue
            clicks += 1
            wait_for_the_next_view(page, seen["log"], seen["status"])
        else:
            page.wait_for_timeout(30)
    expect(page.locator("#scores-box")).to_be_visible()
    return clicks


def play_until(page: Page, rng: random.Random, selector: str, limit: int = 200) -> None:
    """Click random moves on one's turns until something matching `selector` shows (a
    stepper, a question), waiting out the others' turns."""
    for _ in range(limit):
        if page.locator(selector).count():
            return
        seen = look(page)
        if my_turn(page, seen):
            if click_a_move(page, rng, seen):
                wait_for_the_next_view(page, seen["log"], seen["status"])
        else:
            page.wait_for_timeout(50)
