"""What the server sends each connection: frames as compact JSON, and views computed
once per state for every connection that sees the game alike."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from tianxia.server import protocol as P
from tianxia.server.testhooks import _compact


def test_a_frame_is_compact_json_of_the_message() -> None:
    msg = {
        "type": "view",
        "seq": 3,
        "events": [{"seq": 1, "text": "P1 zieht nach Zürich — 3×", "action": None}],
        "scores": [0.5, 2],
        "nested": {"a": [True, False, None], "b": (1, 2)},
    }
    text = P.encode(msg)
    assert json.loads(text) == {**msg, "nested": {"a": [True, False, None], "b": [1, 2]}}
    # Compact, keys in order, and text beyond ASCII as itself.
    assert text.startswith('{"type":"view","seq":3,"events":[{"seq":1,')
    assert " " not in text.replace("P1 zieht nach Zürich — 3×", "")
    assert "Zürich — 3×" in text


def test_a_frame_writes_what_orjson_cannot() -> None:
    # Keys that are numbers are written as text, as `json` does; an integer past 64 bits
    # is written whole (by `json`).
    assert json.loads(P.encode({1: "a", "big": 2**70})) == {"1": "a", "big": 2**70}


def test_the_tap_reads_frames_as_the_server_writes_them() -> None:
    # The outbound tap looks for hidden text in frames: it must write that text the way
    # the frames do, or text beyond ASCII would slip past it.
    value = {"hand": ["Zhōu", "Qín"], "n": 1}
    assert _compact(value) == P.encode(value)


def _reference(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


@pytest.mark.parametrize(
    "value",
    [
        {"b": 1, "a": [None, True, "x"], "c": {"z": 0, "y": -3}},
        {"name": "Zürich"},  # `json` escapes it
        {"x": 0.1, "y": 1e16, "z": float("inf")},  # numbers with fractions
        {"y": 1e16},  # an exponent without a point: orjson writes 1e16, `json` 1e+16
        {"y": [-1e-07, 2]},
        {"v": "1.5 is text"},
        {"big": 2**70},
        {2: "a", 10: "b"},  # keys that are not text
    ],
)
def test_the_canonical_text_is_jsons(value: object) -> None:
    assert P.canonical(value) == _reference(value)


@pytest.mark.parametrize(
    ("title", "players"),
    [("china", 3), ("greatwall", 4), ("emperor", 2), ("mandarin", 4), ("silkroad", 3)],
)
def test_a_state_hash_is_that_of_its_canonical_json(title: str, players: int) -> None:
    # Stored hashes are checked against the replayed log at every load: the hash of a
    # state must not change with the way it is written.
    import hashlib
    import random

    from tianxia import load_game
    from tianxia.core import CHANCE, Match
    from tianxia.server.live import state_hash

    match = Match(load_game(title, players=players), seed=11)
    rng = random.Random(11)
    for _ in range(120):
        state = match.state
        expected = hashlib.sha256(_reference(state.to_json())).hexdigest()
        assert state_hash(state) == expected
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            match.resolve_chance()
        else:
            match.play(rng.choice(state.legal_actions()))


def test_a_view_is_computed_once_per_state_for_the_connections_that_see_it_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    import tianxia.web.boards
    import tianxia.web.tableview
    from tianxia.server.live import Connection, Hub, LiveGame
    from tianxia.server.storage import Store, migrate
    from tianxia.web.tableview import apply_patch

    calls: Counter[str] = Counter()

    def counted(name: str, fn: Any) -> Any:
        def spy(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return fn(*args, **kwargs)

        return spy

    monkeypatch.setattr(LiveGame, "_shared_view", counted("view", LiveGame._shared_view))
    monkeypatch.setattr(tianxia.web.boards, "render", counted("render", tianxia.web.boards.render))
    monkeypatch.setattr(
        tianxia.web.tableview, "board_patch", counted("patch", tianxia.web.tableview.board_patch)
    )

    async def play() -> None:
        url = f"sqlite:///{tmp_path / 'views.sqlite3'}"
        migrate(url)
        hub = Hub(Store(url))
        try:
            await hub.storage.run(
                hub.storage.store.create_game,
                "g",
                "greatwall",
                2,
                {},
                hub.game("greatwall", 2, {}).VERSION,
                5,
                [("human", None)] * 2,
                None,
            )
            live = await hub.get("g")
            assert live is not None
            mover = live.table.to_move()
            got: dict[int, list[dict[str, Any]]] = {}

            def connect(seat: int | None, board: bool) -> Connection:
                k = len(got)
                got[k] = []

                async def send(msg: dict[str, Any]) -> None:
                    got[k].append(json.loads(P.encode(msg)))

                conn = Connection(send=send, seat=seat, bound=True, board=board)
                live.attach(conn)
                return conn

            async def views(n: int, of: tuple[int, ...] | None = None) -> None:
                for _ in range(500):
                    seen = got.values() if of is None else [got[k] for k in of]
                    if all(sum(m["type"] == "view" for m in ms) >= n for ms in seen):
                        return
                    await asyncio.sleep(0.01)
                raise AssertionError(f"not every connection was sent {n} views: {got}")

            browsers = [connect(mover, True) for _ in range(3)]
            other = connect(1 - mover, False)
            for _ in range(3):
                connect(None, False)
            await views(1)
            calls.clear()
            action = live.table.legal_for(mover)[0]["action"]
            msg = P.Act(type="act", action_id="a1", expected_seq=live.table.seq, action=action)
            async with live.lock:
                reply = await live.act(browsers[0], msg)
            assert reply["type"] == "accepted"
            live.broadcast()
            await views(2)
            # Three ways of seeing the game (the mover's browsers, the other seat, the
            # spectators): three views computed, one board drawn, one patch made.
            assert calls == {"view": 3, "render": 1, "patch": 1}
            sent = [[m for m in got[k] if m["type"] == "view"] for k in range(3)]
            assert all(v[1] == sent[0][1] for v in sent)
            assert "board_patch" in sent[0][1]
            fresh = connect(mover, True)  # a window opened now is sent the board whole
            await views(1)
            last = [m for m in got[len(got) - 1] if m["type"] == "view"][-1]
            assert last["board"] == apply_patch(sent[0][0]["board"], sent[0][1]["board_patch"])
            assert last["since"] == 0 and len(last["events"]) == live.table.seq
            assert sent[0][1]["since"] > 0 and len(sent[0][1]["events"]) < live.table.seq
            # A second window of a seat already present changes nobody's view: only the
            # new window's own view was computed, and nobody else was sent one.
            assert calls["view"] == 4
            assert [sum(m["type"] == "view" for m in got[k]) for k in range(len(got) - 1)] == [
                2
            ] * (len(got) - 1)
            # The other seat's only window closing changes every panel (that seat is no
            # longer present): each way still seen (the mover's windows, the spectators')
            # is computed once more, for all who see it.
            live.detach(browsers[0])
            live.detach(fresh)
            calls.clear()
            live.detach(other)
            await views(3, of=(1, 2, 4, 5, 6))
            assert calls["view"] == 2
        finally:
            hub.close()

    asyncio.run(play())
