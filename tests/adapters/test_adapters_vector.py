"""The batched environment: Gymnasium's SyncVectorEnv over the single environment, in one
call, into arrays made once."""

from __future__ import annotations

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
