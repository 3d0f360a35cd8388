"""The contract of docs/engine.md, checked on every registered game."""

from __future__ import annotations

import json
import os

import pytest
from harness import Case, cases, check_bad_construction, check_game

import tianxia
from tianxia.core import Match, NotationError

GAMES = tianxia.list_games()
SEEDS = range(int(os.environ.get("TIANXIA_CONFORMANCE_SEEDS", "2")))


@pytest.mark.parametrize("case", cases(GAMES))
def test_random_games_keep_the_contract(case: Case) -> None:
    check_game(case, SEEDS)


@pytest.mark.parametrize("name", GAMES)
def test_bad_construction_is_refused(name: str) -> None:
    check_bad_construction(name)


@pytest.mark.parametrize("name", GAMES)
def test_bad_input_is_refused_and_changes_nothing(name: str) -> None:
    game = tianxia.load_game(name)
    m = Match(game, seed=1)
    m.resolve_chance()
    before = m.state.to_json()
    length = len(m.log)
    for bad in ("", "   ", "no such move", "\x00", "9" * 40):
        with pytest.raises(NotationError):
            m.state.parse_action(bad)
        with pytest.raises(NotationError):
            m.play(bad)
    for bad_id in (-1, 10**9):
        with pytest.raises(NotationError):
            m.play(bad_id)
    assert m.state.to_json() == before and len(m.log) == length


@pytest.mark.parametrize("name", GAMES)
def test_info_is_declared(name: str) -> None:
    game = tianxia.load_game(name)
    info = game.info
    assert info.name == name and info.title and info.version >= 1
    assert info.num_distinct_actions > 0 and info.max_game_length > 0
    json.dumps(game.spec())
    json.dumps(game.layout())


@pytest.mark.parametrize("name", GAMES)
def test_nothing_mutable_is_shared_between_games(name: str) -> None:
    """Changing one observation or layout leaves a fresh game of the same title as it was."""
    first = tianxia.load_game(name)
    m = Match(first, seed=2)
    m.resolve_chance()
    fresh_obs = json.dumps(
        Match(tianxia.load_game(name), seed=2).state.observation(0), sort_keys=True
    )
    fresh_layout = json.dumps(tianxia.load_game(name).layout(), sort_keys=True)
    for thing in (m.state.observation(0), first.layout(), m.state.observation(None)):
        _scribble(thing)
    again = Match(tianxia.load_game(name), seed=2)
    again.resolve_chance()
    assert (
        json.dumps(Match(tianxia.load_game(name), seed=2).state.observation(0), sort_keys=True)
        == fresh_obs
    )
    assert json.dumps(tianxia.load_game(name).layout(), sort_keys=True) == fresh_layout
    assert again.state == m.state


def _scribble(data: object) -> None:
    """Change every dict and list inside `data` in place."""
    if isinstance(data, dict):
        for k in list(data):
            _scribble(data[k])
            data[k] = "scribbled"
        data["scribbled"] = True
    elif isinstance(data, list):
        for x in data:
            _scribble(x)
        data.append("scribbled")
