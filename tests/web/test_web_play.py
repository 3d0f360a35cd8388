"""Every title played in a real browser: the lobby, the table, the board's clicks."""

from __future__ import annotations

import random
import re

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from serving import Server
from web.clicking import play_to_the_end

TITLES = ["china", "greatwall", "emperor", "mandarin", "silkroad"]


def _in_make_test(*kept: str) -> list[object]:
    """Every title, those not kept marked slow: `make test` plays the kept ones, `make
    test-long` all five (each title is played to its end in make test elsewhere, by the
    acceptance, keyboard and pseudo-locale games)."""
    return [t if t in kept else pytest.param(t, marks=pytest.mark.slow) for t in TITLES]


@pytest.mark.parametrize("title", _in_make_test("china"))
def test_a_game_against_bots_is_two_clicks_from_the_lobby(
    site: Server, page: Page, title: str
) -> None:
    page.goto(site.base + "/?lang=en")
    page.locator(f"button.quick[data-game={title}]").click()  # one click: a game with bots
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f]+$"))
    expect(page.locator(".board-wrap svg")).to_be_visible()
    # Every title is played to its end by two people and a bot below; from the lobby,
    # the shortest is played to the end and the others for a dozen moves each.
    if title == "greatwall":
        assert play_to_the_end(page, random.Random(7)) > 0
        expect(page.locator("#status")).to_have_text("Game over")
        assert page.locator("#scores tr").count() >= 2
    else:
        clicked = play_to_the_end(page, random.Random(7), moves=12)
        # A short game (an Emperor state falls early under random moves) may end first.
        assert clicked == 12 or page.locator("#scores-box").is_visible()
        assert page.locator("#log li").count() >= clicked


def _take_seat(page: Page, site: Server, gid: str, seat: int, name: str) -> None:
    page.goto(f"{site.base}/games/{gid}?lang=en")
    page.once("dialog", lambda d: d.accept(name))
    page.locator(f"#seats li.seat{seat} button.take").click()
    expect(page.locator(f"#seats li.seat{seat} .tag.you")).to_be_visible()


# What each page holds when a game stops moving: enough to tell a stale view, a closed
# socket or a refusal loop apart.
_CONNS = """() => ({
  refusal: document.getElementById('refusal').textContent,
  status: document.getElementById('status').textContent,
  menu: !document.getElementById('menu').hidden,
  conns: [...conns.values()].map(c => ({key: c.key, seq: c.view && c.view.seq,
    legal: c.view ? c.view.legal.map(l => l.action).slice(0, 8) : null,
    to_move: c.view && c.view.view.to_move, socket: c.ws && c.ws.readyState})),
})"""

# How long two people may click without the game moving on before the test gives up
# and says what each page holds: a game waits for nobody this long.
STALL_S = 120.0


def _stalled(
    site: Server, gid: str, pages: dict[str, Page], clicked: list[str], troubles: list[str]
) -> str:
    import httpx

    lines = [f"server: {httpx.get(f'{site.base}/api/games/{gid}').json()}"]
    lines += troubles
    for name, p in pages.items():
        try:
            lines.append(f"{name}: {p.evaluate(_CONNS)}")
        except Exception as e:  # a page that does not answer says so
            lines.append(f"{name}: no answer ({e})")
    lines.append(f"last clicks: {clicked[-6:]}")
    lines.append("server log (end):\n" + site.output()[-4000:])
    return "\n".join(lines)


# A game that stops moving fails here in minutes instead of holding CI to its limit.
@pytest.mark.timeout(600)
@pytest.mark.parametrize("title", _in_make_test("emperor"))
def test_two_people_on_two_browsers_play_one_game_with_a_bot(
    site: Server, browser: Browser, title: str
) -> None:
    import time

    gid = site.new_game(title, ["open", "open", "bot:easy"])
    anne, bert = browser.new_context(), browser.new_context()
    pa, pb = anne.new_page(), bert.new_page()
    troubles: list[str] = []
    for name, p in (("Anne", pa), ("Bert", pb)):
        p.on("crash", lambda _p, name=name: troubles.append(f"{name}: the page crashed"))
        p.on("pageerror", lambda e, name=name: troubles.append(f"{name}: page error {e}"))
    _take_seat(pa, site, gid, 0, "Anne")
    _take_seat(pb, site, gid, 1, "Bert")
    rng = random.Random(3)
    from web.clicking import click_a_move, look, my_turn, wait_for_the_next_view

    clicked: list[str] = []
    moved_at, logs = time.monotonic(), (-1, -1)
    for _ in range(4000):
        seen = {p: look(p) for p in (pa, pb)}
        if seen[pa]["over"]:
            break
        if (seen[pa]["log"], seen[pb]["log"]) != logs:
            moved_at, logs = time.monotonic(), (seen[pa]["log"], seen[pb]["log"])
        elif time.monotonic() - moved_at > STALL_S:
            raise AssertionError(
                "the game stopped moving:\n"
                + _stalled(site, gid, {"Anne": pa, "Bert": pb}, clicked, troubles)
            )
        for p in (pa, pb):
            if my_turn(p, seen[p]):
                label = click_a_move(p, rng, seen[p])
                if not label:
                    continue
                clicked.append(f"{'Anne' if p is pa else 'Bert'}: {label}")
                wait_for_the_next_view(p, seen[p]["log"])
                break  # the other page's look is out of date now
        else:
            pa.wait_for_timeout(20)
    expect(pa.locator("#status")).to_have_text("Game over")
    expect(pb.locator("#status")).to_have_text("Game over")
    anne.close()
    bert.close()


def test_a_refused_move_shows_its_reason_and_a_reload_resumes(site: Server, page: Page) -> None:
    page.goto(site.base + "/?lang=en")
    page.locator("button.quick[data-game=greatwall]").click()
    expect(page.locator("#moves-box")).to_be_visible()
    url = page.url
    seq = page.evaluate("[...conns.values()][0].view.seq")
    # What a stale second tab would send: an action for a position that has passed.
    page.evaluate(
        "c => c.ws.send(JSON.stringify({type: 'act', action_id: 'stale', expected_seq: c.view.seq + 5,"
        " action: c.view.legal[0].action}))",
        page.evaluate_handle("[...conns.values()][0]"),
    )
    # A race lost to the position's own change says nothing: the next view shows where
    # the game is. The page stays as it was.
    page.wait_for_timeout(500)
    expect(page.locator("#refusal")).to_have_text("")
    page.evaluate(
        "c => c.ws.send(JSON.stringify({type: 'act', action_id: 'bad', expected_seq: c.view.seq,"
        " action: 'lay 99 on Z9'}))",
        page.evaluate_handle("[...conns.values()][0]"),
    )
    # The reason in words; no rule number or seq in the main text.
    expect(page.locator("#refusal")).to_contain_text("Not possible:")
    assert "ENGINE-0" not in page.locator("#refusal").inner_text()
    page.reload()
    expect(page).to_have_url(url)
    expect(page.locator("#moves-box")).to_be_visible()
    assert page.evaluate("[...conns.values()][0].view.seq") == seq


def test_a_spectator_sees_no_hand_and_hotseat_hides_each_hand(
    site: Server, browser: Browser
) -> None:
    gid = site.new_game("greatwall", ["open", "open"])
    ctx = browser.new_context()
    page = ctx.new_page()
    _take_seat(page, site, gid, 0, "Anne")
    page.once("dialog", lambda d: d.accept("Bert"))
    page.locator("#seats li.seat1 button.take").click()  # the same browser: hotseat
    rng = random.Random(5)
    from web.clicking import click_a_move, wait_for_the_next_view

    curtains = 0
    # Until two hand-overs were seen; a look before the page has drawn either the curtain
    # or the moves waits a moment rather than counting as a turn.
    for _ in range(600):
        if curtains >= 2:
            break
        if page.locator("#curtain").is_visible():
            curtains += 1
            # Behind the hand-over screen no board and no moves are on the page.
            assert page.locator(".board-wrap svg").count() == 0
            assert page.locator("#moves button").count() == 0
            page.locator("#curtain-go").click()
        elif page.locator("#moves-box").is_visible():
            n = page.locator("#log li").count()
            if click_a_move(page, rng):
                wait_for_the_next_view(page, n)
        else:
            page.wait_for_timeout(50)
    assert curtains >= 2
    spectator = browser.new_context().new_page()
    spectator.goto(f"{site.base}/games/{gid}?lang=en")
    expect(spectator.locator(".board-wrap svg")).to_be_visible()
    assert spectator.locator("#moves button").count() == 0
    seen = spectator.evaluate("[...conns.values()][0].view.view.body")
    assert seen["hand"] is None or seen["hand"] == [] or "hand" not in seen
    ctx.close()


@pytest.mark.parametrize(
    "lang,word", [("en", "New game"), ("nl", "Nieuw spel"), ("de", "Neues Spiel")]
)
def test_each_language_renders(site: Server, page: Page, lang: str, word: str) -> None:
    page.goto(f"{site.base}/?lang={lang}")
    expect(page.locator("#new-h")).to_have_text(word)
    expect(page.locator("html")).to_have_attribute("lang", lang)


def test_the_browsers_language_is_chosen_without_asking(site: Server, browser: Browser) -> None:
    page = browser.new_context(locale="de-DE").new_page()
    page.goto(site.base + "/")
    expect(page.locator("#new-h")).to_have_text("Neues Spiel")


def _finished_game(site: Server, title: str, players: int) -> str:
    import time

    import httpx

    gid = site.new_game(title, ["bot:random"] * players)
    for _ in range(600):
        if httpx.get(f"{site.base}/api/games/{gid}").json()["status"] == "finished":
            return gid
        time.sleep(0.1)
    raise AssertionError("the bots did not finish the game")


def test_a_replay_steps_to_the_end(site: Server, page: Page) -> None:
    gid = _finished_game(site, "greatwall", 2)
    page.goto(f"{site.base}/games/{gid}/replay?lang=en")
    expect(page.locator("#r-where")).to_contain_text("Decision 0 of")
    expect(page.locator(".board-wrap svg")).to_be_visible()
    page.locator("#r-next").click()
    expect(page.locator("#r-where")).to_contain_text("Decision 1 of")
    page.keyboard.press("End")
    where = page.locator("#r-where")
    expect(where).to_have_text(re.compile(r"Decision (\d+) of \1$"))
    assert page.locator("#log li").count() > 10
    page.locator("#r-seat").select_option("0")
    expect(page.locator(".board-wrap svg")).to_be_visible()
