"""The shipped cluster configuration (deploy/nginx/tianxia-cluster.conf) in front of
several processes on one PostgreSQL: it validates; every request about one game (its
API calls, its page, its websockets) reaches one process, chosen by the game's id; the
lobby is spread over all of them; and when a game's process is killed, the next
request about it reaches a live one, which serves the game from where it was."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from cluster import PROCESS_HEADER, Cluster
from nginxfront import Nginx, available
from serving import free_port, reset_postgres

from .client import Player, create, join, play

pytestmark = pytest.mark.skipif(
    not available(), reason="Debian's nginx is missing: `make test` installs it"
)


def test_the_cluster_configuration_validates() -> None:
    proxy = Nginx([free_port() for _ in range(4)])
    try:
        verdict = proxy.check()
        assert verdict.returncode == 0, verdict.stderr
        assert "syntax is ok" in verdict.stderr and "test is successful" in verdict.stderr
        site = (proxy.folder / "tianxia.conf").read_text()
        assert site.count("server 127.0.0.1:") == 4 and "hash $tianxia_game consistent" in site
        # A process found down is tried again soon: a restarted one is back in 2 s.
        assert site.count("max_fails=1 fail_timeout=2s;") == 4
    finally:
        proxy.stop()


def test_the_systemd_unit_verifies(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("no systemd-analyze here")
    unit = (Path(__file__).parents[2] / "deploy" / "systemd" / "tianxia@.service").read_text()
    # The port is the instance, and the process believes nginx's forwarded address.
    assert "--port %i" in unit and "--trusted-proxy 127.0.0.1" in unit
    # The executable where this test finds it (the unit's own path is the operator's).
    here = Path(sys.executable).with_name("tianxia")
    (tmp_path / "tianxia@.service").write_text(
        unit.replace("/opt/tianxia/.venv/bin/tianxia", str(here))
    )
    (tmp_path / "tianxia@8001.service").symlink_to("tianxia@.service")
    verdict = subprocess.run(
        [analyze, "verify", str(tmp_path / "tianxia@8001.service")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert verdict.returncode == 0 and not verdict.stderr.strip(), verdict.stderr


@pytest.fixture
def cluster(postgres: str | None, tmp_path: Path) -> Iterator[Cluster]:
    if postgres is None:
        pytest.skip("no PostgreSQL here: `make test` installs it")
    reset_postgres(postgres)
    with Cluster(postgres, tmp_path, 2) as running:
        yield running


def _handshake_process(cluster: Cluster, game_id: str) -> int | None:
    url = cluster.base.replace("http", "ws", 1) + f"/ws/games/{game_id}"
    with connect(url, open_timeout=10, ping_interval=None) as ws:
        assert ws.response is not None
        return cluster.process_of(ws.response.headers)


def test_one_games_requests_reach_one_process_and_the_lobby_reaches_all(
    cluster: Cluster,
) -> None:
    holders = set()
    for n in range(12):
        gid = create(cluster.base, "greatwall", 2, ["open", "open"])["id"]
        first = cluster.holder(gid)
        assert first is not None
        holders.add(first)
        seen = {first, _handshake_process(cluster, gid)}
        for path in (f"/api/games/{gid}", f"/games/{gid}?lang=en", f"/api/games/{gid}/log"):
            r = httpx.get(cluster.base + path, timeout=30)
            # The log of a game not over is refused, by the game's process.
            assert r.status_code == (409 if path.endswith("/log") else 200), (path, r.text)
            seen.add(cluster.process_of(r.headers))
        r = httpx.post(
            f"{cluster.base}/api/games/{gid}/join", json={"seat": 0, "name": f"Ann{n}"}, timeout=30
        )
        assert r.status_code == 200, r.text
        seen.add(cluster.process_of(r.headers))
        seen.add(_handshake_process(cluster, gid))
        assert seen == {first}, f"game {gid}'s requests went to processes {seen}"
    # Twelve games by their random ids: on one process of two once in 2,000 runs.
    assert holders == {0, 1}
    # The lobby is about no game: its requests are spread, and each process lists the
    # open games, whichever process created them.
    lobby = set()
    for _ in range(20):
        r = httpx.get(f"{cluster.base}/api/games", timeout=30)
        assert r.status_code == 200
        lobby.add(cluster.process_of(r.headers))
    assert lobby == {0, 1}
    for i in range(2):
        listed = httpx.get(f"{cluster.direct(i)}/api/games", timeout=30).json()
        assert len(listed) == 12, listed


def test_a_killed_process_s_game_goes_on_at_a_live_one(cluster: Cluster) -> None:
    base = cluster.base
    gid = create(base, "greatwall", 2, ["open", "open"])["id"]
    secrets = [join(base, gid, seat, name) for seat, name in enumerate(["Ann", "Bo"])]
    holder = cluster.holder(gid)
    assert holder is not None
    players = [Player(base, gid, s) for s in secrets]
    moves = play(players, random.Random(45), 6)
    seq = players[0].view["seq"]
    assert moves == 6 and seq >= 6
    for p in players:
        p.close()
    dead_pid = cluster.servers[holder].pid
    cluster.kill(holder)

    # The next request about the game reaches the other process, which has it all.
    r = httpx.get(f"{base}/api/games/{gid}", timeout=30)
    assert r.status_code == 200, r.text
    assert r.headers[PROCESS_HEADER] != str(dead_pid)
    assert cluster.process_of(r.headers) == 1 - holder
    # So does a websocket's handshake: the seats say hello with their last seq and play
    # on from there.
    assert _handshake_process(cluster, gid) == 1 - holder
    players = [Player(base, gid, s, last_seq=seq) for s in secrets]
    assert [p.view["seq"] for p in players] == [seq, seq]
    assert play(players, random.Random(46), 4) == 4
    last = max(p.view["seq"] for p in players)
    for p in players:
        while p.view["seq"] < last:
            p.recv(timeout=10)  # the view after the other seat's last move
    assert [p.view["seq"] for p in players] == [last, last] and last >= seq + 4
    for p in players:
        p.close()
    # A page and the lobby still answer.
    assert httpx.get(f"{base}/games/{gid}?lang=en", timeout=30).status_code == 200
    assert httpx.get(f"{base}/api/games", timeout=30).status_code == 200
    # Started again on its port, the process gets its games back once nginx tries it
    # again (2 s after it was found down), and serves them at their stored seq.
    cluster.servers[holder].start()
    # (nginx's default of 10 s out would not be over within these 5 s.)
    deadline = time.monotonic() + 5
    while cluster.holder(gid) != holder:
        assert time.monotonic() < deadline, "the restarted process did not get its game back"
        time.sleep(0.2)
    back = httpx.get(f"{base}/api/games/{gid}", timeout=30).json()
    assert back["seq"] == last


def test_the_bench_measures_processes_behind_nginx(postgres: str | None) -> None:
    if postgres is None:
        pytest.skip("no PostgreSQL here: `make test` installs it")
    import sqlalchemy as sa

    from tianxia.server import bench

    result = bench.run_processes(postgres, processes=(2,), loads=(6,), seconds=2.0)
    (row,) = result["loads"]
    assert row["processes"] == 2 and row["games"] == 6 and row["accepted"] > 10
    assert row["ack_p50_ms"] <= row["ack_p99_ms"]
    # The processes did the work (CPU time is counted in 10 ms ticks: a process that
    # got few games may show none), nginx's master and workers were found, and the
    # database's backends were.
    assert len(row["server_cpu_s"]) == 2 and sum(row["server_cpu_s"]) > 0
    assert row["nginx_processes"] >= 2 and row["database_cpu_ms_per_action"] > 0
    # The commit locks' wait was sampled all along (every 5 ms over 2 s and more).
    assert row["lock_wait_samples"] > 100 and row["lock_wait_ms_per_action"] >= 0
    assert "| 2 | 6 |" in bench.processes_markdown(result)
    # The run's own database is gone afterwards.
    engine = sa.create_engine(postgres)
    with engine.connect() as c:
        names = [r[0] for r in c.exec_driver_sql("SELECT datname FROM pg_database").all()]
    engine.dispose()
    assert not [n for n in names if n.startswith("tianxia_bench_")]


def test_the_bench_refuses_processes_on_sqlite(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tianxia.cli.app import app
    from tianxia.cli.main import _load_commands

    _load_commands()
    db = f"sqlite:///{tmp_path / 'bench.sqlite3'}"

    def refusal(*args: str) -> str:
        out = CliRunner().invoke(app, ["bench", "--server", *args])
        assert out.exit_code == 2, out.output
        # The words of the error, without the box around them.
        return " ".join(re.sub(r"[│╭╮╰╯─]", " ", out.output).split())

    assert "SQLite serves one process" in refusal("--processes", "1,2", "--database", db)
    assert "comma list" in refusal("--processes", "two", "--database", db)
    assert not (tmp_path / "bench.sqlite3").exists()
