"""The State value of Die Seidenstraße: positions, silver, cards and the pending decision."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tianxia.core import CHANCE, JSON, TERMINAL, Action, State
from tianxia.games.silkroad import rules, view
from tianxia.games.silkroad.rules import CARRY, CHANCE_PHASES, END, PICK, PLACE, Work

if TYPE_CHECKING:
    from tianxia.games.silkroad.game import SilkroadGame

FIELDS = (
    "pos",
    "silver",
    "hands",
    "displays",
    "deck",
    "deck_bazaars",
    "discard",
    "reshuffles",
    "marker",
    "bazaar_cards",
    "last_call",
    "milestone",
    "rose",
    "turn",
    "phase",
    "card",
    "mode",
    "subject",
    "numeral",
    "group",
    "part",
    "remaining",
    "ended",
    "log",
)


class SilkroadState(State):
    """An immutable position. Cards are card-kind indices; merchants are colour indices.

    `pos[m]` is merchant m's field (start fields A, B, C are -2, -1, 0); `deck` and
    `discard` count the copies of each card kind; `hands` and `displays` hold sorted
    card kinds per seat; `rose` holds the two marked colours; the pending decision is
    `phase` with `card`, `mode` (A or B), `subject`, `numeral`, `group`, `part`, `remaining`.
    """

    __slots__ = (*FIELDS, "_outcomes")
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
    phase: str
    card: int
    mode: str
    subject: int
    numeral: int
    group: tuple[int, ...]
    part: int
    remaining: int
    ended: str
    log: tuple[str, ...]

    def __init__(self, game: SilkroadGame, **fields: Any) -> None:
        super().__init__(game)
        self._outcomes: list[tuple[Action, float]] | None = None
        for name in FIELDS:
            object.__setattr__(self, name, fields[name])

    @classmethod
    def from_work(cls, game: SilkroadGame, w: Work) -> SilkroadState:
        # Built slot by slot: this runs once per step, so it skips the keyword machinery.
        s = object.__new__(cls)
        s.game = game
        s._legal = None
        s._outcomes = None
        s.pos = tuple(w.pos)
        s.silver = tuple(w.silver)
        s.hands = tuple(w.hands)
        s.displays = tuple(w.displays)
        s.deck = tuple(w.deck)
        s.deck_bazaars = w.deck_bazaars
        s.discard = tuple(w.discard)
        s.reshuffles = w.reshuffles
        s.marker = w.marker
        s.bazaar_cards = tuple(w.bazaar_cards)
        s.last_call = tuple(w.last_call)
        s.milestone = w.milestone
        s.rose = tuple(w.rose)
        s.turn = w.turn
        s.phase = w.phase
        s.card = w.card
        s.mode = w.mode
        s.subject = w.subject
        s.numeral = w.numeral
        s.group = tuple(w.group)
        s.part = w.part
        s.remaining = w.remaining
        s.ended = w.ended
        s.log = tuple(w.log)
        return s

    def replace(self, **changes: Any) -> SilkroadState:
        """A copy with some fields changed (for tests and resampling)."""
        fields = {name: getattr(self, name) for name in FIELDS}
        fields.update(changes)
        return SilkroadState(self.game, **fields)

    # --- derived -----------------------------------------------------------
    @property
    def numeral_index(self) -> int:
        return rules.numeral_index(self.game.data.cards[self.card].alts, self.numeral)

    @property
    def turn_seat(self) -> int:
        return self.turn % self.game.players

    @property
    def round(self) -> int:
        return self.turn // self.game.players + 1

    # --- contract ----------------------------------------------------------
    def current_player(self) -> int:
        ph = self.phase
        if ph in CHANCE_PHASES:
            return CHANCE
        if ph == END:
            return TERMINAL
        g = self.game
        if ph == PLACE:
            return g.owner[len(self.pos)]
        if ph == CARRY:
            return g.owner[self.subject]
        if ph == PICK:
            part = g.data.cards[self.card].alts[self.numeral_index].parts[self.part]
            # SR-5.5: the card's player settles ties; SR-5.6: the carrier names a foreign merchant.
            return g.owner[self.subject] if part.kind == "foreign" else self.turn_seat
        return self.turn_seat

    def _legal_actions(self) -> Sequence[Action]:
        return rules.legal_actions(self)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase not in CHANCE_PHASES:
            return super().chance_outcomes()
        if self._outcomes is None:
            self._outcomes = rules.chance_outcomes(self)
        return list(self._outcomes)

    def _apply(self, action: Action) -> SilkroadState:
        return SilkroadState.from_work(self.game, rules.apply(self, action))

    def _why_illegal(self, action: Action) -> tuple[str, str]:
        return view.why_illegal(self, action)

    def _describe(self, action: Action) -> str:
        return view.describe(self, action)

    def scores(self) -> list[float]:
        return [float(v) for v in self.silver]

    def returns(self) -> list[float]:
        n = self.game.players
        if self.phase != END:
            return [0.0] * n
        best = max(self.silver)
        winners = [i for i, v in enumerate(self.silver) if v == best]
        k = len(winners)
        if k == n:
            return [0.0] * n
        return [1.0 / k if i in winners else -1.0 / (n - k) for i in range(n)]

    def observation(self, seat: int | None) -> JSON:
        return view.observation(self, seat)

    def observation_tensor(self, seat: int | None) -> list[float]:
        return view.tensor(self, seat)

    def to_json(self) -> JSON:
        out: JSON = {}
        for name in FIELDS:
            v = getattr(self, name)
            if isinstance(v, tuple):
                v = [list(x) if isinstance(x, tuple) else x for x in v]
            out[name] = v
        return out

    def resample_from_infostate(self, seat: int, rng: random.Random) -> State:
        """Redraw the other hands and the draw pile from the cards `seat` has not seen.

        The pool is built from public counts and `seat`'s own hand in card order, so two
        states `seat` cannot tell apart give the same result for the same `rng`.
        """
        if self.phase == END:
            return self
        g = self.game
        unseen = [c.copies for c in g.data.cards]
        for k in self.hands[seat]:
            unseen[k] -= 1
        for d in self.displays:
            for k in d:
                unseen[k] -= 1
        for k, n in enumerate(self.discard):
            unseen[k] -= n
        if self.mode == "B":
            # A passed card is public while it is carried out, before it reaches the discard.
            unseen[self.card] -= 1
        pool = [k for k, n in enumerate(unseen) for _ in range(n)]
        rng.shuffle(pool)
        hands = list(self.hands)
        for i in range(g.players):
            if i != seat:
                n = len(self.hands[i])
                hands[i] = tuple(sorted(pool[:n]))
                del pool[:n]
        deck = [0] * len(unseen)
        for k in pool:
            deck[k] += 1
        return self.replace(hands=tuple(hands), deck=tuple(deck))

    # --- evaluation hook ---------------------------------------------------
    def heuristic_terms(self, seat: int) -> dict[str, float]:
        g = self.game
        if not self.pos or len(self.pos) < g.merchants:
            return {
                "silver": float(self.silver[seat]),
                "progress": 0.0,
                "penalty": 0.0,
                "bazaars": 6.0 * self.bazaar_cards[seat],
            }
        own = [self.pos[m] for m in g.merchants_of[seat]]
        return {
            "silver": float(self.silver[seat]),
            # Positions are worth silver later: cities, bazaar places, the Venice payment.
            "progress": 0.25 * sum(own) / len(own),
            "penalty": -float(g.data.penalties[len(self.displays[seat])]),
            "bazaars": 6.0 * self.bazaar_cards[seat],
        }

    def heuristic(self, seat: int) -> float:
        values = [sum(self.heuristic_terms(i).values()) for i in range(self.game.players)]
        best_other = max(v for i, v in enumerate(values) if i != seat)
        return math.tanh((values[seat] - best_other) / 20.0)
