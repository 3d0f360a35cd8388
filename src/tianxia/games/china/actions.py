"""The atomic decisions of China and their notation (docs/rules/china.md, "Notation").

A placing turn is a sequence: one or two placements (each names the piece, where it goes
and how it is paid), then `done` unless the second piece ended it, then the refill
(`take <colour>` from the display or `draw` from the deck). Payment is one card of the
province's colour, or a joker: two cards of another colour (`joker <colour>`).
"""

from __future__ import annotations

from tianxia.core import Action, action
from tianxia.games.china.data import COLOURS, board

OWN = -1  # payment by one card of the province's own colour

# Field and province names do not depend on the side: only the roads do.
_NAMES = board("4-5")


def _pay(joker: int) -> str:
    return "" if joker == OWN else f" joker {COLOURS[joker]}"


@action
class House(Action):
    """A house on house field `field`."""

    field: int
    joker: int = OWN

    def __str__(self) -> str:
        return f"house {_NAMES.field_names[self.field]}{_pay(self.joker)}"


@action
class Emissary(Action):
    """An emissary on the dragon field of `province`."""

    province: int
    joker: int = OWN

    def __str__(self) -> str:
        return f"emissary {_NAMES.province_names[self.province]}{_pay(self.joker)}"


@action
class Fortify(Action):
    """A fortification on house field `field` (the fortification variant)."""

    field: int
    joker: int = OWN

    def __str__(self) -> str:
        return f"fortify {_NAMES.field_names[self.field]}{_pay(self.joker)}"


@action
class Done(Action):
    """End placing after one piece and go on to the refill."""

    def __str__(self) -> str:
        return "done"


@action
class Pass(Action):
    """Let the turn go when neither placing nor exchanging is possible."""

    def __str__(self) -> str:
        return "pass"


@action
class Exchange(Action):
    """Discard one card of `colour` instead of placing, then take one card."""

    colour: int

    def __str__(self) -> str:
        return f"exchange {COLOURS[self.colour]}"


@action
class Take(Action):
    """Take a face-up card of `colour` from the display into the hand."""

    colour: int

    def __str__(self) -> str:
        return f"take {COLOURS[self.colour]}"


@action
class Draw(Action):
    """Take the top card of the face-down deck (chance then says which)."""

    def __str__(self) -> str:
        return "draw"


@action
class Card(Action):
    """Chance outcome: the card drawn from the deck has `colour`."""

    colour: int

    def __str__(self) -> str:
        return f"card {COLOURS[self.colour]}"
