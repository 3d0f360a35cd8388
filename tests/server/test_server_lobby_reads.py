"""The lobby under pollers: its reads run on reader connections of their own, never in
front of a commit; a page asked for many times at once is read once; a client over the
minute's quota is answered before any game is built for it.

Asserted by what waits for what (a storage thread held on purpose), not by timing.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

import tianxia
from tianxia.server.app import create_app
from tianxia.server.limits import Limits
from tianxia.server.live import Hub
from tianxia.server.lobby import LobbyPages

# Long enough for a loaded machine to answer a request that does not wait; a request
# that waits for the held thread never answers before it is let go.
ANSWER = 20.0
GAME = {"game": "greatwall", "players": 2, "seats": ["open", "open"]}


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with TestClient(create_app(url, limits=Limits(games_per_minute=0, open_games=0))) as c:
        yield c


def _hub(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def _in_thread(call: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(call()), daemon=True)
    thread.start()
    return thread, out


def test_the_lobby_answers_while_the_storage_thread_is_held(client: TestClient) -> None:
    made = client.post("/api/games", json=GAME).json()
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:
        held.set()
        release.wait()

    hub = _hub(client)
    hub.storage.pool.submit(hold)
    assert held.wait(ANSWER)
    try:
        asks = [
            lambda: client.get("/api/games", params={"status": "open"}),
            lambda: client.get(f"/api/games/{made['id']}"),
            lambda: client.get("/api/leaderboard/greatwall"),
        ]
        for ask in asks:
            thread, out = _in_thread(ask)
            thread.join(ANSWER)
            assert not thread.is_alive(), "a read waited for the storage thread"
            assert out[0].status_code == 200, out[0].text
        listed = client.get("/api/games", params={"status": "open"}).json()
        assert [g["id"] for g in listed] == [made["id"]]
    finally:
        release.set()


def test_a_commit_does_not_wait_for_lobby_reads(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub = _hub(client)
    store = hub.storage.store
    read = store.lobby
    release = threading.Event()
    entered = threading.Semaphore(0)

    def slow_lobby(*args: Any) -> Any:
        entered.release()
        release.wait()
        return read(*args)

    monkeypatch.setattr(store, "lobby", slow_lobby)

    def poll(offset: int) -> Callable[[], Any]:
        return lambda: client.get("/api/games", params={"offset": offset})

    polls = [_in_thread(poll(k)) for k in range(4)]
    try:
        # Lobby reads are under way, and do not end until let go.
        assert entered.acquire(timeout=ANSWER)
        thread, out = _in_thread(lambda: client.post("/api/games", json=GAME))
        thread.join(ANSWER)
        assert not thread.is_alive(), "a write waited for the lobby's reads"
        assert out[0].status_code == 201, out[0].text
    finally:
        release.set()
    for thread, answers in polls:
        thread.join(ANSWER)
        assert answers[0].status_code == 200


def test_a_page_asked_for_at_once_is_read_once_and_a_change_shows_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    limits = Limits(games_per_minute=0, open_games=0, lobby_cache=3600.0)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=limits)) as c:
        store = _hub(c).storage.store
        read = store.lobby
        reads: list[tuple[Any, ...]] = []

        def counted(*args: Any) -> Any:
            reads.append(args)
            return read(*args)

        monkeypatch.setattr(store, "lobby", counted)
        first = c.post("/api/games", json=GAME).json()
        pages = [c.get("/api/games", params={"status": "open"}).json() for _ in range(20)]
        assert all([g["id"] for g in p] == [first["id"]] for p in pages)
        assert len(reads) == 1
        # A game created, a seat taken: the next page shows it, read again.
        second = c.post("/api/games", json=GAME).json()
        assert [g["id"] for g in c.get("/api/games?status=open").json()] == [
            second["id"],
            first["id"],
        ]
        c.post(f"/api/games/{first['id']}/join", json={"seat": 0, "name": "Anne"})
        seats = {g["id"]: g["seats"] for g in c.get("/api/games?status=open").json()}
        assert seats[first["id"]][0]["name"] == "Anne"
        assert len(reads) == 3
        # Another page is its own read.
        c.get("/api/games", params={"status": "open", "limit": 1})
        assert len(reads) == 4


def test_without_the_cache_every_poll_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    limits = Limits(games_per_minute=0, open_games=0, lobby_cache=0.0)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=limits)) as c:
        store = _hub(c).storage.store
        read = store.lobby
        reads: list[int] = []

        def counted(*args: Any) -> Any:
            reads.append(1)
            return read(*args)

        monkeypatch.setattr(store, "lobby", counted)
        for _ in range(5):
            c.get("/api/games")
        assert len(reads) == 5


def test_a_page_read_before_a_change_is_not_served_after_it() -> None:
    async def run() -> None:
        pages = LobbyPages(3600.0)
        reading = asyncio.Event()
        release = asyncio.Event()

        async def old() -> bytes:
            reading.set()
            await release.wait()
            return b"old"

        async def new() -> bytes:
            return b"new"

        first = asyncio.create_task(pages.page("open", old))
        await reading.wait()
        # A poller that comes while the read is under way waits for it...
        same = asyncio.create_task(pages.page("open", new))
        await asyncio.sleep(0)
        # ...but one that comes after a change does not take what was read before it.
        pages.changed()
        after = asyncio.create_task(pages.page("open", new))
        release.set()
        assert await first == b"old"
        assert await same == b"old"
        assert await after == b"new"
        assert await pages.page("open", old) == b"new"

    asyncio.run(run())


def test_kept_pages_stay_within_their_bound() -> None:
    async def run() -> None:
        pages = LobbyPages(3600.0, max_bytes=1000, max_pages=5)
        for k in range(20):
            await pages.page(k, lambda: _bytes(300))
            assert pages.bytes <= 1000 and len(pages.pages) <= 5
        assert list(pages.pages) == [17, 18, 19]

    asyncio.run(run())


async def _bytes(n: int) -> bytes:
    return b"x" * n


def test_over_the_minutes_quota_no_game_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[str] = []
    load = tianxia.load_game

    def counted(name: str, **options: Any) -> Any:
        built.append(name)
        return load(name, **options)

    monkeypatch.setattr(tianxia, "load_game", counted)
    limits = Limits(games_per_minute=2, open_games=0)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=limits)) as c:
        assert [c.post("/api/games", json=GAME).status_code for _ in range(2)] == [201, 201]
        made = len(built)
        refused = [c.post("/api/games", json=GAME) for _ in range(5)]
        assert {r.status_code for r in refused} == {429}
        assert "Retry-After" in refused[0].headers
        assert len(built) == made
        # Over the minute's quota, even a request that is wrong anyway is refused for the
        # quota, unread: a flood of creations costs the server as little as can be
        # (`QuickAnswers`). Its cost is read from its seats only under the quota.
        bad = c.post("/api/games", json={**GAME, "seats": ["open", "robot"]})
        assert bad.status_code == 429


def test_a_game_refused_after_the_quota_gives_its_cost_back(tmp_path: Path) -> None:
    limits = Limits(games_per_minute=2, open_games=0)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=limits)) as c:
        for _ in range(3):  # three seats for a two-player game: 422, nothing spent
            bad = c.post("/api/games", json={**GAME, "seats": ["open"] * 3})
            assert bad.status_code == 422, bad.text
        assert [c.post("/api/games", json=GAME).status_code for _ in range(3)] == [201, 201, 429]


def test_the_lobby_s_query_is_read_as_the_route_reads_it_or_left_to_the_route() -> None:
    from tianxia.server.app import MAX_PAGE, PAGE, lobby_key

    assert lobby_key(b"") == (None, None, PAGE, 0)
    assert lobby_key(b"status=open&limit=7&offset=14") == ("open", None, 7, 14)
    assert lobby_key(b"player=anne%20b&status=running") == ("running", "anne b", PAGE, 0)
    assert lobby_key(f"limit={MAX_PAGE}".encode()) == (None, None, MAX_PAGE, 0)
    # Anything the route might read otherwise (or refuse) is the route's to answer.
    for query in (
        b"status=open&status=running",  # repeated
        b"status=closed",
        b"limit=0",
        f"limit={MAX_PAGE + 1}".encode(),
        b"limit=-1",
        b"limit=%C2%B2",  # a digit, but not an ASCII one
        b"offset=99999999999",
        b"player=" + b"x" * 65,
        b"player=",
        b"colour=red",
        b"\xff",
    ):
        assert lobby_key(query) is None, query
