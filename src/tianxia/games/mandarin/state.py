"""The Mandarin position: its phases and its fields, a small immutable value."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

from tianxia.core import State, StateDataError
from tianxia.core.log import EMPTY as EMPTY_LOG
from tianxia.core.log import Log
from tianxia.games.mandarin.data import ANIMAL_COUNT, COLOUR_COUNT, TABLES, TILE_COUNT

if TYPE_CHECKING:
    from tianxia.games.mandarin.game import Mandarin


class Phase(enum.IntEnum):
    """What is pending; the value indexes `PHASE_NAMES`."""

    SIGN = 0  # each seat chooses its animal
    START = 1  # the seat on turn rolls or cashes in
    DIE = 2  # chance throws the die
    TAKE = 3  # passing: the mover takes a tile from a passed seat
    SEIZE = 4  # bankruptcy: the creditor chooses a tile
    FACE = 5  # chance: the drawn tile falls face up or down
    TILE = 6  # chance: which tile it is
    CHOOSE = 7  # keep the lot or offer it for auction
    AUCTION = 8
    REVEAL = 9  # chance turns the face-down tiles over
    OVER = 10


SIGN, START, DIE, TAKE, SEIZE, FACE, TILE, CHOOSE, AUCTION, REVEAL, OVER = Phase
PHASE_NAMES = tuple(p.name.lower() for p in Phase)
CHANCE_PHASES = frozenset((DIE, FACE, TILE, REVEAL))
# Where a tile is when no collection holds it.
DISPENSER = -1
LOT = -2
SQUARES = TABLES.squares
# How many recent events the observation's log keeps.
LOG_LENGTH = 6


class MandarinState(State):
    """One Mandarin position.

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
        dry: -1 while everyone may draw from the dispenser; once it has run empty, the
            seats that have cashed in since, as a bitmask: a seat may draw again only
            after another seat has cashed in (MA-3.4), so once two have, all may (-1).
        log: the last few public events, in notation (`seat 1: bid 300`, `die 4`).
    """

    game: Mandarin
    sign: tuple[int, ...]
    pos: tuple[int, ...]
    money: tuple[int, ...]
    owner: tuple[int, ...]
    firsts: tuple[tuple[int, ...], ...]
    seat: int
    turns: int
    phase: Phase
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
    dry: int
    log: Log

    def validate(self) -> None:
        """Refuse values no game can reach, naming the field."""
        n = self.game.players
        seats = range(n)

        def need(ok: bool, key: str) -> None:
            if not ok:
                raise StateDataError(f"{key}: out of range")

        for key in ("sign", "pos", "money"):
            need(len(getattr(self, key)) == n, key)
        need(len(self.owner) == TILE_COUNT and len(self.firsts) == ANIMAL_COUNT, "owner/firsts")
        need(len(self.log) <= LOG_LENGTH, "log")
        need(self.end in ("", "collection", "cap"), "end")
        need(all(-1 <= a < ANIMAL_COUNT for a in self.sign), "sign")
        need(all(-1 <= p < SQUARES for p in self.pos), "pos")
        need(all(m >= 0 for m in self.money), "money")
        need(all(LOT <= o < n for o in self.owner), "owner")
        need(all(len(c) == len(set(c)) and set(c) <= set(seats) for c in self.firsts), "firsts")
        need(set(self.passed) <= set(seats) and set(self.winners) <= set(seats), "passed/winners")
        need(
            all(0 <= t < TILE_COUNT and self.owner[t] == LOT for t in self.lot)
            and sum(o == LOT for o in self.owner) == len(self.lot),
            "lot",
        )
        need(self.seat in seats and self.actor in seats, "seat/actor")
        for key in ("receiver", "seller", "bidder", "debtor"):
            need(-1 <= getattr(self, key) < n, key)
        for key in ("turns", "rolls", "holes", "high", "out", "banned", "last_roll"):
            need(getattr(self, key) >= 0, key)
        need(self.out < 1 << n and self.banned < 1 << n, "out/banned")
        need(self.last_roll <= 6 and self.holes <= TILE_COUNT, "last_roll/holes")
        # At most one seat has cashed in since the dispenser ran empty (two open it to
        # all), and an empty dispenser has just run empty.
        need(-1 <= self.dry < 1 << n and (self.dry & (self.dry - 1)) <= 0, "dry")
        empty = self.owner.count(DISPENSER) - self.holes == 0
        need(not empty or self.dry == 0, "dry")
        # The order of `firsts` is history; who is in it follows from the tiles.
        for animal, claim in enumerate(self.firsts):
            tiles = range(animal * COLOUR_COUNT, (animal + 1) * COLOUR_COUNT)
            holders = {p for p in seats if sum(self.owner[t] == p for t in tiles) >= 3}
            need(set(claim) == holders, "firsts")


def opening(game: Mandarin) -> dict[str, Any]:
    """The fields of the position before anyone has chosen an animal."""
    n = game.players
    return {
        "sign": (-1,) * n,
        "pos": (-1,) * n,
        "money": (game.start_money,) * n,
        "owner": (DISPENSER,) * TILE_COUNT,
        "firsts": ((),) * ANIMAL_COUNT,
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
        "dry": -1,
        "log": EMPTY_LOG,
    }
