"""Several server processes on one PostgreSQL database: each append and undo commits
under its game's lock after checking the stored seq (docs/server.md, Several processes)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

pytest.importorskip("sqlalchemy")

from serving import Server, reset_postgres
from tianxia.core import Match
from tianxia.server.storage import Conflict, Row, Store, migrate

from .client import Player, create, join
from .conftest import NO_QUOTAS


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


# --- two real server processes on one database ---------------------------------------


@pytest.fixture
def pair(pg: str, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Two `tianxia serve` processes on one PostgreSQL database."""
    servers = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        servers.append(Server(pg, tmp_path / name, *NO_QUOTAS, forked=True))
    try:
        for srv in servers:
            srv.start()
        yield servers[0], servers[1]
    finally:
        for srv in servers:
            srv.stop()


def _caught_up(players: list[Player], seq: int, timeout: float = 10.0) -> None:
    """Every client's view reaches `seq` within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    for p in players:
        while p.view["seq"] < seq:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"a view stayed at seq {p.view['seq']}, not {seq}")
            try:
                p.recv(left)
            except TimeoutError:
                continue


SPREAD = [("china", 3), ("greatwall", 2), ("emperor", 3), ("silkroad", 2)]


@pytest.mark.parametrize(("game", "players"), SPREAD, ids=[t[0] for t in SPREAD])
def test_every_title_played_to_its_end_with_clients_spread_over_two_processes(
    pair: tuple[Server, Server], game: str, players: int
) -> None:
    a, b = pair
    g = create(a.base, game, players, ["open"] * players)
    # Seats joined through one process or the other, and each seat's socket, and a
    # spectator on each, on the other one from its join.
    secrets = [join((a, b)[s % 2].base, g["id"], s, name=f"P{s + 1}") for s in range(players)]
    clients = [Player((b, a)[s % 2].base, g["id"], secret) for s, secret in enumerate(secrets)]
    watchers = [Player(a.base, g["id"]), Player(b.base, g["id"])]
    seen: list[list[int]] = [[] for _ in clients + watchers]
    rng = random.Random(11)
    moves = 0
    while not clients[0].view.get("terminal") and moves < 5000:
        mover = next((p for p in clients if p.my_turn()), None)
        if mover is None:
            _caught_up(clients, max(p.view["seq"] for p in clients))
            mover = next((p for p in clients if p.my_turn()), None)
            assert mover is not None, "nobody is to move, and the game is not over"
        reply = mover.act(rng.choice(mover.view["legal"])["action"])
        assert reply["type"] == "accepted", reply
        moves += 1
        _caught_up(clients + watchers, reply["seq"])
        for got, p in zip(seen, clients + watchers, strict=True):
            got.append(p.view["seq"])
    assert clients[0].view["terminal"]
    log = httpx.get(f"{b.base}/api/games/{g['id']}/log").json()
    assert Match.from_json(log).state.is_terminal()
    for p, got in zip(clients + watchers, seen, strict=True):
        # Every event, in order, through either process.
        assert [e["action"] for e in p.events] == log["log"]
        assert got == sorted(got)
        assert p.view["terminal"]
    for summary in (httpx.get(f"{s.base}/api/games/{g['id']}").json() for s in pair):
        assert summary["status"] == "finished"
    for p in clients + watchers:
        p.close()


def test_a_seat_joined_through_both_at_once_is_taken_once(pair: tuple[Server, Server]) -> None:
    a, b = pair
    ids = [create(a.base, "greatwall", 2, ["open", "open"])["id"] for _ in range(10)]

    def take(base: str, game_id: str) -> int:
        r = httpx.post(f"{base}/api/games/{game_id}/join", json={"seat": 0, "name": base})
        return r.status_code

    with ThreadPoolExecutor(2) as pool:
        for game_id in ids:
            codes = sorted(pool.map(take, (a.base, b.base), (game_id, game_id)))
            assert codes == [200, 409], codes
            for srv in pair:
                (seat,) = [
                    s
                    for s in httpx.get(f"{srv.base}/api/games/{game_id}").json()["seats"]
                    if s["seat"] == 0
                ]
                assert seat["kind"] == "human"
