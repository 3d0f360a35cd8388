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
import gc
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
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
    def __init__(self, folder: Path) -> None:
        code = "from tianxia.cli.main import main; main()"
        url = f"sqlite:///{folder / 'bench.sqlite3'}"
        # The server's output goes to a file: a pipe nobody reads fills up and stalls
        # the server at its first access-log line past the pipe's capacity.
        self.log = folder / "server.log"
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(
                # The load comes from one address: no quotas or caps per address.
                [
                    sys.executable,
                    "-c",
                    code,
                    "serve",
                    "--port",
                    "0",
                    "--database",
                    url,
                    "--games-per-minute",
                    "0",
                    "--open-games",
                    "0",
                    "--connections-per-address",
                    "0",
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
            if time.monotonic() < deadline:
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
