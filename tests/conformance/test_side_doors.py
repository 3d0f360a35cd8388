"""Bad input through the engine's side doors is refused and changes nothing, in every game.

Out-of-range seats, action objects built by hand with fields of the wrong type or out of
range, and saved states corrupted one value at a time.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tianxia
from tianxia.core import IllegalActionError, Match, NotationError, State

GAMES = tianxia.list_games()
BAD_SEATS: tuple[Any, ...] = (-1, -2, 99, True, "0", 1.0)


def midgame(name: str, steps: int = 40, seed: int = 4) -> Match:
    game = tianxia.load_game(name)
    m = Match(game, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        m.resolve_chance()
        if m.state.is_terminal():
            break
        m.play(rng.choice(m.state.legal_actions()))
    m.resolve_chance()
    return m


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_outside_the_table_is_refused(name: str) -> None:
    m = midgame(name)
    s = m.state
    players = m.game.players
    for bad in (*BAD_SEATS, players):
        with pytest.raises(ValueError):
            s.observation(bad)
        with pytest.raises(ValueError):
            s.envelope(bad)
        with pytest.raises(ValueError):
            s.observation_tensor(bad)
        if isinstance(bad, int) and not isinstance(bad, bool):
            with pytest.raises(ValueError):
                m.events_for(bad)
            with pytest.raises(ValueError):
                s.resample_from_infostate(bad, random.Random(0))


_ODD_VALUES = st.one_of(
    st.integers(min_value=-(10**6), max_value=10**6),
    st.text(max_size=6),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.lists(st.integers(), max_size=2),
    st.tuples(st.integers()),
)


def _action_classes(name: str) -> list[type]:
    game = tianxia.load_game(name)
    return sorted({type(a) for a in (*game.codec.actions, *game.codec.outcomes)}, key=str)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_an_ill_typed_action_is_refused(name: str, data: st.DataObject) -> None:
    m = _MIDGAMES.setdefault(name, midgame(name))
    s = m.state
    before = s.to_json()
    cls = data.draw(st.sampled_from(_action_classes(name)))
    fields = dataclasses.fields(cls) if dataclasses.is_dataclass(cls) else ()
    values = {f.name: data.draw(_ODD_VALUES) for f in fields}
    try:
        action = cls(**values)
    except (TypeError, ValueError):
        return
    if action in s.legal_actions():
        s.apply(action)  # an equal value of a legal action is that action
        return
    with pytest.raises((IllegalActionError, NotationError)):
        s.apply(action)
    text = s.explain(action)
    assert text.startswith("illegal")
    assert s.to_json() == before


_MIDGAMES: dict[str, Match] = {}


def _leaves(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    if isinstance(data, dict):
        return [x for k, v in data.items() for x in _leaves(v, (*path, k))]
    if isinstance(data, list):
        return [x for i, v in enumerate(data) for x in _leaves(v, (*path, i))] or [(path, data)]
    return [(path, data)]


def _set(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    copy = json.loads(json.dumps(data))
    node = copy
    for key in path[:-1]:
        node = node[key]
    if path:
        node[path[-1]] = value
    return copy


def _mutations(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [7, "x"]
    if isinstance(value, int):
        return [-7, 10**9, "x", None, 2.5]
    if isinstance(value, str):
        return ["no such thing", 3]
    if value is None:
        return [[1, 2], "x"]
    return [None, "x"]


def _survives(s: State) -> None:
    """A loaded state either was refused or answers every question without a crash."""
    s.current_player()
    legal = s.legal_actions()
    for seat in [None, *range(s.game.players)]:
        json.dumps(s.observation(seat))
    s.scores()
    s.returns()
    if legal and not s.is_terminal():
        s.apply(legal[0])


@pytest.mark.parametrize("name", GAMES)
def test_a_corrupted_save_is_refused_or_harmless(name: str) -> None:
    m = midgame(name, steps=60)
    data = m.state.to_json()
    game = m.game
    leaves = _leaves(data)
    rng = random.Random(9)
    crashes = []
    for path, value in rng.sample(leaves, min(120, len(leaves))):
        for bad in _mutations(value):
            corrupted = _set(data, path, bad)
            try:
                s = game.state_from_json(corrupted)
            except ValueError:
                continue
            try:
                _survives(s)
            except (IllegalActionError, NotationError, ValueError):
                pass
            except Exception as e:
                crashes.append(f"{'/'.join(map(str, path))}={bad!r}: {type(e).__name__}: {e}")
    assert not crashes, "loaded without refusal, then crashed:\n" + "\n".join(crashes[:10])
    # and the refusal changed nothing: the original still loads equal
    assert game.state_from_json(data) == m.state
