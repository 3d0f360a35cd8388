"""Ratings: every seat is rated, a bot strength is one identity however many seats it holds."""

from __future__ import annotations

import random
import time
from pathlib import Path

import httpx
import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("openskill")

from serving import Server
from tianxia.server.storage import Store, migrate

from .client import Player, create, join, play_to_the_end


def _store(tmp_path: Path) -> Store:
    url = f"sqlite:///{tmp_path / 'ratings.sqlite3'}"
    migrate(url)
    return Store(url)


def test_a_bot_strength_in_two_seats_counts_one_game_at_the_mean_of_its_seats(
    tmp_path: Path,
) -> None:
    store = _store(tmp_path)
    changes = store.rate(
        "china",
        [("anne", "Anne", 1.0), ("bot:easy", "bot (easy)", 0.0), ("bot:easy", "bot (easy)", -1.0)],
    )
    board = {r["player_name"]: r for r in store.leaderboard("china")}
    assert board["Anne"]["games"] == 1 and board["bot (easy)"]["games"] == 1
    assert board["Anne"]["bot"] is None and board["bot (easy)"]["bot"] == "easy"
    # Both seats lost to Anne: the strength's rating went down, Anne's up.
    assert board["bot (easy)"]["mu"] < 25.0 < board["Anne"]["mu"]
    assert set(changes) == {"anne", "bot:easy"}
    assert changes["anne"][0] < changes["anne"][1] == board["Anne"]["rating"]
    assert changes["bot:easy"][0] > changes["bot:easy"][1] == board["bot (easy)"]["rating"]
    store.rate(
        "china",
        [("bot:easy", "bot (easy)", 1.0), ("anne", "Anne", 0.0), ("bot:easy", "bot (easy)", -1.0)],
    )
    board = {r["player_name"]: r for r in store.leaderboard("china")}
    assert board["Anne"]["games"] == 2 and board["bot (easy)"]["games"] == 2


def test_a_quick_china_game_against_two_easy_bots_is_rated(server: Server) -> None:
    g = create(server.base, "china", 3, ["open", "bot:easy", "bot:easy"])
    secret = join(server.base, g["id"], 0, player="anne-browser", name="Anne")
    play_to_the_end([Player(server.base, g["id"], secret)], random.Random(3))
    for _ in range(100):  # the rating is written just after the last view
        if httpx.get(f"{server.base}/api/games/{g['id']}").json()["rating_changes"]:
            break
        time.sleep(0.05)
    board = httpx.get(f"{server.base}/api/leaderboard/china").json()
    names = {r["player_name"]: r for r in board}
    assert set(names) == {"Anne", "bot (easy)"}
    assert names["Anne"]["games"] == 1 and names["bot (easy)"]["games"] == 1
    assert names["bot (easy)"]["bot"] == "easy" and names["Anne"]["bot"] is None
    # The game tells each seat's rating before and after it; the two bots share theirs.
    changes = httpx.get(f"{server.base}/api/games/{g['id']}").json()["rating_changes"]
    assert [c["seat"] for c in changes] == [0, 1, 2]
    assert changes[0]["after"] == names["Anne"]["rating"]
    assert changes[1] | {"seat": 2} == changes[2]
    assert changes[1]["after"] == names["bot (easy)"]["rating"]


def test_a_person_in_two_seats_or_posing_as_a_bot_is_not_rated(server: Server) -> None:
    hotseat = create(server.base, "greatwall", 2, ["open", "open"])
    secrets = [join(server.base, hotseat["id"], s, player="one-browser") for s in (0, 1)]
    play_to_the_end([Player(server.base, hotseat["id"], s) for s in secrets], random.Random(5))
    posing = create(server.base, "greatwall", 2, ["open", "bot:easy"])
    secret = join(server.base, posing["id"], 0, player="bot:easy", name="Mallory")
    play_to_the_end([Player(server.base, posing["id"], secret)], random.Random(6))
    time.sleep(0.3)
    assert httpx.get(f"{server.base}/api/leaderboard/greatwall").json() == []
    for g in (hotseat, posing):
        assert httpx.get(f"{server.base}/api/games/{g['id']}").json()["rating_changes"] is None


def test_the_leaderboard_gives_the_best_first_and_no_more_than_asked(tmp_path: Path) -> None:
    store = _store(tmp_path)
    rng = random.Random(9)
    for _ in range(30):
        a, b = rng.sample(["ann", "ben", "cas", "dee", "eli"], 2)
        store.rate("mandarin", [(a, a.title(), 1.0), (b, b.title(), -1.0)])
    board = store.leaderboard("mandarin")
    assert len(board) == 5
    assert [r["rating"] for r in board] == sorted((r["rating"] for r in board), reverse=True)
    assert store.leaderboard("mandarin", limit=2) == board[:2]


def test_a_leaderboard_longer_than_the_server_gives_is_refused(server: Server) -> None:
    for limit in (0, 501, "many"):
        r = httpx.get(f"{server.base}/api/leaderboard/china", params={"limit": limit})
        assert r.status_code == 422
    assert httpx.get(f"{server.base}/api/leaderboard/china", params={"limit": 500}).json() == []
