"""Playing a lesson in the browser as a player does: the moves the lesson asks for by the
elements marked `data-lesson-expected`, another move by its place, thing or button."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect


def _actions(
    page: Page, selector: str, attribute: str = "data-actions"
) -> list[tuple[int, list[str]]]:
    spots = page.locator(selector)
    return [
        (i, json.loads(spots.nth(i).get_attribute(attribute) or "[]")) for i in range(spots.count())
    ]


def _choose(page: Page, move: str) -> None:
    """Answers the question a place asks when several moves go there."""
    menu = page.locator(f'#menu:not([hidden]) button[data-action="{move}"]')
    if menu.count():
        menu.click()


def click_wrong(page: Page, wrong: str) -> None:
    """Plays `wrong` as a player would: its place on the board, or the thing it moves
    picked and then its place, else its button (or its amount typed)."""
    places = "#board .spot:not([data-pick])"
    for i, actions in _actions(page, places):
        if wrong in actions:
            page.locator(places).nth(i).click()
            _choose(page, wrong)
            return
    picks = "#board .spot[data-pick]"
    for i, actions in _actions(page, picks):
        if wrong in actions:
            page.locator(picks).nth(i).click()
            for j, into in _actions(page, "#board .spot[data-into]", "data-into"):
                if wrong in into:
                    page.locator("#board .spot[data-into]").nth(j).click()
                    _choose(page, wrong)
                    return
            for j, here in _actions(page, places):
                if wrong in here:
                    page.locator(places).nth(j).click()
                    _choose(page, wrong)
                    return
            break
    button = page.locator(f'#moves button[data-action="{wrong}"]')
    if button.count():
        button.click()
        return
    amount = wrong.rsplit(" ", 1)[1]
    stepper = page.locator("#moves .stepper")
    for i in range(stepper.count()):
        if int(amount) in json.loads(stepper.nth(i).get_attribute("data-amounts") or "[]"):
            stepper.nth(i).locator("input.amount").fill(amount)
            stepper.nth(i).locator(f'button.move[data-action="{wrong}"]').click()
            return
    raise AssertionError(f"no way to play {wrong!r} on the page")


def play_expected(page: Page, step: int) -> None:
    """Plays the lesson's next move by pressing what carries `data-lesson-expected`: a
    place, a thing to pick and then its place, a question's answer or a button."""
    board = page.locator("#board")
    for _ in range(3):
        menu = page.locator("#menu:not([hidden]) [data-lesson-expected]")
        if menu.count():
            menu.first.click()
            break
        target = page.locator("[data-lesson-expected]").first
        expect(target).to_be_visible()
        picks = target.evaluate(
            "e => e.matches('.spot[data-pick]') && !document.querySelector('#board .spot.picked')"
        )
        target.click()
        if picks:
            continue
        if page.locator("#menu:not([hidden]) [data-lesson-expected]").count():
            continue
        break
    expect(board).to_have_attribute("data-played", str(step + 1))
