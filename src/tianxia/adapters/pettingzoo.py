"""Every Tianxia game as a PettingZoo AEC environment.

>>> from tianxia.adapters.pettingzoo import env
>>> e = env("greatwall", players=3)     # doctest: +SKIP
>>> e.reset(seed=7)                     # doctest: +SKIP

- agents are ``player_0 .. player_{n-1}``, the engine's seats; ``opponents`` (a mapping
  seat -> bot name, bot object, policy, snapshot or `League`, as for the Gymnasium
  environment) plays some seats inside the environment, and their agents are left out;
- chance is resolved inside the environment from a `tianxia.Match` seeded by
  ``reset(seed=...)`` (without a seed, a fresh one is drawn and kept in `env.match.seed`), so
  `env.match` is an ordinary engine match that `Match.save` records and replays;
- an observation is the seat's tensor in the adapters' one encoding
  (`tianxia.adapters.encoding`: the title's `State.observation_tensor` with seats
  relative to the observer, who is seat 0), a float32 NumPy vector in a `Box` space, as
  PettingZoo's `api_test` expects; the legal player actions
  by id are the int8 vector ``infos[agent]["action_mask"]`` (so ``env.last()[4]`` for the
  agent to move), also returned by `action_mask(agent)`. It is all zeros for a seat that
  is not to move;
- rewards arrive once, at the end: ``reward="win"`` (default) pays `State.returns()`,
  ``"rank"`` and ``"score"`` as described in `tianxia.adapters.opponents`;
- an illegal action raises the engine's `IllegalActionError` (its rule and reason) and
  changes nothing; with ``illegal_action="loss"`` it ends the game instead, the offender
  receiving the worst reward of its kind (the game's minimum utility for ``"win"``, -1
  otherwise) and every other seat 0, as PettingZoo's classic
  games do. An action that is no action id at all (out of range, not a whole number)
  always raises.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import tianxia
from tianxia.adapters.encoding import ENCODING_VERSION, encoding
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


def env(
    name: str,
    players: int | None = None,
    *,
    illegal_action: str = "raise",
    reward: str = "win",
    opponents: Mapping[int, Opponent] | None = None,
    opponent_options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    **options: Any,
) -> TianxiaAEC:
    """The AEC environment of game `name` (`players` and `options` as for `load_game`)."""
    return TianxiaAEC(
        name,
        players,
        illegal_action=illegal_action,
        reward=reward,
        opponents=opponents,
        opponent_options=opponent_options,
        render_mode=render_mode,
        **options,
    )


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class TianxiaAEC(AECEnv):
    """One Tianxia variant as an agent-environment-cycle game. See the module docstring."""

    def __init__(
        self,
        name: str,
        players: int | None = None,
        *,
        illegal_action: str = "raise",
        reward: str = "win",
        opponents: Mapping[int, Opponent] | None = None,
        opponent_options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.reward_kind = check_reward(reward)
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(
                f"illegal_action must be one of {', '.join(ILLEGAL_ACTION_MODES)}, "
                f"not {illegal_action!r}"
            )
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.game = tianxia.load_game(name, players=players, **options)
        info = self.game.info
        self.metadata = {
            "render_modes": ["ansi", "human"],
            "name": f"tianxia_{name}_v{info.version}",
            "is_parallelizable": False,
            "encoding_version": ENCODING_VERSION,
        }
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.num_actions = info.num_distinct_actions
        if opponents is not None and not isinstance(opponents, Mapping):
            raise ValueError(f"opponents must be a mapping seat -> opponent, not {opponents!r}")
        taken = set(opponents or {})
        learners = [i for i in range(self.game.players) if i not in taken]
        if not learners:
            raise ValueError("opponents take every seat; leave at least one to the agents")
        self.opponents = (
            Opponents(self.game, learners, opponents, opponent_options) if opponents else None
        )
        self._actors: dict[int, Actor] = {}
        self._seats = {agent_name(i): i for i in learners}
        self.possible_agents = list(self._seats)
        self.agents = self.possible_agents[:]
        self.encoding = encoding(self.game)
        size = self.encoding.size
        self.observation_spaces = {
            a: spaces.Box(-np.inf, np.inf, (size,), np.float32) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self.match: Match | None = None
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[0]

    # --- spaces ---------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --- the cycle ----------------------------------------------------------------
    @property
    def engine_state(self) -> State:
        """The engine state of the game in progress."""
        return self._match().state

    def _match(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() before using the environment")
        return self.match

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. `seed` fixes every chance outcome; `options` is not used."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        elif isinstance(seed, bool) or not isinstance(seed, int | np.integer):
            raise ValueError(f"seed must be a whole number or None, not {seed!r}")
        self.match = Match(self.game, seed=int(seed))
        if self.opponents is not None:
            self._actors = self.opponents.actors(int(seed))
        self._play_on()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._after_move(previous=0)

    def _seat(self, agent: str) -> int:
        if agent not in self._seats:
            raise ValueError(f"no agent {agent!r} (agents: {', '.join(self.possible_agents)})")
        return self._seats[agent]

    def observe(self, agent: str) -> np.ndarray:
        """`agent`'s observation tensor (float32)."""
        return self.encoding.encode(self.engine_state, self._seat(agent))

    def action_mask(self, agent: str) -> np.ndarray:
        """1 for each action id legal for `agent` now (int8; all zeros off turn)."""
        seat = self._seat(agent)
        state = self.engine_state
        mask = np.zeros(self.num_actions, np.int8)
        if state.current_player() == seat:
            mask[[self.game.action_id(a) for a in state.legal_actions()]] = 1
        return mask

    def _set_masks(self) -> None:
        for agent in self.agents:
            self.infos[agent]["action_mask"] = self.action_mask(agent)

    def step(self, action: Any) -> None:
        """Play `action` (an action id) for `agent_selection`; chance then runs its course.

        Raises:
            IllegalActionError: the action is not legal now (unless ``illegal_action="loss"``).
            ValueError: `action` is no action id of this game.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self._match()
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise ValueError(f"an action id (a whole number) is needed, not {action!r}")
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action id {action} is outside 0..{self.num_actions - 1}")
        seat = self._seats[agent]
        a = self.game.action_from_id(int(action))
        self._cumulative_rewards[agent] = 0.0
        try:
            match.play(a)
        except IllegalActionError as e:
            if self.illegal_action == "raise":
                raise
            self._lose(agent, e)
            return
        self._play_on()
        self._after_move(previous=seat)
        if self.render_mode == "human":
            self.render()

    def _play_on(self) -> None:
        """Chance and the opponents' seats, until an agent is to move or the game ends."""
        m = self._match()
        while not m.state.is_terminal():
            if m.state.is_chance_node():
                m.resolve_chance()
                continue
            p = m.state.current_player()
            if p not in self._actors:
                return
            m.play(self._actors[p](m.state))

    def _after_move(self, previous: int) -> None:
        state = self.engine_state
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if state.is_terminal():
            for agent, seat in self._seats.items():
                self.rewards[agent] = final_reward(state, seat, self.reward_kind)
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            after = [a for a, s in self._seats.items() if s > previous]
            self.agent_selection = (after or self.possible_agents)[0]
        else:
            self.agent_selection = agent_name(state.current_player())
        self._set_masks()

    def _lose(self, agent: str, error: IllegalActionError) -> None:
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = worst_reward(self.game, self.reward_kind)
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent]["illegal_action"] = f"{error.rule}: {error.reason}"
        self._accumulate_rewards()
        self._set_masks()

    def render(self) -> str | None:
        """The spectator's view as text (``ansi``), printed too for ``human``."""
        if self.render_mode is None:
            return None
        text = str(self.engine_state)
        if self.render_mode == "human":
            print(text)
        return text

    def close(self) -> None:
        return None
