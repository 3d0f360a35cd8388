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


def _china_v1() -> dict[str, object]:
    data = json.loads((CORPUS / "china-3p-seed6-finished.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_an_older_china_save_replays_by_its_notation() -> None:
    data = _china_v1()
    m = Match.from_json(data)
    assert data["rules_version"] == 1 < m.game.VERSION
    now = m.to_json()
    # Wei's seventh field moved the ids: read as ids, the save would name other actions.
    assert now["log"] == data["log"]
    assert now["ids"] != data["ids"]
    assert now["rules_version"] == m.game.VERSION
    # The replayed match saves under the current version and loads again by its ids.
    again = Match.from_json(now)
    assert again.state == m.state


def test_the_ids_of_an_older_china_save_no_longer_replay() -> None:
    data = {**_china_v1(), "rules_version": Match.from_json(_china_v1()).game.VERSION}
    with pytest.raises(ValueError, match="entry 1: id"):
        Match.from_json(data)


def test_an_older_save_whose_notation_no_longer_replays_is_refused() -> None:
    data = _china_v1()
    log = list(data["log"])  # type: ignore[call-overload]
    first_house = next(i for i, a in enumerate(log) if a.startswith("house "))
    log[first_house] = "house Wei.9"
    with pytest.raises(ValueError) as err:
        Match.from_json({**data, "log": log})
    message = str(err.value)
    assert "rules version 1 of china" in message and "no longer replays" in message
    assert f"entry {first_house + 1} ('house Wei.9')" in message


def test_an_older_save_with_ids_only_is_refused() -> None:
    data = {**_china_v1(), "log": []}
    with pytest.raises(ValueError, match="no notation"):
        Match.from_json(data)
