"""What the server sends each connection: frames as compact JSON, and views computed
once per state for every connection that sees the game alike."""

from __future__ import annotations

import json

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
