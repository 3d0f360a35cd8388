"""The State value of The Great Wall of China: its phases and its fields.

Every field is an immutable value (ints, tuples, `Section`s); the rules build a
successor in a draft of the state, so the old state stays valid.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any, ClassVar

from tianxia.core import State, StateDataError
from tianxia.core.log import Log
from tianxia.games.greatwall.data import KINDS
from tianxia.games.greatwall.section import Section

if TYPE_CHECKING:
    from tianxia.games.greatwall.game import GreatWall


class Phase(enum.IntEnum):
    """What the table is doing; the value indexes the observation's phase names."""

    SETUP = 0  # chance reveals fame tiles and deals the opening hands
    SCORE = 1  # the scoring check at the start of a turn (GW-2.1)
    ACT = 2  # actions 2 and 3
    DRAW = 3  # chance draws the card a seat chose to draw
    OVER = 4


PHASE_NAMES = ("setup", "scoring", "actions", "drawing", "over")


class GreatWallState(State):
    """A position. Hands and decks are counts per card kind (a deck has no order until
    it is drawn from); `won` holds the values of the tiles each seat has taken.

    Attributes:
        seat: whose turn it is.
        phase: see `Phase`.
        pending: bit mask of sections the seat still has to score this turn.
        done: how many of actions 2 and 3 the seat has taken.
        trigger: the seat that first played its whole set, or -1 (GW-5.2).
        stopped: no more cards are played; turns are scoring checks only (GW-5.2).
        log: the last public events, in words.
        to_move: `current_player()`, derived when the state is built (never saved).
    """

    game: GreatWall
    hands: tuple[tuple[int, ...], ...]
    decks: tuple[tuple[int, ...], ...]
    gone: tuple[tuple[int, ...], ...]
    sections: tuple[Section, ...]
    bag: tuple[int, ...]
    boxed: tuple[int, ...]
    won: tuple[tuple[int, ...], ...]
    seat: int
    phase: Phase
    pending: int
    done: int
    trigger: int
    stopped: bool
    log: Log
    to_move: int

    DERIVED: ClassVar[tuple[str, ...]] = ("to_move",)

    def derive(self) -> dict[str, Any]:
        # Everything that needs no decision is carried out when a state is made, so a
        # state made from fields (a position, a save) stands where play would stand.
        self.game.rules.settle(self)
        return {"to_move": self.to_move}

    def validate(self) -> None:
        g = self.game
        n, kinds = g.players, len(KINDS)
        rows = {"hands": self.hands, "decks": self.decks, "gone": self.gone}
        for name, table in rows.items():
            if len(table) != n or any(len(r) != kinds or min(r) < 0 for r in table):
                raise StateDataError(f"{name}: {n} rows of {kinds} counts, none negative")
        for seat in range(n):
            held = [
                self.hands[seat][k] + self.decks[seat][k] + self.gone[seat][k] for k in range(kinds)
            ]
            for sec in self.sections:
                for st in sec.stacks:
                    for c in st:
                        if c >> 3 == seat:
                            held[c & 7] += 1
            if held != list(g.card_copies):
                raise StateDataError(f"hands/decks/gone: P{seat + 1}'s cards are not one whole set")
        if len(self.sections) != g.sections:
            raise StateDataError(f"sections: {g.players} players build {g.sections} sections")
        tiles = len(g.tile_values)
        if len(self.bag) != tiles or len(self.boxed) != tiles or len(self.won) != n:
            raise StateDataError("bag/boxed/won: one count per tile value, one row per seat")
        if min(self.bag) < 0 or min(self.boxed) < 0:
            raise StateDataError("bag/boxed: counts are never negative")
        for sec in self.sections:
            if any(v not in g.tile_values for v in sec.tiles):
                raise StateDataError(f"sections: {sec.tiles} are not fame tile values")
            if any(not st or any(c >> 3 >= n or c & 7 >= kinds for c in st) for st in sec.stacks):
                raise StateDataError("sections: a card belongs to no seat or is of no kind")
            if sec.placed is not None and (
                sec.placed[0] not in g.tile_values or not 0 <= sec.placed[1] < len(sec.stacks)
            ):
                raise StateDataError(f"sections: the tile {sec.placed} lies on no card")
        if any(v not in g.tile_values for w in self.won for v in w):
            raise StateDataError("won: a tile of no printed value")
        if not 0 <= self.seat < n or not -1 <= self.trigger < n:
            raise StateDataError(f"seat/trigger: seats are 0..{n - 1}")
        if not 0 <= self.done <= 2 or not 0 <= self.pending < 1 << g.sections:
            raise StateDataError("done/pending: out of range")
