"""The actions of Emperor of China and their notation (docs/rules/emperor.md, "Notation").

Provinces are written by their id (`hopeh`), a crossing as `from>to`, seats by number.
"""

from __future__ import annotations

from tianxia.core import Action, action


@action
class Done(Action):
    """End the optional part of the phase under way (colonisation, movement, expansion)."""

    def __str__(self) -> str:
        return "done"


@action
class Start(Action):
    """First turn: occupy an empty province with the starting units."""

    province: str

    def __str__(self) -> str:
        return f"start {self.province}"


@action
class Grow(Action):
    """Phase 1: place the growth now due in a province."""

    province: str

    def __str__(self) -> str:
        return f"grow {self.province}"


@action
class Colonise(Action):
    """Phase 2: three units from `src` into the empty neighbour `dst`."""

    src: str
    dst: str

    def __str__(self) -> str:
        return f"colonise {self.src}>{self.dst}"


@action
class Move(Action):
    """Phase 3: `n` units cross from `src` into the own neighbour `dst`."""

    src: str
    dst: str
    n: int

    def __str__(self) -> str:
        return f"move {self.n} {self.src}>{self.dst}"


@action
class Attack(Action):
    """Phase 4: attack the opponent's province `dst` from the own province `src`."""

    src: str
    dst: str

    def __str__(self) -> str:
        return f"attack {self.src}>{self.dst}"


@action
class ProposeMerger(Action):
    """Phase 4: offer the player at `seat` to merge the two states."""

    seat: int

    def __str__(self) -> str:
        return f"merge {self.seat}"


@action
class Accept(Action):
    """Consent to the merger offered."""

    def __str__(self) -> str:
        return "accept"


@action
class Refuse(Action):
    """Refuse the merger offered."""

    def __str__(self) -> str:
        return "refuse"


@action
class Stand(Action):
    """The defender holds his province for the next roll."""

    def __str__(self) -> str:
        return "stand"


@action
class Retreat(Action):
    """The defender withdraws every unit into his neighbouring province."""

    province: str

    def __str__(self) -> str:
        return f"retreat {self.province}"


@action
class OfferMerger(Action):
    """The defender offers the attacker a merger instead of fighting on."""

    def __str__(self) -> str:
        return "offer merger"


@action
class Roll(Action):
    """The attacker rolls the die once more."""

    def __str__(self) -> str:
        return "roll"


@action
class Withdraw(Action):
    """The attacker calls the attack off."""

    def __str__(self) -> str:
        return "withdraw"


@action
class Advance(Action):
    """After the defender is gone, move `n` units from the attacking province in."""

    n: int

    def __str__(self) -> str:
        return f"advance {self.n}"


@action
class AssignYang(Action):
    """Phase 5: the face-down yang card goes to `province`."""

    province: str

    def __str__(self) -> str:
        return f"yang {self.province}"


@action
class AssignYin(Action):
    """Phase 5: the face-down yin card goes to `province`."""

    province: str

    def __str__(self) -> str:
        return f"yin {self.province}"


@action
class Defend(Action):
    """Play the matching defence card against the yin card."""

    def __str__(self) -> str:
        return "defend"


@action
class Endure(Action):
    """Take the loss the yin card brings."""

    def __str__(self) -> str:
        return "endure"


@action
class Die(Action):
    """Chance: the face the die shows."""

    face: int

    def __str__(self) -> str:
        return f"die {self.face}"


@action
class DrawYin(Action):
    """Chance: the yin card turned over."""

    kind: str

    def __str__(self) -> str:
        return f"yin card {self.kind}"


@action
class DrawYang(Action):
    """Chance: the yang card drawn."""

    kind: str

    def __str__(self) -> str:
        return f"yang card {self.kind}"
