"""Mandarin (Tom Kremer, Mattel 1991): the zodiac collecting game, with its money variant.

Rules: docs/rules/mandarin.md, from the Dutch rulebook; data: docs/data/mandarin.md.
Version history: 1 - first complete version.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from tianxia.core import JSON, ActionCodec, Game, OptionSpec, register_game
from tianxia.games.mandarin import rules
from tianxia.games.mandarin import view as view
from tianxia.games.mandarin.actions import (
    BID_CAP,
    BID_STEP,
    BIDS,
    CHANCE_OUTCOMES,
    PLAYER_ACTIONS,
    SIGNS,
    Sign,
)
from tianxia.games.mandarin.state import FIELDS, MandarinState
from tianxia.games.mandarin.tables import ANIMAL_COUNT, TABLES, TILE_COUNT, sign_of_birth_date

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
    VERSION = 1
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

    def __init__(self, players: int | None = None, **options: Any) -> None:
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
        cash = TILE_COUNT + 1
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
        return view.tensor_size(self.players)

    def new_initial_state(self) -> MandarinState:
        return MandarinState(self)

    def position(self, **fields: Any) -> MandarinState:
        """A position built directly (for tests and examples): unnamed fields take their
        opening values, and `firsts` follows from `owner` in seat order unless given.

        >>> import tianxia
        >>> g = tianxia.load_game("mandarin", players=2)
        >>> g.position(sign=(0, 6), pos=(1, 19), phase=rules.START).current_player()
        0
        """
        converted = {k: _tupled(k, v) for k, v in fields.items()}
        state = MandarinState(self, **converted)
        if "firsts" not in fields:
            for animal in range(ANIMAL_COUNT):
                rules._refresh_firsts(state, animal)
        return state

    def sign_action(self, born: datetime.date | str) -> Sign:
        """The `sign` action of a player born on `born` (the lunar new year counts)."""
        return SIGNS[TABLES.animals.index(sign_of_birth_date(born))]

    def state_from_json(self, data: JSON) -> MandarinState:
        if not isinstance(data, dict) or set(data) != set(FIELDS):
            raise ValueError("a mandarin state needs exactly the fields of MandarinState")
        fields = {k: _tupled(k, v) for k, v in data.items()}
        n = self.players
        for key in ("sign", "pos", "money"):
            if len(fields[key]) != n:
                raise ValueError(f"mandarin state: {key} must have one entry per seat")
        if len(fields["owner"]) != TILE_COUNT or len(fields["firsts"]) != ANIMAL_COUNT:
            raise ValueError("mandarin state: owner has 72 entries and firsts 12")
        log = fields["log"]
        if not isinstance(log, tuple) or len(log) > rules.LOG_LENGTH:
            raise ValueError(f"mandarin state: log holds at most {rules.LOG_LENGTH} events")
        if not all(isinstance(e, str) for e in log):
            raise ValueError("mandarin state: log holds event texts")
        for key, value in fields.items():
            if key == "log":
                continue
            if key == "end":
                if value not in ("", "collection", "cap"):
                    raise ValueError(f"mandarin state: end {value!r} is unknown")
            elif isinstance(value, tuple):
                flat = [x for v in value for x in (v if isinstance(v, tuple) else (v,))]
                if not all(isinstance(x, int) and not isinstance(x, bool) for x in flat):
                    raise ValueError(f"mandarin state: {key} must hold whole numbers")
            elif not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"mandarin state: {key} must be a whole number")
        _check_ranges(fields, n)
        return MandarinState(self, **fields)


def _tupled(key: str, value: Any) -> Any:
    if key == "firsts" and isinstance(value, list | tuple):
        return tuple(tuple(v) if isinstance(v, list | tuple) else v for v in value)
    if isinstance(value, list):
        return tuple(value)
    return value


def _check_ranges(f: dict[str, Any], n: int) -> None:
    """Refuse values no game can reach, naming the field."""
    seats = range(n)

    def need(ok: bool, key: str) -> None:
        if not ok:
            raise ValueError(f"mandarin state: {key} is out of range")

    need(0 <= f["phase"] <= rules.OVER, "phase")
    need(all(-1 <= a < ANIMAL_COUNT for a in f["sign"]), "sign")
    need(all(-1 <= p < rules.SQUARES for p in f["pos"]), "pos")
    need(all(m >= 0 for m in f["money"]), "money")
    need(all(rules.LOT <= o < n for o in f["owner"]), "owner")
    need(all(len(c) == len(set(c)) and set(c) <= set(seats) for c in f["firsts"]), "firsts")
    need(set(f["passed"]) <= set(seats) and set(f["winners"]) <= set(seats), "passed/winners")
    need(all(0 <= t < TILE_COUNT and f["owner"][t] == rules.LOT for t in f["lot"]), "lot")
    need(f["seat"] in seats and f["actor"] in seats, "seat/actor")
    for key in ("receiver", "seller", "bidder", "debtor"):
        need(-1 <= f[key] < n, key)
    for key in ("turns", "rolls", "holes", "high", "out", "banned", "last_roll"):
        need(f[key] >= 0, key)
    need(f["last_roll"] <= 6 and f["holes"] <= TILE_COUNT, "last_roll/holes")
