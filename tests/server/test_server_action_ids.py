"""Action ids are a seat's own: another seat or a spectator reusing one reads nothing of
it, blocks nothing with it, and what a seat's ids leave in memory is bounded."""

from __future__ import annotations

import random

from .client import Player, create, join
from .conftest import Server


def _table(server: Server) -> tuple[str, list[Player]]:
    g = create(server.base, "greatwall", 2, ["open", "open"])
    secrets = [join(server.base, g["id"], s, name=f"P{s + 1}") for s in (0, 1)]
    return g["id"], [Player(server.base, g["id"], s) for s in secrets]


def _mover(players: list[Player]) -> Player:
    for _ in range(400):
        for p in players:
            p.drain(0.01)
            if p.my_turn():
                return p
    raise AssertionError("nobody is to move")


def _settle(players: list[Player], seq: int) -> None:
    """Every seat has the view after `seq`: a seat that just moved still holds its old
    view (its legal actions) until the new one arrives, and would act on it."""
    for p in players:
        while p.view["seq"] < seq:
            p.until("view", timeout=30)


def _illegal(p: Player) -> str:
    legal = {a["action"] for a in p.view["legal"]}
    for text in ("zz", "draw", "pass", "build 99"):
        if text not in legal:
            return text
    raise AssertionError("every guess is legal")


def test_a_spectator_reusing_a_seats_id_does_not_read_its_refusal(server: Server) -> None:
    gid, players = _table(server)
    mover = _mover(players)
    refused = mover.act(_illegal(mover), action_id="shared")
    assert refused["type"] == "refused" and refused["code"] in ("illegal", "unreadable")
    spy = Player(server.base, gid)
    answer = spy.act(
        mover.view["legal"][0]["action"], action_id="shared", expected=mover.view["seq"]
    )
    assert answer["type"] == "refused" and answer["code"] == "no_seat", answer
    assert refused["reason"] not in answer["reason"]
    for p in (*players, spy):
        p.close()


def test_a_spectators_id_does_not_block_a_seats_action(server: Server) -> None:
    gid, players = _table(server)
    mover = _mover(players)
    spy = Player(server.base, gid)
    first = spy.act(mover.view["legal"][0]["action"], action_id="mine", expected=mover.view["seq"])
    assert first["code"] == "no_seat"
    taken = mover.act(mover.view["legal"][0]["action"], action_id="mine")
    assert taken["type"] == "accepted", taken
    for p in (*players, spy):
        p.close()


def test_a_seat_reusing_another_seats_id_has_its_own_action_judged(server: Server) -> None:
    gid, players = _table(server)
    rng = random.Random(4)
    first = _mover(players)
    a = first.act(rng.choice(first.view["legal"])["action"], action_id="m1")
    assert a["type"] == "accepted"
    _settle(players, a["seq"])
    n = 0
    while (mover := _mover(players)) is first:
        n += 1
        again = first.act(rng.choice(first.view["legal"])["action"])
        assert again["type"] == "accepted", again
        _settle(players, again["seq"])
        assert n < 50, "the other seat never came to move"
    seq = mover.view["seq"]
    b = mover.act(rng.choice(mover.view["legal"])["action"], action_id="m1")
    # Before, this was the first seat's answer: accepted at its seq, for a move of
    # this seat that was never applied.
    assert b["type"] == "accepted" and b["seq"] == seq + 1, (a, b)
    mover.until("view")
    assert mover.view["seq"] >= seq + 1
    # And after a restart, from the stored rows: each seat's id answers its own action.
    for p in players:
        p.close()
    server.restart()
    again = [Player(server.base, gid, p.secret) for p in players]
    by_seat = {p.view["seat"]: p for p in again}
    assert by_seat[first.view["seat"]].act("zz", action_id="m1", expected=0)["seq"] == a["seq"]
    assert by_seat[mover.view["seat"]].act("zz", action_id="m1", expected=0)["seq"] == b["seq"]
    for p in again:
        p.close()


def test_what_a_seats_ids_leave_in_memory_is_bounded(server: Server) -> None:
    from tianxia.server.live import REPLIES

    _gid, players = _table(server)
    mover = _mover(players)
    bad = _illegal(mover)
    assert mover.act(bad, action_id="oldest")["type"] == "refused"
    for i in range(REPLIES):
        assert mover.act(bad, action_id=f"filler-{i}")["type"] == "refused"
    # Forgotten past REPLIES: the oldest refused id is judged afresh (it changed
    # nothing the first time, so nothing is applied twice).
    again = mover.act(mover.view["legal"][0]["action"], action_id="oldest")
    assert again["type"] == "accepted", again
    for p in players:
        p.close()
