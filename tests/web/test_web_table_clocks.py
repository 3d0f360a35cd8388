"""The table's clocks, stand-ins, presence, links and notifications, in Chromium against
a real server."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from serving import Server


def _game(site: Server, seats: list[str], **extra: Any) -> str:
    r = httpx.post(
        f"{site.base}/api/games",
        json={"game": "greatwall", "players": len(seats), "seats": seats, **extra},
        timeout=60,
    )
    r.raise_for_status()
    return str(r.json()["id"])


def _hold(page: Page, site: Server, gid: str, seats: dict[int, str], lang: str = "en") -> None:
    """This browser holds `seats` (seat -> secret), as after taking them."""
    page.goto(f"{site.base}/?lang={lang}")
    page.evaluate(
        "([gid, seats]) => localStorage.setItem('tianxia.seats', JSON.stringify({[gid]: seats}))",
        [gid, {str(k): v for k, v in seats.items()}],
    )
    page.goto(f"{site.base}/games/{gid}?lang={lang}")


def _wait_for_my_turn(page: Page) -> None:
    page.wait_for_function(
        "() => { const c = conns.get(shown); return c && c.view && c.view.legal.length > 0; }",
        timeout=30000,
    )


def _play_one_move(page: Page) -> None:
    """Play the first move offered through the page's own function; wait for the answer."""
    seq = page.evaluate("() => conns.get(shown).view.seq")
    page.evaluate("() => { const c = conns.get(shown); send(c, c.view.legal[0].action); }")
    page.wait_for_function("s => conns.get(shown).view.seq > s", arg=seq, timeout=30000)


@pytest.mark.timeout(90)
def test_a_seat_shows_who_is_present_in_words(site: Server, browser: Browser) -> None:
    gid = _game(site, ["open", "open"])
    anna, ben = site.join(gid, 0, "Anna"), site.join(gid, 1, "Ben")
    pa = browser.new_context().new_page()
    _hold(pa, site, gid, {0: anna})
    ben_dot = pa.locator("#players li.seat1 .presence")
    expect(ben_dot).to_have_text("away")
    expect(ben_dot).to_have_class(re.compile(r"\boff\b"))
    expect(pa.locator("#players li.seat0 .presence")).to_have_text("connected")
    pb = browser.new_context().new_page()
    _hold(pb, site, gid, {1: ben})
    expect(ben_dot).to_have_text("connected")
    expect(ben_dot).to_have_class(re.compile(r"\bon\b"))
    # The lobby's list says who is at the table, in words.
    lobby = browser.new_context().new_page()
    lobby.goto(f"{site.base}/?lang=en")
    seats = lobby.locator(f"#running li[data-game='{gid}'] .seats-text")
    expect(seats).to_have_text("Anna (connected), Ben (connected)")
    pb.context.close()
    expect(ben_dot).to_have_text("away")
    lobby.wait_for_timeout(1100)  # past the second a lobby's page is shared (--lobby-cache)
    lobby.reload()
    expect(seats).to_have_text("Anna (connected), Ben")
    lobby.context.close()
    pa.context.close()


def test_clock_times_read_right_for_short_and_long_clocks(site: Server, page: Page) -> None:
    page.goto(f"{site.base}/games/{_game(site, ['open', 'bot:easy'])}?lang=en")
    got = page.evaluate(
        "() => [45, 750, 3 * 3600 + 5 * 60, 2 * 86400 + 4 * 3600 + 59].map(clockText)"
    )
    assert got == ["0:45", "12:30", "3:05:00", "2 d 4 h"]
    words = page.evaluate("() => [30, 300, 5400, 3 * 86400].map(spanWords)")
    assert words == ["30 seconds", "5 minutes", "1 hour 30 minutes", "3 days"]
    # Urgent under 30 seconds, or under a tenth of the initial time.
    urgent = page.evaluate(
        """() => [
          urgent({bank: 29, vacation: 0, initial: 60}),
          urgent({bank: 31, vacation: 0, initial: 60}),
          urgent({bank: 3000, vacation: 0, initial: 86400}),
          urgent({bank: 0, vacation: 9000, initial: 86400}),
        ]"""
    )
    assert urgent == [True, False, True, False]


@pytest.mark.timeout(90)
def test_the_running_clock_counts_down_and_the_policy_is_said(site: Server, page: Page) -> None:
    gid = _game(site, ["open", "bot:easy"], clock=600)
    _hold(page, site, gid, {0: site.join(gid, 0, "Anna")})
    _wait_for_my_turn(page)
    mine = page.locator("#players li.seat0 .seat-clock")
    expect(mine).to_be_visible()
    expect(mine).to_have_class(re.compile(r"\brunning\b"))
    expect(mine).to_have_text(re.compile(r"^(10:00|9:[0-5]\d)$"))
    expect(mine).to_have_attribute("aria-label", re.compile(r"^Time left: \d+:\d\d$"))
    first = mine.inner_text()
    # It counts down on its own, without a view from the server.
    page.wait_for_function(
        "t => document.querySelector('#players li.seat0 .seat-clock').textContent !== t",
        arg=first,
        timeout=5000,
    )
    assert mine.inner_text() < first or first == "10:00"
    assert "urgent" not in (mine.get_attribute("class") or "")
    policy = page.locator("#clock-policy")
    expect(policy).to_be_visible()
    expect(policy).to_contain_text("Clock: 10 minutes")
    expect(policy).to_contain_text("a bot plays for")


# A view as the server sends it past a seat's clock (the protocol's fields): Anna's
# seat is played by a stand-in, whose moves are marked, and she is told on return.
_STAND_IN = """([n]) => {
  const c = conns.get(shown);
  const v = c.view;
  const seats = v.seats.map((s) => s.seat === 0 ? {...s, bot_playing: true} : s);
  const now = Date.now() / 1000;
  const clock = {initial: 600, increment: 30, policy: "bot", vacation: 86400, minimum: 60,
    now, deadline: null, seats: v.seats.map((s) => ({bank: s.seat === 0 ? 0 : 512,
    vacation_left: s.seat === 0 ? 0 : 86400, running: false, stand_in: s.seat === 0}))};
  const events = [{seq: v.seq + 1, seat: 0, action: "pass", text: "P1 passes",
    words: "Anna passes", stand_in: true}];
  receive(c, {...v, seq: v.seq + 1, since: n, events, legal: [], seats,
    players: v.players.map((p) => p.seat === 0 ? {...p, bot: true} : p), clock,
    away: {moves: 3, since: now - 3600}});
}"""


@pytest.mark.timeout(90)
def test_a_stand_in_is_shown_on_the_panel_and_in_the_log_and_the_player_told(
    site: Server, page: Page
) -> None:
    gid = _game(site, ["open", "bot:easy"], clock=600)
    _hold(page, site, gid, {0: site.join(gid, 0, "Anna")})
    _wait_for_my_turn(page)
    n = page.evaluate("() => (events.get(shown) || []).length")
    page.evaluate(_STAND_IN, [n])
    panel = page.locator("#players li.seat0")
    expect(panel.locator(".tag.standin")).to_have_text("stand-in bot")
    expect(page.locator("#seats")).to_contain_text("A bot plays for Anna until they return.")
    last = page.locator("#log li").last
    expect(last).to_contain_text("Anna passes")
    expect(last.locator(".tag.standin")).to_have_text("played by a stand-in bot")
    away = page.locator("#away")
    expect(away).to_be_visible()
    expect(away).to_have_attribute("role", "status")
    expect(away).to_contain_text("While you were away, a bot made 3 moves for you.")
    # The clocks of the protocol: the bank and the vacation spent, the other seat's bank.
    expect(panel.locator(".seat-clock")).to_have_text("0:00")
    expect(panel.locator(".seat-clock")).to_have_class(re.compile(r"\burgent\b"))
    expect(page.locator("#players li.seat1 .seat-clock")).to_have_text("8:32")
    policy = page.locator("#clock-policy")
    expect(policy).to_contain_text("Clock: 10 minutes per player, plus 30 seconds per move.")
    expect(policy).to_contain_text("Then 1 day of vacation per player.")
    expect(policy).to_contain_text("a bot plays for them until they return")
    away.get_by_role("button", name="Dismiss").click()
    expect(away).to_be_hidden()


@pytest.mark.timeout(90)
def test_the_key_and_the_invite_link_are_apart_and_each_is_copied(
    site: Server, browser: Browser
) -> None:
    gid = _game(site, ["open", "bot:easy"])
    secret = site.join(gid, 0, "Anna")
    ctx = browser.new_context()
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.base)
    page = ctx.new_page()
    _hold(page, site, gid, {0: secret})
    invite, key = page.locator(".link-box.invite"), page.locator(".link-box.key")
    expect(invite.locator("label")).to_have_text("Link to invite a friend")
    expect(key.locator("label")).to_have_text("Your key to this seat")
    expect(key).to_contain_text("Anyone with this link plays as you: keep it private.")
    assert invite.locator("input").input_value() == f"{site.base}/games/{gid}"
    assert key.locator("input").input_value() == f"{site.base}/games/{gid}#s={secret}"
    assert secret not in invite.inner_text()
    invite.get_by_role("button", name="Copy").click()
    expect(invite.locator(".copied")).to_have_text("Copied")
    expect(invite.locator(".copied")).to_have_attribute("role", "status")
    assert page.evaluate("() => navigator.clipboard.readText()") == f"{site.base}/games/{gid}"
    key.get_by_role("button", name="Copy").click()
    expect(key.locator(".copied")).to_have_text("Copied")
    assert page.evaluate("() => navigator.clipboard.readText()").endswith(f"#s={secret}")
    # A spectator is shown the invitation only.
    watcher = browser.new_context().new_page()
    watcher.goto(f"{site.base}/games/{gid}?lang=en")
    expect(watcher.locator(".link-box.invite")).to_be_visible()
    expect(watcher.locator(".link-box.key")).to_have_count(0)
    watcher.context.close()
    ctx.close()


# Counts what the page asks of the Notification API, the real one underneath.
_SPY = """
window.__asked = 0; window.__notes = [];
if (window.Notification) {
  const Real = window.Notification;
  const ask = Real.requestPermission.bind(Real);
  window.Notification = new Proxy(Real, {
    construct(target, args) { window.__notes.push(args[0]); return new target(...args); },
    get(target, name) {
      if (name === "requestPermission") return (...a) => { window.__asked += 1; return ask(...a); };
      return Reflect.get(target, name);
    },
  });
}
"""


@pytest.mark.timeout(120)
def test_your_turn_in_an_unseen_tab_is_notified_once_asked_for(
    site: Server, browser: Browser
) -> None:
    gid = _game(site, ["open", "bot:easy"])
    ctx = browser.new_context()
    ctx.grant_permissions(["notifications"], origin=site.base)
    ctx.add_init_script(_SPY)
    page = ctx.new_page()
    _hold(page, site, gid, {0: site.join(gid, 0, "Anna")})
    _wait_for_my_turn(page)
    expect(page.locator("#pref-notify-l")).to_have_text("Notify me when it is my turn")
    assert page.evaluate("() => window.__asked") == 0  # never asked on load
    # The window is behind another: the browser says so through hasFocus.
    page.evaluate("() => { document.hasFocus = () => false; }")
    for _ in range(3):
        _play_one_move(page)
        _wait_for_my_turn(page)
    assert page.evaluate("() => window.__notes") == []  # not asked for: no notification
    page.locator("#pref-notify").check()
    expect(page.locator("#pref-notify")).to_be_checked()
    for _ in range(10):
        _play_one_move(page)
        _wait_for_my_turn(page)
        if page.evaluate("() => window.__notes.length"):
            break
    assert page.evaluate("() => window.__notes") == ["Your turn"]
    expect(page).to_have_title(re.compile(r"Your turn"))
    # In front of the player, the turn notifies nobody.
    page.evaluate("() => { document.hasFocus = () => true; }")
    for _ in range(3):
        _play_one_move(page)
        _wait_for_my_turn(page)
    assert page.evaluate("() => window.__notes.length") == 1
    ctx.close()


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose clocks may be as short as half a second (`--min-clock`)."""
    folder = tmp_path_factory.mktemp("quick")
    srv = Server(
        f"sqlite:///{folder / 'tianxia.sqlite3'}",
        folder,
        "--games-per-minute",
        "0",
        "--open-games",
        "0",
        "--connections-per-address",
        "0",
        "--min-clock",
        "0.5",
        forked=True,
    )
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.mark.timeout(120)
def test_a_stand_in_past_the_real_clock_is_marked_and_the_player_told_on_return(
    quick: Server, page: Page
) -> None:
    gid = _game(quick, ["open", "bot:random"], clock=0.5, clock_policy="bot")
    _hold(page, quick, gid, {0: quick.join(gid, 0, "Anna")})
    # Anna does not move: past her half second a stand-in plays her seat, marked.
    marked = page.locator("#log li .tag.standin")
    expect(marked.first).to_have_text("played by a stand-in bot", timeout=30000)
    made = page.evaluate(
        "() => (events.get(shown) || []).filter((e) => e.stand_in && e.seat === 0).length"
    )
    assert made >= 1
    expect(page.locator("#players li.seat0 .tag.standin")).to_have_text("stand-in bot")
    expect(page.locator("#seats")).to_contain_text("A bot plays for Anna until they return.")
    # She comes back (a new page says hello): told once how many moves were not hers.
    page.reload()
    away = page.locator("#away")
    expect(away).to_be_visible(timeout=15000)
    expect(away).to_contain_text(
        re.compile(r"While you were away, a bot made \d+ moves? for you\.")
    )
    told = int(re.findall(r"\d+", away.inner_text())[0])
    assert told >= made
    # The moves the stand-in made stay marked after the reload.
    expect(page.locator("#log li .tag.standin").first).to_be_visible()
    away.get_by_role("button", name="Dismiss").click()
    expect(away).to_be_hidden()


@pytest.mark.timeout(120)
def test_clocks_stand_ins_and_links_on_a_phone_are_accessible(
    site: Server, browser: Browser
) -> None:
    from web.accessibility import blocking_violations, small_targets

    gid = _game(site, ["open", "bot:easy"], clock=600)
    secret = site.join(gid, 0, "Anna")
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    _hold(page, site, gid, {0: secret}, lang="de")
    _wait_for_my_turn(page)
    n = page.evaluate("() => (events.get(shown) || []).length")
    page.evaluate(_STAND_IN, [n])
    expect(page.locator("#away")).to_contain_text("Während du weg warst")
    expect(page.locator("#players li.seat0 .tag.standin")).to_have_text("Ersatzbot")
    expect(page.locator(".link-box.key label")).to_have_text("Dein Schlüssel zu diesem Platz")
    found = blocking_violations(page, "table (de, phone)")
    found += small_targets(page, "table (de, phone)")
    assert not found, "\n".join(found)
    page.context.close()
