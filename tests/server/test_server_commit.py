"""The one path of change: an action whose write fails leaves the game as it was,
its chance stream included, so the same action written next draws what it would have."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from tianxia.server import protocol as P
from tianxia.server.live import Connection, Hub
from tianxia.server.storage import Store, migrate


async def _nothing(msg: object) -> None:
    return None


async def _play(folder: Path, title: str, players: int, fail_every: int) -> list[str]:
    """A game of random seeded moves; with `fail_every`, every so many writes fail once
    (the database refuses) and the move is sent again. Returns the stored log."""
    url = f"sqlite:///{folder / f'{title}-{fail_every}.sqlite3'}"
    migrate(url)
    store = Store(url)
    failing = [False]

    def fault(point: str) -> None:
        if point == "before_commit" and failing[0]:
            failing[0] = False
            raise OSError("disk full")

    hub = Hub(store, bot_processes=0)
    try:
        await hub.storage.run(
            store.create_game,
            "g",
            title,
            players,
            {},
            hub.game(title, players, {}).VERSION,
            11,
            [("human", None)] * players,
            None,
        )
        live = await hub.get("g")
        assert live is not None
        store.fault = fault
        conns = [Connection(send=_nothing, seat=s, bound=True) for s in range(players)]
        rng = random.Random(3)
        refused = 0
        for n in range(60):
            t = live.table
            if t.state.is_terminal():
                break
            seat = t.to_move()
            action = rng.choice(t.legal_for(seat))["action"]
            for attempt in range(2):
                failing[0] = fail_every > 0 and n % fail_every == 0 and attempt == 0
                before = (t.seq, t.state, t.match.rng.getstate())
                msg = P.Act(
                    type="act", action_id=f"{n}-{attempt}", expected_seq=t.seq, action=action
                )
                async with live.lock:
                    reply = await live.act(conns[seat], msg)
                if reply["type"] == "accepted":
                    break
                assert reply["code"] == P.UNAVAILABLE
                refused += 1
                assert (t.seq, t.state, t.match.rng.getstate()) == before
        if fail_every:
            assert refused > 0
        return [r.action for r in store.log("g")]
    finally:
        hub.close()


@pytest.mark.parametrize(("title", "players"), [("greatwall", 2), ("china", 3), ("silkroad", 2)])
def test_a_failed_write_leaves_the_game_and_its_chance_stream_as_they_were(
    tmp_path: Path, title: str, players: int
) -> None:
    failed = asyncio.run(_play(tmp_path, title, players, fail_every=3))
    clean = asyncio.run(_play(tmp_path, title, players, fail_every=0))
    assert failed == clean
    assert len(clean) > 30
