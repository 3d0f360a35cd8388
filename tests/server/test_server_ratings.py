"""Ratings: only accounts and bots are rated, a bot strength is one identity however many
seats it holds; a guest is an unrated opponent; a game a stand-in mostly played is not
rated for its person, one given up before it was played is rated for nobody; the
rigged-rating attack rates nothing."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("openskill")

from serving import Server
from tianxia.server.ratings import OWN_MOVES, STAND_IN_SHARE, ranking
from tianxia.server.storage import Store, migrate

from .client import Player, create, join, play_to_the_end
from .conftest import NO_QUOTAS

PASSWORD = "correct horse battery"


@contextmanager
def account(base: str, name: str) -> Iterator[httpx.Client]:
    """A signed-up account's device (its session cookie and CSRF token)."""
    with httpx.Client(base_url=base, timeout=60) as c:
        r = c.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        c.headers["X-CSRF-Token"] = r.json()["csrf"]
        yield c


def take(c: httpx.Client, game_id: str, seat: int, **extra: Any) -> str:
    """Join `seat` signed in; the seat's secret."""
    r = c.post(f"/api/games/{game_id}/join", json={"seat": seat, **extra})
    assert r.status_code == 200, r.text
    return str(r.json()["secret"])


def summary(base: str, game_id: str) -> dict[str, Any]:
    found: dict[str, Any] = httpx.get(f"{base}/api/games/{game_id}").json()
    return found


def finished(base: str, game_id: str, timeout: float = 120.0) -> dict[str, Any]:
    """The game's summary once it is over (and rated, if it is)."""
    deadline = time.monotonic() + timeout
    while (s := summary(base, game_id))["status"] != "finished":
        assert time.monotonic() < deadline, s
        time.sleep(0.1)
    return s


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
    with account(server.base, "Anne") as anne:
        secret = take(anne, g["id"], 0, player="anne-browser", name="Someone")
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
    with account(server.base, "Olga") as olga:
        secrets = [take(olga, hotseat["id"], s) for s in (0, 1)]
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


# --- who is rated, as whom ------------------------------------------------------------
def _seat(seat: int, kind: str = "human", **extra: Any) -> dict[str, Any]:
    row = {"seat": seat, "kind": kind, "strength": None, "account_id": None, "resigned": False}
    return row | extra


def _marks(plan: list[tuple[int, bool]]) -> dict[int, tuple[int, bool]]:
    """seq -> (seat, by a stand-in), one decision per entry in order."""
    return {seq: mark for seq, mark in enumerate(plan, start=1)}


def test_accounts_and_bots_are_rated_a_guest_is_an_unrated_opponent() -> None:
    seats = [
        _seat(0, account_id="a1"),
        _seat(1),
        _seat(2, "bot", strength="easy"),
    ]
    rated = ranking(seats, [1.0, 0.0, -1.0], _marks([(0, False), (1, False)]), {"a1": "Anne"})
    assert rated is not None
    assert rated.ranked == [
        ("account:a1", "Anne", 1.0),
        ("fixed:1", None, 0.0),
        ("bot:easy", "bot (easy)", -1.0),
    ]
    assert rated.fixed == {"fixed:1"}
    # Guests and bots alone: nobody with an account, nothing rated (not even the bot).
    assert ranking([_seat(0), _seat(1, "bot", strength="easy")], [1.0, -1.0], {}, {}) is None
    # One account in two seats (a hotseat game): not rated.
    twice = [_seat(0, account_id="a1"), _seat(1, account_id="a1")]
    assert ranking(twice, [1.0, -1.0], {}, {"a1": "Anne"}) is None
    # An account deleted since has no name: an opponent like a guest.
    gone = ranking(
        [_seat(0, account_id="a1"), _seat(1, account_id="a2")], [1.0, -1.0], {}, {"a2": "Bea"}
    )
    assert gone is not None and gone.ranked[0] == ("fixed:0", None, 1.0)


def test_a_person_a_stand_in_played_more_than_a_quarter_for_is_not_rated() -> None:
    seats = [_seat(0, account_id="a1"), _seat(1, account_id="a2")]
    names = {"a1": "Anne", "a2": "Bea"}
    # Anne: 3 own decisions, 1 by a stand-in (a quarter: rated); Bea: 2 and 1 (a third).
    marks = _marks([(0, False), (1, False), (0, False), (1, True), (0, False), (1, False)])
    marks[7] = (0, True)
    assert STAND_IN_SHARE == 0.25
    rated = ranking(seats, [1.0, -1.0], marks, names)
    assert rated is not None
    assert rated.ranked == [("account:a1", "Anne", 1.0), ("fixed:1", None, -1.0)]
    # One more stand-in decision for Anne: past the quarter, nobody with an account is
    # rated, so nothing is.
    marks[8] = (0, True)
    assert ranking(seats, [1.0, -1.0], marks, names) is None


def test_a_seat_given_up_before_three_own_decisions_makes_the_game_unrated() -> None:
    names = {"a1": "Anne", "a2": "Bea"}
    seats = [_seat(0, account_id="a1"), _seat(1, account_id="a2", resigned=True)]
    plan = [(0, False), (1, False)] * (OWN_MOVES - 1)
    assert ranking(seats, [0.0, 0.0], _marks(plan), names) is None
    # A guest's seat as well, and one whose decisions a stand-in made.
    guest = [seats[0], _seat(1, resigned=True)]
    assert ranking(guest, [0.0, 0.0], _marks([*plan, (1, True)]), names) is None
    # Given up after its own decisions: rated, and last whatever its return.
    rated = ranking(seats, [-1.0, 1.0], _marks([*plan, (1, False)]), names)
    assert rated is not None
    assert [r for _, _, r in rated.ranked] == [-1.0, -2.0]


def test_a_guest_opponent_is_neither_read_nor_written(tmp_path: Path) -> None:
    store = _store(tmp_path)
    fixed = frozenset({"fixed:1"})
    for _ in range(3):
        changes = store.rate("china", [("account:a1", "Anne", 1.0), ("fixed:1", None, -1.0)], fixed)
        assert set(changes) == {"account:a1"}
    board = store.leaderboard("china")
    assert [(r["player_name"], r["games"]) for r in board] == [("Anne", 3)]


# --- against the server ---------------------------------------------------------------
@pytest.fixture
def quick(tmp_path: Path) -> Iterator[Server]:
    """A server on SQLite whose clocks may be as short as 0.3 s (`--min-clock`): what
    is rated does not depend on the database (the ratings' writes are tested on both)."""
    url = f"sqlite:///{tmp_path / 'tianxia.sqlite3'}"
    srv = Server(url, tmp_path, *NO_QUOTAS, "--min-clock", "0.3", forked=True)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def _board(base: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = httpx.get(f"{base}/api/leaderboard/greatwall").json()
    return found


def test_the_rigged_rating_attack_rates_nothing(quick: Server) -> None:
    base = quick.base
    # A game played in earnest first: the leaderboard the attack would climb.
    with account(base, "Anne") as anne:
        g = create(base, "greatwall", 2, ["open", "bot:random"])
        secret = take(anne, g["id"], 0)
    play_to_the_end([Player(base, g["id"], secret)], random.Random(1))
    assert finished(base, g["id"])["rating_changes"]
    before = _board(base)
    assert {r["player_name"] for r in before} == {"Anne", "bot (random)"}
    # As the issue did it: a clock of a hundredth of a second is refused now.
    r = httpx.post(
        f"{base}/api/games",
        json={"game": "greatwall", "players": 2, "seats": ["open", "open"], "clock": 0.01},
    )
    assert r.status_code == 422 and "at least 0.3 seconds" in r.json()["detail"]
    # The closest an attacker can still come, with the shortest clock allowed. The
    # games run at once (stand-ins think for a fifth of a second a move).
    with account(base, "Mallory") as mallory, account(base, "Throwaway") as throwaway:
        # 1. Both seats left to the clock; the throwaway account resigns at once.
        g1 = create(base, "greatwall", 2, ["open", "open"], clock=0.3)
        take(mallory, g1["id"], 0)
        t1 = take(throwaway, g1["id"], 1)
        resigned = throwaway.post(f"/api/games/{g1['id']}/resign", json={"secret": t1})
        assert resigned.status_code == 200
        # 2. A guest resigns at once; Mallory plays the game out herself.
        g2 = create(base, "greatwall", 2, ["open", "open"], clock=30)
        m2 = take(mallory, g2["id"], 0)
        t2 = join(base, g2["id"], 1, name="Guest")
        assert httpx.post(f"{base}/api/games/{g2['id']}/resign", json={"secret": t2}).is_success
        # 3. The throwaway account lets its clock run out and loses on time.
        g3 = create(base, "greatwall", 2, ["open", "open"], clock=2.0, clock_policy="lose")
        m3 = take(mallory, g3["id"], 0)
        take(throwaway, g3["id"], 1)
        # 4. Mallory leaves her seat to the clock (a stand-in plays it) against a guest.
        g4 = create(base, "greatwall", 2, ["open", "open"], clock=0.3)
        take(mallory, g4["id"], 0)
        t4 = join(base, g4["id"], 1, name="Guest")
        plays = [(g2, m2, 2), (g3, m3, 3), (g4, t4, 4)]
        with ThreadPoolExecutor(len(plays)) as pool:
            done = [
                pool.submit(play_to_the_end, [Player(base, g["id"], secret)], random.Random(n))
                for g, secret, n in plays
            ]
            for f in done:
                f.result()
        for g in (g1, g2, g3, g4):
            assert finished(base, g["id"])["rating_changes"] is None, g["id"]
        assert finished(base, g3["id"])["seats"][1]["resigned"] is True
        assert _board(base) == before


def test_a_client_sent_player_id_renames_and_rates_nobody(server: Server) -> None:
    base = server.base
    with account(base, "Anne") as anne:
        g = create(base, "greatwall", 2, ["open", "bot:random"])
        secret = take(anne, g["id"], 0)
        me = anne.get("/api/me").json()["id"]
    play_to_the_end([Player(base, g["id"], secret)], random.Random(4))
    finished(base, g["id"])
    before = _board(base)
    # A guest joins as the bot's identity, and another as Anne's; both play and win or
    # lose as they may: neither the bot's row nor Anne's changes.
    for n, (player, name) in enumerate([("bot:random", "Mallory"), (f"account:{me}", "Anne")]):
        g = create(base, "greatwall", 2, ["open", "bot:random"])
        secret = join(base, g["id"], 0, name=name, player=player)
        play_to_the_end([Player(base, g["id"], secret)], random.Random(10 + n))
        assert finished(base, g["id"])["rating_changes"] is None
    assert _board(base) == before
    assert "Mallory" not in {r["player_name"] for r in before}


def test_a_seat_lost_on_time_after_playing_is_rated_last(quick: Server) -> None:
    base = quick.base
    g = create(base, "greatwall", 2, ["open", "open"], clock=5.0, clock_policy="lose")
    with account(base, "Anne") as anne, account(base, "Bea") as bea:
        players = [Player(base, g["id"], take(c, g["id"], s)) for s, c in enumerate((anne, bea))]
    # Bea makes her own decisions (OWN_MOVES of them), then lets her clock run out.
    rng = random.Random(6)
    own = 0
    while own < OWN_MOVES:
        for p in players:
            p.drain(0.02)
        for seat, p in enumerate(players):
            if p.my_turn():
                reply = p.act(rng.choice(p.view["legal"])["action"])
                assert reply["type"] == "accepted", reply
                own += seat
    players[1].close()
    play_to_the_end(players[:1], rng)
    s = finished(base, g["id"])
    assert s["seats"][1]["resigned"] is True and s["seats"][0]["resigned"] is False
    changes = {c["seat"]: c for c in s["rating_changes"]}
    assert changes[0]["after"] > changes[0]["before"]
    assert changes[1]["after"] < changes[1]["before"]
    players[0].close()
