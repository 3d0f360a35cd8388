"""Several server processes on one PostgreSQL, behind nginx, attacked: one of two killed
with SIGKILL again and again during play, and every process restarted one by one
(SIGTERM) during play. The promises hold across them: no acknowledged action lost, none
twice, the views converge; a game's bots and clock go on within the stated time
(`tianxia.server.leases.STATED`) in whichever process takes its lease; a rolling restart
shows players nothing but a reconnection (close code 1012).

Counts are `make test`'s, times `TIANXIA_RELIABILITY_SCALE` (`make test-long`)."""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from cluster import Cluster
from nginxfront import available
from serving import reset_postgres
from tianxia.server.leases import STATED

from .harness import SCALE

pytestmark = pytest.mark.skipif(
    not available(), reason="Debian's nginx is missing: `make test` installs it"
)
KILLS = max(1, round(20 * SCALE))
PROCESSES = 3
# A loaded 2-core machine: the stated time, and as much again for a restarting process
# and the test's own polling.
BOUND = 2 * STATED


@pytest.fixture
def pg(postgres: str | None) -> Iterator[str]:
    if postgres is None:
        pytest.skip("no PostgreSQL here: `make test` installs it")
    reset_postgres(postgres)
    yield postgres
    engine = _ENGINES.pop(postgres, None)
    if engine is not None:
        engine.dispose()


class Seat:
    """A player's page as table.js behaves: one websocket through nginx, a hello with the
    last seq on every (re)connection, an action resent by its id until answered; a close
    with 1012 is followed at once by a reconnection, any other by one after a pause.
    Everything the player is shown is kept: the close codes, the errors, the refusals."""

    def __init__(self, base: str, game_id: str, secret: str) -> None:
        self.url = base.replace("http", "ws", 1) + f"/ws/games/{game_id}"
        self.game = game_id
        self.secret = secret
        self.ws: ClientConnection | None = None
        self.view: dict[str, Any] = {}
        self.closes: list[int | None] = []
        self.reasons: list[str | None] = []
        self.shown: list[dict[str, Any]] = []
        # action id -> seq, as acknowledged
        self.acked: dict[str, int] = {}

    def _open(self, deadline: float) -> None:
        while True:
            try:
                self.ws = connect(self.url, open_timeout=5, ping_interval=None)
                self.ws.send(
                    json.dumps(
                        {
                            "type": "hello",
                            "secret": self.secret,
                            "last_seq": self.view.get("seq", 0),
                        }
                    )
                )
                self._until(lambda m: m["type"] == "view", 10)
                return
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
                self._drop()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def _drop(self) -> None:
        if self.ws is not None:
            self.closes.append(self.ws.close_code)
            self.reasons.append(self.ws.close_reason)
            self.ws.close()
            self.ws = None

    def _recv(self, timeout: float) -> dict[str, Any]:
        assert self.ws is not None
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if msg["type"] == "view":
            self.view = msg
        elif msg["type"] == "error" or (
            msg["type"] == "refused" and msg["code"] not in ("stale", "conflict")
        ):
            self.shown.append(msg)
        return msg

    def _until(self, done: Any, timeout: float) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            msg = self._recv(max(0.01, end - time.monotonic()))
            if done(msg):
                return msg

    def call(self, make: Any, done: Any, within: float = 60.0) -> dict[str, Any]:
        """Send `make()` (again on every reconnection) until a message `done` comes."""
        deadline = time.monotonic() + within
        while True:
            try:
                if self.ws is None:
                    self._open(deadline)
                assert self.ws is not None
                self.ws.send(json.dumps(make()))
                return self._until(done, 10)
            except (OSError, ConnectionClosed, TimeoutError):
                code = self.ws.close_code if self.ws is not None else None
                self._drop()
                if time.monotonic() > deadline:
                    raise
                if code != 1012:
                    time.sleep(0.2)

    def refresh(self) -> dict[str, Any]:
        """The game as the server now has it (a hello)."""
        return self.call(
            lambda: {"type": "hello", "secret": self.secret, "last_seq": 0},
            # The hello's own view, from seq 0: views sent before it may still be on
            # their way.
            lambda m: m["type"] == "view" and m["since"] == 0,
        )

    def move(self, rng: random.Random) -> int | None:
        """One legal action of this seat, acknowledged (its seq), or None: not its turn."""
        view = self.refresh()
        if view["terminal"] or not view["legal"]:
            return None
        action = rng.choice(view["legal"])["action"]
        aid = uuid.uuid4().hex
        seq = view["seq"]
        reply = self.call(
            lambda: {"type": "act", "action_id": aid, "expected_seq": seq, "action": action},
            lambda m: m.get("action_id") == aid,
        )
        if reply["type"] != "accepted":
            return None
        self.acked[aid] = reply["seq"]
        return int(reply["seq"])

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()


# Requests nginx answered 502: with every process it knows of marked failed (one
# killed within `fail_timeout` of another), or a POST already sent to a process as it
# was killed (nginx passes no POST on); the lobby sends again.
BAD_GATEWAY: list[str] = []


def _post(url: str, body: dict[str, Any]) -> httpx.Response:
    for _ in range(30):
        r = httpx.post(url, json=body, timeout=60)
        if r.status_code != 502:
            return r
        BAD_GATEWAY.append(url)
        time.sleep(0.5)
    return r


def _game(base: str, seats: list[str], **extra: Any) -> str:
    body = {"game": "greatwall", "players": 2, "seats": seats, **extra}
    r = _post(f"{base}/api/games", body)
    r.raise_for_status()
    return str(r.json()["id"])


def _seated(base: str, game_id: str, seat: int) -> str:
    r = _post(f"{base}/api/games/{game_id}/join", {"seat": seat, "name": "Ann"})
    r.raise_for_status()
    return str(r.json()["secret"])


_ENGINES: dict[str, Any] = {}


def _engine(url: str) -> Any:
    import sqlalchemy as sa

    if url not in _ENGINES:
        _ENGINES[url] = sa.create_engine(url, pool_size=1)
    return _ENGINES[url]


def _stored(url: str, game_id: str) -> list[tuple[int, str | None]]:
    import sqlalchemy as sa

    with _engine(url).connect() as c:
        rows = c.execute(
            sa.text(
                "SELECT seq, client_id FROM actions WHERE game_id = :g AND NOT undone ORDER BY seq"
            ),
            {"g": game_id},
        ).all()
    return [(int(r[0]), r[1]) for r in rows]


def _seq(url: str, game_id: str) -> int:
    return len(_stored(url, game_id))


def _check(url: str, seats: list[Seat], games: list[str]) -> None:
    """Every acknowledged action stored once at its seq; no client id twice; the log has
    no hole."""
    for seat, game_id in zip(seats, games, strict=True):
        log = _stored(url, game_id)
        assert [s for s, _ in log] == list(range(1, len(log) + 1)), game_id
        ids = [c for _, c in log if c is not None]
        assert len(ids) == len(set(ids)), f"{game_id}: an action stored twice"
        where = {c: s for s, c in log}
        lost = {aid: seq for aid, seq in seat.acked.items() if where.get(aid) != seq}
        assert not lost, f"{game_id}: acknowledged, not stored as acknowledged: {lost}"


@pytest.fixture
def cluster(pg: str, tmp_path: Path) -> Iterator[Cluster]:
    with Cluster(
        pg, tmp_path, PROCESSES, "--bot-pause", "0.05", "--bot-processes", "0", "--min-clock", "1"
    ) as c:
        yield c


def test_kill_9_of_one_process_again_and_again(cluster: Cluster, pg: str) -> None:
    rng = random.Random(45)
    base = cluster.base
    # A person against a bot in each game (their answer is the bot's, in the process
    # holding the lease), and per kill a game of bots alone and a clock nobody answers.
    games = [_game(base, ["open", "bot:easy"]) for _ in range(2)]
    seats = [Seat(base, g, _seated(base, g, 0)) for g in games]
    restarts: dict[int, threading.Thread] = {}
    resumed: list[float] = []
    timeouts: list[float] = []
    try:
        for k in range(KILLS):
            for seat in seats:
                seat.move(rng)
            bots = _game(base, ["bot:random", "bot:random"])
            clocked = _game(base, ["open", "open"], clock=1.0, clock_policy="bot")
            for s in (0, 1):
                _seated(base, clocked, s)
            started = time.monotonic()
            dealt = _seq(pg, clocked)  # the opening's chance rows
            # Each in turn: nginx holds a killed process failed for 10 s, and with
            # three, one it believes alive is always left.
            victim = k % PROCESSES
            if victim in restarts:
                restarts.pop(victim).join()
            before = _seq(pg, bots)
            cluster.kill(victim)
            killed = time.monotonic()
            # Started again at once, beside the play (as systemd would).
            restarts[victim] = threading.Thread(target=cluster.servers[victim].start)
            restarts[victim].start()
            # The bots' game goes on, whoever held it; the clock runs out and its
            # stand-in plays; and each person's move is answered by its bot.
            bots_at = clock_at = None
            while bots_at is None or clock_at is None:
                now = time.monotonic()
                if bots_at is None and (_seq(pg, bots) != before or _status(pg, bots) != "running"):
                    bots_at = now - killed
                if clock_at is None and _seq(pg, clocked) > dealt:
                    clock_at = now - started - 1.0
                assert now - killed < BOUND, "the bots or the clock did not go on in time"
                time.sleep(0.05)
            resumed.append(bots_at)
            timeouts.append(clock_at)
            for seat in seats:
                seq = seat.move(rng)
                if seq is None:
                    continue
                moved = time.monotonic()
                # Until the person decides again (the bot has answered) or the end.
                while True:
                    view = seat.refresh()
                    if view["terminal"] or (view["legal"] and view["seq"] >= _seq(pg, seat.game)):
                        break
                    assert time.monotonic() - moved < BOUND, "the bot did not answer in time"
                    time.sleep(0.05)
        for restart in restarts.values():
            restart.join()
        for seat in seats:
            seat.refresh()
        _check(pg, seats, games)
        # The views converge: each process, asked directly, shows every game as stored.
        for i in range(PROCESSES):
            for game_id in games:
                r = httpx.get(f"{cluster.direct(i)}/api/games/{game_id}", timeout=30)
                assert r.json()["seq"] == _seq(pg, game_id)
        assert not [m for s in seats for m in s.shown], "an error was shown to a player"
    finally:
        for seat in seats:
            seat.close()
    print(
        f"\n{KILLS} kills: bots went on within {max(resumed):.2f} s (median "
        f"{sorted(resumed)[len(resumed) // 2]:.2f}), clocks ran out at most "
        f"{max(timeouts):.2f} s late; stated {STATED:g} s; {len(BAD_GATEWAY)} creations "
        "or joins sent again after a 502"
    )


def _status(url: str, game_id: str) -> str:
    """Read from the database: asking a process would load the game there and take its
    lease, and the sweep is what is measured."""
    import sqlalchemy as sa

    with _engine(url).connect() as c:
        query = sa.text("SELECT status FROM games WHERE id = :g")
        return str(c.execute(query, {"g": game_id}).scalar_one())


def test_a_rolling_restart_during_play_shows_players_only_reconnections(
    cluster: Cluster, pg: str
) -> None:
    rng = random.Random(1012)
    base = cluster.base
    games = [_game(base, ["open", "bot:easy"]) for _ in range(4)]
    seats = [Seat(base, g, _seated(base, g, 0)) for g in games]
    try:
        for seat in seats:
            seat.move(rng)
        for i in range(len(cluster.servers)):
            cluster.restart(i)  # SIGTERM, then started again on its port
            for _ in range(3):
                for seat in seats:
                    seat.move(rng)
        for seat in seats:
            seat.refresh()
        _check(pg, seats, games)
        closes = [c for s in seats for c in s.closes]
        reasons = [r for s in seats for r in s.reasons]
        # Each page's socket on a restarted process was closed with 1012, none otherwise.
        assert closes and set(closes) == {1012}, closes
        assert set(reasons) == {"restarting: reconnect"}, reasons
        assert not [m for s in seats for m in s.shown], "an error was shown to a player"
    finally:
        for seat in seats:
            seat.close()


def test_a_lost_lease_connection_stops_and_takes_its_leases_anew(cluster: Cluster, pg: str) -> None:
    """The leases' connection of every process cut (`pg_terminate_backend`): their locks
    free, each process notices, connects again and takes the games anew; the bots' games
    go on within the stated time and no move is written twice."""
    import sqlalchemy as sa

    games = [_game(cluster.base, ["bot:random", "bot:random"]) for _ in range(3)]
    time.sleep(0.5)
    with _engine(pg).connect() as c:
        cut = c.execute(
            sa.text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE application_name = 'tianxia-leases'"
            )
        ).scalar_one()
    assert cut == PROCESSES
    before = {g: _seq(pg, g) for g in games}
    cut_at = time.monotonic()
    for game_id in games:
        while _seq(pg, game_id) == before[game_id] and _status(pg, game_id) == "running":
            assert time.monotonic() - cut_at < BOUND, "the bots did not go on in time"
            time.sleep(0.05)
    # Each process holds its leases on a new connection.
    deadline = time.monotonic() + BOUND
    while True:
        with _engine(pg).connect() as c:
            back = c.execute(
                sa.text(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'tianxia-leases'"
                )
            ).scalar_one()
        if back == PROCESSES:
            break
        assert time.monotonic() < deadline, "the leases' connections did not come back"
        time.sleep(0.1)
    for game_id in games:
        log = _stored(pg, game_id)
        assert [s for s, _ in log] == list(range(1, len(log) + 1))
