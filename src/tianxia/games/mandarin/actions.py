"""Mandarin's actions and chance outcomes, with their notation (docs/rules/mandarin.md)."""

from __future__ import annotations

from tianxia.core import Action, action
from tianxia.games.mandarin.data import TABLES

BID_STEP = 100
BID_CAP = 20000


@action
class Sign(Action):
    """Choose one's animal sign at the start: the mandarin stands on its character square."""

    animal: int

    def __str__(self) -> str:
        return f"sign {TABLES.animals[self.animal]}"


@action
class Roll(Action):
    """End the cashing-in and throw the die."""

    def __str__(self) -> str:
        return "roll"


@action
class Cash(Action):
    """Put one's own tile back into the dispenser for 200 yuan (400 for a pagoda tile)."""

    tile: int

    def __str__(self) -> str:
        return f"cash {TABLES.tile_names[self.tile]}"


@action
class Take(Action):
    """Take a tile from another collection: a passed player's, or a bankrupt debtor's."""

    tile: int

    def __str__(self) -> str:
        return f"take {TABLES.tile_names[self.tile]}"


@action
class Keep(Action):
    """Keep every tile drawn this turn."""

    def __str__(self) -> str:
        return "keep"


@action
class Draw(Action):
    """Leave the drawn tiles lying and draw another."""

    def __str__(self) -> str:
        return "draw"


@action
class Offer(Action):
    """Money variant: offer the first tile drawn in a special auction."""

    def __str__(self) -> str:
        return "offer"


@action
class Pass(Action):
    """Stop bidding in the auction, for good."""

    def __str__(self) -> str:
        return "pass"


@action
class Bid(Action):
    """Bid `amount` yuan for the lot."""

    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


@action
class Die(Action):
    """Chance: the die shows `pips`."""

    pips: int

    def __str__(self) -> str:
        return f"die {self.pips}"


@action
class Face(Action):
    """Chance: the tile leaves the dispenser face up or face down."""

    up: bool

    def __str__(self) -> str:
        return "face up" if self.up else "face down"


@action
class Tile(Action):
    """Chance: which tile it is, seen when it lands face up or when a face-down one is turned."""

    tile: int

    def __str__(self) -> str:
        return f"tile {TABLES.tile_names[self.tile]}"


SIGNS = tuple(Sign(a) for a in range(len(TABLES.animals)))
ROLL = Roll()
CASHES = tuple(Cash(t) for t in range(len(TABLES.tile_names)))
TAKES = tuple(Take(t) for t in range(len(TABLES.tile_names)))
KEEP = Keep()
DRAW = Draw()
OFFER = Offer()
PASS = Pass()
BIDS = tuple(Bid(x) for x in range(BID_STEP, BID_CAP + 1, BID_STEP))
DICE = tuple(Die(p) for p in range(1, 7))
FACE_UP = Face(True)
FACE_DOWN = Face(False)
TILES = tuple(Tile(t) for t in range(len(TABLES.tile_names)))

PLAYER_ACTIONS: tuple[Action, ...] = (
    *SIGNS,
    ROLL,
    *CASHES,
    *TAKES,
    KEEP,
    DRAW,
    OFFER,
    PASS,
    *BIDS,
)
CHANCE_OUTCOMES: tuple[Action, ...] = (*DICE, FACE_UP, FACE_DOWN, *TILES)
