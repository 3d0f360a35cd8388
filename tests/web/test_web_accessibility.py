"""axe-core on the pages around the tables: the lobby, the rules and data pages, a
replay, in two languages, at a desk's size and a phone's; on the phone, every control
a thumb's size. Any serious or critical finding fails, listed. A table of every title
(as a seat in the middle of a game, with a thing picked, with a question or the menu
of moves open, at the end, and as a spectator) is looked at by the games of
test_web_acceptance.py."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("playwright")
pytest.importorskip("axe_playwright_python")

from playwright.sync_api import Browser, ViewportSize, expect

from serving import Server
from web.accessibility import blocking_violations, small_targets
from web.lessonplay import click_wrong, play_expected

TITLES = ["china", "greatwall", "emperor", "mandarin", "silkroad"]


def _finished(site: Server, title: str, players: int) -> str:
    import httpx

    gid = site.new_game(title, ["bot:random"] * players)
    for _ in range(900):
        if httpx.get(f"{site.base}/api/games/{gid}").json()["status"] == "finished":
            return gid
        time.sleep(0.1)
    raise AssertionError(f"the bots did not finish a game of {title}")


SIZES: dict[str, ViewportSize] = {
    "desk": {"width": 1280, "height": 900},
    "phone": {"width": 390, "height": 844},
}


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("lang", "size"), [("en", "desk"), ("de", "phone")])
def test_the_lobby_rules_and_a_replay_have_no_serious_findings(
    site: Server, browser: Browser, lang: str, size: str
) -> None:
    page = browser.new_context(viewport=SIZES[size]).new_page()
    found: list[str] = []
    page.goto(f"{site.base}/?lang={lang}")
    expect(page.locator("button.quick").first).to_be_visible()
    found += blocking_violations(page, f"lobby ({lang})")
    if size == "phone":
        found += small_targets(page, f"lobby ({lang})")
    for title in TITLES:
        page.goto(f"{site.base}/rules/{title}?lang={lang}")
        found += blocking_violations(page, f"rules of {title} ({lang})")
    page.goto(f"{site.base}/rules/china/data?lang={lang}")
    found += blocking_violations(page, f"China's data ({lang})")
    gid = _finished(site, "greatwall", 2)
    page.goto(f"{site.base}/games/{gid}/replay?lang={lang}")
    expect(page.locator(".board-wrap svg")).to_be_visible()
    page.locator("#r-next").click()
    found += blocking_violations(page, f"replay ({lang})")
    if size == "phone":
        found += small_targets(page, f"replay ({lang})")
    page.context.close()
    assert not found, "\n".join(found)


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("lang", "size"), [("en", "desk"), ("nl", "phone")])
def test_how_to_play_and_a_lesson_of_every_title_have_no_serious_findings(
    site: Server, browser: Browser, lang: str, size: str
) -> None:
    from tianxia.web import lessons

    page = browser.new_context(viewport=SIZES[size], reduced_motion="reduce").new_page()
    found: list[str] = []
    for title in TITLES:
        page.goto(f"{site.base}/learn/{title}?lang={lang}")
        expect(page.locator("#lesson-list a").first).to_be_visible()
        found += blocking_violations(page, f"how to play {title} ({lang})")
        if size == "phone":
            found += small_targets(page, f"how to play {title} ({lang})")
        # A lesson's table as it opens, with its hint shown, and finished.
        lesson = lessons.lessons(title)[0]
        page.locator(f'#lesson-list a[data-lesson="{lesson.id}"]').click()
        expect(page.locator(f'#board[data-lesson="{lesson.id}"] svg')).to_be_visible()
        found += blocking_violations(page, f"lesson {title}/{lesson.id} ({lang})")
        if size == "phone":
            found += small_targets(page, f"lesson {title}/{lesson.id} ({lang})")
        assert lesson.wrong is not None
        click_wrong(page, lesson.wrong)
        expect(page.locator("[data-lesson-hint]")).to_be_visible()
        found += blocking_violations(page, f"lesson {title}/{lesson.id} hint ({lang})")
        for step in range(len(lesson.expected)):
            play_expected(page, step)
        expect(page.locator("[data-lesson-done]")).to_be_visible()
        found += blocking_violations(page, f"lesson {title}/{lesson.id} done ({lang})")
    page.context.close()
    assert not found, "\n".join(found)
