"""China (Michael Schacht, Abacus Spiele 2005) for 3-5 players.

Rules: the Dutch rulebook of 12 August 2005, numbered in docs/rules/china.md. Board and
deck: `data/board.toml` and `data/cards.toml`, a reconstruction (docs/data/china.md).
Options: `board` ("3-4" or "4-5"; only 4 players choose) and `fortifications`.

Version history: 1, first complete implementation; 2, Wei has 7 house fields (the
rulebook's scoring example fills it with 7 houses), which moves the ids of every action
after Wei's fields, so saves of version 1 replay by their notation; 3, the deal's last
log line names the Emperor's holder P1, as every other sentence names a seat, and an
exchange of an orange card says "an orange card". The log is part of the state (and of
the state hashes stored games keep), so games stored under version 2 keep "seat 0" and
"a orange card" (the legacy option ``rules_version``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from tianxia.core.actions import Action, ActionCodec
from tianxia.core.game import JSON, Game, OptionSpec
from tianxia.core.log import EMPTY as EMPTY_LOG
from tianxia.core.registry import register_game
from tianxia.games.china import data as board_data
from tianxia.games.china import rules, search, view
from tianxia.games.china.actions import (
    OWN,
    Card,
    Done,
    Draw,
    Emissary,
    Exchange,
    Fortify,
    House,
    Pass,
    Take,
)
from tianxia.games.china.rules import MAX_CARDS
from tianxia.games.china.state import DEAL, ChinaState


def _row(make: type[House] | type[Emissary] | type[Fortify], where: int) -> list[Any]:
    """Actions for one place indexed by `joker + 1`.

    A joker of the province's own colour is never legal (CH-3.4) but has an id, so that
    the common mistake is refused by its rule rather than as unreadable text.
    """
    return [make(where, j) for j in (OWN, 0, 1, 2, 3, 4)]


@register_game
class ChinaGame(Game):
    NAME = "china"
    rules: ClassVar[Any] = rules
    view: ClassVar[Any] = view
    search: ClassVar[Any] = search
    TITLE = "China (Schacht): houses, emissaries and roads"
    VERSION = 3
    LEGACY_OPTIONS = (
        OptionSpec("rules_version", 3, (2, 3), "2: the deal's last log line says 'seat 0'"),
    )
    MIN_PLAYERS = 3
    MAX_PLAYERS = 5
    OPTIONS = (
        OptionSpec(
            "board",
            "4-5",
            ("3-4", "4-5"),
            "board side: 3-4 for three players, 4-5 for five, either for four",
        ),
        OptionSpec(
            "fortifications",
            False,
            (False, True),
            "the variant for experienced players: one neutral fortification each",
        ),
    )

    def _default_option(self, spec: OptionSpec, players: int) -> Any:
        if spec.name == "board":
            return "3-4" if players == 3 else "4-5"
        return spec.default

    def _check_options(self, options: Mapping[str, Any]) -> None:
        side = options["board"]
        if self.players == 3 and side != "3-4":
            raise ValueError("china: three players play on the 3-4 side (board='3-4')")
        if self.players == 5 and side != "4-5":
            raise ValueError("china: five players play on the 4-5 side (board='4-5')")

    def __init__(self, players: object = None, **options: Any) -> None:
        super().__init__(players, **options)
        self.board = board_data.board(self.options["board"])
        self.cards = board_data.cards()
        self.fortifications: bool = bool(self.options["fortifications"])
        self.all_provinces = range(len(self.board.province_names))
        fields = range(len(self.board.field_names))
        self.house_actions = [_row(House, f) for f in fields]
        self.emissary_actions = [_row(Emissary, p) for p in self.all_provinces]
        self.fort_actions = [_row(Fortify, f) for f in fields]
        self.done_action = Done()
        self.pass_action = Pass()
        self.exchange_actions = [Exchange(c) for c in range(5)]
        self.take_actions = [Take(c) for c in range(5)]
        self.draw_action = Draw()
        self.card_actions = [Card(c) for c in range(5)]

    def extent(self, a: House | Emissary | Fortify) -> int:
        """How many places of the kind `a` names exist on this board."""
        return len(self.board.province_names if isinstance(a, Emissary) else self.board.field_names)

    def _codec(self) -> ActionCodec:
        actions: list[Action] = []
        for row in self.house_actions:
            actions.extend(row)
        for row in self.emissary_actions:
            actions.extend(row)
        if self.fortifications:
            for row in self.fort_actions:
                actions.extend(row)
        actions += [self.done_action, self.pass_action, *self.exchange_actions]
        actions += [*self.take_actions, self.draw_action]
        return ActionCodec(actions, self.card_actions)

    def _max_game_length(self) -> int:
        # Every turn before the deck's second exhaustion takes at least one card off the
        # deck (directly or by refilling the display), and the deck yields at most its
        # cards twice; after that one round remains. A turn is at most 2 placements,
        # done, and 3 takes; each deck card is one chance step.
        deck = sum(self.cards.deck_for(self.players))
        turns = 2 * deck + self.players
        return turns * (2 + 1 + MAX_CARDS) + 2 * deck

    def layout(self) -> JSON:
        """The static drawing of the board side: fields with their province and place,
        the dragons (province labels), roads and alliances. A fresh copy every call."""
        b = self.board
        return {
            "side": b.side,
            "reconstructed": b.reconstructed,
            "fields": [
                {"name": b.field_names[f], "province": b.field_province[f], "xy": list(xy)}
                for f, xy in enumerate(b.field_xy)
            ],
            "dragons": [list(xy) for xy in b.dragon_xy],
            "roads": [[x, y] for x, y in b.roads],
            "alliances": [[x, y] for x, y in b.alliances],
        }

    def observation_tensor_size(self) -> int:
        return search.tensor_size(self)

    def _info_extra(self) -> Mapping[str, Any]:
        return {"reconstructed_board": self.board.reconstructed, "side": self.board.side}

    def new_initial_state(self) -> ChinaState:
        n = self.players
        forts = self.cards.fortifications if self.fortifications else 0
        return ChinaState.make(
            self,
            houses=(-1,) * len(self.board.field_names),
            forts=(),
            emissaries=(0,) * (9 * n),
            hands=((0,) * 5,) * n,
            known=((0,) * 5,) * n,
            display=(0,) * 5,
            deck=self.cards.deck_for(n),
            discards=(0,) * 5,
            supply=((self.cards.houses, self.cards.emissaries, forts),) * n,
            points=(0,) * n,
            scored=(0,) * 9,
            seat=0,
            phase=DEAL,
            province=-1,
            pieces=0,
            cards=0,
            limit=2,
            to_take=0,
            exhaustions=0,
            fresh=(0,) * 5,
            drawn=((0,) * 5,) * n,
            spent=((0,) * 5,) * n,
            dealt=0,
            log=EMPTY_LOG,
            final=None,
        )
