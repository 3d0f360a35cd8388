"""Bad input of any kind and a database that fails to write get a 4xx or the documented
refusal with a sentence, and change nothing; a damaged SQLite file is refused at start."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from serving import Server

from .client import Player, create, join


@pytest.fixture
def hooked(tmp_path: Path) -> Iterator[Server]:
    """A server on SQLite with the test hooks on (the route that makes writes fail)."""
    srv = Server(
        f"sqlite:///{tmp_path / 'tianxia.sqlite3'}",
        tmp_path,
        "--bot-pause",
        "0.05",
        env={"TIANXIA_TEST_HOOKS": "1"},
        forked=True,
    )
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


BAD_GAMES: list[dict[str, Any]] = [
    {"game": "china", "options": {"players": 3}},
    {"game": "china", "players": 3, "options": {"players": 3}},
    {"game": "china", "options": {"no_such_option": True}},
    {"game": "china", "options": {"fortifications": [1, 2]}},
    {"game": "china", "options": {"fortifications": {"a": 1}}},
    {"game": "greatwall", "players": 99},
    {"game": "greatwall", "players": 2, "seats": ["open"]},
    {"game": "greatwall", "players": 2, "seats": ["open", "bot:grandmaster"]},
]


@pytest.mark.parametrize("body", BAD_GAMES)
def test_a_game_that_cannot_be_made_is_a_4xx_with_a_sentence(
    hooked: Server, body: dict[str, Any]
) -> None:
    r = httpx.post(f"{hooked.base}/api/games", json=body)
    assert 400 <= r.status_code < 500, (body, r.status_code, r.text)
    detail = r.json()["detail"]
    assert isinstance(detail, str | list) and detail
    assert httpx.get(f"{hooked.base}/api/games").json() == []


def test_a_body_over_the_limit_is_413_whether_declared_or_streamed(hooked: Server) -> None:
    big = b'{"game": "greatwall", "options": {"x": "' + b"a" * 200_000 + b'"}}'
    r = httpx.post(
        f"{hooked.base}/api/games", content=big, headers={"content-type": "application/json"}
    )
    assert r.status_code == 413 and "at most 65536 bytes" in r.json()["detail"]

    def chunks() -> Iterator[bytes]:
        for i in range(0, len(big), 8192):
            yield big[i : i + 8192]

    r = httpx.post(
        f"{hooked.base}/api/games", content=chunks(), headers={"content-type": "application/json"}
    )
    assert r.status_code == 413
    assert httpx.get(f"{hooked.base}/api/games").json() == []


def _writes(server: Server, fail: bool) -> None:
    httpx.post(f"{server.base}/api/test/writes", json={"fail": fail}).raise_for_status()


def test_a_failed_write_is_refused_as_unavailable_and_changes_nothing(hooked: Server) -> None:
    g = create(hooked.base, "greatwall", 2, ["open", "open"])
    secrets = [join(hooked.base, g["id"], s) for s in (0, 1)]
    players = [Player(hooked.base, g["id"], s) for s in secrets]
    for p in players:
        p.drain(0.2)
    mover = next(p for p in players if p.my_turn())
    seq = mover.view["seq"]
    action = mover.view["legal"][0]["action"]
    _writes(hooked, True)
    refused = mover.act(action, action_id="a1")
    assert refused["type"] == "refused" and refused["code"] == "unavailable", refused
    assert "nothing changed" in refused["reason"]
    # The socket stays open and the game is where it was.
    state = httpx.get(f"{hooked.base}/api/games/{g['id']}").json()
    assert state["seq"] == seq
    # Create and resign are refused with 503, a sentence and Retry-After, never 500.
    r = httpx.post(f"{hooked.base}/api/games", json={"game": "greatwall", "players": 2})
    assert (
        r.status_code == 503
        and r.headers["retry-after"]
        and "nothing changed" in r.json()["detail"]
    )
    r = httpx.post(f"{hooked.base}/api/games/{g['id']}/resign", json={"secret": secrets[0]})
    assert r.status_code == 503 and "nothing changed" in r.json()["detail"]
    assert httpx.get(f"{hooked.base}/api/games/{g['id']}").json()["seats"][0]["resigned"] is False
    _writes(hooked, False)
    # The same id, sent again once the database writes again, is judged afresh.
    again = mover.act(action, action_id="a1", expected=seq)
    assert again["type"] == "accepted" and again["seq"] == seq + 1, again
    r = httpx.post(f"{hooked.base}/api/games/{g['id']}/resign", json={"secret": secrets[0]})
    assert r.status_code == 200
    assert len(httpx.get(f"{hooked.base}/api/games").json()) == 1
    for p in players:
        p.close()


def test_a_bot_whose_write_fails_tries_again_and_its_game_goes_on(hooked: Server) -> None:
    g = create(hooked.base, "greatwall", 2, ["bot:random", "bot:random"])
    _writes(hooked, True)
    time.sleep(0.3)
    stuck = httpx.get(f"{hooked.base}/api/test/games/{g['id']}").json()["seq"]
    time.sleep(1.0)
    assert httpx.get(f"{hooked.base}/api/test/games/{g['id']}").json()["seq"] == stuck
    _writes(hooked, False)
    deadline = time.monotonic() + 20
    while httpx.get(f"{hooked.base}/api/test/games/{g['id']}").json()["seq"] <= stuck + 2:
        assert time.monotonic() < deadline, "the bots did not move again"
        time.sleep(0.1)
    assert "was not written" in hooked.output()


def test_a_damaged_sqlite_file_is_refused_at_start(tmp_path: Path) -> None:
    path = tmp_path / "tianxia.sqlite3"
    srv = Server(f"sqlite:///{path}", tmp_path, forked=True)
    srv.start()
    for _ in range(20):
        create(srv.base, "greatwall", 2, ["open", "open"])
    srv.stop()
    size = path.stat().st_size
    page = 4096
    assert size >= 3 * page
    with path.open("r+b") as f:
        f.seek(2 * page)  # a b-tree page of a table: its header scribbled over
        f.write(bytes(range(256)) * 4)
    with pytest.raises(RuntimeError, match=r"is damaged|cannot be read"):
        srv.start()
    assert "restore it from a backup" in srv.output()
    # Nothing was written to it.
    assert path.stat().st_size == size
