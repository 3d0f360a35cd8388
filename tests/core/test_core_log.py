"""The state log kept as templates (`tianxia.core.log.Log`) and the per-state caches of
the state base: the log reads, compares, hashes and saves as the sentences it renders
to, and a state asks its game who moves once."""

from __future__ import annotations

import pickle
import random

import pytest

import tianxia
from tianxia.core import CHANCE, State, StateDataError, sample_chance
from tianxia.core.log import EMPTY, Log


def _played(name: str, players: int, seed: int) -> State:
    rng = random.Random(seed)
    s = tianxia.load_game(name, players=players).new_initial_state()
    while not s.is_terminal():
        a = sample_chance(s, rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions())
        s = s.apply(a)
    return s


def test_a_log_reads_as_its_sentences_and_keeps_the_last_ones() -> None:
    log = EMPTY
    for i in range(5):
        log = log.add(3, ("{} moves {:+d}", (f"P{i + 1}", i)))
    log = log.add(3, "the end")
    assert len(log) == 3
    assert list(log) == ["P4 moves +3", "P5 moves +4", "the end"]
    assert log[0] == "P4 moves +3" and log[-1] == "the end"
    assert log[1:] == ("P5 moves +4", "the end")
    assert log.texts == ("P4 moves +3", "P5 moves +4", "the end")


def test_a_log_equals_and_hashes_as_the_sentences_whatever_holds_them() -> None:
    played = EMPTY.add(8, ("{} plays #{}", ("P1", 3)))
    written = Log(("P1 plays #3",))
    assert played == written and hash(played) == hash(written)
    assert played != Log(("P1 plays #4",))
    assert played != EMPTY
    assert pickle.loads(pickle.dumps(played)) == played


def test_the_field_codec_saves_sentences_and_refuses_anything_else() -> None:
    encode, decode = Log.field_codec()
    log = EMPTY.add(8, ("{} waits", ("P2",)))
    assert encode(log) == ["P2 waits"]
    assert decode(["P2 waits"], None, "log") == log
    with pytest.raises(StateDataError, match=r"log\[1\]: expected text"):
        decode(["P2 waits", 3], None, "log")
    with pytest.raises(StateDataError, match="log: expected a list"):
        decode("P2 waits", None, "log")


@pytest.mark.parametrize(("name", "players"), [("emperor", 2), ("silkroad", 3)])
def test_a_played_state_saves_and_loads_to_an_equal_state_with_the_same_log(
    name: str, players: int
) -> None:
    s = _played(name, players, seed=4)
    data = s.to_json()
    assert data["log"] and all(isinstance(t, str) for t in data["log"])
    loaded = s.game.state_from_json(data)
    assert loaded == s and hash(loaded) == hash(s)
    assert loaded.to_json() == data
    assert loaded.observation(None)["log"] == s.observation(None)["log"] == data["log"]


def test_a_state_asks_its_game_who_moves_once() -> None:
    game = tianxia.load_game("greatwall", players=2)
    s = game.new_initial_state()
    cls = type(s)
    calls = 0
    own = cls._current_player

    def counted(state: State) -> int:
        nonlocal calls
        calls += 1
        return own(state)

    cls._current_player = counted  # type: ignore[method-assign]
    try:
        t = s.apply(sample_chance(s, random.Random(0))) if s.is_chance_node() else s
        # A state built from a draft outside the rules (here `replace`) starts without
        # the answer and asks for it once.
        t = t.replace()
        calls = 0
        for _ in range(3):
            t.current_player()
            t.is_terminal()
            t.legal_actions()
        assert calls == 1
        # A successor made by the rules carries the answer they gave it: no call, and
        # the same answer the state's own method gives.
        u = t.apply(t.legal_actions()[0])
        assert u.current_player() == own(u)
        assert calls == 1
    finally:
        cls._current_player = own  # type: ignore[method-assign]
