"""A real server per test, on SQLite and on PostgreSQL (the cluster is shared: tests/conftest.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from serving import Server, reset_postgres

# The quotas per client address are for strangers; a test makes many games from one
# address in a minute (tests/server/test_server_quotas.py tests the quotas themselves).
NO_QUOTAS = (
    "--games-per-minute",
    "0",
    "--open-games",
    "0",
    "--connections-per-address",
    "0",
)

pytest.importorskip("fastapi")
pytest.importorskip("websockets")


def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of the parametrised kind: a SQLite file in `tmp_path`, or the
    shared PostgreSQL cluster emptied (skipped where there is none)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tianxia.sqlite3'}"
    url: str | None = request.getfixturevalue("postgres")
    if url is None:
        pytest.skip("no PostgreSQL here: `make test` installs it")
    reset_postgres(url)
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return database_url(request, tmp_path)


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    url = database_url(request, tmp_path)
    # Forked from a warm parent (tests/forkserver.py): a whole new server process in a
    # few tenths of a second, where a cold start spends 1.5-3 s importing and building
    # the games' data, for each of some hundred tests.
    srv = Server(url, tmp_path, *NO_QUOTAS, forked=True)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


os.environ.setdefault("TIANXIA_TEST_SERVER", "1")
