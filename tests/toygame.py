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
    Event,
    Game,
    OptionSpec,
    State,
    action,
    register_game,
    seat_name,
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
        return HighCardState.make(self, hands=(), discards=(), turn=0)


class HighCardState(State):
    hands: tuple[int, ...]
    discards: tuple[int, ...]
    turn: int

    def validate(self) -> None:
        cards = [c for c in self.hands if c] + list(self.discards)
        if len(set(cards)) != len(cards) or not set(cards) <= set(CARDS):
            raise ValueError("HC: a card is held twice or is not a card of the deck")
        if len(self.hands) > self.game.players or not 0 <= self.turn <= self.game.players:
            raise ValueError(
                f"HC: turn {self.turn} or {len(self.hands)} hands do not fit the table"
            )

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
        t = self.draft()
        hands = list(self.hands)
        if isinstance(a, Deal):
            if len(hands) < self.game.players:
                hands.append(a.card)
            else:
                hands[t.turn - 1] = a.card
        elif isinstance(a, Stay):
            t.turn += 1
        else:
            t.discards = (*t.discards, hands[t.turn])
            hands[t.turn] = 0
            t.turn += 1
        t.hands = tuple(hands)
        return t.freeze()

    def event(self, action: Action, after: State) -> Event:
        p = self.current_player()
        if isinstance(action, Deal):
            # The card dealt is seen by the seat it is dealt to, by nobody else.
            seat = len(self.hands) if len(self.hands) < self.game.players else self.turn - 1
            return Event.private(
                f"{seat_name(seat)} is dealt a {action.card}",
                {seat},
                f"{seat_name(seat)} is dealt a card",
            )
        if isinstance(action, Swap):
            return Event.public(f"{seat_name(p)} swaps, showing a {self.hands[p]}", reveals=True)
        return Event.public(f"{seat_name(p)} stays")

    def scores(self) -> list[float]:
        return [float(c) for c in self.hands] + [0.0] * (self.game.players - len(self.hands))

    def scores_for(self, seat: int | None) -> list[float | None]:
        # The cards are the scores, and a card is hidden from the other seats until the end.
        if self.is_terminal():
            return list(self.scores())
        return [float(c) if i == seat else None for i, c in enumerate(self.hands)] + [None] * (
            self.game.players - len(self.hands)
        )

    def returns(self) -> list[float]:
        n = self.game.players
        if not self.is_terminal():
            return [0.0] * n
        best = max(self.hands)
        return [1.0 if c == best else -1.0 / (n - 1) for c in self.hands]

    def observation(self, seat: int | None) -> JSON:
        self._check_seat(seat)
        return {
            "seat": seat,
            "to_move": self.current_player(),
            "my_card": self.hands[seat] if seat is not None and seat < len(self.hands) else None,
            "cards_dealt": len(self.hands),
            "discards": list(self.discards),
            "turn": self.turn,
            "hands": list(self.hands) if self.is_terminal() else None,
        }

    def resample_from_infostate(self, seat: object, rng: random.Random) -> State:
        if seat is None:
            raise ValueError("a spectator has no information state to resample from")
        self._check_seat(seat)
        assert isinstance(seat, int)
        if self.is_terminal():
            return self
        known = {self.hands[seat]} if seat < len(self.hands) else set()
        pool = [c for c in CARDS if c not in known and c not in self.discards]
        rng.shuffle(pool)
        hands: list[int] = []
        for i, c in enumerate(self.hands):
            hands.append(c if i == seat or c == 0 else pool.pop())
        return self.replace(hands=tuple(hands))


def register() -> Any:
    return HighCard
