"""What a server with test hooks adds over HTTP: the tap on every response body, and
`/api/test/...`, which tells a test the state hash and any viewer's view. Never mounted
unless `TIANXIA_TEST_HOOKS=1` (the routes show every seat's view: they are the
referee's window, not a client's)."""

from __future__ import annotations

import hashlib
import json
import os
import re
from typing import Annotated, Any
from urllib.parse import parse_qs

from fastapi import Body, FastAPI, HTTPException, Query
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tianxia.server.live import Hub, LiveGame, state_hash
from tianxia.server.testhooks import Hooks

_GAME_IN_PATH = re.compile(r"/games/([0-9a-zA-Z]{1,32})(?:/|$)")


class Tap:
    """ASGI middleware: each HTTP response body goes through `Hooks.outbound`, as seen
    by the viewer the request names (a replay's `seat`, the seat just joined) or by a
    spectator; a body not about one game is checked against every live game."""

    def __init__(self, app: ASGIApp, hooks: Hooks) -> None:
        self.app = app
        self.hooks = hooks

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or path.startswith("/api/test/"):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []

        async def tapped(message: Message) -> None:
            if message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body"):
                    self._scan(scope, b"".join(chunks))
            await send(message)

        await self.app(scope, receive, tapped)

    def _scan(self, scope: Scope, body: bytes) -> None:
        hub: Hub = scope["app"].state.hub
        text = body.decode("utf-8", errors="replace")
        path = scope.get("path", "")
        query = parse_qs(scope.get("query_string", b"").decode())
        viewer: int | None = None
        m = _GAME_IN_PATH.search(path)
        game_id = m.group(1) if m else None
        if path.endswith("/join"):
            viewer = _field(text, "seat")
        elif "seat" in query and query["seat"][0].isdigit():
            viewer = int(query["seat"][0])
        if game_id is None and path == "/api/games" and scope.get("method") == "POST":
            found = _field(text, "id")
            game_id = str(found) if found is not None else None
        games: list[LiveGame | None]
        if game_id is not None:
            games = [hub.games.get(game_id)]
        else:
            games = list(hub.games.values()) or [None]
        past = path.endswith(("/replay", "/log"))
        for live in games:
            self.hooks.outbound("http", live, viewer, text, finished_only=past)


class Process:
    """ASGI middleware: every HTTP response and websocket handshake says which process
    answered it (`x-tianxia-process: <pid>`), so a test of several processes behind a
    load balancer sees where each request went."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.header = (b"x-tianxia-process", str(os.getpid()).encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def marked(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                message = {**message, "headers": [*message.get("headers", []), self.header]}
            await send(message)

        await self.app(scope, receive, marked)


def _connections(live: LiveGame) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in live.conns:
        key = "spectators" if c.seat is None else str(c.seat)
        out[key] = out.get(key, 0) + 1
    return out


def view_hash(view: Any, events: Any) -> str:
    """SHA-256 of a viewer's envelope and events written canonically: what a client
    that kept every event it was sent can compute from its own copy."""
    text = json.dumps({"view": view, "events": events}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _field(text: str, key: str) -> Any:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data.get(key) if isinstance(data, dict) else None


def add_test_routes(app: FastAPI, hooks: Hooks) -> None:
    app.add_middleware(Process)
    if hooks.tap_path is not None:
        app.add_middleware(Tap, hooks=hooks)

    async def live_of(app: FastAPI, game_id: str) -> LiveGame:
        hub: Hub = app.state.hub
        live = await hub.get(game_id) if len(game_id) <= 32 else None
        if live is None:
            raise HTTPException(404, "no such game")
        return live

    @app.get("/api/test/memory", include_in_schema=False)
    async def test_memory() -> dict[str, Any]:
        """The games this process holds in memory, least recently asked for first."""
        hub: Hub = app.state.hub
        return {"games": list(hub.games)}

    @app.post("/api/test/writes", include_in_schema=False)
    async def test_writes(fail: Annotated[bool, Body(embed=True)]) -> dict[str, Any]:
        """Make every database write fail (a full disk), or work again."""
        hooks.writes_fail = fail
        return {"fail": fail}

    @app.get("/api/test/games/{game_id}", include_in_schema=False)
    async def test_state(game_id: str) -> dict[str, Any]:
        """The game's seq, the hash of its state in memory, and the tap's counts."""
        live = await live_of(app, game_id)
        async with live.lock:
            return {
                "seq": live.table.seq,
                "state_hash": state_hash(live.table.state),
                "status": live.status,
                "to_move": live.table.to_move(),
                "scanned": hooks.scanned,
                "leaks": hooks.leaks,
                # Open connections bound to each seat ("spectators": the others).
                "connections": _connections(live),
            }

    @app.get("/api/test/games/{game_id}/view", include_in_schema=False)
    async def test_view(
        game_id: str, seat: int | None = Query(default=None, ge=0, le=16)
    ) -> dict[str, Any]:
        """What the server holds as `seat`'s view now: its envelope and its events."""
        live = await live_of(app, game_id)
        async with live.lock:
            t = live.table
            return {
                "seq": t.seq,
                "view": t.state.envelope(seat, t.seq),
                "events": t.events_for(seat),
            }

    @app.post("/api/test/games/{game_id}/chance", include_in_schema=False)
    async def test_chance(game_id: str, outcomes: Annotated[list[str], Body()]) -> dict[str, Any]:
        """The chance outcomes (notation) the game's next chance events take, in order."""
        live = await live_of(app, game_id)
        async with live.lock:
            _script_chance(live.table.match, outcomes)
            return {"queued": len(outcomes)}

    @app.get("/api/test/games/{game_id}/view_hash", include_in_schema=False)
    async def test_view_hash(
        game_id: str,
        seat: int | None = Query(default=None, ge=0, le=16),
        at: int | None = Query(default=None, ge=0),
    ) -> dict[str, Any]:
        """The hash of `seat`'s view (envelope and events) as the server would have sent
        it at seq `at` (default: now). A past seq of a finished game has no such view
        (the end shows every event whole): `hash` is null there."""
        live = await live_of(app, game_id)
        async with live.lock:
            t = live.table
            m = t.match
            at = t.seq if at is None else at
            if at > t.seq:
                raise HTTPException(409, f"the game is at seq {t.seq}, not {at}")
            if at == t.seq:
                return {
                    "seq": at,
                    "hash": view_hash(t.state.envelope(seat, at), t.events_for(seat)),
                }
            if t.state.is_terminal():
                return {"seq": at, "hash": None}
            events = [
                m.event(i).to_json(i + 1, _decider(m, i), str(m.log[i]), seat) for i in range(at)
            ]
            return {"seq": at, "hash": view_hash(m.history[at].envelope(seat, at), events)}


def _decider(m: Any, i: int) -> int | None:
    from tianxia.core import CHANCE

    who = m.seat_of(i)
    return None if who == CHANCE else int(who)


def _script_chance(match: Any, outcomes: list[str]) -> None:
    """From now on `match` resolves chance with `outcomes` (notation) in order, then
    from its stream again: the non-interference harness decides what chance deals."""
    from tianxia.core import CHANCE
    from tianxia.core.match import sample_chance

    queue = list(outcomes)

    def resolve() -> list[Any]:
        drawn = []
        while match.state.current_player() == CHANCE:
            if queue:
                a = match.state.check(match.state.to_action(queue.pop(0)))
            else:
                a = sample_chance(match.state, match.rng)
            match.play(a)
            drawn.append(a)
        return drawn

    match.resolve_chance = resolve
