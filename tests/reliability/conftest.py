"""Every reliability harness runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from .harness import database

pytest.importorskip("fastapi")
pytest.importorskip("websockets")


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    if request.param == "postgresql" and request.getfixturevalue("postgres") is None:
        pytest.skip("no PostgreSQL here: `make test` installs it")
    return str(request.param)


@pytest.fixture
def url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    pg = request.getfixturevalue("postgres") if backend == "postgresql" else None
    return database(backend, tmp_path, pg)
