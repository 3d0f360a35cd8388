"""Presence: each seat of a view says whether a socket holds it now, and the lobby's
summary of a game in memory how many seats are held; a change is broadcast only when a
seat's presence changes."""

from __future__ import annotations

import time

import httpx
import pytest

from .client import Player, create, join
from .conftest import Server


def _present(view: dict[str, object]) -> list[bool]:
    seats = view["seats"]
    assert isinstance(seats, list)
    return [bool(s["present"]) for s in seats]


def _lobby_present(base: str, game_id: str) -> int:
    games = httpx.get(f"{base}/api/games", timeout=30).json()
    found = [g for g in games if g["id"] == game_id]
    assert found, "the game is not in the lobby's list"
    return int(found[0]["present"])


def _lobby_waits_for(base: str, game_id: str, n: int) -> None:
    # The lobby's pages are shared for a second (`--lobby-cache`): presence shows by then.
    deadline = time.monotonic() + 10
    while _lobby_present(base, game_id) != n:
        assert time.monotonic() < deadline, f"the lobby never showed {n} present"
        time.sleep(0.2)


@pytest.mark.timeout(60)
def test_presence_follows_the_sockets_of_each_seat(server: Server) -> None:
    base = server.base
    gid = str(create(base, "greatwall", 2, ["open", "open"])["id"])
    anna, ben = join(base, gid, 0, "Anna"), join(base, gid, 1, "Ben")
    summary = httpx.get(f"{base}/api/games/{gid}", timeout=30).json()
    assert summary["present"] == 0
    assert [s["present"] for s in summary["seats"]] == [False, False]

    a = Player(base, gid, anna)
    try:
        assert _present(a.view) == [True, False]
        _lobby_waits_for(base, gid, 1)
        b = Player(base, gid, ben)
        assert _present(b.view) == [True, True]
        # Anna's page is told Ben arrived, without a move.
        seq = a.view["seq"]
        while _present(a.view) != [True, True]:
            a.recv(timeout=10)
        assert a.view["seq"] == seq
        _lobby_waits_for(base, gid, 2)
        # A second window of Ben's changes nobody's presence: Anna is sent no view.
        b2 = Player(base, gid, ben)
        assert _present(b2.view) == [True, True]
        a.drain(timeout=0.5)
        assert a.view["seq"] == seq
        # Ben's first window closes; the second still holds his seat.
        b.close()
        b2.drain(timeout=0.5)
        assert _present(b2.view) == [True, True]
        b2.close()
        while _present(a.view) != [True, False]:
            a.recv(timeout=10)
        # A spectator holds no seat.
        watcher = Player(base, gid, None)
        assert _present(watcher.view) == [True, False]
        watcher.close()
        _lobby_waits_for(base, gid, 1)
    finally:
        a.close()
    _lobby_waits_for(base, gid, 0)
