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
