"""What a newcomer sees at a table of China, the Great Wall and the Emperor, on a phone
and at a desk: the things a person noticed and a test now keeps in place."""

from __future__ import annotations

import random
import time

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, expect

from server.client import Player, play_to_the_end
from serving import Server

# The first seat: where its moves' bar starts, and what lies under its left and right
# edges (the board spans the phone's width: the bar must too, or the board shows beside it).
_BAR_EDGES = """() => {
  const bar = document.getElementById('moves-box');
  const r = bar.getBoundingClientRect();
  const y = r.top + Math.min(20, r.height / 2);
  const under = x => bar.contains(document.elementFromPoint(x, y));
  return {left: r.left, right: r.right, width: document.documentElement.clientWidth,
          atLeft: under(1), atRight: under(document.documentElement.clientWidth - 2)};
}"""


@pytest.mark.timeout(120)
@pytest.mark.parametrize("title", ["china", "emperor"])
def test_the_moves_bar_covers_the_board_from_edge_to_edge_on_a_phone(
    site: Server, browser: Browser, title: str
) -> None:
    gid = site.new_game(title, ["open", *["bot:random"] * (2 if title == "china" else 1)])
    secret = site.join(gid, 0, "Joost")
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        page.goto(f"{site.base}/games/{gid}?lang=nl#s={secret}")
        expect(page.locator("#moves-box")).to_be_visible()
        page.wait_for_function(
            "() => { const c = conns.get(shown); return c && c.view && c.view.legal.length; }"
        )
        edges = page.evaluate(_BAR_EDGES)
        assert edges["left"] <= 0 and edges["right"] >= edges["width"], edges
        assert edges["atLeft"] and edges["atRight"], edges
    finally:
        context.close()


@pytest.mark.timeout(120)
def test_the_summary_comes_into_view_when_the_game_ends(site: Server, browser: Browser) -> None:
    """China's hand lies under its map: a player who sees the game end from there is
    brought up to the summary above the board, not left looking at cards."""
    gid = site.new_game("china", ["open", "bot:random", "bot:random"])
    secret = site.join(gid, 0, "Anna")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{site.base}/games/{gid}?lang=en#s={secret}")
        expect(page.locator("#moves-box")).to_be_visible()
        page.mouse.wheel(0, 3000)
        page.wait_for_function("() => window.scrollY > 500")
        # The seat's moves made from another client of its own: the page only watches.
        play_to_the_end([Player(site.base, gid, secret)], random.Random(4))
        expect(page.locator("#scores-box")).to_be_visible(timeout=30000)
        page.wait_for_function(
            "() => { const r = document.getElementById('scores-box').getBoundingClientRect();"
            " return r.top >= 0 && r.bottom <= innerHeight; }",
            timeout=5000,
        )
        # Clear of the players' strip that sticks to the top of the page.
        strip = page.evaluate("() => document.getElementById('players').getBoundingClientRect()")
        box = page.evaluate("() => document.getElementById('scores-box').getBoundingClientRect()")
        assert box["top"] >= strip["bottom"] - 1, (box, strip)
    finally:
        context.close()


# Each province's unit count and economy markers as Chromium draws them.
_PROVINCE_BOXES = """() => [...document.querySelectorAll('g.province')].map(g => {
  const units = g.querySelector('text.units');
  const box = e => { const b = e.getBoundingClientRect(); return [b.left, b.right, b.top, b.bottom]; };
  return {id: g.id, units: units ? box(units) : null,
          name: box(g.querySelector('text')), frame: box(g.querySelector('rect')),
          markers: [...g.querySelectorAll('g.marker rect')].map(box)};
})"""


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
def test_an_emperor_provinces_markers_leave_its_units_readable(browser: Browser, lang: str) -> None:
    """Fukien with ten units, a city and a mine: "×10" and the markers side by side, as
    Chromium sets them, not the markers over the count; every name inside its box."""
    from tianxia import load_game
    from tianxia.games.emperor.game import EmperorGame
    from tianxia.games.emperor.position import position
    from tianxia.web.boards import render
    from tianxia.web.i18n import gettext_for

    game = load_game("emperor", 2)
    assert isinstance(game, EmperorGame)
    cap = game.tables.cap
    state = position(
        game,
        {"fukien": (0, cap), "kansu": (1, 9), "hopeh": (0, 1)},
        markers={
            "fukien": {"city": 1, "mine": 1},
            "kansu": {"city": 1, "mine": 1, "agriculture": 1},
            "hopeh": {"city": 2, "mine": 1},
        },
    )
    svg = render(game, state.envelope(0, 0), [], gettext_for(lang), ["Joost", "Bot"]).svg
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.set_content(f"<!doctype html><body style='margin:0;width:390px'>{svg}</body>")
        checked = 0
        for p in page.evaluate(_PROVINCE_BOXES):
            # The name inside its box ("Kwangtung" once touched both edges).
            assert p["frame"][0] + 2 <= p["name"][0] and p["name"][1] <= p["frame"][1] - 2, p
            if p["units"] and p["markers"]:
                checked += 1
                u = p["units"]
                for m in p["markers"]:
                    apart = u[1] <= m[0] or m[1] <= u[0] or u[3] <= m[2] or m[3] <= u[2]
                    assert apart, p
        assert checked == 3
    finally:
        context.close()


# The marked places on screen now: between the players' strip and the moves' bar.
_TARGETS_SHOWN = """() => {
  const top = document.getElementById('players').getBoundingClientRect().bottom;
  const bottom = Math.min(innerHeight, document.getElementById('moves-box').getBoundingClientRect().top);
  const all = [...document.querySelectorAll('.board-wrap .spot.target')];
  return {all: all.length, shown: all.filter(t => { const b = t.getBoundingClientRect();
    return b.bottom > top && b.top < bottom; }).length};
}"""


@pytest.mark.timeout(120)
@pytest.mark.parametrize("size", ["desk", "phone"])
def test_a_card_picked_from_chinas_hand_shows_where_it_may_go(
    site: Server, browser: Browser, size: str
) -> None:
    """China's hand lies under the map: a card picked there brings its fields into view."""
    gid = site.new_game("china", ["open", "bot:random", "bot:random"])
    secret = site.join(gid, 0, "Anna")
    phone = size == "phone"
    context = browser.new_context(
        viewport={"width": 390, "height": 844} if phone else {"width": 1280, "height": 900},
        is_mobile=phone,
        has_touch=phone,
        reduced_motion="reduce",
    )
    try:
        page = context.new_page()
        page.goto(f"{site.base}/games/{gid}?lang=en#s={secret}")
        expect(page.locator("#moves-box")).to_be_visible()
        page.wait_for_function(
            "() => { const c = conns.get(shown); return c && c.view && c.view.legal.length; }"
        )
        hand = page.locator(".board-wrap .hand .spot[data-pick]")
        expect(hand.first).to_be_visible()
        shown = []
        for k in range(hand.count()):
            card = hand.nth(k)
            card.scroll_into_view_if_needed()
            page.mouse.wheel(0, 2000)  # as far down as the page goes: the hand, the legend
            page.wait_for_timeout(100)
            card.click()
            expect(card).to_have_attribute("aria-pressed", "true")
            seen = page.evaluate(_TARGETS_SHOWN)
            assert seen["all"], seen
            shown.append(seen["shown"])
            page.keyboard.press("Escape")
            expect(card).to_have_attribute("aria-pressed", "false")
        assert all(shown), shown
    finally:
        context.close()


# Each yang card in the viewer's hand: its frame and its words as Chromium sets them.
_HAND_CARDS = """() => [...document.querySelectorAll('#em-hand > g')].map(g => {
  const box = e => { const b = e.getBoundingClientRect(); return [b.left, b.right]; };
  return {id: g.id, frame: box(g.querySelector('rect')),
          words: [...g.querySelectorAll('text')].map(t => [t.textContent, ...box(t)])};
})"""


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
def test_an_emperor_yang_cards_words_stay_on_the_card(browser: Browser, lang: str) -> None:
    """ "overstroming" and "Überschwemmung" once ran off both sides of their card."""
    from tianxia import load_game
    from tianxia.games.emperor.game import EmperorGame
    from tianxia.games.emperor.position import position
    from tianxia.web.boards import render
    from tianxia.web.i18n import gettext_for

    game = load_game("emperor", 2)
    assert isinstance(game, EmperorGame)
    kinds = list(game.tables.yang_kinds)
    hand = {kind: 1 + k % 2 for k, kind in enumerate(kinds)}
    state = position(game, {"fukien": (0, 3), "kansu": (1, 3)}, hands={0: hand})
    svg = render(game, state.envelope(0, 0), [], gettext_for(lang), ["Joost", "Bot"]).svg
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.set_content(f"<!doctype html><body style='margin:0;width:390px'>{svg}</body>")
        cards = page.evaluate(_HAND_CARDS)
        assert len(cards) == len(kinds), cards
        for card in cards:
            for _words, left, right in card["words"]:
                assert card["frame"][0] + 1 <= left and right <= card["frame"][1] - 1, card
            assert card["frame"][1] <= 390, card
    finally:
        context.close()


@pytest.mark.timeout(120)
def test_a_summarys_parts_fit_a_phone_as_a_sum_under_each_score(
    site: Server, browser: Browser
) -> None:
    """The Emperor's four parts as columns ran a phone's summary off its side: there
    they are a sum under each score, named once under the table; at a desk, columns."""
    import httpx

    gid = site.new_game("emperor", ["bot:random", "bot:easy"])
    for _ in range(240):
        if httpx.get(f"{site.base}/api/games/{gid}").json()["status"] == "finished":
            break
        time.sleep(0.25)
    for phone in (True, False):
        context = browser.new_context(
            viewport={"width": 390, "height": 844} if phone else {"width": 1280, "height": 900},
            is_mobile=phone,
            has_touch=phone,
        )
        try:
            page = context.new_page()
            page.goto(f"{site.base}/games/{gid}?lang=nl")
            expect(page.locator("#scores-box")).to_be_visible()
            # The score and its parts on screen (the rating after them is the table's
            # last column, and wraps of its own).
            fits = page.evaluate(
                "() => document.querySelector('#scores thead th:nth-child(3)')"
                ".getBoundingClientRect().right"
                " <= document.getElementById('scores-box').getBoundingClientRect().right"
            )
            lines = page.locator("#scores .parts-line")
            columns = page.locator("#scores th.part")
            if phone:
                assert fits
                expect(lines.first).to_be_visible()
                assert lines.first.inner_text().startswith("= ")
                expect(page.locator("#summary-parts")).to_contain_text("eenheden")
                expect(columns.first).to_be_hidden()
            else:
                expect(columns.first).to_be_visible()
                expect(lines.first).to_be_hidden()
                expect(page.locator("#summary-parts")).to_be_hidden()
        finally:
            context.close()
