"""The table's log in Chromium: sentences in words, with names, notation on request."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from serving import Server
from web.test_web_table import _hold


@pytest.mark.timeout(120)
def test_the_log_reads_in_words_and_shows_notation_on_request(site: Server, page: Page) -> None:
    gid = site.new_game("emperor", ["open", "bot:random"])
    _hold(page, site, gid, {0: site.join(gid, 0, "Anna")})
    expect(page.locator("#moves-box")).to_be_visible()
    page.wait_for_function(
        "() => { const c = conns.get(shown); return c && c.view && c.view.legal.length; }"
    )
    # The Emperor's start provinces are places on the map: the page's own play sends one.
    page.evaluate("() => { const c = conns.get(shown); play(c, c.view.legal[0].action); }")
    expect(page.locator("#log li").first).to_be_visible()
    page.wait_for_function("() => (events.get(0) || []).some((e) => e.seat === 0)")
    events = page.evaluate("events.get(0)")
    lines = page.locator("#log li").all_inner_texts()
    assert len(lines) == len(events)
    for line, e in zip(lines, events, strict=True):
        assert e["words"], e
        if e["action"]:
            # Not "Anna: start hupeh": a sentence, and the notation is not shown.
            assert not re.search(rf":\s*{re.escape(e['action'])}$", line), line
        assert not re.search(r"\bP[1-7]\b", line), line  # names, as everywhere
    mine = [line for line, e in zip(lines, events, strict=True) if e["seat"] == 0]
    assert mine and all("Anna" in line and "occupies" in line for line in mine), mine
    assert page.locator("#log code.notation").count() == 0
    page.locator("#pref-notation").check()
    page.locator("#pref-notation").evaluate("e => e.dispatchEvent(new Event('change'))")
    expect(page.locator("#log code.notation").first).to_be_visible()
