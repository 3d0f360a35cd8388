"""The State value of Die Seidenstraße: positions, silver, cards and the pending decision."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from tianxia.core import State, StateDataError
from tianxia.core.log import Log
from tianxia.games.silkroad.data import numeral_index

if TYPE_CHECKING:
    from tianxia.games.silkroad.game import SilkroadGame


class Phase(enum.StrEnum):
    """Who decides what next. Chance decides in DEAL and DRAW."""

    DEAL = "deal"
    PLACE = "place"
    TURN = "turn"
    CARRY = "carry"
    PICK = "pick"
    DRAW = "draw"
    MILES = "miles"
    END = "end"


DEAL, PLACE, TURN, CARRY, PICK, DRAW, MILES, END = Phase
CHANCE_PHASES = (DEAL, DRAW)
PHASES = tuple(Phase)


class SilkroadState(State):
    """An immutable position. Cards are card-kind indices; merchants are colour indices.

    `pos[m]` is merchant m's field (start fields A, B, C are -2, -1, 0); `deck` and
    `discard` count the copies of each card kind; `hands` and `displays` hold sorted
    card kinds per seat; `rose` holds the two marked colours; the pending decision is
    `phase` with `card`, `mode` (A or B), `subject`, `numeral`, `group`, `part`, `remaining`.
    """

    game: SilkroadGame
    pos: tuple[int, ...]
    silver: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    displays: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    deck_bazaars: int
    discard: tuple[int, ...]
    reshuffles: int
    marker: int
    bazaar_cards: tuple[int, ...]
    last_call: tuple[int, ...]
    milestone: int
    rose: tuple[int, ...]
    turn: int
    phase: Phase
    card: int
    mode: str
    subject: int
    numeral: int
    group: tuple[int, ...]
    part: int
    remaining: int
    ended: str
    log: Log

    @property
    def numeral_index(self) -> int:
        return numeral_index(self.game.data.cards[self.card].alts, self.numeral)

    @property
    def turn_seat(self) -> int:
        return self.turn % self.game.players

    @property
    def round(self) -> int:
        return self.turn // self.game.players + 1

    def validate(self) -> None:
        g = self.game
        n, kinds = g.players, len(g.data.cards)
        for name in ("silver", "hands", "displays", "bazaar_cards", "last_call"):
            if len(getattr(self, name)) != n:
                raise StateDataError(f"{name}: one entry per seat ({n})")
        if len(self.deck) != kinds or len(self.discard) != kinds:
            raise StateDataError(f"deck/discard: one count per card kind ({kinds})")
        if min(self.deck) < 0 or min(self.discard) < 0 or min(self.silver) < 0:
            raise StateDataError("deck/discard/silver: counts are never negative")
        cards = [k for row in (*self.hands, *self.displays) for k in row]
        if any(not 0 <= k < kinds for k in cards):
            raise StateDataError("hands/displays: a card of no kind")
        held = [self.deck[k] + self.discard[k] for k in range(kinds)]
        for k in cards:
            held[k] += 1
        if self.mode == "B" and 0 <= self.card < kinds:
            held[self.card] += 1  # a passed card is carried out before it is discarded
        if any(h > c.copies for h, c in zip(held, g.data.cards)):
            raise StateDataError("deck/discard/hands/displays: more copies than the deck has")
        if len(self.pos) > g.merchants or any(
            not min(g.data.start_positions) <= p <= g.length for p in self.pos
        ):
            raise StateDataError(f"pos: at most {g.merchants} merchants, each on the track")
        if self.phase not in (DEAL, PLACE) and len(self.pos) != g.merchants:
            raise StateDataError("pos: every merchant is placed once the journey starts")
        if len(self.rose) != 2 or any(not 0 <= c < g.merchants for c in self.rose):
            raise StateDataError("rose: two marked colours")
        if any(not 0 <= m < g.merchants for m in self.group):
            raise StateDataError("group: merchants are colours of the game")
        if self.mode not in ("", "A", "B") or self.turn < 0 or self.reshuffles < 0:
            raise StateDataError("mode/turn/reshuffles: out of range")
        # The marker moves once per bazaar card and may leave a shorter track (SR-6.5).
        if not 1 <= self.marker <= g.data.bazaar_cards + 1:
            raise StateDataError("marker: a place on the bazaar track or past its last row")
        if not 0 <= self.milestone < len(g.data.cities):
            raise StateDataError("milestone: a trade city")
        if not 0 <= self.deck_bazaars <= g.spare_bazaars or any(
            not 0 <= b <= g.bazaars_each for b in self.bazaar_cards
        ):
            raise StateDataError("deck_bazaars/bazaar_cards: out of range")
        if not -1 <= self.card < kinds or not -1 <= self.subject < g.merchants:
            raise StateDataError("card/subject: a card kind and a merchant, or -1")
        if self.numeral != -1 and (
            self.card < 0 or self.numeral not in {a.numeral for a in g.data.cards[self.card].alts}
        ):
            raise StateDataError("numeral: an alternative of the pending card, or -1")
        if not -1 <= self.part <= max(len(a.parts) for c in g.data.cards for a in c.alts):
            raise StateDataError("part: a part of the pending alternative, or -1")
        if abs(self.remaining) > max(abs(row.miles) for row in g.data.bazaar) + 1:
            raise StateDataError("remaining: more bazaar miles than a bazaar gives")
        carrying = self.phase in (CARRY, PICK)
        if carrying and not (0 <= self.card < kinds and 0 <= self.subject < g.merchants):
            raise StateDataError("card/subject: a pending card names a card and a merchant")
        if self.phase == PICK:
            try:
                parts = g.data.cards[self.card].alts[self.numeral_index].parts
            except ValueError:
                raise StateDataError("numeral: the card has no such alternative") from None
            if not 0 <= self.part < len(parts):
                raise StateDataError("part: the alternative has no such part")
