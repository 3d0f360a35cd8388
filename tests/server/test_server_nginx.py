"""The shipped nginx configuration (deploy/nginx/tianxia.conf) in front of a real server:
pages, the API and a websocket game pass through it; a half-sent request is cut off
after the header timeout; a body over the server's limit is refused by nginx; and the
server counts its quotas by the address nginx forwards, never by one a client claims."""

from __future__ import annotations

import contextlib
import random
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect
from websockets.typing import Origin

from nginxfront import Nginx, available
from serving import Server

from .client import Player, create, join, play

pytestmark = pytest.mark.skipif(
    not available(), reason="Debian's nginx is missing: `make test` installs it"
)

HEADER_TIMEOUT = 1.0  # seconds, in the test's configuration (10 s shipped)
PER_ADDRESS = 4  # connections one address may hold, in the test's configuration (128 shipped)


@pytest.fixture
def front(tmp_path: Path) -> Iterator[tuple[Server, Nginx]]:
    srv = Server(
        f"sqlite:///{tmp_path / 'tianxia.sqlite3'}",
        tmp_path,
        "--trusted-proxy",
        "127.0.0.1",
        "--games-per-minute",
        "2",
        "--open-games",
        "0",
        forked=True,
    )
    srv.start()
    try:
        proxy = Nginx(
            int(srv.base.rsplit(":", 1)[1]),
            header_timeout=HEADER_TIMEOUT,
            per_address=PER_ADDRESS,
        )
        proxy.start()
        try:
            yield srv, proxy
        finally:
            proxy.stop()
    finally:
        srv.stop()


def test_pages_the_api_and_a_websocket_game_pass_through(front: tuple[Server, Nginx]) -> None:
    _, proxy = front
    base = proxy.base
    page = httpx.get(base + "/?lang=en", timeout=30)
    assert page.status_code == 200 and 'id="new-game"' in page.text
    # The server's headers reach the browser; nginx's version does not.
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["server"] == "nginx"
    assert httpx.get(base + "/static/common.js", timeout=30).status_code == 200
    game = create(base, "greatwall", 2, ["open", "open"])
    assert httpx.get(f"{base}/api/games/{game['id']}", timeout=30).json()["status"] == "open"
    secrets = [join(base, game["id"], seat, name) for seat, name in enumerate(["Ann", "Bo"])]
    # A page of the proxied host opens its websocket: the Origin matches the Host nginx
    # passes on, port included; another site's page is refused through nginx too.
    ws_url = base.replace("http", "ws", 1) + f"/ws/games/{game['id']}"
    with connect(ws_url, origin=Origin(base), open_timeout=10) as ws:
        ws.send('{"type": "hello", "spectator": true}')
        assert '"view"' in ws.recv(timeout=10)
    with pytest.raises(Exception, match="403"):
        connect(ws_url, origin=Origin("http://evil.example"), open_timeout=10)
    players = [Player(base, game["id"], s) for s in secrets]
    try:
        assert play(players, random.Random(5), 3) == 3
        # The moves made through nginx are the server's (chance may have followed).
        seq = players[0].view["seq"]
        assert seq >= 3
        assert httpx.get(f"{base}/api/games/{game['id']}", timeout=30).json()["seq"] >= seq
    finally:
        for p in players:
            p.close()


def test_a_half_sent_request_is_cut_off_after_the_header_timeout(
    front: tuple[Server, Nginx],
) -> None:
    _, proxy = front
    with socket.create_connection(("127.0.0.1", proxy.port), timeout=10) as half:
        half.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        started = time.monotonic()
        # nginx closes it without a word (a 408 it only logs).
        assert half.recv(1024) == b""
        waited = time.monotonic() - started
    assert HEADER_TIMEOUT * 0.8 <= waited < HEADER_TIMEOUT + 5, waited
    # A whole request on a new connection is served as ever.
    assert httpx.get(proxy.base + "/api/games", timeout=30).status_code == 200


def test_a_body_over_the_servers_limit_is_refused_by_nginx(front: tuple[Server, Nginx]) -> None:
    srv, proxy = front
    big = {"game": "greatwall", "players": 2, "pad": "x" * (70 * 1024)}
    r = httpx.post(proxy.base + "/api/games", json=big, timeout=30)
    # nginx's own page (the server answers in JSON), and nothing created.
    assert r.status_code == 413 and "<center>nginx</center>" in r.text
    assert httpx.get(proxy.base + "/api/games", timeout=30).json() == []
    # The server's own limit still holds for a client that reaches it directly.
    assert httpx.post(srv.base + "/api/games", json=big, timeout=30).status_code == 413


def _from(address: str) -> httpx.Client:
    """A client whose connections leave from `address` (another loopback address)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=30)


def test_quotas_count_the_address_nginx_forwards_not_one_a_client_claims(
    front: tuple[Server, Nginx],
) -> None:
    _, proxy = front
    body = {"game": "greatwall", "players": 2, "seats": ["open", "open"]}
    url = proxy.base + "/api/games"
    with _from("127.0.0.2") as one, _from("127.0.0.3") as other:
        # 2 a minute per address: a client naming other addresses gains nothing.
        for claimed in ("192.0.2.1", "192.0.2.2"):
            r = one.post(url, json=body, headers={"x-forwarded-for": claimed})
            assert r.status_code == 201, r.text
        r = one.post(url, json=body, headers={"x-forwarded-for": "192.0.2.3"})
        assert r.status_code == 429 and "in the last minute" in r.json()["detail"]
        # Another address behind the same nginx has its own quota.
        assert other.post(url, json=body).status_code == 201


def test_one_address_holds_a_bounded_number_of_connections(front: tuple[Server, Nginx]) -> None:
    _, proxy = front
    game = create(proxy.base, "greatwall", 2, ["open", "open"])
    ws_url = proxy.base.replace("http", "ws", 1) + f"/ws/games/{game['id']}"
    with contextlib.ExitStack() as held:
        for _ in range(PER_ADDRESS):
            held.enter_context(connect(ws_url, open_timeout=10))
        with pytest.raises(Exception, match="429"):
            connect(ws_url, open_timeout=10)
        # Another address is not held up by this one.
        with _from("127.0.0.4") as other:
            assert other.get(proxy.base + "/api/games").status_code == 200
    # Closed, they count no more.
    deadline = time.monotonic() + 10
    while httpx.get(proxy.base + "/api/games", timeout=30).status_code == 429:
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_a_trusted_proxy_is_an_address_or_a_network(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tianxia.cli.app import app
    from tianxia.cli.main import _load_commands

    _load_commands()
    db = f"sqlite:///{tmp_path / 'tianxia.sqlite3'}"
    out = CliRunner().invoke(app, ["serve", "--database", db, "--trusted-proxy", "nginx"])
    assert out.exit_code == 2
    assert "an address or a network" in out.output and "'nginx'" in out.output
    assert not (tmp_path / "tianxia.sqlite3").exists()  # refused before anything was made
