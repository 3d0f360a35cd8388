"""Several server processes on one PostgreSQL database: each append and undo commits
under its game's lock after checking the stored seq (docs/server.md, Several processes)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("sqlalchemy")

from serving import Server, reset_postgres
from tianxia.core import Match
from tianxia.server.fanout import APPLICATION
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
    row = a.game("g")
    assert row is not None and row["seq"] == 1
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
    row = b.game("g2")
    assert row is not None and row["status"] == "finished"
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
                raise AssertionError(
                    f"view {players.index(p)} stayed at seq {p.view['seq']}, not {seq}"
                )
            try:
                p.recv(left)
            except TimeoutError:
                continue


SPREAD = [("china", 3), ("greatwall", 2), ("emperor", 3), ("silkroad", 2), ("mandarin", 2)]


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
    _running(clients + watchers)
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


def _reply(p: Player, action_id: str) -> dict[str, Any]:
    while True:
        msg = p.recv()
        if msg["type"] == "error" and msg["code"] == "rate_limited":
            raise AssertionError("a test client went over the rate limit")
        if msg["type"] in ("accepted", "refused", "undone", "error") and msg.get("action_id") in (
            action_id,
            None,
        ):
            return msg


def _windows(a: Server, b: Server) -> tuple[str, list[Player], list[Player]]:
    """A two-seat game, each seat with a window on each process."""
    g = create(a.base, "greatwall", 2, ["open", "open"])
    secrets = [join(a.base, g["id"], 0, name="P1"), join(b.base, g["id"], 1, name="P2")]
    on_a = [Player(a.base, g["id"], s) for s in secrets]
    on_b = [Player(b.base, g["id"], s) for s in secrets]
    _running(on_a + on_b)
    return g["id"], on_a, on_b


def _running(players: list[Player]) -> None:
    """Every window shows the game started: the seats joined through the other process
    reach it by that process's notification."""
    deadline = time.monotonic() + 10
    while any(p.view["status"] != "running" for p in players):
        assert time.monotonic() < deadline, [p.view["status"] for p in players]
        for p in players:
            p.drain(0.02)


def _close(*players: Player) -> None:
    for p in players:
        p.close()


def test_conflicting_actions_at_one_seq_through_both_one_is_accepted(
    pair: tuple[Server, Server],
) -> None:
    """The seat to move acts at one seq through both processes at once, 500 times (over
    as many games as that takes): exactly one of each pair is accepted, and every
    window then shows the same game."""
    a, b = pair
    rng = random.Random(5)
    trials = 0
    while trials < 500:
        _, on_a, on_b = _windows(a, b)
        everyone = on_a + on_b
        while trials < 500 and not on_a[0].view.get("terminal"):
            seat = next(i for i, p in enumerate(on_a) if p.my_turn())
            both = (on_a[seat], on_b[seat])
            seq = both[0].view["seq"]
            assert both[1].view["seq"] == seq
            ids = [f"t{trials}a", f"t{trials}b"]
            for p, aid in zip(both, ids, strict=True):
                action = rng.choice(p.view["legal"])["action"]
                p.send({"type": "act", "action_id": aid, "expected_seq": seq, "action": action})
            replies = [_reply(p, aid) for p, aid in zip(both, ids, strict=True)]
            accepted = [r for r in replies if r["type"] == "accepted"]
            assert len(accepted) == 1, replies
            (loser,) = [r for r in replies if r["type"] != "accepted"]
            assert loser["type"] == "refused" and loser["code"] in ("stale", "conflict"), loser
            trials += 1
            _caught_up(everyone, accepted[0]["seq"])
            top = max(p.view["seq"] for p in everyone)
            _caught_up(everyone, top)
            assert len({p.view["seq"] for p in everyone}) == 1
        # A seat's two windows show it one game, and a finished one the log as stored.
        for mine, other in zip(on_a, on_b, strict=True):
            assert mine.events == other.events and mine.view["seq"] == other.view["seq"]
        if on_a[0].view.get("terminal"):
            log = httpx.get(f"{a.base}/api/games/{on_a[0].game_id}/log").json()["log"]
            for p in everyone:
                assert [e["action"] for e in p.events] == log
        _close(*everyone)


def test_an_undo_on_one_process_and_an_action_on_the_other_leave_a_loadable_log(
    pg: str, pair: tuple[Server, Server], tmp_path: Path
) -> None:
    a, b = pair
    game_id, on_a, on_b = _windows(a, b)
    everyone = on_a + on_b
    rng = random.Random(3)
    races = 0
    # Races while the game offers them, then on to its end (its log is public then).
    while not on_a[0].view.get("terminal"):
        seat = next(i for i, p in enumerate(on_a) if p.my_turn())
        mover = on_a[seat]
        if races < 8 and mover.view["undo"] and on_b[seat].view["undo"]:
            seq = mover.view["seq"]
            undo = {"type": "undo", "action_id": f"u{races}", "expected_seq": seq}
            act = {
                "type": "act",
                "action_id": f"m{races}",
                "expected_seq": seq,
                "action": rng.choice(on_b[seat].view["legal"])["action"],
            }
            mover.send(undo)
            on_b[seat].send(act)
            replies = [_reply(mover, f"u{races}"), _reply(on_b[seat], f"m{races}")]
            won = [r for r in replies if r["type"] in ("accepted", "undone")]
            assert len(won) == 1, replies
            races += 1
        else:
            reply = mover.act(rng.choice(mover.view["legal"])["action"])
            assert reply["type"] == "accepted", reply
            _caught_up(everyone, reply["seq"])
            continue
        # Whichever won, every window comes to one game (an undo lowers the seq: wait
        # for the views to agree with the stored summary).
        deadline = time.monotonic() + 10
        while True:
            stored = httpx.get(f"{a.base}/api/games/{game_id}").json()["seq"]
            for p in everyone:
                p.drain(0.02)
            if all(p.view["seq"] == stored for p in everyone):
                break
            assert time.monotonic() < deadline, [p.view["seq"] for p in everyone]
    assert races >= 4
    log = httpx.get(f"{b.base}/api/games/{game_id}/log").json()
    for p in everyone:
        assert [e["action"] for e in p.events] == log["log"]
    _close(*everyone)
    # Both stopped; a new process loads the game from its log alone and plays on.
    for srv in pair:
        srv.stop()
    (tmp_path / "c").mkdir()
    fresh = Server(pg, tmp_path / "c", *NO_QUOTAS, forked=True)
    fresh.start()
    try:
        again = httpx.get(f"{fresh.base}/api/games/{game_id}/log").json()
        assert again["log"] == log["log"]
        p = Player(fresh.base, game_id)
        assert p.view["seq"] == len(log["log"])
        p.close()
    finally:
        fresh.stop()


def test_a_process_whose_copy_was_undone_elsewhere_loads_the_game_anew(
    pair: tuple[Server, Server],
) -> None:
    """Undone through one process, acted on through the other at the seq undone: that
    action is refused (its view was out of date), the other process's copy is loaded
    anew, and its windows show the stored game and play on from it."""
    a, b = pair
    _, on_a, on_b = _windows(a, b)
    rng = random.Random(9)
    while True:
        seat = next(i for i, p in enumerate(on_a) if p.my_turn())
        if on_a[seat].view["undo"]:
            break
        on_a[seat].act(rng.choice(on_a[seat].view["legal"])["action"])
        _caught_up(on_a + on_b, on_a[seat].view["seq"])
    seq = on_a[seat].view["seq"]
    _caught_up(on_b, seq)
    on_a[seat].send({"type": "undo", "action_id": "back", "expected_seq": seq})
    assert _reply(on_a[seat], "back")["type"] == "undone"
    late = on_b[seat]
    late.send(
        {
            "type": "act",
            "action_id": "late",
            "expected_seq": seq,
            "action": late.view["legal"][0]["action"],
        }
    )
    assert _reply(late, "late")["type"] == "refused"
    deadline = time.monotonic() + 10
    while not all(p.view["seq"] == seq - 1 for p in on_a + on_b):
        assert time.monotonic() < deadline, [p.view["seq"] for p in on_a + on_b]
        for p in on_a + on_b:
            p.drain(0.02)
    for mine, other in zip(on_a, on_b, strict=True):
        assert mine.events == other.events
    # The window on the process that reloaded plays on.
    reply = late.act(rng.choice(late.view["legal"])["action"])
    assert reply["type"] == "accepted" and reply["seq"] == seq, reply
    _caught_up(on_a + on_b, seq)
    _close(*on_a, *on_b)


def test_a_listener_cut_off_catches_its_views_up(pg: str, pair: tuple[Server, Server]) -> None:
    """The listeners' connections are ended by the database (pg_terminate_backend):
    moves made meanwhile through one process reach the other's windows all the same."""
    import sqlalchemy as sa

    a, b = pair
    _, on_a, on_b = _windows(a, b)
    engine = sa.create_engine(pg)
    try:
        with engine.begin() as c:
            cut = c.execute(
                sa.text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE application_name = :name"
                ),
                {"name": APPLICATION},
            ).scalar()
        assert cut == 2
        rng = random.Random(4)
        for _ in range(6):
            seat = next(i for i, p in enumerate(on_a) if p.my_turn())
            reply = on_a[seat].act(rng.choice(on_a[seat].view["legal"])["action"])
            assert reply["type"] == "accepted"
            _caught_up(on_a + on_b, reply["seq"])
        # Both listeners came back.
        deadline = time.monotonic() + 10
        while True:
            with engine.begin() as c:
                back = c.execute(
                    sa.text("SELECT count(*) FROM pg_stat_activity WHERE application_name = :n"),
                    {"n": APPLICATION},
                ).scalar()
            if back == 2:
                break
            assert time.monotonic() < deadline, back
            time.sleep(0.1)
    finally:
        engine.dispose()
    for mine, other in zip(on_a, on_b, strict=True):
        assert mine.events == other.events
    _close(*on_a, *on_b)


def test_a_rematch_asked_through_both_at_once_is_one_game(
    pg: str, pair: tuple[Server, Server]
) -> None:
    import sqlalchemy as sa

    a, b = pair
    game_id, on_a, on_b = _windows(a, b)
    rng = random.Random(2)
    while not on_a[0].view.get("terminal"):
        seat = next(i for i, p in enumerate(on_a) if p.my_turn())
        reply = on_a[seat].act(rng.choice(on_a[seat].view["legal"])["action"])
        assert reply["type"] == "accepted", reply
        _caught_up(on_a + on_b, reply["seq"])
    secrets = [p.secret for p in on_a]
    _close(*on_a, *on_b)

    def ask(base: str, secret: str | None) -> str:
        r = httpx.post(f"{base}/api/games/{game_id}/rematch", json={"secret": secret}, timeout=30)
        r.raise_for_status()
        return str(r.json()["game"])

    with ThreadPoolExecutor(2) as pool:
        made = set(pool.map(ask, (a.base, b.base), secrets))
    assert len(made) == 1
    (rematch,) = made
    assert {ask(a.base, secrets[1]), ask(b.base, secrets[0])} == made
    engine = sa.create_engine(pg)
    try:
        with engine.begin() as c:
            count = c.execute(sa.text("SELECT count(*) FROM games")).scalar()
    finally:
        engine.dispose()
    assert count == 2  # the game and its one rematch; a second one made at once is gone
    assert httpx.get(f"{a.base}/api/games/{rematch}").json()["status"] == "open"


def test_an_open_game_expired_by_one_process_closes_its_viewers_on_the_other(
    pg: str, pair: tuple[Server, Server]
) -> None:
    from websockets.exceptions import ConnectionClosed

    a, b = pair
    gid = create(a.base, "greatwall", 2, ["open", "open"])["id"]
    watcher = Player(b.base, gid)
    store = Store(pg)
    try:
        # As the expiry sweep of a process does, with every open game old enough.
        assert store.expire_open(time.time() + 60) == [gid]
    finally:
        store.close()
    with pytest.raises(ConnectionClosed):
        while True:
            watcher.recv(10)
    assert httpx.get(f"{b.base}/api/games/{gid}").status_code == 404
    watcher.close()


def test_a_process_that_only_created_a_game_lets_it_go_rather_than_replay_it(
    pg: str, tmp_path: Path
) -> None:
    """The lobby's requests go to any process: the one that created a game holds it,
    unused, while its players play through another. Told of their moves, it lets the
    game leave memory (loaded as stored when next asked for) instead of replaying each."""
    servers = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        hooks = {"TIANXIA_TEST_HOOKS": "1", "TIANXIA_TEST_GRACE": "0.2"}
        servers.append(Server(pg, tmp_path / name, *NO_QUOTAS, env=hooks, forked=True))
    try:
        for srv in servers:
            srv.start()
        a, b = servers
        g = create(a.base, "greatwall", 2, ["open", "open"])["id"]
        assert g in httpx.get(f"{a.base}/api/test/memory").json()["games"]
        time.sleep(0.3)  # past the grace a game just asked for keeps
        clients = [Player(b.base, g, join(b.base, g, s, name=f"P{s + 1}")) for s in (0, 1)]
        _running(clients)
        mover = next(p for p in clients if p.my_turn())
        reply = mover.act(mover.view["legal"][0]["action"])
        assert reply["type"] == "accepted", reply
        deadline = time.monotonic() + 10
        while g in httpx.get(f"{a.base}/api/test/memory").json()["games"]:
            assert time.monotonic() < deadline, "the creating process still holds the game"
            time.sleep(0.05)
        # Asked again, it is loaded as stored, the move included.
        stored = httpx.get(f"{b.base}/api/games/{g}").json()["seq"]
        assert stored >= reply["seq"]
        assert httpx.get(f"{a.base}/api/test/games/{g}").json()["seq"] == stored
        _close(*clients)
    finally:
        for srv in servers:
            srv.stop()
