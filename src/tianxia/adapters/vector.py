"""Many games of one title stepped in one call: a native Gymnasium `VectorEnv`.

>>> from tianxia.adapters.vector import TianxiaVectorEnv
>>> envs = TianxiaVectorEnv("greatwall", num_envs=64, players=2)   # doctest: +SKIP
>>> obs, info = envs.reset(seed=0)                                  # doctest: +SKIP
>>> obs["observation"].shape, obs["action_mask"].shape              # doctest: +SKIP
((64, 367), (64, 682))

Each of the `num_envs` games is what `tianxia.adapters.gym.TianxiaEnv` would play with
the same arguments and seed: one learning seat, opponents in the other seats (bot names,
bot objects, policies, snapshots, a `League`), a reward of ``"win"``, ``"rank"`` or
``"score"`` at the end, the one observation encoding. Game `i` of ``reset(seed=s)`` is
the single environment's game of ``reset(seed=s + i)``, and the arrays returned are
those Gymnasium's own ``SyncVectorEnv`` over the single environments returns (a test
holds the two side by side).

What differs is the cost: every step writes straight into arrays made once, ``(N,
size)`` float32 observations, ``(N, actions)`` int8 masks, ``(N,)`` rewards,
terminations and truncations, without a dictionary per game or a concatenation.
With ``copy=False`` they are handed out as they are (read them before the next step);
the default hands out copies, as Gymnasium does.

Finished games restart by themselves (``autoreset_mode``): ``"NextStep"`` (Gymnasium's
default: the step after the last one resets the game and ignores its action) or
``"SameStep"`` (the step that ends a game starts the next at once; the last observation
is in ``info["final_obs"]``).

``workers=k`` plays the games in `k` processes, each owning a slice of them and
writing into the same arrays in shared memory, so that every core works; one process
(the default, ``workers=0``) is faster when the steps are cheap, as a round trip to a
process costs more than a step of a random opponent.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import multiprocessing as mp
import random
from array import array
from collections.abc import Mapping, Sequence
from multiprocessing import shared_memory
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

import tianxia
from tianxia.adapters.encoding import ENCODING_VERSION, encoding
from tianxia.adapters.gym import Table, check_illegal_action, check_seed
from tianxia.adapters.opponents import (
    Opponent,
    Opponents,
    check_reward,
    final_reward,
    worst_reward,
)
from tianxia.bots import Bot
from tianxia.core import IllegalActionError, Match
from tianxia.core import batch as _batch

AUTORESET_MODES = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)


class TianxiaVectorEnv(gymnasium.vector.VectorEnv):
    """`num_envs` games of one variant, one learning seat each. See the module docstring.

    Args:
        name, players, options: the variant, as for `tianxia.load_game`.
        num_envs: how many games.
        seat, opponents, opponent_options, reward, illegal_action: as for `TianxiaEnv`.
        autoreset_mode: ``"NextStep"`` (default) or ``"SameStep"``.
        copy: hand out copies of the arrays (default) or the arrays themselves.
        workers: processes playing the games (0: this one).
    """

    def __init__(
        self,
        name: str,
        num_envs: int,
        players: int | None = None,
        *,
        seat: int = 0,
        opponents: Opponent | Sequence[Opponent] | Mapping[int, Opponent] = "random",
        opponent_options: Mapping[str, Any] | None = None,
        reward: str = "win",
        illegal_action: str = "loss",
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        workers: int = 0,
        **options: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number >= 1, not {num_envs!r}")
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
            raise ValueError(f"workers must be a whole number >= 0, not {workers!r}")
        mode = _mode(autoreset_mode)
        check_illegal_action(illegal_action)
        check_reward(reward)
        game = tianxia.load_game(name, players=players, **options)
        n = game.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be a whole number in 0..{n - 1}, not {seat!r}")
        self.game = game
        self.seat = seat
        self.num_envs = num_envs
        self.copy = copy
        self.autoreset_mode = mode
        self.metadata = {"autoreset_mode": mode, "encoding_version": ENCODING_VERSION}
        self.opponents = Opponents(game, seat, opponents, opponent_options)
        self.encoding = encoding(game)
        self.num_actions = game.info.num_distinct_actions
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self.encoding.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._spec = {
            "name": name,
            "players": players,
            "options": options,
            "seat": seat,
            "reward": reward,
            "illegal_action": illegal_action,
        }
        self._buffers = _Buffers(num_envs, self.encoding.size, self.num_actions, workers > 0)
        self._reset_next = np.zeros(num_envs, np.bool_)
        self._every = np.ones(num_envs, np.bool_)
        self._started = False
        self._illegal: list[str | None] = [None] * num_envs
        self._pool: _Pool | None = None
        self._lanes: _Lanes | None = None
        # The games' engine records (`.match`); `_tables` are those stepped one by one.
        self.tables: Sequence[Table | _LaneTable] = []
        self._tables: list[Table] = []
        if workers:
            try:
                self._pool = _Pool(
                    workers, num_envs, self._buffers, self._spec, self.opponents, mode
                )
            except BaseException:
                self._buffers.close()
                raise
        elif _all_random(self.opponents):
            # The common case of training and of the benchmarks, played in compiled code.
            self._lanes = _Lanes(game, seat, num_envs, reward)
            self.tables = [_LaneTable(self._lanes, i) for i in range(num_envs)]
        else:
            self._tables = [
                Table(game, seat, _own(self.opponents), reward, illegal_action)
                for _ in range(num_envs)
            ]
            self.tables = self._tables

    # --- the Gymnasium API ---------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start every game (or those of ``options["reset_mask"]``).

        `seed`: None, a whole number `s` (game `i` gets `s + i`) or one per game.
        """
        seeds = _seeds(seed, self.num_envs)
        mask = np.ones(self.num_envs, np.bool_)
        if options and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"])
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_ or not mask.any():
                raise ValueError(
                    f"options['reset_mask'] must be a bool array of shape ({self.num_envs},) "
                    "with at least one True"
                )
        b = self._buffers
        if self._pool is not None:
            self._pool.reset(seeds, mask)
        elif self._lanes is not None:
            which = np.flatnonzero(mask).tolist()
            for i in which:
                self._lanes.reset(i, seeds[i])
            self._lanes.observe(which, b.observations, b.masks)
        else:
            for i in np.flatnonzero(mask).tolist():
                table = self._tables[i]
                table.reset(seeds[i])
                table.write(b.observations[i], b.masks[i])
        b.terminations[mask] = False
        b.truncations[mask] = False
        b.rewards[mask] = 0.0
        self._reset_next[mask] = False
        self._started = self._started or bool(mask.all())
        return self._observations(), self._info(None)

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action id per game; every game plays on to its seat's next decision.

        Raises:
            IllegalActionError: with ``illegal_action="raise"``, an action its game does
                not allow now; it is raised before any game moves (with workers, a
                ValueError naming the games).
            ValueError: not one action id per game, an id out of range, or a step
                before `reset`.
        """
        acts = _actions(actions, self.num_envs, self.num_actions)
        if not self._started:
            raise ValueError("call reset() before step()")
        b = self._buffers
        if self._spec["illegal_action"] == "raise":
            self._refuse_illegal(acts)
        final: dict[int, dict[str, np.ndarray]] = {}
        if self._pool is not None:
            self._illegal, final = self._pool.step(acts, self._reset_next)
        elif self._lanes is not None:
            b = self._buffers
            self._illegal, final = self._lanes.play(
                acts,
                self._reset_next,
                b.observations,
                b.masks,
                b.rewards,
                b.terminations,
                self.autoreset_mode == AutoresetMode.SAME_STEP,
            )
        else:
            same_step = self.autoreset_mode == AutoresetMode.SAME_STEP
            for i, table in enumerate(self._tables):
                self._illegal[i] = None
                if self._reset_next[i]:
                    table.reset(None)
                    b.rewards[i] = 0.0
                    b.terminations[i] = False
                else:
                    b.rewards[i], b.terminations[i], self._illegal[i] = table.step(int(acts[i]))
                    if same_step and b.terminations[i]:
                        table.write(b.observations[i], b.masks[i])
                        final[i] = {
                            "observation": b.observations[i].copy(),
                            "action_mask": b.masks[i].copy(),
                        }
                        table.reset(None)
                table.write(b.observations[i], b.masks[i])
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            self._reset_next[:] = b.terminations | b.truncations
        rewards = b.rewards.copy() if self.copy else b.rewards
        terms = b.terminations.copy() if self.copy else b.terminations
        truncs = b.truncations.copy() if self.copy else b.truncations
        return self._observations(), rewards, terms, truncs, self._info(final)

    def _refuse_illegal(self, acts: np.ndarray) -> None:
        """Raise before any game moves if an action is outside its game's mask."""
        b = self._buffers
        refused = np.flatnonzero(~self._reset_next & (b.masks[np.arange(self.num_envs), acts] == 0))
        if not len(refused):
            return
        i = int(refused[0])
        if self._lanes is not None:
            e = self._lanes.why_illegal(i, int(acts[i]))
            raise IllegalActionError(
                e.rule, f"game {i} (of games {refused.tolist()} refused): {e.reason}", e.action
            )
        if self.tables and (match := self.tables[i].match) is not None:
            try:
                match.state.apply(self.game.action_from_id(int(acts[i])))
            except IllegalActionError as e:
                raise IllegalActionError(
                    e.rule, f"game {i} (of games {refused.tolist()} refused): {e.reason}", e.action
                ) from None
        raise ValueError(
            f"games {refused.tolist()} were given action ids their masks do not allow "
            f"(game {i}: {int(acts[i])})"
        )

    def close_extras(self, **kwargs: Any) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        self._buffers.close()

    def __del__(self) -> None:
        # Worker processes and shared memory outlive a forgotten environment otherwise.
        if getattr(self, "_pool", None) is not None or getattr(
            getattr(self, "_buffers", None), "memory", None
        ):
            self.close_extras()

    # --- helpers ----------------------------------------------------------------
    def _observations(self) -> dict[str, np.ndarray]:
        b = self._buffers
        if self.copy:
            return {"observation": b.observations.copy(), "action_mask": b.masks.copy()}
        return {"observation": b.observations, "action_mask": b.masks}

    def _info(self, final: dict[int, dict[str, np.ndarray]] | None) -> dict[str, Any]:
        b = self._buffers
        info: dict[str, Any] = {
            "action_mask": b.masks.copy() if self.copy else b.masks,
            "_action_mask": self._every.copy() if self.copy else self._every,
        }
        illegal = [i for i, why in enumerate(self._illegal) if why is not None]
        if illegal:
            info["illegal_action"] = np.array([w or "" for w in self._illegal], dtype=object)
            info["_illegal_action"] = np.array([w is not None for w in self._illegal])
        if final:
            obs = np.full(self.num_envs, None, dtype=object)
            for i, o in final.items():
                obs[i] = o
            info["final_obs"] = obs
            info["_final_obs"] = np.array([i in final for i in range(self.num_envs)])
        return info

    def render(self) -> tuple[Any, ...] | None:
        return None


class Seats:
    """Many games in which the caller plays every seat: the batched form of the
    PettingZoo environment, for self-play with one policy.

    Each step takes one action id per game, for the seat to move in it, and plays chance
    on to the next decision. The observation handed back is that of the seat now to
    move, in the one encoding, so it sits at seat 0 whichever seat it is, and one
    policy can play them all; ``info["seat"]`` names it. Rewards are per seat,
    ``(num_envs, players)``, paid when a game ends (``reward`` as elsewhere), so every
    seat's part of a game gets its own return. Games restart by themselves as in
    `TianxiaVectorEnv` (``"NextStep"`` or ``"SameStep"``). Game `i` of ``reset(seed=s)``
    is the PettingZoo environment's game of ``reset(seed=s + i)``. It is no Gymnasium
    `VectorEnv` (those pay one reward per game), and plays in this process.
    """

    def __init__(
        self,
        name: str,
        num_envs: int,
        players: int | None = None,
        *,
        reward: str = "win",
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        **options: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number >= 1, not {num_envs!r}")
        self.autoreset_mode = _mode(autoreset_mode)
        self.reward_kind = check_reward(reward)
        self.game = tianxia.load_game(name, players=players, **options)
        self.players = self.game.players
        self.num_envs = num_envs
        self.copy = copy
        self.encoding = encoding(self.game)
        self.num_actions = self.game.info.num_distinct_actions
        self.metadata = {
            "autoreset_mode": self.autoreset_mode,
            "encoding_version": ENCODING_VERSION,
        }
        n = num_envs
        self.observations = np.zeros((n, self.encoding.size), np.float32)
        self.masks = np.zeros((n, self.num_actions), np.int8)
        self.rewards = np.zeros((n, self.players), np.float64)
        self.terminations = np.zeros(n, np.bool_)
        self.seat = np.zeros(n, np.int64)
        self.matches: list[Match | None] = [None] * n
        self._rngs = [seeding.np_random(None)[0] for _ in range(n)]
        self._reset_next = np.zeros(n, np.bool_)

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: Any = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start every game; `seed` as for `TianxiaVectorEnv.reset`."""
        seeds = _seeds(seed, self.num_envs)
        for i, s in enumerate(seeds):
            self._start(i, s)
        self.rewards.fill(0.0)
        self.terminations.fill(False)
        self._reset_next.fill(False)
        return self._out(None)

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action id per game for its seat to move; returns observations, rewards
        ``(num_envs, players)``, terminations, truncations and info.

        Raises:
            ValueError: not one action id per game, an action its game does not allow
                now (named with the rules' reason; no game moves), or a step before
                `reset`.
        """
        acts = _actions(actions, self.num_envs, self.num_actions)
        if any(m is None for m in self.matches):
            raise ValueError("call reset() before step()")
        # Every action is checked before any game moves, so a bad batch changes nothing;
        # a game awaiting its restart ignores its action.
        refused = np.flatnonzero(
            ~self._reset_next & (self.masks[np.arange(self.num_envs), acts] == 0)
        )
        if len(refused):
            i = int(refused[0])
            match = self.matches[i]
            assert match is not None
            why = match.state.explain(self.game.action_from_id(int(acts[i])))
            raise ValueError(
                f"games {refused.tolist()} were given actions they do not allow now; "
                f"game {i}, seat {int(self.seat[i])}, action id {int(acts[i])}: {why}"
            )
        final: dict[int, dict[str, np.ndarray]] = {}
        same_step = self.autoreset_mode == AutoresetMode.SAME_STEP
        for i, match in enumerate(self.matches):
            assert match is not None
            self.rewards[i] = 0.0
            if self._reset_next[i]:
                self._start(i, None)
                self.terminations[i] = False
                continue
            match.play(self.game.action_from_id(int(acts[i])))
            match.resolve_chance()
            state = match.state
            self.terminations[i] = state.is_terminal()
            if state.is_terminal():
                for seat in range(self.players):
                    self.rewards[i, seat] = final_reward(state, seat, self.reward_kind)
                if same_step:
                    self._write(i)
                    final[i] = {
                        "observation": self.observations[i].copy(),
                        "action_mask": self.masks[i].copy(),
                    }
                    self._start(i, None)
                    continue
            self._write(i)
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            self._reset_next[:] = self.terminations
        obs, info = self._out(final)
        rewards = self.rewards.copy() if self.copy else self.rewards
        terms = self.terminations.copy() if self.copy else self.terminations
        return obs, rewards, terms, np.zeros(self.num_envs, np.bool_), info

    def close(self) -> None:
        return None

    def _start(self, i: int, seed: int | None) -> None:
        if seed is not None:
            self._rngs[i] = seeding.np_random(seed)[0]
        game_seed = seed if seed is not None else int(self._rngs[i].integers(2**62))
        match = Match(self.game, seed=game_seed)
        match.resolve_chance()
        self.matches[i] = match
        self._write(i)

    def _write(self, i: int) -> None:
        match = self.matches[i]
        assert match is not None
        state = match.state
        mover = state.current_player()
        self.masks[i].fill(0)
        if state.is_terminal():
            # Over: the seat that moved last keeps the view, with nothing to choose.
            self.encoding.encode(state, int(self.seat[i]), self.observations[i])
            return
        self.seat[i] = mover
        self.encoding.encode(state, mover, self.observations[i])
        self.masks[i, [self.game.action_id(a) for a in state.legal_actions()]] = 1

    def _out(
        self, final: dict[int, dict[str, np.ndarray]] | None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        c = self.copy
        obs: dict[str, np.ndarray] = {
            "observation": self.observations.copy() if c else self.observations,
            "action_mask": self.masks.copy() if c else self.masks,
        }
        info: dict[str, Any] = {"seat": self.seat.copy() if c else self.seat}
        if final:
            arr = np.full(self.num_envs, None, dtype=object)
            for i, o in final.items():
                arr[i] = o
            info["final_obs"] = arr
            info["_final_obs"] = np.array([i in final for i in range(self.num_envs)])
        return obs, info


def _mode(autoreset_mode: Any) -> AutoresetMode:
    try:
        mode = AutoresetMode(autoreset_mode)
    except ValueError:
        mode = None
    if mode not in AUTORESET_MODES:
        allowed = ", ".join(m.value for m in AUTORESET_MODES)
        raise ValueError(f"autoreset_mode must be one of {allowed}, not {autoreset_mode!r}")
    return mode


def _seeds(seed: Any, n: int) -> list[int | None]:
    if seed is None:
        return [None] * n
    if isinstance(seed, int | np.integer) and not isinstance(seed, bool):
        return [int(seed) + i for i in range(n)]
    if isinstance(seed, Sequence) and not isinstance(seed, str):
        seeds = [check_seed(s) for s in seed]
        if len(seeds) != n:
            raise ValueError(f"one seed per game is needed ({n}), not {len(seeds)}")
        return seeds
    raise ValueError(f"seed must be None, a whole number or one per game, not {seed!r}")


def _actions(actions: Any, n: int, num_actions: int) -> np.ndarray:
    acts = np.asarray(actions)
    if acts.shape != (n,) or not np.issubdtype(acts.dtype, np.integer):
        raise ValueError(f"step needs {n} whole action ids, one per game, not {actions!r}")
    if ((acts < 0) | (acts >= num_actions)).any():
        raise ValueError(f"action ids run 0..{num_actions - 1}, not {actions!r}")
    return acts


def make(name: str, num_envs: int, **kwargs: Any) -> TianxiaVectorEnv:
    """`TianxiaVectorEnv(name, num_envs, **kwargs)`."""
    return TianxiaVectorEnv(name, num_envs, **kwargs)


def _all_random(opponents: Opponents) -> bool:
    """Whether every opponent is the random bot named by name."""
    return all(isinstance(o, str) and o == "random" for o in opponents.by_seat.values())


def _own(opponents: Opponents) -> Opponents:
    """`opponents` as one game may use them: a bot object is copied, so that the games
    do not share (and reseed) one bot's stream."""
    if any(isinstance(o, Bot) for o in opponents.by_seat.values()):
        return copy.deepcopy(opponents)
    return opponents


class _Buffers:
    """The arrays every step writes: in this process, or in shared memory for workers."""

    def __init__(self, n: int, size: int, actions: int, shared: bool) -> None:
        layout = [
            ("observations", (n, size), np.float32),
            ("masks", (n, actions), np.int8),
            ("rewards", (n,), np.float64),
            ("terminations", (n,), np.bool_),
            ("truncations", (n,), np.bool_),
        ]
        self.layout = layout
        self.memory: shared_memory.SharedMemory | None = None
        total = sum(int(np.prod(shape)) * np.dtype(t).itemsize for _, shape, t in layout)
        if shared:
            self.memory = shared_memory.SharedMemory(create=True, size=max(1, total))
        self._attach(self.memory)

    def _attach(self, memory: shared_memory.SharedMemory | None) -> None:
        offset = 0
        for name, shape, dtype in self.layout:
            if memory is None:
                arr: np.ndarray = np.zeros(shape, dtype)
            else:
                arr = np.ndarray(shape, dtype, buffer=memory.buf, offset=offset)
                arr.fill(0)
                offset += arr.nbytes
            setattr(self, name, arr)

    observations: np.ndarray
    masks: np.ndarray
    rewards: np.ndarray
    terminations: np.ndarray
    truncations: np.ndarray

    def close(self) -> None:
        if self.memory is not None:
            for name, _, _ in self.layout:
                setattr(self, name, np.zeros(0))
            self.memory.close()
            self.memory.unlink()
            self.memory = None


class _Pool:
    """Worker processes, each stepping a contiguous slice of the games in place."""

    def __init__(
        self,
        workers: int,
        n: int,
        buffers: _Buffers,
        spec: dict[str, Any],
        opponents: Opponents,
        mode: AutoresetMode,
    ) -> None:
        assert buffers.memory is not None
        workers = min(workers, n)
        bounds = np.linspace(0, n, workers + 1).astype(int)
        self.slices = [(int(a), int(b)) for a, b in itertools.pairwise(bounds)]
        ctx = mp.get_context("spawn")
        self.pipes = []
        self.processes = []
        for lo, hi in self.slices:
            mine, theirs = ctx.Pipe()
            p = ctx.Process(
                target=_work,
                args=(
                    theirs,
                    buffers.memory.name,
                    buffers.layout,
                    lo,
                    hi,
                    spec,
                    opponents.by_seat,
                    opponents.options,
                    mode.value,
                ),
                daemon=True,
            )
            p.start()
            theirs.close()
            self.pipes.append(mine)
            self.processes.append(p)
        for pipe in self.pipes:
            try:
                status, payload = pipe.recv()
            except EOFError:
                status, payload = (
                    "error",
                    (
                        "it ended at once (workers are spawned and import the main module "
                        "again: start them from a file whose work runs under "
                        "`if __name__ == '__main__':`)"
                    ),
                )
            if status != "ready":
                self.close()
                raise RuntimeError(f"a worker failed to start: {payload}")

    def _gather(self) -> list[Any]:
        out = []
        failure = None
        for pipe in self.pipes:
            try:
                status, payload = pipe.recv()
            except EOFError:
                status, payload = "error", "a worker process ended"
            if status == "error":
                failure = payload
            out.append(payload)
        if failure is not None:
            raise RuntimeError(f"a worker failed: {failure}")
        return out

    def reset(self, seeds: list[int | None], mask: np.ndarray) -> None:
        for (lo, hi), pipe in zip(self.slices, self.pipes, strict=True):
            pipe.send(("reset", (seeds[lo:hi], mask[lo:hi])))
        self._gather()

    def step(
        self, actions: np.ndarray, reset_next: np.ndarray
    ) -> tuple[list[str | None], dict[int, dict[str, np.ndarray]]]:
        for (lo, hi), pipe in zip(self.slices, self.pipes, strict=True):
            pipe.send(("step", (actions[lo:hi], reset_next[lo:hi])))
        illegal: list[str | None] = []
        final: dict[int, dict[str, np.ndarray]] = {}
        for (lo, _), (why, done) in zip(self.slices, self._gather(), strict=True):
            illegal += why
            final.update({lo + i: o for i, o in done.items()})
        return illegal, final

    def close(self) -> None:
        for pipe in self.pipes:
            with contextlib.suppress(BrokenPipeError, OSError):
                pipe.send(("close", None))
        for p in self.processes:
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()
        self.pipes, self.processes = [], []


def _work(
    pipe: Any,
    memory_name: str,
    layout: list[tuple[str, tuple[int, ...], Any]],
    lo: int,
    hi: int,
    spec: dict[str, Any],
    by_seat: dict[int, Any],
    bot_options: dict[str, Any],
    mode: str,
) -> None:
    """A worker: steps games `lo`..`hi` and writes their rows of the shared arrays."""
    try:
        memory = shared_memory.SharedMemory(name=memory_name)
        arrays: dict[str, np.ndarray] = {}
        offset = 0
        for name, shape, dtype in layout:
            arr = np.ndarray(shape, dtype, buffer=memory.buf, offset=offset)
            offset += arr.nbytes
            arrays[name] = arr[lo:hi]
        game = tianxia.load_game(spec["name"], players=spec["players"], **spec["options"])
        seat = spec["seat"]
        opponents = Opponents(game, seat, by_seat, bot_options)
        lanes = _Lanes(game, seat, hi - lo, spec["reward"]) if _all_random(opponents) else None
        tables = (
            []
            if lanes is not None
            else [
                Table(game, seat, _own(opponents), spec["reward"], spec["illegal_action"])
                for _ in range(hi - lo)
            ]
        )
        obs, masks = arrays["observations"], arrays["masks"]
        rewards, terms = arrays["rewards"], arrays["terminations"]
        same_step = mode == AutoresetMode.SAME_STEP.value
        pipe.send(("ready", None))
    except Exception as e:  # the parent reports it and stops
        pipe.send(("error", repr(e)))
        return
    while True:
        command, payload = pipe.recv()
        if command == "close":
            del obs, masks, rewards, terms, arrays
            memory.close()
            return
        try:
            if command == "reset" and lanes is not None:
                seeds, mask = payload
                which = np.flatnonzero(mask).tolist()
                for i in which:
                    lanes.reset(i, seeds[i])
                lanes.observe(which, obs, masks)
                pipe.send(("ok", None))
            elif lanes is not None:
                actions, reset_next = payload
                pipe.send(
                    ("ok", lanes.play(actions, reset_next, obs, masks, rewards, terms, same_step))
                )
            elif command == "reset":
                seeds, mask = payload
                for i, table in enumerate(tables):
                    if mask[i]:
                        table.reset(seeds[i])
                        table.write(obs[i], masks[i])
                pipe.send(("ok", None))
            else:
                actions, reset_next = payload
                why: list[str | None] = [None] * len(tables)
                final: dict[int, dict[str, np.ndarray]] = {}
                for i, table in enumerate(tables):
                    if reset_next[i]:
                        table.reset(None)
                        rewards[i] = 0.0
                        terms[i] = False
                    else:
                        rewards[i], terms[i], why[i] = table.step(int(actions[i]))
                        if same_step and terms[i]:
                            table.write(obs[i], masks[i])
                            final[i] = {
                                "observation": obs[i].copy(),
                                "action_mask": masks[i].copy(),
                            }
                            table.reset(None)
                    table.write(obs[i], masks[i])
                pipe.send(("ok", (why, final)))
        except Exception as e:  # reported to the parent, which raises it
            pipe.send(("error", repr(e)))


class _LaneTable:
    """What `TianxiaVectorEnv.tables` holds for a game played by `_Lanes`: its engine
    record, rebuilt from the lane's log when read."""

    def __init__(self, lanes: _Lanes, i: int) -> None:
        self._lanes, self._i = lanes, i

    @property
    def match(self) -> Match | None:
        lane = self._lanes.lanes[self._i]
        if lane is None:
            return None
        match = Match(self._lanes.game, seed=self._lanes.seeds[self._i])
        for a in lane.log:
            match.play(a)
        return match


class _Lanes:
    """The games of a batch whose opponents are all the random bot: stepped by the
    compiled loop of `tianxia.core.batch`, with the streams `Table` would give them (so
    the same seeds play the same games), written into the arrays a batch at a time."""

    def __init__(self, game: tianxia.core.Game, seat: int, n: int, reward: str) -> None:
        self.game, self.seat, self.reward = game, seat, reward
        self.encoding = encoding(game)
        self.lanes: list[_batch.Lane | None] = [None] * n
        self.rngs = [seeding.np_random(None)[0] for _ in range(n)]
        self.seeds = [0] * n
        self.others = [s for s in range(game.players) if s != seat]
        self.ids = {a: game.action_id(a) for a in game.codec.actions}
        take = self.encoding._take[seat]
        self.take = None if take is None else take

    def reset(self, i: int, seed: int | None) -> None:
        """A new game `i`, as `Table.reset` starts it."""
        if seed is not None:
            self.rngs[i] = seeding.np_random(seed)[0]
        game_seed = seed if seed is not None else int(self.rngs[i].integers(2**62))
        streams = random.Random(game_seed)
        bots: list[random.Random | None] = [None] * self.game.players
        for other in self.others:
            bots[other] = random.Random(streams.randrange(2**31))
        lane = _batch.Lane(self.game.new_initial_state(), random.Random(game_seed), bots)
        _batch.advance(lane, self.seat)
        self.lanes[i] = lane
        self.seeds[i] = game_seed

    def why_illegal(self, i: int, action: int) -> IllegalActionError:
        """The engine's refusal of `action` in game `i`."""
        lane = self.lanes[i]
        assert lane is not None
        try:
            lane.state.check(self.game.action_from_id(action))
        except IllegalActionError as e:
            return e
        raise AssertionError(f"action id {action} is legal in game {i}, against its mask")

    def observe(self, which: Sequence[int], obs: np.ndarray, masks: np.ndarray) -> None:
        """Write the observations and masks of games `which`."""
        tensors: array[float] = array("f")
        rows: list[int] = []
        cols: list[int] = []
        for k, i in enumerate(which):
            lane = self.lanes[i]
            assert lane is not None
            _batch.observe(lane, self.seat, self.ids, tensors, rows, cols, k)
        index = np.asarray(which, np.intp)
        self._write(index, tensors, rows, cols, obs, masks)

    def step(self, actions: list[int], obs: np.ndarray, masks: np.ndarray) -> list[bool]:
        """Every game's step (a negative id: it does not move); which games ended."""
        tensors: array[float] = array("f")
        rows: list[int] = []
        cols: list[int] = []
        lanes = self.lanes
        over = _batch.step(lanes, actions, self.seat, self.ids, tensors, rows, cols)  # type: ignore[arg-type]
        self._write(None, tensors, rows, cols, obs, masks)
        return over

    def play(
        self,
        acts: np.ndarray,
        reset_next: np.ndarray,
        obs: np.ndarray,
        masks: np.ndarray,
        rewards: np.ndarray,
        terminations: np.ndarray,
        same_step: bool,
    ) -> tuple[list[str | None], dict[int, dict[str, np.ndarray]]]:
        """One step of every game into the arrays given (rows in the order of the lanes):
        a game awaiting its restart restarts and ignores its action. Returns, per game,
        the refusal of an action its mask does not allow (which ends it as a loss), and
        the final observations of the games that ended (``same_step``: they restart)."""
        n = len(self.lanes)
        moves: list[int] = acts.tolist()
        for i in np.flatnonzero(reset_next).tolist():
            self.reset(i, None)
            moves[i] = -1
        # The mask lists exactly the legal ids, so it is the legality check; a refused
        # game does not move, and its refusal is the engine's own.
        refused = np.flatnonzero(~reset_next & (masks[np.arange(n), acts] == 0)).tolist()
        illegal: list[str | None] = [None] * n
        for i in refused:
            e = self.why_illegal(i, moves[i])
            illegal[i] = f"{e.rule}: {e.reason}"
            moves[i] = -1
        over = self.step(moves, obs, masks)
        rewards.fill(0.0)
        terminations.fill(False)
        worst = worst_reward(self.game, self.reward)
        for i in refused:
            rewards[i] = worst
            terminations[i] = True
        ended = [i for i, o in enumerate(over) if o]
        for i in ended:
            lane = self.lanes[i]
            assert lane is not None
            rewards[i] = final_reward(lane.state, self.seat, self.reward)
            terminations[i] = True
        final: dict[int, dict[str, np.ndarray]] = {}
        if same_step and (refused or ended):
            done = sorted(refused + ended)
            for i in done:
                final[i] = {"observation": obs[i].copy(), "action_mask": masks[i].copy()}
                self.reset(i, None)
            self.observe(done, obs, masks)
        return illegal, final

    def _write(
        self,
        index: np.ndarray | None,
        tensors: array[float],
        rows: list[int],
        cols: list[int],
        obs: np.ndarray,
        masks: np.ndarray,
    ) -> None:
        size = self.encoding.size
        raw = np.frombuffer(tensors, np.float32).reshape(-1, size)
        if self.take is not None:
            raw = raw[:, self.take]
        where = slice(None) if index is None else index
        obs[where] = raw
        masks[where] = 0
        if cols:
            r = np.asarray(rows, np.intp)
            masks[r if index is None else index[r], np.asarray(cols, np.intp)] = 1
