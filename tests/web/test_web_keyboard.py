"""A whole game of every title played with the keyboard alone.

Tab and Shift+Tab move the focus, the arrow keys walk the board's spots (Home and End to
either end), Enter or Space plays what has the focus, a number is typed into an amount's
field; no pointer, no `click()`, no `focus()` from the test. Moves are chosen by a
seeded `random.Random` among what the page offers, a pick then one of its places or its
own moves, as a person would. Along the way: the focus never falls back to the page's
start after a move, and a focused spot shows a ring of its own.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from serving import Server
from web.clicking import HABITS, wait_for_the_next_view

# The seats of each game: the smallest count against random bots. Mandarin's random bot
# never completes a zodiac, so its games run to the round cap (about 390 decisions of
# the player's): an easy bot ends one in 25 to 50.
SEATS = {
    "china": ["open", "bot:random", "bot:random"],
    "greatwall": ["open", "bot:random"],
    "emperor": ["open", "bot:random"],
    "mandarin": ["open", "bot:easy"],
    "silkroad": ["open", "bot:random"],
}

# Everything Tab reaches, in the order it reaches it (no positive tabindex is used on
# these pages), with a key per element that survives a view's morph; where the focus is;
# and the board's spots in the order the arrow keys walk them.
_FOCUS = """() => {
  const shown = e => !e.closest('[hidden]') && e.getClientRects().length > 0
    && getComputedStyle(e).visibility !== 'hidden';
  const key = e => {
    if (e.classList.contains('spot')) return 'spot:' + (e.id || e.dataset.pick || e.dataset.actions);
    if (e.classList.contains('amount')) return 'amount:' + e.id;
    return (e.dataset.action ? 'move:' + e.dataset.action : e.id ? 'id:' + e.id : 'text:' + e.textContent);
  };
  const open = ['confirm', 'menu'].map(id => document.getElementById(id)).find(b => !b.hidden);
  const scope = open || document;
  const all = [...scope.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
    .filter(e => !e.disabled && e.tabIndex >= 0 && shown(e) && (!open || e.tagName === 'BUTTON'));
  const spots = [...document.querySelectorAll('#board .spot')];
  const picked = spots.some(s => s.classList.contains('picked'));
  const walk = picked ? spots.filter(s => s.classList.contains('picked') || s.classList.contains('target')) : spots;
  const a = document.activeElement;
  // Where the focus stands in Tab's order: its index, or between the two around it
  // (the board itself takes the focus only from the page, not from Tab).
  let pos = all.indexOf(a);
  if (pos < 0) {
    const before = a && a !== document.body
      ? all.filter(e => e.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING).length : 0;
    pos = before - 0.5;
  }
  return {
    pos,
    ring: a && a.classList.contains('spot') ? getComputedStyle(a).outlineStyle : '',
    order: all.map(key),
    walk: walk.map(key),
    active: a && a !== document.body ? key(a) : null,
    onBoard: !!a && (a.id === 'board' || (a.classList.contains('spot') && document.getElementById('board').contains(a))),
    dialog: !!open,
  };
}"""

# What the player may choose now: the board's spots, the moves under it, the amounts'
# fields (the field's own button is reached through the field: a number, then Enter).
_CHOICES = """() => {
  const c = conns.get(shown);
  return {
    busy: !!(c && c.busy) || !c || !c.view,
    over: !document.getElementById('scores-box').hidden,
    mine: !!(c && c.view && c.view.legal.length) && !document.getElementById('moves-box').hidden,
    lost: document.activeElement === document.body || !document.activeElement,
    log: document.querySelectorAll('#log li').length,
    status: document.getElementById('status').textContent,
    spots: [...document.querySelectorAll('#board .spot')].map(e => ({
      key: 'spot:' + (e.id || e.dataset.pick || e.dataset.actions),
      head: JSON.parse(e.dataset.actions || '[""]')[0].split(' ')[0],
      pick: e.dataset.pick !== undefined,
      target: e.classList.contains('target'),
    })),
    moves: [...document.querySelectorAll('#moves button.move:not([disabled])')]
      .filter(b => !b.closest('.stepper'))
      .map(b => ({key: 'move:' + b.dataset.action, head: b.dataset.action.split(' ')[0]})),
    amounts: [...document.querySelectorAll('#moves .stepper')].map(g => ({
      key: 'amount:' + g.querySelector('input.amount').id,
      head: g.querySelector('button.move').dataset.action.split(' ')[0] || 'bid',
      amounts: JSON.parse(g.dataset.amounts),
    })),
  };
}"""


# After Escape: how many things are picked, whether a move is on its way, and the
# focused spot's pressed state.
_PUT_BACK = """() => ({
  picked: document.querySelectorAll('#board .spot.picked').length,
  busy: !!conns.get(shown).busy,
  pressed: document.activeElement.getAttribute('aria-pressed'),
})"""


def _where(page: Page) -> dict[str, Any]:
    seen: dict[str, Any] = page.evaluate(_FOCUS)
    return seen


def _reach(page: Page, goal: str, limit: int = 400) -> bool:
    """Move the focus to the element keyed `goal` with keys alone: arrows between the
    board's spots, End then Tab from the board to what follows it, Tab or Shift+Tab
    otherwise. Returns False when the goal left the page (a view came)."""
    for _ in range(12):
        at = _where(page)
        if at["active"] == goal:
            return True
        order, walk = at["order"], at["walk"]
        if goal not in order:
            return False
        if at["onBoard"] and goal in walk and not at["dialog"]:
            n = len(walk)
            i = walk.index(at["active"]) if at["active"] in walk else -1
            j = walk.index(goal)
            ahead = (j - i) % n if i >= 0 else j + 1
            behind = (i - j) % n if i >= 0 else n - j
            key, times = ("ArrowRight", ahead) if ahead <= behind else ("ArrowLeft", behind)
        else:
            if (
                at["onBoard"]
                and at["active"] in walk
                and at["active"] != walk[-1]
                and order.index(goal) > at["pos"]
            ):
                page.keyboard.press("End")  # the board's last spot: the next Tab leaves it
                continue
            pos, j = at["pos"], order.index(goal)
            key, times = (
                ("Tab", math.ceil(j - pos)) if j > pos else ("Shift+Tab", math.ceil(pos - j))
            )
        for _ in range(min(times, limit)):
            page.keyboard.press(key)
    return _where(page)["active"] == goal


def _press(page: Page, rng: random.Random) -> None:
    page.keyboard.press(rng.choice(["Enter", "Enter", "Space"]))


# Which dialog is open: the menu (with how many moves it offers) or the question.
_DIALOGS = """() => ({
  menu: document.getElementById('menu').hidden ? 0 : document.querySelectorAll('#menu-items button').length,
  confirm: !document.getElementById('confirm').hidden,
})"""


def _answer_dialogs(page: Page, rng: random.Random) -> None:
    """A menu of moves: Tab to one of them, Enter. A question: Tab to "Play this move"."""
    for _ in range(3):
        open_now: dict[str, Any] = page.evaluate(_DIALOGS)
        if open_now["menu"]:
            for _ in range(rng.randrange(open_now["menu"])):
                page.keyboard.press("Tab")
            page.keyboard.press("Enter")
        elif open_now["confirm"]:
            for _ in range(4):
                if page.evaluate("document.activeElement.id") == "confirm-yes":
                    break
                page.keyboard.press("Tab")
            page.keyboard.press("Enter")
        else:
            return


def _pick_one(rng: random.Random, options: list[dict[str, Any]]) -> dict[str, Any]:
    return rng.choices(options, [HABITS.get(o["head"], 1.0) for o in options])[0]


def _one_move(page: Page, rng: random.Random, seen: dict[str, Any], rings: set[str]) -> bool:
    """Choose a move and play it by the keyboard; False when the page changed under it.
    Adds the outline a focused spot shows to `rings`."""
    options = seen["spots"] + seen["moves"] + seen["amounts"]
    if not options:
        return False
    choice = _pick_one(rng, options)
    if not _reach(page, choice["key"]):
        return False
    if choice["key"].startswith("spot:"):
        rings.add(_where(page)["ring"])
    if choice["key"].startswith("amount:"):
        amount = rng.choice(choice["amounts"])
        page.keyboard.press("Control+A")
        page.keyboard.type(str(amount))
        page.keyboard.press("Enter")
    else:
        _press(page, rng)
    if choice.get("pick"):
        assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
        if rng.random() < 0.1:
            # Escape puts it back: nothing picked, nothing sent, the focus stays on it.
            page.keyboard.press("Escape")
            back: dict[str, Any] = page.evaluate(_PUT_BACK)
            assert back == {"picked": 0, "busy": False, "pressed": "false"}, back
            return False
        after: dict[str, Any] = page.evaluate(_CHOICES)
        places = [s for s in after["spots"] if s["target"]] + after["moves"]
        if not places:
            return False
        place = rng.choice(places)
        if not _reach(page, place["key"]):
            return False
        _press(page, rng)
    _answer_dialogs(page, rng)
    return True


# `make test` plays the three titles whose games are the shortest (Mandarin's with its
# amount field); China's and the Silk Road's, the longest, run in `make test-long` (the
# acceptance test plays every title to its end in `make test`).
IN_MAKE_TEST = {"greatwall", "emperor", "mandarin"}
KEYBOARD_GAMES = [
    pytest.param(t, marks=() if t in IN_MAKE_TEST else (pytest.mark.slow,)) for t in SEATS
]


@pytest.mark.timeout(240)
@pytest.mark.parametrize("title", KEYBOARD_GAMES)
def test_a_whole_game_is_played_with_the_keyboard_alone(
    site: Server, page: Page, title: str
) -> None:
    import httpx

    seats = SEATS[title]
    r = httpx.post(
        f"{site.base}/api/games", json={"game": title, "seats": seats, "players": len(seats)}
    )
    r.raise_for_status()
    gid = r.json()["id"]
    joined = httpx.post(f"{site.base}/api/games/{gid}/join", json={"seat": 0, "name": "Anna"})
    joined.raise_for_status()
    page.goto(f"{site.base}/?lang=en")
    # The seat this browser holds (a setting made once, before the game, not a move; the
    # page fixture already turned on fast mode).
    page.evaluate(
        "([gid, secret]) => { localStorage.setItem('tianxia.seats',"
        " JSON.stringify({[gid]: {'0': secret}})); }",
        [gid, joined.json()["secret"]],
    )
    page.goto(f"{site.base}/games/{gid}?lang=en")
    rng = random.Random(f"keyboard-{title}")
    moves = 0
    lost: list[int] = []
    rings: set[str] = set()
    for _ in range(4000):
        seen: dict[str, Any] = page.evaluate(_CHOICES)
        if seen["over"]:
            break
        if not seen["mine"] or seen["busy"]:
            page.wait_for_timeout(30)
            continue
        if moves and seen["lost"]:
            lost.append(moves)  # the keyboard was thrown back to the page's start
        if _one_move(page, rng, seen, rings):
            moves += 1
            wait_for_the_next_view(page, seen["log"], seen["status"])
    expect(page.locator("#scores-box")).to_be_visible()
    assert moves >= 3
    assert not lost, f"the focus fell to the page's start after moves {lost}"
    assert rings - {""} and "none" not in rings, f"a focused spot shows no ring: {rings}"
    # The end hands the keyboard to what comes next (rematch, replay, the lobby), and
    # the summary's controls are reached by it.
    expect(page.locator("#summary-actions :focus")).to_have_count(1)
    assert _reach(page, "text:" + page.locator("#summary-actions a").first.inner_text())
    mine = [e for e in page.evaluate("events.get(0)") if e["seat"] == 0]
    assert len(mine) >= moves // 2, json.dumps(mine[-3:])
