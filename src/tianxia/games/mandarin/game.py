"""Mandarin (Tom Kremer, Mattel 1991): the zodiac collecting game, with its money variant.

Rules: docs/rules/mandarin.md, from the Dutch rulebook; data: docs/data/mandarin.md.
Version history: 1 - first complete version; 2 - cashing in at any decision of one's
own turn, and an empty dispenser reopens only to players other than the one who cashed
in (the state gains `dry`).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, ClassVar

from tianxia.core.actions import ActionCodec
from tianxia.core.game import JSON, Game, OptionSpec
from tianxia.core.registry import register_game
from tianxia.games.mandarin import position as positions
from tianxia.games.mandarin import rules, search, view
from tianxia.games.mandarin.actions import (
    BID_CAP,
    BID_STEP,
    BIDS,
    CHANCE_OUTCOMES,
    PLAYER_ACTIONS,
    SIGNS,
    Sign,
)
from tianxia.games.mandarin.data import TABLES, TILE_COUNT, sign_of_birth_date
from tianxia.games.mandarin.state import MandarinState, opening

START_MONEY = 3000
# A game nobody can finish stops after this many rounds, the richest winning (MA-8.2).
CAP_ROUNDS = 100


@register_game
class Mandarin(Game):
    """Mandarin for 2-5 players.

    >>> import tianxia
    >>> g = tianxia.load_game("mandarin", players=3, money=True)
    >>> g.info.extra["turn_cap"]
    300
    """

    NAME = "mandarin"
    TITLE = "Mandarin, the zodiac game"
    VERSION = 2
    MIN_PLAYERS = 2
    MAX_PLAYERS = 5
    OPTIONS = (
        OptionSpec("money", False, (False, True), "money variant: the richest wins"),
        OptionSpec(
            "repeat_passing",
            False,
            (False, True),
            "passing again on the extra roll gives another tile and roll",
        ),
        OptionSpec(
            "face_up",
            0.5,
            (0.25, 0.5, 0.75),
            "chance that a tile leaves the dispenser face up",
            conformance=False,
        ),
    )

    rules: ClassVar[Any] = rules
    view: ClassVar[Any] = view
    search: ClassVar[Any] = search

    def __init__(self, players: object = None, **options: Any) -> None:
        super().__init__(players, **options)
        self.money_variant: bool = bool(self.options["money"])
        self.repeat_passing: bool = bool(self.options["repeat_passing"])
        self.face_up: float = float(self.options["face_up"])
        self.start_money = START_MONEY
        self.turn_cap = CAP_ROUNDS * self.players

    def _codec(self) -> ActionCodec:
        return ActionCodec(PLAYER_ACTIONS, CHANCE_OUTCOMES)

    def _turn_bound(self) -> int:
        n = self.players
        rolls = n if self.repeat_passing else 2
        # Every tile held, and those taken from passed players on the way (MA-2.1, MA-6).
        cash = TILE_COUNT + n
        moves = 2 * rolls + 1
        draws = 3 * TILE_COUNT + 1
        auction = n * (len(BIDS) + n)
        reveals = TILE_COUNT
        return cash + moves + draws + auction + reveals

    def _max_game_length(self) -> int:
        return self.players + self.turn_cap * self._turn_bound()

    def _info_extra(self) -> Mapping[str, Any]:
        return {
            "turn_cap": self.turn_cap,
            "cap_rounds": CAP_ROUNDS,
            "start_money": START_MONEY,
            "bid_step": BID_STEP,
            "bid_cap": BID_CAP,
            "most_rolls_per_turn": self.players if self.repeat_passing else 2,
        }

    def observation_tensor_size(self) -> int:
        return search.tensor_size(self.players)

    def new_initial_state(self) -> MandarinState:
        return MandarinState.make(self, **opening(self))

    def layout(self) -> JSON:
        """The printed ring: the twelve animals, their characters, the character square."""
        return {
            "animals": list(TABLES.animals),
            "characters": list(TABLES.characters),
            "character_square": TABLES.character_square,
        }

    def position(self, **fields: Any) -> MandarinState:
        """A position built directly (see `position.position`).

        >>> import tianxia
        >>> g = tianxia.load_game("mandarin", players=2)
        >>> g.position(sign=(0, 6), pos=(1, 19), phase=rules.START).current_player()
        0
        """
        return positions.position(self, **fields)

    def sign_action(self, born: datetime.date | str) -> Sign:
        """The `sign` action of a player born on `born` (the lunar new year counts)."""
        return SIGNS[TABLES.animals.index(sign_of_birth_date(born))]
