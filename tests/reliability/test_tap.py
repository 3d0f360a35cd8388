"""The tap itself must be able to fail: handed a frame that carries what its viewer
may not know, it reports a leak; handed the viewer's own things, it does not. And two
faults the spies found stay fixed."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

from tianxia.server.live import Hub
from tianxia.server.storage import Store, migrate
from tianxia.server.testhooks import Hooks

from .bots import Conn
from .harness import hooked, new_game, running, server_state, unhandled


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def test_the_tap_reports_what_a_viewer_may_not_see(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.sqlite3'}"
    migrate(url)
    store = Store(url)
    store.create_game("g1", "greatwall", 2, {}, 1, 123456789012345678, [("human", None)] * 2, None)
    hooks = Hooks(tap_path=str(tmp_path / "tap.jsonl"))

    async def main() -> list[int]:
        hub = Hub(store, hooks=hooks)
        live = await hub.get("g1")
        assert live is not None
        t = live.table
        rng = random.Random(1)
        for _ in range(6):
            t.play(rng.choice(t.state.legal_actions()))
        state = t.state
        counts = []
        for viewer, text in (
            (0, _compact({"view": state.envelope(0, t.seq)})),  # its own view: fine
            (0, _compact({"view": state.envelope(1, t.seq)})),  # another seat's hand
            (None, _compact(state.to_json())),  # the full state
            (1, _compact({"log": "seed 123456789012345678"})),  # the seed
            (None, _compact({"legal": t.legal_for(t.to_move())})),  # the mover's options
        ):
            before = hooks.leaks
            hooks.outbound("ws", live, viewer, text)
            counts.append(hooks.leaks - before)
        hub.close()
        return counts

    own, other, full, seed, legal = asyncio.run(main())
    assert own == 0
    assert other >= 1 and full >= 1 and seed >= 1 and legal >= 1


def test_a_client_leaving_with_its_action_in_flight_stops_nobody(tmp_path: Path) -> None:
    """The server used to let the failed answer escape: the accepted action was never
    broadcast and the bots after it never moved."""
    url = f"sqlite:///{tmp_path / 'tianxia.sqlite3'}"
    with running(hooked(url, tmp_path, tap=False)) as server:

        async def main() -> None:
            for trial in range(10):
                gid, secrets = new_game(server.base, "greatwall", 2)
                state = server_state(server.base, gid)
                mover = await Conn.open(server.base, gid, secrets[state["to_move"]])
                other = await Conn.open(server.base, gid, secrets[1 - state["to_move"]])
                action = mover.view["legal"][0]["action"]
                msg = {"type": "act", "action_id": f"t{trial}", "expected_seq": state["seq"]}
                await mover.send({**msg, "action": action})
                await mover.ws.close()
                await other.wait(lambda o=other, s=state["seq"]: o.view["seq"] > s, timeout=10)
                await other.close()

        asyncio.run(main())
        assert unhandled(server) == 0
