"""The lessons in Chromium: every lesson of a title played through by clicking the moves it
asks for, in each language, with another legal move answered by the hint once; progress
kept by the browser; the lobby's "Learn" link; no developer's words on a player's page."""

from __future__ import annotations

import os
import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from serving import Server
from tianxia.web import lessons
from web.lessonplay import click_wrong, play_expected

LANGS = ("en", "nl", "de")
SCREENSHOTS = Path(__file__).parents[2] / "docs" / "screenshots"


# `make test` plays each title's lessons in one language, the languages taken in turn
# (every language still runs; each lesson's texts in all three are checked against the
# engine by test_lessons.py); `make test-long` plays all fifteen.
LESSON_RUNS = [
    pytest.param(game, lang, marks=() if LANGS[i % len(LANGS)] == lang else (pytest.mark.slow,))
    for i, game in enumerate(lessons.titles())
    for lang in LANGS
]


@pytest.mark.parametrize(("game", "lang"), LESSON_RUNS)
def test_every_lesson_is_played_through_by_clicking(
    site: Server, page: Page, game: str, lang: str
) -> None:
    page.goto(f"{site.base}/learn/{game}?lang={lang}")
    expect(page.locator("#lesson-list a")).to_have_count(len(lessons.lessons(game)))
    pictures = lang == "en" and os.environ.get("TIANXIA_SCREENSHOTS") == "1"
    if pictures:
        # `make screenshots`: how to play as it opens, and a finished lesson.
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(SCREENSHOTS / f"web-howto-{game}.png"))
    for lesson in lessons.lessons(game):
        page.locator(f'#lesson-list a[data-lesson="{lesson.id}"]').click()
        expect(page.locator("#lesson-h")).to_have_text(lesson.text("title", lang))
        expect(page.locator("#lesson-task")).to_have_text(lesson.text("task", lang))
        expect(page.locator(f'#board[data-lesson="{lesson.id}"] svg')).to_be_visible()
        # Another legal move: answered with the hint, which names the rule; nothing moves.
        assert lesson.wrong is not None
        click_wrong(page, lesson.wrong)
        hint = page.locator("[data-lesson-hint]")
        expect(hint).to_contain_text(lesson.text("hint", lang))
        expect(hint).to_contain_text(lesson.rules[0])
        expect(page.locator("[data-lesson-done]")).to_have_count(0)
        for step in range(len(lesson.expected)):
            play_expected(page, step)
            expect(page.locator("[data-lesson-hint]")).to_have_count(0)
        done = page.locator("[data-lesson-done]")
        expect(done).to_contain_text(lesson.text("result", lang))
        expect(page.locator(f'[data-mark="{lesson.id}"].done')).to_have_count(1)
        if pictures and lesson is lessons.lessons(game)[0]:
            page.locator("#lesson").scroll_into_view_if_needed()
            page.locator("#lesson-h").evaluate("e => e.scrollIntoView()")
            page.screenshot(path=str(SCREENSHOTS / f"web-lesson-{game}.png"))
    # Progress is kept by the browser: a new visit shows every lesson done.
    page.reload()
    expect(page.locator(".lesson-mark.done")).to_have_count(len(lessons.lessons(game)))


def test_the_lobby_links_learn_beside_play(site: Server) -> None:
    html = httpx.get(f"{site.base}/?lang=en").text
    for game in lessons.titles():
        assert f'href="/learn/{game}' in html


def test_a_lesson_answers_bad_input_with_a_clear_error(site: Server) -> None:
    base = f"{site.base}/api/learn/china"
    lesson = lessons.lessons("china")[0]
    assert httpx.post(f"{base}/nosuchlesson", json={}).status_code == 404
    assert httpx.post(f"{site.base}/api/learn/chess/x", json={}).status_code == 404
    r = httpx.post(f"{base}/{lesson.id}", json={"played": ["house Chu.1"]})
    assert r.status_code == 400
    r = httpx.post(f"{base}/{lesson.id}", json={"move": "house Wei.1 joker red"})
    assert r.status_code == 409 and r.json()["detail"]["rule"].startswith("CH-")
    r = httpx.post(f"{base}/{lesson.id}", json={"move": "fly to the moon"})
    assert r.status_code == 400
    r = httpx.post(f"{base}/{lesson.id}", json={"move": "x" * 10_000})
    assert r.status_code == 422
    assert httpx.get(f"{site.base}/learn/chess").status_code == 404
    assert httpx.get(f"{site.base}/learn/chess/moves.json").status_code == 404
    # A drawing of the how-to comes only from the lessons it names.
    drawing = f"{site.base}/learn/emperor/example.svg"
    assert httpx.get(drawing, params={"lesson": "defence-card"}).status_code == 200
    assert httpx.get(drawing, params={"lesson": "attack"}).status_code == 404
    assert httpx.get(drawing, params={"lesson": "x" * 5000}).status_code in (404, 414)


HOWTO = sorted(p.stem for p in (Path(lessons.__file__).parents[1] / "howto").glob("*.toml"))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", HOWTO)
def test_how_to_play_comes_before_the_lessons(site: Server, game: str, lang: str) -> None:
    html = httpx.get(f"{site.base}/learn/{game}?lang={lang}").text
    howto = html.index('class="howto"')
    assert howto < html.index('id="lesson-list"')
    # The goal, the components' picture, a turn in numbered steps, scoring with its worked
    # example drawn, the choices, the rules.
    section = html[howto : html.index('id="lesson-list"')]
    assert section.count("<h3>") == 5 and "<ol>" in section
    assert f'src="/pictures/{game}.svg' in section
    assert f'src="/learn/{game}/example.svg' in section
    assert f'href="/rules/{game}"' in section
    svg = httpx.get(f"{site.base}/learn/{game}/example.svg?lang={lang}")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.startswith("<svg")


DEVELOPERS_WORDS = re.compile(
    r"\btest_\w+|\w+\.py\b|\bsrc/|IllegalActionError|NotationError|current_player\(\)"
)


@pytest.mark.parametrize("lang", LANGS)
def test_a_players_page_holds_no_developers_words(site: Server, lang: str) -> None:
    import tianxia

    for game in tianxia.list_games():
        for page in (f"/learn/{game}", f"/rules/{game}"):
            html = httpx.get(f"{site.base}{page}?lang={lang}").text
            assert not DEVELOPERS_WORDS.findall(html), (page, DEVELOPERS_WORDS.findall(html)[:3])
        # The rules stay whole: every numbered rule of the document is there to link to.
        rules = httpx.get(f"{site.base}/rules/{game}?lang={lang}").text
        prefix = {"china": "CH", "greatwall": "GW", "emperor": "EM"}.get(game)
        if prefix:
            assert f'id="{prefix}-3.1"' in rules or f'id="{prefix}-3"' in rules


def test_the_served_rules_leave_out_tests_and_code_names() -> None:
    from tianxia.web.playerrules import for_players

    html = (
        "<h2>ZZ-1 Turn</h2><ul><li><strong>ZZ-1.1 One.</strong> Play a card. Tests: "
        "<code>test_one</code>, <code>test_two</code>.</li></ul><p>A refusal raises "
        "<code>IllegalActionError</code> with the rule. Cards are dealt.</p>"
        "<h2>Notation</h2><p><code>play A</code> plays a card.</p>"
    )
    out = for_players(html)
    assert "test_" not in out and "IllegalActionError" not in out and "Notation" not in out
    assert "Play a card." in out and "Cards are dealt." in out
    assert '<li id="ZZ-1.1"><strong>ZZ-1.1 One.</strong>' in out


def test_a_bid_is_typed_in_the_amount_field_as_at_the_table(site: Server, page: Page) -> None:
    lesson = lessons.find("mandarin", "auction")
    assert lesson is not None and lesson.expected == ("bid 300",)
    page.goto(f"{site.base}/learn/mandarin?lang=en#auction")
    stepper = page.locator("#moves .stepper")
    expect(stepper).to_have_count(1)
    amount = stepper.locator("input.amount")
    go = stepper.locator("button.move")
    # The field starts at the amount the task names, and its button is the lesson's move.
    expect(amount).to_have_value("300")
    expect(go).to_have_attribute("data-lesson-expected", "bid 300")
    # Not a legal amount: nothing to press, and the field says so.
    amount.fill("250")
    expect(go).to_be_disabled()
    expect(amount).to_have_attribute("aria-invalid", "true")
    # Another legal amount is played and answered with the hint, not the lesson's result.
    stepper.locator('button.nudge[aria-label="Less"]').click()
    expect(amount).to_have_value("200")
    expect(go).not_to_have_attribute("data-lesson-expected", "bid 300")
    go.click()
    expect(page.locator("[data-lesson-hint]")).to_contain_text(lesson.text("hint", "en"))
    expect(page.locator("#board")).to_have_attribute("data-played", "0")
    page.locator("#moves .stepper input.amount").fill("300")
    page.locator("#moves .stepper button.move[data-lesson-expected]").click()
    expect(page.locator("[data-lesson-done]")).to_contain_text(lesson.text("result", "en"))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_what_can_i_do_now_lists_the_kinds_of_move_with_their_rules(
    site: Server, page: Page, lang: str
) -> None:
    from tianxia.web.learn import move_kinds

    lesson = lessons.find("emperor", "attack")
    assert lesson is not None
    page.goto(f"{site.base}/learn/emperor?lang={lang}#attack")
    expect(page.locator('#board[data-lesson="attack"] svg')).to_be_visible()
    help_ = page.locator("#moves details.movehelp")
    help_.locator("summary").click()
    kinds = move_kinds("emperor", lang)
    # The moves open: end the phase, attack Honan, offer P2 or P3 a merger: three kinds.
    items = help_.locator("li[data-kind]")
    expect(items).to_have_count(3)
    for kind in ("done", "attack", "merge"):
        item = help_.locator(f'li[data-kind="{kind}"]')
        expect(item).to_contain_text(kinds[kind]["words"])
        link = item.locator("a")
        expect(link).to_have_attribute("href", f"/rules/emperor#{kinds[kind]['rule']}")
    # The list stays open while the lesson's board is redrawn by a move.
    click_wrong(page, "done")
    expect(page.locator("[data-lesson-hint]")).to_be_visible()
    expect(page.locator("#moves details.movehelp[open] li[data-kind]")).to_have_count(3)


def test_a_drawn_thing_says_what_it_is_when_tapped(site: Server, page: Page) -> None:
    page.goto(f"{site.base}/learn/emperor?lang=en#attack-across-the-wall")
    expect(page.locator('#board[data-lesson="attack-across-the-wall"] svg')).to_be_visible()
    border = page.locator("#board g.border.great_wall").first
    title = border.locator("title").text_content() or ""
    assert title.strip()
    border.dispatch_event("click")
    expect(page.locator("#details")).to_have_text(title)


def test_the_table_answers_what_can_i_do_now_too(site: Server, page: Page) -> None:
    """At a game of China, seat 0's first turn: place a house or an emissary, or exchange."""
    from tianxia.web.learn import move_kinds

    r = httpx.post(
        f"{site.base}/api/games",
        json={"game": "china", "seats": ["open", "bot:random", "bot:random"], "players": 3},
    )
    r.raise_for_status()
    gid = r.json()["id"]
    secret = httpx.post(
        f"{site.base}/api/games/{gid}/join", json={"seat": 0, "name": "Herman"}
    ).json()["secret"]
    page.goto(f"{site.base}/?lang=nl")
    page.evaluate(
        "([gid, s]) => localStorage.setItem('tianxia.seats', JSON.stringify({[gid]: {0: s}}))",
        [gid, secret],
    )
    page.goto(f"{site.base}/games/{gid}?lang=nl")
    help_ = page.locator("#moves details.movehelp")
    expect(help_).to_be_visible()
    help_.locator("summary").click()
    kinds = move_kinds("china", "nl")
    legal = page.evaluate("() => conns.get(shown).view.legal.map((l) => l.action)")
    open_kinds = list(dict.fromkeys(a.split(" ", 1)[0] for a in legal))
    assert "house" in open_kinds and "exchange" in open_kinds
    expect(help_.locator("li[data-kind]")).to_have_count(len(open_kinds))
    for kind in open_kinds:
        item = help_.locator(f'li[data-kind="{kind}"]')
        expect(item).to_contain_text(kinds[kind]["words"])
        expect(item.locator("a")).to_have_attribute("href", f"/rules/china#{kinds[kind]['rule']}")


def test_a_first_game_against_the_easy_bot_with_a_hint_line_that_turns_off(
    site: Server, page: Page
) -> None:
    page.goto(f"{site.base}/learn/greatwall?lang=de")
    page.locator("#first-game").click()
    page.wait_for_url(re.compile(r"/games/\w+$"))
    gid = page.url.rsplit("/", 1)[1]
    seats = httpx.get(f"{site.base}/api/games/{gid}").json()["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot"]
    line = page.locator("#moves .hint-line")
    # The easy bot's reason in the page's language: it looked one move ahead.
    expect(line).to_have_attribute("data-hint", "shown")
    expect(line).to_contain_text("Hinweis")
    expect(line).to_contain_text("Zug voraus")
    expect(line.locator("button.hint-toggle")).to_have_text("Hinweise aus")
    line.locator("button.hint-toggle").click()
    expect(page.locator("#moves .hint-line .hint-words")).to_have_text("")
    expect(page.locator("#moves .hint-line button.hint-toggle")).to_have_attribute(
        "aria-pressed", "false"
    )
    page.reload()
    expect(page.locator("#moves .hint-line button.hint-toggle")).to_have_attribute(
        "aria-pressed", "false"
    )
    expect(page.locator("#moves .hint-line[data-hint]")).to_have_count(0)


def test_a_hint_is_told_only_to_the_seat_to_move(site: Server) -> None:
    r = httpx.post(
        f"{site.base}/api/games",
        json={"game": "greatwall", "seats": ["open", "open"], "players": 2},
    )
    gid = r.json()["id"]
    first = httpx.post(f"{site.base}/api/games/{gid}/join", json={"seat": 0, "name": "A"})
    second = httpx.post(f"{site.base}/api/games/{gid}/join", json={"seat": 1, "name": "B"})
    url = f"{site.base}/api/learn/hint/{gid}?lang=en"
    mine = httpx.post(url, json={"secret": first.json()["secret"]})
    assert mine.status_code == 200 and mine.json()["hint"].startswith("Looked one move ahead")
    theirs = httpx.post(url, json={"secret": second.json()["secret"]})
    assert theirs.status_code == 200 and theirs.json()["hint"] is None
    assert httpx.post(url, json={"secret": "not-a-secret"}).status_code == 403
    assert httpx.post(url, json={"secret": "x" * 100}).status_code == 422
    assert (
        httpx.post(f"{site.base}/api/learn/hint/nosuchgame", json={"secret": "s"}).status_code
        == 404
    )


@pytest.mark.parametrize("game", HOWTO)
def test_each_component_is_drawn_on_its_own_by_the_titles_board(
    site: Server, page: Page, game: str
) -> None:
    from tianxia.web.learn import howto

    told = howto(game, "en")
    assert told is not None
    drawn = [d for d in told["drawn"] if d["parts"]]
    assert drawn, game
    page.goto(f"{site.base}/learn/{game}?lang=en")
    cutouts = page.locator("figure.component svg.cutout")
    expect(cutouts).to_have_count(len(drawn))
    for i, d in enumerate(drawn):
        full = page.evaluate(
            "async ([g, l]) => { const t = await (await fetch("
            "`/learn/${g}/example.svg?lesson=${l}`)).text();"
            ' return t.match(/viewBox="([^"]+)"/)[1].split(\' \').map(Number); }',
            [game, d["lesson"]],
        )
        svg = cutouts.nth(i)
        box = [float(v) for v in (svg.get_attribute("viewBox") or "").split()]
        # A part of the board, not the whole of it, and a picture only: nothing to press.
        assert 0 < box[2] * box[3] < full[2] * full[3], (game, i, box, full)
        assert svg.locator("[tabindex], [role], [id]").count() == 0
    if os.environ.get("TIANXIA_SCREENSHOTS") == "1":
        page.locator("ul.components").screenshot(
            path=str(SCREENSHOTS / f"web-howto-components-{game}.png")
        )
