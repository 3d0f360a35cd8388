"""Any Python value at a public entry point gets the documented error, in every game.

The compiled build checks a compiled function's annotations before its body runs, so a
value of the wrong type there would escape as a bare `TypeError` where docs/engine.md
promises `NotationError`, `StateDataError` or a `ValueError` naming a seat. These tests
try ill-typed values at every entry point that takes outside data, on whichever build
is running (`make test` runs them compiled and with ``TIANXIA_PURE=1``), and accept only
the documented error, with nothing changed.
"""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tianxia
from tianxia.core import IllegalActionError, Match, NotationError, StateDataError
from tianxia.core.registry import game_class

GAMES = tianxia.list_games()


class _Thing:
    """An object of no type the engine knows."""


# Neither an action, nor its notation, nor an id in range: each must be a NotationError.
NOT_ACTIONS: tuple[Any, ...] = (
    None,
    1.5,
    0.0,
    float("nan"),
    float("inf"),
    -1,
    -(10**30),
    10**30,
    2**63,
    10**5000,
    True,
    False,
    [],
    [0],
    (0,),
    {},
    {"action": 0},
    b"pass",
    bytearray(b"0"),
    1j,
    _Thing(),
    [[{"x": b""}], None, (1.5,)],
    {"a": [None, {"b": float("nan")}]},
)

# Not a seat: a ValueError naming it (a spectator is None, a seat 0..players-1).
NOT_SEATS: tuple[Any, ...] = (
    1.5,
    0.0,
    float("nan"),
    -1,
    10**30,
    -(10**30),
    -(10**5000),
    True,
    "0",
    b"0",
    [0],
    (0,),
    {"seat": 0},
    _Thing(),
    [[None, {"x": b""}]],
)

# Not an object of fields: a StateDataError (a ValueError) from `state_from_json`.
NOT_STATES: tuple[Any, ...] = (
    None,
    0,
    10**30,
    1.5,
    True,
    "{}",
    b"{}",
    [],
    [{}],
    (),
    _Thing(),
)

_JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.floats(allow_nan=True)
    | st.integers().filter(lambda i: abs(i) > 10**12)
    | st.binary(max_size=4)
    | st.complex_numbers(),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)


def _positions(name: str) -> list[Match]:
    """A match at its first (chance) node, and one with a player to move."""
    game = tianxia.load_game(name)
    first = Match(game, seed=3)
    middle = Match(game, seed=3)
    rng = random.Random(3)
    for _ in range(12):
        middle.resolve_chance()
        if middle.state.is_terminal():
            break
        middle.play(rng.choice(middle.state.legal_actions()))
    middle.resolve_chance()
    return [first, middle]


_POSITIONS: dict[str, list[Match]] = {}


def positions(name: str) -> list[Match]:
    if name not in _POSITIONS:
        _POSITIONS[name] = _positions(name)
    return _POSITIONS[name]


def refuses_as_notation(m: Match, bad: Any) -> None:
    """Every way of naming an action refuses `bad` with a NotationError, changing nothing."""
    s = m.state
    game = m.game
    before = s.to_json()
    length = len(m.log)
    for call in (s.apply, s.to_action, m.play, game.action_from_id):
        with pytest.raises(NotationError):
            call(bad)
    if not isinstance(bad, str):
        with pytest.raises(NotationError):
            s.parse_action(bad)
        with pytest.raises(NotationError):
            game.parse_action_text(bad)
    with pytest.raises((NotationError, IllegalActionError)):
        s.check(bad)
    text = s.explain(bad)
    assert isinstance(text, str) and text.startswith("illegal: "), text
    assert s.to_json() == before and len(m.log) == length and m.state is s


@pytest.mark.parametrize("name", GAMES)
def test_a_value_that_names_no_action_is_a_notation_error(name: str) -> None:
    for m in positions(name):
        for bad in NOT_ACTIONS:
            refuses_as_notation(m, bad)
        limit = m.game.info.num_distinct_actions + m.game.info.max_chance_outcomes
        for bad in (limit, limit + 1, 10**9, -limit):
            refuses_as_notation(m, bad)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(bad=_JUNK)
def test_nested_junk_names_no_action(name: str, bad: Any) -> None:
    for m in positions(name):
        refuses_as_notation(m, bad)


@pytest.mark.parametrize("name", GAMES)
def test_a_refusal_of_a_huge_value_is_short(name: str) -> None:
    """A stranger's megabyte of junk is not echoed back whole in the message."""
    m = positions(name)[1]
    for bad in ("x" * 100_000, ["x"] * 100_000, 10**5000, {"k": "v" * 100_000}):
        for call in (m.state.apply, m.play, m.game.action_from_id, m.state.explain):
            try:
                text = call(bad)
            except ValueError as e:
                text = str(e)
            assert isinstance(text, str) and len(text) < 400, (call, text[:80])
        with pytest.raises(ValueError) as err:
            m.state.observation(bad)
        assert len(str(err.value)) < 400
        with pytest.raises(ValueError) as err:
            Match.from_json({**m.to_json(), "log": [bad], "ids": []})
        assert len(str(err.value)) < 400


@pytest.mark.parametrize("name", GAMES)
def test_an_id_in_range_is_an_action_legal_or_refused_by_a_rule(name: str) -> None:
    for m in positions(name):
        s = m.state
        limit = m.game.info.num_distinct_actions + m.game.info.max_chance_outcomes
        legal = set(s.legal_actions())
        for i in (0, limit - 1, limit // 2):
            a = m.game.action_from_id(i)
            if a in legal:
                assert s.apply(i) == s.apply(a)
            else:
                with pytest.raises(IllegalActionError):
                    s.apply(i)


@pytest.mark.parametrize("name", GAMES)
def test_a_value_that_is_no_seat_is_refused(name: str) -> None:
    for m in positions(name):
        s = m.state
        before = s.to_json()
        for bad in (*NOT_SEATS, m.game.players):
            for call in (s.observation, s.envelope, s.observation_tensor, s.observation_string):
                with pytest.raises(ValueError, match="seat"):
                    call(bad)
            with pytest.raises(ValueError, match="seat"):
                s.resample_from_infostate(bad, random.Random(0))
            with pytest.raises(ValueError, match="seat"):
                m.events_for(bad)
        with pytest.raises(ValueError, match="spectator"):
            s.resample_from_infostate(None, random.Random(0))
        assert s.to_json() == before


def _corruptions(data: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """The saved state with one field, or one value inside a field, made ill-typed."""
    out = []
    fields = sorted(data)
    for field in rng.sample(fields, min(8, len(fields))):
        bads: tuple[Any, ...] = (None, 1.5, b"x", 10**30, -(10**30), [[None]], {"x": {}}, _Thing())
        for bad in bads:
            out.append({**data, field: bad})
            value = data[field]
            if isinstance(value, list) and value:
                out.append({**data, field: [bad, *value[1:]]})
            if isinstance(value, dict) and value:
                key = sorted(value)[0]
                out.append({**data, field: {**value, key: bad}})
    return out


@pytest.mark.parametrize("name", GAMES)
def test_a_saved_state_of_the_wrong_shape_is_a_state_data_error(name: str) -> None:
    for m in positions(name):
        game = m.game
        data = m.state.to_json()
        for bad in NOT_STATES:
            with pytest.raises(StateDataError):
                game.state_from_json(bad)
            with pytest.raises(StateDataError):
                type(m.state).from_json(game, bad)
        for corrupted in _corruptions(data, random.Random(7)):
            with contextlib.suppress(StateDataError):
                game.state_from_json(corrupted)
        assert game.state_from_json(json.loads(json.dumps(data))) == m.state


@pytest.mark.parametrize("name", GAMES)
def test_a_save_of_the_wrong_shape_is_refused(name: str) -> None:
    m = positions(name)[1]
    save = json.loads(json.dumps(m.to_json()))
    for bad in (*NOT_STATES, {}, {"game": name}):
        with pytest.raises(ValueError):
            Match.from_json(bad)
    for key in ("game", "players", "options", "seed", "rules_version", "log", "ids", "rng"):
        # A missing log, ids or chance stream has a meaning of its own (the other list
        # replays; the stream is rebuilt), and any whole number seeds a match.
        missing = () if key in ("log", "ids", "rng") else (None,)
        huge = () if key == "seed" else (10**30,)
        for bad in (*missing, *huge, 1.5, b"x", [[None]], {"x": {}}, _Thing()):
            with pytest.raises(ValueError):
                Match.from_json({**save, key: bad})
    for bad in (None, 1.5, b"x", 10**30, -1, [None], {"x": 1}):
        log = [*save["log"][:-1], bad]
        with pytest.raises(ValueError):
            Match.from_json({**save, "log": log})
        ids = [*save["ids"][:-1], bad]
        with pytest.raises(ValueError):
            Match.from_json({**save, "ids": ids})
    assert Match.from_json(save).state == m.state


@pytest.mark.parametrize("name", GAMES)
def test_an_ill_typed_game_name_player_count_or_option_is_refused(name: str) -> None:
    cls = game_class(name)
    names: tuple[Any, ...] = (None, 1.5, b"china", ["china"], {"game": name}, _Thing())
    for bad in names:
        with pytest.raises(ValueError):
            tianxia.load_game(bad)
    counts: tuple[Any, ...] = (1.5, b"3", [3], 10**30, -(10**30), True, _Thing())
    for bad in counts:
        with pytest.raises(ValueError):
            tianxia.load_game(name, players=bad)
    for spec in (*cls.OPTIONS, *cls.LEGACY_OPTIONS):
        # A value equal to a choice but of another type (True for 1, 1 for True) is none.
        twins = [
            bool(c) if not isinstance(c, bool) else int(c)
            for c in spec.choices
            if isinstance(c, int) and c in (0, 1)
        ]
        values: tuple[Any, ...] = (None, [1], b"x", 10**30, float("nan"), {"a": 1}, _Thing())
        for bad in (*values, *twins):
            with pytest.raises(ValueError):
                tianxia.load_game(name, players=cls.MAX_PLAYERS, **{spec.name: bad})
