"""Two browser-less clients create, join, play to the end, disconnect and resume a game
of every title, bots in the other seats; on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import random

import httpx
import pytest

from tianxia.core import Match

from .client import Player, create, join, play, play_to_the_end
from .conftest import Server

TITLES = [
    ("china", 3, ["open", "open", "bot:random"]),
    ("greatwall", 3, ["open", "bot:random", "open"]),
    ("emperor", 3, ["open", "open", "bot:random"]),
    ("mandarin", 3, ["bot:random", "open", "open"]),
    ("silkroad", 3, ["open", "open", "bot:random"]),
]


# Mandarin's game is the longest by far: it is played in make test-long.
@pytest.mark.parametrize(
    ("game", "players", "seats"),
    [pytest.param(*t, marks=pytest.mark.slow) if t[0] == "mandarin" else t for t in TITLES],
    ids=[t[0] for t in TITLES],
)
def test_two_clients_play_a_whole_game_with_a_bot(
    server: Server, game: str, players: int, seats: list[str]
) -> None:
    base = server.base
    g = create(base, game, players, seats)
    assert g["status"] == "open"
    opens = [i for i, s in enumerate(seats) if s == "open"]
    secrets = [
        join(base, g["id"], seat, name=f"P{seat + 1}", player=f"id-{seat}") for seat in opens
    ]
    clients = [Player(base, g["id"], s) for s in secrets]
    rng = random.Random(7)
    # Half way, both disconnect and come back with the last seq they saw.
    moves = play(clients, rng, 15)
    if not clients[0].view["terminal"]:
        last = [c.view["seq"] for c in clients]
        for c in clients:
            c.close()
        clients = [Player(base, g["id"], s, last_seq=q) for s, q in zip(secrets, last)]
        moves += play_to_the_end(clients, rng)
    for c in clients:
        c.drain(0.3)
    assert all(c.view["terminal"] for c in clients)
    summary = httpx.get(f"{base}/api/games/{g['id']}").json()
    assert summary["status"] == "finished"
    # Every event of the finished game is shown whole, and the log replays to the end.
    log = httpx.get(f"{base}/api/games/{g['id']}/log").json()
    assert "rng" not in log and log["seed"] == 0
    replayed = Match.from_json(log)
    assert replayed.state.is_terminal()
    assert [e["action"] for e in clients[0].events] == log["log"]
    for c in clients:
        c.close()


def test_a_restart_resumes_every_game_from_its_last_committed_action(server: Server) -> None:
    base = server.base
    g = create(base, "greatwall", 2, ["open", "bot:random"])
    secret = join(base, g["id"], 0)
    p = Player(base, g["id"], secret)
    rng = random.Random(3)
    for _ in range(6):
        p.drain()
        if p.my_turn():
            assert p.act(rng.choice(p.view["legal"])["action"])["type"] == "accepted"
        else:
            p.recv(timeout=10)
    p.drain(0.3)
    seen = p.view["seq"]
    events = list(p.events)
    p.close()
    server.restart(kill=True)
    again = Player(server.base, g["id"], secret, last_seq=seen)
    assert again.view["seq"] >= seen
    assert again.view["since"] == seen
    assert events == [e for e in again.events[: len(events)]] or not again.events
    full = Player(server.base, g["id"], secret)
    assert full.events[: len(events)] == events
    again.close()
    full.close()


def test_the_lobby_lists_games_and_refuses_bad_requests(server: Server) -> None:
    base = server.base
    g = create(base, "china", 3, ["open", "bot:easy", "open"])
    assert httpx.get(f"{base}/api/games", params={"status": "open"}).json()[0]["id"] == g["id"]
    secret = join(base, g["id"], 0, player="anne")
    mine = httpx.get(f"{base}/api/games", params={"player": "anne"}).json()
    assert [x["id"] for x in mine] == [g["id"]] and mine[0]["your_seats"] == [0]
    assert httpx.post(f"{base}/api/games/{g['id']}/join", json={"seat": 0}).status_code == 409
    assert httpx.post(f"{base}/api/games/{g['id']}/join", json={"seat": 1}).status_code == 409
    for bad in (
        {"game": "chess", "players": 2},
        {"game": "china", "players": 9},
        {"game": "china", "players": 3, "seats": ["open"]},
        {"game": "china", "players": 3, "seats": ["open", "bot:godlike", "open"]},
        {"game": "china", "players": 3, "options": {"board": "6-7"}},
        {"game": "china", "players": 3, "extra": 1},
    ):
        r = httpx.post(f"{base}/api/games", json=bad)
        assert r.status_code == 422, (bad, r.text)
    assert httpx.get(f"{base}/api/games/nosuchgame").status_code == 404
    # leave before the start gives the seat back
    r = httpx.post(f"{base}/api/games/{g['id']}/leave", json={"secret": secret})
    assert r.status_code == 200
    assert httpx.get(f"{base}/api/games/{g['id']}").json()["seats"][0]["kind"] == "open"
    # nothing secret in the lobby
    text = httpx.get(f"{base}/api/games").text + httpx.get(f"{base}/api/games/{g['id']}").text
    assert "seed" not in text and secret not in text
    # replays and logs open only when the game is over
    assert httpx.get(f"{base}/api/games/{g['id']}/log").status_code == 409
    assert httpx.get(f"{base}/api/games/{g['id']}/replay").status_code == 409
    json.dumps(httpx.get(f"{base}/openapi.json").json())
