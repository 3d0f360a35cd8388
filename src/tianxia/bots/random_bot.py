"""The uniform random bot: the baseline every other bot must beat."""

from __future__ import annotations

from tianxia.bots.base import Bot, in_words, move_in_words
from tianxia.core import Action, State


class RandomBot(Bot):
    """Chooses uniformly among the legal actions with its own random stream."""

    NAME = "random"

    def _choose(self, state: State, legal: tuple[Action, ...]) -> Action:
        choice = self.rng.choice(legal)
        self._explanation = f"random: {choice}, drawn uniformly from {len(legal)} legal actions"
        self._reason = lambda: in_words("random", move_in_words(state, choice), len(legal))
        return choice
