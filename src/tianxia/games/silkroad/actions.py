"""The actions of Die Seidenstraße and their notation (see docs/rules/silkroad.md, Notation).

Cards are named by their number in the deck list (`#1` .. `#26`, see `data/cards.toml`),
merchants by their colour on the wind rose.
"""

from __future__ import annotations

from tianxia.core import Action, action

COLOURS = ("white", "yellow", "blue", "purple", "green", "red", "orange")
NUMERALS = ("", "I", "II", "III")


def card_name(kind: int) -> str:
    return f"#{kind + 1}"


@action
class Start(Action):
    """Place the next merchant on start field A, B or C (index into the start fields)."""

    field: int

    def __str__(self) -> str:
        return f"start {'ABC'[self.field]}"


@action
class Play(Action):
    """Option A: lay a hand card before you and carry it out for your merchant."""

    card: int
    merchant: int

    def __str__(self) -> str:
        return f"play {card_name(self.card)} {COLOURS[self.merchant]}"


@action
class Give(Action):
    """Option B: pass a card lying before you to a marked merchant."""

    card: int
    merchant: int

    def __str__(self) -> str:
        return f"give {card_name(self.card)} {COLOURS[self.merchant]}"


@action
class Lay(Action):
    """Dead-card exception: lay a hand card before you without effect."""

    card: int

    def __str__(self) -> str:
        return f"lay {card_name(self.card)}"


@action
class Drop(Action):
    """Dead-card exception: give up a card lying before you without effect."""

    card: int

    def __str__(self) -> str:
        return f"drop {card_name(self.card)}"


@action
class CallBazaar(Action):
    """Option C: call a bazaar with your bazaar card."""

    def __str__(self) -> str:
        return "bazaar"


@action
class Wait(Action):
    """No card and no bazaar left to use: the turn passes."""

    def __str__(self) -> str:
        return "wait"


@action
class Carry(Action):
    """Carry out the pending card with alternative `numeral` and these companions."""

    numeral: int
    companions: tuple[int, ...]

    def __str__(self) -> str:
        rest = "".join(f" {COLOURS[m]}" for m in self.companions)
        return f"carry {NUMERALS[self.numeral]}{rest}"


@action
class Pick(Action):
    """Name the merchant a card means: a tied foremost or last one, or a foreign one."""

    merchant: int

    def __str__(self) -> str:
        return f"pick {COLOURS[self.merchant]}"


@action
class Miles(Action):
    """A company's bazaar move: give `miles` of the remaining bazaar miles to one merchant."""

    merchant: int
    miles: int

    def __str__(self) -> str:
        return f"miles {COLOURS[self.merchant]} {self.miles:+d}"


@action
class Draw(Action):
    """Chance: the next card of the draw pile (`card` = -1 for a bazaar card)."""

    card: int

    def __str__(self) -> str:
        return "draw bazaar" if self.card < 0 else f"draw {card_name(self.card)}"
