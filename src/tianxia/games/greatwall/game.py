"""The Great Wall of China (Reiner Knizia, Kosmos 2006), for 2-5 players.

Rules: docs/rules/greatwall.md, from the Dutch rulebook (../seeds/001_5814179fef90279e.txt).
Data: data/components.toml (docs/data/greatwall.md). Version history: 1, first release.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from tianxia.core.actions import Action, ActionCodec
from tianxia.core.game import Game
from tianxia.core.log import EMPTY as EMPTY_LOG
from tianxia.core.registry import register_game
from tianxia.games.greatwall import rules, search, view
from tianxia.games.greatwall.actions import (
    Cover,
    Deal,
    Draw,
    Horseman,
    Lay,
    Pass,
    Play,
    Reveal,
    Take,
)
from tianxia.games.greatwall.data import KINDS, components
from tianxia.games.greatwall.rules import ACTION_KINDS
from tianxia.games.greatwall.search import tensor_size
from tianxia.games.greatwall.section import Section
from tianxia.games.greatwall.state import GreatWallState, Phase


@register_game
class GreatWall(Game):
    """A variant of The Great Wall of China: the player count fixes the sections.

    >>> game = GreatWall(3)
    >>> game.sections, game.info.num_distinct_actions
    (3, 1502)
    """

    NAME = "greatwall"
    TITLE = "The Great Wall of China"
    VERSION = 1
    MIN_PLAYERS = 2
    MAX_PLAYERS = 5
    rules: ClassVar[Any] = rules
    view: ClassVar[Any] = view
    search: ClassVar[Any] = search

    def __init__(self, players: object = None, **options: Any) -> None:
        super().__init__(players, **options)
        comp = components()
        self.components = comp
        self.sections: int = comp.sections[self.players]
        self.card_values: tuple[int, ...] = comp.card_values
        self.card_copies: tuple[int, ...] = comp.card_copies
        self.tile_values: tuple[int, ...] = comp.tile_values
        self.value_index: dict[int, int] = {v: i for i, v in enumerate(comp.tile_values)}
        self.set_size: int = comp.set_size
        self.hand_size: int = comp.hand
        # Every card of every seat may end up in one section: that bounds the places.
        self.max_places: int = comp.set_size * self.players
        self._build_tables()

    def _build_tables(self) -> None:
        """The action values, built once, so legal moves are picked from tables."""
        sections, places = range(self.sections), range(self.max_places)
        self.pass_action = Pass()
        self.draw_action = Draw()
        self.take_actions = [Take(s) for s in sections]
        self.lay_actions = [
            [[Lay(s, v, p) for p in places] for v in self.tile_values] for s in sections
        ]
        self.play_actions: list[list[list[Action]]] = [
            [
                [Play(s, k, c) for c in range(self.card_copies[k] + 1)] if k in ACTION_KINDS else []
                for k in range(len(KINDS))
            ]
            for s in sections
        ]
        self.horseman_actions = [Horseman(s) for s in sections]
        self.cover_actions = [[Cover(s, p) for p in places] for s in sections]
        self.reveal_actions = [Reveal(v) for v in self.tile_values]
        self.deal_actions = [Deal(k) for k in range(len(KINDS))]

    def _codec(self) -> ActionCodec:
        """Order: pass, draw, take, lay, play, horseman, dragon-on-card; then chance:
        reveal (by tile value), deal (by card kind)."""
        actions: list[Action] = [self.pass_action, self.draw_action, *self.take_actions]
        actions += [a for s in self.lay_actions for row in s for a in row]
        actions += [a for s in self.play_actions for row in s for a in row[1:]]
        actions += self.horseman_actions
        actions += [a for row in self.cover_actions for a in row]
        return ActionCodec(actions, [*self.reveal_actions, *self.deal_actions])

    def _max_game_length(self) -> int:
        # Chance: each tile is revealed once, each card dealt once. Players: each tile is
        # laid or taken once; per seat at most one draw per card beyond the hand, one play
        # per card, and two passes in the turn it runs out.
        comp = self.components
        per_seat = 2 * comp.set_size - comp.hand + comp.set_size + 2
        return 2 * comp.tile_total + per_seat * self.players

    def _info_extra(self) -> Mapping[str, Any]:
        return {
            "sections": self.sections,
            "tile_values": list(self.tile_values),
            "reconstructed_data": self.components.reconstructed,
        }

    def observation_tensor_size(self) -> int:
        return tensor_size(len(self.tile_values))

    def new_initial_state(self) -> GreatWallState:
        """Tiles in the bag, sets shuffled face down: chance reveals, then deals."""
        comp = self.components
        n = self.players
        empty = (0,) * len(KINDS)
        return GreatWallState.make(
            self,
            hands=(empty,) * n,
            decks=(comp.card_copies,) * n,
            gone=(empty,) * n,
            sections=tuple(Section() for _ in range(self.sections)),
            bag=comp.tile_counts,
            boxed=(0,) * len(comp.tile_counts),
            won=((),) * n,
            seat=0,
            phase=Phase.SETUP,
            pending=0,
            done=0,
            trigger=-1,
            stopped=False,
            log=EMPTY_LOG,
        )
