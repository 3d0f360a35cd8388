"""The State value of Emperor of China: who holds which province, cards, and the decision due.

Provinces, seats and card kinds are indices into the game's tables. A state is never
changed after it is built: `rules.apply` works on a draft.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

from tianxia.core import State, StateDataError
from tianxia.core.log import EMPTY as EMPTY_LOG
from tianxia.core.log import Log

if TYPE_CHECKING:
    from tianxia.games.emperor.game import EmperorGame
    from tianxia.games.emperor.rules import Tables


class Phase(enum.StrEnum):
    """What is due now (docs/rules/emperor.md, "Observation" lists them in words)."""

    START = "start"
    GROWTH = "growth"
    COLONISE = "colonisation"
    MOVE = "movement"
    EXPAND = "expansion"
    REPLY = "merger reply"
    DEFENDER = "defender"
    ATTACKER = "attacker"
    DIE = "die"
    ADVANCE = "advance"
    YANG = "assign yang"
    YIN = "assign yin"
    DRAW_YIN = "draw yin"
    DRAW_YANG = "draw yang"
    SHIELD = "defence"
    END = "end"


(
    START, GROWTH, COLONISE, MOVE, EXPAND, REPLY, DEFENDER, ATTACKER, DIE, ADVANCE,
    YANG, YIN, DRAW_YIN, DRAW_YANG, SHIELD, END,
) = Phase  # fmt: skip
PHASES = tuple(Phase)
CHANCE_PHASES = frozenset((DIE, DRAW_YIN, DRAW_YANG))

LOG_LENGTH = 8

FIELD_NOTES = (
    "owner",  # per province: the realm (its senior seat) holding it, or -1
    "units",  # per province
    "markers",  # per province: count of each marker kind
    "hands",  # per seat: count of each yang kind held
    "yang_deck",  # count of each yang kind still in the deck (hidden)
    "yang_out",  # count of each yang kind out of play face up (markers placed, cards spent)
    "yin_deck",  # count of each yin kind still in the deck (public: yin is always shown)
    "senior",  # per seat: the seat whose realm it belongs to (itself unless a junior partner)
    "started",  # per seat: has had its first turn
    "claims",  # per seat: held 15 provinces at the end of its last turn
    "turn",  # 1..33, the individual turn under way
    "player",  # whose turn it is
    "phase",
    "decider",  # who decides now, at a player node
    "chosen",  # first turn: provinces occupied so far
    "growth",  # phase 1: growth still to place; -1 = the base units, p = a marker's unit from p
    "moved",  # phase 3: per province, units that arrived this phase and may not move again
    "attacked",  # phase 4: (from, to) pairs attacked this turn
    "conquered",  # phase 4: provinces taken this turn (their units attack no more)
    "proposed",  # phase 4: seats offered a merger this turn
    "battle",  # (from, to, merger offered) of the attack under way, or None
    "merge",  # (senior, junior) agreed, taking effect after the junior's phase 5, or None
    "yang_at",  # phase 5: province of the yang card, or -1
    "yin_at",
    "yin_card",  # yin kind turned over this turn, or -1
    "fresh",  # yang kind drawn this turn and not yet settled (seen by the drawer only), or -1
    "log",  # the last few public events
)


class EmperorState(State):
    """A position of Emperor of China. The fields are listed in `FIELD_NOTES`."""

    game: EmperorGame
    owner: tuple[int, ...]
    units: tuple[int, ...]
    markers: tuple[tuple[int, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    yang_deck: tuple[int, ...]
    yang_out: tuple[int, ...]
    yin_deck: tuple[int, ...]
    senior: tuple[int, ...]
    started: tuple[bool, ...]
    claims: tuple[bool, ...]
    turn: int
    player: int
    phase: Phase
    decider: int
    chosen: tuple[int, ...]
    growth: tuple[int, ...]
    moved: tuple[int, ...]
    attacked: tuple[tuple[int, int], ...]
    conquered: tuple[int, ...]
    proposed: tuple[int, ...]
    battle: tuple[int, int, int] | None
    merge: tuple[int, int] | None
    yang_at: int
    yin_at: int
    yin_card: int
    fresh: int
    log: Log
    # memo of influence and scores, computed once per state
    _cache: dict[str, Any] | None

    @property
    def t(self) -> Tables:
        """The variant's tables, read on almost every line of the rules."""
        return self.game.tables

    def validate(self) -> None:
        t = self.game.tables
        c = t.c
        n = self.game.players
        rows = {
            "owner": (self.owner, t.P),
            "units": (self.units, t.P),
            "markers": (self.markers, t.P),
            "hands": (self.hands, n),
            "yang_deck": (self.yang_deck, len(c.yang_kinds)),
            "yang_out": (self.yang_out, len(c.yang_kinds)),
            "yin_deck": (self.yin_deck, len(c.yin_kinds)),
            "senior": (self.senior, n),
            "started": (self.started, n),
            "claims": (self.claims, n),
        }
        for name, (row, length) in rows.items():
            if len(row) != length:
                raise StateDataError(f"{name}: {length} entries")
        if any(len(m) != len(c.marker_kinds) or min(m) < 0 for m in self.markers):
            raise StateDataError("markers: one count per marker kind, none negative")
        if any(len(h) != len(c.yang_kinds) or min(h) < 0 for h in self.hands):
            raise StateDataError("hands: one count per yang kind, none negative")
        for name in ("yang_deck", "yang_out", "yin_deck", "units"):
            if min(getattr(self, name)) < 0:
                raise StateDataError(f"{name}: counts are never negative")
        if max(self.units) > t.cap:
            raise StateDataError(f"units: at most {t.cap} in a province")
        if any(not -1 <= o < n for o in self.owner):
            raise StateDataError("owner: a seat or -1")
        if any(self.units[p] and self.owner[p] < 0 for p in range(t.P)):
            raise StateDataError("units: units stand only in a held province")
        for seat in (self.player, self.decider, *self.senior):
            if not 0 <= seat < n:
                raise StateDataError(f"player/decider/senior: seat {seat} is outside 0..{n - 1}")
        if not 1 <= self.turn <= c.turns:
            raise StateDataError(f"turn: 1..{c.turns}")
        provinces = (*self.chosen, *self.conquered, *[p for ab in self.attacked for p in ab])
        if any(not 0 <= p < t.P for p in provinces):
            raise StateDataError("chosen/conquered/attacked: provinces of the map")
        if self.moved and (len(self.moved) != t.P or min(self.moved) < 0):
            raise StateDataError("moved: one count per province")
        if any(not -1 <= g < t.P for g in self.growth):
            raise StateDataError("growth: -1 (the base units) or a province of the map")
        if any(not 0 <= p < n for p in self.proposed):
            raise StateDataError("proposed: seats of the game")
        if self.battle is not None and not all(0 <= p < t.P for p in self.battle[:2]):
            raise StateDataError("battle: two provinces of the map")
        if self.merge is not None and not all(0 <= p < n for p in self.merge):
            raise StateDataError("merge: two seats of the game")
        for name in ("yang_at", "yin_at"):
            if not -1 <= getattr(self, name) < t.P:
                raise StateDataError(f"{name}: a province or -1")
        if not -1 <= self.yin_card < len(c.yin_kinds) or not -1 <= self.fresh < len(c.yang_kinds):
            raise StateDataError("yin_card/fresh: a card kind or -1")


def initial_fields(game: EmperorGame) -> dict[str, Any]:
    """The position before the first start placement."""
    t = game.tables
    c = t.c
    n = game.players
    return {
        "owner": (-1,) * t.P,
        "units": (0,) * t.P,
        "markers": ((0,) * len(c.marker_kinds),) * t.P,
        "hands": ((0,) * len(c.yang_kinds),) * n,
        "yang_deck": c.yang_counts,
        "yang_out": (0,) * len(c.yang_kinds),
        "yin_deck": c.yin_counts,
        "senior": tuple(range(n)),
        "started": (False,) * n,
        "claims": (False,) * n,
        "turn": 1,
        "player": 0,
        "phase": START,
        "decider": 0,
        "chosen": (),
        "growth": (),
        "moved": (),
        "attacked": (),
        "conquered": (),
        "proposed": (),
        "battle": None,
        "merge": None,
        "yang_at": -1,
        "yin_at": -1,
        "yin_card": -1,
        "fresh": -1,
        "log": EMPTY_LOG,
    }
