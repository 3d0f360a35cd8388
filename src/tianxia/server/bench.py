"""`tianxia bench --server`: the server under load from real websocket clients.

A server runs as a subprocess (uvicorn, SQLite with ``synchronous=FULL``) on a free
loopback port. For each load, N games (the five titles in turn, two seats each, both
open) are created and joined, and one client per seat plays random legal actions over
its own websocket for a fixed time. Reported: accepted actions per second, the
latency from sending an action to its acknowledgement (p50, p99), and the server's
resident memory per live game.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

TITLES = ("china", "greatwall", "emperor", "mandarin", "silkroad")
PLAYERS = {"china": 3, "greatwall": 2, "emperor": 2, "mandarin": 2, "silkroad": 2}


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class _Server:
    def __init__(self, folder: Path) -> None:
        code = "from tianxia.cli.main import main; main()"
        url = f"sqlite:///{folder / 'bench.sqlite3'}"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, "serve", "--port", "0", "--database", url],
            cwd=folder,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            m = re.search(r"serving on (http://127\.0\.0\.1:\d+)/", line)
            if m:
                self.base = m.group(1)
                return
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


async def _seat_client(
    ws_url: str, secret: str, seconds: float, rng: random.Random, latencies: list[float]
) -> int:
    from websockets.asyncio.client import connect

    accepted = 0
    deadline = time.monotonic() + seconds
    async with connect(ws_url, max_size=2**24) as ws:
        await ws.send(json.dumps({"type": "hello", "secret": secret}))
        view: dict[str, Any] = {}
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(
                    ws.recv(), timeout=max(0.01, deadline - time.monotonic())
                )
            except TimeoutError:
                break
            msg = json.loads(raw)
            if msg["type"] != "view":
                continue
            view = msg
            if view["terminal"]:
                break
            if not view["legal"]:
                continue
            action = rng.choice(view["legal"])["action"]
            aid = uuid.uuid4().hex
            sent = time.perf_counter()
            await ws.send(
                json.dumps(
                    {"type": "act", "action_id": aid, "expected_seq": view["seq"], "action": action}
                )
            )
            while True:
                reply = json.loads(await ws.recv())
                if reply.get("action_id") == aid:
                    break
                if reply["type"] == "view":
                    view = reply
            if reply["type"] == "accepted":
                latencies.append(time.perf_counter() - sent)
                accepted += 1
            elif reply.get("code") == "rate_limited":
                await asyncio.sleep(0.2)
    return accepted


async def _load(base: str, games: int, seconds: float, seed: int) -> dict[str, Any]:
    import httpx

    rng = random.Random(seed)
    seats: list[tuple[str, str]] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for i in range(games):
            title = TITLES[i % len(TITLES)]
            n = PLAYERS[title]
            r = await http.post("/api/games", json={"game": title, "players": n})
            r.raise_for_status()
            gid = r.json()["id"]
            for s in range(n):
                j = await http.post(f"/api/games/{gid}/join", json={"seat": s, "name": f"bench{s}"})
                j.raise_for_status()
                seats.append((gid, j.json()["secret"]))
    ws_base = base.replace("http", "ws", 1)
    latencies: list[float] = []
    start = time.perf_counter()
    counts = await asyncio.gather(
        *(
            _seat_client(
                f"{ws_base}/ws/games/{gid}", secret, seconds, random.Random(rng.random()), latencies
            )
            for gid, secret in seats
        )
    )
    elapsed = time.perf_counter() - start
    latencies.sort()
    total = sum(counts)

    def pct(p: float) -> float:
        if not latencies:
            return float("nan")
        return 1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))]

    return {
        "games": games,
        "connections": len(seats),
        "seconds": round(elapsed, 2),
        "accepted": total,
        "accepted_per_s": total / elapsed if elapsed else 0.0,
        "ack_p50_ms": pct(0.50),
        "ack_p99_ms": pct(0.99),
        "ack_mean_ms": 1000 * statistics.fmean(latencies) if latencies else float("nan"),
    }


def run(
    loads: tuple[int, ...] = (10, 100, 500), seconds: float = 10.0, seed: int = 0
) -> dict[str, Any]:
    """Measure each load on a fresh server; returns the rows and the machine."""
    from tianxia.machine import machine

    rows = []
    for games in loads:
        with tempfile.TemporaryDirectory(prefix="tianxia-bench-") as tmp:
            server = _Server(Path(tmp))
            try:
                before = _rss_kib(server.proc.pid)
                row = asyncio.run(_load(server.base, games, seconds, seed))
                after = _rss_kib(server.proc.pid)
                row["memory_per_game_kib"] = max(0, after - before) / games
                row["server_rss_mib"] = after / 1024
                rows.append(row)
            finally:
                server.stop()
    return {"machine": machine(), "database": "sqlite (WAL, synchronous=FULL)", "loads": rows}


def to_markdown(result: dict[str, Any]) -> str:
    head = (
        "| games | connections | accepted/s | ack p50 ms | ack p99 ms | KiB per live game |\n"
        "|---:|---:|---:|---:|---:|---:|\n"
    )
    lines = [
        f"| {r['games']} | {r['connections']} | {r['accepted_per_s']:,.0f} | "
        f"{r['ack_p50_ms']:.1f} | {r['ack_p99_ms']:.1f} | {r['memory_per_game_kib']:,.0f} |"
        for r in result["loads"]
    ]
    return head + "\n".join(lines) + "\n"
