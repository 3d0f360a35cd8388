"""The batched environment: Gymnasium's SyncVectorEnv over the single environment, in one
call, into arrays made once."""

from __future__ import annotations

import functools
import gc
from multiprocessing import shared_memory
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode, SyncVectorEnv

from tianxia.adapters.gym import TianxiaEnv
from tianxia.adapters.vector import TianxiaVectorEnv

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def masked_choices(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A legal action id per row (0 where a row has none)."""
    out = np.zeros(len(masks), np.int64)
    for i, m in enumerate(masks):
        legal = np.flatnonzero(m)
        if len(legal):
            out[i] = rng.choice(legal)
    return out


def run(envs: Any, steps: int, seed: int) -> list[tuple[Any, ...]]:
    rng = np.random.default_rng(seed)
    obs, info = envs.reset(seed=seed)
    trace: list[tuple[Any, ...]] = [(obs["observation"].copy(), obs["action_mask"].copy())]
    for _ in range(steps):
        obs, rewards, terms, truncs, info = envs.step(masked_choices(obs["action_mask"], rng))
        final = info.get("final_obs")
        finals = (
            None
            if final is None
            else [None if f is None else f["observation"].tolist() for f in final]
        )
        trace.append(
            (
                obs["observation"].copy(),
                obs["action_mask"].copy(),
                np.asarray(rewards, np.float64).copy(),
                terms.copy(),
                truncs.copy(),
                info["action_mask"].copy(),
                finals,
            )
        )
    return trace


def same(a: list[tuple[Any, ...]], b: list[tuple[Any, ...]]) -> None:
    assert len(a) == len(b)
    for k, (x, y) in enumerate(zip(a, b, strict=True)):
        for u, v in zip(x, y, strict=True):
            if isinstance(u, np.ndarray):
                assert np.array_equal(u, v), f"step {k}"
            else:
                assert u == v, f"step {k}"


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_the_batch_equals_gymnasiums_sync_vector_env_over_the_single_env(
    mode: AutoresetMode,
) -> None:
    kwargs: dict[str, Any] = {"players": 2, "opponents": "random", "reward": "score"}
    ours = TianxiaVectorEnv("greatwall", 3, autoreset_mode=mode, **kwargs)
    theirs = SyncVectorEnv(
        [lambda: TianxiaEnv("greatwall", **kwargs) for _ in range(3)], autoreset_mode=mode
    )
    a, b = run(ours, 180, seed=4), run(theirs, 180, seed=4)
    same(a, b)
    assert sum(t[3].sum() for t in a[1:]) >= 3  # several games ended and restarted
    assert ours.observation_space.contains({"observation": a[-1][0], "action_mask": a[-1][1]})
    ours.close()
    theirs.close()


def test_arrays_are_made_once_and_handed_out_without_copies_when_asked() -> None:
    envs = TianxiaVectorEnv("greatwall", 4, players=2, copy=False)
    obs, _ = envs.reset(seed=1)
    first = obs["observation"]
    obs, rewards, terms, truncs, _ = envs.step(
        masked_choices(obs["action_mask"], np.random.default_rng(0))
    )
    assert obs["observation"] is first and obs["observation"].shape == (4, envs.encoding.size)
    assert rewards.dtype == np.float64 and terms.dtype == truncs.dtype == np.bool_
    copying = TianxiaVectorEnv("greatwall", 2, players=2)
    o1, _ = copying.reset(seed=1)
    o2, *_ = copying.step(masked_choices(o1["action_mask"], np.random.default_rng(0)))
    assert o1["observation"] is not o2["observation"]


def test_a_reset_mask_restarts_only_the_chosen_games() -> None:
    envs = TianxiaVectorEnv("greatwall", 3, players=2, copy=False)
    obs, _ = envs.reset(seed=7)
    envs.step(masked_choices(obs["action_mask"], np.random.default_rng(1)))
    before = [t.match.log for t in envs.tables if t.match is not None]
    envs.reset(seed=[None, 99, None], options={"reset_mask": np.array([False, True, False])})
    after = [t.match.log for t in envs.tables if t.match is not None]
    assert after[0] == before[0] and after[2] == before[2]
    single = TianxiaEnv("greatwall", players=2)
    single.reset(seed=99)
    assert single.match is not None and after[1] == single.match.log


def test_bad_input_is_refused_and_changes_nothing() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        TianxiaVectorEnv("greatwall", 0)
    with pytest.raises(ValueError, match="autoreset_mode"):
        TianxiaVectorEnv("greatwall", 2, autoreset_mode="Later")
    with pytest.raises(ValueError, match="workers"):
        TianxiaVectorEnv("greatwall", 2, workers=-1)
    with pytest.raises(ValueError, match="no bot"):
        TianxiaVectorEnv("greatwall", 2, opponents="oracle")
    envs = TianxiaVectorEnv("greatwall", 2, players=2)
    with pytest.raises(ValueError, match="reset"):
        envs.step(np.zeros(2, np.int64))
    envs.reset(seed=0)
    logs = [list(t.match.log) for t in envs.tables if t.match is not None]
    for bad in (np.zeros(3, np.int64), np.array([0.5, 1.0]), np.array([0, 10**6])):
        with pytest.raises(ValueError):
            envs.step(bad)
    assert [list(t.match.log) for t in envs.tables if t.match is not None] == logs
    with pytest.raises(ValueError, match="seed"):
        envs.reset(seed=[1])


def test_worker_processes_play_the_same_games_into_shared_memory() -> None:
    alone = TianxiaVectorEnv("greatwall", 4, players=2, autoreset_mode="SameStep")
    shared = TianxiaVectorEnv("greatwall", 4, players=2, autoreset_mode="SameStep", workers=2)
    try:
        same(run(alone, 90, seed=2), run(shared, 90, seed=2))
    finally:
        shared.close()
        alone.close()
    assert shared._buffers.memory is None  # released on close
    forgotten = TianxiaVectorEnv("greatwall", 2, players=2, workers=1)
    memory, pool = forgotten._buffers.memory, forgotten._pool
    assert memory is not None and pool is not None
    name, processes = memory.name, list(pool.processes)
    del memory, pool
    del forgotten
    gc.collect()
    with pytest.raises(FileNotFoundError):
        shared_memory.SharedMemory(name=name)  # released when the environment went
    assert not any(p.is_alive() for p in processes)


def test_seats_plays_every_seat_as_the_pettingzoo_environment_does() -> None:
    from tianxia.adapters.opponents import final_reward
    from tianxia.adapters.pettingzoo import env as aec_env
    from tianxia.adapters.vector import Seats

    n = 2
    ours = Seats("greatwall", n, players=3, reward="rank", copy=False)
    obs, info = ours.reset(seed=30)
    theirs = [aec_env("greatwall", players=3, reward="rank") for _ in range(n)]
    for i, aec in enumerate(theirs):
        aec.reset(seed=30 + i)
    rng = np.random.default_rng(5)
    live = [True] * n
    seats_seen: set[int] = set()
    while any(live):
        for i, aec in enumerate(theirs):
            if live[i]:
                mover = int(info["seat"][i])
                seats_seen.add(mover)
                assert aec.agent_selection == f"player_{mover}"
                assert np.array_equal(obs["observation"][i], aec.observe(aec.agent_selection))
                assert np.array_equal(obs["action_mask"][i], aec.action_mask(aec.agent_selection))
        actions = masked_choices(obs["action_mask"], rng)
        obs, rewards, terms, truncs, info = ours.step(actions)
        assert rewards.shape == (n, 3) and not truncs.any()
        for i, aec in enumerate(theirs):
            if not live[i]:
                continue
            aec.step(int(actions[i]))
            if terms[i]:
                live[i] = False
                mine = ours.matches[i]
                assert mine is not None and aec.match is not None
                assert mine.log == aec.match.log
                final = aec.match.state
                assert rewards[i].tolist() == [final_reward(final, s, "rank") for s in range(3)]
            else:
                assert not rewards[i].any()
    assert seats_seen == {0, 1, 2}
    waiting = ~obs["action_mask"].any(axis=1)  # over, restarting at the next step
    assert waiting.any()
    obs, rewards, terms, _, info = ours.step(masked_choices(obs["action_mask"], rng))
    assert obs["action_mask"][waiting].any(axis=1).all() and not rewards[waiting].any()


def test_an_action_a_game_does_not_allow_moves_no_game() -> None:
    from tianxia.adapters.vector import Seats
    from tianxia.core import IllegalActionError

    seats = Seats("greatwall", 2, players=2)
    obs, _ = seats.reset(seed=1)
    logs = [list(m.log) for m in seats.matches if m is not None]
    legal = masked_choices(obs["action_mask"], np.random.default_rng(0))
    bad = legal.copy()
    bad[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(ValueError, match=r"games \[1\]"):
        seats.step(bad)
    assert [list(m.log) for m in seats.matches if m is not None] == logs
    strict = TianxiaVectorEnv("greatwall", 2, players=2, illegal_action="raise")
    obs, _ = strict.reset(seed=1)
    logs = [list(t.match.log) for t in strict.tables if t.match is not None]
    bad = masked_choices(obs["action_mask"], np.random.default_rng(0))
    bad[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalActionError, match="game 1"):
        strict.step(bad)
    assert [list(t.match.log) for t in strict.tables if t.match is not None] == logs


def test_gymnasium_make_vec_builds_the_batched_environment() -> None:
    import gymnasium

    from tianxia.adapters.gym import env_id, register

    register(["greatwall"])
    envs = gymnasium.make_vec(env_id("greatwall"), num_envs=3, players=2, reward="rank")
    assert isinstance(envs, TianxiaVectorEnv) and envs.num_envs == 3
    obs, _ = envs.reset(seed=0)
    assert obs["observation"].shape == (3, envs.encoding.size)
    envs.close()


def test_every_kind_of_opponent_plays_in_the_batch() -> None:
    import tianxia
    import tianxia.bots
    from tianxia.adapters.opponents import League

    game = tianxia.load_game("greatwall", players=2)
    bot = tianxia.bots.make("random", game, seat=1, seed=5)
    # A random bot object reseeded per game plays as the bot named "random" does.
    by_object = run(TianxiaVectorEnv("greatwall", 3, players=2, opponents=bot), 60, seed=3)
    by_name = run(TianxiaVectorEnv("greatwall", 3, players=2, opponents="random"), 60, seed=3)
    same(by_object, by_name)
    league = League()
    size, actions = game.observation_tensor_size(), game.info.num_distinct_actions
    for k in range(3):
        weights = np.random.default_rng(k).normal(size=(size, actions))
        league.add(functools.partial(_greedy, weights))
    first = run(TianxiaVectorEnv("greatwall", 3, players=2, opponents=league), 60, seed=3)
    same(first, run(TianxiaVectorEnv("greatwall", 3, players=2, opponents=league), 60, seed=3))


def _greedy(weights: np.ndarray, observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.argmax(np.where(mask == 1, observation @ weights, -np.inf)))
