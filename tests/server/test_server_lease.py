"""One writer per SQLite database: a second `tianxia serve` on the same file refuses to
start with a sentence (on PostgreSQL any number serve together); the lease is taken over at once when its holder is gone, and
after it runs out when its holder was on another host."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from serving import Server
from tianxia.server.storage import LEASE_SECONDS

from .client import create
from .conftest import NO_QUOTAS


@pytest.mark.parametrize("url", ["sqlite"], indirect=True)
def test_a_second_server_on_one_sqlite_database_refuses_to_start(url: str, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = Server(url, tmp_path / "a", *NO_QUOTAS, forked=True)
    second = Server(url, tmp_path / "b", *NO_QUOTAS, forked=True)
    first.start()
    try:
        create(first.base, "greatwall", 2, ["open", "open"])
        with pytest.raises(RuntimeError, match="served by another tianxia serve"):
            second.start()
        out = second.output()
        assert f"(pid {first.pid} on " in out
        assert "SQLite serves one process: use PostgreSQL to run several" in out
        # The first serves on, undisturbed.
        create(first.base, "greatwall", 2, ["open", "open"])
    finally:
        first.stop()
    # Stopped cleanly, it gave the lease back: the second starts at once.
    second.start()
    second.stop()


@pytest.mark.parametrize("url", ["postgresql"], indirect=True)
def test_servers_on_one_postgresql_database_serve_together(url: str, tmp_path: Path) -> None:
    """No lease on PostgreSQL: a second process starts and serves the first's games."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = Server(url, tmp_path / "a", *NO_QUOTAS, forked=True)
    second = Server(url, tmp_path / "b", *NO_QUOTAS, forked=True)
    first.start()
    try:
        second.start()
        gid = create(first.base, "greatwall", 2, ["open", "open"])["id"]
        assert httpx.get(f"{second.base}/api/games/{gid}").json()["id"] == gid
        # Running longer than a lease's renewal, neither stops the other.
        time.sleep(LEASE_SECONDS / 3 + 1)
        assert first.alive() and second.alive()
    finally:
        second.stop()
        first.stop()


def test_the_lease_of_a_killed_server_is_taken_over_at_once(url: str, tmp_path: Path) -> None:
    srv = Server(url, tmp_path, *NO_QUOTAS, forked=True)
    srv.start()
    srv.stop(kill=True)
    started = time.monotonic()
    srv.start()
    assert time.monotonic() - started < 10
    srv.stop()


def test_a_lease_from_another_host_is_taken_over_once_it_runs_out(tmp_path: Path) -> None:
    from tianxia.server.storage import LeaseHeld, Store, migrate

    url = f"sqlite:///{tmp_path / 'tianxia.sqlite3'}"
    migrate(url)
    store = Store(url)
    try:
        store.take_lease("elsewhere:123:abcd")
        with pytest.raises(LeaseHeld, match="pid 123 on elsewhere"):
            store.take_lease("here:1:ffff", seconds=15)
        # Its heartbeat older than the lease: gone, taken over.
        store.take_lease("here:1:ffff", seconds=0.0)
        assert not store.renew_lease("elsewhere:123:abcd")
        assert store.renew_lease("here:1:ffff")
    finally:
        store.close()
