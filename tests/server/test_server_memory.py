"""Bounded memory: the lobby is read from the database a page at a time, idle and
finished games leave memory and come back on demand, start-up loads only the games that
move by themselves, and open games nobody joins expire."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from serving import Server

from .client import Player, create, join


@pytest.fixture
def small(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A server on SQLite with the test hooks on, a short grace before an idle game may
    leave memory, and the test's `tianxia serve` options."""
    srv = Server(
        f"sqlite:///{tmp_path / 'tianxia.sqlite3'}",
        tmp_path,
        "--games-per-minute",
        "0",
        *getattr(request, "param", ()),
        env={"TIANXIA_TEST_HOOKS": "1", "TIANXIA_TEST_GRACE": "0.2"},
        forked=True,
    )
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def _in_memory(server: Server) -> list[str]:
    return list(httpx.get(f"{server.base}/api/test/memory").json()["games"])


def _settle(server: Server, at_most: int, timeout: float = 10.0) -> list[str]:
    deadline = time.monotonic() + timeout
    while len(held := _in_memory(server)) > at_most and time.monotonic() < deadline:
        time.sleep(0.2)
    return held


def test_the_lobby_is_read_a_page_at_a_time_without_loading_a_game(small: Server) -> None:
    made = [create(small.base, "greatwall", 2, ["open", "open"])["id"] for _ in range(25)]
    small.restart()
    assert _in_memory(small) == []
    first = httpx.get(f"{small.base}/api/games", params={"limit": 10}).json()
    second = httpx.get(f"{small.base}/api/games", params={"limit": 10, "offset": 10}).json()
    rest = httpx.get(f"{small.base}/api/games", params={"offset": 20}).json()
    ids = [g["id"] for g in first + second + rest]
    assert ids == made[::-1]  # newest first, every game once
    # Neither the listing nor a game's summary loaded a game.
    from_row = httpx.get(f"{small.base}/api/games/{made[0]}").json()
    assert _in_memory(small) == []
    # Each is the summary a loaded game gives (but `updated`, the row's own).
    watcher = Player(small.base, made[0])
    assert _in_memory(small) == [made[0]]
    loaded = httpx.get(f"{small.base}/api/games/{made[0]}").json()
    listed = next(g for g in rest if g["id"] == made[0])
    assert {k: v for k, v in listed.items() if k != "updated"} == loaded == from_row
    watcher.close()
    assert httpx.get(f"{small.base}/api/games", params={"limit": 501}).status_code == 422


@pytest.mark.parametrize("small", [("--games-in-memory", "5")], indirect=True)
def test_idle_games_leave_memory_and_come_back_on_demand(small: Server) -> None:
    made = [create(small.base, "greatwall", 2, ["open", "open"])["id"] for _ in range(20)]
    assert len(_settle(small, 5)) <= 5
    # The oldest left memory; it is loaded again when asked for, and plays.
    oldest = made[0]
    assert oldest not in _in_memory(small)
    secrets = [join(small.base, oldest, s) for s in (0, 1)]
    players = [Player(small.base, oldest, s) for s in secrets]
    for p in players:
        p.drain(0.2)
    mover = next(p for p in players if p.my_turn())
    assert mover.act(mover.view["legal"][0]["action"])["type"] == "accepted"
    # A game with viewers stays whatever the count.
    for _ in range(6):
        create(small.base, "greatwall", 2, ["open", "open"])
    time.sleep(1.5)
    assert oldest in _in_memory(small)
    for p in players:
        p.close()


def test_a_finished_game_nobody_watches_leaves_memory(small: Server) -> None:
    g = create(small.base, "greatwall", 2, ["bot:random", "bot:random"])
    deadline = time.monotonic() + 60
    while httpx.get(f"{small.base}/api/games/{g['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.3)
    time.sleep(0.5)
    assert g["id"] not in _settle(small, 0)
    # Its replay loads it again from its log.
    r = httpx.get(f"{small.base}/api/games/{g['id']}/replay", params={"step": 3})
    assert r.status_code == 200 and r.json()["step"] == 3


@pytest.mark.parametrize("small", [("--bot-pause", "2")], indirect=True)
def test_start_up_loads_only_the_games_that_move_by_themselves(small: Server) -> None:
    for _ in range(5):
        create(small.base, "greatwall", 2, ["open", "open"])
    people = create(small.base, "greatwall", 2, ["open", "open"])["id"]
    for s in (0, 1):
        join(small.base, people, s)
    bots = create(small.base, "greatwall", 2, ["bot:random", "bot:random"])["id"]
    small.restart()
    # The game of two people waits for them: it is loaded when one of them comes.
    assert _in_memory(small) == [bots]


@pytest.mark.parametrize("small", [("--open-game-expiry", "1")], indirect=True)
def test_an_open_game_nobody_joins_expires(small: Server) -> None:
    waiting = create(small.base, "greatwall", 2, ["open", "open"])["id"]
    started = create(small.base, "greatwall", 2, ["open", "open"])["id"]
    for s in (0, 1):
        join(small.base, started, s)
    deadline = time.monotonic() + 15
    while httpx.get(f"{small.base}/api/games/{waiting}").status_code != 404:
        assert time.monotonic() < deadline, "the open game did not expire"
        time.sleep(0.3)
    assert [g["id"] for g in httpx.get(f"{small.base}/api/games").json()] == [started]
