"""Sign-in and a signed-in page load under the server benchmark's load, and what a flood
of sign-ins does to the players' moves.

Run: `.venv/bin/python benchmarks/server/accounts.py [--games 100] [--offered 1000]
[--seconds 20] [--flood 24] [--record FILE]`.

One `tianxia serve`, started as `tianxia bench --server` starts it but trusting
`X-Forwarded-For` from loopback, carries the bench's load, run in a process of its own:
`--games` games kept going, their actions offered as Poisson arrivals at `--offered`
actions/s in all (`tianxia.server.bench`). Beside it, this process measures, in two
phases of `--seconds` each:

- quiet: one sign-in (`POST /api/session`, a password hash) every 0.2 s and one page
  load with the session every 0.1 s (`GET /api/me`, then `GET /` with the cookie);
- flood: the same, while `--flood` clients, each from an address of its own, sign in
  back to back as fast as they are answered (more than the bounded hasher takes: the
  rest are refused with 503).

Reported per phase: p50 and p99 of each (ms), the sign-ins answered 200 and 503, and
the load's own move acknowledgements (p50, p99, accepted/s): the flood must not move
them much.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from tianxia.machine import machine
from tianxia.server.bench import _load

PASSWORD = "a password for the benchmark"


def _pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))]


class _Serve:
    """`tianxia serve` as the server bench starts it (no quotas per address: the load
    comes from one), behind a trusted proxy on loopback, so that each flooding client
    may name an address of its own (`X-Forwarded-For`), as many strangers would."""

    def __init__(self, folder: Path) -> None:
        self.log = folder / "server.log"
        argv = [
            *(sys.executable, "-c", "from tianxia.cli.main import main; main()", "serve"),
            *("--port", "0", "--database", f"sqlite:///{folder / 'bench.sqlite3'}"),
            *("--games-per-minute", "0", "--open-games", "0", "--connections-per-address", "0"),
            *("--trusted-proxy", "127.0.0.1"),
        ]
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(argv, cwd=folder, stdout=out, stderr=subprocess.STDOUT)
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


def _load_process(base: str, games: int, seconds: float, offered: float, out: Any) -> None:
    out.put(asyncio.run(_load(base, games, seconds, 0, offered)))


async def _measure(base: str, seconds: float, flood: int) -> dict[str, Any]:
    sign_ins: list[float] = []
    me: list[float] = []
    page: list[float] = []
    codes: dict[str, int] = {}
    deadline = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=flood + 8)
    async with (
        httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http,
        httpx.AsyncClient(base_url=base, timeout=60) as browser,
    ):
        # The page loads' browser: a session of its own, of an account of its own.
        r = await browser.post("/api/session", json={"name": "Reader", "password": PASSWORD})
        r.raise_for_status()

        async def signing(every: float, record: bool, address: str) -> None:
            while time.monotonic() < deadline:
                t = time.perf_counter()
                r = await http.post(
                    "/api/session",
                    json={"name": "Bench", "password": PASSWORD},
                    headers={"X-Forwarded-For": address},
                )
                took = time.perf_counter() - t
                key = str(r.status_code) if record else f"flood {r.status_code}"
                codes[key] = codes.get(key, 0) + 1
                if record and r.status_code == 200:
                    sign_ins.append(took)
                if every:
                    await asyncio.sleep(max(0.0, every - took))
                elif r.status_code == 503:
                    await asyncio.sleep(0.01)

        async def loading() -> None:
            while time.monotonic() < deadline:
                t = time.perf_counter()
                r = await browser.get("/api/me")
                r.raise_for_status()
                me.append(time.perf_counter() - t)
                t = time.perf_counter()
                r = await browser.get("/")
                r.raise_for_status()
                page.append(time.perf_counter() - t)
                await asyncio.sleep(0.1)

        await asyncio.gather(
            signing(0.2, True, "192.0.2.1"),
            loading(),
            *(signing(0.0, False, f"198.51.100.{i}") for i in range(flood)),
        )
    return {
        "sign_in_p50_ms": _pct(sign_ins, 0.5),
        "sign_in_p99_ms": _pct(sign_ins, 0.99),
        "sign_ins": len(sign_ins),
        "me_p50_ms": _pct(me, 0.5),
        "me_p99_ms": _pct(me, 0.99),
        "page_p50_ms": _pct(page, 0.5),
        "page_p99_ms": _pct(page, 0.99),
        "page_loads": len(page),
        "answers": codes,
    }


def run(games: int, offered: float, seconds: float, flood: int) -> dict[str, Any]:
    phases = []
    with tempfile.TemporaryDirectory(prefix="tianxia-accounts-") as tmp:
        server = _Serve(Path(tmp))
        try:
            # Two accounts: the sign-ins' ("Bench") and the page loads' ("Reader"), whose
            # session the sign-ins' must not push out (an account keeps its 50 newest).
            for account in ("Bench", "Reader"):
                r = httpx.post(
                    f"{server.base}/api/accounts",
                    json={"name": account, "password": PASSWORD},
                    timeout=60,
                )
                r.raise_for_status()
            for name, crowd in (("quiet", 0), ("flood", flood)):
                results: Any = multiprocessing.get_context("spawn").Queue()
                # The load's own set-up (creating and joining its games) comes first.
                load = multiprocessing.get_context("spawn").Process(
                    target=_load_process,
                    args=(server.base, games, seconds + 4, offered, results),
                )
                load.start()
                time.sleep(3)
                row = asyncio.run(_measure(server.base, seconds, crowd))
                bench = results.get(timeout=300)
                load.join(timeout=60)
                row.update(
                    phase=name,
                    flood_clients=crowd,
                    move_ack_p50_ms=bench["ack_p50_ms"],
                    move_ack_p99_ms=bench["ack_p99_ms"],
                    accepted_per_s=bench["accepted_per_s"],
                )
                phases.append(row)
        finally:
            server.stop()
    return {
        "machine": machine(),
        "games": games,
        "offered_per_s": offered,
        "seconds": seconds,
        "phases": phases,
    }


def to_markdown(result: dict[str, Any]) -> str:
    head = (
        "| phase | sign-in p50 / p99 ms | /api/me p50 / p99 ms | GET / p50 / p99 ms "
        "| sign-ins 200 / 503 (flood) | move ack p50 / p99 ms | accepted/s |\n"
        "|---|---:|---:|---:|---:|---:|---:|\n"
    )
    lines = []
    for p in result["phases"]:
        a = p["answers"]
        ok = a.get("200", 0) + a.get("flood 200", 0)
        busy = a.get("503", 0) + a.get("flood 503", 0)
        lines.append(
            f"| {p['phase']} ({p['flood_clients']} flooding) "
            f"| {p['sign_in_p50_ms']:.0f} / {p['sign_in_p99_ms']:.0f} "
            f"| {p['me_p50_ms']:.1f} / {p['me_p99_ms']:.1f} "
            f"| {p['page_p50_ms']:.1f} / {p['page_p99_ms']:.1f} "
            f"| {ok} / {busy} | {p['move_ack_p50_ms']:.1f} / {p['move_ack_p99_ms']:.1f} "
            f"| {p['accepted_per_s']:,.0f} |"
        )
    return head + "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--offered", type=float, default=1000.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--flood", type=int, default=24)
    parser.add_argument("--record", type=Path)
    args = parser.parse_args()
    result = run(args.games, args.offered, args.seconds, args.flood)
    text = json.dumps(result, indent=2)
    if args.record:
        args.record.parent.mkdir(parents=True, exist_ok=True)
        args.record.write_text(text + "\n")
    print(text)
    print(to_markdown(result))


if __name__ == "__main__":
    main()
