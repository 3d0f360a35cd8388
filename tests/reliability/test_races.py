"""Races: K connections of the seat to move send conflicting actions at once, all with
the seq they saw. Exactly one is accepted in every trial; the others are refused as
stale."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from .bots import Conn
from .harness import TITLES, hooked, new_game, running, size, unhandled, write_summary

TRIALS = 1000  # per database: 2,000 in all
K = 3  # connections per seat
GAMES = 4  # played side by side: each connection stays under the rate limit


async def _game_trials(
    base: str, http: httpx.AsyncClient, title: str, trials: int, rng: random.Random
) -> dict[str, int]:
    counts = {"trials": 0, "exactly_one": 0, "refused_stale": 0, "other": 0, "games": 0}
    while counts["trials"] < trials:
        gid, secrets = await asyncio.to_thread(new_game, base, title, TITLES[title])
        counts["games"] += 1
        conns = [[await Conn.open(base, gid, s) for _ in range(K)] for s in secrets]
        try:
            while counts["trials"] < trials:
                state = (await http.get(f"/api/test/games/{gid}")).json()
                if state["status"] != "running":
                    break
                mover = conns[state["to_move"]]
                seq = state["seq"]
                await asyncio.gather(
                    *(c.wait(lambda c=c, seq=seq: c.view.get("seq") == seq) for c in mover)
                )
                legal = [x["action"] for x in mover[0].view["legal"]]
                msgs: list[dict[str, Any]] = [
                    {
                        "type": "act",
                        "action_id": uuid.UUID(int=rng.getrandbits(128)).hex,
                        "expected_seq": state["seq"],
                        "action": rng.choice(legal),
                    }
                    for _ in mover
                ]
                # The barrier: every frame written before any answer is read (each
                # connection kept under the rate limit on this side).
                await asyncio.gather(*(c.paced(m) for c, m in zip(mover, msgs)))
                replies = [(await c.answers_to(m["action_id"]))[0] for c, m in zip(mover, msgs)]
                counts["trials"] += 1
                accepted = [r for r in replies if r["type"] == "accepted"]
                if len(accepted) == 1:
                    counts["exactly_one"] += 1
                for r in replies:
                    if r["type"] == "refused" and r["code"] == "stale":
                        counts["refused_stale"] += 1
                    elif r["type"] != "accepted":
                        counts["other"] += 1
        finally:
            for row in conns:
                for c in row:
                    await c.close()
    return counts


def test_of_k_conflicting_actions_exactly_one_is_accepted(
    url: str, backend: str, tmp_path: Path
) -> None:
    started = time.monotonic()
    rng = random.Random(7)
    total = size(TRIALS)
    titles = list(TITLES)
    with running(hooked(url, tmp_path, tap=False)) as server:

        async def main() -> list[dict[str, int]]:
            share = [total // GAMES + (1 if i < total % GAMES else 0) for i in range(GAMES)]
            async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
                return await asyncio.gather(
                    *(
                        _game_trials(
                            server.base,
                            http,
                            titles[i % len(titles)],
                            n,
                            random.Random(rng.random()),
                        )
                        for i, n in enumerate(share)
                    )
                )

        parts = asyncio.run(main())
        bad = unhandled(server)
    report = {k: sum(p[k] for p in parts) for k in parts[0]}
    report.update(connections_per_seat=K, unhandled=bad)
    write_summary("races", backend, report, started)
    assert report["trials"] == total
    assert report["exactly_one"] == total, report
    assert report["refused_stale"] == total * (K - 1), report
    assert report["other"] == 0 and bad == 0, report
