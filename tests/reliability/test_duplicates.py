"""Duplicates: an action id sent again 1-5 times, at once (every copy written before any
answer is read), 1-100 ms apart, on a new connection after a disconnect (a clean close
or a reset), and after the server was killed (SIGKILL) and restarted. The action is
applied once: the game's seq moves past it and the chance outcomes it drew, no further,
and the stored log holds its id once, at its seq, with only chance after it up to that
seq; and every answer to every copy is the first answer, byte for byte."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from .bots import Conn
from .harness import TITLES, hooked, new_game, read_back, recorded, size, unhandled

RESENDS = 800  # copies per database at CI size; 8,000 in make test-long
GAMES = 6  # played side by side
RESTARTS = 3  # kills per database; the copies of each life's restart trials go after it
MODES = ("immediate", "spaced", "disconnect", "restart")


@dataclass
class Table:
    title: str
    game_id: str
    secrets: list[str]
    conns: list[Conn] = field(default_factory=list)
    seq: int = 0
    over: bool = False


@dataclass
class Trial:
    """One action and its copies: every answer's frame, and the game's seq before the
    action and after it (with its chance) and every copy were through."""

    game_id: str
    seat: int
    mode: str
    copies: int
    msg: dict[str, Any]
    seq_before: int
    seq_after: int = -1
    answers: list[str] = field(default_factory=list)
    moved_on: bool = False  # a copy moved the game past `seq_after`


async def _referee(http: httpx.AsyncClient, gid: str) -> dict[str, Any]:
    r = await http.get(f"/api/test/games/{gid}")
    r.raise_for_status()
    return dict(r.json())


async def _raw(conn: Conn, aid: str, count: int) -> list[str]:
    await conn.answers_to(aid, count)
    return conn.raw[aid][-count:]


async def _trial(
    base: str, http: httpx.AsyncClient, table: Table, rng: random.Random, mode: str, copies: int
) -> Trial | None:
    seq = table.seq
    if table.over:
        return None
    # Every seat's view of this seq has come: the one with legal actions is to move.
    for c in table.conns:
        await c.wait(lambda c=c: c.view.get("seq") == seq)
    seat = next(s for s, c in enumerate(table.conns) if c.view["legal"])
    conn = table.conns[seat]
    msg = {
        "type": "act",
        "action_id": uuid.UUID(int=rng.getrandbits(128)).hex,
        "expected_seq": seq,
        "action": rng.choice(conn.view["legal"])["action"],
    }
    aid = msg["action_id"]
    trial = Trial(table.game_id, seat, mode, copies, msg, seq)
    if mode == "immediate":
        for _ in range(copies + 1):
            await conn.paced(msg)
        trial.answers = await _raw(conn, aid, copies + 1)
    elif mode == "spaced":
        await conn.paced(msg)
        for _ in range(copies):
            await asyncio.sleep(rng.uniform(0.001, 0.1))
            await conn.paced(msg)
        trial.answers = await _raw(conn, aid, copies + 1)
    elif mode == "disconnect":
        await conn.paced(msg)
        trial.answers = await _raw(conn, aid, 1)
        if rng.random() < 0.5:
            await conn.close()
        else:
            conn.abort()  # no close frame: the server learns of it from the reset
            await conn.reader
        conn = table.conns[seat] = await Conn.open(
            base, table.game_id, table.secrets[seat], last_seq=seq
        )
        for _ in range(copies):
            await conn.paced(msg)
        trial.answers += await _raw(conn, aid, copies)
    else:  # restart: the copies go once the server has been killed and started again
        await conn.paced(msg)
        trial.answers = await _raw(conn, aid, 1)
    after = await _referee(http, table.game_id)
    trial.seq_after = table.seq = after["seq"]
    table.over = after["status"] != "running"
    return trial


async def _life(
    base: str, rng: random.Random, tables: dict[str, Table], budget: int, last: bool
) -> list[Trial]:
    """One server life: trials in `GAMES` games side by side until `budget` copies are
    spent (a game that ends makes way for a new one)."""
    trials: list[Trial] = []
    left = [budget]
    titles = list(TITLES)
    modes = MODES[:3] if last else MODES
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:

        async def lane(i: int, sub: random.Random) -> None:
            table: Table | None = None
            while left[0] > 0:
                # Taken from the budget before any wait: the lanes share it.
                copies = min(sub.randint(1, 5), left[0])
                left[0] -= copies
                if table is None:
                    title = titles[(i + len(tables)) % len(titles)]
                    gid, secrets = await asyncio.to_thread(new_game, base, title, TITLES[title])
                    table = tables[gid] = Table(title, gid, secrets)
                    table.seq = (await _referee(http, gid))["seq"]  # after the opening deal
                    table.conns = [await Conn.open(base, gid, s) for s in secrets]
                trial = await _trial(base, http, table, sub, sub.choice(modes), copies)
                if trial is None:
                    left[0] += copies
                    for c in table.conns:
                        await c.close()
                    table = None
                else:
                    trials.append(trial)
            if table is not None:
                for c in table.conns:
                    await c.close()

        await asyncio.gather(*(lane(i, random.Random(rng.getrandbits(64))) for i in range(GAMES)))
    return trials


async def _after_restart(base: str, tables: dict[str, Table], waiting: list[Trial]) -> None:
    """The copies of the restart trials, each game's on new connections, in order."""
    by_game: dict[str, list[Trial]] = {}
    for t in waiting:
        by_game.setdefault(t.game_id, []).append(t)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:

        async def game(gid: str, items: list[Trial]) -> None:
            table = tables[gid]
            before = (await _referee(http, gid))["seq"]
            conns: dict[int, Conn] = {}
            for t in items:
                if t.seat not in conns:
                    conns[t.seat] = await Conn.open(base, gid, table.secrets[t.seat])
                for _ in range(t.copies):
                    await conns[t.seat].paced(t.msg)
                t.answers += await _raw(conns[t.seat], t.msg["action_id"], t.copies)
            for c in conns.values():
                await c.close()
            if (await _referee(http, gid))["seq"] != before:
                for t in items:
                    t.moved_on = True

        await asyncio.gather(*(game(g, items) for g, items in by_game.items()))


def run_duplicates(
    url: str, folder: Path, rng: random.Random, resends: int, restarts: int, lie: str = ""
) -> dict[str, Any]:
    """Spend `resends` copies over `restarts` + 1 server lives, killing the server
    between them; then read the database back and judge every trial."""
    server = hooked(url, folder, tap=False, fixed_port=True)
    if lie:
        server.env["TIANXIA_TEST_LIE"] = lie
    tables: dict[str, Table] = {}
    trials: list[Trial] = []
    lives = restarts + 1
    shares = [resends // lives + (1 if i < resends % lives else 0) for i in range(lives)]
    waiting: list[Trial] = []
    for n, share in enumerate(shares):
        last = n == lives - 1
        server.start()
        try:
            if waiting:
                asyncio.run(_after_restart(server.base, tables, waiting))
            done = asyncio.run(_life(server.base, rng, tables, share, last))
        finally:
            server.stop(kill=not last)
        trials += done
        waiting = [t for t in done if t.mode == "restart"]
    return _verdict(url, trials, restarts, unhandled(server))


def _verdict(url: str, trials: list[Trial], kills: int, bad: int) -> dict[str, Any]:
    stored = read_back(url)
    applied_twice = not_applied = differing = 0
    examples: list[str] = []
    for t in trials:
        rows = stored[t.game_id].rows
        mine = [r for r in rows if r.client_id == t.msg["action_id"]]
        between = [r for r in rows if t.seq_before < r.seq <= t.seq_after]
        once = (
            len(mine) == 1
            and mine[0].seq == t.seq_before + 1
            and not t.moved_on
            and all(r.seat is None for r in between[1:])
            and len(between) == t.seq_after - t.seq_before >= 1
        )
        if not mine:
            not_applied += 1
        elif not once:
            applied_twice += 1
        if len(t.answers) != t.copies + 1 or len(set(t.answers)) != 1:
            differing += 1
            if len(examples) < 5:
                examples.append(f"{t.mode}: {t.answers}")
    copies = Counter[str]()
    for t in trials:
        copies[t.mode] += t.copies
    return {
        "trials": len(trials),
        "resends": sum(t.copies for t in trials),
        "resends_by_mode": dict(copies),
        "accepted_first": sum(1 for t in trials if '"type":"accepted"' in t.answers[0]),
        "kills": kills,
        "games": len({t.game_id for t in trials}),
        "applied_more_than_once": applied_twice,
        "not_applied": not_applied,
        "answers_not_identical": differing,
        "examples": examples,
        "unhandled": bad,
    }


def test_a_resent_action_is_applied_once_and_answered_alike(
    url: str, backend: str, tmp_path: Path
) -> None:
    report = recorded(
        "duplicates",
        backend,
        lambda: run_duplicates(url, tmp_path, random.Random(5), size(RESENDS), RESTARTS),
    )
    assert report["resends"] == size(RESENDS), report
    assert set(report["resends_by_mode"]) == set(MODES), report
    assert report["applied_more_than_once"] == 0, report
    assert report["not_applied"] == 0, report
    assert report["answers_not_identical"] == 0, report
    assert report["unhandled"] == 0, report


def test_the_harness_catches_a_server_that_forgets_resends(
    url: str, backend: str, tmp_path: Path
) -> None:
    """Against a server that judges every copy as a new action, the copies must show as
    answers that differ (refused as stale), or the harness proves nothing."""
    report = recorded(
        "duplicates-forgetful-server",
        backend,
        lambda: run_duplicates(url, tmp_path, random.Random(50), 60, 1, lie="forget_resends"),
    )
    assert report["answers_not_identical"] >= 1, report
