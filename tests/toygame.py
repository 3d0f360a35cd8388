"""High card: a tiny game with chance and hidden cards, to prove the engine and its suite.

Each seat is dealt one card of six, face down. In turn, each seat either stays or swaps
once: it discards its card face up and is dealt a new one. The highest card wins.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tianxia.core import (
    CHANCE,
    JSON,
    TERMINAL,
    Action,
    ActionCodec,
    Game,
    OptionSpec,
    State,
    action,
    register_game,
)

CARDS = (1, 2, 3, 4, 5, 6)


@action
class Stay(Action):
    def __str__(self) -> str:
        return "stay"


@action
class Swap(Action):
    def __str__(self) -> str:
        return "swap"


@action
class Deal(Action):
    card: int

    def __str__(self) -> str:
        return f"deal {self.card}"


@register_game
class HighCard(Game):
    NAME = "highcard"
    TITLE = "High card (test game)"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 3
    OPTIONS = (OptionSpec("swaps", True, (False, True), "seats may swap once"),)

    def _codec(self) -> ActionCodec:
        return ActionCodec([Stay(), Swap()], [Deal(c) for c in CARDS])

    def _max_game_length(self) -> int:
        return 3 * self.players

    def new_initial_state(self) -> HighCardState:
        return HighCardState(self, (), (), 0)

    def state_from_json(self, data: JSON) -> HighCardState:
        return HighCardState(self, tuple(data["hands"]), tuple(data["discards"]), data["turn"])


class HighCardState(State):
    __slots__ = ("discards", "hands", "turn")

    def __init__(self, game: Game, hands: tuple[int, ...], discards: tuple[int, ...], turn: int):
        super().__init__(game)
        self.hands = hands
        self.discards = discards
        self.turn = turn

    def _pending_deal(self) -> bool:
        return len(self.hands) < self.game.players or (
            len(self.discards) > 0 and self.hands[self.turn - 1] == 0
        )

    def current_player(self) -> int:
        if self._pending_deal():
            return CHANCE
        if self.turn >= self.game.players:
            return TERMINAL
        return self.turn

    def _deck(self) -> list[int]:
        used = set(self.hands) | set(self.discards)
        return [c for c in CARDS if c not in used]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        deck = self._deck()
        return [(Deal(c), 1 / len(deck)) for c in deck]

    def _legal_actions(self) -> Sequence[Action]:
        return (Stay(), Swap()) if self.game.options["swaps"] else (Stay(),)

    def _why_illegal(self, a: Action) -> tuple[str, str]:
        if isinstance(a, Swap):
            return ("HC-2", "swapping is switched off in this variant")
        return ("HC-1", f"{a} is a deal, which only chance makes")

    def _apply(self, a: Action) -> State:
        hands, discards, turn = list(self.hands), self.discards, self.turn
        if isinstance(a, Deal):
            if len(hands) < self.game.players:
                hands.append(a.card)
            else:
                hands[turn - 1] = a.card
        elif isinstance(a, Stay):
            turn += 1
        else:
            discards = (*discards, hands[turn])
            hands[turn] = 0
            turn += 1
        return HighCardState(self.game, tuple(hands), discards, turn)

    def scores(self) -> list[float]:
        return [float(c) for c in self.hands] + [0.0] * (self.game.players - len(self.hands))

    def returns(self) -> list[float]:
        n = self.game.players
        if not self.is_terminal():
            return [0.0] * n
        best = max(self.hands)
        return [1.0 if c == best else -1.0 / (n - 1) for c in self.hands]

    def observation(self, seat: int | None) -> JSON:
        return {
            "seat": seat,
            "to_move": self.current_player(),
            "my_card": self.hands[seat] if seat is not None and seat < len(self.hands) else None,
            "cards_dealt": len(self.hands),
            "discards": list(self.discards),
            "turn": self.turn,
            "hands": list(self.hands) if self.is_terminal() else None,
        }

    def to_json(self) -> JSON:
        return {"hands": list(self.hands), "discards": list(self.discards), "turn": self.turn}

    def resample_from_infostate(self, seat: int, rng: random.Random) -> State:
        if self.is_terminal():
            return self
        known = {self.hands[seat]} if seat < len(self.hands) else set()
        pool = [c for c in CARDS if c not in known and c not in self.discards]
        rng.shuffle(pool)
        hands: list[int] = []
        for i, c in enumerate(self.hands):
            hands.append(c if i == seat or c == 0 else pool.pop())
        return HighCardState(self.game, tuple(hands), self.discards, self.turn)


def register() -> Any:
    return HighCard
