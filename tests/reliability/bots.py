"""Bot clients over real websockets that outlive the server: each seat keeps what it
was told (last seq, its acknowledged actions, the action it still waits on) across
connections, and after a reconnect says hello with its last seq and sends again the
action it has no answer for, with the same id."""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from .harness import ws_url

RATE_PAUSE = 0.3  # a polite client's back-off after `rate_limited`


@dataclass
class BotSeat:
    game: str
    game_id: str
    secret: str
    rng: random.Random
    last_seq: int = 0
    pending: dict[str, Any] | None = None
    sent_at: float = 0.0
    acked: list[tuple[str, int, str]] = field(default_factory=list)  # (id, seq, hash)
    refused: dict[str, str] = field(default_factory=dict)  # id -> code
    sent: set[str] = field(default_factory=set)
    finished: bool = False
    connections: int = 0
    # Spies' seats: take back some of their own actions, and now and then think so
    # long that the move clock hands the seat to a bot.
    undo_rate: float = 0.0
    slow_rate: float = 0.0
    undone: int = 0

    async def session(self, base: str, stop: asyncio.Event) -> None:
        """One connection's life: until the game ends, the socket dies or `stop`."""
        try:
            async with connect(
                ws_url(base, self.game_id), ping_interval=None, open_timeout=5, close_timeout=1
            ) as ws:
                self.connections += 1
                hello = {"type": "hello", "secret": self.secret, "last_seq": self.last_seq}
                await ws.send(json.dumps(hello))
                if self.pending is not None:
                    await self._send(ws, self.pending)
                known = 0  # the hello view is the truth, even behind what we saw
                view: dict[str, Any] | None = None
                while not stop.is_set():
                    try:
                        raw = await asyncio.wait_for(ws.recv(), 0.5)
                    except TimeoutError:
                        if self.pending is not None and time.monotonic() - self.sent_at > 5:
                            await self._send(ws, self.pending)
                        continue
                    msg = json.loads(raw)
                    kind = msg["type"]
                    if kind == "view":
                        view = msg
                        self.last_seq = msg["seq"]
                        if msg["terminal"]:
                            self.finished = True
                            return
                    elif kind == "accepted" and self._answers(msg):
                        self.acked.append((msg["action_id"], msg["seq"], msg["state_hash"]))
                        known = max(known, msg["seq"])
                        self.pending = None
                        if self.rng.random() < self.undo_rate:
                            self.pending = {
                                "type": "undo",
                                "action_id": uuid.UUID(int=self.rng.getrandbits(128)).hex,
                                "expected_seq": msg["seq"],
                            }
                            await self._send(ws, self.pending)
                    elif kind == "undone" and self._answers(msg):
                        self.undone += 1
                        known = msg["seq"]
                        self.pending = None
                    elif kind == "refused" and self._answers(msg):
                        self.refused[msg["action_id"]] = msg["code"]
                        self.pending = None
                    elif kind == "error" and msg["code"] == "rate_limited":
                        await asyncio.sleep(RATE_PAUSE)
                        if self.pending is not None:
                            await self._send(ws, self.pending)
                    if (
                        self.pending is None
                        and view is not None
                        and view["legal"]
                        and view["seq"] >= known
                    ):
                        if self.rng.random() < self.slow_rate:
                            await asyncio.sleep(0.6)
                            continue  # the view may be old now: act on the next one
                        action = self.rng.choice(view["legal"])["action"]
                        self.pending = {
                            "type": "act",
                            "action_id": uuid.UUID(int=self.rng.getrandbits(128)).hex,
                            "expected_seq": view["seq"],
                            "action": action,
                        }
                        self.sent.add(self.pending["action_id"])
                        await self._send(ws, self.pending)
        except (OSError, WebSocketException, TimeoutError):
            return

    def _answers(self, msg: dict[str, Any]) -> bool:
        return self.pending is not None and msg["action_id"] == self.pending["action_id"]

    async def _send(self, ws: Any, msg: dict[str, Any]) -> None:
        self.sent_at = time.monotonic()
        await ws.send(json.dumps(msg))

    async def play(self, base: str, stop: asyncio.Event) -> None:
        """Connect again and again (the server may be down a while) until the end."""
        while not self.finished and not stop.is_set():
            await self.session(base, stop)
            if not self.finished and not stop.is_set():
                await asyncio.sleep(0.05)


class Conn:
    """One websocket bound by hello; a reader files every message as it comes: the
    latest view, and the answers to each action id in order."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.view: dict[str, Any] = {}
        self.answers: dict[str, list[dict[str, Any]]] = {}
        # The answers' frames as they came, byte for byte (the duplicates compare them).
        self.raw: dict[str, list[str]] = {}
        # Every frame as it came, when a harness asks for them (set to a list).
        self.frames: list[str] | None = None
        # The server's rate limit (30 messages/s, a burst of 60), kept on this side so
        # a harness that sends fast is never told to slow down.
        self.tokens = 50.0
        self.stamp = time.monotonic()
        self.errors: list[dict[str, Any]] = []
        self.got = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, base: str, game_id: str, secret: str | None, last_seq: int = 0) -> Conn:
        ws = await connect(
            ws_url(base, game_id), ping_interval=None, open_timeout=10, close_timeout=1
        )
        conn = cls(ws)
        hello: dict[str, Any] = {"type": "hello", "last_seq": last_seq}
        if secret is None:
            hello["spectator"] = True
        else:
            hello["secret"] = secret
        await conn.send(hello)
        await conn.wait(lambda: bool(conn.view))
        return conn

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                msg = json.loads(raw)
                if self.frames is not None:
                    self.frames.append(raw)
                if msg["type"] == "view":
                    self.view = msg
                elif "action_id" in msg:
                    self.answers.setdefault(msg["action_id"], []).append(msg)
                    self.raw.setdefault(msg["action_id"], []).append(raw)
                elif msg["type"] == "error":
                    self.errors.append(msg)
                self.got.set()
        except WebSocketException:
            pass
        finally:
            self.got.set()

    async def send(self, msg: dict[str, Any] | str) -> None:
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def paced(self, msg: dict[str, Any]) -> None:
        """Send within the server's rate limit (25 a second here, under its 30)."""
        while True:
            now = time.monotonic()
            self.tokens = min(50.0, self.tokens + (now - self.stamp) * 25.0)
            self.stamp = now
            if self.tokens >= 1.0:
                self.tokens -= 1.0
                break
            await asyncio.sleep((1.0 - self.tokens) / 25.0)
        await self.send(msg)

    def abort(self) -> None:
        """Drop the TCP connection without a close frame: a reset (SO_LINGER 0)."""
        import socket
        import struct

        transport = self.ws.transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        transport.abort()

    async def wait(self, ready: Any, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            self.got.clear()  # nothing arrives between here and the check: no await
            if ready():
                return
            if self.reader.done():
                raise ConnectionError("the socket closed")
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer in time")
            try:
                await asyncio.wait_for(self.got.wait(), left)
            except TimeoutError:
                continue

    async def answers_to(self, action_id: str, count: int = 1) -> list[dict[str, Any]]:
        await self.wait(lambda: len(self.answers.get(action_id, [])) >= count)
        return self.answers[action_id][:count]

    async def close(self) -> None:
        await self.ws.close()
        await self.reader
