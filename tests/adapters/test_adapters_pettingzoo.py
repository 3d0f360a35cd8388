"""Every registered game as a PettingZoo AEC environment."""

from __future__ import annotations

import json
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

import tianxia
from tianxia.adapters.pettingzoo import env
from tianxia.core import IllegalActionError, Match

NAMES = [pytest.param(n, id=n) for n in tianxia.list_games()]

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def match_of(env: Any) -> Match:
    """The engine's match of an environment that has been reset."""
    assert env.match is not None, "reset() first"
    m: Match = env.match
    return m


def play_out(e: Any, seed: int) -> tuple[list[int], dict[str, float]]:
    """A masked random game to the end: the ids played, and each agent's final reward."""
    rng = np.random.default_rng(seed)
    played = []
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            final[agent] = reward
            e.step(None)
            continue
        assert reward == 0
        assert isinstance(obs, np.ndarray) and obs.dtype == np.float32
        assert info["action_mask"].dtype == np.int8
        assert agent == f"player_{e.engine_state.current_player()}"
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        played.append(a)
        e.step(a)
    return played, final


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_api_test(name: str) -> None:
    # The game is long; the API checks run on its first cycles. Observations must be NumPy
    # arrays in a Box space, so api_test's warnings about them are errors here.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.filterwarnings("error", message="Observation is not a NumPy array")
        warnings.filterwarnings("error", message="Observation space for each agent")
        api_test(env(name), num_cycles=200)


def test_pettingzoo_api_test_through_to_the_end() -> None:
    api_test(env("highcard", players=3), num_cycles=1000)


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_seed_test(name: str) -> None:
    seed_test(lambda: env(name), num_cycles=200)


@pytest.mark.parametrize("name", NAMES)
def test_rewards_come_from_returns_and_the_match_replays(name: str) -> None:
    e = env(name)
    e.reset(seed=11)
    played, rewards = play_out(e, seed=5)
    final = match_of(e).state
    assert final.is_terminal()
    assert e.agents == []
    assert [rewards[f"player_{i}"] for i in range(e.game.players)] == final.returns()
    assert tianxia.replay(e.game, match_of(e).log) == final
    assert Match.from_json(json.loads(json.dumps(match_of(e).to_json()))).state == final
    # the same seed and the same actions give the same game
    again = env(name)
    again.reset(seed=11)
    for a in played:
        again.step(a)
    assert match_of(again).log == match_of(e).log


def test_the_mask_belongs_to_the_seat_to_move_only() -> None:
    e = env("highcard", players=3)
    e.reset(seed=2)
    to_move = e.agent_selection
    for agent in e.possible_agents:
        mask = e.action_mask(agent)
        assert mask.sum() == (2 if agent == to_move else 0)
        assert (e.infos[agent]["action_mask"] == mask).all()
    obs = e.observe(to_move)
    assert e.observation_space(to_move).contains(obs)
    assert obs == pytest.approx(e.engine_state.observation_tensor(int(to_move[-1])))
    e.step(int(np.flatnonzero(e.action_mask(to_move))[0]))
    assert e.agent_selection != to_move
    assert not e.infos[to_move]["action_mask"].any()
    assert e.infos[e.agent_selection]["action_mask"].sum() == 2


def test_an_illegal_action_raises_the_engines_reason_and_changes_nothing() -> None:
    e = env("highcard", players=2, swaps=False)
    e.reset(seed=1)
    before = (list(match_of(e).log), e.agent_selection)
    with pytest.raises(IllegalActionError) as err:
        e.step(1)
    assert err.value.rule == "HC-2"
    assert (match_of(e).log, e.agent_selection) == before
    for bad in (7, -1, "stay", 1.0, True):
        with pytest.raises(ValueError):
            e.step(bad)
    assert (match_of(e).log, e.agent_selection) == before


def test_an_illegal_action_can_be_a_loss() -> None:
    e = env("highcard", players=3, swaps=False, illegal_action="loss")
    e.reset(seed=1)
    offender = e.agent_selection
    e.step(1)
    assert all(e.terminations.values())
    assert e.rewards[offender] == e.game.info.min_utility
    assert all(r == 0 for a, r in e.rewards.items() if a != offender)
    assert "HC-2" in e.infos[offender]["illegal_action"]
    for _agent in e.agent_iter():
        _, _, term, _, _ = e.last()
        assert term
        e.step(None)
    assert e.agents == []


def test_bad_construction_and_use_are_refused() -> None:
    with pytest.raises(ValueError, match="illegal_action"):
        env("highcard", illegal_action="forfeit")
    with pytest.raises(ValueError, match="render_mode"):
        env("highcard", render_mode="rgb_array")
    with pytest.raises(ValueError, match="players"):
        env("highcard", players=9)
    with pytest.raises(ValueError, match="no game"):
        env("no_such_game")
    e = env("highcard")
    with pytest.raises(RuntimeError, match="reset"):
        e.observe("player_0")
    with pytest.raises(ValueError, match="seed"):
        e.reset(seed="seven")  # type: ignore[arg-type]
    e.reset(seed=0)
    with pytest.raises(ValueError, match="no agent"):
        e.observe("player_7")


def test_render_shows_the_spectator_view() -> None:
    e = env("highcard", render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert text is not None
    assert json.loads(text) == e.engine_state.observation(None)


def test_api_test_warns_only_of_the_unbounded_observation_space() -> None:
    """What docs/research.md says `api_test` warns of, and nothing else."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env("greatwall", players=2), num_cycles=20)
    said = {str(w.message) for w in caught if issubclass(w.category, UserWarning)}
    assert said == {
        "Agent's minimum observation space value is -infinity. This is probably too low.",
        "Agent's maximum observation space value is infinity. This is probably too high",
    }
