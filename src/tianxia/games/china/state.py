"""The position of a game of China: its phases and its fields, an immutable value."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any, ClassVar

from tianxia.core import State, StateDataError
from tianxia.core.log import Log

if TYPE_CHECKING:
    from tianxia.games.china.game import ChinaGame


class Phase(enum.StrEnum):
    """Who decides what. Chance decides in DEAL, DRAW and REVEAL."""

    DEAL = "deal"
    TURN = "turn"
    PLACE = "place"
    REFILL = "refill"
    DRAW = "draw"
    REVEAL = "reveal"
    OVER = "over"


DEAL, TURN, PLACE, REFILL, DRAW, REVEAL, OVER = Phase
CHANCE_PHASES = frozenset((DEAL, DRAW, REVEAL))

Counts = tuple[int, ...]


class ChinaState(State):
    """A position. Per-player tables are indexed by seat; colours by `board.COLOURS`.

    Attributes:
        houses: owner seat of the house on each house field, -1 when free.
        forts: house fields holding a fortification, ascending.
        emissaries: emissaries per province and seat, flat (`province * players + seat`).
        hands, known: cards in each hand by colour; the part of it all seats know
            (cards taken from the display and not yet played).
        display, deck, discards: face-up cards, the deck and the open discard pile.
        supply: (houses, emissaries, fortifications) left per seat.
        points: points scored so far; scored: 1 for a province already scored.
        seat, phase: who is on turn and which decision is pending.
        province, pieces, cards, limit: this turn's province, pieces placed, cards
            played and piece limit (1 in a province that held no piece at its start).
        to_take: cards still to take in the refill.
        exhaustions: how often the deck has run out (2 ends the game after the round).
        fresh: the reshuffled deck as it was made (public), less the cards laid out from
            it since; drawn: cards each seat drew from it into the hand (private);
            spent: cards each seat played or discarded since the reshuffle (public).
        dealt: cards dealt so far in the set-up.
        log: the last public events, newest last.
        final: per seat (provinces, alliances, road chains) of the final scoring.
    """

    game: ChinaGame
    houses: Counts
    forts: Counts
    emissaries: Counts
    pcount: Counts
    hands: tuple[Counts, ...]
    known: tuple[Counts, ...]
    display: Counts
    deck: Counts
    discards: Counts
    supply: tuple[Counts, ...]
    points: Counts
    scored: Counts
    seat: int
    phase: Phase
    province: int
    pieces: int
    cards: int
    limit: int
    to_take: int
    exhaustions: int
    fresh: Counts
    drawn: tuple[Counts, ...]
    spent: tuple[Counts, ...]
    dealt: int
    log: Log
    final: tuple[Counts, ...] | None

    DERIVED: ClassVar[tuple[str, ...]] = ("pcount",)

    def derive(self) -> dict[str, Any]:
        """`pcount`: houses per province and seat, counted from the fields."""
        n = self.game.players
        province = self.game.board.field_province
        pcount = [0] * (9 * n)
        for f, o in enumerate(self.houses):
            if o >= 0:
                pcount[province[f] * n + o] += 1
        return {"pcount": tuple(pcount)}

    def validate(self) -> None:
        g = self.game
        n = g.players
        b = g.board
        nf = len(b.field_names)
        rows: dict[str, tuple[Any, int]] = {
            "houses": (self.houses, nf),
            "emissaries": (self.emissaries, 9 * n),
            "hands": (self.hands, n),
            "known": (self.known, n),
            "drawn": (self.drawn, n),
            "spent": (self.spent, n),
            "supply": (self.supply, n),
            "points": (self.points, n),
            "scored": (self.scored, 9),
        }
        for name, (row, length) in rows.items():
            if len(row) != length:
                raise StateDataError(f"{name}: {length} entries")
        colours = (*self.hands, *self.known, *self.drawn, *self.spent)
        colours += (self.display, self.deck, self.discards, self.fresh)
        if any(len(h) != 5 or min(h) < 0 for h in colours):
            raise StateDataError("hands/known/display/deck/...: five colour counts, none negative")
        if any(
            min(k_) < 0 or any(k > h for k, h in zip(k_, hand))
            for k_, hand in zip(self.known, self.hands)
        ):
            raise StateDataError("known: more known cards than the hand holds")
        if any(len(s_) != 3 or min(s_) < 0 for s_ in self.supply):
            raise StateDataError("supply: houses, emissaries and fortifications, none negative")
        if any(not -1 <= o < n for o in self.houses) or min(self.emissaries) < 0:
            raise StateDataError("houses/emissaries: seats of the game")
        if any(not 0 <= f < nf for f in self.forts):
            raise StateDataError("forts: a fortification stands on a field of the board")
        if len(set(self.forts)) != len(self.forts) or list(self.forts) != sorted(self.forts):
            raise StateDataError("forts: each field once, in order")
        if any(x not in (0, 1) for x in self.scored):
            raise StateDataError("scored: 0 or 1 per province")
        if not 0 <= self.seat < n or not -1 <= self.province < 9:
            raise StateDataError("seat/province: out of range")
        if not 0 <= self.exhaustions <= 2 or not 0 <= self.to_take <= 3:
            raise StateDataError("exhaustions/to_take: out of range")
        if not 0 <= self.pieces <= 3 or not 0 <= self.cards <= 6 or not 0 <= self.limit <= 2:
            raise StateDataError("pieces/cards/limit: out of range")
        if not 0 <= self.dealt <= 3 * n + 4:
            raise StateDataError("dealt: out of range")
        if self.final is not None and (
            len(self.final) != n or any(len(f) != 3 for f in self.final)
        ):
            raise StateDataError("final: provinces, alliances and roads for each seat")
        total = tuple(sum(c) for c in zip(self.deck, self.display, self.discards, *self.hands))
        if total != g.cards.deck_for(n):
            raise StateDataError("deck/display/discards/hands: not the cards of the game")
