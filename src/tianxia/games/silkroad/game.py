"""The Game of Die Seidenstraße: players, trading companies, the codec, the first state.

Version history: 1, first complete implementation; 2, the bazaar track may have fewer
rows than there are bazaar cards (SR-6.5); 3, the shipped bazaar track has six rows for
the seven cards, so bazaars can run out as the rulebook says. Games stored under versions
1 and 2 keep the seven-row track they were played on (the legacy option
``rules_version``).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any, ClassVar

from tianxia.core.actions import Action, ActionCodec
from tianxia.core.events import seat_name
from tianxia.core.game import JSON, Game, OptionSpec
from tianxia.core.log import EMPTY as EMPTY_LOG
from tianxia.core.registry import register_game
from tianxia.games.silkroad import rules, search, view
from tianxia.games.silkroad.actions import (
    CallBazaar,
    Carry,
    Draw,
    Drop,
    Give,
    Lay,
    Miles,
    Pick,
    Play,
    Start,
    Wait,
)
from tianxia.games.silkroad.data import MAX_FORWARD, SilkroadData, load_data
from tianxia.games.silkroad.rules import HAND, MAX_RESHUFFLES
from tianxia.games.silkroad.state import DEAL, SilkroadState


@register_game
class SilkroadGame(Game):
    """2-7 players; with 2 players each runs a company of 3 merchants, with 3 players of 2."""

    NAME = "silkroad"
    TITLE = "The Silk Road"
    VERSION = 3
    MIN_PLAYERS = 2
    MAX_PLAYERS = 7
    LEGACY_OPTIONS = (
        OptionSpec(
            "rules_version",
            3,
            (1, 2, 3),
            "1-2: the seven-row bazaar track those versions shipped",
        ),
    )
    MIN_UTILITY = -1.0
    MAX_UTILITY = 1.0
    rules: ClassVar[Any] = rules
    view: ClassVar[Any] = view
    search: ClassVar[Any] = search

    def __init__(self, players: object = None, **options: Any) -> None:
        super().__init__(players, **options)
        n = self.players
        self.data: SilkroadData = load_data(seven_row_bazaar=self.rules_version <= 2)
        self.per_player = {2: 3, 3: 2}.get(n, 1)
        self.merchants = n * self.per_player
        # Colours go round the wind rose seat by seat, so a company's colours alternate
        # with the others' (SR-8.1); merchant m belongs to seat m % n.
        self.owner: tuple[int, ...] = tuple(m % n for m in range(self.merchants))
        self.merchants_of: tuple[tuple[int, ...], ...] = tuple(
            tuple(m for m in range(self.merchants) if m % n == seat) for seat in range(n)
        )
        self.bazaars_each = 2 if n <= 3 else 1
        self.spare_bazaars = self.data.bazaar_cards - n * self.bazaars_each
        self.floor = self.data.floor
        self.length = self.data.length
        # What the rules read on every step, from the data and the fields above.
        self.tables: rules.Tables = rules.Tables(self)

    def seat_name(self, seat: int) -> str:
        return seat_name(seat)

    def layout(self) -> JSON:
        """The track with its trade cities, the start fields, every card's text, the bazaar track."""
        d = self.data
        return {
            "length": d.length,
            "start_fields": list(d.start_fields),
            "cities": [{"name": c.name, "field": c.field, "first": c.first} for c in d.cities],
            "cards": [{"title": k.title, "text": k.text, "copies": k.copies} for k in d.cards],
            "bazaar": [{"ounces": list(r.ounces), "miles": r.miles} for r in d.bazaar],
            # More cards than rows: the marker can leave the track (SR-6.5).
            "bazaar_cards": d.bazaar_cards,
        }

    def _codec(self) -> ActionCodec:
        k = len(self.data.cards)
        ms = range(self.merchants)
        actions: list[Action] = [Start(i) for i in range(len(self.data.start_fields))]
        actions += [Play(c, m) for c in range(k) for m in ms]
        actions += [Give(c, m) for c in range(k) for m in ms]
        actions += [Lay(c) for c in range(k)]
        actions += [Drop(c) for c in range(k)]
        actions += [CallBazaar(), Wait()]
        actions.append(Carry(1, ()))
        actions += [Carry(2, (m,)) for m in ms]
        actions += [Carry(3, pair) for pair in itertools.combinations(ms, 2)]
        actions += [Pick(m) for m in ms]
        steps = [*range(-MAX_FORWARD, 0), *range(1, MAX_FORWARD + 1)]
        actions += [Miles(m, d) for m in ms for d in steps]
        outcomes = [Draw(-1), *(Draw(c) for c in range(k))]
        return ActionCodec(actions, outcomes)

    def observation_tensor_size(self) -> int:
        return search.tensor_size(len(self.data.cards))

    def _max_game_length(self) -> int:
        n = self.players
        cycles = MAX_RESHUFFLES + 1
        # Every card goes hand -> before a player -> discard at most once per pass of the pile.
        card_turns = 2 * self.data.deck_size * cycles
        bazaar_turns = self.data.bazaar_cards
        # Per card turn: the choice, the carrying out, up to three names, one draw, and at
        # most n-1 waits of players with nothing left before the next useful turn.
        per_turn = 1 + 1 + 3 + 1 + (n - 1)
        setup = HAND * n + self.merchants
        return (
            setup
            + (card_turns + bazaar_turns) * per_turn
            + bazaar_turns * (MAX_FORWARD + 1)
            + self.data.bazaar_cards
        )

    def _info_extra(self) -> Mapping[str, Any]:
        return {
            "merchants_per_player": self.per_player,
            "bazaar_cards_each": self.bazaars_each,
            "reconstructed": list(self.data.reconstructed),
        }

    def new_initial_state(self) -> SilkroadState:
        n = self.players
        return SilkroadState.make(
            self,
            pos=(),
            silver=(self.data.start_silver,) * n,
            hands=((),) * n,
            displays=((),) * n,
            deck=tuple(c.copies for c in self.data.cards),
            deck_bazaars=0,
            discard=(0,) * len(self.data.cards),
            reshuffles=0,
            marker=1,
            bazaar_cards=(self.bazaars_each,) * n,
            last_call=(0,) * n,
            milestone=0,
            # SR-1.5: the start player and his left neighbour are marked on the wind rose.
            rose=(0, 1),
            turn=0,
            phase=DEAL,
            card=-1,
            mode="",
            subject=-1,
            numeral=-1,
            group=(),
            part=-1,
            remaining=-1,
            ended="",
            log=EMPTY_LOG,
        )
