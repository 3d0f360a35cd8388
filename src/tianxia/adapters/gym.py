"""Every Tianxia game as a single-agent Gymnasium environment: one seat learns, others
play the other seats.

>>> from tianxia.adapters.gym import TianxiaEnv
>>> env = TianxiaEnv("greatwall", players=3, seat=0, opponents="random")  # doctest: +SKIP
>>> obs, info = env.reset(seed=7)                                          # doctest: +SKIP

- observations are ``{"observation": float32 vector, "action_mask": int8 vector}``; the
  vector is the one encoding of every face (`tianxia.adapters.encoding`: seats relative
  to the learner, which is seat 0 in it); ``info["action_mask"]`` repeats the mask for
  libraries that look for it there;
- actions are the engine's player action ids; chance and the other seats' moves happen
  inside `step` until the learning seat is to move again or the game ends;
- opponents are bot names, bot objects, policies ``(observation, mask) -> action id``,
  frozen snapshots of a learner or a `League` of them (`tianxia.adapters.opponents`);
- the reward, paid at the end and 0 before, is ``reward="win"`` (the seat's
  `State.returns()` entry), ``"rank"`` or ``"score"`` (see `tianxia.adapters.opponents`);
- `reset(seed=...)` seeds the chance stream and every opponent, so one seed and one
  sequence of actions give one game; `env.match` is the engine's record of it;
- an illegal action ends the episode as a loss: the worst reward of its kind, and
  ``info["illegal_action"]`` names the rule it broke. Learners that sample without
  the mask (and Gymnasium's `check_env`) can then step freely; ``illegal_action="raise"``
  raises the engine's `IllegalActionError` instead and changes nothing.

`register()` makes the games available to ``gymnasium.make("tianxia/<name>-v<version>")``,
and to ``gymnasium.make_vec`` as `tianxia.adapters.vector.TianxiaVectorEnv`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

import tianxia
from tianxia.adapters.encoding import ENCODING_VERSION, Encoding, encoding
from tianxia.adapters.opponents import (
    Actor,
    Opponent,
    Opponents,
    check_reward,
    final_reward,
    worst_reward,
)
from tianxia.core import IllegalActionError, Match, State

ILLEGAL_ACTION_MODES = ("raise", "loss")


def env_id(name: str) -> str:
    """The Gymnasium id of Tianxia game `name`."""
    return f"tianxia/{name}-v{tianxia.load_game(name).info.version}"


def register(names: Sequence[str] | None = None) -> list[str]:
    """Register games (default: all) with Gymnasium; returns their ids."""
    ids = []
    for name in tianxia.list_games() if names is None else names:
        gid = env_id(name)
        if gid not in gymnasium.registry:
            gymnasium.register(
                id=gid,
                entry_point=_make_env,
                vector_entry_point=_make_vector_env,
                kwargs={"name": name},
            )
        ids.append(gid)
    return ids


def check_illegal_action(mode: str) -> str:
    if mode not in ILLEGAL_ACTION_MODES:
        raise ValueError(
            f"illegal_action must be one of {', '.join(ILLEGAL_ACTION_MODES)}, not {mode!r}"
        )
    return mode


def check_seed(seed: Any) -> int | None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | np.integer)):
        raise ValueError(f"seed must be a whole number or None, not {seed!r}")
    return None if seed is None else int(seed)


class Table:
    """One seat's game against its opponents: what a Gymnasium environment steps.

    The single environment holds one, the vector environment many. Observations and
    masks are written into arrays the caller owns.
    """

    def __init__(
        self,
        game: tianxia.core.Game,
        seat: int,
        opponents: Opponents,
        reward: str,
        illegal_action: str,
    ) -> None:
        self.game = game
        self.seat = seat
        self.opponents = opponents
        self.reward = reward
        self.illegal_action = illegal_action
        self.encoding: Encoding = encoding(game)
        self.num_actions = game.info.num_distinct_actions
        self.match: Match | None = None
        self.actors: dict[int, Actor] = {}
        self.over = True
        self.rng, _ = seeding.np_random(None)

    def reset(self, seed: int | None, rng: np.random.Generator | None = None) -> None:
        """A new game: `seed` fixes it; otherwise a seed is drawn from the table's stream
        (`rng`, when given, replaces that stream first)."""
        if rng is not None:
            self.rng = rng
        elif seed is not None:
            self.rng, _ = seeding.np_random(seed)
        game_seed = seed if seed is not None else int(self.rng.integers(2**62))
        self.match = Match(self.game, seed=game_seed)
        self.actors = self.opponents.actors(game_seed)
        self.over = False
        self._advance()

    def step(self, action: int) -> tuple[float, bool, str | None]:
        """Play `action` for the seat, then the others; (reward, over, illegal reason)."""
        assert self.match is not None
        try:
            self.match.play(self.game.action_from_id(action))
        except IllegalActionError as e:
            if self.illegal_action == "raise":
                raise
            self.over = True
            return worst_reward(self.game, self.reward), True, f"{e.rule}: {e.reason}"
        self._advance()
        if self.over:
            return final_reward(self.match.state, self.seat, self.reward), True, None
        return 0.0, False, None

    def _advance(self) -> None:
        assert self.match is not None
        m = self.match
        while not m.state.is_terminal():
            if m.state.is_chance_node():
                m.resolve_chance()
                continue
            p = m.state.current_player()
            if p == self.seat:
                return
            m.play(self.actors[p](m.state))
        self.over = True

    def write(self, observation: np.ndarray, mask: np.ndarray) -> None:
        """The seat's observation and mask now, into the given arrays."""
        assert self.match is not None
        state = self.match.state
        self.encoding.encode(state, self.seat, observation)
        mask.fill(0)
        if state.current_player() == self.seat:
            mask[[self.game.action_id(a) for a in state.legal_actions()]] = 1


class TianxiaEnv(gymnasium.Env):
    """One seat of a Tianxia variant; opponents play the other seats.

    Args:
        name, players, options: the variant, as for `tianxia.load_game`.
        seat: the learning seat.
        opponents: one opponent for every other seat, one per other seat (in seat
            order), or a mapping seat -> opponent. An opponent is a bot name, a bot
            object, a policy ``(observation, mask) -> action id``, a `snapshot` or a
            `League` (`tianxia.adapters.opponents`).
        opponent_options: options passed to every bot named by name (``simulations``).
        reward: ``"win"`` (default), ``"rank"`` or ``"score"``.
        illegal_action: ``"loss"`` (default: the episode ends with the worst reward) or
            ``"raise"``.
        render_mode: None or ``"ansi"``.
    """

    metadata = {"render_modes": ["ansi"], "encoding_version": ENCODING_VERSION}  # noqa: RUF012

    def __init__(
        self,
        name: str,
        players: int | None = None,
        *,
        seat: int = 0,
        opponents: Opponent | Sequence[Opponent] | Mapping[int, Opponent] = "random",
        opponent_options: Mapping[str, Any] | None = None,
        reward: str = "win",
        illegal_action: str = "loss",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        check_illegal_action(illegal_action)
        check_reward(reward)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = tianxia.load_game(name, players=players, **options)
        n = self.game.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be a whole number in 0..{n - 1}, not {seat!r}")
        self.seat = seat
        self.opponents = Opponents(self.game, seat, opponents, opponent_options)
        self.reward_kind = reward
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.table = Table(self.game, seat, self.opponents, reward, illegal_action)
        self.num_actions = self.game.info.num_distinct_actions
        self.encoding = self.table.encoding
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self.encoding.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.num_actions)

    @property
    def match(self) -> Match | None:
        """The engine's record of the game in progress (None before the first reset)."""
        return self.table.match

    @property
    def engine_state(self) -> State:
        if self.table.match is None:
            raise RuntimeError("call reset() before using the environment")
        return self.table.match.state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a game. `seed` fixes chance and the opponents; `options` is not used."""
        seed = check_seed(seed)
        super().reset(seed=seed)
        self.table.reset(seed, rng=self.np_random)
        obs = self._observe()
        return obs, {"action_mask": obs["action_mask"].copy()}

    def step(
        self, action: Any
    ) -> tuple[dict[str, np.ndarray], SupportsFloat, bool, bool, dict[str, Any]]:
        """Play `action` (an action id) for the learning seat, then the others until it is
        the seat's turn again or the game ends.

        Raises:
            IllegalActionError: the action is not legal now and ``illegal_action="raise"``.
            ValueError: no action id, or the episode is over.
        """
        if self.table.match is None or self.table.over:
            raise ValueError("the episode is over; call reset() to start another")
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise ValueError(f"an action id (a whole number) is needed, not {action!r}")
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action id {action} is outside 0..{self.num_actions - 1}")
        reward, over, illegal = self.table.step(int(action))
        obs = self._observe()
        info: dict[str, Any] = {"action_mask": obs["action_mask"].copy()}
        if illegal is not None:
            info["illegal_action"] = illegal
        return obs, reward, over, False, info

    def action_mask(self) -> np.ndarray:
        """1 for each action id legal for the learning seat now."""
        return self._observe()["action_mask"]

    def _observe(self) -> dict[str, np.ndarray]:
        if self.table.match is None:
            raise RuntimeError("call reset() before using the environment")
        obs = np.empty(self.encoding.size, np.float32)
        mask = np.empty(self.num_actions, np.int8)
        self.table.write(obs, mask)
        return {"observation": obs, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return str(self.engine_state)


def _make_env(**kwargs: Any) -> TianxiaEnv:
    return TianxiaEnv(**kwargs)


def _make_vector_env(**kwargs: Any) -> gymnasium.vector.VectorEnv:
    # What `gymnasium.make_vec` builds: the batched environment, not N single ones.
    from tianxia.adapters.vector import TianxiaVectorEnv

    return TianxiaVectorEnv(**kwargs)
