"""A browser-less client of the server, as a researcher's bot or a test would write it."""

from __future__ import annotations

import json
import random
import time
import uuid
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect


class Player:
    """One websocket to one game, for a seat (its secret) or a spectator."""

    def __init__(self, base: str, game_id: str, secret: str | None = None, last_seq: int = 0):
        self.base = base
        self.game_id = game_id
        self.secret = secret
        # No keepalive pings: tests kill servers under open connections on purpose, and
        # a test reads with its own timeouts.
        self._cm = connect(
            base.replace("http", "ws", 1) + f"/ws/games/{game_id}",
            open_timeout=10,
            ping_interval=None,
        )
        self.ws: ClientConnection = self._cm.__enter__()
        self.view: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []
        self.hello(last_seq)

    def hello(self, last_seq: int = 0) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "hello", "last_seq": last_seq}
        if self.secret is None:
            msg["spectator"] = True
        else:
            msg["secret"] = self.secret
        self.send(msg)
        return self.until("view")

    def send(self, msg: dict[str, Any] | str) -> None:
        self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    def recv(self, timeout: float = 20.0) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if msg["type"] == "view":
            self.view = msg
            del self.events[msg["since"] :]
            self.events.extend(msg["events"])
        return msg

    def until(self, kind: str, timeout: float = 20.0) -> dict[str, Any]:
        while True:
            msg = self.recv(timeout)
            if msg["type"] == kind:
                return msg

    def drain(self, timeout: float = 0.05) -> None:
        """Read whatever has arrived (fresh views after others' moves)."""
        try:
            while True:
                self.recv(timeout)
        except TimeoutError:
            return

    def act(
        self, action: str, action_id: str | None = None, expected: int | None = None
    ) -> dict[str, Any]:
        aid = action_id or uuid.uuid4().hex
        seq = self.view["seq"] if expected is None else expected
        message = {"type": "act", "action_id": aid, "expected_seq": seq, "action": action}
        self.send(message)
        while True:
            msg = self.recv()
            if msg["type"] == "error" and msg["code"] == "rate_limited":
                time.sleep(0.25)  # a polite client backs off and sends again
                self.send(message)
                continue
            if msg["type"] in ("accepted", "refused", "error") and msg.get("action_id", aid) == aid:
                return msg

    def my_turn(self) -> bool:
        return bool(self.view.get("legal"))

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


def create(base: str, game: str, players: int, seats: list[str], **extra: Any) -> dict[str, Any]:
    # A generous timeout: a cold server's first game loads the title's modules, which
    # under a loaded machine has taken more than httpx's default 5 s.
    r = httpx.post(
        f"{base}/api/games",
        json={"game": game, "players": players, "seats": seats, **extra},
        timeout=60,
    )
    r.raise_for_status()
    return dict(r.json())


def join(base: str, game_id: str, seat: int, name: str = "Anne", player: str | None = None) -> str:
    body: dict[str, Any] = {"seat": seat, "name": name}
    if player:
        body["player"] = player
    r = httpx.post(f"{base}/api/games/{game_id}/join", json=body, timeout=60)
    r.raise_for_status()
    return str(r.json()["secret"])


def play_to_the_end(players: list[Player], rng: random.Random, limit: int = 20000) -> int:
    """Each seat picks a random legal action when its view says it decides, until the
    end (an AssertionError if it does not come within `limit` moves)."""
    moves = play(players, rng, limit)
    if not any(p.view.get("terminal") for p in players):
        raise AssertionError("the game did not end")
    return moves


def play(players: list[Player], rng: random.Random, limit: int) -> int:
    """Play up to `limit` accepted moves, or to the end; returns the moves made."""
    moves = 0
    while moves < limit:
        for p in players:
            p.drain(0.002)
        if any(p.view.get("terminal") for p in players):
            return moves
        acted = False
        for p in players:
            if p.my_turn():
                choice = rng.choice(p.view["legal"])["action"]
                reply = p.act(choice)
                assert reply["type"] in ("accepted", "refused"), reply
                if reply["type"] == "accepted":
                    moves += 1
                    while p.view["seq"] < reply["seq"]:
                        p.until("view")
                acted = True
                break
        if not acted:
            # A bot (or chance) is to move: wait until someone's view says otherwise.
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                for p in players:
                    p.drain(0.005)
                if any(p.my_turn() or p.view.get("terminal") for p in players):
                    break
    return moves
