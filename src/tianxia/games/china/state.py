"""The position of a game of China: an immutable value with copy-on-write successors."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tianxia.core import CHANCE, JSON, TERMINAL, Action, State
from tianxia.games.china import rules, view

if TYPE_CHECKING:
    from tianxia.games.china.game import ChinaGame

# Phases: who decides and what. Chance decides in DEAL, DRAW and REVEAL.
DEAL, TURN, PLACE, REFILL, DRAW, REVEAL, OVER = (
    "deal",
    "turn",
    "place",
    "refill",
    "draw",
    "reveal",
    "over",
)
_CHANCE_PHASES = frozenset((DEAL, DRAW, REVEAL))

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

    __slots__ = (
        "cards",
        "dealt",
        "deck",
        "discards",
        "display",
        "drawn",
        "emissaries",
        "exhaustions",
        "final",
        "forts",
        "fresh",
        "hands",
        "houses",
        "known",
        "limit",
        "log",
        "pcount",
        "phase",
        "pieces",
        "points",
        "province",
        "scored",
        "seat",
        "spent",
        "supply",
        "to_take",
    )

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
    phase: str
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
    log: tuple[str, ...]
    final: tuple[Counts, ...] | None

    def copy(self) -> ChinaState:
        """A fresh, unshared copy to build a successor in (never returned unchanged)."""
        s = ChinaState.__new__(ChinaState)
        s.game = self.game
        s._legal = None
        s.houses = self.houses
        s.forts = self.forts
        s.emissaries = self.emissaries
        s.pcount = self.pcount
        s.hands = self.hands
        s.known = self.known
        s.display = self.display
        s.deck = self.deck
        s.discards = self.discards
        s.supply = self.supply
        s.points = self.points
        s.scored = self.scored
        s.seat = self.seat
        s.phase = self.phase
        s.province = self.province
        s.pieces = self.pieces
        s.cards = self.cards
        s.limit = self.limit
        s.to_take = self.to_take
        s.exhaustions = self.exhaustions
        s.fresh = self.fresh
        s.drawn = self.drawn
        s.spent = self.spent
        s.dealt = self.dealt
        s.log = self.log
        s.final = self.final
        return s

    # --- engine hooks --------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase in _CHANCE_PHASES:
            return CHANCE
        if self.phase == OVER:
            return TERMINAL
        return self.seat

    def _legal_actions(self) -> Sequence[Action]:
        return rules.legal_actions(self)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase not in _CHANCE_PHASES:
            return super().chance_outcomes()
        total = sum(self.deck)
        cards = self.game.card_actions
        return [(cards[c], n / total) for c, n in enumerate(self.deck) if n]

    def _apply(self, action: Action) -> State:
        return rules.apply(self, action)

    def _why_illegal(self, action: Action) -> tuple[str, str]:
        return rules.why_illegal(self, action)

    def _describe(self, action: Action) -> str:
        return rules.describe(self, action)

    def returns(self) -> list[float]:
        return rules.returns(self)

    def scores(self) -> list[float]:
        return [float(p) for p in self.points]

    def observation(self, seat: int | None) -> JSON:
        return view.observation(self, seat)

    def to_json(self) -> JSON:
        return {
            "houses": list(self.houses),
            "forts": list(self.forts),
            "emissaries": list(self.emissaries),
            "hands": [list(h) for h in self.hands],
            "known": [list(k) for k in self.known],
            "display": list(self.display),
            "deck": list(self.deck),
            "discards": list(self.discards),
            "supply": [list(s) for s in self.supply],
            "points": list(self.points),
            "scored": list(self.scored),
            "seat": self.seat,
            "phase": self.phase,
            "province": self.province,
            "pieces": self.pieces,
            "cards": self.cards,
            "limit": self.limit,
            "to_take": self.to_take,
            "exhaustions": self.exhaustions,
            "fresh": list(self.fresh),
            "drawn": [list(d) for d in self.drawn],
            "spent": [list(d) for d in self.spent],
            "dealt": self.dealt,
            "log": list(self.log),
            "final": None if self.final is None else [list(f) for f in self.final],
        }

    def resample_from_infostate(self, seat: int, rng: random.Random) -> State:
        return view.resample(self, seat, rng)

    def heuristic(self, seat: int) -> float:
        return view.heuristic(self, seat)

    def heuristics(self) -> list[float]:
        return view.heuristics(self)

    def heuristic_terms(self, seat: int) -> dict[str, float]:
        return view.heuristic_terms(self, seat)

    def observation_tensor(self, seat: int | None) -> list[float]:
        return view.tensor(self, seat)
