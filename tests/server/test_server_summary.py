"""The end of a game as the server tells it: each seat's rating change, kept with the
game so a restart shows it again; and bots of one strength named apart."""

from __future__ import annotations

import html
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("openskill")

from serving import Server
from tianxia.web.i18n import gettext_for

from .client import Player, create, join, play_to_the_end


def _browser_view(base: str, game_id: str, secret: str | None, lang: str) -> dict[str, Any]:
    """The view a browser gets (boards, panels, summary) in `lang`."""
    p = Player(base, game_id, secret)
    try:
        hello: dict[str, Any] = {"type": "hello", "last_seq": 0, "board": True, "lang": lang}
        if secret is None:
            hello["spectator"] = True
        else:
            hello["secret"] = secret
        p.send(hello)
        return p.until("view")
    finally:
        p.close()


def _anne(base: str, game_id: str, seat: int) -> str:
    """Anne, signed up, takes `seat` (ratings are accounts'); the seat's secret."""
    with httpx.Client(base_url=base, timeout=60) as c:
        r = c.post("/api/accounts", json={"name": "Anne", "password": "correct horse battery"})
        if r.status_code == 409:  # signed up by an earlier game of the test
            r = c.post("/api/session", json={"name": "Anne", "password": "correct horse battery"})
        c.headers["X-CSRF-Token"] = r.json()["csrf"]
        return str(c.post(f"/api/games/{game_id}/join", json={"seat": seat}).json()["secret"])


def _rated(base: str, game_id: str) -> list[dict[str, Any]]:
    for _ in range(100):  # written just after the last move's view
        changes: list[dict[str, Any]] | None = httpx.get(f"{base}/api/games/{game_id}").json()[
            "rating_changes"
        ]
        if changes:
            return changes
        time.sleep(0.05)
    raise AssertionError("the game was not rated")


def test_rating_changes_are_kept_with_the_game_and_shown_after_a_restart(
    server: Server,
) -> None:
    g = create(server.base, "greatwall", 3, ["open", "bot:random", "bot:random"])
    secret = _anne(server.base, g["id"], 0)
    play_to_the_end([Player(server.base, g["id"], secret)], random.Random(11))
    changes = _rated(server.base, g["id"])
    assert [c["seat"] for c in changes] == [0, 1, 2]
    # The two random bots are one identity: one change, told for each of its seats.
    assert changes[1] | {"seat": 2} == changes[2]
    assert all(c["before"] != c["after"] for c in changes)
    # The browser's summary carries them, for the seat and for a spectator.
    for who in (secret, None):
        view = _browser_view(server.base, g["id"], who, "en")
        assert view["terminal"] and view["summary"]["ratings"] == changes

    server.restart()
    # Read from the game's row (the game is not loaded for its summary) ...
    assert httpx.get(f"{server.base}/api/games/{g['id']}").json()["rating_changes"] == changes
    listed = httpx.get(f"{server.base}/api/games", params={"status": "finished"}).json()
    assert next(x for x in listed if x["id"] == g["id"])["rating_changes"] == changes
    # ... and from the game loaded again, as a reload of its table shows it.
    view = _browser_view(server.base, g["id"], secret, "en")
    assert view["summary"]["ratings"] == changes
    assert httpx.get(f"{server.base}/api/games/{g['id']}").json()["rating_changes"] == changes


def test_an_unrated_game_says_so_after_a_restart_too(server: Server) -> None:
    g = create(server.base, "greatwall", 2, ["open", "open"])
    secrets = [join(server.base, g["id"], s, player="one-browser") for s in (0, 1)]
    play_to_the_end([Player(server.base, g["id"], s) for s in secrets], random.Random(5))
    time.sleep(0.3)
    assert _browser_view(server.base, g["id"], secrets[0], "en")["summary"]["ratings"] is None
    server.restart()
    assert httpx.get(f"{server.base}/api/games/{g['id']}").json()["rating_changes"] is None
    assert _browser_view(server.base, g["id"], secrets[0], "en")["summary"]["ratings"] is None


def test_bots_of_one_strength_are_named_apart_everywhere(server: Server) -> None:
    g = create(server.base, "greatwall", 4, ["open", "bot:easy", "bot:random", "bot:easy"])
    gid = g["id"]
    secret = _anne(server.base, gid, 0)
    names = [s["name"] for s in httpx.get(f"{server.base}/api/games/{gid}").json()["seats"]]
    # A letter, in seat order, only where a strength holds several seats.
    assert names == ["Anne", "easy bot A", "bot (random)", "easy bot B"]
    for lang in ("en", "de", "nl"):
        gettext = gettext_for(lang)
        view = _browser_view(server.base, gid, secret, lang)
        seats = [s["name"] for s in view["seats"]]
        assert seats == [p["name"] for p in view["players"]]
        assert len(set(seats)) == 4
        easy = gettext("easy")
        assert seats[1] == gettext("{strength} bot {letter}").format(letter="A", strength=easy)
        assert seats[3] == gettext("{strength} bot {letter}").format(letter="B", strength=easy)
        assert seats[2] == gettext("bot ({strength})").format(strength=gettext("random"))
        if lang == "de":
            assert seats[1] == "Bot A (leicht)", seats
        # The board writes the same names (its seats' list comes from the same place).
        for name in seats[1:]:
            assert html.escape(name) in view["board"], (name, lang)
    # The replay's names too, once the game is over.
    play_to_the_end([Player(server.base, gid, secret)], random.Random(2))
    replay = httpx.get(f"{server.base}/api/games/{gid}/replay", params={"lang": "en"})
    assert replay.status_code == 200 and replay.json()["names"] == names
    # The leaderboard keeps one rating per strength, under its own name.
    _rated(server.base, gid)
    board = {r["player_name"] for r in httpx.get(f"{server.base}/api/leaderboard/greatwall").json()}
    assert board == {"Anne", "bot (easy)", "bot (random)"}


def test_migration_0006_adds_the_column_and_takes_it_away(tmp_path: Path) -> None:
    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    from tianxia.server import storage

    url = f"sqlite:///{tmp_path / 'm.sqlite3'}"
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(storage.__file__).with_name("migrations")))
    cfg.set_main_option("sqlalchemy.url", url)
    cfg.attributes["configure_logger"] = False
    command.upgrade(cfg, "0005")
    engine = sa.create_engine(url)

    def columns() -> set[str]:
        return {c["name"] for c in sa.inspect(engine).get_columns("games")}

    assert "rating_changes" not in columns()
    with engine.begin() as c:  # a game finished and rated before the column existed
        c.execute(
            sa.text(
                "INSERT INTO games (id, game, players, options, rules_version, status, seed,"
                " created, updated, rated, cost) VALUES ('old', 'greatwall', 2, '{}', 1,"
                " 'finished', 1, 0, 0, 1, 1)"
            )
        )
    command.upgrade(cfg, "head")
    assert "rating_changes" in columns()
    store = storage.Store(url)
    try:
        old = store.game("old")
        assert old is not None and old["rating_changes"] is None and old["rated"]
        store.mark_rated("old", [{"seat": 0, "before": 0.0, "after": 1.5}])
        kept = store.game("old")
        assert (
            kept is not None
            and kept["rating_changes"] == '[{"seat": 0, "before": 0.0, "after": 1.5}]'
        )
    finally:
        store.close()
    command.downgrade(cfg, "0005")
    assert "rating_changes" not in columns()
    engine.dispose()
