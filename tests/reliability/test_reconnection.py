"""Reconnection: seats that play while their connections drop at random, by a clean
close, a reset (the TCP socket closed without a close frame) or half-open (the client
stops reading and says nothing: the server's heartbeat must notice and close it), then
come back with the last seq they saw and send again the action they had no answer for.

After every reconnect the seat's own copy of its view (the last envelope, every event it
kept) hashes to what the server holds for that viewer at that seq (a test route); every
view continues the events the seat holds exactly (no gap, no repeat), except the end,
which sends the whole log again by design."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import struct
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from tianxia.server.testroutes import view_hash

from .harness import TITLES, hooked, new_game, recorded, running, size, unhandled, ws_url

DROPS = 500  # per database: 1,000 in all
GAMES = 10  # played side by side
KINDS = ("clean", "reset", "half-open")
HEARTBEAT = 0.1  # the test server's ping interval and timeout (20 s in production)


@dataclass
class Seat:
    game_id: str
    seat: int
    secret: str
    rng: random.Random
    events: list[dict[str, Any]] = field(default_factory=list)
    pending: dict[str, Any] | None = None
    finished: bool = False
    drops: Counter[str] = field(default_factory=Counter)
    gaps: list[str] = field(default_factory=list)
    checks: int = 0
    away: bool = False  # dropped, and not yet back with a view checked
    returns_checked: int = 0
    mismatches: list[str] = field(default_factory=list)
    unverifiable: int = 0
    noticed: list[float] = field(default_factory=list)  # half-open: seconds to notice
    not_noticed: int = 0

    def absorb(self, msg: dict[str, Any]) -> None:
        """Take in a view's events, judging them against what this seat holds."""
        since, have = msg["since"], len(self.events)
        final = msg["terminal"] and since == 0
        if since != have and not final:
            self.gaps.append(f"{'gap' if since > have else 'repeat'}: held {have}, since {since}")
        self.events[since:] = msg["events"]
        if [e["seq"] for e in self.events] != list(range(1, msg["seq"] + 1)):
            self.gaps.append(f"events not 1..{msg['seq']} after since {since}")
            self.events = self.events[: msg["seq"]]

    async def check(self, http: httpx.AsyncClient, msg: dict[str, Any]) -> None:
        """Compare this seat's copy of its view with the server's, at the view's seq."""
        r = await http.get(
            f"/api/test/games/{self.game_id}/view_hash",
            params={"seat": self.seat, "at": msg["seq"]},
        )
        r.raise_for_status()
        server = r.json()["hash"]
        if server is None:
            self.unverifiable += 1
            return
        self.checks += 1
        if self.away:
            self.away = False
            self.returns_checked += 1
        mine = view_hash(msg["view"], self.events)
        if mine != server:
            self.mismatches.append(f"seat {self.seat} at seq {msg['seq']}")

    async def play(
        self, base: str, http: httpx.AsyncClient, budget: list[int], stop: asyncio.Event
    ) -> None:
        while not self.finished and not stop.is_set():
            with contextlib.suppress(OSError, WebSocketException, TimeoutError):
                await self._connection(base, http, budget, stop)

    async def _connection(
        self, base: str, http: httpx.AsyncClient, budget: list[int], stop: asyncio.Event
    ) -> None:
        async with connect(
            ws_url(base, self.game_id), ping_interval=None, open_timeout=10, close_timeout=1
        ) as ws:
            hello = {"type": "hello", "secret": self.secret, "last_seq": len(self.events)}
            await ws.send(json.dumps(hello))
            if self.pending is not None:
                await ws.send(json.dumps(self.pending))  # the same id: applied once at most
            first = True
            drop_after = self.rng.randint(1, 8)
            seen = 0
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    if self.pending is not None:
                        await ws.send(json.dumps(self.pending))
                    continue
                msg = json.loads(raw)
                seen += 1
                if msg["type"] == "view":
                    self.absorb(msg)
                    if first:
                        await self.check(http, msg)
                        first = False
                    if msg["terminal"]:
                        self.finished = True
                        return
                    if msg["legal"] and self.pending is None:
                        self.pending = {
                            "type": "act",
                            "action_id": uuid.UUID(int=self.rng.getrandbits(128)).hex,
                            "expected_seq": msg["seq"],
                            "action": self.rng.choice(msg["legal"])["action"],
                        }
                        await ws.send(json.dumps(self.pending))
                elif self.pending is not None and msg.get("action_id") == self.pending["action_id"]:
                    self.pending = None
                # A connection drops only once its view was checked, so that every
                # drop is followed by a return whose view is checked in turn.
                if not first and seen >= drop_after and budget[0] > 0:
                    budget[0] -= 1
                    await self._drop(ws, http, self.rng.choice(KINDS))
                    return

    async def _drop(self, ws: ClientConnection, http: httpx.AsyncClient, kind: str) -> None:
        self.drops[kind] += 1
        self.away = True
        transport = ws.transport
        if kind == "clean":
            await ws.close()
            return
        if kind == "half-open":
            # Stop reading, say nothing: only the server's heartbeat can tell.
            transport.pause_reading()
            started = time.monotonic()
            while time.monotonic() - started < 20 * HEARTBEAT + 5:
                r = await http.get(f"/api/test/games/{self.game_id}")
                if r.json()["connections"].get(str(self.seat), 0) == 0:
                    self.noticed.append(time.monotonic() - started)
                    break
                await asyncio.sleep(HEARTBEAT / 4)
            else:
                self.not_noticed += 1
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        transport.abort()


async def _games(base: str, rng: random.Random, drops: int) -> list[Seat]:
    seats: list[Seat] = []
    budget = [drops]
    stop = asyncio.Event()
    titles = list(TITLES)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:

        async def lane(i: int) -> None:
            n = i
            while budget[0] > 0:
                title = titles[n % len(titles)]
                n += GAMES
                gid, secrets = await asyncio.to_thread(new_game, base, title, TITLES[title])
                mine = [
                    Seat(gid, s, secret, random.Random(rng.getrandbits(64)))
                    for s, secret in enumerate(secrets)
                ]
                seats.extend(mine)
                await asyncio.gather(*(s.play(base, http, budget, stop) for s in mine))

        async def watch() -> None:
            # Once every drop is spent, the games in play go on a moment and stop.
            while budget[0] > 0:
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)
            stop.set()

        await asyncio.gather(watch(), *(lane(i) for i in range(GAMES)))
    return seats


def run_reconnection(
    url: str, folder: Path, drops: int, seed: int, lie: str = ""
) -> dict[str, Any]:
    server = hooked(url, folder, tap=False)
    server.args = (*server.args, "--heartbeat", str(HEARTBEAT))
    if lie:
        server.env["TIANXIA_TEST_LIE"] = lie
    with running(server):
        seats = asyncio.run(_games(server.base, random.Random(seed), drops))
        bad = unhandled(server)
    kinds: Counter[str] = Counter()
    for s in seats:
        kinds.update(s.drops)
    noticed = [t for s in seats for t in s.noticed]
    return {
        "drops": sum(kinds.values()),
        "drops_by_kind": dict(kinds),
        "games": len({s.game_id for s in seats}),
        "games_finished": len({s.game_id for s in seats if s.finished}),
        "seats": len(seats),
        "view_checks": sum(s.checks for s in seats),
        "returns_checked": sum(s.returns_checked for s in seats),
        "view_mismatches": sum(len(s.mismatches) for s in seats),
        "unverifiable": sum(s.unverifiable for s in seats),
        "gaps_or_repeats": sum(len(s.gaps) for s in seats),
        "examples": [g for s in seats for g in s.gaps + s.mismatches][:5],
        "heartbeat_seconds": HEARTBEAT,
        "half_open_not_noticed": sum(s.not_noticed for s in seats),
        "half_open_noticed_within_s": round(max(noticed), 2) if noticed else None,
        "unhandled": bad,
    }


def test_a_seat_that_comes_back_sees_what_the_server_holds(
    url: str, backend: str, tmp_path: Path
) -> None:
    report = recorded(
        "reconnection", backend, lambda: run_reconnection(url, tmp_path, size(DROPS), 9)
    )
    assert report["drops"] == size(DROPS), report
    assert set(report["drops_by_kind"]) == set(KINDS), report
    # Every drop is followed by a return whose view is checked, except the last drop of
    # a seat still away when the run stops (at most one a seat).
    assert report["returns_checked"] >= report["drops"] - report["seats"], report
    assert report["view_mismatches"] == 0, report
    assert report["gaps_or_repeats"] == 0, report
    assert report["half_open_not_noticed"] == 0, report
    assert report["unhandled"] == 0, report


def test_the_harness_catches_a_server_that_skips_an_event(
    url: str, backend: str, tmp_path: Path
) -> None:
    """Against a server that answers a returning seat from one event too far on, the
    harness must see gaps and views that differ, or it proves nothing."""
    report = recorded(
        "reconnection-skipping-server",
        backend,
        lambda: run_reconnection(url, tmp_path, 20, 90, lie="skip_an_event"),
    )
    assert report["gaps_or_repeats"] >= 1, report
    assert report["view_mismatches"] >= 1, report
