"""Transport: a websocket from another site's page is refused, and every HTTP response
carries the security headers."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from serving import Server

from .client import create


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
        r = httpx.get(server.base + path, timeout=60)
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["referrer-policy"] == "no-referrer", path
        assert r.headers["x-frame-options"] == "DENY", path
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"], path


def test_one_address_holds_a_bounded_number_of_websockets(tmp_path: Path) -> None:
    srv = Server(
        f"sqlite:///{tmp_path / 'tianxia.sqlite3'}",
        tmp_path,
        "--connections-per-address",
        "3",
        forked=True,
    )
    srv.start()
    try:
        g = create(srv.base, "greatwall", 2, ["open", "open"])
        held = [connect(_ws(srv, g["id"]), open_timeout=10) for _ in range(3)]
        with connect(_ws(srv, g["id"]), open_timeout=10) as extra:
            refused = json.loads(extra.recv(timeout=10))
            assert refused["code"] == "too_many_connections", refused
            with pytest.raises(ConnectionClosed):
                extra.recv(timeout=10)
        held.pop().close()
        time.sleep(0.3)
        with connect(_ws(srv, g["id"]), open_timeout=10) as again:
            again.send('{"type": "hello", "spectator": true}')
            assert '"view"' in again.recv(timeout=10)
        for ws in held:
            ws.close()
    finally:
        srv.stop()
