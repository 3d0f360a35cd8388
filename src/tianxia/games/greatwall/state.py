"""The State value of The Great Wall of China.

Every field is an immutable value (ints, tuples, `Section`s); `_apply` builds a shallow
copy and replaces the fields it changes, so the old state stays valid.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tianxia.core import JSON, Action, State
from tianxia.games.greatwall import rules
from tianxia.games.greatwall.section import Section
from tianxia.games.greatwall.view import (
    heuristic,
    heuristic_terms,
    observation,
    observation_tensor,
)

if TYPE_CHECKING:
    from tianxia.games.greatwall.game import GreatWall

SETUP, SCORE, ACT, DRAW, OVER = range(5)
PHASES = ("setup", "scoring", "actions", "drawing", "over")


class GreatWallState(State):
    """A position. Hands and decks are counts per card kind (a deck has no order until
    it is drawn from); `won` holds the values of the tiles each seat has taken.

    Attributes:
        seat: whose turn it is.
        phase: SETUP, SCORE (the scoring check), ACT (actions 2 and 3), DRAW (a card
            is being drawn) or OVER.
        pending: bit mask of sections the seat still has to score this turn.
        done: how many of actions 2 and 3 the seat has taken.
        trigger: the seat that first played its whole set, or -1 (GW-5.2).
        stopped: no more cards are played; turns are scoring checks only (GW-5.2).
        to_move: `current_player()`, fixed when the state is built.
        log: the last public events, in words.
    """

    __slots__ = (
        "bag",
        "boxed",
        "decks",
        "done",
        "gone",
        "hands",
        "log",
        "pending",
        "phase",
        "seat",
        "sections",
        "stopped",
        "to_move",
        "trigger",
        "won",
    )

    game: GreatWall

    def __init__(
        self,
        game: GreatWall,
        *,
        hands: tuple[tuple[int, ...], ...],
        decks: tuple[tuple[int, ...], ...],
        gone: tuple[tuple[int, ...], ...],
        sections: tuple[Section, ...],
        bag: tuple[int, ...],
        boxed: tuple[int, ...],
        won: tuple[tuple[int, ...], ...],
        seat: int = 0,
        phase: int = SETUP,
        pending: int = 0,
        done: int = 0,
        trigger: int = -1,
        stopped: bool = False,
        log: tuple[str, ...] = (),
        settle: bool = True,
    ) -> None:
        super().__init__(game)
        self.hands = hands
        self.decks = decks
        self.gone = gone
        self.sections = sections
        self.bag = bag
        self.boxed = boxed
        self.won = won
        self.seat = seat
        self.phase = phase
        self.pending = pending
        self.done = done
        self.trigger = trigger
        self.stopped = stopped
        self.log = log
        self.to_move = 0
        if settle:
            rules.settle(self)

    def copy(self) -> GreatWallState:
        """A shallow copy for `_apply` to change (never `self`)."""
        new = object.__new__(GreatWallState)
        new.game = self.game
        new._legal = None
        new.hands = self.hands
        new.decks = self.decks
        new.gone = self.gone
        new.sections = self.sections
        new.bag = self.bag
        new.boxed = self.boxed
        new.won = self.won
        new.seat = self.seat
        new.phase = self.phase
        new.pending = self.pending
        new.done = self.done
        new.trigger = self.trigger
        new.stopped = self.stopped
        new.log = self.log
        new.to_move = self.to_move
        return new

    # --- the contract --------------------------------------------------------
    def current_player(self) -> int:
        return self.to_move

    def _legal_actions(self) -> Sequence[Action]:
        return rules.legal_actions(self)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return rules.chance_outcomes(self)

    def _apply(self, action: Action) -> State:
        return rules.apply(self, action)

    def _why_illegal(self, action: Action) -> tuple[str, str]:
        return rules.why_illegal(self, action)

    def _describe(self, action: Action) -> str:
        return rules.describe(self, action)

    def scores(self) -> list[float]:
        return [float(sum(w)) for w in self.won]

    def returns(self) -> list[float]:
        return rules.returns(self)

    def observation(self, seat: int | None) -> JSON:
        return observation(self, seat)

    def observation_tensor(self, seat: int | None) -> list[float]:
        return observation_tensor(self, seat)

    def heuristic(self, seat: int) -> float:
        return heuristic(self, seat)

    def heuristic_terms(self, seat: int) -> dict[str, float]:
        return heuristic_terms(self, seat)

    def resample_from_infostate(self, seat: int, rng: random.Random) -> State:
        return rules.resample(self, seat, rng)

    def to_json(self) -> JSON:
        return {
            "hands": [list(h) for h in self.hands],
            "decks": [list(d) for d in self.decks],
            "gone": [list(g) for g in self.gone],
            "sections": [s.to_json() for s in self.sections],
            "bag": list(self.bag),
            "boxed": list(self.boxed),
            "won": [list(w) for w in self.won],
            "seat": self.seat,
            "phase": PHASES[self.phase],
            "pending": self.pending,
            "done": self.done,
            "trigger": self.trigger,
            "stopped": self.stopped,
            "log": list(self.log),
        }

    @classmethod
    def from_json(cls, game: GreatWall, data: JSON) -> GreatWallState:
        """Inverse of `to_json`; the state's derived fields are recomputed."""

        def rows(key: str) -> tuple[tuple[int, ...], ...]:
            return tuple(tuple(int(x) for x in row) for row in data[key])

        fields: dict[str, Any] = {
            "hands": rows("hands"),
            "decks": rows("decks"),
            "gone": rows("gone"),
            "sections": tuple(Section.from_json(s) for s in data["sections"]),
            "bag": tuple(int(x) for x in data["bag"]),
            "boxed": tuple(int(x) for x in data["boxed"]),
            "won": rows("won"),
            "seat": int(data["seat"]),
            "phase": PHASES.index(data["phase"]),
            "pending": int(data["pending"]),
            "done": int(data["done"]),
            "trigger": int(data["trigger"]),
            "stopped": bool(data["stopped"]),
            "log": tuple(str(x) for x in data.get("log", ())),
        }
        return cls(game, **fields)
