"""Crash durability: bots play every title over real websockets while the server is
killed (SIGKILL) at random instants and at each fault point, restarted, and rejoined
by every client with its last seq, until every game ends. Then the database is read
back: no acknowledged action lost, none stored that was not acknowledged, every game
finished, every acknowledged state hash given again by replaying the stored log, and
SQLite's integrity check passed after every kill.

A second run breaks the promise on purpose (the server acknowledges before it commits)
and must be caught: the harness reports lost actions there."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from serving import Server

from .bots import BotSeat
from .harness import (
    TITLES,
    hooked,
    new_game,
    read_back,
    recorded,
    size,
    sqlite_ok,
    unhandled,
)

POINTS = ("before_commit", "after_commit", "after_ack", "mid_broadcast")
# Per database: each fault point this many times, and this many kills at random instants
# (both databases together in `make test`: every point twice, 16 kills; `make test-long`
# runs ten times these, every point 20 times and 160 kills).
PER_POINT = 1
RANDOM_KILLS = 4


def _kill_plan(rng: random.Random, per_point: int, random_kills: int) -> list[str]:
    plan = [p for p in POINTS for _ in range(per_point)] + ["random"] * random_kills
    rng.shuffle(plan)
    return plan


async def _epoch(
    server: Server, seats: list[BotSeat], kind: str | None, rng: random.Random, countdown: int
) -> bool:
    """One life of the server; True if it died (a fault point fired or we killed it)."""
    env = {}
    if kind in POINTS:
        # The n-th pass kills it: somewhere in the first second or so of play.
        env["TIANXIA_TEST_FAULT"] = f"{kind}:{rng.randint(1, countdown)}"
    await asyncio.to_thread(server.start, env)
    stop = asyncio.Event()
    tasks = [asyncio.create_task(s.play(server.base, stop)) for s in seats if not s.finished]
    kill_at = time.monotonic() + rng.uniform(0.1, 2.0) if kind == "random" else None
    died = False
    give_up = time.monotonic() + 300
    while True:
        assert time.monotonic() < give_up, "no kill and no end in 300 s: the games are stuck"
        await asyncio.sleep(0.02)
        if not server.alive():
            died = True
            break
        if kill_at is not None and time.monotonic() >= kill_at:
            await asyncio.to_thread(server.stop, True)
            died = True
            break
        if all(s.finished for s in seats):
            break
    stop.set()
    await asyncio.gather(*tasks)
    await asyncio.to_thread(server.stop, not died)
    return died


def run_crashes(
    url: str,
    folder: Path,
    rng: random.Random,
    plan: list[str],
    titles: dict[str, int],
    lie: bool = False,
) -> dict[str, Any]:
    """Kill the server as `plan` says (fault points, or "random"), then, unless the
    server lies (its games may then never end in the database), play every game to
    its end; read the database back and count."""
    server = hooked(url, folder, tap=False, fixed_port=True)
    if lie:
        server.env["TIANXIA_TEST_LIE"] = "ack_before_commit"
    seats: list[BotSeat] = []
    kills: Counter[str] = Counter()
    integrity: list[bool] = []
    misses = 0

    def new_batch() -> None:
        server.start()
        try:
            for game, players in titles.items():
                gid, secrets = new_game(server.base, game, players)
                seats.extend(
                    BotSeat(game, gid, s, random.Random(rng.getrandbits(64))) for s in secrets
                )
        finally:
            server.stop()

    async def supervise() -> None:
        nonlocal misses
        todo = list(plan)
        while todo or not (lie or all(s.finished for s in seats)):
            if all(s.finished for s in seats):
                await asyncio.to_thread(new_batch)
            kind = todo.pop() if todo else None
            if await _epoch(server, seats, kind, rng, 3 if lie else 60):
                assert kind is not None, "the server died by itself"
                kills[kind] += 1
                ok = sqlite_ok(url)
                if ok is not None:
                    integrity.append(ok)
            elif kind is not None:
                misses += 1  # the games ended before the fault point's turn came
                todo.append(kind)

    asyncio.run(supervise())
    stored = read_back(url)
    acked = {aid: (s.game_id, seq, h) for s in seats for aid, seq, h in s.acked}
    lost = 0
    for aid, (gid, seq, h) in acked.items():
        found = next((r for r in stored[gid].rows if r.client_id == aid), None)
        if found is None or found.seq != seq or found.state_hash != h:
            lost += 1
    sent = {aid for s in seats for aid in s.sent}
    players_rows = [r for g in stored.values() for r in g.rows if r.seat is not None]
    # Phantom: a seat's action no client sent. An action sent, committed and never
    # acknowledged is no phantom: the server died between its commit and its answer, and
    # the client came back to a game already over (its last move), so it never asked again.
    phantom = sum(1 for r in players_rows if r.client_id is None or r.client_id not in sent)
    unanswered = sum(1 for r in players_rows if r.client_id in sent and r.client_id not in acked)
    games = [g for gid, g in stored.items() if any(s.game_id == gid for s in seats)]
    return {
        "kills": sum(kills.values()),
        "kills_by_point": dict(kills),
        "fault_points_that_missed": misses,
        "restarts": sum(kills.values()),
        "games": len(games),
        "games_by_title": dict(Counter(g.game for g in games)),
        "games_finished": sum(1 for g in games if g.status == "finished" and g.terminal),
        "actions_acked": len(acked),
        "actions_stored": sum(len(g.rows) for g in games),
        "lost": lost,
        "phantom": phantom,
        "stored_sent_unacknowledged": unanswered,
        "replay_mismatches": sum(1 for g in games if g.replay_mismatch is not None),
        "integrity_checks": len(integrity),
        "integrity_failures": sum(1 for ok in integrity if not ok),
        "reconnects": sum(s.connections for s in seats),
        "unhandled": unhandled(server),
    }


@pytest.mark.xdist_group("crash")
def test_no_acknowledged_action_is_lost_across_kills(
    url: str, backend: str, tmp_path: Path
) -> None:
    rng = random.Random(16)
    plan = _kill_plan(rng, size(PER_POINT), size(RANDOM_KILLS))
    report = recorded("crash", backend, lambda: run_crashes(url, tmp_path, rng, plan, TITLES))
    assert report["kills"] == len(plan), report
    assert all(report["kills_by_point"].get(p, 0) == size(PER_POINT) for p in POINTS), report
    assert report["lost"] == 0, report
    assert report["phantom"] == 0, report
    assert report["games_finished"] == report["games"], report
    assert report["replay_mismatches"] == 0, report
    assert report["integrity_failures"] == 0, report
    # SIGKILL leaves no traceback: anything there is an exception the server let through.
    assert report["unhandled"] == 0, report


def test_the_harness_catches_an_ack_before_commit(url: str, backend: str, tmp_path: Path) -> None:
    """The same harness against a server that acknowledges first and writes 50 ms later:
    the kills must show as lost actions, or the harness proves nothing."""
    rng = random.Random(61)
    report = recorded(
        "crash-lying-server",
        backend,
        lambda: run_crashes(url, tmp_path, rng, ["before_commit"] * 3, {"greatwall": 2}, lie=True),
    )
    assert report["kills"] == 3
    assert report["lost"] >= 1, report
