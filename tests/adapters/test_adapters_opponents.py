"""Opponents (bot names, bots, policies, snapshots, leagues) and the three rewards."""

from __future__ import annotations

import functools
import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import tianxia
import tianxia.bots
from tianxia.adapters.encoding import encoding
from tianxia.adapters.gym import TianxiaEnv
from tianxia.adapters.opponents import League, final_reward, snapshot
from tianxia.adapters.pettingzoo import env as aec_env

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def play(env: TianxiaEnv, seed: int) -> tuple[float, list[int]]:
    """First legal action every time; the reward and the log of the game as ids."""
    obs, _ = env.reset(seed=seed)
    done = False
    reward: Any = 0.0
    while not done:
        obs, reward, done, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.match is not None
    return float(reward), [env.game.action_id(a) for a in env.match.log]


class Linear:
    """A masked greedy linear policy holding its weights."""

    def __init__(self, size: int, actions: int, seed: int) -> None:
        self.weights = np.random.default_rng(seed).normal(size=(size, actions))

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        return int(np.argmax(np.where(mask == 1, observation @ self.weights, -np.inf)))


def test_a_bot_object_plays_its_seat_reseeded_each_game() -> None:
    game = tianxia.load_game("greatwall", players=2)
    bot = tianxia.bots.make("random", game, seat=1, seed=123)
    env = TianxiaEnv("greatwall", players=2, opponents=bot)
    first = play(env, seed=8)
    bot.rng.random()  # whatever the bot's stream did in between, the seed decides
    assert play(env, seed=8) == first
    assert play(env, seed=9) != first
    with pytest.raises(ValueError, match="plays seat 1"):
        TianxiaEnv("greatwall", players=3, seat=1, opponents=[bot, bot])


def test_a_policy_sees_its_own_seat_as_seat_0_and_must_choose_legally() -> None:
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        seen.append((observation, mask))
        return int(np.flatnonzero(mask)[-1])

    env = TianxiaEnv("greatwall", players=2, seat=0, opponents=policy)
    play(env, seed=3)
    assert seen
    rows = encoding(env.game).layout()
    observer = next(a for a, _, m in rows if m.startswith("observer"))
    to_decide = next(a for a, _, m in rows if m.startswith("seat to decide"))
    for observation, mask in seen:
        assert observation.dtype == np.float32 and mask.dtype == np.int8
        assert observation[observer] == 1 and observation[to_decide] == 1  # seat 0: itself
    bad = TianxiaEnv("greatwall", players=2, opponents=lambda obs, mask: int(np.argmin(mask)))
    with pytest.raises(ValueError, match="seat 1: the policy"):
        play(bad, seed=3)
    with pytest.raises(ValueError, match="an opponent is"):
        TianxiaEnv("greatwall", players=2, opponents=[42])  # type: ignore[list-item]


def test_a_snapshot_is_frozen_while_the_learner_moves_on() -> None:
    game = tianxia.load_game("greatwall", players=2)
    size, actions = encoding(game).size, game.info.num_distinct_actions
    learner = Linear(size, actions, seed=0)
    frozen = snapshot(learner)
    before = play(TianxiaEnv("greatwall", players=2, opponents=frozen), seed=5)
    learner.weights[:] = np.random.default_rng(1).normal(size=learner.weights.shape)
    assert play(TianxiaEnv("greatwall", players=2, opponents=frozen), seed=5) == before
    live = play(TianxiaEnv("greatwall", players=2, opponents=learner), seed=5)
    assert live != before  # the learner itself did move on
    partial = functools.partial(Linear.__call__, Linear(size, actions, seed=0))
    assert snapshot(partial)(np.ones(size, np.float32), np.ones(actions, np.int8)) >= 0


def test_a_league_draws_among_its_snapshots_reproducibly() -> None:
    league = League(capacity=3)
    with pytest.raises(ValueError, match="no snapshot"):
        league.sample(random.Random(0))
    game = tianxia.load_game("greatwall", players=2)
    size, actions = encoding(game).size, game.info.num_distinct_actions
    for k in range(4):
        league.add(Linear(size, actions, seed=k))
    assert len(league) == 3 and [s.label for s in league.snapshots] == [
        "snapshot 1",
        "snapshot 2",
        "snapshot 3",
    ]
    drawn = {league.sample(random.Random(i)).label for i in range(60)}
    assert drawn == {"snapshot 1", "snapshot 2", "snapshot 3"}
    newest = League(latest=1.0)
    for k in range(3):
        newest.add(Linear(size, actions, seed=k))
    assert {newest.sample(random.Random(i)).label for i in range(20)} == {"snapshot 2"}
    env = TianxiaEnv("greatwall", players=2, opponents=league)
    games = {seed: play(env, seed) for seed in range(6)}
    assert all(play(env, seed) == games[seed] for seed in (0, 3))
    assert len({tuple(log) for _, log in games.values()}) > 1
    with pytest.raises(ValueError, match="capacity"):
        League(capacity=0)
    with pytest.raises(ValueError, match="latest"):
        League(latest=1.5)
    later = League()
    waiting = TianxiaEnv("greatwall", players=2, opponents=later)  # filled after it is made
    with pytest.raises(ValueError, match="no snapshot"):
        waiting.reset(seed=0)
    later.add(Linear(size, actions, seed=0))
    waiting.reset(seed=0)


class Finished:
    """A finished game's returns and scores: all `final_reward` reads."""

    def __init__(self, returns: list[float], scores: list[float]) -> None:
        self._returns, self._scores = returns, scores

    def returns(self) -> list[float]:
        return self._returns

    def scores(self) -> list[float]:
        return self._scores


def test_rank_and_score_rewards() -> None:
    four = Finished([1.0, -1 / 3, -1 / 3, -1 / 3], [30.0, 20.0, 20.0, -10.0])
    assert [final_reward(four, s, "win") for s in range(4)] == four.returns()  # type: ignore[arg-type]
    ranks = [final_reward(four, s, "rank") for s in range(4)]  # type: ignore[arg-type]
    assert ranks == pytest.approx([1.0, 0.0, 0.0, -1.0])  # seats 1 and 2 share 2nd and 3rd
    scores = [final_reward(four, s, "score") for s in range(4)]  # type: ignore[arg-type]
    assert scores == pytest.approx([10 / 30, -10 / 30, -10 / 30, -1.0])  # -40/30, capped
    # The winner by the rules' tie-break ranks first even on equal points.
    tie = Finished([-1.0, 1.0], [12.0, 12.0])
    assert [final_reward(tie, s, "rank") for s in range(2)] == [-1.0, 1.0]  # type: ignore[arg-type]
    assert [final_reward(tie, s, "score") for s in range(2)] == [0.0, 0.0]  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["win", "rank", "score"])
def test_every_environment_pays_the_chosen_reward(kind: str) -> None:
    env = TianxiaEnv("greatwall", players=3, seat=1, reward=kind)
    reward, _ = play(env, seed=2)
    assert env.match is not None
    assert reward == final_reward(env.match.state, 1, kind)
    lose = TianxiaEnv("greatwall", players=3, reward=kind)
    obs, _ = lose.reset(seed=2)
    _, worst, done, _, info = lose.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert done and "illegal_action" in info
    assert worst == (lose.game.info.min_utility if kind == "win" else -1.0)
    aec = aec_env("greatwall", players=3, reward=kind)
    aec.reset(seed=2)
    paid: dict[str, float] = {}
    for agent in aec.agent_iter():
        _, reward, term, trunc, info = aec.last()
        if term or trunc:
            paid[agent] = float(reward)
        aec.step(None if term or trunc else int(np.flatnonzero(info["action_mask"])[0]))
    assert aec.match is not None
    final = aec.match.state
    assert [paid[a] for a in aec.possible_agents] == [
        final_reward(final, s, kind) for s in range(3)
    ]
    with pytest.raises(ValueError, match="reward"):
        TianxiaEnv("greatwall", reward="points")


def test_pettingzoo_seats_opponents_and_leaves_their_agents_out() -> None:
    from pettingzoo.test import api_test

    game = tianxia.load_game("greatwall", players=3)
    league = League()
    league.add(Linear(encoding(game).size, game.info.num_distinct_actions, seed=2))

    def run(seed: int) -> tuple[list[int], dict[str, float]]:
        aec = aec_env("greatwall", players=3, opponents={1: "greedy", 2: league}, reward="rank")
        assert aec.possible_agents == ["player_0"]
        aec.reset(seed=seed)
        paid: dict[str, float] = {}
        for agent in aec.agent_iter():
            assert agent == "player_0"
            _, reward, term, trunc, info = aec.last()
            if term or trunc:
                paid[agent] = float(reward)
            aec.step(None if term or trunc else int(np.flatnonzero(info["action_mask"])[0]))
        assert aec.match is not None
        assert paid["player_0"] == final_reward(aec.match.state, 0, "rank")
        movers = {aec.match.seat_of(i) for i in range(len(aec.match.log))}
        assert {1, 2} <= movers  # the opponents did play
        return [game.action_id(a) for a in aec.match.log], paid

    assert run(4) == run(4)
    two = aec_env("greatwall", players=3, opponents={1: "random"})
    assert two.possible_agents == ["player_0", "player_2"]
    api_test(two, num_cycles=30)
    with pytest.raises(ValueError, match="every seat"):
        aec_env("greatwall", players=2, opponents={0: "random", 1: "random"})
    with pytest.raises(ValueError, match="mapping"):
        aec_env("greatwall", players=2, opponents="random")  # type: ignore[arg-type]
