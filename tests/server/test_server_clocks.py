"""Clocks as time banks against a real server: the stated minimum, the increment, the
vacation, what each policy does when a seat's time runs out, a bank across a kill and a
restart, and what a returning player is told.

The server runs with a short `--min-clock`, so a seat's time runs out in a second
rather than a minute; nothing waits longer than it must (each wait ends as soon as
what it waits for arrives)."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from server.client import Player, create, join
from server.conftest import NO_QUOTAS
from serving import Server
from tianxia.server.clocks import Clock, spend

MIN_CLOCK = "0.3"


@pytest.fixture
def quick(url: str, tmp_path: Path) -> Iterator[Server]:
    """A server whose clocks may be as short as 0.3 s."""
    srv = Server(url, tmp_path, *NO_QUOTAS, "--min-clock", MIN_CLOCK, forked=True)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def rows(server: Server, query: str, **params: Any) -> list[dict[str, Any]]:
    """What the server's database holds (read beside the server)."""
    engine = sa.create_engine(server.database)
    try:
        with engine.connect() as c:
            return [dict(r) for r in c.execute(sa.text(query), params).mappings()]
    finally:
        engine.dispose()


def wait_for(p: Player, done: Callable[[Player], bool], timeout: float = 30.0) -> None:
    """Read views until `done` holds (an AssertionError after `timeout`)."""
    deadline = time.monotonic() + timeout
    while not done(p):
        if time.monotonic() > deadline:
            raise AssertionError(f"not reached in {timeout} s; last view: {p.view}")
        p.drain(0.05)


def seen(seq: int) -> Callable[[Player], bool]:
    """Whether a player's view has come as far as `seq`."""
    return lambda p: bool(p.view["seq"] >= seq)


def stand_in_events(p: Player, seat: int) -> list[dict[str, Any]]:
    return [e for e in p.events if e.get("stand_in") and e["seat"] == seat]


def test_a_clock_below_the_minimum_is_refused_and_the_lobby_shows_its_shape(
    server: Server,
) -> None:
    body = {"game": "greatwall", "players": 2, "seats": ["open", "bot:random"]}
    r = httpx.post(f"{server.base}/api/games", json={**body, "clock": 30})
    assert r.status_code == 422
    assert "at least 60 seconds" in r.json()["detail"]
    # The rigged games' clock of a hundredth of a second, likewise.
    assert httpx.post(f"{server.base}/api/games", json={**body, "clock": 0.01}).status_code == 422
    # A clock's parts without a clock, an unknown policy, too long a vacation.
    for wrong in ({"increment": 5}, {"clock_policy": "skip"}):
        r = httpx.post(f"{server.base}/api/games", json={**body, **wrong})
        assert r.status_code == 422 and "give `clock` too" in r.json()["detail"]
    for wrong in ({"clock_policy": "draw"}, {"vacation": 31}, {"increment": -1}):
        r = httpx.post(f"{server.base}/api/games", json={**body, "clock": 60, **wrong})
        assert r.status_code == 422, wrong
    assert httpx.get(f"{server.base}/api/games").json() == []
    g = create(
        server.base,
        "greatwall",
        2,
        ["open", "bot:random"],
        clock=60,
        increment=10,
        clock_policy="skip",
        vacation=2,
    )
    shape = {"initial": 60.0, "increment": 10.0, "policy": "skip"}
    assert g["clock"] == shape
    assert httpx.get(f"{server.base}/api/games/{g['id']}").json()["clock"] == shape
    listed = {x["id"]: x for x in httpx.get(f"{server.base}/api/games").json()}
    assert listed[g["id"]]["clock"] == shape
    untimed = create(server.base, "greatwall", 2, ["open", "bot:random"])
    assert untimed["clock"] is None
    # The view: each seat's bank and vacation (two days) and the stated minimum.
    secret = join(server.base, g["id"], 0)
    p = Player(server.base, g["id"], secret)
    clock = p.view["clock"]
    assert clock["minimum"] == 60 and clock["vacation"] == 2 * 86400
    assert clock["seats"][0]["vacation_left"] == 2 * 86400
    assert clock["seats"][1] == {
        "bank": None,
        "vacation_left": None,
        "running": False,
        "stand_in": False,
    }
    p.close()


def test_bot_policy_a_marked_stand_in_plays_until_the_player_returns_and_is_told_once(
    quick: Server,
) -> None:
    g = create(quick.base, "greatwall", 2, ["open", "bot:random"], clock=1.5)
    secret = join(quick.base, g["id"], 0)
    watcher = Player(quick.base, g["id"])
    # Nobody plays seat 0: past its bank, a stand-in moves for it, marked.
    wait_for(watcher, lambda p: bool(stand_in_events(p, 0)))
    assert watcher.view["seats"][0]["bot_playing"] is True
    if not watcher.view["terminal"]:
        assert watcher.view["clock"]["seats"][0]["stand_in"] is True
    assert all(not e.get("stand_in") for e in watcher.events if e["seat"] != 0)
    # The player comes back: told once what happened, their bank whole again.
    back = Player(quick.base, g["id"], secret)
    away = back.view.get("away")
    assert away is not None and away["moves"] >= 1, back.view
    assert away["since"] <= time.time()
    assert back.view["seats"][0]["bot_playing"] is False
    assert back.view["clock"]["seats"][0]["stand_in"] is False
    assert back.view["clock"]["seats"][0]["bank"] > 0.0
    # Marks stay in the log: a reconnection reads them again, but `away` only once.
    again = Player(quick.base, g["id"], secret)
    assert "away" not in again.view
    assert {e["seq"] for e in stand_in_events(again, 0)} >= {
        e["seq"] for e in stand_in_events(watcher, 0)
    }
    # The player leaves again (no message from the seat hands it back any more): past
    # the next bank the stand-in plays to the end. The replay marks the same moves.
    back.close()
    again.close()
    wait_for(watcher, lambda p: p.view["terminal"], timeout=120)
    marked = {e["seq"] for e in stand_in_events(watcher, 0)}
    steps = watcher.view["seq"]
    replay = httpx.get(f"{quick.base}/api/games/{g['id']}/replay", params={"step": steps})
    assert {e["seq"] for e in replay.json()["events"] if e.get("stand_in")} == marked
    watcher.close()


def test_bot_policy_queues_the_timeout_mail_and_the_stand_in_survives_a_restart(
    quick: Server,
) -> None:
    with httpx.Client(base_url=quick.base, timeout=60) as c:
        r = c.post("/api/accounts", json={"name": "Ruth", "password": "correct horse battery"})
        assert r.status_code == 201, r.text
        account = r.json()["id"]
        c.headers["X-CSRF-Token"] = r.json()["csrf"]
        g = create(quick.base, "greatwall", 2, ["open", "bot:random"], clock=1.0)
        r = c.post(f"/api/games/{g['id']}/join", json={"seat": 0})
        assert r.status_code == 200, r.text
        secret = r.json()["secret"]
    watcher = Player(quick.base, g["id"])
    wait_for(watcher, lambda p: p.view["seats"][0]["bot_playing"])
    mails = rows(quick, "SELECT * FROM outbox WHERE kind = 'timeout'")
    assert len(mails) == 1
    mail = mails[0]
    assert mail["account_id"] == account and mail["game_id"] == g["id"]
    assert mail["key"].startswith(f"timeout:{g['id']}:") and mail["key"].endswith(":0")
    assert mail["body"] is None  # rendered by the sender in the account's language
    watcher.close()
    quick.restart(kill=True)
    # After the restart the stand-in plays on (it is not the player's clock again).
    watcher = Player(quick.base, g["id"])
    seq = watcher.view["seq"]
    if not watcher.view["terminal"]:
        assert watcher.view["seats"][0]["bot_playing"] is True
        wait_for(watcher, lambda p: p.view["seq"] > seq + 1 or p.view["terminal"])
    assert stand_in_events(watcher, 0)
    assert len(rows(quick, "SELECT * FROM outbox WHERE kind = 'timeout'")) == 1
    back = Player(quick.base, g["id"], secret)
    assert back.view["away"]["moves"] >= 1
    for p in (watcher, back):
        p.close()


def test_skip_policy_passes_or_plays_one_turn_then_the_seat_is_its_players_again(
    quick: Server,
) -> None:
    g = create(quick.base, "greatwall", 2, ["open", "bot:random"], clock=3.0, clock_policy="skip")
    secret = join(quick.base, g["id"], 0)
    p = Player(quick.base, g["id"], secret)
    # The player waits out their first turn (their own hello does not stop the clock).
    wait_for(p, lambda p: bool(stand_in_events(p, 0)))
    skipped = stand_in_events(p, 0)
    # Their turn comes again: the clock runs for them, whole, and they may move.
    wait_for(p, lambda p: p.my_turn() or p.view["terminal"])
    if p.view["terminal"]:
        return
    mine = p.view["clock"]["seats"][0]
    assert mine["running"] is True and mine["stand_in"] is False
    assert 0.0 < mine["bank"] <= 3.0
    assert p.view["seats"][0]["bot_playing"] is False
    reply = p.act(p.view["legal"][0]["action"])
    assert reply["type"] == "accepted", reply
    p.drain(0.3)
    own = [e for e in p.events if e["seq"] == reply["seq"]]
    assert own and not own[0].get("stand_in")
    assert all(e["seq"] < reply["seq"] for e in skipped)
    p.close()


def test_lose_policy_resigns_the_seat_which_a_bot_plays_to_the_end(quick: Server) -> None:
    g = create(quick.base, "greatwall", 2, ["open", "bot:random"], clock=0.5, clock_policy="lose")
    join(quick.base, g["id"], 0)
    watcher = Player(quick.base, g["id"])
    wait_for(watcher, lambda p: p.view["seats"][0]["resigned"])
    # Resigned, not stood in for: its moves are not marked, and nobody hands it back.
    wait_for(watcher, lambda p: p.view["terminal"], timeout=120)
    assert not stand_in_events(watcher, 0)
    summary = httpx.get(f"{quick.base}/api/games/{g['id']}").json()
    assert summary["status"] == "finished" and summary["seats"][0]["resigned"] is True
    watcher.close()


def test_each_turn_adds_the_increment_and_a_hello_gives_no_time(quick: Server) -> None:
    g = create(quick.base, "greatwall", 2, ["open", "bot:random"], clock=10.0, increment=30)
    secret = join(quick.base, g["id"], 0)
    p = Player(quick.base, g["id"], secret)
    wait_for(p, lambda p: p.my_turn())
    deadline = p.view["clock"]["deadline"]
    # A page's hello, a spectator's: the turn's deadline stays where it was.
    for _ in range(3):
        other = Player(quick.base, g["id"])
        assert other.view["clock"]["deadline"] == pytest.approx(deadline, abs=1e-6)
        other.close()
    for _ in range(3):
        wait_for(p, lambda p: p.my_turn())
        reply = p.act(p.view["legal"][0]["action"])
        assert reply["type"] == "accepted", reply
        wait_for(p, seen(int(reply["seq"])))
    p.drain(0.3)
    # A turn ends when the next decision is another seat's: each such adds 30 s.
    deciders = [e["seat"] for e in p.events if e["seat"] is not None]
    if not p.my_turn():
        deciders.append(-1)
    turns = sum(1 for a, b in itertools.pairwise(deciders) if a == 0 and b != 0)
    assert turns >= 1
    bank = p.view["clock"]["seats"][0]["bank"]
    # Each turn added 30 s to the 10 s bank, less the time the moves took.
    assert 10.0 + turns * 30 - 5 < bank <= 10.0 + turns * 30
    stored = rows(quick, "SELECT bank FROM seats WHERE game_id = :g AND seat = 0", g=g["id"])
    # Stored as of the turn's start: the view's runs on from it if it is the seat's turn.
    assert bank <= stored[0]["bank"] <= bank + 5
    p.close()


def test_vacation_runs_after_the_bank_before_the_policy(quick: Server) -> None:
    # 0.5 s of bank, then a vacation of 2.5 s (in days, as the form asks for it).
    vacation = 2.5 / 86400
    g = create(quick.base, "greatwall", 2, ["open", "bot:random"], clock=0.5, vacation=vacation)
    secret = join(quick.base, g["id"], 0)
    p = Player(quick.base, g["id"], secret)
    wait_for(p, lambda p: p.my_turn())
    # Past the bank: the vacation runs, and nobody stands in yet (a spectator's fresh
    # view says so: views are sent when something changes, not as a clock ticks).
    while True:
        look = Player(quick.base, g["id"])
        view = look.view
        look.close()
        mine = view["clock"]["seats"][0]
        if mine["bank"] == 0.0 or view["seats"][0]["bot_playing"]:
            break
        time.sleep(0.1)
    if not view["seats"][0]["bot_playing"]:
        assert 0.0 < mine["vacation_left"] < 2.5 and mine["running"] is True
        assert view["clock"]["deadline"] == pytest.approx(
            view["clock"]["now"] + mine["vacation_left"]
        )
    wait_for(p, lambda p: p.view["seats"][0]["bot_playing"])
    after = rows(
        quick, "SELECT vacation_left FROM seats WHERE game_id = :g AND seat = 0", g=g["id"]
    )
    assert after[0]["vacation_left"] == 0.0
    p.close()


def test_a_running_bank_goes_on_from_the_turns_start_across_a_kill(quick: Server) -> None:
    g = create(quick.base, "greatwall", 2, ["open", "bot:random"], clock=40.0)
    secret = join(quick.base, g["id"], 0)
    p = Player(quick.base, g["id"], secret)
    wait_for(p, lambda p: p.my_turn())
    seq = p.view["seq"]
    deadline = p.view["clock"]["deadline"]
    p.close()
    time.sleep(0.5)
    quick.restart(kill=True)
    time.sleep(0.5)
    p = Player(quick.base, g["id"], secret)
    assert p.view["seq"] == seq and p.my_turn()
    clock = p.view["clock"]
    # Neither reset (a whole bank again) nor lost: the same deadline, a second spent.
    assert clock["deadline"] == pytest.approx(deadline, abs=0.01)
    assert clock["seats"][0]["bank"] < 40.0 - 1.0
    assert clock["seats"][0]["running"] is True
    p.close()


def test_hellos_during_a_turn_do_not_hold_its_clock_back(quick: Server) -> None:
    # A page's hello used to start the turn's wait again while the view kept the first
    # deadline: a page reloading (or a spectator arriving) every few tenths of a second
    # kept a stand-in from ever coming, and a half-minute clock ran for a minute.
    g = create(quick.base, "greatwall", 2, ["open", "bot:random"], clock=1.0)
    join(quick.base, g["id"], 0)
    watcher = Player(quick.base, g["id"])
    deadline = time.monotonic() + 30
    while not stand_in_events(watcher, 0):
        assert time.monotonic() < deadline, "the hellos held the clock back"
        Player(quick.base, g["id"]).close()
        watcher.drain(0.2)
    watcher.close()


def test_a_client_cannot_pose_as_a_stand_in(server: Server) -> None:
    g = create(server.base, "greatwall", 2, ["open", "bot:random"])
    p = Player(server.base, g["id"], join(server.base, g["id"], 0))
    wait_for(p, lambda p: p.my_turn())
    seq = p.view["seq"]
    reply = p.act(p.view["legal"][0]["action"], action_id=f"stand-in:{seq + 1}")
    assert reply["type"] == "error" and reply["code"] == "bad_message"
    assert "stand-in:" in reply["reason"]
    p.drain(0.2)
    assert p.view["seq"] == seq
    p.close()


def test_a_game_stored_with_a_per_move_clock_keeps_its_patience() -> None:
    # Migration 0007 keeps an older game's clock of N seconds per decision as a bank of
    # N refilled by N each turn, with a stand-in past it; a row read before the new
    # columns were filled in means the same.
    old = {"clock": 120.0, "increment": None, "clock_policy": None, "vacation": None}
    clock = Clock.of(old)
    assert clock == Clock(initial=120.0, increment=120.0, policy="bot", vacation=0.0)
    assert Clock.of({"clock": None}) is None
    # The bank first, then the vacation, never below zero.
    assert spend(60.0, 100.0, 30.0) == (30.0, 100.0)
    assert spend(60.0, 100.0, 70.0) == (0.0, 90.0)
    assert spend(60.0, 100.0, 500.0) == (0.0, 0.0)
    assert spend(60.0, 100.0, -5.0) == (60.0, 100.0)


def test_skip_policy_passes_where_the_rules_offer_a_pass(quick: Server) -> None:
    # Mandarin's auctions offer a pass: a seat whose time runs out in one passes (where
    # a decision is required, a stand-in makes it, as above).
    g = create(quick.base, "mandarin", 2, ["open", "bot:random"], clock=0.3, clock_policy="skip")
    join(quick.base, g["id"], 0)
    watcher = Player(quick.base, g["id"])
    wait_for(
        watcher,
        lambda p: any(e.get("action") == "pass" for e in stand_in_events(p, 0)),
        timeout=60,
    )
    assert all(e["seat"] == 0 for e in watcher.events if e.get("stand_in"))
    passes = [e["seq"] for e in stand_in_events(watcher, 0) if e.get("action") == "pass"]
    # Once the game is over, each says why: the seat's time ran out (not a bot's choice).
    wait_for(watcher, lambda p: p.view["terminal"], timeout=120)
    why = watcher.view["why"]
    assert why[str(passes[0])].startswith("Passed for the seat, whose time ran out: ")
    watcher.close()
