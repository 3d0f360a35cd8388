"""Saves written by Tianxia 0.1 (before the state base) still load, replay and finish."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tianxia.core import Match

CORPUS = Path(__file__).resolve().parents[1] / "data" / "saves-0.1"
EXPECTED = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_old_save_loads_to_the_same_position(name: str) -> None:
    m = Match.load(CORPUS / name)
    want = EXPECTED[name]
    assert len(m.log) == want["length"]
    assert m.state.is_terminal() == want["terminal"]
    assert m.state.current_player() == want["to_move"]
    assert m.state.scores() == want["scores"]
    assert m.state.returns() == want["returns"]
    assert [str(a) for a in m.state.legal_actions()] == want["legal"]


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if "midgame" in n))
def test_old_save_plays_on_to_the_end(name: str) -> None:
    m = Match.load(CORPUS / name)
    rng = random.Random(3)
    while True:
        m.resolve_chance()
        if m.state.is_terminal():
            break
        m.play(rng.choice(m.state.legal_actions()))
    assert len(m.state.returns()) == m.game.players
