"""Accounts against a real server: sign-up, sign-in on two devices, the session cookie,
forged requests, joining and binding by account, claims, invitations, mailed links,
export, deletion, the growing delay of wrong passwords and the bound on password hashes."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from server.client import Player, create, join
from server.conftest import NO_QUOTAS
from serving import Server
from tianxia.server.accounts import HASH_WAITING, HASH_WORKERS

PASSWORD = "correct horse battery"


@pytest.fixture
def lite(tmp_path: Path) -> Iterator[Server]:
    """A server on SQLite alone, for what does not depend on the database (limits)."""
    srv = Server(f"sqlite:///{tmp_path / 'tianxia.sqlite3'}", tmp_path, *NO_QUOTAS, forked=True)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def device(server: Server) -> httpx.Client:
    """One browser: a cookie jar of its own."""
    return httpx.Client(base_url=server.base, timeout=60)


def sign_up(c: httpx.Client, name: str, email: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"name": name, "password": PASSWORD}
    if email is not None:
        body["email"] = email
    r = c.post("/api/accounts", json=body)
    assert r.status_code == 201, r.text
    c.headers["X-CSRF-Token"] = r.json()["csrf"]
    return dict(r.json())


def sign_in(c: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    r = c.post("/api/session", json={"name": name, "password": password})
    if r.status_code == 200:
        c.headers["X-CSRF-Token"] = r.json()["csrf"]
    return r


def rows(server: Server, query: str, **params: Any) -> list[dict[str, Any]]:
    """What the server's database holds (read beside the server)."""
    url = server.database.replace("postgresql://", "postgresql+psycopg://")
    engine = sa.create_engine(url)
    try:
        with engine.connect() as c:
            return [dict(r) for r in c.execute(sa.text(query), params).mappings()]
    finally:
        engine.dispose()


def write(server: Server, statement: str, **params: Any) -> None:
    url = server.database.replace("postgresql://", "postgresql+psycopg://")
    engine = sa.create_engine(url)
    try:
        with engine.begin() as c:
            c.execute(sa.text(statement), params)
    finally:
        engine.dispose()


def socket(server: Server, game_id: str, c: httpx.Client | None, origin: str | None = None) -> Any:
    """A websocket to a game carrying a device's session cookie."""
    headers = {}
    if c is not None:
        headers["Cookie"] = f"tianxia_session={c.cookies['tianxia_session']}"
    return connect(
        server.base.replace("http", "ws", 1) + f"/ws/games/{game_id}",
        additional_headers=headers,
        origin=Origin(origin) if origin else None,
        open_timeout=10,
        ping_interval=None,
    )


def first(ws: ClientConnection, *kinds: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=20))
        if msg["type"] in kinds:
            return msg


def test_sign_up_sets_a_guarded_cookie_and_names_are_one_regardless_of_case(
    server: Server,
) -> None:
    with device(server) as a, device(server) as b:
        r = a.post("/api/accounts", json={"name": " Ｌin Yu ", "password": PASSWORD})
        assert r.status_code == 201, r.text
        assert r.json()["name"] == "Lin Yu"  # NFKC, stripped
        cookie = r.headers["set-cookie"]
        assert "tianxia_session=" in cookie
        assert "httponly" in cookie.lower()
        assert "samesite=lax" in cookie.lower()
        assert "Path=/" in cookie
        assert "secure" not in cookie.lower()  # plain HTTP here
        assert a.get("/api/me").json()["name"] == "Lin Yu"
        # The database keeps the cookie's hash, never the cookie.
        value = a.cookies["tianxia_session"]
        kept = rows(server, "SELECT id_hash FROM sessions")
        assert len(kept) == 1 and kept[0]["id_hash"] != value and len(value) >= 43

        taken = b.post("/api/accounts", json={"name": "lin  yu\n", "password": PASSWORD})
        assert taken.status_code == 409
        assert "taken" in taken.json()["detail"]
        for name in ("bot", "Bot Anna", "bot (easy)", "easy", "Hard", "easy bot B", "P1", "guest"):
            r = b.post("/api/accounts", json={"name": name, "password": PASSWORD})
            assert r.status_code == 422, (name, r.text)
        # Names of every script, with the marks that combine with their letters.
        for name in ("李伟", "अनिल", "Zoë-Anne_B."):
            r = b.post("/api/accounts", json={"name": name, "password": PASSWORD})
            assert r.status_code == 201, (name, r.text)
        b.cookies.clear()
        for bad in (
            {"name": "", "password": PASSWORD},
            {"name": "a\u200db", "password": PASSWORD},
            {"name": "--", "password": PASSWORD},
            {"name": "x" * 41, "password": PASSWORD},
            {"name": "a<b>", "password": PASSWORD},
            {"name": "Mei", "password": "short"},
            {"name": "Mei", "password": PASSWORD, "email": "not an address"},
            {"name": "Mei", "password": PASSWORD, "extra": 1},
        ):
            assert b.post("/api/accounts", json=bad).status_code == 422, bad
        assert b.get("/api/me").status_code == 401
        assert rows(server, "SELECT count(*) AS n FROM accounts")[0]["n"] == 4


def test_the_same_games_on_two_devices_your_turn_first(server: Server) -> None:
    with device(server) as phone, device(server) as laptop:
        sign_up(phone, "Wei")
        wrong = laptop.post("/api/session", json={"name": "Wei", "password": "not it at all"})
        nobody = laptop.post("/api/session", json={"name": "Nobody", "password": PASSWORD})
        assert wrong.status_code == nobody.status_code == 401
        assert wrong.json()["detail"] == nobody.json()["detail"]
        assert sign_in(laptop, "wei").status_code == 200  # the name in any case
        # Signing in again on one browser replaces its session, not adds one.
        assert sign_in(laptop, "Wei").status_code == 200
        assert len(rows(server, "SELECT id_hash FROM sessions")) == 2

        # Three games joined on the phone: two running, one still open.
        ids = [create(server.base, "greatwall", 2, ["open", "open"])["id"] for _ in range(3)]
        secrets = {}
        for g in ids:
            r = phone.post(f"/api/games/{g}/join", json={"seat": 0, "name": "ignored"})
            assert r.status_code == 200, r.text
            secrets[g] = r.json()["secret"]
        for g in ids[:2]:
            join(server.base, g, 1, "Ann")
        summary = httpx.get(f"{server.base}/api/games/{ids[0]}").json()
        assert summary["seats"][0]["name"] == "Wei" and summary["seats"][0]["account"] is True
        assert summary["seats"][1]["account"] is False

        # In the second game Wei moves, so there it is Ann's turn (or still Wei's).
        running = httpx.get(f"{server.base}/api/games/{ids[1]}").json()
        if running["to_move"] == 0:
            p = Player(server.base, ids[1], secrets[ids[1]])
            reply = p.act(p.view["legal"][0]["action"])
            assert reply["type"] == "accepted", reply
            p.close()
        expected_turn = {
            g: httpx.get(f"{server.base}/api/games/{g}").json()["to_move"] == 0 for g in ids[:2]
        }

        seen = laptop.get("/api/me").json()
        assert seen["name"] == "Wei" and seen["csrf"] == laptop.headers["X-CSRF-Token"]
        games = seen["games"]
        assert sorted(x["game"] for x in games) == sorted(ids)
        assert all(x["seat"] == 0 and x["title"] == "greatwall" for x in games)
        for x in games:
            assert x["your_turn"] == expected_turn.get(x["game"], False)
            assert x["status"] == ("open" if x["game"] == ids[2] else "running")
        # Your turn first, then running games, then open ones.
        rank = [0 if x["your_turn"] else 1 if x["status"] == "running" else 2 for x in games]
        assert rank == sorted(rank)
        assert games[-1]["game"] == ids[2]
        assert next(x for x in games if x["game"] == ids[0])["names"] == ["Wei", "Ann"]
        assert phone.get("/api/me").json()["games"] == games

        assert laptop.delete("/api/session").status_code == 200
        assert laptop.get("/api/me").status_code == 401
        assert phone.get("/api/me").status_code == 200  # the other device stays signed in
        assert len(rows(server, "SELECT id_hash FROM sessions")) == 1


def test_your_turn_the_longest_waiting_first(lite: Server) -> None:
    with device(lite) as c:
        sign_up(c, "Hua")
        waiting = []
        for _ in range(3):
            g = create(lite.base, "greatwall", 2, ["open", "open"])["id"]
            assert c.post(f"/api/games/{g}/join", json={"seat": 0}).status_code == 200
            join(lite.base, g, 1, "Ann")
            if httpx.get(f"{lite.base}/api/games/{g}").json()["to_move"] == 0:
                waiting.append(g)
            time.sleep(0.02)
        assert waiting, "greatwall's first player is seat 0"
        games = c.get("/api/me").json()["games"]
        assert [x["game"] for x in games if x["your_turn"]] == waiting


def test_cross_site_requests_with_the_cookie_are_refused(lite: Server) -> None:
    g = create(lite.base, "greatwall", 2, ["open", "open"])["id"]
    with device(lite) as c:
        token = sign_up(c, "Jun")["csrf"]
        del c.headers["X-CSRF-Token"]
        url = f"/api/games/{g}/join"
        forged: list[dict[str, str]] = [
            {},
            {"X-CSRF-Token": "not the token"},
            {"X-CSRF-Token": token, "Origin": "http://evil.example"},
        ]
        for headers in forged:
            r = c.post(url, json={"seat": 0}, headers=headers)
            assert r.status_code == 403, (headers, r.text)
            assert r.json()["detail"]
        assert c.delete("/api/session").status_code == 403
        assert c.get("/api/me").status_code == 200  # still signed in
        seats = httpx.get(f"{lite.base}/api/games/{g}").json()["seats"]
        assert all(s["kind"] == "open" for s in seats)  # nothing changed
        assert not rows(lite, "SELECT name FROM seats WHERE kind = 'human'")
        # Signing in from another site's page is refused too (it would sign its victim
        # in as someone else).
        r = c.post(
            "/api/session",
            json={"name": "Jun", "password": PASSWORD},
            headers={"Origin": "http://evil.example"},
        )
        assert r.status_code == 403
        ok = c.post(url, json={"seat": 0}, headers={"X-CSRF-Token": token, "Origin": lite.base})
        assert ok.status_code == 200, ok.text
        # A guest's request (no cookie) goes on as before.
        assert httpx.post(f"{lite.base}{url}", json={"seat": 1, "name": "Ann"}).status_code == 200
        # The socket with the cookie, opened by another site's page, is refused.
        with pytest.raises(InvalidStatus) as refused:
            socket(lite, g, c, origin="http://evil.example")
        assert refused.value.response.status_code == 403


def test_hello_by_account_binds_its_seat_on_another_device(server: Server) -> None:
    g = create(server.base, "greatwall", 2, ["open", "open"])["id"]
    with device(server) as phone, device(server) as laptop, device(server) as stranger:
        sign_up(phone, "Lan")
        sign_in(laptop, "Lan")
        sign_up(stranger, "Qiu")
        assert phone.post(f"/api/games/{g}/join", json={"seat": 0}).status_code == 200
        join(server.base, g, 1, "Ann")
        with socket(server, g, laptop) as ws:
            ws.send(json.dumps({"type": "hello", "seat": 0}))
            view = first(ws, "view", "error")
            assert view["type"] == "view", view
            assert view["seat"] == 0
            assert view["seats"][0]["account"] is True and view["seats"][1]["account"] is False
        with socket(server, g, stranger) as ws:
            ws.send(json.dumps({"type": "hello", "seat": 0}))
            err = first(ws, "view", "error")
            assert err["type"] == "error" and err["code"] == "unknown_secret"
            ws.send(json.dumps({"type": "hello", "seat": 1}))  # a guest's seat
            assert first(ws, "view", "error")["code"] == "unknown_secret"
        with socket(server, g, None) as ws:
            ws.send(json.dumps({"type": "hello", "seat": 0}))
            assert first(ws, "view", "error")["code"] == "unknown_secret"


def test_a_guest_who_signs_up_claims_the_seats_the_browser_holds(server: Server) -> None:
    g = create(server.base, "greatwall", 2, ["open", "open"])["id"]
    h = create(server.base, "greatwall", 2, ["open", "open"])["id"]
    mine = join(server.base, g, 0, "Ping")
    theirs = join(server.base, g, 1, "Ann")
    other = join(server.base, h, 0, "Ping")
    with device(server) as c, device(server) as rival:
        sign_up(c, "Ping")
        seats = [
            {"game": g, "secret": mine},
            {"game": h, "secret": other},
            {"game": g, "secret": "not a secret"},
            {"game": h, "secret": mine},  # a secret of another game
        ]
        r = c.post("/api/me/claim", json={"seats": seats})
        assert r.status_code == 200, r.text
        assert r.json() == {"claimed": 2}
        assert sorted(x["game"] for x in c.get("/api/me").json()["games"]) == sorted([g, h])
        assert httpx.get(f"{server.base}/api/games/{g}").json()["seats"][0]["account"] is True
        # A seat an account holds is not claimed again by another.
        sign_up(rival, "Rival")
        again = [{"game": g, "secret": mine}, {"game": g, "secret": theirs}]
        assert rival.post("/api/me/claim", json={"seats": again}).json() == {"claimed": 1}
        assert c.post("/api/me/claim", json={"seats": seats}).json() == {"claimed": 0}
        too_many = [{"game": g, "secret": "x"}] * 501
        assert c.post("/api/me/claim", json={"seats": too_many}).status_code == 422
        assert httpx.post(f"{server.base}/api/me/claim", json={"seats": []}).status_code == 401


def test_invitations_by_name(server: Server) -> None:
    with device(server) as host, device(server) as mei:
        sign_up(host, "Host")
        mei_id = sign_up(mei, "Mei")["id"]
        unknown = host.post(
            "/api/games", json={"game": "greatwall", "seats": ["open", "invite:nobody"]}
        )
        assert unknown.status_code == 422 and "nobody" in unknown.json()["detail"]
        r = host.post("/api/games", json={"game": "greatwall", "seats": ["open", "invite:MEI"]})
        assert r.status_code == 201, r.text
        g = r.json()["id"]
        assert host.post(f"/api/games/{g}/join", json={"seat": 0}).status_code == 200

        guest = httpx.post(f"{server.base}/api/games/{g}/join", json={"seat": 1, "name": "X"})
        assert guest.status_code == 403 and guest.json()["detail"]
        assert host.post(f"/api/games/{g}/join", json={"seat": 1}).status_code == 403
        invitations = mei.get("/api/me").json()["invitations"]
        assert [(i["game"], i["seat"], i["by"], i["title"]) for i in invitations] == [
            (g, 1, "Host", "greatwall")
        ]
        assert host.get("/api/me").json()["invitations"] == []
        mails = rows(server, "SELECT key, kind, account_id, game_id FROM outbox")
        assert mails == [
            {"key": f"invite:{g}:1", "kind": "invite", "account_id": mei_id, "game_id": g}
        ]
        assert mei.post(f"/api/games/{g}/join", json={"seat": 1}).status_code == 200
        assert mei.get("/api/me").json()["invitations"] == []
        assert httpx.get(f"{server.base}/api/games/{g}").json()["status"] == "running"


def test_settings_address_verification_and_passwords(server: Server) -> None:
    with device(server) as c, device(server) as other:
        sign_up(c, "Rui", email="rui@example.org")
        me = c.get("/api/me").json()
        assert me["email"] == "rui@example.org" and me["email_verified"] is False
        assert me["settings"]["notify"] == {
            "turn": False,
            "start": False,
            "end": False,
            "invite": False,
        }
        [mail] = rows(server, "SELECT kind, address, body FROM outbox")
        assert mail["kind"] == "verify" and mail["address"] == "rui@example.org"
        link = re.search(r"http://\S+/account/verify\?token=\S+", mail["body"])
        assert link is not None and link.group(0).startswith(server.base)
        r = httpx.get(link.group(0), follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/account?verified=1"
        assert c.get("/api/me").json()["email_verified"] is True
        again = httpx.get(link.group(0), follow_redirects=False)
        assert again.headers["location"] == "/account?verified=0"  # a link works once

        patched = c.patch(
            "/api/me", json={"settings": {"language": "nl", "notify": {"turn": True}}}
        )
        assert patched.status_code == 200, patched.text
        settings = c.get("/api/me").json()["settings"]
        assert settings["language"] == "nl" and settings["notify"]["turn"] is True
        assert settings["notify"]["end"] is False and settings["digest"] is False
        for bad in (
            {"settings": {"colour": "red"}},
            {"settings": {"language": "fr"}},
            {"settings": {"notify": {"turn": "yes"}}},
            {"email": "nope"},
        ):
            assert c.patch("/api/me", json=bad).status_code == 422, bad
        assert c.get("/api/me").json()["settings"] == settings

        # A password reset by name: a mail with a link, always the same answer.
        for body in ({"name": "Rui"}, {"name": "Nobody"}, {"email": "x@example.org"}):
            r = other.post("/api/password-reset", json=body)
            assert r.status_code == 202 and r.json() == {"detail": r.json()["detail"]}
        resets = rows(server, "SELECT body FROM outbox WHERE kind = 'reset'")
        assert len(resets) == 1
        token = re.search(r"/account/reset\?token=(\S+)", resets[0]["body"])
        assert token is not None
        new = "a new and long password"
        done = other.post(
            "/api/password-reset/confirm", json={"token": token.group(1), "password": new}
        )
        assert done.status_code == 200, done.text
        assert c.get("/api/me").status_code == 401  # every session ended
        used = {"token": token.group(1), "password": new}
        assert other.post("/api/password-reset/confirm", json=used).status_code == 410
        assert sign_in(other, "Rui").status_code == 401
        assert sign_in(other, "Rui", new).status_code == 200

        # Changing it: the old one is asked for; other sessions end.
        assert sign_in(c, "Rui", new).status_code == 200
        wrong = other.post("/api/me/password", json={"old": "wrong one", "new": PASSWORD})
        assert wrong.status_code == 403
        changed = other.post("/api/me/password", json={"old": new, "new": PASSWORD})
        assert changed.status_code == 200
        assert other.get("/api/me").status_code == 200
        assert c.get("/api/me").status_code == 401


def test_export_and_deletion_keep_the_games_playable(server: Server) -> None:
    g = create(server.base, "greatwall", 2, ["open", "open"])["id"]
    with device(server) as c:
        me = sign_up(c, "Tao")
        secret = c.post(f"/api/games/{g}/join", json={"seat": 0}).json()["secret"]
        ann = join(server.base, g, 1, "Ann")
        players = [Player(server.base, g, secret), Player(server.base, g, ann)]
        mover = next(p for p in players if p.my_turn())
        assert mover.act(mover.view["legal"][0]["action"])["type"] == "accepted"

        # A rating of the account's, as a rated game's end writes it.
        write(
            server,
            "INSERT INTO ratings (player, game, name, mu, sigma, games) "
            "VALUES (:player, 'greatwall', 'Tao', 30.0, 5.0, 3)",
            player=f"account:{me['id']}",
        )
        r = c.get("/api/me/export")
        assert r.status_code == 200
        assert "attachment" in r.headers["content-disposition"]
        data = r.json()
        assert data["account"]["name"] == "Tao" and data["account"]["id"] == me["id"]
        [game] = data["games"]
        assert game["game"] == g and game["your_seats"] == [0] and game["moves"] >= 1
        assert [s["name"] for s in game["seats"]] == ["Tao", "Ann"]
        assert "secret_hash" not in json.dumps(data) and "seed" not in game
        assert data["settings"]["language"] == "en"
        assert data["ratings"] == [
            {"game": "greatwall", "rating": 15.0, "mu": 30.0, "sigma": 5.0, "games": 3}
        ]

        assert c.request("DELETE", "/api/me", json={"password": "wrong one"}).status_code == 403
        gone = c.request("DELETE", "/api/me", json={"password": PASSWORD})
        assert gone.status_code == 200, gone.text
        assert c.get("/api/me").status_code == 401
        assert not rows(server, "SELECT id FROM accounts")
        assert not rows(server, "SELECT id_hash FROM sessions")
        assert not rows(server, "SELECT player FROM ratings")
        seats = httpx.get(f"{server.base}/api/games/{g}").json()["seats"]
        assert seats[0]["name"] == "Tao" and seats[0]["account"] is False
        # The game goes on: both seats still move with their keys.
        for _ in range(4):
            for p in players:
                p.drain(0.05)
            now = next((p for p in players if p.my_turn()), None)
            if now is None:
                break
            assert now.act(now.view["legal"][0]["action"])["type"] == "accepted"
        for p in players:
            p.close()
        # The name is free again.
        with device(server) as again:
            assert sign_up(again, "tao")["name"] == "tao"


def test_wrong_passwords_shut_the_door_for_longer_and_longer(lite: Server) -> None:
    with device(lite) as c:
        sign_up(c, "Yan")
    with device(lite) as c:
        for _ in range(5):
            assert sign_in(c, "Yan", "wrong password").status_code == 401
        shut = sign_in(c, "Yan", "wrong password")
        assert shut.status_code == 429 and shut.headers["retry-after"] == "1"
        assert sign_in(c, "Yan").status_code == 429  # even the right one, while shut
        time.sleep(1.1)
        assert sign_in(c, "Yan", "wrong password").status_code == 401
        assert sign_in(c, "Yan", "wrong password").headers["retry-after"] == "2"
        time.sleep(2.1)
        assert sign_in(c, "Yan", "wrong password").status_code == 401
        assert sign_in(c, "Yan").headers["retry-after"] == "4"


def test_password_hashes_are_bounded_and_play_goes_on(tmp_path: Path) -> None:
    """Past the bound of hashes at once and waiting, sign-ins are refused at once (503),
    one address holds at most 4 of those places, and a player's move meanwhile is
    answered. (Behind a trusted proxy, so that each sign-in may come from an address of
    its own.)"""
    url = f"sqlite:///{tmp_path / 'tianxia.sqlite3'}"
    srv = Server(url, tmp_path, *NO_QUOTAS, "--trusted-proxy", "127.0.0.1", forked=True)
    srv.start()
    try:
        with device(srv) as c:
            sign_up(c, "Zhi")
        g = create(srv.base, "greatwall", 2, ["open", "open"])["id"]
        a, b = join(srv.base, g, 0, "A"), join(srv.base, g, 1, "B")
        players = [Player(srv.base, g, a), Player(srv.base, g, b)]

        async def flood(addresses: list[str]) -> list[httpx.Response]:
            limits = httpx.Limits(max_connections=len(addresses))
            async with httpx.AsyncClient(base_url=srv.base, timeout=60, limits=limits) as ac:
                asks = [
                    ac.post(
                        "/api/session",
                        json={"name": "Zhi", "password": PASSWORD},
                        headers={"X-Forwarded-For": address},
                    )
                    for address in addresses
                ]
                return await asyncio.gather(*asks)

        async def with_a_move(addresses: list[str]) -> tuple[list[httpx.Response], Any]:
            signing = asyncio.create_task(flood(addresses))
            await asyncio.sleep(0.05)
            mover = next(p for p in players if p.my_turn())
            reply = await asyncio.to_thread(mover.act, mover.view["legal"][0]["action"])
            return await signing, reply

        # Eighty addresses at once: past the places running and waiting, refused.
        many, reply = asyncio.run(with_a_move([f"198.51.100.{i}" for i in range(80)]))
        assert reply["type"] == "accepted"
        codes = [r.status_code for r in many]
        assert set(codes) == {200, 503}, codes
        assert codes.count(200) >= HASH_WORKERS + HASH_WAITING
        busy = next(r for r in many if r.status_code == 503)
        assert busy.headers["retry-after"] == "1" and busy.json()["detail"]
        # One address at once: it holds at most 4 places; the others are refused.
        one = asyncio.run(flood(["203.0.113.7"] * 30))
        codes = [r.status_code for r in one]
        assert set(codes) == {200, 503} and codes.count(503) >= 10, codes
        for p in players:
            p.close()
    finally:
        srv.stop()


def test_the_cookie_is_secure_behind_an_https_proxy(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tianxia.sqlite3'}"
    srv = Server(url, tmp_path, *NO_QUOTAS, "--trusted-proxy", "127.0.0.1", forked=True)
    srv.start()
    try:
        with device(srv) as c:
            r = c.post(
                "/api/accounts",
                json={"name": "Xin", "password": PASSWORD},
                headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"},
            )
            assert r.status_code == 201, r.text
            assert "secure" in r.headers["set-cookie"].lower()
            plain = c.post("/api/session", json={"name": "Xin", "password": PASSWORD})
            assert "secure" not in plain.headers["set-cookie"].lower()
    finally:
        srv.stop()


def test_a_signed_in_request_counts_the_account_active(lite: Server) -> None:
    with device(lite) as c:
        sign_up(c, "Ming")
        engine = sa.create_engine(lite.database)
        try:
            with engine.begin() as db:
                db.execute(sa.text("UPDATE accounts SET active = 0"))
            assert c.get("/api/me").status_code == 200
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                with engine.connect() as db:
                    active = db.execute(sa.text("SELECT active FROM accounts")).scalar_one()
                if active > time.time() - 60:
                    break
                time.sleep(0.05)
            assert active > time.time() - 60
        finally:
            engine.dispose()


def test_a_new_account_speaks_the_language_its_pages_were_shown_in(lite: Server) -> None:
    with device(lite) as nl, device(lite) as en:
        r = nl.post(
            "/api/accounts",
            json={"name": "Daan", "password": PASSWORD, "email": "daan@example.org"},
            headers={"Accept-Language": "nl-BE,nl;q=0.9,en;q=0.5"},
        )
        assert r.status_code == 201
        nl.headers["X-CSRF-Token"] = r.json()["csrf"]
        assert nl.get("/api/me").json()["settings"]["language"] == "nl"
        # Its mails too: the verification link's mail is in Dutch.
        [mail] = rows(lite, "SELECT subject, body FROM outbox")
        assert mail["subject"] == "Tianxia: bevestig je e-mailadres"
        assert mail["body"].startswith("Hallo Daan,") and "/account/verify?token=" in mail["body"]
        # Choosing German on the same request as a new address: that mail is in German.
        change = {"email": "daan@example.net", "settings": {"language": "de"}}
        assert nl.patch("/api/me", json=change).status_code == 200
        subjects = {r["subject"] for r in rows(lite, "SELECT subject FROM outbox")}
        assert "Tianxia: Bestätige deine E-Mail-Adresse" in subjects
        sign_up(en, "Emma")
        assert en.get("/api/me").json()["settings"]["language"] == "en"


def test_an_address_is_removed_by_null(lite: Server) -> None:
    with device(lite) as c:
        sign_up(c, "Bo", email="bo@example.org")
        assert c.patch("/api/me", json={"settings": {"digest": True}}).status_code == 200
        assert c.get("/api/me").json()["email"] == "bo@example.org"  # not named: kept
        assert c.patch("/api/me", json={"email": None}).json()["email"] is None
        assert c.get("/api/me").json()["email"] is None


def test_an_account_holds_a_bounded_number_of_sessions(url: str) -> None:
    from tianxia.server.accounts import SESSIONS_PER_ACCOUNT, add_session, session_row
    from tianxia.server.storage import Store, accounts, migrate

    migrate(url)
    store = Store(url)
    try:
        with store.write() as c:
            c.execute(
                accounts.insert().values(
                    id="a1",
                    name="Kai",
                    name_key="kai",
                    password_hash="x",
                    email_verified=False,
                    settings="{}",
                    created=0.0,
                    active=0.0,
                )
            )
        now = 1_000_000.0
        # One session that has ended, then more than an account may hold.
        add_session(store, _session("old", now - 100, expires=now - 1))
        for i in range(SESSIONS_PER_ACCOUNT + 5):
            add_session(store, _session(f"s{i:03d}", now + i))
        with store.read() as c:
            kept = [r[0] for r in c.execute(sa.text("SELECT id_hash FROM sessions")).all()]
        assert len(kept) == SESSIONS_PER_ACCOUNT
        assert "old" not in kept and "s000" not in kept  # the least recently used went
        assert session_row(store, f"s{SESSIONS_PER_ACCOUNT + 4:03d}", now) is not None
    finally:
        store.close()


def test_ended_sessions_and_tokens_are_swept(url: str) -> None:
    from tianxia.server.accounts import add_session, sweep_ended
    from tianxia.server.storage import Store, accounts, migrate, sessions, tokens

    migrate(url)
    store = Store(url)
    try:
        now = 1_000_000.0
        with store.write() as c:
            c.execute(
                accounts.insert().values(
                    id="a1",
                    name="Kai",
                    name_key="kai",
                    password_hash="x",
                    email_verified=False,
                    settings="{}",
                    created=0.0,
                    active=0.0,
                )
            )
            for h, end in (("t-old", now - 2 * 86400), ("t-recent", now - 3600), ("t", now + 1)):
                c.execute(
                    tokens.insert().values(
                        hash=h, account_id="a1", purpose="reset", created=0.0, expires=end
                    )
                )
        add_session(store, _session("live", now))
        with store.write() as c:  # an account that never signs in again keeps this one
            c.execute(sessions.insert().values(**_session("ended", now - 10, expires=now - 1)))
        assert sweep_ended(store, now) == 1
        with store.read() as c:
            assert [r[0] for r in c.execute(sa.text("SELECT id_hash FROM sessions"))] == ["live"]
            left = sorted(r[0] for r in c.execute(sa.text("SELECT hash FROM tokens")))
        assert left == ["t", "t-recent"]  # a used or ended link still says so for a day
    finally:
        store.close()


def _session(h: str, now: float, expires: float | None = None) -> dict[str, Any]:
    end = now + 3600 if expires is None else expires
    return {
        "id_hash": h,
        "account_id": "a1",
        "csrf": "c",
        "created": now,
        "seen": now,
        "expires": end,
    }


def test_verification_mails_of_an_account_are_bounded(lite: Server) -> None:
    with device(lite) as c:
        sign_up(c, "Fang")
        answers = [
            c.patch("/api/me", json={"email": f"fang{i}@example.org"}).status_code for i in range(6)
        ]
        assert answers == [200] * 5 + [429]
        assert len(rows(lite, "SELECT id FROM outbox WHERE kind = 'verify'")) == 5
        assert (
            c.get("/api/me").json()["email"] == "fang4@example.org"
        )  # the refused changed nothing


def test_a_cookie_of_an_ended_session_is_a_guests(lite: Server) -> None:
    g = create(lite.base, "greatwall", 2, ["open", "open"])["id"]
    with device(lite) as c:
        sign_up(c, "Lei")
        write(lite, "UPDATE sessions SET expires = 0")
        del c.headers["X-CSRF-Token"]
        assert c.get("/api/me").status_code == 401
        r = c.post(f"/api/games/{g}/join", json={"seat": 0, "name": "Lei as a guest"})
        assert r.status_code == 200, r.text
        seat = httpx.get(f"{lite.base}/api/games/{g}").json()["seats"][0]
        assert seat["name"] == "Lei as a guest" and seat["account"] is False
        # Signing in again works with the old cookie still in the jar.
        assert sign_in(c, "Lei").status_code == 200
        assert c.get("/api/me").status_code == 200


def test_one_address_creates_at_most_20_accounts_an_hour(lite: Server) -> None:
    from tianxia.server.accounts import SIGNUPS_PER_HOUR

    with device(lite) as c:
        for i in range(SIGNUPS_PER_HOUR):
            r = c.post("/api/accounts", json={"name": f"Player {i}", "password": PASSWORD})
            assert r.status_code == 201, r.text
        over = c.post("/api/accounts", json={"name": "One more", "password": PASSWORD})
        assert over.status_code == 429
        assert 3000 < int(over.headers["retry-after"]) <= 3600
        assert "20 accounts" in over.json()["detail"]
    assert len(rows(lite, "SELECT id FROM accounts")) == SIGNUPS_PER_HOUR
