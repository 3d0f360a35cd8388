"""A real server per test, on SQLite and on PostgreSQL (the cluster is shared: tests/conftest.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from serving import Server, reset_postgres

pytest.importorskip("fastapi")
pytest.importorskip("websockets")


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'tianxia.sqlite3'}"
    else:
        url = request.getfixturevalue("postgres")
        if url is None:
            pytest.skip("no PostgreSQL here: `make test` installs it")
        reset_postgres(url)
    srv = Server(url, tmp_path)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


os.environ.setdefault("TIANXIA_TEST_SERVER", "1")
