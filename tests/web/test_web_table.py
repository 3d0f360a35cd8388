"""The table as a player meets it: pick then place, questions before a move that needs
one, one move per double click, notation on request, amounts in a number field, what
just changed, the end's summary and rematch, replays by decision, the keyboard alone."""

from __future__ import annotations

import itertools
import json
import random
import re
import time
from typing import Any

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from serving import Server
from web.clicking import click_a_move, look, my_turn, play_until, wait_for_the_next_view


def _hold(page: Page, site: Server, gid: str, seats: dict[int, str]) -> None:
    """This browser holds `seats` (seat -> secret), as after taking them."""
    page.goto(f"{site.base}/?lang=en")
    page.evaluate(
        "([gid, seats]) => localStorage.setItem('tianxia.seats', JSON.stringify({[gid]: seats}))",
        [gid, {str(k): v for k, v in seats.items()}],
    )
    page.goto(f"{site.base}/games/{gid}?lang=en")


def _view(page: Page) -> dict[str, Any]:
    v: dict[str, Any] = page.evaluate("() => { const c = conns.get(shown); return c && c.view; }")
    return v


def _legal(page: Page) -> list[str]:
    v = _view(page)
    return [entry["action"] for entry in v["legal"]] if v else []


def _through_curtain(page: Page) -> None:
    if page.locator("#curtain").is_visible():
        page.locator("#curtain-go").click()


@pytest.mark.timeout(180)
def test_a_move_that_ends_the_game_asks_and_cancel_does_nothing(
    site: Server, browser: Browser
) -> None:
    """The Emperor: accepting a merger ends the game; the page says so before it sends."""
    page = browser.new_context().new_page()
    for _attempt in range(6):
        gid = site.new_game("emperor", ["open", "open"])
        seats = {0: site.join(gid, 0, "Anna"), 1: site.join(gid, 1, "Ben")}
        _hold(page, site, gid, seats)
        rng = random.Random(_attempt)
        for _ in range(80):
            _through_curtain(page)
            # The hotseat's hand-over screen may come up at any view: it is passed first.
            page.wait_for_function(
                "() => !document.getElementById('curtain').hidden"
                " || (conns.get(shown) && conns.get(shown).view)"
            )
            if page.locator("#curtain").is_visible():
                continue
            v = _view(page)
            if not v:
                continue
            if v["terminal"]:
                break
            legal = v["legal"]
            if not legal:
                page.wait_for_timeout(50)
                continue
            asks = [entry for entry in legal if entry["action"] == "accept"]
            if asks:
                break
            merges = [entry["action"] for entry in legal if entry["action"].startswith("merge")]
            choice = merges[0] if merges else rng.choice([entry["action"] for entry in legal])
            seq = v["seq"]
            # Reaching the position: moves sent through the page's own function.
            sent = page.evaluate(
                "a => { const c = conns.get(shown); if (!c) return false; play(c, a); return true; }",
                choice,
            )
            if not sent:
                continue
            if page.locator("#confirm").is_visible():
                page.locator("#confirm-yes").click()
            page.wait_for_function(
                "s => [...conns.values()].some(c => c.view && c.view.seq > s)", arg=seq
            )
            page.wait_for_timeout(30)
        else:
            continue
        if "accept" in _legal(page):
            break
    else:
        pytest.fail("no merger offer came up in six games")
    entry = next(e for e in _view(page)["legal"] if e["action"] == "accept")
    # The title's own question, or the one every title asks before the last move.
    question = entry["confirm"]
    assert question and ("ends" in question or "end" in question)
    seq = _view(page)["seq"]
    accept = page.locator(
        "#moves button.move[data-action='accept'], .board-wrap .spot[data-actions*='accept']"
    ).first
    accept.click()
    if page.locator("#menu").is_visible():
        page.locator("#menu-items button[data-action='accept']").click()
    expect(page.locator("#confirm")).to_be_visible()
    expect(page.locator("#confirm-text")).to_contain_text(question)
    page.locator("#confirm-no").click()
    expect(page.locator("#confirm")).to_be_hidden()
    page.wait_for_timeout(400)
    assert _view(page)["seq"] == seq  # nothing was sent
    assert "accept" in _legal(page)
    accept.click()
    if page.locator("#menu").is_visible():
        page.locator("#menu-items button[data-action='accept']").click()
    page.locator("#confirm-yes").click()
    expect(page.locator("#status")).to_have_text("Game over")
    # The end: a summary with ranks, both names and what to do next.
    summary = page.locator("#scores-box")
    expect(summary).to_be_visible()
    expect(summary).to_contain_text("Anna")
    expect(summary).to_contain_text("Ben")
    expect(summary.locator("a[href$='/replay']")).to_be_visible()
    expect(summary.locator("#rematch")).to_be_visible()
    # Rematch: a new game, the same seats held by this browser.
    page.locator("#rematch").click()
    expect(page).not_to_have_url(re.compile(gid))
    expect(page.locator("#players")).to_contain_text("Anna")
    expect(page.locator("#players")).to_contain_text("Ben")
    page.context.close()


@pytest.mark.timeout(120)
def test_a_double_click_plays_once_and_says_nothing_of_seqs(site: Server, page: Page) -> None:
    gid = site.new_game("greatwall", ["open", "open"])
    mine = site.join(gid, 0, "Anna")
    site.join(gid, 1, "Ben")  # the other seat is taken elsewhere and waits
    _hold(page, site, gid, {0: mine})
    expect(page.locator("#moves-box")).to_be_visible()
    before = [e for e in page.evaluate("events.get(0)") if e["seat"] == 0]
    draw = page.locator(
        "#moves button.move[data-action='draw'], .board-wrap .spot[data-actions='[\"draw\"]']"
    ).first
    draw.dblclick()
    page.wait_for_timeout(1200)
    after = [e for e in page.evaluate("events.get(0)") if e["seat"] == 0]
    assert len(after) == len(before) + 1
    assert page.locator("#refusal").inner_text() == ""
    assert "seq" not in page.locator("main").inner_text()


@pytest.mark.timeout(120)
def test_moves_read_in_words_and_notation_shows_on_request(site: Server, page: Page) -> None:
    gid = site.new_game("greatwall", ["open", "bot:random"])
    _hold(page, site, gid, {0: site.join(gid, 0, "Anna")})
    expect(page.locator("#moves-box")).to_be_visible()
    v = _view(page)
    entry = v["legal"][0]
    assert entry["text"] and not entry["text"].startswith("legal")
    spot = page.locator(".board-wrap .spot").first
    if spot.count():
        # What a title tells on hover shows on focus too, in a line under the board.
        spot.focus()
        expect(page.locator("#details")).not_to_have_text("")
    assert page.locator("code.notation").count() == 0
    page.locator("#pref-notation").check()
    page.locator("#pref-notation").evaluate("e => e.dispatchEvent(new Event('change'))")
    expect(page.locator("#log code.notation").first).to_be_visible()
    page.reload()
    expect(page.locator("#pref-notation")).to_be_checked()  # remembered


@pytest.mark.timeout(240)
def test_long_runs_of_amounts_are_one_checked_number_field(site: Server, page: Page) -> None:
    gid = site.new_game("mandarin", ["open", "bot:easy"])
    _hold(page, site, gid, {0: site.join(gid, 0, "Anna")})
    rng = random.Random(4)
    play_until(page, rng, "#moves .stepper")
    stepper = page.locator("#moves .stepper").first
    expect(stepper).to_be_visible()
    amounts = [int(a) for a in re.findall(r"-?\d+", stepper.get_attribute("data-amounts") or "")]
    field = stepper.locator("input.amount")
    assert int(field.get_attribute("min") or 0) == min(amounts)
    assert int(field.get_attribute("max") or 0) == max(amounts)
    assert page.locator("#moves select").count() == 0  # no list of 200 entries
    wrong = next(a for a in range(min(amounts), max(amounts)) if a not in amounts)
    field.fill(str(wrong))
    expect(stepper.locator("button.move")).to_be_disabled()
    expect(field).to_have_attribute("aria-invalid", "true")
    stepper.locator("button.nudge").last.click()  # the next legal amount up
    assert int(field.input_value()) in amounts
    expect(stepper.locator("button.move")).to_be_enabled()
    chosen = int(field.input_value())
    n = page.locator("#log li").count()
    stepper.locator("button.move").click()
    wait_for_the_next_view(page, n)
    mine = [e for e in page.evaluate("events.get(0)") if e["seat"] == 0]
    assert any(str(chosen) in (e.get("action") or "") for e in mine[-3:])


@pytest.mark.timeout(120)
def test_a_bots_move_is_marked_recent_on_the_board_and_in_the_log(site: Server, page: Page) -> None:
    gid = site.new_game("china", ["open", "bot:random", "bot:random"])
    _hold(page, site, gid, {0: site.join(gid, 0, "Anna")})
    rng = random.Random(2)
    for _ in range(40):
        v = _view(page)
        if v and v["legal"] and any(r[0] == 1 for r in v.get("recent", [])):
            break
        seen = look(page)
        if my_turn(page, seen) and click_a_move(page, rng, seen):
            wait_for_the_next_view(page, seen["log"], seen["status"])
        else:
            page.wait_for_timeout(50)
    v = _view(page)
    assert any(r[0] == 1 for r in v["recent"])
    assert all(r[0] != 0 for r in v["recent"])  # never the viewer's own
    expect(page.locator("#log li.recent").first).to_be_visible()
    # The board's renderer rings what the bot changed.
    assert page.locator(".board-wrap .recent").count() > 0


@pytest.mark.timeout(120)
def test_a_replay_goes_by_decision_and_jumps_to_rounds_and_own_moves(
    site: Server, page: Page
) -> None:
    import httpx

    gid = site.new_game("silkroad", ["bot:random", "bot:random"])
    for _ in range(600):
        if httpx.get(f"{site.base}/api/games/{gid}").json()["status"] == "finished":
            break
        time.sleep(0.1)
    marks = httpx.get(f"{site.base}/api/games/{gid}/replay?marks=true").json()["marks"]
    page.goto(f"{site.base}/games/{gid}/replay?lang=en")
    expect(page.locator("#r-where")).to_contain_text("Decision 0 of")
    page.locator("#r-next").click()
    # One step forward is the first decision with the chance that followed it.
    expect(page.locator("#r-where")).to_contain_text("Decision 1 of")
    assert page.evaluate("at()") == marks["decisions"][1]
    before = page.evaluate("at()")
    page.locator("#r-next-round").click()
    page.wait_for_function("s => at() !== s", arg=before)
    assert page.evaluate("at()") in marks["rounds"]
    page.locator("#r-seat").select_option("1")
    expect(page.locator("#r-next-mine")).to_be_enabled()
    before = page.evaluate("at()")
    page.locator("#r-next-mine").click()
    page.wait_for_function("s => at() !== s", arg=before)
    step = page.evaluate("at()")
    k = marks["decisions"].index(step)
    assert marks["seats"][k + 1] == 1  # the next decision is seat 1's own
    # Icons are drawn, not font glyphs.
    assert page.locator(".controls button svg").count() >= 4
    assert not re.search("[⏮⏭⏱◀▶]", page.locator(".controls").inner_text())


@pytest.mark.timeout(240)
@pytest.mark.parametrize("title", ["china", "greatwall", "emperor", "mandarin", "silkroad"])
def test_moves_are_played_with_the_keyboard_alone(site: Server, page: Page, title: str) -> None:
    seats = ["open", "bot:random", "bot:random"] if title == "china" else ["open", "bot:random"]
    gid = site.new_game(title, seats)
    _hold(page, site, gid, {0: site.join(gid, 0, "Anna")})
    rng = random.Random(9)
    moves = 0
    for _ in range(600):
        if page.locator("#scores-box").is_visible() or moves >= 6:
            break
        if not my_turn(page) or page.locator("#moves-box.busy").count():
            page.wait_for_timeout(50)
            continue
        n = page.locator("#log li").count()
        # A control that plays (a spot on the board, a move button, an amount's field),
        # reached by focus as Tab reaches it, then Enter; no pointer anywhere.
        focusable = page.locator(
            ".board-wrap .spot:not(.busy), #moves button.move:not([disabled]), #moves input.amount"
        )
        if not focusable.count():
            page.wait_for_timeout(50)
            continue
        target = focusable.nth(rng.randrange(focusable.count()))
        target.focus()
        page.keyboard.press("Enter")
        for _ in range(3):  # a menu, a target after a pick, a question: the keyboard too
            if page.locator("#menu").is_visible():
                page.locator("#menu-items button").first.focus()
                page.keyboard.press("Enter")
            elif page.locator("#confirm").is_visible():
                page.locator("#confirm-yes").focus()
                page.keyboard.press("Enter")
            elif page.locator(".board-wrap .spot.target").count():
                page.locator(".board-wrap .spot.target").first.focus()
                page.keyboard.press("Enter")
            elif page.locator(".board-wrap .spot.picked").count():
                page.locator("#moves button.move").first.focus()
                page.keyboard.press("Enter")
        wait_for_the_next_view(page, n)
        moves += 1
    mine = [e for e in page.evaluate("events.get(0)") if e["seat"] == 0]
    assert len(mine) >= 3 or page.locator("#scores-box").is_visible()


@pytest.mark.timeout(120)
def test_pick_then_place_plays_a_move_and_a_pick_alone_plays_nothing(
    site: Server, page: Page
) -> None:
    """China: a card in hand is picked (marked, nothing sent), then a marked field takes it."""
    gid = site.new_game("china", ["open", "bot:random", "bot:random"])
    _hold(page, site, gid, {0: site.join(gid, 0, "Anna")})
    expect(page.locator("#moves-box")).to_be_visible()
    picks = page.locator(".board-wrap .spot[data-pick]")
    expect(picks.first).to_be_visible()
    seq = _view(page)["seq"]
    mine = len([e for e in page.evaluate("events.get(0)") if e["seat"] == 0])
    k = next(
        i for i in range(picks.count()) if picks.nth(i).get_attribute("data-pick", timeout=1000)
    )
    pick = picks.nth(k)
    pick.click()
    expect(pick).to_have_attribute("aria-pressed", "true")
    page.wait_for_timeout(300)
    assert _view(page)["seq"] == seq  # a pick alone sends nothing
    targets = page.locator(".board-wrap .spot.target")
    assert targets.count() > 0
    # Every marked target offers a move of the picked card.
    chosen = set(json.loads(pick.get_attribute("data-actions") or "[]"))
    for i in range(targets.count()):
        assert chosen & set(json.loads(targets.nth(i).get_attribute("data-actions") or "[]"))
    page.keyboard.press("Escape")  # put it back
    expect(pick).to_have_attribute("aria-pressed", "false")
    assert page.locator(".board-wrap .spot.target").count() == 0
    pick.click()
    n = page.locator("#log li").count()
    targets.first.click()
    if page.locator("#menu").is_visible():
        page.locator("#menu-items button").first.click()
    if page.locator("#confirm").is_visible():
        page.locator("#confirm-yes").click()
    wait_for_the_next_view(page, n)
    page.wait_for_function(
        "m => events.get(0).filter(e => e.seat === 0).length > m", arg=mine, timeout=10000
    )


@pytest.mark.timeout(120)
def test_a_patched_board_is_the_board_drawn_whole(site: Server, browser: Browser) -> None:
    """Views after the first send the board as a patch of the last one; the page that
    applied a dozen patches holds the same board a fresh page is sent whole."""
    gid = site.new_game("china", ["open", "bot:random", "bot:random"])
    secret = site.join(gid, 0, "Anna")
    ctx = browser.new_context()
    page = ctx.new_page()
    _hold(page, site, gid, {0: secret})
    rng = random.Random(6)
    for _ in range(12):
        seen = look(page)
        if my_turn(page, seen) and click_a_move(page, rng, seen):
            wait_for_the_next_view(page, seen["log"], seen["status"])
        else:
            page.wait_for_timeout(50)
    page.wait_for_function("() => conns.get(0).view.legal.length > 0")
    seq = page.evaluate("conns.get(0).view.seq")
    fresh = ctx.new_page()
    fresh.goto(f"{site.base}/games/{gid}?lang=en")
    fresh.wait_for_function(
        "s => conns.get(0) && conns.get(0).view && conns.get(0).view.seq === s", arg=seq
    )
    assert page.evaluate("conns.get(0).boardText") == fresh.evaluate("conns.get(0).boardText")
    ctx.close()


@pytest.mark.paced
@pytest.mark.timeout(120)
def test_views_that_come_together_are_shown_one_by_one(site: Server, page: Page) -> None:
    """The server sends a view per bot move when the bots take their time; views that
    arrive together are drawn about half a second apart, so a person can follow. Three
    views are handed to the page at once, as the socket would."""
    gid = site.new_game("greatwall", ["open", "open"])
    _hold(page, site, gid, {0: site.join(gid, 0, "Anna")})
    site.join(gid, 1, "Ben")
    expect(page.locator("#moves-box")).to_be_visible()
    page.evaluate(
        """() => {
      const c = conns.get(0), v = c.view, n = events.get(0).length;
      performance.clearMarks('tianxia-drawn');
      for (let i = 0; i < 3; i++) receive(c, {...v, since: n, events: [], legal: []});
    }"""
    )
    page.wait_for_function(
        "() => performance.getEntriesByName('tianxia-drawn').length >= 3", timeout=5000
    )
    marks = page.evaluate(
        "() => performance.getEntriesByName('tianxia-drawn').map(m => m.startTime)"
    )
    gaps = [b - a for a, b in itertools.pairwise(marks)]
    assert len(gaps) >= 2 and min(gaps) > 380  # a frame's rounding aside
    # "Fast mode" shows the newest at once.
    page.locator("#pref-fast").check()
    page.evaluate(
        """() => {
      const c = conns.get(0), v = c.view, n = events.get(0).length;
      performance.clearMarks('tianxia-drawn');
      for (let i = 0; i < 3; i++) receive(c, {...v, since: n, events: [], legal: []});
    }"""
    )
    page.wait_for_function(
        "() => performance.getEntriesByName('tianxia-drawn').length >= 1", timeout=5000
    )
    page.wait_for_timeout(300)
    marks = page.evaluate(
        "() => performance.getEntriesByName('tianxia-drawn').map(m => m.startTime)"
    )
    assert marks[-1] - marks[0] < 300  # no pause between them


@pytest.mark.timeout(120)
def test_panels_name_every_seat_and_say_who_is_connected_and_whose_turn(
    site: Server, browser: Browser
) -> None:
    gid = site.new_game("greatwall", ["open", "open"])
    anna, ben = site.join(gid, 0, "Anna"), site.join(gid, 1, "Ben")
    pa = browser.new_context().new_page()
    _hold(pa, site, gid, {0: anna})
    strip = pa.locator("#players")
    expect(strip.locator("li.seat0")).to_contain_text("Anna")
    expect(strip.locator("li.seat0 .presence.on")).to_be_visible()
    expect(strip.locator("li.seat1 .presence.off")).to_be_visible()  # Ben is not here yet
    expect(strip.locator("li.seat0.turn")).to_be_visible()
    # Your turn, noticed: the tab's title and its icon.
    expect(pa).to_have_title(re.compile("^● "))
    assert (pa.locator("link[rel=icon]").get_attribute("href") or "").endswith("favicon-turn.svg")
    pb = browser.new_context().new_page()
    _hold(pb, site, gid, {1: ben})
    expect(strip.locator("li.seat1 .presence.on")).to_be_visible()
    assert not pb.title().startswith("●")
    # The log and the chat name seats by their names, never by the engine's P1, P2.
    pb.locator("#chat-text").fill("hello")
    pb.locator("#chat-send").click()
    expect(pa.locator("#chat")).to_contain_text("Ben")
    n = pa.locator("#log li").count()
    pa.locator(
        "#moves button.move[data-action='draw'], .board-wrap .spot[data-actions='[\"draw\"]']"
    ).first.click()
    wait_for_the_next_view(pa, n)
    expect(pb.locator("#log")).to_contain_text("Anna")
    assert not re.search(r"\bP[12]\b", pb.locator("#log").inner_text())
    pb.context.close()
    expect(strip.locator("li.seat1 .presence.off")).to_be_visible()  # Ben left
    pa.context.close()
