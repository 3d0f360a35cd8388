"""Mail against a real server and a real SMTP server on loopback (aiosmtpd): a turn mail
arrives once, in the account's language, with the table's link and an unsubscribe link;
none while the player is active; at most one a spell, news waiting together go out as
one; the digest; unsubscribing; a refusing SMTP server; a kill before and after sending."""

from __future__ import annotations

import contextlib
import email
import email.policy
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from serving import Server, free_port

from .conftest import NO_QUOTAS, database_url

aiosmtpd = pytest.importorskip("aiosmtpd.controller")

# The turn mail's wait and the spacing between two mails to one account, in seconds
# (`tianxia serve --mail-delay`): short, so the tests wait seconds, not minutes.
DELAY = 1.5
SITE = "http://tianxia.test"
TITLE = "greatwall"


class Inbox:
    """An SMTP server's handler that keeps what it is given; it refuses the first
    `refuse` messages as a server that cannot take them just now does (451)."""

    def __init__(self, refuse: int = 0) -> None:
        self.refuse = refuse
        self.refused = 0
        self.lock = threading.Lock()
        self.mails: list[tuple[float, list[str], EmailMessage]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            if self.refused < self.refuse:
                self.refused += 1
                return "451 4.3.0 not now, try again later"
            msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
            assert isinstance(msg, EmailMessage)
            self.mails.append((time.time(), list(envelope.rcpt_tos), msg))
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for _, rcpt, m in self.mails if address in rcpt]

    def times(self, address: str) -> list[float]:
        with self.lock:
            return [t for t, rcpt, _ in self.mails if address in rcpt]

    def wait(self, address: str, count: int, timeout: float = 20.0) -> list[EmailMessage]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.to(address)
            if len(found) >= count:
                return found
            time.sleep(0.05)
        raise AssertionError(f"{address} got {len(self.to(address))} mails, not {count}")


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    handler = Inbox()
    port = free_port()
    controller = aiosmtpd.Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


def mail_server(
    url: str, tmp_path: Path, smtp_port: int, *more: str, env: dict[str, str] | None = None
) -> Server:
    return Server(
        url,
        tmp_path,
        *NO_QUOTAS,
        "--smtp",
        f"smtp://127.0.0.1:{smtp_port}",
        "--mail-from",
        "Tianxia <tianxia@example.org>",
        "--site-url",
        SITE,
        "--mail-delay",
        str(DELAY),
        *more,
        env={"TIANXIA_TEST_HOOKS": "1", **(env or {})},
        forked=True,
    )


@pytest.fixture(params=["sqlite"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return database_url(request, tmp_path)


@pytest.fixture
def served(url: str, tmp_path: Path, inbox: tuple[Inbox, int]) -> Iterator[Server]:
    srv = mail_server(url, tmp_path, inbox[1])
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


class Person:
    """An account, signed in on its own client (its cookie and CSRF token)."""

    def __init__(self, srv: Server, name: str) -> None:
        self.name = name
        self.http = httpx.Client(base_url=srv.base, timeout=60)
        r = self.http.post("/api/accounts", json={"name": name, "password": "correct horse"})
        assert r.status_code == 201, r.text
        self.id = str(r.json()["id"])
        self.csrf = str(r.json()["csrf"])
        self.address = f"{name.lower()}@example.org"

    def join(self, game_id: str, seat: int) -> str:
        r = self.http.post(
            f"/api/games/{game_id}/join", json={"seat": seat}, headers={"X-CSRF-Token": self.csrf}
        )
        assert r.status_code == 200, r.text
        return str(r.json()["secret"])


def database(url: str) -> sa.Engine:
    from tianxia.server.storage import make_engine

    return make_engine(url)


def set_account(url: str, who: Person, **values: Any) -> None:
    """Write an account's row as the settings page and the verification link would (the
    address verified), and mark it away since long ago."""
    from tianxia.server.storage import accounts

    if "settings" in values:
        values["settings"] = json.dumps(values["settings"])
    engine = database(url)
    try:
        with engine.begin() as c:
            c.execute(accounts.update().where(accounts.c.id == who.id).values(**values))
    finally:
        engine.dispose()


def away(url: str, who: Person, settings: dict[str, Any]) -> None:
    set_account(
        url, who, email=who.address, email_verified=True, settings=settings, active=1_000_000.0
    )


# Seconds for the session guard's write of a request's activity to land (it is written
# behind the request's own writes): what a test writes into `active` comes after it.
SETTLE = 0.4


def gone(url: str, who: Person) -> None:
    """The player left after joining (their joins counted them active)."""
    time.sleep(SETTLE)
    set_account(url, who, active=1_000_000.0)


def outbox_rows(url: str) -> list[dict[str, Any]]:
    from tianxia.server.storage import outbox

    engine = database(url)
    try:
        with engine.connect() as c:
            return [dict(r) for r in c.execute(sa.select(outbox).order_by(outbox.c.id)).mappings()]
    finally:
        engine.dispose()


def settings_of(url: str, who: Person) -> dict[str, Any]:
    from tianxia.server.storage import accounts

    engine = database(url)
    try:
        with engine.connect() as c:
            text = c.execute(sa.select(accounts.c.settings).where(accounts.c.id == who.id)).scalar()
    finally:
        engine.dispose()
    found: dict[str, Any] = json.loads(text or "{}")
    return found


def new_game(srv: Server, title: str = TITLE) -> tuple[str, int]:
    """A two-seat game with both seats open, and the seat that moves first."""
    r = httpx.post(
        f"{srv.base}/api/games",
        json={"game": title, "players": 2, "seats": ["open", "open"]},
        timeout=60,
    )
    assert r.status_code == 201, r.text
    return str(r.json()["id"]), int(r.json()["to_move"])


def seat_game(srv: Server, first: Person, other: Person | None) -> str:
    """A game where `first` holds the seat that moves first, `other` (or a guest) the
    other; the last join starts it."""
    gid, seat = new_game(srv)
    if other is None:
        httpx.post(f"{srv.base}/api/games/{gid}/join", json={"seat": 1 - seat, "name": "Guest"})
    else:
        other.join(gid, 1 - seat)
    first.join(gid, seat)
    return gid


def text(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def links(msg: EmailMessage) -> list[str]:
    return re.findall(rf"{re.escape(SITE)}/games/\w+", text(msg))


def eventually(check: Callable[[], bool], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.05)


# --- the tests ------------------------------------------------------------------------------


def test_a_turn_mail_arrives_once_in_the_accounts_language(
    served: Server, url: str, inbox: tuple[Inbox, int]
) -> None:
    box, _ = inbox
    anne, bert = Person(served, "Anne"), Person(served, "Bert")
    away(url, anne, {"language": "nl", "notify": {"turn": True}})
    away(url, bert, {"notify": {}})  # Bert asked for nothing
    gid = seat_game(served, anne, bert)
    gone(url, anne)
    (mail,) = box.wait(anne.address, 1)
    assert "aan de beurt" in str(mail["Subject"]), mail["Subject"]
    body = text(mail)
    assert f"{SITE}/games/{gid}" in body
    assert "Hallo Anne" in body
    assert "Met: Bert" in body.splitlines()
    unsubscribe = re.search(rf"{re.escape(SITE)}/mail/unsubscribe\?token=\S+", body)
    assert unsubscribe is not None
    assert str(mail["List-Unsubscribe"]).strip() == f"<{unsubscribe.group(0)}>"
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert re.fullmatch(r"<outbox-\d+@tianxia\.test>", str(mail["Message-ID"]))
    assert mail["From"] == "Tianxia <tianxia@example.org>"
    assert mail["To"] == "Anne <anne@example.org>"
    time.sleep(3 * DELAY)
    assert len(box.to(anne.address)) == 1, "sent once"
    assert box.to(bert.address) == [], "Bert asked for no mail"
    rows = outbox_rows(url)
    turn = [r for r in rows if r["kind"] == "turn"]
    assert [r["key"] for r in turn] == [f"turn:{gid}:{turn[0]['key'].split(':')[2]}:{anne.id}"]
    assert turn[0]["sent"] is not None and turn[0]["attempts"] == 0


def test_no_turn_mail_while_the_player_is_active(
    served: Server, url: str, inbox: tuple[Inbox, int]
) -> None:
    box, _ = inbox
    anne, bert = Person(served, "Anne"), Person(served, "Bert")
    away(url, anne, {"notify": {"turn": True, "end": True}})
    away(url, bert, {})
    gid = seat_game(served, anne, bert)
    # Anne's socket says something within the spell: what that records (the session
    # guard writes `active` for a signed-in socket's message, at most every 10 s: her
    # join was the last) is written here.
    time.sleep(SETTLE)
    set_account(url, anne, active=time.time())
    eventually(lambda: any(r["kind"] == "turn" and r["dropped"] for r in outbox_rows(url)))

    (row,) = [r for r in outbox_rows(url) if r["kind"] == "turn"]
    assert row["dropped"] == "active" and row["sent"] is None
    assert box.to(anne.address) == []
    assert gid


def test_at_most_one_mail_a_spell_and_news_that_wait_go_out_together(
    served: Server, url: str, inbox: tuple[Inbox, int]
) -> None:
    box, _ = inbox
    anne, bert = Person(served, "Anne"), Person(served, "Bert")
    away(url, anne, {"notify": {"turn": True, "invite": True}})
    away(url, bert, {})
    game = seat_game(served, anne, bert)
    gone(url, anne)
    (first,) = box.wait(anne.address, 1)
    assert links(first) == [f"{SITE}/games/{game}"]
    # Two invitations, which go out at once, come within the spell after that mail: they
    # wait for its end, and go out together.
    invited = []
    for _ in range(2):
        r = httpx.post(
            f"{served.base}/api/games",
            json={"game": TITLE, "players": 2, "seats": ["open", "invite:Anne"]},
            timeout=60,
        )
        assert r.status_code == 201, r.text
        invited.append(f"{SITE}/games/{r.json()['id']}")
    mails = box.wait(anne.address, 2)
    times = box.times(anne.address)
    assert times[1] - times[0] >= DELAY - 0.1, times
    assert sorted(links(mails[1])) == sorted(invited)
    assert str(mails[1]["Subject"]) == "Tianxia: news of 2 games"
    time.sleep(2 * DELAY)
    assert len(box.to(anne.address)) == 2


def test_the_digest_sends_the_days_news_as_one_mail(
    url: str, tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    from tianxia.server.storage import outbox

    box, port = inbox
    # A digest longer than any test (it ends in 2033): the news of both games are in
    # one digest however slowly they come, and the test says when it is due, not the
    # clock.
    srv = mail_server(url, tmp_path, port, "--mail-digest", "1e9")
    srv.start()
    try:
        anne, bert = Person(srv, "Anne"), Person(srv, "Bert")
        away(url, anne, {"language": "de", "notify": {"turn": True, "start": True}, "digest": True})
        away(url, bert, {})
        games = [seat_game(srv, anne, bert) for _ in range(2)]
        gone(url, anne)
        # Anne moves first in both: each game's start and turn wait in the one digest.
        news = {(k, g) for k in ("start", "turn") for g in games}

        def queued() -> bool:
            rows = [r for r in outbox_rows(url) if r["account_id"] == anne.id]
            return {(r["kind"], r["game_id"]) for r in rows if r["kind"] != "digest"} == news

        eventually(queued)
        assert box.to(anne.address) == []
        engine = database(url)
        try:
            with engine.begin() as c:
                due = c.execute(
                    outbox.update()
                    .where(outbox.c.account_id == anne.id, outbox.c.kind == "digest")
                    .values(send_after=time.time())
                )
                assert due.rowcount == 1
        finally:
            engine.dispose()
        (digest,) = box.wait(anne.address, 1, timeout=15)
        assert "Zusammenfassung" in str(digest["Subject"]), digest["Subject"]
        body = text(digest)
        for g in games:
            assert f"{SITE}/games/{g}" in body
        assert "begonnen" in body and "am Zug" in body
        assert digest["List-Unsubscribe"]
        # Every row of Anne's sent with the digest: none is left to make a second mail.
        eventually(lambda: all(r["sent"] for r in outbox_rows(url) if r["account_id"] == anne.id))
        assert len(box.to(anne.address)) == 1
        kinds = {r["kind"]: r for r in outbox_rows(url) if r["account_id"] == anne.id}
        assert kinds["digest"]["key"].startswith(f"digest:{anne.id}:")
        assert all(r["sent"] for r in outbox_rows(url) if r["account_id"] == anne.id)
    finally:
        srv.stop()


def test_unsubscribe_by_post_not_by_get(served: Server, url: str, inbox: tuple[Inbox, int]) -> None:
    box, _ = inbox
    anne, bert = Person(served, "Anne"), Person(served, "Bert")
    away(url, anne, {"notify": {"turn": True, "start": True}})
    away(url, bert, {})
    seat_game(served, anne, bert)
    gone(url, anne)
    mail = box.wait(anne.address, 1)[0]
    link = str(mail["List-Unsubscribe"]).strip().strip("<>")
    token = link.split("token=", 1)[1]
    local = link.replace(SITE, served.base)
    page = httpx.get(local)
    assert page.status_code == 200 and 'method="post"' in page.text
    # Fetching the link (as a mail scanner does) changes nothing.
    assert settings_of(url, anne)["notify"] == {"turn": True, "start": True}
    wrong = httpx.post(f"{served.base}/mail/unsubscribe", data={"token": token + "x"})
    assert wrong.status_code == 404
    assert settings_of(url, anne)["notify"] == {"turn": True, "start": True}
    # RFC 8058: the mail program posts to the link itself.
    done = httpx.post(local, data={"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200, done.text
    after = settings_of(url, anne)
    assert not any(after["notify"].values()) and after["digest"] is False
    # And the page's button posts the token as a form field, from a browser that may be
    # signed in (a form carries no CSRF header: the token alone authorises it).
    again = anne.http.post(f"{served.base}/mail/unsubscribe", data={"token": token})
    assert again.status_code == 200, again.text


def test_a_refusing_smtp_server_is_tried_again_and_the_mail_delivered_once(
    served: Server, url: str, inbox: tuple[Inbox, int]
) -> None:
    box, _ = inbox
    box.refuse = 2
    anne, bert = Person(served, "Anne"), Person(served, "Bert")
    away(url, anne, {"notify": {"turn": True}})
    away(url, bert, {})
    seat_game(served, anne, bert)
    gone(url, anne)
    box.wait(anne.address, 1)
    time.sleep(2 * DELAY)
    assert box.refused == 2 and len(box.to(anne.address)) == 1
    (row,) = [r for r in outbox_rows(url) if r["kind"] == "turn"]
    assert row["attempts"] == 2 and row["sent"] is not None and row["error"] is None


@pytest.mark.parametrize("url", ["sqlite", "postgresql"], indirect=True)
def test_a_kill_before_sending_loses_nothing_and_sends_nothing_twice(
    url: str, tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    box, port = inbox
    srv = mail_server(url, tmp_path, port)
    srv.start(env={"TIANXIA_TEST_FAULT": "mail_claimed:1"})
    try:
        anne, bert = Person(srv, "Anne"), Person(srv, "Bert")
        away(url, anne, {"notify": {"turn": True}})
        away(url, bert, {})
        gid = seat_game(srv, anne, bert)
        gone(url, anne)
        eventually(lambda: not srv.alive())  # killed with the mail claimed, not sent
        assert box.to(anne.address) == []
        (row,) = [r for r in outbox_rows(url) if r["kind"] == "turn"]
        assert row["claimed"] and row["sent"] is None
        srv.stop()
        srv.start()
        (mail,) = box.wait(anne.address, 1)
        assert f"{SITE}/games/{gid}" in text(mail)
        time.sleep(2 * DELAY)
        assert len(box.to(anne.address)) == 1
    finally:
        srv.stop()


def test_a_kill_between_the_moves_commit_and_its_news_loses_no_mail(
    url: str, tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    """The move that hands Anne the turn is committed, and the server killed before it
    queues her mail: the next server finds the news unqueued and queues it."""
    from .client import Player

    box, port = inbox
    srv = mail_server(url, tmp_path, port)
    srv.start(env={"TIANXIA_TEST_FAULT": "after_commit:1"})
    try:
        anne, bert = Person(srv, "Anne"), Person(srv, "Bert")
        away(url, anne, {"notify": {"turn": True}})
        away(url, bert, {})
        # Mandarin: the first move hands the turn on (a Great Wall turn has several).
        gid, first = new_game(srv, "mandarin")
        anne.join(gid, 1 - first)
        key = bert.join(gid, first)
        gone(url, anne)
        player = Player(srv.base, gid, key)
        with contextlib.suppress(Exception):  # no answer: the server dies first
            player.act(player.view["legal"][0]["action"])
        eventually(lambda: not srv.alive())
        assert [r for r in outbox_rows(url) if r["kind"] == "turn"] == []
        srv.stop()
        srv.start()
        (mail,) = box.wait(anne.address, 1)
        assert f"{SITE}/games/{gid}" in text(mail)
        time.sleep(2 * DELAY)
        assert len(box.to(anne.address)) == 1
        # Started again: nothing more is found to queue.
        srv.stop()
        srv.start()
        time.sleep(2 * DELAY)
        assert len(box.to(anne.address)) == 1
        assert len([r for r in outbox_rows(url) if r["kind"] == "turn"]) == 1
    finally:
        srv.stop()


def test_a_kill_right_after_sending_sends_it_again_as_the_same_message(
    url: str, tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    """The window docs/server.md states: handed to the SMTP server, not yet marked sent."""
    box, port = inbox
    srv = mail_server(url, tmp_path, port)
    srv.start(env={"TIANXIA_TEST_FAULT": "mail_sent:1"})
    try:
        anne, bert = Person(srv, "Anne"), Person(srv, "Bert")
        away(url, anne, {"notify": {"turn": True}})
        away(url, bert, {})
        seat_game(srv, anne, bert)
        gone(url, anne)
        box.wait(anne.address, 1)
        eventually(lambda: not srv.alive())
        srv.stop()
        srv.start()
        first, second = box.wait(anne.address, 2)
        assert first["Message-ID"] == second["Message-ID"]
        time.sleep(2 * DELAY)
        assert len(box.to(anne.address)) == 2
    finally:
        srv.stop()


def test_smtp_urls() -> None:
    from tianxia.server.mail import MailConfigError, Smtp, mail_config

    plain = Smtp.parse("smtp://relay.example.org")
    assert (plain.port, plain.use_tls, plain.start_tls, plain.username) == (25, False, None, None)
    required = Smtp.parse("smtp+starttls://me%40example.org:p%2Fw@mail.example.org")
    assert (required.port, required.start_tls) == (587, True)
    assert (required.username, required.password) == ("me@example.org", "p/w")
    assert Smtp.parse("smtp://mail.example.org:2525?starttls=1").start_tls is True
    tls = Smtp.parse("smtps://mail.example.org")
    assert (tls.port, tls.use_tls, tls.start_tls) == (465, True, False)
    for wrong in ("http://mail.example.org", "smtp://", "smtp://host:99999"):
        with pytest.raises(MailConfigError):
            Smtp.parse(wrong)
    assert mail_config("", "a@b.c", SITE) is None
    with pytest.raises(MailConfigError, match="sender"):
        mail_config("smtp://relay", "", SITE)


def test_old_mail_is_pruned_and_a_key_is_queued_once(tmp_path: Path) -> None:
    from tianxia.server.mail import prune, queue
    from tianxia.server.storage import Store, migrate

    url = f"sqlite:///{tmp_path / 'mail.sqlite3'}"
    migrate(url)
    store = Store(url)
    try:
        long_ago = time.time() - 40 * 86400
        assert queue(store, "turn:g:1:a", "turn", "a", "g", now=long_ago)
        assert not queue(store, "turn:g:1:a", "turn", "a", "g"), "the same news twice"
        assert queue(store, "turn:g:2:a", "turn", "a", "g", now=long_ago)
        assert queue(store, "turn:g:3:a", "turn", "a", "g")
        with store.write() as c:
            from tianxia.server.storage import outbox

            c.execute(outbox.update().where(outbox.c.key != "turn:g:2:a").values(sent=time.time()))
        assert prune(store, time.time() - 30 * 86400) == 1
        with store.read() as c:
            keys = sorted(r[0] for r in c.execute(sa.select(outbox.c.key)))
        # Sent long ago: gone. Waiting (however old) or sent lately: kept.
        assert keys == ["turn:g:2:a", "turn:g:3:a"]
    finally:
        store.close()


def _rules() -> tuple[Any, Any, Any]:
    from tianxia.server.mail import Context, MailConfig, Smtp, decide

    config = MailConfig(smtp=Smtp("h", 25), sender="t@example.org", site=SITE, delay=60.0)
    return Context, config, decide


def _row(i: int, kind: str, created: float, game: str | None = "g") -> dict[str, Any]:
    return {"id": i, "kind": kind, "game_id": game, "created": created, "send_after": created}


def _account(**settings: Any) -> dict[str, Any]:
    return {
        "id": "a",
        "name": "Anne",
        "email": "anne@example.org",
        "email_verified": True,
        "settings": json.dumps(settings),
        "active": 0.0,
    }


def _game(status: str = "running", to_move: int | None = 0) -> tuple[dict[str, Any], Any]:
    return {"status": status, "to_move": to_move}, [
        {"seat": 0, "account_id": "a"},
        {"seat": 1, "account_id": None},
    ]


def test_the_rules_at_send_time() -> None:
    context, config, decide = _rules()
    now = 10_000.0
    on = {"notify": {"turn": True, "end": True}}
    # A turn still theirs goes; one that moved on, a kind not asked for, do not.
    d = decide(
        [_row(1, "turn", now - 70), _row(2, "start", now - 70), _row(3, "turn", now - 70, "h")],
        context(_account(**on), None, {"g": _game(), "h": _game(to_move=1)}),
        config,
        now,
    )
    assert [r["id"] for r in d.send] == [1]
    assert dict(d.outcomes) == {2: {"dropped": "off"}, 3: {"dropped": "moved"}}
    # Active after the news, or within the spell: dropped.
    for active in (now - 65, now - 30):
        acc = {**_account(**on), "active": active}
        d = decide([_row(1, "turn", now - 70)], context(acc, None, {"g": _game()}), config, now)
        assert d.send == [] and dict(d.outcomes) == {1: {"dropped": "active"}}
    # Mailed within the spell: waits for its end.
    d = decide(
        [_row(1, "turn", now - 70)], context(_account(**on), now - 20, {"g": _game()}), config, now
    )
    assert d.send == [] and dict(d.outcomes) == {1: {"send_after": now + 40}}
    # No verified address: nothing goes, whatever was asked.
    acc = {**_account(**on), "email_verified": False}
    d = decide([_row(1, "turn", now - 70)], context(acc, None, {"g": _game()}), config, now)
    assert dict(d.outcomes) == {1: {"dropped": "unverified"}}
    # A digest asked for after the news was queued: it waits for the digest.
    acc = _account(digest=True, **on)
    d = decide([_row(1, "end", now - 5)], context(acc, None, {"g": _game("finished")}), config, now)
    assert d.wait_for_digest is not None and d.send == []
    assert dict(d.outcomes) == {1: {"send_after": d.wait_for_digest[1]}}
    # A day past its time: stale, not sent late.
    d = decide(
        [_row(1, "turn", now - 90_000)], context(_account(**on), None, {"g": _game()}), config, now
    )
    assert dict(d.outcomes) == {1: {"dropped": "stale"}}
    # The account is gone.
    d = decide([_row(1, "turn", now - 70)], context(None, None), config, now)
    assert dict(d.outcomes) == {1: {"dropped": "account"}}


def test_a_timeout_mail_says_the_games_policy() -> None:
    from tianxia.web.mails import Notice, compose

    for policy, words in (
        ("bot", "ein Bot spielt"),
        ("skip", "übersprungen"),
        ("lose", "verloren"),
    ):
        title = "Mandarin, the zodiac game"
        notice = Notice("timeout", "g", title, f"{SITE}/games/g", ["Bert"], policy=policy)
        subject, body = compose("de", "Anne", [notice], "U", "S")
        assert words in body and "abgelaufen" in subject


@pytest.mark.parametrize("url", ["postgresql"], indirect=True)
def test_senders_of_several_processes_never_claim_one_row_twice(url: str) -> None:
    """Two senders (two processes' stores on one database) claiming at once, over and
    over: every due row is claimed by exactly one of them."""
    from tianxia.server.mail import claim, queue
    from tianxia.server.storage import Store, migrate

    migrate(url)
    stores = [Store(url), Store(url)]
    try:
        now = time.time()
        for i in range(300):
            queue(
                stores[0],
                f"test:{i}",
                "verify",
                address="a@example.org",
                subject="s",
                body="b",
                now=now,
            )
        got: list[list[int]] = [[], []]
        start = threading.Barrier(2)

        def sender(k: int) -> None:
            start.wait()
            while rows := claim(stores[k], f"sender-{k}", now + 1, 60.0, limit=7):
                got[k].extend(r["id"] for r in rows)

        threads = [threading.Thread(target=sender, args=(k,)) for k in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(got[0] + got[1]) == sorted(set(got[0] + got[1])), "a row claimed twice"
        assert len(got[0]) + len(got[1]) == 300
    finally:
        for s in stores:
            s.close()
