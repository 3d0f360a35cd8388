"""A real server per test module: uvicorn in a subprocess on a free loopback port."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from serving import Server

pytest.importorskip("fastapi")
pytest.importorskip("websockets")


def _postgres_url() -> Iterator[str | None]:
    """A throwaway PostgreSQL cluster owned by the postgres user, or None if none can run."""
    bins = sorted(Path("/usr/lib/postgresql").glob("*/bin"))
    initdb = bins[-1] / "initdb" if bins else None
    if initdb is None or not initdb.exists() or shutil.which("runuser") is None:
        yield None
        return
    tmp = Path(tempfile.mkdtemp(prefix="tianxia-pg-"))
    shutil.chown(tmp, "postgres", "postgres")
    data = tmp / "data"
    as_pg = ["runuser", "-u", "postgres", "--"]
    subprocess.run(
        [
            *as_pg,
            str(initdb),
            "-D",
            str(data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "--no-sync",
            "-E",
            "UTF8",
        ],
        check=True,
        capture_output=True,
    )
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    pg_ctl = str(bins[-1] / "pg_ctl")
    subprocess.run(
        [
            *as_pg,
            pg_ctl,
            "-D",
            str(data),
            "-l",
            str(tmp / "log"),
            "-w",
            "-o",
            f"-p {port} -k {tmp} -c listen_addresses=127.0.0.1",
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_pg, pg_ctl, "-D", str(data), "-m", "fast", "stop"], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[str | None]:
    yield from _postgres_url()


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'tianxia.sqlite3'}"
    else:
        url = request.getfixturevalue("postgres")
        if url is None:
            pytest.skip("no PostgreSQL here: `make test` installs it")
        _reset_postgres(url)
    srv = Server(url, tmp_path)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def _reset_postgres(url: str) -> None:
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    with engine.begin() as c:
        c.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    engine.dispose()


os.environ.setdefault("TIANXIA_TEST_SERVER", "1")
