"""A database written by the release before accounts, upgraded by this one's migrations,
on SQLite and on PostgreSQL: every game is still there, loads, replays to its stored
state and plays on.

`data/release-7c05880.sqlite` was written by that release's server: four games of bots
played to the end (China, the Great Wall, the Silk Road, the Emperor), a rated game of
two people with a clock played to the end, a people's Silk Road game with a clock left
in the middle, a China game of a person and two bots, and an open Mandarin game.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from server.client import Player, join, play
from server.conftest import NO_QUOTAS, database_url
from serving import Server

RELEASE = Path(__file__).with_name("data") / "release-7c05880.sqlite"
TABLES = ("games", "seats", "actions", "ratings")


def _alembic(url: str) -> object:
    from alembic.config import Config

    from tianxia.server import storage

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(storage.__file__).with_name("migrations")))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    cfg.attributes["configure_logger"] = False
    return cfg


def _released(url: str, tmp_path: Path) -> str:
    """The released database at `url`: the file itself for SQLite; for PostgreSQL, the
    release's schema (migrations up to its revision) filled with the file's rows."""
    if url.startswith("sqlite"):
        target = tmp_path / "released.sqlite3"
        shutil.copy(RELEASE, target)
        return f"sqlite:///{target}"
    from alembic import command

    command.upgrade(_alembic(url), "0006")  # type: ignore[arg-type]
    source = sa.create_engine(f"sqlite:///{RELEASE}")
    target_engine = sa.create_engine(url)
    meta = sa.MetaData()
    meta.reflect(target_engine, only=TABLES)
    with source.connect() as src, target_engine.begin() as dst:
        for name in TABLES:
            rows = [dict(r._mapping) for r in src.execute(sa.text(f"SELECT * FROM {name}"))]
            if rows:
                dst.execute(meta.tables[name].insert(), rows)
        # The actions' ids came with their rows: the sequence goes on after them.
        dst.exec_driver_sql(
            "SELECT setval(pg_get_serial_sequence('actions', 'id'), (SELECT max(id) FROM actions))"
        )
    source.dispose()
    target_engine.dispose()
    return url


def _rows(url: str) -> dict[str, list[tuple[Any, ...]]]:
    engine = sa.create_engine(url)
    with engine.connect() as c:
        found: dict[str, list[tuple[Any, ...]]] = {
            "games": sorted(c.execute(sa.text("SELECT id, game, status, seed FROM games"))),
            "seats": sorted(c.execute(sa.text("SELECT game_id, seat, kind, name FROM seats"))),
            "actions": sorted(
                c.execute(sa.text("SELECT game_id, seq, action, state_hash, undone FROM actions"))
            ),
        }
    engine.dispose()
    return found


@pytest.fixture(params=["sqlite", "postgresql"])
def released(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return _released(database_url(request, tmp_path), tmp_path)


def test_the_release_before_accounts_upgrades_without_losing_a_game(
    released: str, tmp_path: Path
) -> None:
    from alembic import command

    before = _rows(released)
    assert len(before["games"]) == 8 and len(before["actions"]) > 900
    command.upgrade(_alembic(released), "head")  # type: ignore[arg-type]
    assert _rows(released) == before, "a game, a seat or an action changed in the upgrade"

    engine = sa.create_engine(released)
    with engine.connect() as c:
        clocks = set(c.execute(sa.text("SELECT clock, increment, clock_policy FROM games")))
        people = c.execute(sa.text("SELECT count(*) FROM ratings WHERE player NOT LIKE 'bot:%'"))
        assert people.scalar() == 0, "ratings keyed by a client's word survived"
    engine.dispose()
    # A per-move clock became a bank refilled by as much, with a stand-in when it runs out.
    assert clocks == {(None, None, None), (600.0, 600.0, "bot"), (300.0, 300.0, "bot")}

    server = Server(released, tmp_path, *NO_QUOTAS)
    server.start()
    try:
        games = {
            str(g): httpx.get(f"{server.base}/api/games/{g}", timeout=60).json()
            for g, *_ in before["games"]
        }
        assert {g["status"] for g in games.values()} == {"finished", "running", "open"}
        for gid, summary in games.items():
            if summary["status"] == "finished":
                replay = httpx.get(f"{server.base}/api/games/{gid}/replay", timeout=60)
                assert replay.status_code == 200, (gid, replay.text)
        # The game left in the middle plays on: its people's seats were taken by
        # secrets the file does not hold, so a spectator checks that it loads, and the
        # open game takes two new players who play it.
        (open_id,) = [g for g, s in games.items() if s["status"] == "open"]
        seats = games[open_id]["seats"]
        secrets = [
            join(server.base, open_id, s["seat"], f"P{s['seat']}")
            for s in seats
            if s["kind"] == "open"
        ]
        players = [Player(server.base, open_id, s) for s in secrets]
        try:
            assert play(players, random.Random(3), 12) == 12
        finally:
            for p in players:
                p.close()
        for gid, summary in games.items():
            if summary["status"] == "running":
                watcher = Player(server.base, gid)
                try:
                    assert watcher.view["seq"] == summary["seq"] > 0
                finally:
                    watcher.close()
    finally:
        server.stop()


def test_the_migrated_schema_is_the_one_the_code_declares(url: str) -> None:
    """Alembic's comparison of the database the migrations build with the tables the
    code writes to finds nothing missing and nothing extra."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from tianxia.server.storage import metadata, migrate

    migrate(url)
    engine = sa.create_engine(url)
    with engine.connect() as c:
        diff = compare_metadata(MigrationContext.configure(c), metadata)
    engine.dispose()
    # Types compare loosely across dialects; what matters is tables, columns and indexes.
    structural = [d for d in diff if not (isinstance(d, list) and d and d[0][0] == "modify_type")]
    assert structural == []
