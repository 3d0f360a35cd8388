"""Spies: games of every title with people and server bots in the seats, spectators
watching, reconnects, reloads, undo, a move clock that hands slow seats to a bot, error
replies, the lobby, and the replays and logs after the end. The server's tap searches
every frame and HTTP body for what its viewer may not know (docs/reliability.md); any
find is a leak."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from pathlib import Path

import httpx

from .bots import BotSeat, Conn
from .harness import TITLES, hooked, read_tap, running, size, unhandled, write_summary

SCANNED = 3_000  # outbound messages per database at CI size; 30,000 in make test-long


def _seats(title: str, rng: random.Random) -> list[str]:
    """At least one person; the others people or server bots."""
    n = TITLES[title]
    plan = [rng.choice(["open", "bot:random"]) for _ in range(n)]
    plan[rng.randrange(n)] = "open"
    return plan


async def _watch(base: str, gid: str, rng: random.Random, done: asyncio.Event) -> int:
    """A spectator who comes and goes, reloads, says wrong things and reads the lobby."""
    actions = 0
    async with httpx.AsyncClient(base_url=base) as http:
        while not done.is_set():
            conn = await Conn.open(base, gid, None, last_seq=rng.choice([0, 10**6]))
            await asyncio.sleep(rng.uniform(0.05, 0.5))
            what = rng.random()
            if what < 0.3:
                await conn.send({"type": "act", "action_id": "x", "expected_seq": 0, "action": "x"})
            elif what < 0.5:
                await conn.send("{not json")
            elif what < 0.6:
                await conn.send({"type": "hello", "secret": "forged"})
            await http.get(f"/api/games/{gid}")
            if rng.random() < 0.2:
                await http.get("/api/games")
                await http.get("/api/games", params={"status": "running"})
            await conn.close()
            actions += 1
    return actions


async def _game(base: str, title: str, rng: random.Random) -> dict[str, int]:
    plan = _seats(title, rng)
    clock = 0.4 if rng.random() < 0.3 else None
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        body = {"game": title, "players": TITLES[title], "seats": plan}
        if clock:
            body["clock"] = clock
        gid = (await http.post("/api/games", json=body)).json()["id"]
        seats = []
        for seat, kind in enumerate(plan):
            if kind == "open":
                r = await http.post(f"/api/games/{gid}/join", json={"seat": seat, "name": "Spy"})
                seats.append(
                    BotSeat(
                        title,
                        gid,
                        r.json()["secret"],
                        random.Random(rng.random()),
                        undo_rate=0.1,
                        slow_rate=0.03 if clock else 0.0,
                    )
                )
        done = asyncio.Event()
        watchers = [asyncio.create_task(_watch(base, gid, random.Random(rng.random()), done))]
        stop = asyncio.Event()

        async def play(s: BotSeat) -> None:
            # Reconnects: a seat drops now and then and comes back with its last seq.
            while not s.finished:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(s.session(base, stop), rng.uniform(0.5, 3.0))

        await asyncio.wait_for(asyncio.gather(*(play(s) for s in seats)), 600)
        done.set()
        visits = sum(await asyncio.gather(*watchers))
        # The end: every seat's replay at a few steps, the log, the last view again.
        steps = (await http.get(f"/api/games/{gid}/replay")).json()["steps"]
        for _ in range(3):
            seat = rng.choice([None, *range(TITLES[title])])
            params = {"step": rng.randint(0, steps)} | ({} if seat is None else {"seat": seat})
            await http.get(f"/api/games/{gid}/replay", params=params)
        await http.get(f"/api/games/{gid}/log")
        await http.get(f"/api/leaderboard/{title}")
        last = await Conn.open(base, gid, None)
        await last.close()
    return {
        "games": 1,
        "server_bot_seats": plan.count("bot:random"),
        "clocked_games": int(bool(clock)),
        "undone": sum(s.undone for s in seats),
        "reconnects": sum(s.connections for s in seats),
        "spectator_visits": visits,
    }


def test_no_secret_reaches_a_viewer_not_entitled_to_it(
    url: str, backend: str, tmp_path: Path
) -> None:
    started = time.monotonic()
    target = size(SCANNED)
    rng = random.Random(11)
    parts: list[dict[str, int]] = []
    server = hooked(url, tmp_path)
    # Clocks shorter than the stated minimum, so slow seats are handed to a stand-in.
    server.args = (*server.args, "--min-clock", "0.4")
    with running(server) as server:

        async def main() -> None:
            while read_tap(tmp_path).scanned < target:
                batch = await asyncio.gather(
                    *(_game(server.base, t, random.Random(rng.random())) for t in TITLES)
                )
                parts.extend(batch)

        asyncio.run(main())
        bad = unhandled(server)
    tap = read_tap(tmp_path)
    report: dict[str, object] = {k: sum(p[k] for p in parts) for k in parts[0]}
    report.update(
        scanned=tap.scanned,
        scanned_by_kind=tap.kinds,
        leaks=len(tap.leaks),
        leak_examples=tap.leaks[:5],
        unhandled=bad,
    )
    write_summary("spies", backend, report, started)
    assert tap.scanned >= target
    assert not tap.leaks, json.dumps(tap.leaks[:5], indent=1)
    assert bad == 0
