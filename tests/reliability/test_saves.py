"""Save compatibility: every stored game of the corpus (tests/data/server-saves/, made by
`reliability.saves`) replays to the states it stored, loads in a server, and plays on to
its end; a rule changed without a new rules version is caught, naming the game and the
seq; a game of a newer rules version, or an older one that no longer replays, is
refused with a message that says so, and the server goes on serving the others."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from .bots import BotSeat
from .harness import hooked, read_back, running, server_state, unhandled, write_summary, ws_url
from .saves import SaveMismatch, corpus, put, replay


def test_the_corpus_holds_every_title_finished_and_running() -> None:
    have = {(d["game"], d["status"]) for _, d in corpus()}
    for title in ("china", "greatwall", "emperor", "mandarin", "silkroad"):
        assert {(title, "finished"), (title, "running")} <= have
    # And games of an older rules version, which load under the options that keep it.
    assert any(d["rules_version"] < 2 and d["game"] == "emperor" for _, d in corpus())


def test_every_stored_game_loads_and_plays_to_its_end(
    url: str, backend: str, tmp_path: Path
) -> None:
    from tianxia.core.registry import game_class
    from tianxia.server.storage import migrate

    started = time.monotonic()
    migrate(url)
    games: dict[str, tuple[str, dict[str, Any], list[str]]] = {}
    for i, (name, data) in enumerate(corpus()):
        replayed = replay(name, data)
        gid = f"save{i:02d}"
        games[gid] = (name, data, put(url, gid, data, replayed))
    # Two it must refuse: one of a newer rules version, one whose stored state at seq 5
    # is not what the rules give (as after a rule change without a new version).
    name, data = next(
        (n, d) for n, d in corpus() if d["game"] == "china" and d["status"] == "running"
    )
    newer = {**data, "rules_version": game_class(data["game"]).VERSION + 1}
    put(url, "newer", newer, replay(name, data))
    put(url, "changed", data, replay(name, data))
    _tamper(url, "changed", 5)

    with running(hooked(url, tmp_path, tap=False)) as server:
        base = server.base
        loaded = refused = 0
        for gid, (name, data, _) in games.items():
            state = server_state(base, gid)
            assert state["seq"] == len(data["log"]), name
            assert state["state_hash"] == data["final_hash"], name
            assert state["status"] == data["status"], name
            loaded += 1
        messages = {}
        for gid in ("newer", "changed"):
            r = httpx.get(f"{base}/api/games/{gid}")
            assert r.status_code == 409, r.text
            messages[gid] = r.json()["detail"]
            with connect(ws_url(base, gid), open_timeout=10) as ws:
                reply = json.loads(ws.recv(timeout=10))
                assert reply["code"] == "unloadable"
            refused += 1
        assert "newer release" in messages["newer"] and "china" in messages["newer"]
        assert "game changed (china" in messages["changed"] and "seq 5 " in messages["changed"]
        listed = {g["id"] for g in httpx.get(f"{base}/api/games").json()}
        assert set(games) <= listed and not {"newer", "changed"} & listed

        async def finish() -> list[BotSeat]:
            rng = random.Random(4)
            seats = [
                BotSeat(data["game"], gid, secret, random.Random(rng.getrandbits(64)))
                for gid, (_, data, secrets) in games.items()
                if data["status"] == "running"
                for secret in secrets
            ]
            stop = asyncio.Event()
            await asyncio.wait_for(asyncio.gather(*(s.play(base, stop) for s in seats)), 300)
            return seats

        seats = asyncio.run(finish())
        logs = sum(httpx.get(f"{base}/api/games/{gid}/log").status_code == 200 for gid in games)
        bad = unhandled(server)
    stored = read_back(url)
    mine = {gid: stored[gid] for gid in games}
    report = {
        "saves": len(games),
        "saves_by_title": dict(Counter(d["game"] for _, d, _ in games.values())),
        "older_rules_version": sum(
            1 for _, d, _ in games.values() if d["rules_version"] < game_class(d["game"]).VERSION
        ),
        "loaded": loaded,
        "played_on": len({s.game_id for s in seats}),
        "actions_played_on": sum(len(s.acked) for s in seats),
        "finished": sum(1 for g in mine.values() if g.status == "finished" and g.terminal),
        "logs_served": logs,
        "replay_mismatches": sum(1 for g in mine.values() if g.replay_mismatch is not None),
        "refused": refused,
        "refusals": messages,
        "unhandled": bad,
    }
    write_summary("saves", backend, report, started)
    assert report["finished"] == len(games), report
    assert report["replay_mismatches"] == 0, report
    assert bad == 0, report


def _tamper(url: str, game_id: str, seq: int) -> None:
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    with engine.begin() as c:
        c.execute(
            sa.text("UPDATE actions SET state_hash = :h WHERE game_id = :g AND seq = :s"),
            {"h": "0" * 64, "g": game_id, "s": seq},
        )
    engine.dispose()


def test_a_rule_changed_without_a_new_rules_version_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stand-in rule change in Great Wall (every action of seat P2 now writes one more
    line to the game's log): both the corpus check and the server's load name the game
    and the first seq it touched."""
    from tianxia.games.greatwall.state import GreatWallState
    from tianxia.server.live import Hub, Unloadable
    from tianxia.server.storage import Store, migrate

    name, data = next(
        (n, d) for n, d in corpus() if d["game"] == "greatwall" and d["status"] == "finished"
    )
    first = next(seq for seq, (seat, _, _) in enumerate(data["log"], start=1) if seat == 1)
    url = f"sqlite:///{tmp_path / 'rules.sqlite3'}"
    migrate(url)
    put(url, "gw", data, replay(name, data))

    original = GreatWallState._apply

    def changed(self: GreatWallState, action: Any) -> Any:
        new = original(self, action)
        if self.current_player() != 1:
            return new
        return new.replace(log=new.log.add(len(new.log) + 1, "a new rule"))

    monkeypatch.setattr(GreatWallState, "_apply", changed)
    with pytest.raises(SaveMismatch, match=rf"{name} \(greatwall, rules version 1\): seq {first} "):
        replay(name, data)

    async def load() -> None:
        hub = Hub(Store(url))
        try:
            await hub.get("gw")
        finally:
            hub.close()

    with pytest.raises(Unloadable, match=rf"game gw \(greatwall, rules version 1\).* seq {first} "):
        asyncio.run(load())
