"""Group commit: many games' appends in one transaction, no answer before its commit."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from serving import reset_postgres
from tianxia.server.live import Storage
from tianxia.server.storage import Conflict, Row, Store, migrate


def _store(tmp_path: Path, games: int) -> Store:
    return _store_at(f"sqlite:///{tmp_path / 'log.sqlite3'}", games)


def _store_at(url: str, games: int) -> Store:
    migrate(url)
    store = Store(url)
    for g in range(games):
        store.create_game(f"g{g}", "greatwall", 2, {}, 1, 7, [("open", None)] * 2, None)
    return store


def _row(seq: int, client_id: str | None) -> Row:
    return Row(seq, client_id, 0, "draw", f"hash{seq}", False)


@pytest.fixture(params=["sqlite", "postgresql"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[int], Store]]:
    """Stores of `n` games on SQLite and on PostgreSQL (the batch's statements are
    compiled for each database's own SQL and driver), closed after the test."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'log.sqlite3'}"
    else:
        url = request.getfixturevalue("postgres")
        if url is None:
            pytest.skip("no PostgreSQL here: `make test` installs it")
        reset_postgres(url)
    made: list[Store] = []

    def make(n: int) -> Store:
        made.append(_store_at(url, n))
        return made[-1]

    yield make
    for store in made:
        store.close()


def test_a_conflict_in_a_batch_is_rolled_back_alone(stores: Callable[[int], Store]) -> None:
    store = stores(3)
    store.append("g1", [_row(0, "first")])
    results = store.append_many(
        [
            ("g0", [_row(0, "a"), _row(1, None)], None),
            ("g1", [_row(0, "b")], None),  # seq 0 of g1 is taken
            ("g2", [_row(0, "c")], {"status": "finished"}),
        ]
    )
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], Conflict)
    assert [r.seq for r in store.log("g0")] == [0, 1]
    assert [r.client_id for r in store.log("g1")] == ["first"]
    assert [r.client_id for r in store.log("g2")] == ["c"]
    with pytest.raises(Conflict):
        store.append("g2", [_row(1, "c")])  # a client id is used once per seat of a game
    assert len(store.log("g2")) == 1


def test_appends_waiting_on_a_commit_share_the_next_and_are_answered_after_it(
    tmp_path: Path,
) -> None:
    store = _store(tmp_path, 20)
    order: list[str] = []
    store.fault = lambda point: order.append(point)
    storage = Storage(store)

    async def one(g: int) -> None:
        await storage.append(f"g{g}", [_row(0, f"id{g}")], None)
        order.append(f"answered g{g}")

    async def main() -> None:
        await asyncio.gather(*(one(g) for g in range(20)))

    asyncio.run(main())
    commits = [i for i, e in enumerate(order) if e == "after_commit"]
    assert 1 <= len(commits) < 20  # grouped: fewer commits than appends
    for g in range(20):
        answered = order.index(f"answered g{g}")
        # Every answer comes after a commit, and the rows it answers for are in the log.
        assert any(c < answered for c in commits)
        assert [r.client_id for r in store.log(f"g{g}")] == [f"id{g}"]


def test_a_failed_commit_answers_every_waiting_append_with_the_failure(tmp_path: Path) -> None:
    store = _store(tmp_path, 4)

    def fail(point: str) -> None:
        if point == "before_commit":
            raise OSError("disk full")

    store.fault = fail
    storage = Storage(store)

    async def main() -> list[BaseException | None]:
        return await asyncio.gather(
            *(storage.append(f"g{g}", [_row(0, f"id{g}")], None) for g in range(4)),
            return_exceptions=True,
        )

    results = asyncio.run(main())
    assert all(isinstance(r, OSError) for r in results)
    assert all(store.log(f"g{g}") == [] for g in range(4))


def test_a_batch_writes_each_games_own_values(stores: Callable[[int], Store]) -> None:
    # Games writing the same columns go in one statement: each row still gets its own.
    store = stores(4)
    results = store.append_many(
        [
            ("g0", [_row(0, "a")], {"seq": 1, "to_move": 1, "scores": "[0, 0]"}),
            ("g1", [_row(0, "b")], {"seq": 1, "to_move": 0, "scores": "[2, 0]"}),
            (
                "g2",
                [_row(0, "c")],
                {"seq": 1, "to_move": None, "scores": "[3, 1]", "status": "finished"},
            ),
            ("g3", [_row(0, "d")], None),
        ]
    )
    assert results == [None] * 4
    rows: dict[str, dict[str, Any]] = {}
    for g in ("g0", "g1", "g2", "g3"):
        row = store.game(g)
        assert row is not None
        rows[g] = row
    assert [(r["seq"], r["to_move"], r["scores"], r["status"]) for r in rows.values()] == [
        (1, 1, "[0, 0]", "open"),
        (1, 0, "[2, 0]", "open"),
        (1, None, "[3, 1]", "finished"),
        (None, None, None, "open"),
    ]
    assert rows["g3"]["updated"] == rows["g0"]["updated"] >= rows["g0"]["created"]
