"""Several server processes on one PostgreSQL database: each append and undo commits
under its game's lock after checking the stored seq (docs/server.md, Several processes)."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("sqlalchemy")

from serving import reset_postgres
from tianxia.server.storage import Conflict, Row, Store, migrate


@pytest.fixture
def pg(postgres: str | None) -> str:
    if postgres is None:
        pytest.skip("no PostgreSQL here: `make test` installs it")
    reset_postgres(postgres)
    migrate(postgres)
    return postgres


@pytest.fixture
def two(pg: str) -> Iterator[tuple[Store, Store]]:
    """Two processes' worth of stores: two engines, two pools, on one database."""
    a, b = Store(pg), Store(pg)
    try:
        yield a, b
    finally:
        a.close()
        b.close()


def _row(seq: int, client_id: str | None, action: str = "draw") -> Row:
    return Row(seq, client_id, 0, action, f"hash{seq}:{action}", False)


def _new(store: Store, *ids: str) -> None:
    for game_id in ids:
        store.create_game(game_id, "greatwall", 2, {}, 1, 7, [("open", None)] * 2, None)


def test_two_stores_cannot_both_append_at_one_seq(two: tuple[Store, Store]) -> None:
    a, b = two
    _new(a, "g")
    a.append("g", [_row(1, "a1")], {"seq": 1})
    # b built on seq 1 as well, with an id of its own: the unique index alone would let
    # a different seq through; the check refuses anything not built on the stored seq.
    with pytest.raises(Conflict, match="at seq 1 in the database, not 2"):
        b.append("g", [_row(3, "b3")], {"seq": 3})
    with pytest.raises(Conflict):
        b.append("g", [_row(1, "b1")], {"seq": 1})
    b.append("g", [_row(2, "b2")], {"seq": 2})
    assert [(r.seq, r.client_id) for r in a.log("g")] == [(1, "a1"), (2, "b2")]


def test_an_append_built_before_an_undo_elsewhere_is_a_conflict(
    two: tuple[Store, Store],
) -> None:
    a, b = two
    _new(a, "g")
    a.append("g", [_row(1, "a1"), _row(2, None)], {"seq": 2})
    b.undo("g", 2)
    # a still holds seq 2: its move at 3 would leave a hole in the log at 2.
    with pytest.raises(Conflict, match="at seq 1 in the database, not 2"):
        a.append("g", [_row(3, "a3")], {"seq": 3})
    # An undo built on a seq already undone elsewhere is refused too, and writes nothing.
    with pytest.raises(Conflict):
        a.undo("g", 2)
    assert [r.seq for r in a.log("g")] == [1]
    assert a.game("g")["seq"] == 1  # type: ignore[index]
    a.append("g", [_row(2, "a2", "other")], {"seq": 2})
    assert [(r.seq, r.client_id) for r in b.log("g")] == [(1, "a1"), (2, "a2")]


def test_a_stale_game_in_a_batch_is_refused_alone(two: tuple[Store, Store]) -> None:
    a, b = two
    _new(a, "g0", "g1", "g2")
    b.append("g1", [_row(1, "b1")])
    results = a.append_many(
        [
            ("g0", [_row(1, "a"), _row(2, None)], None),
            ("g1", [_row(1, "a")], None),  # b wrote seq 1 of g1 first
            ("g2", [_row(1, "c")], {"status": "finished"}),
        ]
    )
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], Conflict)
    assert [r.client_id for r in b.log("g1")] == ["b1"]
    assert b.game("g2")["status"] == "finished"  # type: ignore[index]
    assert a.locks >= 3 and a.lock_wait >= 0.0


def test_racing_appends_from_two_stores_one_wins_each_seq(two: tuple[Store, Store]) -> None:
    """Batches of many games racing from both stores: the games are locked in one
    order, so neither waits on the other for ever, and each seq is taken once."""
    a, b = two
    ids = [f"g{i}" for i in range(40)]
    _new(a, *ids)

    def play(store: Store, name: str) -> list[list[Conflict | None]]:
        out = []
        for seq in range(1, 6):
            batch = [(g, [_row(seq, f"{name}{seq}", name)], None) for g in ids]
            # The other order half the time: the lock order must not depend on it.
            out.append(store.append_many(batch if seq % 2 else batch[::-1]))
        return out

    with ThreadPoolExecutor(2) as pool:
        fa, fb = pool.submit(play, a, "a"), pool.submit(play, b, "b")
        ra, rb = fa.result(timeout=60), fb.result(timeout=60)
    for g in ids:
        log = a.log(g)
        # Every seq once, and whoever won a seq built the next on it or lost it.
        assert [r.seq for r in log] == list(range(1, len(log) + 1))
    won = sum(r is None for batch in ra + rb for r in batch)
    assert won == sum(len(a.log(g)) for g in ids)
