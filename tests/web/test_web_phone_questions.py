"""The table on a phone: in a Mandarin auction in Dutch the bid field and the question
before a pass fit the screen, every button whole and at hand; the heading leaves the
screen to the board."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, expect

from serving import Server
from web.clicking import play_until

PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
}


@pytest.mark.timeout(120)
def test_a_bid_and_the_question_before_a_pass_fit_a_phone(site: Server, browser: Browser) -> None:
    gid = site.new_game("mandarin", ["open", "bot:easy"])
    secret = site.join(gid, 0, "Anna")
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{site.base}/?lang=nl")
    page.evaluate(
        "([gid, secret]) => localStorage.setItem('tianxia.seats', JSON.stringify({[gid]: {0: secret}}))",
        [gid, secret],
    )
    page.goto(f"{site.base}/games/{gid}?lang=nl")
    rng = random.Random(4)
    play_until(page, rng, "#moves .stepper")
    stepper = page.locator("#moves .stepper").first
    expect(stepper).to_be_visible()
    # Less, the amount and more stand on one line, as one control.
    tops = [
        box["y"] + box["height"] / 2
        for box in (
            stepper.locator(sel).first.bounding_box()
            for sel in ("button.nudge >> nth=0", "input.amount", "button.nudge >> nth=1")
        )
        if box
    ]
    assert len(tops) == 3 and max(tops) - min(tops) < 2, tops
    # Its range in Dutch numbers: "Bedrag (100 tot 20.000)".
    expect(stepper.locator("label")).to_contain_text("20.000")
    passing = page.locator("#moves button.move.asks").first
    passing.click()
    question = page.locator("#confirm")
    expect(question).to_be_visible()
    outer = question.bounding_box()
    assert outer is not None
    assert outer["x"] >= 0 and outer["x"] + outer["width"] <= 390
    for name in ("#confirm-yes", "#confirm-no"):
        box = page.locator(name).bounding_box()
        assert box is not None
        assert outer["x"] <= box["x"] and box["x"] + box["width"] <= outer["x"] + outer["width"], (
            name,
            box,
            outer,
        )
        assert box["height"] >= 44 and box["width"] >= 44
    # Words are not broken inside: the question box is as wide as the phone allows.
    assert outer["width"] >= 0.8 * 390, outer
    n = page.locator("#log li").count()
    page.locator("#confirm-no").click()
    expect(question).to_be_hidden()
    assert page.locator("#log li").count() == n


@pytest.mark.timeout(60)
def test_the_tables_heading_takes_two_short_rows_on_a_phone(site: Server, browser: Browser) -> None:
    gid = site.new_game("silkroad", ["bot:easy", "bot:easy"])
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{site.base}/games/{gid}?lang=de")
    expect(page.locator(".board-wrap svg")).to_be_visible()
    bar = page.locator(".table .bar").bounding_box()
    link = page.locator("#rules-link").bounding_box()
    assert bar is not None and link is not None
    # "Die Seidenstraße" and its status on one row, the rules link (44 px to tap) under it.
    assert link["height"] >= 44
    assert bar["height"] <= 80, bar
