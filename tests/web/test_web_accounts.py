"""The account's pages and the lobby signed in, in Chromium against the real server:
sign up on one device and sign in on another to find the same games (the table opens at
the account's seat), sign out, a wrong password in Dutch, a guest's seats claimed on
signing up, an invitation by name accepted, settings saved, the account deleted, the
clock's fields of the new game's form; axe-core and thumb sizes on the new pages."""

from __future__ import annotations

import itertools
import json
import re
import secrets
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, BrowserContext, Page, expect

from serving import Server
from tianxia.web.i18n import translations

PASSWORD = "a long enough secret"
DESK = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
_names = itertools.count(1)


def _name(who: str) -> str:
    """A name no other test of the module's server has taken."""
    return f"{who}{next(_names)}{secrets.token_hex(2)}"


def _context(browser: Browser, size: dict[str, int] | None = None) -> BrowserContext:
    ctx = browser.new_context(viewport=size or DESK)  # type: ignore[arg-type]
    ctx.add_init_script("try { localStorage.setItem('tianxia.fast', '1'); } catch (e) {}")
    return ctx


def _sign_up(page: Page, site: Server, name: str, email: str | None = None) -> None:
    page.goto(f"{site.base}/account?lang=en")
    page.locator("#up-name").fill(name)
    page.locator("#up-password").fill(PASSWORD)
    if email:
        page.locator("#up-email").fill(email)
    page.locator("#signup button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/(\?.*)?$"))
    expect(page.locator("#account-link")).to_have_text(name)


def _sign_in(page: Page, site: Server, name: str, password: str = PASSWORD) -> None:
    page.goto(f"{site.base}/account?lang=en")
    page.locator("#in-name").fill(name)
    page.locator("#in-password").fill(password)
    page.locator("#signin button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/(\?.*)?$"))
    expect(page.locator("#account-link")).to_have_text(name)


def _me(page: Page) -> Any:
    """`GET /api/me` as the page's own request (its session cookie)."""
    return page.evaluate(
        "async () => { const r = await fetch('/api/me'); return r.ok ? r.json() : r.status; }"
    )


def _game(site: Server, seats: list[str], game: str = "greatwall") -> str:
    r = httpx.post(f"{site.base}/api/games", json={"game": game, "players": 2, "seats": seats})
    r.raise_for_status()
    gid: str = r.json()["id"]
    return gid


def _summary(site: Server, gid: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{site.base}/api/games/{gid}").json()
    return data


def test_sign_up_then_sign_in_on_a_second_device_finds_the_same_games_and_seat(
    site: Server, browser: Browser
) -> None:
    name = _name("Anna")
    phone, desk = _context(browser, PHONE), _context(browser)
    first = phone.new_page()
    _sign_up(first, site, name)
    # The seat taken while signed in is the account's, under the account's name.
    gid = _game(site, ["open", "bot:easy"])
    first.goto(f"{site.base}/games/{gid}?lang=en")
    first.locator("button.take").click()
    expect(first.locator("#resign")).to_be_visible()
    seat = _summary(site, gid)["seats"][0]
    assert seat["name"] == name and seat.get("account") is True
    # The other device has never seen the game: signed in, its lobby lists it ...
    second = desk.new_page()
    _sign_in(second, site, name)
    mine = second.locator(f"#mine li[data-game='{gid}']")
    expect(mine).to_be_visible()
    assert second.evaluate("localStorage.getItem('tianxia.seats')") in (None, "{}")
    # ... and its table opens at the account's seat (no secret on this device).
    mine.locator("a.game-link").click()
    expect(second).to_have_url(re.compile(f"/games/{gid}$"))
    expect(second.locator("#resign")).to_be_visible(timeout=15000)
    expect(second.locator("#moves-box")).to_be_visible(timeout=15000)
    phone.close()
    desk.close()


def test_next_game_opens_the_game_that_has_waited_longest(site: Server, browser: Browser) -> None:
    ctx = _context(browser)
    page = ctx.new_page()
    _sign_up(page, site, _name("Pim"))
    games = []
    for _ in range(2):
        gid = _game(site, ["open", "bot:easy"])
        page.goto(f"{site.base}/games/{gid}?lang=en")
        page.locator("button.take").click()
        expect(page.locator("#moves-box")).to_be_visible()  # the first move is the seat's
        games.append(gid)
        page.wait_for_timeout(1100)
    page.goto(f"{site.base}/?lang=en")
    waiting = page.locator("#mine li .tag.turn")
    expect(waiting).to_have_count(2)
    expect(waiting.first).to_have_text(re.compile(r"^your turn for \d+ (minute|second)s?$"))
    # Your turn first, the longest waiting at the top; "Next game" opens it.
    rows = page.locator("#mine li[data-game]")
    assert [rows.nth(i).get_attribute("data-game") for i in range(2)] == games
    page.locator("#next-game").click()
    expect(page).to_have_url(re.compile(f"/games/{games[0]}$"))
    ctx.close()


def test_a_hidden_lobby_does_not_keep_asking_for_the_account(
    site: Server, browser: Browser
) -> None:
    """A signed-in request counts as the player being there (no turn mail then): a lobby
    in a hidden tab asks nothing, and asks at once when seen again."""
    ctx = _context(browser)
    page = ctx.new_page()
    _sign_up(page, site, _name("Quinn"))
    page.wait_for_load_state("networkidle")  # the page's first asks are behind it
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/api/me") else None)
    page.evaluate(
        "Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    page.wait_for_timeout(11_000)  # past the lobby's ten seconds between asks
    assert asked == []
    page.evaluate(
        "Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    page.wait_for_timeout(1000)
    assert len(asked) == 1
    ctx.close()


def test_signing_out_ends_the_session_and_the_header_offers_to_sign_in(
    site: Server, browser: Browser
) -> None:
    ctx = _context(browser)
    page = ctx.new_page()
    name = _name("Bert")
    _sign_up(page, site, name)
    page.locator("#account-link").click()
    expect(page).to_have_url(re.compile(r"/account/settings$"))
    expect(page.locator("#s-name")).to_have_text(name)
    # Signed in, the account's page is its settings.
    page.goto(f"{site.base}/account?lang=en")
    expect(page).to_have_url(re.compile(r"/account/settings$"))
    page.locator("#s-signout").click()
    expect(page.locator("#notice")).to_have_text("You are signed out.")
    expect(page.locator("#account-link")).to_have_text("Sign in")
    assert _me(page) == 401
    # The settings page of a guest sends them to sign in, and back after.
    page.goto(f"{site.base}/account/settings")
    expect(page).to_have_url(re.compile(r"/account\?next=%2Faccount%2Fsettings$"))
    page.locator("#in-name").fill(name)
    page.locator("#in-password").fill(PASSWORD)
    page.locator("#signin button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/account/settings$"))
    expect(page.locator("#s-name")).to_have_text(name)
    ctx.close()


def test_a_tab_whose_token_went_stale_asks_for_the_new_one(site: Server, browser: Browser) -> None:
    ctx = _context(browser)
    first = ctx.new_page()
    name = _name("Lotte")
    _sign_up(first, site, name)
    second = ctx.new_page()
    second.goto(f"{site.base}/?lang=en")
    old = second.evaluate("Account.me().then(() => Account.csrf)")
    assert old
    # Signed out and in again in the first tab: a new session with a new token.
    first.goto(f"{site.base}/account/settings?lang=en")
    first.locator("#s-signout").click()
    expect(first.locator("#account-link")).to_have_text("Sign in")
    _sign_in(first, site, name)
    said = second.evaluate(
        "api('/api/me', { settings: { digest: true } }, 'PATCH').then(() => 'ok', (e) => e.message)"
    )
    assert said == "ok" and second.evaluate("Account.csrf") not in ("", old)
    assert _me(first)["settings"]["digest"] is True
    # Without the token the server refuses what the cookie alone would authorise.
    refused = first.evaluate(
        "fetch('/api/me', { method: 'PATCH', headers: { 'content-type': 'application/json' },"
        " body: JSON.stringify({ settings: { digest: false } }) }).then((r) => r.status)"
    )
    assert refused == 403 and _me(first)["settings"]["digest"] is True
    ctx.close()


def test_a_wrong_password_is_said_in_dutch(site: Server, browser: Browser) -> None:
    name = _name("Cor")
    httpx.post(
        f"{site.base}/api/accounts", json={"name": name, "password": PASSWORD}
    ).raise_for_status()
    ctx = _context(browser)
    page = ctx.new_page()
    page.goto(f"{site.base}/account?lang=nl")
    page.locator("#in-name").fill(name)
    page.locator("#in-password").fill("not the password")
    page.locator("#signin button[type=submit]").click()
    dutch = translations("nl").gettext("the name or the password is wrong")
    assert dutch != "the name or the password is wrong"
    expect(page.locator("#signin-error")).to_have_text(dutch[0].upper() + dutch[1:])
    # A name that is taken, in Dutch too, with the name in it.
    page.locator("#up-name").fill(name.upper())
    page.locator("#up-password").fill(PASSWORD)
    page.locator("#signup button[type=submit]").click()
    taken = translations("nl").gettext("the name '{name}' is taken").format(name=name.upper())
    expect(page.locator("#signup-error")).to_have_text(taken[0].upper() + taken[1:])
    assert page.url.endswith("/account?lang=nl")
    # An account made on a Dutch page gets its mails in Dutch, and the page stays Dutch.
    fresh = _name("Cor")
    page.locator("#up-name").fill(fresh)
    page.locator("#signup button[type=submit]").click()
    expect(page.locator("#account-link")).to_have_text(fresh)
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    assert _me(page)["settings"]["language"] == "nl"
    ctx.close()


def test_signing_up_claims_the_seats_this_browser_held_as_a_guest(
    site: Server, browser: Browser
) -> None:
    ctx = _context(browser)
    page = ctx.new_page()
    games = [_game(site, ["open", "bot:easy"]) for _ in range(2)]
    # A guest is asked for a name.
    page.on("dialog", lambda dialog: dialog.accept("Dirk"))
    for gid in games:
        page.goto(f"{site.base}/games/{gid}?lang=en")
        page.locator("button.take").click()
        expect(page.locator("#resign")).to_be_visible()
    # A hotseat game at this browser: the second seat is someone else's at the device.
    hotseat = _game(site, ["open", "open"])
    page.goto(f"{site.base}/games/{hotseat}?lang=en")
    page.locator("#seats li.seat0 button.take").click()
    expect(page.locator("#seats li.seat1 button.take")).to_be_visible()
    page.locator("#seats li.seat1 button.take").click()
    page.wait_for_function(
        "(g) => Object.keys(JSON.parse(localStorage.getItem('tianxia.seats'))[g] || {})"
        ".length === 2",
        arg=hotseat,
    )
    assert all(_summary(site, gid)["seats"][0].get("account") is False for gid in games)
    _sign_up(page, site, _name("Dirk"))
    expect(page.locator("#notice")).to_contain_text("3 seats this browser held are now your")
    for gid in [*games, hotseat]:
        assert _summary(site, gid)["seats"][0]["account"] is True
        expect(page.locator(f"#mine li[data-game='{gid}']")).to_be_visible()
    assert _summary(site, hotseat)["seats"][1]["account"] is False
    assert page.locator("#mine-guest").is_hidden()
    ctx.close()


def test_an_invitation_by_name_from_the_form_is_accepted_in_the_lobby(
    site: Server, browser: Browser
) -> None:
    host, guest = _name("Eva"), _name("Frits")
    httpx.post(
        f"{site.base}/api/accounts", json={"name": guest, "password": PASSWORD}
    ).raise_for_status()
    ctx = _context(browser)
    page = ctx.new_page()
    _sign_up(page, site, host)
    page.locator("#f-game").select_option("greatwall")
    page.locator("#f-players").select_option("2")
    page.locator("select[data-seat='1']").select_option("invite")
    invited = page.locator("input[data-name='1']")
    expect(invited).to_be_visible()
    invited.fill(guest)
    page.locator("button.create").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f]+$"))
    gid = page.url.rsplit("/", 1)[1]
    assert _summary(site, gid)["seats"][1]["kind"] == "open"
    other = _context(browser)
    theirs = other.new_page()
    _sign_in(theirs, site, guest)
    invitation = theirs.locator(f"#invitations li[data-game='{gid}']")
    expect(invitation).to_contain_text(f"{host} invites you to seat P2")
    invitation.locator("button.accept").click()
    expect(theirs).to_have_url(re.compile(f"/games/{gid}$"))
    expect(theirs.locator("#resign")).to_be_visible()
    seat = _summary(site, gid)["seats"][1]
    assert seat["name"] == guest and seat["account"] is True
    # An unknown name is refused with the server's sentence, and nothing is created.
    page.goto(f"{site.base}/?lang=en")
    page.locator("#f-game").select_option("greatwall")
    page.locator("#f-players").select_option("2")
    page.locator("select[data-seat='1']").select_option("invite")
    page.locator("input[data-name='1']").fill("Nobody" + secrets.token_hex(3))
    page.locator("button.create").click()
    expect(page.locator("#f-error")).to_contain_text("nobody to invite")
    other.close()
    ctx.close()


def test_a_hotseat_game_signed_in_seats_the_account_and_the_others_as_guests(
    site: Server, browser: Browser
) -> None:
    ctx = _context(browser)
    page = ctx.new_page()
    name = _name("Nora")
    _sign_up(page, site, name)
    page.locator("#f-game").select_option("greatwall")
    page.locator("#f-players").select_option("2")
    page.locator("select[data-seat='1']").select_option("me")
    # The account's seat is under its name; the other person gives theirs.
    expect(page.locator("input[data-name='0']")).to_have_value(name)
    expect(page.locator("input[data-name='0']")).not_to_be_editable()
    page.locator("input[data-name='1']").fill("Olaf")
    page.locator("button.create").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f]+$"))
    seats = _summary(site, page.url.rsplit("/", 1)[1])["seats"]
    assert [(s["name"], s["account"]) for s in seats] == [(name, True), ("Olaf", False)]
    ctx.close()


def test_settings_are_saved_and_the_language_follows(site: Server, browser: Browser) -> None:
    ctx = _context(browser)
    page = ctx.new_page()
    _sign_up(page, site, _name("Gert"), email="gert@example.org")
    page.goto(f"{site.base}/account/settings?lang=en")
    expect(page.locator("#s-email")).to_have_value("gert@example.org")
    expect(page.locator("#s-email-state")).to_contain_text("Not verified yet")
    page.locator("#notify-form input[name=turn]").check()
    page.locator("#notify-form input[name=invite]").check()
    page.locator("#notify-form input[name=digest][value='1']").check()
    page.locator("#s-language").select_option("de")
    page.locator("#notify-form button[type=submit]").click()
    # The page comes back in the chosen language, saying it saved.
    expect(page.locator("#notify-done")).to_have_text(translations("de").gettext("Saved."))
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page).to_have_url(re.compile(r"/account/settings\?lang=de$"))
    settings = _me(page)["settings"]
    assert settings["notify"] == {"turn": True, "start": False, "end": False, "invite": True}
    assert settings["digest"] is True and settings["language"] == "de"
    # What was saved is what the page shows when opened again.
    page.reload()
    expect(page.locator("#notify-form input[name=turn]")).to_be_checked()
    expect(page.locator("#notify-form input[name=start]")).not_to_be_checked()
    expect(page.locator("#notify-form input[name=digest][value='1']")).to_be_checked()
    # A password changed: the old one is refused, the new one signs in.
    page.goto(f"{site.base}/account/settings?lang=en")
    page.locator("#s-old").fill("wrong wrong wrong")
    page.locator("#s-new").fill("another long secret")
    page.locator("#password-form button[type=submit]").click()
    expect(page.locator("#password-error")).to_have_text("The old password is wrong")
    page.locator("#s-old").fill(PASSWORD)
    page.locator("#password-form button[type=submit]").click()
    expect(page.locator("#password-done")).to_have_text("Your password is changed.")
    ctx.close()


def test_the_data_is_downloaded_and_the_account_deleted(site: Server, browser: Browser) -> None:
    ctx = _context(browser)
    page = ctx.new_page()
    name = _name("Hanna")
    _sign_up(page, site, name)
    gid = _game(site, ["open", "bot:easy"])
    page.goto(f"{site.base}/games/{gid}?lang=en")
    page.locator("button.take").click()
    expect(page.locator("#resign")).to_be_visible()
    page.goto(f"{site.base}/account/settings?lang=en")
    with page.expect_download() as download:
        page.locator("#s-export").click()
    exported = json.loads(download.value.path().read_text())
    assert exported["account"]["name"] == name
    assert gid in json.dumps(exported["games"])
    page.locator("#delete summary").click()
    page.locator("#d-password").fill("not it at all")
    page.locator("#delete-form button[type=submit]").click()
    expect(page.locator("#delete-error")).to_have_text("The password is wrong")
    page.locator("#d-password").fill(PASSWORD)
    page.locator("#delete-form button[type=submit]").click()
    expect(page.locator("#notice")).to_have_text("Your account is deleted.")
    expect(page.locator("#account-link")).to_have_text("Sign in")
    # The game goes on with the seat as a guest's, under the same name.
    seat = _summary(site, gid)["seats"][0]
    assert seat["name"] == name and seat["account"] is False
    r = httpx.post(f"{site.base}/api/session", json={"name": name, "password": PASSWORD})
    assert r.status_code == 401
    ctx.close()


def test_the_form_sends_the_time_bank_and_lists_it_in_words(site: Server, browser: Browser) -> None:
    ctx = _context(browser)
    page = ctx.new_page()
    page.goto(f"{site.base}/?lang=en")
    page.locator("#f-game").select_option("greatwall")
    page.locator("#f-players").select_option("2")
    page.locator("select[data-seat='1']").select_option("open")
    # The clock's other fields wait for a bank.
    expect(page.locator("#f-increment")).to_be_disabled()
    page.locator("#f-clock").fill("2")
    page.locator("#f-clock-unit").select_option("3600")
    page.locator("#f-increment").fill("30")
    page.locator("#f-policy").select_option("skip")
    page.locator("#f-vacation").fill("2")
    page.locator("button.create").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f]+$"))
    gid = page.url.rsplit("/", 1)[1]
    clock = _summary(site, gid)["clock"]
    assert (clock["initial"], clock["increment"], clock["policy"]) == (7200, 30, "skip")
    page.goto(f"{site.base}/?lang=en")
    listed = page.locator(f"#open li[data-game='{gid}'] .clock-words")
    expect(listed).to_have_text(
        "2 hours + 30 seconds per move; turns are skipped when time runs out"
    )
    ctx.close()


@pytest.mark.parametrize(("lang", "size"), [("en", "desk"), ("de", "phone"), ("nl", "phone")])
def test_the_account_pages_have_no_serious_findings_and_fit_a_phone(
    site: Server, browser: Browser, lang: str, size: str
) -> None:
    pytest.importorskip("axe_playwright_python")
    from web.accessibility import blocking_violations, small_targets

    ctx = _context(browser, PHONE if size == "phone" else DESK)
    page = ctx.new_page()
    found: list[str] = []

    def look(what: str) -> None:
        found.extend(blocking_violations(page, f"{what} ({lang}, {size})"))
        if size == "phone":
            found.extend(small_targets(page, f"{what} ({lang}, {size})"))
            if page.evaluate("document.documentElement.scrollWidth") > PHONE["width"]:
                found.append(f"{what} ({lang}): scrolls sideways")

    page.goto(f"{site.base}/account?lang={lang}")
    page.locator("#forgot summary").click()
    look("sign in")
    page.goto(f"{site.base}/account/reset?token=abc&lang={lang}")
    look("a new password")
    page.goto(f"{site.base}/account?verified=1&lang={lang}")
    expect(page.locator("#verified")).to_be_visible()
    name = _name("Iris")
    _sign_up(page, site, name, email="iris@example.org")
    page.goto(f"{site.base}/account/settings?lang={lang}")
    expect(page.locator("#settings")).to_be_visible()
    page.locator("#delete summary").click()
    look("settings")
    # The lobby with a game waiting for the player and an invitation.
    gid = _game(site, ["open", "bot:easy"])
    page.goto(f"{site.base}/games/{gid}?lang={lang}")
    page.locator("button.take").click()
    expect(page.locator("#moves-box")).to_be_visible()
    with httpx.Client(base_url=site.base) as host:
        r = host.post("/api/accounts", json={"name": _name("Host"), "password": PASSWORD})
        host.headers["X-CSRF-Token"] = r.json()["csrf"]
        seats = ["bot:easy", f"invite:{name}"]
        host.post("/api/games", json={"game": "greatwall", "players": 2, "seats": seats})
    page.goto(f"{site.base}/?lang={lang}")
    expect(page.locator("#next-game")).to_be_visible()
    expect(page.locator("#invitations li")).to_have_count(1)
    look("the lobby signed in")
    ctx.close()
    assert not found, "\n".join(found)


# --- with a server that sends mail ------------------------------------------------------
class _Inbox:
    """A real SMTP server's handler (aiosmtpd on loopback) that keeps each mail's
    recipients and text."""

    def __init__(self) -> None:
        self.mails: list[tuple[list[str], str]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        import email
        import email.policy

        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        body = msg.get_body(preferencelist=("plain",))
        text = body.get_content() if body is not None else ""
        self.mails.append((list(envelope.rcpt_tos), str(text)))
        return "250 OK"

    def link(self, address: str, path: str, count: int) -> str:
        """The `path?token=...` of the `count`th mail to `address` that has one."""
        import time

        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            found = [
                m.group(0)
                for rcpt, text in list(self.mails)
                if address in rcpt
                for m in [re.search(re.escape(path) + r"\?token=[\w\-]+", text)]
                if m
            ]
            if len(found) >= count:
                return found[count - 1]
            time.sleep(0.1)
        raise AssertionError(f"no mail with {path} to {address}: {self.mails}")


@pytest.fixture(scope="module")
def mailing_site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    controller_module = pytest.importorskip("aiosmtpd.controller")
    from serving import free_port

    inbox = _Inbox()
    port = free_port()
    controller = controller_module.Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    folder = tmp_path_factory.mktemp("mailing")
    srv = Server(
        f"sqlite:///{folder / 'tianxia.sqlite3'}",
        folder,
        "--games-per-minute",
        "0",
        "--smtp",
        f"smtp://127.0.0.1:{port}",
        "--mail-from",
        "Tianxia <tianxia@example.org>",
        forked=True,
    )
    srv.start()
    try:
        yield srv, inbox
    finally:
        srv.stop()
        controller.stop()


def test_an_address_is_verified_and_a_forgotten_password_reset_by_mail(
    mailing_site: tuple[Server, _Inbox], browser: Browser
) -> None:
    site, inbox = mailing_site
    ctx = _context(browser)
    page = ctx.new_page()
    name = _name("Jet")
    address = f"{name.lower()}@example.org"
    _sign_up(page, site, name, email=address)
    inbox.link(address, "/account/verify", 1)
    # Not verified yet: the link is sent again on asking.
    page.goto(f"{site.base}/account/settings?lang=en")
    expect(page.locator("#s-email-state")).to_contain_text("Not verified yet: open the link")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(f"{r.method} {r.url.split(site.base, 1)[-1]}"))
    page.locator("#s-resend").click()
    expect(page.locator("#email-done")).to_have_text("A new link is on its way.")
    # Asked for as such: the address is never taken away meanwhile.
    assert "POST /api/me/verify" in asked and not any(a.startswith("PATCH") for a in asked)
    # The verification mail's link lands on the account page, which says so.
    page.goto(site.base + inbox.link(address, "/account/verify", 2))
    expect(page.locator("#verified")).to_have_text("Your e-mail address is verified.")
    page.goto(f"{site.base}/account/settings?lang=en")
    expect(page.locator("#s-email-state")).to_have_text("Verified.")
    expect(page.locator("#mail-off")).to_have_count(0)
    page.locator("#s-signout").click()
    expect(page.locator("#account-link")).to_have_text("Sign in")
    # Forgotten: asked by address, a mail comes with a link to a new password.
    page.goto(f"{site.base}/account?lang=en")
    page.locator("#forgot summary").click()
    page.locator("#reset-who").fill(address)
    page.locator("#reset-ask button[type=submit]").click()
    expect(page.locator("#reset-sent")).to_contain_text("a mail with a link")
    page.goto(site.base + inbox.link(address, "/account/reset", 1) + "&lang=en")
    page.locator("#new-password").fill("a brand new secret")
    page.locator("#new-password-again").fill("a brand new secreT")
    page.locator("#reset button[type=submit]").click()
    expect(page.locator("#reset-error")).to_have_text("The two passwords differ.")
    # The field in question is marked and has the focus.
    expect(page.locator("#new-password-again")).to_be_focused()
    expect(page.locator("#new-password-again")).to_have_attribute("aria-invalid", "true")
    page.locator("#new-password-again").fill("a brand new secret")
    page.locator("#reset button[type=submit]").click()
    expect(page.locator("#reset-done")).to_have_text("Your password is changed: sign in with it.")
    # The link is used up; the new password signs in, the old one no longer.
    assert (
        httpx.post(
            f"{site.base}/api/session", json={"name": name, "password": PASSWORD}
        ).status_code
        == 401
    )
    _sign_in(page, site, name, "a brand new secret")
    ctx.close()


def test_without_mail_the_pages_say_so(site: Server, browser: Browser) -> None:
    ctx = _context(browser)
    page = ctx.new_page()
    page.goto(f"{site.base}/account?lang=en")
    page.locator("#forgot summary").click()
    expect(page.locator("#no-mail")).to_contain_text("This server sends no mail")
    expect(page.locator("#reset-ask")).to_have_count(0)
    _sign_up(page, site, _name("Kees"), email="kees@example.org")
    page.goto(f"{site.base}/account/settings?lang=en")
    expect(page.locator("#mail-off")).to_be_visible()
    expect(page.locator("#s-email-state")).to_have_text(
        "Not verified yet. This server sends no mail at present."
    )
    expect(page.locator("#s-resend")).to_be_hidden()
    ctx.close()


# --- every word through a catalogue -------------------------------------------------------
@pytest.fixture(scope="module")
def pseudo(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("pseudo-accounts")
    srv = Server(
        f"sqlite:///{folder / 'tianxia.sqlite3'}",
        folder,
        env={"TIANXIA_PSEUDO_LOCALE": "1"},
        forked=True,
    )
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def test_the_account_pages_show_only_translated_words(pseudo: Server, browser: Browser) -> None:
    """In the pseudo-locale every string is wrapped in markers: a word outside them on an
    account page, a refusal of the server or the signed-in lobby never went through a
    catalogue (tests/web/test_web_pseudo.py)."""
    from web.test_web_pseudo import ALLOWED, NAME, _check, _report

    ctx = _context(browser)
    page = ctx.new_page()
    wrong: list[str] = []
    page.goto(f"{pseudo.base}/account?lang=xx")
    expect(page.locator("html")).to_have_attribute("lang", "xx")
    page.locator("#forgot summary").click()
    page.locator("#in-name").fill(NAME)
    page.locator("#in-password").fill("not the password")
    page.locator("#signin button[type=submit]").click()
    expect(page.locator("#signin-error")).not_to_be_empty()
    wrong += _check(page, "sign in", ALLOWED)
    page.goto(f"{pseudo.base}/account/reset?token=x")
    page.locator("#new-password").fill("one long password")
    page.locator("#new-password-again").fill("another long one")
    page.locator("#reset button[type=submit]").click()
    expect(page.locator("#reset-error")).not_to_be_empty()
    wrong += _check(page, "a new password", ALLOWED)
    page.goto(f"{pseudo.base}/account")
    page.locator("#up-name").fill(NAME)
    page.locator("#up-password").fill(PASSWORD)
    page.locator("#up-email").fill("anna@example.org")
    page.locator("#signup button[type=submit]").click()
    expect(page.locator("#notice")).to_be_visible()
    wrong += _check(page, "the lobby signed in", ALLOWED | {"Tianxia"})
    page.goto(f"{pseudo.base}/account/settings")
    expect(page.locator("#settings")).to_be_visible()
    page.locator("#delete summary").click()
    page.locator("#s-old").fill("wrong wrong wrong")
    page.locator("#s-new").fill("another long secret")
    page.locator("#password-form button[type=submit]").click()
    expect(page.locator("#password-error")).not_to_be_empty()
    wrong += _check(page, "settings", ALLOWED)
    ctx.close()
    _report(wrong)


# --- pictures for docs/web.md --------------------------------------------------------------
@pytest.mark.slow
def test_pictures_of_the_account_pages(site: Server, browser: Browser, tmp_path: Any) -> None:
    """The sign-in page at a desk, the settings on a phone in Dutch, and the lobby's
    invitations and my games signed in; written to docs/screenshots/ under
    `make screenshots` (TIANXIA_SCREENSHOTS=1)."""
    import os
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

    def keep(png: bytes, name: str) -> None:
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
        (tmp_path / name).write_bytes(png)
        if os.environ.get("TIANXIA_SCREENSHOTS") == "1":
            (docs / name).write_bytes(png)

    host, name = "Li Wei", "Mei"
    ctx = _context(browser)
    page = ctx.new_page()
    page.goto(f"{site.base}/account?lang=en")
    keep(page.screenshot(), "web-account.png")
    httpx.post(f"{site.base}/api/accounts", json={"name": host, "password": PASSWORD})
    _sign_up(page, site, name, email="mei@example.org")
    for game, seats in (("greatwall", ["open", "bot:easy"]), ("mandarin", ["open", "bot:easy"])):
        gid = _game(site, seats, game)
        page.goto(f"{site.base}/games/{gid}?lang=en")
        page.locator("button.take").click()
        expect(page.locator("#resign")).to_be_visible()
    with httpx.Client(base_url=site.base) as li:
        csrf = li.post("/api/session", json={"name": host, "password": PASSWORD}).json()["csrf"]
        g = li.post(
            "/api/games",
            json={"game": "emperor", "players": 2, "seats": ["open", f"invite:{name}"]},
            headers={"x-csrf-token": csrf},
        ).json()
        li.post(f"/api/games/{g['id']}/join", json={"seat": 0}, headers={"x-csrf-token": csrf})
    page.goto(f"{site.base}/?lang=en")
    expect(page.locator("#invitations li")).to_have_count(1)
    expect(page.locator("#next-game")).to_be_visible()
    page.locator("#invitations-box").scroll_into_view_if_needed()
    keep(page.screenshot(), "web-lobby-my-games.png")
    ctx.close()
    phone = _context(browser, PHONE)
    page = phone.new_page()
    _sign_in(page, site, name)
    page.goto(f"{site.base}/account/settings?lang=nl")
    expect(page.locator("#settings")).to_be_visible()
    keep(page.screenshot(full_page=True), "web-settings-phone.png")
    phone.close()
