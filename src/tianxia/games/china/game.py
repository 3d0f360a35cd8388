"""China (Michael Schacht, Abacus Spiele 2005) for 3-5 players.

Rules: the Dutch rulebook of 12 August 2005, numbered in docs/rules/china.md. Board and
deck: `data/board.toml` and `data/cards.toml`, a reconstruction (docs/data/china.md).
Options: `board` ("3-4" or "4-5"; only 4 players choose) and `fortifications`.

Version history: 1, first complete implementation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tianxia.core import JSON, Action, ActionCodec, Game, OptionSpec, register_game
from tianxia.games.china import board as board_data
from tianxia.games.china import view
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
from tianxia.games.china.rules import DEAL, MAX_CARDS
from tianxia.games.china.state import ChinaState


def _row(make: type[House] | type[Emissary] | type[Fortify], where: int) -> list[Any]:
    """Actions for one place indexed by `joker + 1`.

    A joker of the province's own colour is never legal (CH-3.4) but has an id, so that
    the common mistake is refused by its rule rather than as unreadable text.
    """
    return [make(where, j) for j in (OWN, 0, 1, 2, 3, 4)]


@register_game
class ChinaGame(Game):
    NAME = "china"
    TITLE = "China (Schacht): houses, emissaries and roads"
    VERSION = 1
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

    def __init__(self, players: int | None = None, **options: Any) -> None:
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

    def observation_tensor_size(self) -> int:
        return view.tensor_size(self)

    def _info_extra(self) -> Mapping[str, Any]:
        return {"reconstructed_board": self.board.reconstructed, "side": self.board.side}

    def new_initial_state(self) -> ChinaState:
        n = self.players
        s = ChinaState.__new__(ChinaState)
        s.game = self
        s._legal = None
        s.houses = (-1,) * len(self.board.field_names)
        s.forts = ()
        s.emissaries = (0,) * (9 * n)
        s.pcount = (0,) * (9 * n)
        s.hands = ((0,) * 5,) * n
        s.known = ((0,) * 5,) * n
        s.display = (0,) * 5
        s.deck = self.cards.deck_for(n)
        s.discards = (0,) * 5
        forts = self.cards.fortifications if self.fortifications else 0
        s.supply = ((self.cards.houses, self.cards.emissaries, forts),) * n
        s.points = (0,) * n
        s.scored = (0,) * 9
        s.seat = 0
        s.phase = DEAL
        s.province, s.pieces, s.cards, s.limit, s.to_take = -1, 0, 0, 2, 0
        s.exhaustions = 0
        s.fresh = (0,) * 5
        s.drawn = ((0,) * 5,) * n
        s.spent = ((0,) * 5,) * n
        s.dealt = 0
        s.log = ()
        s.final = None
        return s

    def state_from_json(self, data: JSON) -> ChinaState:
        n = self.players
        s = self.new_initial_state()
        try:
            s.houses = tuple(int(x) for x in data["houses"])
            s.forts = tuple(sorted(int(x) for x in data["forts"]))
            s.emissaries = tuple(int(x) for x in data["emissaries"])
            s.hands = tuple(tuple(int(x) for x in h) for h in data["hands"])
            s.known = tuple(tuple(int(x) for x in h) for h in data["known"])
            s.display = tuple(int(x) for x in data["display"])
            s.deck = tuple(int(x) for x in data["deck"])
            s.discards = tuple(int(x) for x in data["discards"])
            s.supply = tuple(tuple(int(x) for x in h) for h in data["supply"])
            s.points = tuple(int(x) for x in data["points"])
            s.scored = tuple(int(x) for x in data["scored"])
            s.seat = int(data["seat"])
            s.phase = str(data["phase"])
            s.province = int(data["province"])
            s.pieces = int(data["pieces"])
            s.cards = int(data["cards"])
            s.limit = int(data["limit"])
            s.to_take = int(data["to_take"])
            s.exhaustions = int(data["exhaustions"])
            s.fresh = tuple(int(x) for x in data["fresh"])
            s.drawn = tuple(tuple(int(x) for x in d) for d in data["drawn"])
            s.spent = tuple(tuple(int(x) for x in d) for d in data["spent"])
            s.dealt = int(data["dealt"])
            s.log = tuple(str(x) for x in data["log"])
            final = data["final"]
            s.final = None if final is None else tuple(tuple(int(x) for x in f) for f in final)
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"china: not a saved state of this game: {e}") from e
        nf = len(self.board.field_names)
        if (
            len(s.houses) != nf
            or len(s.emissaries) != 9 * n
            or len(s.hands) != n
            or len(s.known) != n
            or len(s.drawn) != n
            or len(s.spent) != n
            or len(s.supply) != n
            or len(s.points) != n
            or len(s.scored) != 9
            or any(
                len(h) != 5
                for h in (
                    *s.hands,
                    *s.known,
                    *s.drawn,
                    *s.spent,
                    s.display,
                    s.deck,
                    s.discards,
                    s.fresh,
                )
            )
            or any(not -1 <= o < n for o in s.houses)
            or s.phase not in ("deal", "turn", "place", "refill", "draw", "reveal", "over")
        ):
            raise ValueError("china: the saved state does not fit this variant")
        pcount = [0] * (9 * n)
        for f, o in enumerate(s.houses):
            if o >= 0:
                pcount[self.board.field_province[f] * n + o] += 1
        s.pcount = tuple(pcount)
        return s
