"""What a server with test hooks adds over HTTP: the tap on every response body, and
`/api/test/...`, which tells a test the state hash and any viewer's view. Never mounted
unless `TIANXIA_TEST_HOOKS=1` (the routes show every seat's view: they are the
referee's window, not a client's)."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qs

from fastapi import FastAPI, HTTPException, Query
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


def _field(text: str, key: str) -> Any:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data.get(key) if isinstance(data, dict) else None


def add_test_routes(app: FastAPI, hooks: Hooks) -> None:
    if hooks.tap_path is not None:
        app.add_middleware(Tap, hooks=hooks)

    async def live_of(app: FastAPI, game_id: str) -> LiveGame:
        hub: Hub = app.state.hub
        live = await hub.get(game_id) if len(game_id) <= 32 else None
        if live is None:
            raise HTTPException(404, "no such game")
        return live

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
