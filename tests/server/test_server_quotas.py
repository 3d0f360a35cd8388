"""Quotas per client address: games created per minute and held at once, bot games
costing more; over one, 429 with a sentence and Retry-After, and nothing created."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from serving import Server


@pytest.fixture
def quota(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A server on SQLite with the test's `tianxia serve` options (none: the defaults)."""
    srv = Server(f"sqlite:///{tmp_path / 'tianxia.sqlite3'}", tmp_path, *request.param, forked=True)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def _create(server: Server, seats: list[str], address: str | None = None) -> httpx.Response:
    # Believed by a server told to trust loopback (`--trusted-proxy`), as a proxy in
    # front of it on the same host.
    headers = {"x-forwarded-for": address} if address else {}
    body: dict[str, Any] = {"game": "greatwall", "players": len(seats), "seats": seats}
    return httpx.post(f"{server.base}/api/games", json=body, headers=headers)


def _count(server: Server) -> int:
    return len(httpx.get(f"{server.base}/api/games").json())


@pytest.mark.parametrize("quota", [("--trusted-proxy", "127.0.0.1")], indirect=True)
def test_one_address_cannot_create_games_without_end(quota: Server) -> None:
    made = 0
    for _ in range(250):
        r = _create(quota, ["open", "open"])
        if r.status_code == 429:
            break
        assert r.status_code == 201, r.text
        made += 1
    # The default: 60 games a minute, far above what friends make.
    assert made == 60
    assert "in the last minute" in r.json()["detail"]
    assert 1 <= int(r.headers["retry-after"]) <= 60
    assert _count(quota) == 60
    # Another address is not held up by this one's quota.
    assert _create(quota, ["open", "open"], address="192.0.2.7").status_code == 201


@pytest.mark.parametrize("quota", [("--games-per-minute", "2", "--open-games", "0")], indirect=True)
def test_a_client_cannot_name_another_address_unless_the_proxy_is_trusted(quota: Server) -> None:
    # No `--trusted-proxy`: the connection's peer is the client, whatever it claims.
    assert _create(quota, ["open", "open"], address="192.0.2.7").status_code == 201
    assert _create(quota, ["open", "open"], address="192.0.2.8").status_code == 201
    r = _create(quota, ["open", "open"], address="192.0.2.9")
    assert r.status_code == 429 and "worth 2 in the last minute" in r.json()["detail"]
    assert _count(quota) == 2


@pytest.mark.parametrize("quota", [("--open-games", "6", "--games-per-minute", "0")], indirect=True)
def test_games_held_at_once_are_bounded_and_bot_games_cost_more(quota: Server) -> None:
    for _ in range(3):
        assert _create(quota, ["open", "open"]).status_code == 201  # 1 each
    # Two bots alone: (1 + 2) x 2 = 6, over the 3 left.
    r = _create(quota, ["bot:random", "bot:random"])
    assert r.status_code == 429, r.text
    assert "may hold 6 at once" in r.json()["detail"] and r.headers["retry-after"]
    assert _create(quota, ["open", "bot:easy"]).status_code == 201  # 2: 5 held
    assert _create(quota, ["open", "open"]).status_code == 201  # 6 held
    r = _create(quota, ["open", "open"])
    assert r.status_code == 429 and "worth 6 not yet finished" in r.json()["detail"]
    assert _count(quota) == 5


@pytest.mark.parametrize("quota", [("--games-per-minute", "4", "--open-games", "0")], indirect=True)
def test_a_bot_game_spends_more_of_the_minute(quota: Server) -> None:
    assert _create(quota, ["open", "bot:easy"]).status_code == 201  # 2
    assert _create(quota, ["open", "bot:easy"]).status_code == 201  # 4
    r = _create(quota, ["open", "open"])
    assert r.status_code == 429 and "worth 4 in the last minute" in r.json()["detail"]
    assert _count(quota) == 2


def test_the_window_forgets_what_left_it_and_holds_no_stale_address() -> None:
    from tianxia.server.limits import WINDOW, Window

    w = Window(3)
    assert w.take("a", 2, now=0.0) is None
    assert w.take("a", 1, now=10.0) is None
    # Full: the first spend (2) must leave the window for a spend of 2.
    assert w.take("a", 2, now=20.0) == pytest.approx(WINDOW - 20.0)
    assert w.take("a", 2, now=WINDOW + 0.5) is None
    for i in range(100):
        w.take(f"addr{i}", 1, now=100.0)
    w.take("late", 1, now=100.0 + 2 * WINDOW)
    assert set(w.spent) == {"late"}
    assert Window(0).take("a", 10**6) is None


@pytest.mark.parametrize("quota", [("--games-per-minute", "2", "--open-games", "0")], indirect=True)
def test_an_address_over_its_minute_is_refused_before_its_request_is_read(quota: Server) -> None:
    url = f"{quota.base}/api/games"
    junk = {"content": b"not json at all", "headers": {"content-type": "application/json"}}
    # Under the quota, the route reads the body and refuses it for what it is.
    assert httpx.post(url, **junk).status_code == 422  # type: ignore[arg-type]
    assert _create(quota, ["open", "open"]).status_code == 201
    assert _create(quota, ["open", "open"]).status_code == 201
    # Over it, whatever the request says: the refusal comes before the framework reads
    # it (a flood of creations costs the server little), with the same sentence and
    # Retry-After as the route's, and the pages' security headers.
    for r in (httpx.post(url, **junk), _create(quota, ["open", "open"])):  # type: ignore[arg-type]
        assert r.status_code == 429, r.text
        assert "created games worth 2 in the last minute" in r.json()["detail"]
        assert 1 <= int(r.headers["retry-after"]) <= 60
        assert r.headers["x-content-type-options"] == "nosniff"
    assert _count(quota) == 2
