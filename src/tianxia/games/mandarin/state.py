"""The Mandarin position: a small immutable value of tuples and ints."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tianxia.core import CHANCE, JSON, TERMINAL, Action, State
from tianxia.games.mandarin import rules
from tianxia.games.mandarin import view as view
from tianxia.games.mandarin.rules import CHANCE_PHASES, DISPENSER, OVER, SIGN
from tianxia.games.mandarin.tables import TILE_COUNT

if TYPE_CHECKING:
    from tianxia.games.mandarin.game import Mandarin

FIELDS = (
    "sign",
    "pos",
    "money",
    "owner",
    "firsts",
    "seat",
    "turns",
    "phase",
    "actor",
    "rolls",
    "lot",
    "holes",
    "receiver",
    "seller",
    "high",
    "bidder",
    "out",
    "banned",
    "debtor",
    "passed",
    "winners",
    "end",
    "last_roll",
    "log",
)


class MandarinState(State):
    """One Mandarin position. Never changed once built: `_apply` fills a fresh copy.

    Attributes:
        sign: each seat's animal (-1 until chosen).
        pos: each mandarin's square (-1 until placed).
        money: each seat's yuan (hidden from the others).
        owner: for each of the 72 tiles, the seat whose collection holds it, `DISPENSER`,
            or `LOT` (drawn face up this turn, still lying on the board).
        firsts: for each animal, the seats holding 3 or more of it, in the order they got
            there (the first keeps the sector when nobody has the pagoda).
        seat: whose turn it is; turns: turns completed; phase: what is pending;
        actor: who decides now; rolls: rolls thrown this turn.
        lot: face-up tiles drawn this turn; holes: face-down ones (their pictures do not
            exist yet: they are drawn when turned over).
        receiver: who gets the lot once its face-down tiles are turned.
        seller: -1 for the bank's auction, else the auctioneer of a special auction;
        high, bidder: the standing bid and its bidder (-1: none);
        out: bitmask of seats out of this auction; banned: those out for over-bidding.
        debtor: a bankrupt seat whose tile the creditor chooses.
        passed: seats whose tile the mover may take after passing them.
        winners, end: the result ("", "collection" or "cap").
        last_roll: the last pips thrown (0: none yet).
        log: the last few public events, in notation (`seat 1: bid 300`, `die 4`).
    """

    __slots__ = FIELDS
    game: Mandarin

    sign: tuple[int, ...]
    pos: tuple[int, ...]
    money: tuple[int, ...]
    owner: tuple[int, ...]
    firsts: tuple[tuple[int, ...], ...]
    seat: int
    turns: int
    phase: int
    actor: int
    rolls: int
    lot: tuple[int, ...]
    holes: int
    receiver: int
    seller: int
    high: int
    bidder: int
    out: int
    banned: int
    debtor: int
    passed: tuple[int, ...]
    winners: tuple[int, ...]
    end: str
    last_roll: int
    log: tuple[str, ...]

    def __init__(self, game: Mandarin, **fields: Any) -> None:
        super().__init__(game)
        n = game.players
        defaults: dict[str, Any] = {
            "sign": (-1,) * n,
            "pos": (-1,) * n,
            "money": (game.start_money,) * n,
            "owner": (DISPENSER,) * TILE_COUNT,
            "firsts": ((),) * 12,
            "seat": 0,
            "turns": 0,
            "phase": SIGN,
            "actor": 0,
            "rolls": 0,
            "lot": (),
            "holes": 0,
            "receiver": -1,
            "seller": -1,
            "high": 0,
            "bidder": -1,
            "out": 0,
            "banned": 0,
            "debtor": -1,
            "passed": (),
            "winners": (),
            "end": "",
            "last_roll": 0,
            "log": (),
        }
        unknown = set(fields) - set(defaults)
        if unknown:
            raise ValueError(f"a mandarin state has no field {sorted(unknown)[0]!r}")
        defaults.update(fields)
        for name in FIELDS:
            object.__setattr__(self, name, defaults[name])

    def copy(self) -> MandarinState:
        """A fresh state with the same fields, for `_apply` to fill before anyone sees it."""
        new = object.__new__(MandarinState)
        new.game = self.game
        new._legal = None
        for name in FIELDS:
            setattr(new, name, getattr(self, name))
        return new

    # --- the engine hooks --------------------------------------------------
    def current_player(self) -> int:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if phase in CHANCE_PHASES:
            return CHANCE
        return self.actor

    def _legal_actions(self) -> Sequence[Action]:
        return rules.legal_actions(self)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return rules.chance_outcomes(self)

    def _apply(self, action: Action) -> State:
        return rules.apply(self, action)

    def _why_illegal(self, action: Action) -> tuple[str, str]:
        return rules.why_illegal(self, action)

    def _describe(self, action: Action) -> str:
        return rules.describe(self, action)

    def returns(self) -> list[float]:
        return rules.returns(self)

    def scores(self) -> list[float]:
        return [float(w) for w in rules.wealth(self)]

    def observation(self, seat: int | None) -> JSON:
        return view.observation(self, seat)

    def resample_from_infostate(self, seat: int, rng: random.Random) -> State:
        return view.resample(self, seat, rng)

    def observation_tensor(self, seat: int | None) -> list[float]:
        return view.observation_tensor(self, seat)

    def heuristic(self, seat: int) -> float:
        return view.heuristic(self, seat)

    def heuristic_terms(self, seat: int) -> dict[str, float]:
        return view.heuristic_terms(self, seat)

    def to_json(self) -> JSON:
        out: JSON = {}
        for name in FIELDS:
            value = getattr(self, name)
            if name == "firsts":
                value = [list(f) for f in value]
            elif isinstance(value, tuple):
                value = list(value)
            out[name] = value
        return out
