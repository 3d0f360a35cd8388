"""Every Tianxia game as a single-agent Gymnasium environment: one seat learns, the
project's bots play the others.

>>> from tianxia.adapters.gym import TianxiaEnv
>>> env = TianxiaEnv("greatwall", players=3, seat=0, opponents="random")  # doctest: +SKIP
>>> obs, info = env.reset(seed=7)                                          # doctest: +SKIP

- observations are ``{"observation": float32 vector, "action_mask": int8 vector}`` as in
  the PettingZoo environment; ``info["action_mask"]`` repeats the mask for libraries that
  look for it there;
- actions are the engine's player action ids; chance and the other seats' moves happen
  inside `step` until the learning seat is to move again or the game ends;
- the reward is the seat's `State.returns()` entry at the end, 0 before;
- `reset(seed=...)` seeds the chance stream and every opponent bot, so one seed and one
  sequence of actions give one game; `env.match` is the engine's record of it;
- an illegal action ends the episode as a loss: the reward is the game's minimum utility
  and ``info["illegal_action"]`` names the rule it broke. Learners that sample without
  the mask (and Gymnasium's `check_env`) can then step freely; ``illegal_action="raise"``
  raises the engine's `IllegalActionError` instead and changes nothing.

`register()` makes the games available to ``gymnasium.make("tianxia/<name>-v<version>")``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

import tianxia
import tianxia.bots
from tianxia.bots import Bot
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
            gymnasium.register(id=gid, entry_point=_make_env, kwargs={"name": name})
        ids.append(gid)
    return ids


class TianxiaEnv(gymnasium.Env):
    """One seat of a Tianxia variant; the other seats are played by `tianxia.bots`.

    Args:
        name, players, options: the variant, as for `tianxia.load_game`.
        seat: the learning seat.
        opponents: a bot name for every other seat, or one name per other seat (in seat
            order), or a mapping seat -> name.
        opponent_options: options passed to every opponent bot (e.g. ``simulations``).
        illegal_action: ``"loss"`` (default: the episode ends with the game's minimum
            utility) or ``"raise"``.
        render_mode: None or ``"ansi"``.
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012  (gymnasium declares it so)

    def __init__(
        self,
        name: str,
        players: int | None = None,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] | Mapping[int, str] = "random",
        opponent_options: Mapping[str, Any] | None = None,
        illegal_action: str = "loss",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(
                f"illegal_action must be one of {', '.join(ILLEGAL_ACTION_MODES)}, "
                f"not {illegal_action!r}"
            )
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = tianxia.load_game(name, players=players, **options)
        n = self.game.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be a whole number in 0..{n - 1}, not {seat!r}")
        self.seat = seat
        self.opponent_names = _opponents(opponents, seat, n)
        self.opponent_options = dict(opponent_options or {})
        available = tianxia.bots.available()
        for other, bot_name in self.opponent_names.items():
            if bot_name not in available:
                raise ValueError(
                    f"seat {other}: no bot called {bot_name!r} (bots: {', '.join(available)})"
                )
        # Build the bots once now so that bad options are refused at construction.
        self._make_bots(0)
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.num_actions = self.game.info.num_distinct_actions
        size = self.game.observation_tensor_size()
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.num_actions)
        self.match: Match | None = None
        self.bots: dict[int, Bot] = {}
        self._over = True

    def _make_bots(self, seed: int) -> dict[int, Bot]:
        streams = random.Random(seed)
        return {
            other: tianxia.bots.make(
                bot_name, self.game, other, seed=streams.randrange(2**31), **self.opponent_options
            )
            for other, bot_name in sorted(self.opponent_names.items())
        }

    @property
    def engine_state(self) -> State:
        if self.match is None:
            raise RuntimeError("call reset() before using the environment")
        return self.match.state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a game. `seed` fixes chance and the opponents; `options` is not used."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | np.integer)):
            raise ValueError(f"seed must be a whole number or None, not {seed!r}")
        super().reset(seed=None if seed is None else int(seed))
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**62))
        self.match = Match(self.game, seed=game_seed)
        self.bots = self._make_bots(game_seed)
        self._over = False
        self._advance()
        return self._observe(), self._info()

    def step(
        self, action: Any
    ) -> tuple[dict[str, np.ndarray], SupportsFloat, bool, bool, dict[str, Any]]:
        """Play `action` (an action id) for the learning seat, then the others until it is
        the seat's turn again or the game ends.

        Raises:
            IllegalActionError: the action is not legal now and ``illegal_action="raise"``.
            ValueError: no action id, or the episode is over.
        """
        if self.match is None or self._over:
            raise ValueError("the episode is over; call reset() to start another")
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise ValueError(f"an action id (a whole number) is needed, not {action!r}")
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action id {action} is outside 0..{self.num_actions - 1}")
        try:
            self.match.play(self.game.action_from_id(int(action)))
        except IllegalActionError as e:
            if self.illegal_action == "raise":
                raise
            self._over = True
            info = self._info()
            info["illegal_action"] = f"{e.rule}: {e.reason}"
            return self._observe(), float(self.game.info.min_utility), True, False, info
        self._advance()
        state = self.match.state
        reward = float(state.returns()[self.seat]) if state.is_terminal() else 0.0
        self._over = state.is_terminal()
        return self._observe(), reward, self._over, False, self._info()

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
            m.play(self.bots[p].act(m.state))
        self._over = True

    def action_mask(self) -> np.ndarray:
        """1 for each action id legal for the learning seat now."""
        mask = np.zeros(self.num_actions, np.int8)
        state = self.engine_state
        if state.current_player() == self.seat:
            mask[[self.game.action_id(a) for a in state.legal_actions()]] = 1
        return mask

    def _observe(self) -> dict[str, np.ndarray]:
        obs = np.asarray(self.engine_state.observation_tensor(self.seat), dtype=np.float32)
        return {"observation": obs, "action_mask": self.action_mask()}

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_mask()}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return str(self.engine_state)


def _make_env(**kwargs: Any) -> TianxiaEnv:
    return TianxiaEnv(**kwargs)


def _opponents(
    opponents: str | Sequence[str] | Mapping[int, str], seat: int, players: int
) -> dict[int, str]:
    others = [s for s in range(players) if s != seat]
    if isinstance(opponents, str):
        return dict.fromkeys(others, opponents)
    if isinstance(opponents, Mapping):
        if sorted(opponents) != others:
            raise ValueError(f"opponents must name a bot for seats {others}, got {dict(opponents)}")
        return {int(k): v for k, v in opponents.items()}
    names = list(opponents)
    if len(names) != len(others):
        raise ValueError(f"opponents must name {len(others)} bots (seats {others}), not {names}")
    return dict(zip(others, names))
