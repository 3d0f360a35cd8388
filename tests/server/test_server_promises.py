"""The server's promises, each shown on a real server (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import random
import threading
import time
import uuid

import httpx
from websockets.sync.client import connect

from .client import Player, create, join
from .conftest import Server


def _two_seats(server: Server, game: str = "greatwall") -> tuple[str, list[str]]:
    g = create(server.base, game, 2, ["open", "open"])
    return g["id"], [join(server.base, g["id"], s, name=f"P{s + 1}") for s in (0, 1)]


def _mover(players: list[Player]) -> Player:
    for _ in range(200):
        for p in players:
            p.drain(0.01)
            if p.my_turn():
                return p
    raise AssertionError("nobody is to move")


def test_an_acknowledged_action_survives_a_kill(server: Server) -> None:
    gid, secrets = _two_seats(server)
    rng = random.Random(1)
    acked: list[tuple[int, str]] = []
    for _ in range(3):
        players = [Player(server.base, gid, s) for s in secrets]
        p = _mover(players)
        reply = p.act(rng.choice(p.view["legal"])["action"])
        assert reply["type"] == "accepted"
        acked.append((reply["seq"], reply["state_hash"]))
        server.restart(kill=True)  # SIGKILL right after the ack
    again = Player(server.base, gid, secrets[0])
    assert again.view["seq"] >= acked[-1][0]
    actions = [e["seq"] for e in again.events]
    assert all(seq in actions for seq, _ in acked)


def test_a_resent_action_id_is_applied_once_with_the_same_reply(server: Server) -> None:
    gid, secrets = _two_seats(server)
    players = [Player(server.base, gid, s) for s in secrets]
    p = _mover(players)
    action = p.view["legal"][0]["action"]
    seq = p.view["seq"]
    first = p.act(action, action_id="same-id", expected=seq)
    assert first["type"] == "accepted"
    for _ in range(3):
        assert p.act(action, action_id="same-id", expected=seq) == first
    p.close()
    back = Player(server.base, gid, p.secret)
    assert back.act(action, action_id="same-id", expected=seq) == first
    assert sum(1 for e in back.events if e["seq"] == first["seq"]) == 1


def test_an_ack_does_not_carry_the_plain_hash_of_the_hidden_state(server: Server) -> None:
    from tianxia.server.live import receipt
    from tianxia.server.storage import Store

    gid, secrets = _two_seats(server)
    players = [Player(server.base, gid, s) for s in secrets]
    p = _mover(players)
    reply = p.act(p.view["legal"][0]["action"])
    assert reply["type"] == "accepted"
    store = Store(server.database)
    try:
        stored = {r.seq: r.state_hash for r in store.log(gid)}[reply["seq"]]
        row = store.game(gid)
        assert row is not None
        seed = int(row["seed"])
    finally:
        store.close()
    # The stored hash covers every hand; the ack's is keyed by the game's secret seed.
    assert reply["state_hash"] != stored
    assert reply["state_hash"] == receipt(seed, gid, stored)
    for q in players:
        q.close()


def test_of_two_conflicting_actions_exactly_one_is_accepted(server: Server) -> None:
    gid, secrets = _two_seats(server)
    for trial in range(5):
        players = [Player(server.base, gid, s) for s in secrets]
        mover = _mover(players)
        # The same seat on two devices sends two actions for the same seq at once.
        twin = Player(server.base, gid, mover.secret)
        legal = [x["action"] for x in mover.view["legal"]]
        seq = mover.view["seq"]
        barrier = threading.Barrier(2)
        replies: list[dict[str, object]] = []

        def send(
            p: Player,
            action: str,
            barrier: threading.Barrier = barrier,
            replies: list[dict[str, object]] = replies,
            seq: int = seq,
        ) -> None:
            barrier.wait()
            replies.append(p.act(action, expected=seq))

        threads = [
            threading.Thread(target=send, args=(mover, legal[0])),
            threading.Thread(target=send, args=(twin, legal[-1])),
        ]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        kinds = sorted(str(r["type"]) for r in replies)
        assert kinds == ["accepted", "refused"], (trial, replies)
        refused = next(r for r in replies if r["type"] == "refused")
        assert refused["code"] == "stale"
        for p in (*players, twin):
            p.close()


def test_only_the_bound_connection_acts_for_a_seat(server: Server) -> None:
    gid, secrets = _two_seats(server)
    other_gid, other_secrets = _two_seats(server)
    players = [Player(server.base, gid, s) for s in secrets]
    mover = _mover(players)
    idle = players[1 - players.index(mover)]
    seq = mover.view["seq"]
    action = mover.view["legal"][0]["action"]
    # another seat
    r = idle.act(action, expected=seq)
    assert r["type"] == "refused" and r["code"] == "not_your_turn" and r["rule"] == "TABLE-1"
    # a spectator, for every message type
    spy = Player(server.base, gid)
    assert spy.view["legal"] == [] and spy.view["view"]["seat"] is None
    r = spy.act(action, expected=seq)
    assert r["type"] == "refused" and r["code"] == "no_seat"
    spy.send({"type": "undo", "action_id": "u1", "expected_seq": seq})
    assert spy.until("refused")["code"] == "no_seat"
    spy.send({"type": "chat", "text": "hello"})
    assert spy.until("error")["code"] == "no_seat"
    # forged, foreign and missing secrets
    for secret in ("forged-secret", other_secrets[0]):
        with connect(server.base.replace("http", "ws") + f"/ws/games/{gid}") as ws:
            ws.send(json.dumps({"type": "hello", "secret": secret}))
            reply = json.loads(ws.recv(timeout=10))
            assert reply["type"] == "error" and reply["code"] == "unknown_secret"
            ws.send(
                json.dumps({"type": "act", "action_id": "x", "expected_seq": seq, "action": action})
            )
            assert json.loads(ws.recv(timeout=10))["code"] == "no_hello"
    # nothing changed
    fresh = Player(server.base, gid, secrets[0])
    assert fresh.view["seq"] == seq
    assert other_gid != gid


def test_bad_input_gets_a_typed_error_and_changes_nothing(server: Server) -> None:
    gid, secrets = _two_seats(server)
    players = [Player(server.base, gid, s) for s in secrets]
    p = _mover(players)
    seq = p.view["seq"]
    cases: list[tuple[object, str]] = [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        (json.dumps({"type": "dance"}), "bad_message"),
        (
            json.dumps({"type": "act", "action_id": "a", "expected_seq": "7", "action": "x"}),
            "bad_message",
        ),
        (
            json.dumps({"type": "act", "action_id": "a", "expected_seq": -1, "action": "x"}),
            "bad_message",
        ),
        (
            json.dumps({"type": "act", "action_id": "a", "expected_seq": 1, "action": "x" * 500}),
            "bad_message",
        ),
        (
            json.dumps({"type": "act", "action_id": "a", "expected_seq": 1, "action": "x", "x": 1}),
            "bad_message",
        ),
        ("[" * 5000 + "]" * 5000, "bad_json"),
        ("[" * 9000 + "]" * 9000, "too_large"),
        (json.dumps({"type": "chat", "text": "x" * 20000}), "too_large"),
    ]
    for raw, code in cases:
        p.send(raw if isinstance(raw, str) else json.dumps(raw))
        reply = p.until("error")
        assert reply["code"] == code, (raw if isinstance(raw, str) else "", reply)
    p.ws.send(b"\x00\x01binary")
    assert p.until("error")["code"] == "bad_message"
    stale = p.act(p.view["legal"][0]["action"], expected=seq + 5)
    assert stale["type"] == "refused" and stale["code"] == "stale"
    unreadable = p.act("fly to the moon")
    assert unreadable["type"] == "refused" and unreadable["code"] == "unreadable"
    illegal = p.act("take D") if "take D" not in [x["action"] for x in p.view["legal"]] else None
    if illegal is not None:
        assert illegal["type"] == "refused" and illegal["code"] in ("illegal", "unreadable")
        assert illegal["rule"] and illegal["reason"]
    fresh = Player(server.base, gid, secrets[0])
    assert fresh.view["seq"] == seq


def test_a_flood_is_rate_limited(server: Server) -> None:
    gid, secrets = _two_seats(server)
    p = Player(server.base, gid, secrets[0])
    for _ in range(150):
        p.send({"type": "chat", "text": "spam"})
    seen = set()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and "rate_limited" not in seen:
        msg = p.recv()
        seen.add(msg.get("code", msg["type"]))
    assert "rate_limited" in seen


def test_no_hidden_card_and_no_seed_reaches_another_viewer(server: Server) -> None:
    gid, secrets = _two_seats(server)
    players = [Player(server.base, gid, s) for s in secrets]
    spy = Player(server.base, gid)
    rng = random.Random(5)
    for _ in range(30):
        p = _mover(players)
        p.act(rng.choice(p.view["legal"])["action"])
    for viewer in (*players, spy):
        viewer.drain(0.2)
    for viewer, seat in ((players[0], 0), (players[1], 1), (spy, None)):
        body = viewer.view["view"]["body"]
        assert body["seat"] == seat
        assert (body["hand"] is None) == (seat is None)
        for e in viewer.events:
            if e["action"] is not None and e["action"].startswith("deal"):
                # a dealt card is told only to the seat that drew it
                assert e["text"].startswith(f"P{(seat or 0) + 1} draws a ") and seat is not None
    summary = httpx.get(f"{server.base}/api/games/{gid}").text
    assert "seed" not in summary and "secret" not in summary


def test_undo_follows_the_tables_rule_over_the_wire(server: Server) -> None:
    g = create(server.base, "greatwall", 2, ["open", "open"])
    secrets = [join(server.base, g["id"], s) for s in (0, 1)]
    players = [Player(server.base, g["id"], s) for s in secrets]
    p = _mover(players)
    plays = [x["action"] for x in p.view["legal"] if x["action"].startswith("play")]
    if not plays:
        return
    seq = p.view["seq"]
    assert p.act(plays[0])["type"] == "accepted"
    p.drain(0.2)
    assert p.view["undo"] is True
    p.send({"type": "undo", "action_id": uuid.uuid4().hex, "expected_seq": seq + 1})
    reply = p.until("undone")
    assert reply["seq"] == seq
    p.drain(0.2)
    assert p.view["seq"] == seq and p.view["since"] == seq
    p.send({"type": "undo", "action_id": uuid.uuid4().hex, "expected_seq": seq})
    refused = p.until("refused")
    assert refused["rule"] == "TABLE-2"


def test_a_finished_game_is_rated_and_replayable(server: Server) -> None:
    g = create(server.base, "greatwall", 2, ["open", "bot:random"])
    # Ratings are accounts' (and bots'): Anne plays signed in.
    with httpx.Client(base_url=server.base, timeout=60) as c:
        r = c.post("/api/accounts", json={"name": "Anne", "password": "correct horse battery"})
        c.headers["X-CSRF-Token"] = r.json()["csrf"]
        secret = c.post(f"/api/games/{g['id']}/join", json={"seat": 0}).json()["secret"]
    p = Player(server.base, g["id"], secret)
    rng = random.Random(2)
    deadline = time.monotonic() + 120
    while not p.view["terminal"] and time.monotonic() < deadline:
        p.drain(0.01)
        if p.my_turn():
            p.act(rng.choice(p.view["legal"])["action"])
    assert p.view["terminal"]
    board = httpx.get(f"{server.base}/api/leaderboard/greatwall").json()
    assert {r["player_name"] for r in board} == {"Anne", "bot (random)"}
    steps = httpx.get(f"{server.base}/api/games/{g['id']}/replay", params={"step": 0}).json()[
        "steps"
    ]
    last = httpx.get(
        f"{server.base}/api/games/{g['id']}/replay", params={"step": steps, "seat": 0}
    ).json()
    assert last["view"]["terminal"] and len(last["events"]) == steps
