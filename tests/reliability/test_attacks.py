"""One anonymous client attacks a server that runs with its default limits, while a
normal player plays on: every attack reports the server's resident memory before, at
its peak and after, the player's move times during the attack against the same
player's baseline in the same run, and what the attacker was answered.

The attacks are the ones that once made the server unusable (docs/reliability.md,
"Abuse by one client"): a flood of open games with the lobby polled, a flood of
all-bot games, hard bots to monopolise the bot pool, half-sent requests, big bodies,
spectators sending `act`, and look-ups of unknown game ids. Each runs in a process of
its own (`Attacker`), as another machine's client would, on a fresh server
for `ATTACK_SECONDS` (times the scale), on SQLite and on PostgreSQL. `make test` runs
every attack on SQLite and, to keep its time, only the game flood (the attack that asks
the most of the database) on PostgreSQL; `make test-long` runs all seven on both.
"""

from __future__ import annotations

import json
import multiprocessing
import random
import socket
import threading
import time
import traceback
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus, WebSocketException
from websockets.sync.client import connect

from serving import Server

from .harness import SCALE, recorded, rss_kib, size, unhandled, ws_url

ATTACK_SECONDS = 4.0 * SCALE
# The target for a normal player's move during an attack: p99 under 250 ms and
# at most 3 times the baseline p99. On the shared 2-core CI machine the attacker, the
# server and the player share two cores with other work, and a p99 of 60-odd moves is
# nearly their maximum: the asserted bound is the looser one below, the real figures
# are published (docs/reliability.md).
TARGET_P99_MS = 250
TARGET_RATIO = 3.0
CI_P99_MS = 3000
# Resident memory an attack may add at its peak (KiB), and what may stay after it.
PEAK_GROWTH_KIB = 150 * 1024
KEPT_GROWTH_KIB = 100 * 1024

# Games the player has ready, made before the attack: a two-seat Mandarin game lasts
# some 600 moves, and at ten times the player makes about 1,500.
PLAYER_GAMES = 2 + round(SCALE / 2)

Attack = Callable[[str, threading.Event, Counter[str]], None]


class NormalPlayer:
    """Both seats of two-player Mandarin games, moving at random, one move at a time:
    each move timed from sending `act` to its `accepted`."""

    def __init__(self, base: str, rng: random.Random) -> None:
        from server.client import Player, create, join

        self.rng = rng
        # Made before any attack: the games a person already plays (the attacker shares
        # the loopback address, so over its quota no new game could be made for them).
        self.games: list[list[Player]] = []
        for _ in range(PLAYER_GAMES):
            g = create(base, "mandarin", 2, ["open", "open"])
            secrets = [join(base, g["id"], s) for s in (0, 1)]
            self.games.append([Player(base, g["id"], secret) for secret in secrets])
        self.seats = self.games.pop(0)

    def move(self) -> float:
        """One move of the seat to decide; seconds to its `accepted`."""
        seats = self.seats
        if any(p.view.get("terminal") for p in seats):
            for p in seats:
                p.close()
            self.seats = seats = self.games.pop(0)
        while not any(p.my_turn() for p in seats):
            for p in seats:
                p.drain(0.01)
        mover = next(p for p in seats if p.my_turn())
        choice = self.rng.choice(mover.view["legal"])["action"]
        sent = time.perf_counter()
        reply = mover.act(choice)
        took = time.perf_counter() - sent
        assert reply["type"] == "accepted", reply
        for p in seats:
            while p.view["seq"] < reply["seq"]:
                p.until("view", timeout=60)
        return took

    def moves(self, count: int, until: threading.Event | None = None) -> list[float]:
        """At least `count` moves, 10 ms apart, and on until `until` is set."""
        out: list[float] = []
        while len(out) < count or (until is not None and not until.is_set()):
            out.append(self.move())
            time.sleep(0.01)
        return out

    def close(self) -> None:
        for p in [*self.seats, *(q for g in self.games for q in g)]:
            p.close()


def _ms(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return round(1000 * s[min(len(s) - 1, int(q * len(s)))], 1)


class _Peak:
    """The server's resident memory sampled every 50 ms; its maximum."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = rss_kib(pid)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            self.peak = max(self.peak, rss_kib(self.pid))

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak


# --- the attacks -----------------------------------------------------------------------


def _status(counts: Counter[str], r: httpx.Response) -> None:
    counts[str(r.status_code)] += 1


def game_flood(base: str, stop: threading.Event, counts: Counter[str]) -> None:
    """Open games as fast as four connections of one client can ask, while four pollers
    read the lobby."""

    def poll() -> None:
        with httpx.Client(timeout=30) as c:
            while not stop.is_set():
                r = c.get(f"{base}/api/games?status=open")
                counts[f"lobby {r.status_code}"] += 1

    def create() -> None:
        with httpx.Client(timeout=30) as c:
            while not stop.is_set():
                body = {"game": "greatwall", "players": 2, "seats": ["open", "open"]}
                _status(counts, c.post(f"{base}/api/games", json=body))

    threads = [threading.Thread(target=f) for f in [poll] * 4 + [create] * 4]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def _bot_flood(seats: list[str], game: str) -> Attack:
    def attack(base: str, stop: threading.Event, counts: Counter[str]) -> None:
        with httpx.Client(timeout=30) as c:
            while not stop.is_set():
                body = {"game": game, "players": len(seats), "seats": seats}
                _status(counts, c.post(f"{base}/api/games", json=body))
                time.sleep(0.01)

    return attack


all_bot_flood = _bot_flood(["bot:easy", "bot:easy"], "mandarin")
bot_pool_monopoly = _bot_flood(["bot:hard"] * 4, "china")


def half_sent_requests(base: str, stop: threading.Event, counts: Counter[str]) -> None:
    """Requests whose headers never end, held open for the whole attack."""
    host, port = base.removeprefix("http://").split(":")
    held: list[socket.socket] = []
    try:
        for _ in range(size(200)):
            s = socket.create_connection((host, int(port)), timeout=5)
            s.sendall(b"GET /api/games HTTP/1.1\r\nHost: " + host.encode() + b"\r\nX-Wait: ")
            held.append(s)
        counts["sent"] = len(held)
        stop.wait()
        for s in held:
            s.setblocking(False)
            try:
                counts["closed by the server" if s.recv(1) == b"" else "answered"] += 1
            except BlockingIOError:
                counts["still held"] += 1
            except OSError:
                counts["reset by the server"] += 1
    finally:
        for s in held:
            s.close()


def big_bodies(base: str, stop: threading.Event, counts: Counter[str]) -> None:
    """200 MB bodies, declared and chunked, one after another."""
    chunk = b"x" * 65536
    total = 200 * 2**20

    def body() -> Iterator[bytes]:
        for _ in range(total // len(chunk)):
            yield chunk

    with httpx.Client(timeout=30) as c:
        n = 0
        while not stop.is_set() and n < size(8):
            declared = n % 2 == 0
            headers = {"Content-Type": "application/json"}
            if declared:
                headers["Content-Length"] = str(total)
            kind = "declared" if declared else "chunked"
            try:
                r = c.post(f"{base}/api/games", content=body(), headers=headers)
                counts[f"{kind} {r.status_code}"] += 1
            except httpx.TransportError:
                counts[f"{kind} closed while sending"] += 1
            n += 1
        stop.wait()


def spectator_acts(base: str, stop: threading.Event, counts: Counter[str], game: str) -> None:
    """Twenty spectators of the player's own game send `act`s with fresh ids, each just
    under the rate limit."""
    from server.client import Player

    lock = threading.Lock()

    def spectator() -> None:
        p = Player(base, game)
        try:
            while not stop.is_set():
                seq = p.view.get("seq", 0)
                aid = uuid.uuid4().hex
                p.send({"type": "act", "action_id": aid, "expected_seq": seq, "action": "pass"})
                try:
                    while True:
                        msg = p.recv(timeout=5)
                        if msg.get("action_id") == aid or msg["type"] == "error":
                            break
                except TimeoutError:
                    msg = {"type": "no answer"}
                with lock:
                    counts[f"{msg['type']} {msg.get('code', msg.get('reason', ''))}".strip()] += 1
                time.sleep(0.04)
        finally:
            p.close()

    threads = [threading.Thread(target=spectator) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def unknown_ids(base: str, stop: threading.Event, counts: Counter[str]) -> None:
    """Pages, replays and websockets of game ids that do not exist."""

    def pages() -> None:
        with httpx.Client(timeout=30) as c:
            while not stop.is_set():
                gid = uuid.uuid4().hex
                for path in (f"/api/games/{gid}", f"/api/games/{gid}/replay"):
                    _status(counts, c.get(base + path))

    def sockets() -> None:
        while not stop.is_set():
            try:
                with connect(ws_url(base, uuid.uuid4().hex), open_timeout=10) as ws:
                    ws.send(json.dumps({"type": "hello", "spectator": True}))
                    msg = json.loads(ws.recv(timeout=10))
                    counts[f"ws {msg['type']} {msg.get('code', '')}".strip()] += 1
            except InvalidStatus as e:
                counts[f"ws {e.response.status_code}"] += 1
            except (WebSocketException, TimeoutError, OSError):
                counts["ws closed"] += 1

    threads = [threading.Thread(target=pages), threading.Thread(target=sockets)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def busy_neighbour(base: str, stop: threading.Event, counts: Counter[str]) -> None:
    """Not an attack but its control: a process that only computes and sends nothing,
    as an attacker's process takes a core of the two the player and the server share.
    What the player's moves lose to it is the machine's, not the server's: the floor
    under every attack's figures when the attacker runs on the same machine."""
    spins = 0
    while not stop.is_set():
        for _ in range(10_000):
            spins += 1
    counts["requests"] = 0


ATTACKS: dict[str, Attack | None] = {
    "game_flood": game_flood,
    "all_bot_flood": all_bot_flood,
    "bot_pool_monopoly": bot_pool_monopoly,
    "half_sent_requests": half_sent_requests,
    "big_bodies": big_bodies,
    "spectator_acts": None,  # on the player's own game: bound in the test
    "unknown_ids": unknown_ids,
    "busy_neighbour": busy_neighbour,
}

# Controls, not attacks: measured at larger scales only (make test-long).
CONTROLS = {"busy_neighbour"}


# The attacks run on PostgreSQL in `make test` (CI size); all of them at larger scales.
POSTGRES_IN_CI = {"game_flood"}


class Attacker:
    """The attack in a process of its own, started at once (forked), as a client on
    another machine would be: its work shares no interpreter lock with the player
    whose moves are timed, so what the player waits for is the server, not the
    attacker's own threads in the player's process."""

    def __init__(self, attack: Attack, base: str) -> None:
        ctx = multiprocessing.get_context("fork")
        self.stop = ctx.Event()
        self._answers, sent = ctx.Pipe(duplex=False)
        self._process = ctx.Process(
            target=_attacking, args=(attack, base, self.stop, sent), daemon=True
        )
        self._process.start()
        sent.close()

    def answered(self, timeout: float) -> Counter[str]:
        """What the attacker was answered, once it has stopped (after `stop`).

        Raises:
            AssertionError: it did not stop within `timeout` s, or it failed (with its
                traceback).
        """
        try:
            if not self._answers.poll(timeout):
                raise AssertionError("the attacker did not stop")
            failed, counts = self._answers.recv()
        finally:
            self._process.join(5)
            if self._process.is_alive():
                self._process.kill()
        assert failed is None, f"the attacker failed:\n{failed}"
        return Counter(counts)


def _attacking(attack: Attack, base: str, halt: Any, sent: Connection) -> None:
    # The attacks wait on a thread's event: set when the parent says stop.
    stop = threading.Event()

    def relay() -> None:
        halt.wait()
        stop.set()

    threading.Thread(target=relay, daemon=True).start()
    counts: Counter[str] = Counter()
    failed = None
    try:
        attack(base, stop, counts)
    except BaseException:  # reported by the test, not lost in the process
        failed = traceback.format_exc()
    sent.send((failed, dict(counts)))
    sent.close()


def _run(name: str, url: str, folder: Path) -> dict[str, Any]:
    srv = Server(url, folder, forked=True)
    srv.start()
    try:
        player = NormalPlayer(srv.base, random.Random(11))
        try:
            player.moves(5)  # warm: every code path of a move run once
            baseline = player.moves(30)
            before = rss_kib(srv.pid)
            peak = _Peak(srv.pid)
            counts: Counter[str] = Counter()
            stop = threading.Event()
            attack = ATTACKS[name]
            if attack is None:
                game = player.seats[0].game_id
                attack = lambda b, s, c: spectator_acts(b, s, c, game)  # noqa: E731
            attacker = Attacker(attack, srv.base)

            def ended() -> None:
                stop.set()
                attacker.stop.set()

            ends = threading.Timer(ATTACK_SECONDS, ended)
            ends.start()
            started = time.monotonic()
            during = player.moves(30, until=stop)
            counts.update(attacker.answered(timeout=120))
            attacked = time.monotonic() - started
            top = peak.stop()
            # Let finished games and closed connections leave, then measure what stayed.
            time.sleep(1.5)
            after = rss_kib(srv.pid)
            lobby = httpx.get(f"{srv.base}/api/games?status=open&limit=1", timeout=30)
            settled = player.moves(10)
        finally:
            player.close()
        traces = unhandled(srv)
    finally:
        srv.stop()
    return {
        "attack": name,
        "attack_seconds": round(attacked, 1),
        "rss_kib_before": before,
        "rss_kib_peak": top,
        "rss_kib_after": after,
        "baseline_moves": len(baseline),
        "baseline_p50_ms": _ms(baseline, 0.5),
        "baseline_p99_ms": _ms(baseline, 0.99),
        "attack_moves": len(during),
        "attack_p50_ms": _ms(during, 0.5),
        "attack_p99_ms": _ms(during, 0.99),
        "after_p99_ms": _ms(settled, 0.99),
        "target_met": _ms(during, 0.99) < TARGET_P99_MS
        and _ms(during, 0.99) <= TARGET_RATIO * _ms(baseline, 0.99),
        "answered": dict(sorted(counts.items())),
        "lobby_after": lobby.status_code,
        "unhandled": traces,
    }


@pytest.mark.parametrize("name", list(ATTACKS))
def test_an_attack_by_one_client_leaves_the_server_usable(
    name: str, backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if backend == "postgresql" and SCALE <= 1 and name not in POSTGRES_IN_CI:
        pytest.skip("on PostgreSQL at larger scales only (make test-long)")
    if name in CONTROLS and SCALE <= 1:
        pytest.skip("a control, measured at larger scales only (make test-long)")
    url: str = request.getfixturevalue("url")
    f = recorded(f"attack_{name}", backend, lambda: _run(name, url, tmp_path))
    assert f["unhandled"] == 0, f
    assert f["lobby_after"] == 200, f
    # Memory: bounded during the attack, and what it added does not stay.
    assert f["rss_kib_peak"] - f["rss_kib_before"] < PEAK_GROWTH_KIB, f
    assert f["rss_kib_after"] - f["rss_kib_before"] < KEPT_GROWTH_KIB, f
    # The player's moves: the target is published; CI asserts a looser bound.
    assert f["attack_p99_ms"] < max(CI_P99_MS, TARGET_RATIO * f["baseline_p99_ms"]), f
    assert f["attack_p50_ms"] < max(250.0, TARGET_RATIO * f["baseline_p50_ms"]), f
    answered: dict[str, int] = f["answered"]
    # The quota of games one address creates a minute (default 60), at cost 1 a game of
    # people, 6 a game of two bots alone, 10 of four: beyond it, 429. The player's games
    # came from the same address first.
    quota = {"game_flood": 1, "all_bot_flood": 6, "bot_pool_monopoly": 10}
    if name in quota:
        created, refused = answered.get("201", 0), answered.get("429", 0)
        cost = quota[name]
        assert PLAYER_GAMES + created * cost <= 60, answered
        # Refused only over the quota; the bot floods reach it within the attack (the
        # game flood does where the server creates more than 15 games a second).
        assert refused == 0 or PLAYER_GAMES + (created + 1) * cost > 60, answered
        assert refused > 0 or name == "game_flood", answered
        assert set(answered) <= {"201", "429", "lobby 200"}, answered
    if name == "spectator_acts":
        assert answered.get("refused no_seat", 0) > 0, answered
        assert not any(k.startswith("accepted") for k in answered), answered
    if name == "big_bodies":
        assert all(k.endswith("413") or "closed" in k for k in answered), answered
        assert any(k.endswith("413") for k in answered), answered
    if name == "unknown_ids":
        # A websocket of an unknown game is told so and closed (or, opened under load,
        # closed before its answer is read).
        assert set(answered) <= {"404", "ws error no_such_game", "ws closed"}, answered
        assert answered.get("404", 0) > 0 and answered.get("ws error no_such_game", 0) > 0
    if name == "half_sent_requests":
        assert answered["sent"] == size(200), answered
