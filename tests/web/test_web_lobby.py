"""The lobby: a card per title, a form that is always valid, names per seat, dates,
leaderboards; the rules pages' links; the lobby on a phone."""

from __future__ import annotations

import html.parser
import random
import re
import time
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx
import pytest

pytest.importorskip("babel")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, expect

import tianxia
from serving import Server
from tianxia.web.i18n import LANGS, translations
from tianxia.web.pages import OPTION_WORDS, catalogue

TITLES = ["china", "greatwall", "emperor", "mandarin", "silkroad"]


def _titles(lang: str = "en") -> list[dict[str, Any]]:
    """The lobby's titles (a test may have registered toy games beside them)."""
    return [g for g in catalogue(lang) if g["name"] in TITLES]


# --- what the form may offer, asked of the games ---------------------------------------
def test_each_player_counts_defaults_are_among_the_choices_it_allows() -> None:
    for g in _titles():
        for n in range(g["min_players"], g["max_players"] + 1):
            count = g["counts"][str(n)]
            for o in g["options"]:
                assert count["defaults"][o["name"]] in count["allowed"][o["name"]], (g, n, o)
    china = next(g for g in _titles() if g["name"] == "china")
    board = next(o for o in china["options"] if o["name"] == "board")
    sides = {
        n: [board["choices"][i] for i in china["counts"][str(n)]["allowed"]["board"]]
        for n in (3, 4, 5)
    }
    assert sides == {3: ["3-4"], 4: ["3-4", "4-5"], 5: ["4-5"]}
    assert china["counts"]["3"]["defaults"]["board"] == board["choices"].index("3-4")


def test_the_server_takes_every_choice_the_form_offers_and_refuses_the_others(
    site: Server,
) -> None:
    for g in _titles():
        for n in range(g["min_players"], g["max_players"] + 1):
            count = g["counts"][str(n)]
            for o in g["options"]:
                for i, choice in enumerate(o["choices"]):
                    r = httpx.post(
                        f"{site.base}/api/games",
                        json={"game": g["name"], "players": n, "options": {o["name"]: choice}},
                    )
                    wanted = 201 if i in count["allowed"][o["name"]] else 422
                    assert r.status_code == wanted, (g["name"], n, o["name"], choice, r.text)


def test_every_option_and_value_reads_as_words_in_every_language() -> None:
    for game in TITLES:
        for spec in tianxia.load_game(game).info.option_specs:
            _, values = OPTION_WORDS[(game, spec.name)]
            assert set(values) == set(spec.choices), (game, spec.name)
    english = {g["name"]: g for g in _titles("en")}
    for lang in LANGS[1:]:
        for g in _titles(lang):
            assert g["description"] and g["description"] != english[g["name"]]["description"]
            for o, en in zip(g["options"], english[g["name"]]["options"], strict=True):
                assert o["label"] != en["label"], (lang, o["label"])
                assert o["words"] != en["words"], (lang, o["words"])


# --- the cards' pictures ----------------------------------------------------------------
def test_each_title_has_a_card_with_its_board_at_the_start(site: Server) -> None:
    page = httpx.get(f"{site.base}/?lang=en").text
    for game in TITLES:
        assert f'<li class="card" data-game="{game}">' in page
        assert f'src="/pictures/{game}.svg?lang=en' in page
        r = httpx.get(f"{site.base}/pictures/{game}.svg", params={"lang": "de"})
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        assert r.text.startswith("<svg") and 'class="spot' not in r.text  # nothing to click
        assert 'class="prompt' not in r.text  # no "P1: place pieces ..." in the lobby
    assert httpx.get(f"{site.base}/pictures/chess.svg").status_code == 404


def test_games_are_listed_with_their_last_change(site: Server) -> None:
    before = time.time()
    gid = httpx.post(f"{site.base}/api/games", json={"game": "greatwall"}).json()["id"]
    (listed,) = [g for g in httpx.get(f"{site.base}/api/games").json() if g["id"] == gid]
    assert before - 1 <= listed["created"] <= listed["updated"] <= time.time() + 1


# --- the rules pages' links -------------------------------------------------------------
class _Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(str(a["id"]))
        if tag == "a" and a.get("href"):
            self.hrefs.append(str(a["href"]))


def _parse(text: str) -> _Links:
    p = _Links()
    p.feed(text)
    return p


def test_every_link_of_every_rules_page_leads_somewhere_in_every_language(site: Server) -> None:
    pages = [f"/rules/{g}" for g in TITLES] + [f"/rules/{g}/data" for g in TITLES]
    seen: dict[tuple[str, str], _Links] = {}
    with httpx.Client(base_url=site.base) as client:

        def fetch(path: str, lang: str) -> _Links:
            if (path, lang) not in seen:
                r = client.get(path, params={"lang": lang})
                assert r.status_code == 200, (path, lang, r.status_code)
                seen[(path, lang)] = _parse(r.text)
            return seen[(path, lang)]

        checked: set[str] = set()
        for lang in LANGS:
            for path in pages:
                for href in fetch(path, lang).hrefs:
                    url = urlsplit(urljoin(site.base + path, href))
                    if url.netloc != urlsplit(site.base).netloc:
                        continue  # another site: not ours to answer
                    target = url.path
                    if url.query and "lang=" in url.query:
                        continue  # the language switch
                    links = fetch(target, lang) if target.startswith("/rules/") else None
                    if links is None:
                        assert client.get(target).status_code == 200, (path, lang, href)
                    if url.fragment:
                        assert links is not None and url.fragment in links.ids, (path, lang, href)
                    checked.add(target)
    # The links that once answered 404 are among those followed.
    assert {"/rules/mandarin/data", "/rules/silkroad/data"} <= checked


# --- in a browser -----------------------------------------------------------------------
def _summary(site: Server, url: str) -> dict[str, object]:
    gid = re.search(r"/games/([0-9a-f]+)$", url)
    assert gid, url
    data: dict[str, object] = httpx.get(f"{site.base}/api/games/{gid.group(1)}").json()
    return data


def test_the_default_form_creates_a_game_and_the_clock_is_what_it_says(
    site: Server, browser: Browser
) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(site.base + "/?lang=en")
    # The form as it opens: China, three players, nothing touched.
    assert page.locator("#f-game").input_value() == "china"
    assert page.locator("#f-players").input_value() == "3"
    # Below the server's stated minimum bank (a minute) the form says so and sends nothing.
    page.locator("#f-clock").fill("0.5")
    count = len(httpx.get(f"{site.base}/api/games").json())
    page.locator("button.create").click()
    assert "at least 1 minute" in page.locator("#f-clock").evaluate("(e) => e.validationMessage")
    page.wait_for_timeout(300)
    assert page.url.endswith("/?lang=en")
    assert len(httpx.get(f"{site.base}/api/games").json()) == count
    # Minutes as typed, exactly: one and a half is ninety seconds.
    page.locator("#f-clock").fill("1.5")
    page.locator("button.create").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f]+$"))
    game = _summary(site, page.url)
    assert game["game"] == "china" and game["players"] == 3
    assert game["options"] == {"board": "3-4", "fortifications": False}
    clock = game["clock"]
    assert (clock["initial"] if isinstance(clock, dict) else clock) == 90
    # Four players may choose the side; the choice made is the one sent.
    page.goto(site.base + "/?lang=en")
    page.locator("#f-players").select_option("4")
    page.locator("select[data-option=board]").select_option(
        label="the side for three or four players"
    )
    page.locator("button.create").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f]+$"))
    assert _summary(site, page.url)["options"] == {"board": "3-4", "fortifications": False}
    page.context.close()


def test_a_hotseat_game_asks_each_seat_its_name(site: Server, browser: Browser) -> None:
    page = browser.new_context().new_page()
    page.goto(site.base + "/?lang=en")
    page.locator("#f-game").select_option("greatwall")
    page.locator("#f-players").select_option("2")
    page.locator("select[data-seat='1']").select_option("me")
    page.locator("input[data-name='0']").fill("Anna")
    page.locator("input[data-name='1']").fill("Bert")
    page.locator("button.create").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f]+$"))
    seats = _summary(site, page.url)["seats"]
    assert isinstance(seats, list)
    assert [s["name"] for s in seats] == ["Anna", "Bert"]
    # The hand-over screen names whoever decides next, by the name that seat was given.
    from web.clicking import click_a_move, wait_for_the_next_view

    rng = random.Random(5)
    curtains: set[str] = set()
    deadline = time.monotonic() + 90
    while len(curtains) < 2 and time.monotonic() < deadline:
        if page.locator("#curtain").is_visible():
            curtains.add(page.locator("#curtain-text").inner_text())
            page.locator("#curtain-go").click()
            continue
        if page.locator("#moves-box").is_visible():
            n = page.locator("#log li").count()
            if click_a_move(page, rng):
                wait_for_the_next_view(page, n)
                continue
        page.wait_for_timeout(100)  # a view on its way
    assert curtains == {"Pass the device to Anna", "Pass the device to Bert"}
    page.context.close()


def test_a_second_seat_of_the_same_name_is_refused_before_anything_is_created(
    site: Server, browser: Browser
) -> None:
    page = browser.new_context().new_page()
    page.goto(site.base + "/?lang=en")
    page.locator("#f-game").select_option("greatwall")
    page.locator("#f-players").select_option("2")
    page.locator("select[data-seat='1']").select_option("me")
    page.locator("input[data-name='0']").fill("Anna")
    page.locator("input[data-name='1']").fill("Anna")
    count = len(httpx.get(f"{site.base}/api/games").json())
    page.locator("button.create").click()
    expect(page.locator("#f-error")).not_to_be_empty()
    assert len(httpx.get(f"{site.base}/api/games").json()) == count
    page.context.close()


def test_the_leaderboard_names_its_players_and_the_lists_date_their_games(
    site: Server, browser: Browser
) -> None:
    from server.client import Player, create, play_to_the_end

    g = create(site.base, "greatwall", 2, ["open", "bot:easy"])
    # Ratings are accounts': Anne plays signed in.
    with httpx.Client(base_url=site.base, timeout=60) as anne:
        r = anne.post("/api/accounts", json={"name": "Anne", "password": "correct horse battery"})
        anne.headers["X-CSRF-Token"] = r.json()["csrf"]
        secret = anne.post(f"/api/games/{g['id']}/join", json={"seat": 0}).json()["secret"]
    play_to_the_end([Player(site.base, g["id"], secret)], random.Random(4))
    for _ in range(100):
        if httpx.get(f"{site.base}/api/leaderboard/greatwall").json():
            break
        time.sleep(0.05)
    german = translations("de").gettext
    page = browser.new_context().new_page()
    page.goto(site.base + "/?lang=de")
    page.locator("#lb-game").select_option("greatwall")
    names = page.locator("#leaderboard td.lb-name")
    expect(names).to_have_count(2)
    bot = f"{german('bot')} ({german('easy')})"
    assert sorted(names.all_inner_texts()) == sorted(["Anne", bot])
    # Ratings in the page's number format, a German decimal comma.
    rated = httpx.get(f"{site.base}/api/leaderboard/greatwall").json()
    ratings = page.locator("#leaderboard td.lb-rating").all_inner_texts()
    assert ratings == [f"{float(r['rating']):.1f}".replace(".", ",") for r in rated]
    # The finished game carries its date in words, and its exact time on focus too.
    page.goto(site.base + "/?lang=en")
    when = page.locator(f"#finished li[data-game='{g['id']}'] time.when")
    expect(when.locator(".ago")).to_have_text(re.compile(r"^finished (now|\d+ seconds? ago)$"))
    hidden = when.locator(".exact").bounding_box()
    assert hidden is None or hidden["width"] <= 1
    when.focus()
    shown = when.locator(".exact").bounding_box()
    assert shown is not None and shown["width"] > 20
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_lobby_on_a_phone_has_big_enough_targets_and_no_sideways_scroll(
    site: Server, browser: Browser, lang: str
) -> None:
    httpx.post(f"{site.base}/api/games", json={"game": "greatwall"})  # something listed
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{site.base}/?lang={lang}")
    expect(page.locator("#open li[data-game]").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    small = page.evaluate(
        """() => [...document.querySelectorAll(
            'header a, .lobby a, .lobby button, .lobby select, .lobby input, .lobby [tabindex]')]
          .filter((e) => e.offsetParent !== null)
          .map((e) => [e.outerHTML.slice(0, 60), e.getBoundingClientRect()])
          .filter(([, r]) => r.width < 44 || r.height < 44)
          .map(([html]) => html)"""
    )
    assert small == []
    # The rules pages too: a wide table scrolls in its place, the page does not.
    for game in TITLES:
        page.goto(f"{site.base}/rules/{game}?lang={lang}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, game
    page.context.close()


def test_a_long_list_shows_ten_until_asked_and_a_refresh_keeps_the_focus(
    site: Server, browser: Browser
) -> None:
    for _ in range(12):
        httpx.post(f"{site.base}/api/games", json={"game": "mandarin"}).raise_for_status()
    page = browser.new_context().new_page()
    page.goto(site.base + "/?lang=en")
    games = page.locator("#open li[data-game]")
    expect(games).to_have_count(10)
    page.locator("#open button.more").click()
    page.wait_for_function("() => document.querySelectorAll('#open li[data-game]').length >= 12")
    first = games.first
    first.locator("time.when").focus()
    focused = first.get_attribute("data-game")
    # A new game changes the list; the date that had the focus keeps it.
    httpx.post(f"{site.base}/api/games", json={"game": "mandarin"}).raise_for_status()
    page.evaluate("refresh()")
    page.wait_for_function("() => document.querySelectorAll('#open li[data-game]').length >= 13")
    assert (
        page.evaluate(
            "document.activeElement.matches('time.when') && "
            "document.activeElement.closest('li').dataset.game"
        )
        == focused
    )
    page.context.close()


def test_the_titles_and_their_choices_are_an_api_for_any_client(site: Server) -> None:
    titles = httpx.get(f"{site.base}/api/titles", params={"lang": "nl"}).json()
    china = next(g for g in titles if g["name"] == "china")
    assert china["counts"]["3"]["allowed"]["board"] == [china["options"][0]["choices"].index("3-4")]
    assert (
        china["description"]
        == next(g for g in _titles("nl") if g["name"] == "china")["description"]
    )


def test_the_seat_menu_offers_the_trained_network_only_where_weights_ship(
    site: Server, browser: Browser
) -> None:
    from tianxia.bots.learned import has_weights

    page = browser.new_context().new_page()
    page.goto(site.base + "/?lang=en")

    def offered(game: str, players: str) -> list[str]:
        page.locator("#f-game").select_option(game)
        page.locator("#f-players").select_option(players)
        menu = page.locator("select[data-seat='1'] option")
        return [str(menu.nth(i).get_attribute("value")) for i in range(menu.count())]

    wall = offered("greatwall", "2")
    assert ("bot:learned" in wall) == has_weights(tianxia.load_game("greatwall", players=2))
    assert "bot:hard" in wall
    china = offered("china", "3")
    assert "bot:learned" not in china and "bot:hard" in china
    # Back at a count with weights, the strength returns to the menu.
    assert offered("greatwall", "2") == wall
    page.context.close()
