"""A seat held by an account, from any device of it: leaving, resigning and asking for a
rematch by the session alone; a claimed seat's name; seats kept for an invited account
in the lobby's summaries; a new verification link."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.client import Player, create
from server.conftest import NO_QUOTAS
from server.test_server_accounts import device, rows, sign_in, sign_up
from serving import Server


@pytest.fixture
def lite(tmp_path: Path) -> Iterator[Server]:
    srv = Server(f"sqlite:///{tmp_path / 'tianxia.sqlite3'}", tmp_path, *NO_QUOTAS, forked=True)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def summary(c: httpx.Client, game_id: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{game_id}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_leave_resign_and_rematch_by_the_account_on_another_device(lite: Server) -> None:
    phone, desk, guest, other = device(lite), device(lite), device(lite), device(lite)
    sign_up(phone, "Anne")
    sign_up(other, "Bert")
    assert sign_in(desk, "Anne").status_code == 200

    # Leave: the desk holds no secret of the seat the phone took.
    waiting = create(lite.base, "greatwall", 2, ["open", "open"])["id"]
    assert phone.post(f"/api/games/{waiting}/join", json={"seat": 0}).status_code == 200
    assert guest.post(f"/api/games/{waiting}/leave", json={}).status_code == 403
    assert other.post(f"/api/games/{waiting}/leave", json={}).status_code == 403
    assert desk.post(f"/api/games/{waiting}/leave", json={"seat": 1}).status_code == 403
    r = desk.post(f"/api/games/{waiting}/leave", json={})
    assert r.status_code == 200, r.text
    assert r.json() == {"seat": 0, "left": True}
    assert summary(guest, waiting)["seats"][0]["kind"] == "open"

    # Resign, then (the bots play the game to its end) a rematch.
    gid = create(lite.base, "greatwall", 2, ["open", "bot:random"])["id"]
    assert phone.post(f"/api/games/{gid}/join", json={"seat": 0}).status_code == 200
    for stranger in (guest, other):
        assert stranger.post(f"/api/games/{gid}/resign", json={}).status_code == 403
    assert not summary(guest, gid)["seats"][0]["resigned"]
    # Without the CSRF token the session authorises nothing.
    forged = httpx.post(f"{lite.base}/api/games/{gid}/resign", json={}, cookies=desk.cookies)
    assert forged.status_code == 403
    assert not summary(guest, gid)["seats"][0]["resigned"]
    r = desk.post(f"/api/games/{gid}/resign", json={})
    assert r.status_code == 200, r.text
    assert r.json() == {"seat": 0, "resigned": True}
    assert summary(guest, gid)["seats"][0]["resigned"]
    deadline = time.monotonic() + 50
    while summary(guest, gid)["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.2)
    assert other.post(f"/api/games/{gid}/rematch", json={}).status_code == 403
    r = desk.post(f"/api/games/{gid}/rematch", json={})
    assert r.status_code == 200, r.text
    again = phone.post(f"/api/games/{gid}/rematch", json={})
    assert again.json() == r.json()


def test_a_new_verification_link_within_the_hours_bound(lite: Server) -> None:
    with device(lite) as c, device(lite) as guest:
        assert guest.post("/api/me/verify").status_code == 401
        sign_up(c, "Lin")
        assert c.post("/api/me/verify").status_code == 409  # no address to verify
        assert c.patch("/api/me", json={"email": "lin@example.org"}).status_code == 200
        answers = [c.post("/api/me/verify") for _ in range(5)]
        assert [r.status_code for r in answers] == [202] * 4 + [429]
        assert answers[0].json() == {"email": "lin@example.org", "queued": True}
        assert "Retry-After" in answers[-1].headers
        mails = rows(lite, "SELECT address, body FROM outbox WHERE kind = 'verify' ORDER BY id")
        assert [m["address"] for m in mails] == ["lin@example.org"] * 5
        # The last link verifies the address; after that there is nothing to send.
        link = re.search(r"http://\S+/account/verify\?token=\S+", mails[-1]["body"])
        assert link is not None
        assert httpx.get(link.group(0), follow_redirects=False).status_code == 303
        assert c.get("/api/me").json()["email_verified"] is True
        assert c.post("/api/me/verify").status_code == 409
        # Without the CSRF token the cookie asks for nothing.
        forged = httpx.post(f"{lite.base}/api/me/verify", cookies=c.cookies)
        assert forged.status_code == 403


def test_a_claimed_seat_takes_the_accounts_name_unless_its_game_is_over(lite: Server) -> None:
    running = create(lite.base, "greatwall", 2, ["open", "bot:random"])["id"]
    over = create(lite.base, "greatwall", 2, ["open", "bot:random"])["id"]
    with device(lite) as c, device(lite) as guest:
        keys = {}
        for gid in (running, over):
            r = guest.post(f"/api/games/{gid}/join", json={"seat": 0, "name": "Guest"})
            keys[gid] = r.json()["secret"]
        assert (
            guest.post(f"/api/games/{over}/resign", json={"secret": keys[over]}).status_code == 200
        )
        deadline = time.monotonic() + 50
        while summary(guest, over)["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish the game"
            time.sleep(0.2)
        # The running game is in this process's memory: its table is told at once.
        watcher = Player(lite.base, running)
        try:
            assert watcher.view["seats"][0]["name"] == "Guest"
            sign_up(c, "Mira")
            seats = [{"game": g, "secret": k} for g, k in keys.items()]
            assert c.post("/api/me/claim", json={"seats": seats}).json() == {"claimed": 2}
            deadline = time.monotonic() + 20
            while watcher.view["seats"][0]["name"] != "Mira":
                assert time.monotonic() < deadline, watcher.view["seats"]
                watcher.recv()
        finally:
            watcher.close()
        assert summary(guest, running)["seats"][0]["name"] == "Mira"
        assert summary(guest, over)["seats"][0]["name"] == "Guest"
        names = {g["game"]: g["names"] for g in c.get("/api/me").json()["games"]}
        assert "Mira" in names[running] and "Guest" in names[over]


def test_a_seat_kept_for_an_account_says_whom_it_waits_for(lite: Server) -> None:
    with device(lite) as host, device(lite) as mei:
        sign_up(host, "Hana")
        sign_up(mei, "Mei")
        r = host.post(
            "/api/games",
            json={"game": "greatwall", "players": 3, "seats": ["open", "invite:mei", "open"]},
        )
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        assert [s["invited"] for s in r.json()["seats"]] == [None, "Mei", None]

        def kept() -> list[Any]:
            # A client of its own each time: a restarted server listens on another port.
            with device(lite) as anyone:
                one = [s["invited"] for s in summary(anyone, gid)["seats"]]
                listed = anyone.get("/api/games", params={"status": "open"}).json()
            (game,) = [g for g in listed if g["id"] == gid]
            assert [s["invited"] for s in game["seats"]] == one
            return one

        assert kept() == [None, "Mei", None]  # the game in memory
        lite.restart()
        assert kept() == [None, "Mei", None]  # from its rows
        watcher = Player(lite.base, gid)  # loaded again
        try:
            assert [s["invited"] for s in watcher.view["seats"]] == [None, "Mei", None]
        finally:
            watcher.close()
        # Taken, the seat is the account's like any other: nobody is waited for.
        with device(lite) as again:
            again.headers["X-CSRF-Token"] = mei.headers["X-CSRF-Token"]
            again.cookies = mei.cookies
            assert again.post(f"/api/games/{gid}/join", json={"seat": 1}).status_code == 200
        assert kept() == [None, None, None]
