"""`tianxia bench --server`'s clients against a real server: they play, and say so."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from serving import Server

from .conftest import NO_QUOTAS

bench = pytest.importorskip("tianxia.server.bench")


def test_bench_clients_play_and_count_their_accepted_actions(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'bench.sqlite3'}", tmp_path, *NO_QUOTAS)
    srv.start()
    try:
        row = asyncio.run(bench._load(srv.base, games=5, seconds=3.0, seed=1))
    finally:
        srv.stop()
    with sqlite3.connect(tmp_path / "bench.sqlite3") as db:
        (chosen,) = db.execute("SELECT count(*) FROM actions WHERE seat IS NOT NULL").fetchone()
    assert row["games"] == 5 and row["connections"] == 11
    assert row["accepted"] > 20
    assert row["ack_p50_ms"] <= row["ack_p99_ms"]
    # Every action counted is in the server's log (the first second's are not counted).
    assert chosen >= row["accepted"]
