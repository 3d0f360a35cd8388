"""Creating a game, and asking for one that does not exist, cost the players' moves
little: a new game is built once in memory and written in one transaction with its
opening's chance draws, nothing read back; an unknown id is one look-up by key on a
reader connection, with no lock and no job on the writer's thread.

Asserted by the statements the database is sent and by what waits for what (the writer's
thread held on purpose), not by timing.
"""

from __future__ import annotations

import functools
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.engine import Engine

from tianxia.server.app import create_app
from tianxia.server.limits import Limits
from tianxia.server.live import Hub, LiveGame, state_hash

# Long enough for a loaded machine to answer a request that does not wait; a request
# that waits for the held thread never answers before it is let go.
ANSWER = 20.0
GAME = {"game": "greatwall", "players": 2, "seats": ["open", "open"]}


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    # The default quotas: the count of a creator's open games is part of the write.
    with TestClient(create_app(url, limits=Limits())) as c:
        yield c


def _hub(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


class Sent:
    """The statements sent on an engine's connections, and its transactions begun."""

    def __init__(self, engine: Engine | None) -> None:
        self.statements: list[str] = []
        self.begun = 0
        self.engine = engine
        if engine is not None:
            event.listen(engine, "before_cursor_execute", self._statement)
            event.listen(engine, "begin", self._begin)

    def _statement(self, _conn: Any, _cursor: Any, text: str, *_: Any) -> None:
        self.statements.append(" ".join(text.split()))

    def _begin(self, _conn: Any) -> None:
        self.begun += 1

    def clear(self) -> None:
        self.statements.clear()
        self.begun = 0

    def selects(self) -> list[str]:
        return [s for s in self.statements if s.upper().startswith("SELECT")]

    def close(self) -> None:
        if self.engine is not None:
            event.remove(self.engine, "before_cursor_execute", self._statement)
            event.remove(self.engine, "begin", self._begin)


def test_a_new_game_is_one_transaction_and_nothing_is_read_back(client: TestClient) -> None:
    store = _hub(client).storage.store
    writer, readers = Sent(store.engine), Sent(store.readers)
    try:
        client.post("/api/games", json=GAME)  # the first of a variant builds its tables
        writer.clear()
        readers.clear()
        made = client.post("/api/games", json=GAME)
        assert made.status_code == 201, made.text
        assert writer.begun == 1, writer.statements
        # The one read is the count of the creator's games held, inside the write.
        (quota,) = writer.selects()
        assert "sum(games.cost)" in quota.lower(), quota
        inserted = [s.split()[2] for s in writer.statements if s.upper().startswith("INSERT")]
        assert inserted[:2] == ["games", "seats"], writer.statements
        assert set(inserted[2:]) <= {"actions"}, writer.statements
        assert readers.statements == []
    finally:
        writer.close()
        readers.close()


def test_the_game_held_after_creation_is_the_game_stored(client: TestClient) -> None:
    hub = _hub(client)
    for body in (GAME, {"game": "china", "players": 3, "seats": ["open", "bot:easy", "open"]}):
        made = client.post("/api/games", json=body).json()
        held = hub.games[made["id"]]
        # Loaded again from the database alone, as after a restart.

        async def load(game_id: str = made["id"]) -> LiveGame | None:
            return await LiveGame.load(hub, game_id)

        stored = client.portal.call(load)  # type: ignore[union-attr]
        assert stored is not None
        assert held.row == stored.row
        assert held.seats == stored.seats
        assert held.table.seq == stored.table.seq > 0  # the opening's draws were written
        assert state_hash(held.table.state) == state_hash(stored.table.state)
        assert held.summary() == stored.summary()
        assert held.game is stored.game  # one `Game` per variant
        listed = {g["id"]: g for g in client.get("/api/games").json()}
        assert listed[made["id"]]["seq"] == held.table.seq


def _in_thread(call: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(call()), daemon=True)
    thread.start()
    return thread, out


def test_an_unknown_id_waits_for_neither_the_writer_nor_a_lock(client: TestClient) -> None:
    hub = _hub(client)
    made = client.post("/api/games", json=GAME).json()
    hub.games.pop(made["id"])  # stored, not in memory: asking for it loads it
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:
        held.set()
        release.wait()

    hub.storage.pool.submit(hold)
    assert held.wait(ANSWER)
    loading = None
    try:
        gid = uuid.uuid4().hex
        for path in (f"/api/games/{gid}", f"/api/games/{gid}/replay", f"/api/games/{gid}/log"):
            thread, out = _in_thread(functools.partial(client.get, path))
            thread.join(ANSWER)
            assert not thread.is_alive(), f"{path} waited for the writer's thread"
            assert out[0].status_code == 404, out[0].text

        def socket() -> dict[str, Any]:
            with client.websocket_connect(f"/ws/games/{uuid.uuid4().hex}") as ws:
                answer: dict[str, Any] = ws.receive_json()
                return answer

        thread, out = _in_thread(socket)
        thread.join(ANSWER)
        assert not thread.is_alive(), "a websocket to an unknown id waited for the writer"
        assert out[0]["code"] == "no_such_game"
        assert hub._loading == {}
        # A game that is stored is loaded on the writer's thread, as before.
        loading, answer = _in_thread(lambda: client.get(f"/api/games/{made['id']}/replay"))
        loading.join(0.5)
        assert loading.is_alive()
    finally:
        release.set()
    assert loading is not None
    loading.join(ANSWER)
    assert answer[0].status_code == 409  # loaded: replays open once the game is over


def test_a_variant_the_title_has_not_is_refused_and_nothing_is_kept(
    client: TestClient,
) -> None:
    hub = _hub(client)
    client.post("/api/games", json=GAME)
    kept = dict(hub._games)
    for body in (
        {"game": "greatwall", "players": 9},
        {"game": "greatwall", "players": 2, "options": {"no_such_option": 1}},
    ):
        r = client.post("/api/games", json=body)
        assert r.status_code == 422, r.text
    assert hub._games == kept
    # Asked for without a count, a game gets the title's own and shares its variant.
    r = client.post("/api/games", json={"game": "greatwall"})
    assert r.status_code == 201, r.text
    assert hub.games[r.json()["id"]].game is next(iter(kept.values()))


def test_a_game_over_the_creator_s_held_quota_is_neither_written_nor_held(
    tmp_path: Path,
) -> None:
    limits = Limits(open_games=2)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=limits)) as c:
        hub = _hub(c)
        made = [c.post("/api/games", json=GAME) for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 429]
        ids = {r.json()["id"] for r in made[:2]}
        assert set(hub.games) == ids
        assert {str(r["id"]) for r in hub.storage.store.list_games()} == ids
