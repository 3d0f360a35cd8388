"""The mutable holder of one game: current state, action log, seeded chance stream."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from tianxia.core.actions import Action
from tianxia.core.constants import CHANCE
from tianxia.core.game import JSON, Game, State

SAVE_FORMAT = 1
_T = TypeVar("_T")


def choose_outcome(outcomes: Sequence[tuple[_T, float]], rng: random.Random) -> _T:
    """One of `outcomes` (value, probability), drawn from `rng` by the probabilities."""
    r = rng.random()
    acc = 0.0
    for a, p in outcomes:
        acc += p
        if r < acc:
            return a
    return outcomes[-1][0]


def sample_chance(state: State, rng: random.Random) -> Action:
    """One outcome of the chance node `state`, drawn from `rng` by its probabilities."""
    return choose_outcome(state.chance_outcomes(), rng)


class Match:
    """One game in progress.

    Args:
        game: the variant.
        seed: seeds the chance stream; the same seed and the same player actions give
            the same log.

    Attributes:
        state: the current state.
        log: every action applied so far, chance outcomes included.
        history: the states, `history[0]` the initial one, `history[-1] is state`.
    """

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)
        self.state: State = game.new_initial_state()
        self.log: list[Action] = []
        self.history: list[State] = [self.state]

    def play(self, action: Action | str | int) -> State:
        """Apply `action` (or its notation or id) for whoever is to act; returns the new state."""
        a = self.state.to_action(action)
        new = self.state.apply(a)
        self.log.append(a)
        self.history.append(new)
        self.state = new
        return new

    def resolve_chance(self) -> list[Action]:
        """Sample and apply chance outcomes until a player (or the end) is to act."""
        drawn: list[Action] = []
        while self.state.current_player() == CHANCE:
            a = sample_chance(self.state, self.rng)
            self.play(a)
            drawn.append(a)
        return drawn

    def undo(self) -> Action:
        """Take back the last action; returns it. The chance stream is not rewound."""
        if not self.log:
            raise ValueError("nothing to undo")
        self.history.pop()
        self.state = self.history[-1]
        return self.log.pop()

    def seat_of(self, index: int) -> int:
        """Who took action `log[index]` (`CHANCE` for chance outcomes)."""
        return self.history[index].current_player()

    def to_json(self) -> JSON:
        """A saved game: the variant, the seed and the log in notation and ids."""
        return {
            "format": SAVE_FORMAT,
            **self.game.spec(),
            "rules_version": self.game.VERSION,
            "seed": self.seed,
            "log": [str(a) for a in self.log],
            "ids": [self.game.action_id(a) for a in self.log],
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: JSON) -> Match:
        """Rebuild a saved match by replaying its log (ids preferred, notation otherwise)."""
        from tianxia.core.registry import load_game

        game = load_game(data["game"], players=data["players"], **data.get("options", {}))
        m = cls(game, seed=int(data.get("seed", 0)))
        entries: list[Any] = data.get("ids") or data.get("log") or []
        for entry in entries:
            m.play(entry)
        # Continue the chance stream where a fresh run would be: draw once per chance outcome.
        m.rng = random.Random(m.seed)
        for i in range(len(m.log)):
            if m.seat_of(i) == CHANCE:
                m.rng.random()
        return m

    @classmethod
    def load(cls, path: str | Path) -> Match:
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))


def replay(game: Game, log: Iterable[Action | str | int]) -> State:
    """The state reached by applying `log` from the initial state; each step is checked."""
    state = game.new_initial_state()
    for entry in log:
        state = state.apply(entry)
    return state
