"""Every registered game as a single-agent Gymnasium environment against the bots."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import tianxia  # noqa: E402
from tianxia.adapters.gym import TianxiaEnv, env_id, register  # noqa: E402
from tianxia.core import IllegalActionError, Match  # noqa: E402
from tianxia.core.registry import game_class  # noqa: E402

NAMES = [pytest.param(n, id=n) for n in tianxia.list_games()]

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def match_of(env: Any) -> Match:
    """The engine's match of an environment that has been reset."""
    assert env.match is not None, "reset() first"
    m: Match = env.match
    return m


def episode(env: Any, seed: int, policy_seed: int) -> tuple[float, list[int]]:
    """A masked random policy for one episode: the final reward and the ids it chose."""
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    chosen: list[int] = []
    total = 0.0
    done = False
    while not done:
        assert (obs["action_mask"] == info["action_mask"]).all()
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        chosen.append(a)
        obs, reward, done, truncated, info = env.step(a)
        assert not truncated
        assert reward == 0 or done
        total += float(reward)
    return total, chosen


@pytest.mark.parametrize("name", NAMES)
def test_gymnasium_env_checker_passes_on_the_default_environment(name: str) -> None:
    # The checker steps with unmasked samples: by default they end the episode as a loss.
    check_env(TianxiaEnv(name), skip_render_check=True)


@pytest.mark.parametrize("name", NAMES)
def test_an_episode_pays_the_seats_return_and_is_reproducible(name: str) -> None:
    seat = game_class(name).MIN_PLAYERS - 1
    env = TianxiaEnv(name, seat=seat)
    reward, chosen = episode(env, seed=4, policy_seed=9)
    final = match_of(env).state
    assert final.is_terminal()
    assert reward == final.returns()[seat]
    seats = [match_of(env).seat_of(i) for i in range(len(match_of(env).log))]
    assert sum(1 for s in seats if s == seat) == len(chosen)
    assert tianxia.replay(env.game, match_of(env).log) == final
    log = list(match_of(env).log)
    again = TianxiaEnv(name, seat=seat)
    assert episode(again, seed=4, policy_seed=9) == (reward, chosen)
    assert match_of(again).log == log
    with pytest.raises(ValueError, match="reset"):
        env.step(chosen[0])


def test_other_bots_and_per_seat_opponents() -> None:
    env = TianxiaEnv("highcard", players=3, seat=1, opponents={0: "greedy", 2: "random"})
    assert env.opponents.by_seat == {0: "greedy", 2: "random"}
    episode(env, seed=1, policy_seed=1)
    env = TianxiaEnv("highcard", players=3, seat=2, opponents=["random", "greedy"])
    assert env.opponents.by_seat == {0: "random", 1: "greedy"}
    episode(env, seed=2, policy_seed=2)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="no bot"):
        TianxiaEnv("highcard", opponents="oracle")
    with pytest.raises(ValueError, match="seats"):
        TianxiaEnv("highcard", players=3, opponents=["random"])
    with pytest.raises(ValueError, match="seats"):
        TianxiaEnv("highcard", players=3, seat=0, opponents={0: "random", 1: "random"})
    with pytest.raises(ValueError, match="seat"):
        TianxiaEnv("highcard", seat=2)
    with pytest.raises(ValueError, match="option"):
        TianxiaEnv("highcard", opponent_options={"depth": 3})
    with pytest.raises(ValueError, match="illegal_action"):
        TianxiaEnv("highcard", illegal_action="ignore")
    with pytest.raises(ValueError, match="no option"):
        TianxiaEnv("highcard", jokers=True)
    env = TianxiaEnv("highcard")
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=1.5)  # type: ignore[arg-type]


def test_an_illegal_action_loses_by_default_or_raises() -> None:
    env = TianxiaEnv("highcard", players=2, swaps=False, illegal_action="raise")
    env.reset(seed=3)
    log = list(match_of(env).log)
    with pytest.raises(IllegalActionError, match="HC-2"):
        env.step(1)
    for bad in (5, -1, "stay", None):
        with pytest.raises(ValueError):
            env.step(bad)
    assert match_of(env).log == log
    lose = TianxiaEnv("highcard", players=2, swaps=False)
    lose.reset(seed=3)
    _, reward, done, truncated, info = lose.step(1)
    assert done and not truncated and reward == lose.game.info.min_utility
    assert "HC-2" in info["illegal_action"]
    assert match_of(lose).log == log
    with pytest.raises(ValueError, match="reset"):
        lose.step(0)


def test_registered_with_gymnasium_make() -> None:
    ids = register()
    assert env_id("highcard") in ids
    env = gymnasium.make(env_id("highcard"), players=3, seat=1)
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert env.unwrapped.game.players == 3
