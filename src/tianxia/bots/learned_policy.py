"""A learner's policy in a seat: any callable `(observation, mask) -> action id`.

The same callables the environments take as opponents (`tianxia.adapters.opponents`):
the observation in the one research encoding (seats relative to the seat), the mask an
int8 array over the game's action ids. Made in this process, the bot takes the callable
itself (`make("policy", game, seat, policy=fn)`); a tournament, whose games may run in
other processes, names it by where it is imported from
(`policy:ref=mypackage.agents.act`), and each worker imports it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import numpy as np

from tianxia.adapters.encoding import encoding
from tianxia.bots.base import Bot, move_in_words
from tianxia.core import Action, Game, State

Policy = Callable[[np.ndarray, np.ndarray], int]


def imported(ref: str) -> Policy:
    """The callable at dotted path `ref` (`package.module.name`).

    Raises:
        ValueError: `ref` names no importable callable.
    """
    module, _, name = ref.rpartition(".")
    if not module or not name:
        raise ValueError(f"policy: ref is written package.module.name, not {ref!r}")
    try:
        found = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as e:
        raise ValueError(f"policy: nothing callable at {ref!r} ({e})") from None
    if not callable(found):
        raise ValueError(f"policy: {ref!r} is not callable")
    return found


class PolicyBot(Bot):
    """Plays the action id its policy returns for the seat's observation and mask.

    Options:
        policy: the callable (in this process only).
        ref: where to import it from, `package.module.name` (what a tournament passes).
        With neither, a uniform choice among the mask's ids from the bot's own stream.
    """

    NAME = "policy"
    OPTIONS: ClassVar[Mapping[str, Any]] = {"policy": None, "ref": None}

    def __init__(self, game: Game, seat: int, seed: int = 0, **options: Any) -> None:
        super().__init__(game, seat, seed, **options)
        policy, ref = self.options["policy"], self.options["ref"]
        if policy is not None and ref is not None:
            raise ValueError("policy: give either policy (a callable) or ref (its import path)")
        if policy is not None and not callable(policy):
            raise ValueError(f"policy: option policy must be callable, not {policy!r}")
        if ref is not None:
            policy = imported(str(ref))
        self.policy: Policy = policy if policy is not None else self._uniform
        self.encoding = encoding(game)

    def _uniform(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """The policy of a learner that has learned nothing: any id of the mask."""
        return int(self.rng.choice(np.flatnonzero(mask).tolist()))

    def _choose(self, state: State, legal: tuple[Action, ...]) -> Action:
        game = self.game
        mask = np.zeros(game.info.num_distinct_actions, np.int8)
        for a in legal:
            mask[game.action_id(a)] = 1
        answer = self.policy(self.encoding.encode(state, self.seat), mask)
        try:
            choice = game.action_from_id(int(answer))
        except (TypeError, ValueError):
            choice = None
        if choice is None or choice not in legal:
            raise ValueError(
                f"policy: the policy answered {answer!r}, which is not one of the "
                f"{len(legal)} legal action ids"
            )
        self._explanation = f"policy: {choice} (action id {int(answer)})"
        self._reason = lambda: f"Played the move its policy chose: {move_in_words(state, choice)}"
        return choice
