"""`tianxia bench --server`: the server under load from real websocket clients.

A server runs as a subprocess (uvicorn, SQLite with ``synchronous=FULL``) on a free
loopback port. For each load, N games (the five titles in turn, two seats each, both
open) are created and joined, and one client per seat plays random legal actions over
its own websocket for a fixed time: as fast as the clients can (the server's
capacity), and paced at a fixed offered rate spread over the games as Poisson arrivals
(latency under a given load). The first second, every client saying hello at once, is
not counted. Reported: accepted actions per second, the latency from sending an action
to its acknowledgement (p50, p99), and the server's resident memory per live game.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tianxia.server import YOUNG_GC

TITLES = ("china", "greatwall", "emperor", "mandarin", "silkroad")
PLAYERS = {"china": 3, "greatwall": 2, "emperor": 2, "mandarin": 2, "silkroad": 2}


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _cpu_seconds(pid: int) -> float:
    """CPU time (user and system) the process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class _Server:
    def __init__(
        self,
        folder: Path,
        url: str | None = None,
        port: int = 0,
        name: str = "server",
        extra: tuple[str, ...] = (),
    ) -> None:
        code = "from tianxia.cli.main import main; main()"
        url = url or f"sqlite:///{folder / 'bench.sqlite3'}"
        # The server's output goes to a file: a pipe nobody reads fills up and stalls
        # the server at its first access-log line past the pipe's capacity.
        self.log = folder / f"{name}.log"
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(
                # The load comes from one address: no quotas or caps per address.
                [
                    sys.executable,
                    "-c",
                    code,
                    "serve",
                    "--port",
                    str(port),
                    "--database",
                    url,
                    "--games-per-minute",
                    "0",
                    "--open-games",
                    "0",
                    "--connections-per-address",
                    "0",
                    *extra,
                ],
                cwd=folder,
                stdout=out,
                stderr=subprocess.STDOUT,
                text=True,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.proc.poll() is None:
            m = re.search(r"serving on (http://127\.0\.0\.1:\d+)/", self.log.read_text())
            if m:
                self.base = m.group(1)
                return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the server did not start:\n{self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


async def _seat_client(
    ws_url: str,
    secret: str,
    deadline: float,
    warm_until: float,
    rng: random.Random,
    latencies: list[float],
    pace: dict[str, float] | None = None,
    per_game: float = 0.0,
) -> tuple[int, bool]:
    """Play one seat until the deadline or the game's end; (accepted actions, ended).

    The client shares the machine with the server, so it spends as little as it can
    per action: frames parsed by orjson from their bytes, action ids from its own
    seeded stream, one deadline for the whole run rather than a timer per message."""
    import orjson
    from websockets.asyncio.client import connect

    accepted = 0
    ended = False
    # Ids unique to this client: a random prefix of its own and a count.
    prefix = f"{rng.getrandbits(64):016x}-"
    count = 0
    # At 500 games 1,100 clients open their websockets at once; on a shared machine the
    # last handshakes took longer than the library's 10 s, which ended the run.
    async with connect(ws_url, max_size=2**24, open_timeout=120) as ws:
        await ws.send(orjson.dumps({"type": "hello", "secret": secret}).decode())
        view: dict[str, Any] = {}
        fresh = False  # `view` is one this client has not yet acted on
        try:
            async with asyncio.timeout_at(_loop_time(deadline)):
                while True:
                    if not fresh:
                        msg = orjson.loads(await ws.recv(decode=False))
                        if msg["type"] == "view":
                            view = msg
                            fresh = True
                        continue
                    fresh = False
                    if view["terminal"]:
                        ended = True
                        break
                    if not view["legal"]:
                        continue
                    action = rng.choice(view["legal"])["action"]
                    if pace is not None:
                        # Paced: each game's actions arrive as a Poisson process, whichever
                        # seat acts, so games do not act in step (which would measure
                        # bursts, not load); a client that fell behind catches up.
                        now = time.monotonic()
                        slot = pace.get(ws_url, now + rng.expovariate(per_game))
                        if slot > now:
                            await asyncio.sleep(slot - now)
                        pace[ws_url] = slot + rng.expovariate(per_game)
                    count += 1
                    aid = f"{prefix}{count}"
                    sent = time.perf_counter()
                    await ws.send(
                        orjson.dumps(
                            {
                                "type": "act",
                                "action_id": aid,
                                "expected_seq": view["seq"],
                                "action": action,
                            }
                        ).decode()
                    )
                    # A reply that never comes is a failure to report, not a hang.
                    async with asyncio.timeout(30):
                        while True:
                            reply = orjson.loads(await ws.recv(decode=False))
                            # A rate-limited message is answered by an error without its id.
                            if reply.get("action_id") == aid or reply["type"] == "error":
                                break
                            if reply["type"] == "view":
                                view = reply
                                fresh = True
                    if reply["type"] == "accepted":
                        if time.monotonic() >= warm_until:
                            latencies.append(time.perf_counter() - sent)
                            accepted += 1
                    elif reply.get("code") == "rate_limited":
                        # Nothing changed, so no new view comes: wait for a token, again.
                        await asyncio.sleep(1 / 30)
                        fresh = True
        except TimeoutError:
            # The run's end comes as the loop's deadline, converted from `deadline` by
            # two clock readings: it may fire a hair before `deadline` by this clock.
            if time.monotonic() < deadline - 1.0:
                raise  # the reply's 30 s, not the run's end
    return accepted, ended


def _loop_time(deadline: float) -> float:
    """`deadline` on `time.monotonic()`'s scale as the running loop's time."""
    return asyncio.get_running_loop().time() + (deadline - time.monotonic())


async def _new_game(http: Any, title: str) -> list[tuple[str, str]]:
    n = PLAYERS[title]
    r = await http.post("/api/games", json={"game": title, "players": n})
    r.raise_for_status()
    gid = r.json()["id"]
    seats = []
    for s in range(n):
        j = await http.post(f"/api/games/{gid}/join", json={"seat": s, "name": f"bench{s}"})
        j.raise_for_status()
        seats.append((gid, j.json()["secret"]))
    return seats


async def _load(
    base: str, games: int, seconds: float, seed: int, offered: float | None = None
) -> dict[str, Any]:
    """Keep `games` games going at once (a finished one is replaced by a new one of its
    title): as fast as the clients can (`offered` None), or with `offered` actions per
    second spread over the games."""
    import httpx

    rng = random.Random(seed)
    ws_base = base.replace("http", "ws", 1)
    latencies: list[float] = []
    pace: dict[str, float] | None = {} if offered else None
    per_game = (offered or 0.0) / games
    played = 0
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        first = [await _new_game(http, TITLES[i % len(TITLES)]) for i in range(games)]
        start = time.perf_counter()
        # The first second is every client saying hello at once: a start-up burst.
        warm = min(1.0, seconds / 4)
        warm_until = time.monotonic() + warm
        deadline = time.monotonic() + seconds

        async def table(i: int) -> int:
            nonlocal played
            seats: list[tuple[str, str]] | None = first[i]
            accepted = 0
            while time.monotonic() < deadline:
                if seats is None:
                    seats = await _new_game(http, TITLES[i % len(TITLES)])
                played += 1
                results = await asyncio.gather(
                    *(
                        _seat_client(
                            f"{ws_base}/ws/games/{gid}",
                            secret,
                            deadline,
                            warm_until,
                            random.Random(rng.random()),
                            latencies,
                            pace,
                            per_game,
                        )
                        for gid, secret in seats
                    )
                )
                accepted += sum(a for a, _ in results)
                if not any(ended for _, ended in results):
                    break
                seats = None
            return accepted

        counts = await asyncio.gather(*(table(i) for i in range(games)))
        elapsed = time.perf_counter() - start
    latencies.sort()
    total = sum(counts)
    measured = elapsed - warm

    def pct(p: float) -> float:
        if not latencies:
            return float("nan")
        return 1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))]

    return {
        "games": games,
        "offered_per_s": offered,
        "connections": sum(PLAYERS[TITLES[i % len(TITLES)]] for i in range(games)),
        "games_played": played,
        "seconds": round(elapsed, 2),
        "accepted": total,
        "accepted_per_s": total / measured if measured > 0 else 0.0,
        "ack_p50_ms": pct(0.50),
        "ack_p99_ms": pct(0.99),
        "ack_mean_ms": 1000 * statistics.fmean(latencies) if latencies else float("nan"),
    }


def run(
    loads: tuple[int, ...] = (10, 100, 500),
    seconds: float = 10.0,
    seed: int = 0,
    offered: float = 1000.0,
) -> dict[str, Any]:
    """Measure each load on a fresh server, saturated and (where each game's share stays
    under the per-connection rate limit) paced at `offered` actions/s; returns the rows
    and the machine."""
    from tianxia.machine import machine

    rows = []
    for games in loads:
        runs: list[float | None] = [None]
        if offered / games <= 25:
            runs.append(offered)
        for rate in runs:
            with tempfile.TemporaryDirectory(prefix="tianxia-bench-") as tmp:
                server = _Server(Path(tmp))
                try:
                    before = _rss_kib(server.proc.pid)
                    # CPU per accepted action: what a loaded, shared machine's wall-clock
                    # figures cannot tell, the server's own cost (the client's beside it).
                    cpu = _cpu_seconds(server.proc.pid)
                    mine = time.process_time()
                    # The clients' young objects collected as rarely as the server's
                    # (`tianxia serve`): at the default threshold the collector took
                    # several percent of the client's CPU.
                    threshold = gc.get_threshold()
                    gc.set_threshold(YOUNG_GC, *threshold[1:])
                    try:
                        row = asyncio.run(_load(server.base, games, seconds, seed, rate))
                    finally:
                        gc.set_threshold(*threshold)
                    cpu = _cpu_seconds(server.proc.pid) - cpu
                    mine = time.process_time() - mine
                    after = _rss_kib(server.proc.pid)
                    done = max(1, int(row["accepted"]))
                    row["server_cpu_s"] = round(cpu, 2)
                    row["server_cpu_ms_per_action"] = round(1000 * cpu / done, 3)
                    row["client_cpu_ms_per_action"] = round(1000 * mine / done, 3)
                    row["memory_per_game_kib"] = max(0, after - before) / games
                    row["server_rss_mib"] = after / 1024
                    rows.append(row)
                finally:
                    server.stop()
    return {"machine": machine(), "database": "sqlite (WAL, synchronous=FULL)", "loads": rows}


def _offered(row: dict[str, Any]) -> str:
    rate = row.get("offered_per_s")
    return "as fast as possible" if not rate else f"{rate:,.0f}"


def to_markdown(result: dict[str, Any]) -> str:
    head = (
        "| games | connections | offered/s | accepted/s | ack p50 ms | ack p99 ms "
        "| KiB per live game | server CPU ms per action |\n"
        "|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    )
    lines = [
        f"| {r['games']} | {r['connections']} | {_offered(r)} | "
        f"{r['accepted_per_s']:,.0f} | {r['ack_p50_ms']:.1f} | {r['ack_p99_ms']:.1f} | "
        f"{r['memory_per_game_kib']:,.0f} | {r.get('server_cpu_ms_per_action', float('nan')):.2f} |"
        for r in result["loads"]
    ]
    return head + "\n".join(lines) + "\n"


# --- several processes behind nginx ------------------------------------------------------

CLUSTER_SITE = Path(__file__).parents[3] / "deploy" / "nginx" / "tianxia-cluster.conf"

# Around the site file, as Debian's nginx.conf is around its sites; every path nginx
# writes is in the run's folder. Two workers, as Debian's `auto` gives on 2 cores, with
# room for every proxied websocket (two connections each).
_NGINX_MAIN = """worker_processes auto;
worker_rlimit_nofile 16384;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/nginx-error.log warn;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/site.conf;
}}
"""


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def nginx_binary() -> str | None:
    import shutil

    found = shutil.which("nginx") or "/usr/sbin/nginx"
    return found if Path(found).exists() else None


def cluster_site(ports: list[int], port: int) -> str:
    """deploy/nginx/tianxia-cluster.conf with one upstream line per process, listening on
    loopback; the connections per address are not capped (the bench's clients all come
    from one address)."""
    text = CLUSTER_SITE.read_text()
    lines = re.findall(r"^\s*server 127\.0\.0\.1:\d+[^;\n]*;\n", text, flags=re.M)
    if not lines:
        raise RuntimeError(f"{CLUSTER_SITE}: no upstream server lines")
    # Each process's line as the shipped file's first one, its parameters kept.
    ours = "".join(re.sub(r":\d+", f":{p}", lines[0], count=1) for p in ports)
    text = text.replace(lines[0], ours, 1)
    for line in lines[1:]:
        text = text.replace(line, "", 1)
    for pattern, new in (
        (r"^\s*listen 80;", f"    listen 127.0.0.1:{port};"),
        (r"^\s*listen \[::\]:80;\n", ""),
        (r"^\s*limit_conn tianxia_per_address \d+;", "    limit_conn tianxia_per_address 65535;"),
    ):
        text, n = re.subn(pattern, new, text, flags=re.M)
        if n != 1:
            raise RuntimeError(f"{CLUSTER_SITE}: no single line matches {pattern!r}")
    return text


class _Nginx:
    """Debian's nginx with the cluster site file in front of `ports`, in the foreground,
    as an unprivileged user when started by root; its files in a folder of its own
    (one the unprivileged user may enter), removed when it stops."""

    def __init__(self, ports: list[int]) -> None:
        import os
        import pwd
        import tempfile as _tempfile

        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("--processes needs Debian's nginx (apt-get install nginx-light)")
        folder = Path(_tempfile.mkdtemp(prefix="tianxia-bench-nginx-"))
        self.folder = folder
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        (folder / "site.conf").write_text(cluster_site(ports, self.port))
        conf = folder / "nginx.conf"
        conf.write_text(_NGINX_MAIN.format(folder=folder))
        user: int | None = None
        group: int | None = None
        groups: list[int] | None = None
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            user, group, groups = nobody.pw_uid, nobody.pw_gid, []
            for path in (folder, folder / "site.conf", conf):
                os.chown(path, user, group)
        argv = [binary, "-p", str(folder), "-e", str(folder / "nginx-error.log"), "-c", str(conf)]
        self.proc = subprocess.Popen(
            argv,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            user=user,
            group=group,
            extra_groups=groups,
        )
        import socket

        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        log = folder / "nginx-error.log"
        said = log.read_text() if log.exists() else ""
        self.stop()
        raise RuntimeError(f"nginx did not start: {said}")

    def pids(self) -> list[int]:
        """The master and its workers."""
        out = [self.proc.pid]
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.proc.pid:
                out.append(int(stat.parent.name))
        return out

    def stop(self) -> None:
        import shutil

        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def _cpu_of(pids: list[int]) -> dict[int, float]:
    out = {}
    for pid in pids:
        try:
            out[pid] = _cpu_seconds(pid)
        except (OSError, IndexError, ValueError):
            continue
    return out


@contextlib.contextmanager
def _scratch_database(url: str) -> Iterator[str]:
    """A new database on the server `url` names, for one run, dropped after it: the
    bench never writes into a database of the operator's."""
    import uuid

    import sqlalchemy as sa

    name = f"tianxia_bench_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as c:
            c.exec_driver_sql(f'CREATE DATABASE "{name}"')
        try:
            yield admin.url.set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as c:
                c.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        admin.dispose()


def _backend_pids(url: str) -> list[int]:
    """The PostgreSQL server processes serving the bench's database (their CPU is the
    database's share of an action; read only where the server runs on this machine)."""
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    try:
        with engine.connect() as c:
            rows = c.exec_driver_sql(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid()"
            ).all()
    finally:
        engine.dispose()
    return [int(r[0]) for r in rows if Path(f"/proc/{r[0]}/stat").exists()]


class _LockSampler:
    """The time the database's backends spend waiting for games' commit locks
    (`pg_advisory_xact_lock`), sampled from `pg_stat_activity` every few milliseconds on
    a connection of its own: the sum over samples of the backends waiting, times the
    interval, estimates the backend-seconds waited (the servers need not count it).
    Sessions' lease locks are only tried (`pg_try_advisory_lock`), never waited for."""

    def __init__(self, url: str, interval: float = 0.005) -> None:
        import threading

        import sqlalchemy as sa

        self.engine = sa.create_engine(url)
        self.interval = interval
        self.waited = 0.0
        self.samples = 0
        self.failed: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._sample()
        except Exception as e:  # the database went away: the run itself will say so
            self.failed = str(e).splitlines()[0]

    def _sample(self) -> None:
        query = (
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND wait_event = 'advisory'"
        )
        with self.engine.connect() as c:
            last = time.perf_counter()
            while not self._stop.wait(self.interval):
                waiting = int(c.exec_driver_sql(query).scalar_one())
                c.rollback()  # pg_stat_activity is read once per transaction
                now = time.perf_counter()
                self.waited += waiting * (now - last)
                self.samples += 1
                last = now

    def stop(self) -> float:
        """Stop sampling; the backend-seconds waited."""
        self._stop.set()
        self._thread.join(timeout=10)
        self.engine.dispose()
        return self.waited


def run_processes(
    database: str,
    processes: tuple[int, ...] = (1, 2, 4),
    loads: tuple[int, ...] = (100, 500),
    seconds: float = 10.0,
    seed: int = 0,
    offered: float = 1000.0,
) -> dict[str, Any]:
    """Each load on `processes` server processes sharing a new database on the
    PostgreSQL server `database` names, behind Debian's nginx with the shipped cluster
    site file; the clients connect to nginx. Saturated and (where each game's share
    stays under the per-connection rate limit) paced at `offered` actions/s."""
    from tianxia.machine import machine

    if not database.startswith("postgresql"):
        raise ValueError("--processes needs a PostgreSQL --database: SQLite serves one process")
    if nginx_binary() is None:
        raise RuntimeError("--processes needs Debian's nginx (apt-get install nginx-light)")
    rows = []
    for count in processes:
        for games in loads:
            runs: list[float | None] = [None]
            if offered / games <= 25:
                runs.append(offered)
            for rate in runs:
                rows.append(_run_cluster(database, count, games, seconds, seed, rate))
    return {
        "machine": machine(),
        "database": "postgresql (synchronous_commit on)",
        "front": "nginx (deploy/nginx/tianxia-cluster.conf)",
        "loads": rows,
    }


def _run_cluster(
    database: str, count: int, games: int, seconds: float, seed: int, rate: float | None
) -> dict[str, Any]:
    import tempfile as _tempfile

    with (
        _scratch_database(database) as url,
        _tempfile.TemporaryDirectory(prefix="tianxia-bench-") as tmp,
    ):
        folder = Path(tmp)
        ports = [_free_port() for _ in range(count)]
        servers: list[_Server] = []
        front: _Nginx | None = None
        try:
            # One after another: the first migrates the new database.
            for i, port in enumerate(ports):
                extra = ("--trusted-proxy", "127.0.0.1")
                servers.append(_Server(folder, url, port, f"server-{i}", extra))
            front = _Nginx(ports)
            pids = [s.proc.pid for s in servers]
            cpu = _cpu_of(pids)
            edge = _cpu_of(front.pids())
            sampler = _LockSampler(url)
            mine = time.process_time()
            threshold = gc.get_threshold()
            gc.set_threshold(YOUNG_GC, *threshold[1:])
            try:
                row = asyncio.run(_load(front.base, games, seconds, seed, rate))
            finally:
                gc.set_threshold(*threshold)
            mine = time.process_time() - mine
            waited = sampler.stop()
            after = _cpu_of(pids)
            spent = [after.get(p, 0.0) - cpu.get(p, 0.0) for p in pids]
            edge_after = _cpu_of(front.pids())
            row["nginx_processes"] = len(edge_after)
            nginx_cpu = sum(v - edge.get(p, 0.0) for p, v in edge_after.items())
            # The database's backends live as long as the servers' pooled connections:
            # their whole CPU time is this run's (creating the games included).
            db_cpu = sum(_cpu_of(_backend_pids(url)).values())
        finally:
            if front is not None:
                front.stop()
            for server in servers:
                server.stop()
    done = max(1, int(row["accepted"]))
    total = sum(spent)
    row["processes"] = count
    row["server_cpu_s"] = [round(x, 2) for x in spent]
    # CPU-seconds the server processes spend on 1,000 actions, summed over them: with
    # a core per process, C cores serve about C * 1000 / this actions per second
    # (nginx's and the database's shares apart, reported beside it).
    row["server_cpu_ms_per_action"] = round(1000 * total / done, 3)
    row["cpu_s_per_1000_actions"] = round(1000 * total / done, 3)
    row["nginx_cpu_ms_per_action"] = round(1000 * nginx_cpu / done, 3)
    row["database_cpu_ms_per_action"] = round(1000 * db_cpu / done, 3)
    row["client_cpu_ms_per_action"] = round(1000 * mine / done, 3)
    row["lock_wait_ms_per_action"] = round(1000 * waited / done, 4)
    row["lock_wait_samples"] = sampler.samples
    if sampler.failed is not None:
        row["lock_wait_error"] = sampler.failed
    return row


def processes_markdown(result: dict[str, Any]) -> str:
    head = (
        "| processes | games | offered/s | accepted/s | ack p50 ms | ack p99 ms "
        "| server CPU-s per 1,000 actions | CPU-s of each process "
        "| nginx CPU-s per 1,000 | database CPU-s per 1,000 "
        "| lock wait ms per action |\n"
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    )

    lines = [
        f"| {r['processes']} | {r['games']} | {_offered(r)} | {r['accepted_per_s']:,.0f} | "
        f"{r['ack_p50_ms']:.1f} | {r['ack_p99_ms']:.1f} | "
        f"{r['server_cpu_ms_per_action']:.2f} | "
        f"{', '.join(f'{x:.1f}' for x in r['server_cpu_s'])} | "
        f"{r['nginx_cpu_ms_per_action']:.2f} | {r['database_cpu_ms_per_action']:.2f} | "
        f"{r['lock_wait_ms_per_action']:.3f} |"
        for r in result["loads"]
    ]
    return head + "\n".join(lines) + "\n"
