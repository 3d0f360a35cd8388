"""Actions of The Great Wall of China and their notation (docs/rules/greatwall.md, Notation).

Sections are letters A-D from the left, cards in a section are numbered 1.. from the
left end, counting a dragon laid on a card as part of that card's place.
"""

from __future__ import annotations

from tianxia.core import Action, action
from tianxia.games.greatwall.data import KINDS, SECTION_NAMES


@action
class Pass(Action):
    """Give up one action when no card can be played and none drawn (GW-2.4)."""

    def __str__(self) -> str:
        return "pass"


@action
class Draw(Action):
    """Draw one card from one's own deck (GW-2.2)."""

    def __str__(self) -> str:
        return "draw"


@action
class Take(Action):
    """Take the last fame tile of a section where one leads (GW-4.3)."""

    section: int

    def __str__(self) -> str:
        return f"take {SECTION_NAMES[self.section]}"


@action
class Lay(Action):
    """Lay the face-up fame tile `value` on one's own card `position` of a section (GW-4.2)."""

    section: int
    value: int
    position: int

    def __str__(self) -> str:
        return f"lay {self.value} on {SECTION_NAMES[self.section]}{self.position + 1}"


@action
class Play(Action):
    """Play `count` identical cards of `kind` to the right end of a section (GW-2.2)."""

    section: int
    kind: int
    count: int

    def __str__(self) -> str:
        amount = f"{self.count} " if self.count > 1 else ""
        return f"play {amount}{KINDS[self.kind]} {SECTION_NAMES[self.section]}"


@action
class Horseman(Action):
    """Lay a horseman at the right end of a section without spending an action (GW-3.4)."""

    section: int

    def __str__(self) -> str:
        return f"horseman {SECTION_NAMES[self.section]}"


@action
class Cover(Action):
    """Lay the dragon on card `position` of a section, covering it (GW-3.5)."""

    section: int
    position: int

    def __str__(self) -> str:
        return f"dragon on {SECTION_NAMES[self.section]}{self.position + 1}"


@action
class Reveal(Action):
    """Chance: a fame tile of `value` is drawn from the bag and laid face up (GW-1.3)."""

    value: int

    def __str__(self) -> str:
        return f"reveal {self.value}"


@action
class Deal(Action):
    """Chance: the drawing player's next card from his own deck is a `kind` (GW-1.4)."""

    kind: int

    def __str__(self) -> str:
        return f"deal {KINDS[self.kind]}"
