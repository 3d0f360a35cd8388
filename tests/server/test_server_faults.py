"""Faults of the server's own code (a bot that fails, a view that cannot be built) are
logged and the game goes on; they were once swallowed, and a page waited for ever."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from serving import Server

from .client import Player, create, join, play_to_the_end


@pytest.fixture
def broken(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A server on SQLite with the test hook `TIANXIA_TEST_BREAK` set to the test's param."""
    srv = Server(
        f"sqlite:///{tmp_path / 'tianxia.sqlite3'}",
        tmp_path,
        env={"TIANXIA_TEST_HOOKS": "1", "TIANXIA_TEST_BREAK": request.param},
        forked=True,
    )
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.mark.parametrize("broken", ["bot"], indirect=True)
def test_a_failing_bot_is_logged_and_its_seat_still_moves(broken: Server) -> None:
    g = create(broken.base, "greatwall", 2, ["open", "bot:easy"])
    anne = Player(broken.base, g["id"], join(broken.base, g["id"], 0))
    play_to_the_end([anne], random.Random(4))
    assert httpx.get(f"{broken.base}/api/games/{g['id']}").json()["status"] == "finished"
    # The bot's seat moved every time, each move a seeded random one, and each fault
    # is in the server's log.
    bot_moves = [e for e in anne.events if e["seat"] == 1]
    assert bot_moves
    assert broken.output().count("the bot of seat 1 failed") == len(bot_moves)
    anne.close()


@pytest.mark.parametrize("broken", ["view:4"], indirect=True)
def test_a_view_that_fails_closes_the_socket_and_a_reconnect_resumes(broken: Server) -> None:
    g = create(broken.base, "greatwall", 2, ["open", "open"])
    secrets = [join(broken.base, g["id"], s) for s in (0, 1)]
    anne, bert = (Player(broken.base, g["id"], s) for s in secrets)
    mover = anne if anne.my_turn() else bert
    reply = mover.act(mover.view["legal"][0]["action"])
    assert reply["type"] == "accepted"
    # The two hellos built views 1 and 2; of the two owed after the move, the second
    # fails: that socket is closed (so its page reconnects), not left to wait in silence.
    closed = []
    for p in (anne, bert):
        try:
            while p.view["seq"] < reply["seq"]:
                p.until("view", timeout=5)
        except ConnectionClosed:
            closed.append(p)
    assert len(closed) == 1
    assert "the view for seat" in broken.output()
    # Back with the last seq it saw, the closed seat catches up.
    (gone,) = closed
    stayed = bert if gone is anne else anne
    back = Player(broken.base, g["id"], secrets[0 if gone is anne else 1], gone.view["seq"])
    assert back.view["seq"] == stayed.view["seq"] >= reply["seq"]
    for p in (anne, bert, back):
        if p is not gone:
            p.close()


def test_a_viewer_that_stops_reading_holds_up_nobody(tmp_path: Path) -> None:
    """A spectator asks for boards, then reads nothing: its buffers fill. The players'
    game goes on to its end; it once stopped after about a hundred moves, the broadcast
    waiting on that socket under the game's lock."""
    srv = Server(f"sqlite:///{tmp_path / 'tianxia.sqlite3'}", tmp_path, forked=True)
    srv.start()
    try:
        g = create(srv.base, "silkroad", 2, ["open", "open"])
        players = [Player(srv.base, g["id"], join(srv.base, g["id"], s)) for s in (0, 1)]
        url = srv.base.replace("http", "ws", 1) + f"/ws/games/{g['id']}"
        with connect(url, ping_interval=None, max_queue=1) as idle:
            idle.send(
                json.dumps({"type": "hello", "last_seq": 0, "spectator": True, "board": True})
            )
            for p in players:  # chat lines for the idle one too
                p.send({"type": "chat", "text": "hello"})
            moves = play_to_the_end(players, random.Random(1))
        assert moves > 120
        assert httpx.get(f"{srv.base}/api/games/{g['id']}").json()["status"] == "finished"
        for p in players:
            p.close()
    finally:
        srv.stop()
