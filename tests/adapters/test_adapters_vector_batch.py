"""The compiled batch loop (`tianxia.core.batch`) against the reference: the single
environment's engine match and the one encoding, game for game, in every title."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode, SyncVectorEnv

import tianxia
from tianxia.adapters.encoding import encoding
from tianxia.adapters.gym import TianxiaEnv
from tianxia.adapters.vector import TianxiaVectorEnv

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def choices(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A legal action id per row (0 where a row has none)."""
    return np.asarray(np.argmax(rng.random(masks.shape) * masks, axis=1), np.int64)


def trace(envs: Any, steps: int, seed: int, illegal_at: int = -1) -> list[tuple[Any, ...]]:
    """Everything a learner reads, step by step; at step `illegal_at` game 0 is given an
    action id its mask does not allow (when it has one)."""
    rng = np.random.default_rng(seed)
    obs, info = envs.reset(seed=seed)
    out: list[tuple[Any, ...]] = [(obs["observation"].copy(), obs["action_mask"].copy())]
    for k in range(steps):
        acts = choices(obs["action_mask"], rng)
        if k == illegal_at and obs["action_mask"][0].any() and not obs["action_mask"][0].all():
            acts[0] = int(np.flatnonzero(obs["action_mask"][0] == 0)[0])
        obs, rewards, terms, truncs, info = envs.step(acts)
        final = info.get("final_obs")
        out.append(
            (
                obs["observation"].copy(),
                obs["action_mask"].copy(),
                np.asarray(rewards, np.float64).copy(),
                terms.copy(),
                truncs.copy(),
                None if final is None else [None if f is None else f["observation"] for f in final],
            )
        )
    return out


def assert_same(a: list[tuple[Any, ...]], b: list[tuple[Any, ...]]) -> None:
    assert len(a) == len(b)
    for k, (x, y) in enumerate(zip(a, b, strict=True)):
        for u, v in zip(x, y, strict=True):
            if isinstance(u, np.ndarray) and u.dtype != object:
                # Bit for bit: float32 observations compared as their bytes.
                assert u.dtype == v.dtype and u.tobytes() == v.tobytes(), f"step {k}"
            elif isinstance(u, list):
                assert len(u) == len(v), f"step {k}"
                for p, q in zip(u, v, strict=True):
                    assert (p is None and q is None) or p.tobytes() == q.tobytes(), f"step {k}"
            elif u is None or v is None:
                assert u is None and v is None, f"step {k}"
            else:
                assert list(u) == list(v), f"step {k}"


# Every title, at its smallest count and one more seat where it has one; the learner at
# seat 0 and at a later seat (whose observation is rotated to read as seat 0).
CASES = [
    (name, players, seat)
    for name in tianxia.list_games()
    for players in sorted(
        {
            tianxia.load_game(name).info.min_players,
            min(
                tianxia.load_game(name).info.min_players + 1,
                tianxia.load_game(name).info.max_players,
            ),
        }
    )
    for seat in sorted({0, players - 1})
]


@pytest.mark.parametrize(("name", "players", "seat"), CASES)
def test_the_compiled_batch_plays_the_reference_games_bit_for_bit(
    name: str, players: int, seat: int
) -> None:
    kwargs: dict[str, Any] = {"players": players, "seat": seat, "reward": "rank"}
    ours = TianxiaVectorEnv(name, 3, autoreset_mode="SameStep", **kwargs)
    assert ours._lanes is not None  # the compiled loop, not the games one by one
    theirs = SyncVectorEnv(
        [lambda: TianxiaEnv(name, **kwargs) for _ in range(3)],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    seed = 11 + players + 7 * seat
    assert_same(trace(ours, 60, seed, illegal_at=20), trace(theirs, 60, seed, illegal_at=20))
    for table, env in zip(ours.tables, theirs.envs, strict=True):
        mine, reference = table.match, env.unwrapped.match  # type: ignore[attr-defined]
        assert mine is not None and reference is not None
        assert mine.log == reference.log and mine.state == reference.state
    ours.close()
    theirs.close()


@pytest.mark.parametrize("name", ["greatwall", "silkroad"])
def test_whole_games_end_and_restart_as_the_single_environment_plays_them(name: str) -> None:
    game = tianxia.load_game(name)
    players = game.info.min_players
    ours = TianxiaVectorEnv(name, 2, players=players, reward="score")
    theirs = SyncVectorEnv([lambda: TianxiaEnv(name, players=players, reward="score")] * 2)
    a, b = trace(ours, 400, 5), trace(theirs, 400, 5)
    assert_same(a, b)
    assert sum(int(t[3].sum()) for t in a[1:]) >= 2  # games ended and restarted
    ours.close()
    theirs.close()


def test_the_observation_is_the_one_encoding_of_the_engine_state() -> None:
    envs = TianxiaVectorEnv("china", 4, players=3, seat=2, copy=False)
    obs, _ = envs.reset(seed=3)
    rng = np.random.default_rng(3)
    enc = encoding(envs.game)
    for _ in range(20):
        for i, table in enumerate(envs.tables):
            match = table.match
            assert match is not None
            expected = enc.encode(match.state, 2)
            assert obs["observation"][i].tobytes() == expected.tobytes()
            legal = {envs.game.action_id(a) for a in match.state.legal_actions()}
            assert set(np.flatnonzero(obs["action_mask"][i]).tolist()) == (
                legal if match.state.current_player() == 2 else set()
            )
        obs, *_ = envs.step(choices(obs["action_mask"], rng))


def test_an_illegal_id_is_refused_with_the_rule_and_moves_nothing_in_the_batch() -> None:
    envs = TianxiaVectorEnv("greatwall", 2, players=2, illegal_action="raise", copy=False)
    obs, _ = envs.reset(seed=2)
    logs = [list(t.match.log) for t in envs.tables if t.match is not None]
    before = obs["observation"].copy()
    bad = choices(obs["action_mask"], np.random.default_rng(0))
    bad[0] = int(np.flatnonzero(obs["action_mask"][0] == 0)[0])
    with pytest.raises(tianxia.core.IllegalActionError, match=r"game 0") as refused:
        envs.step(bad)
    assert refused.value.rule.startswith(("GW", "ENGINE"))
    assert [list(t.match.log) for t in envs.tables if t.match is not None] == logs
    assert envs._buffers.observations.tobytes() == before.tobytes()
