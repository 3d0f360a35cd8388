"""Transport: a websocket from another site's page is refused, and every HTTP response
carries the security headers."""

from __future__ import annotations

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from .client import create
from .conftest import Server


def _ws(server: Server, game_id: str) -> str:
    return server.base.replace("http", "ws", 1) + f"/ws/games/{game_id}"


def test_a_websocket_from_another_sites_page_is_refused(server: Server) -> None:
    g = create(server.base, "greatwall", 2, ["open", "open"])
    with pytest.raises(InvalidStatus) as refused:
        connect(_ws(server, g["id"]), origin=Origin("http://evil.example"), open_timeout=10)
    assert refused.value.response.status_code == 403
    # The served host's own page, and a client that is no page (no Origin), connect.
    for origin in (Origin(server.base), None):
        with connect(_ws(server, g["id"]), origin=origin, open_timeout=10) as ws:
            ws.send('{"type": "hello", "spectator": true}')
            assert '"view"' in ws.recv(timeout=10)


def test_every_response_carries_the_security_headers(server: Server) -> None:
    for path in ("/", "/api/games", "/api/games/nosuchgame", "/openapi.json"):
        r = httpx.get(server.base + path)
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["referrer-policy"] == "no-referrer", path
        assert r.headers["x-frame-options"] == "DENY", path
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"], path
