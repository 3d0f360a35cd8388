"""The State value of Emperor of China: who holds which province, cards, and the decision due.

Provinces, seats and card kinds are indices into the game's tables. A state is never
changed after it is built: `rules.apply` works on a fresh clone.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tianxia.core import CHANCE, JSON, TERMINAL, Action, State

if TYPE_CHECKING:
    from tianxia.games.emperor.game import EmperorGame, Tables

# phases: what is due now (docs/rules/emperor.md, "Observation" lists them in words)
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
PHASES = (
    START, GROWTH, COLONISE, MOVE, EXPAND, REPLY, DEFENDER, ATTACKER, DIE, ADVANCE,
    YANG, YIN, DRAW_YIN, DRAW_YANG, SHIELD, END,
)  # fmt: skip
CHANCE_PHASES = frozenset((DIE, DRAW_YIN, DRAW_YANG))

LOG_LENGTH = 8

FIELDS = (
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
    """A position of Emperor of China."""

    # no __slots__: the fields live in __dict__, so `clone` copies them in one call
    LEGACY_STATE = True

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
    phase: str
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
    log: tuple[str, ...]
    _cache: dict[str, Any] | None
    t: Tables

    def __init__(self, game: EmperorGame) -> None:
        super().__init__(game)
        self._cache = None
        # the variant's tables, kept at hand: read on almost every line of the rules
        self.t = game.tables

    # --- construction ---------------------------------------------------------
    @classmethod
    def initial(cls, game: EmperorGame) -> EmperorState:
        t = game.tables
        c = t.c
        n = game.players
        s = cls(game)
        s.owner = (-1,) * t.P
        s.units = (0,) * t.P
        s.markers = ((0,) * len(c.marker_kinds),) * t.P
        s.hands = ((0,) * len(c.yang_kinds),) * n
        s.yang_deck = c.yang_counts
        s.yang_out = (0,) * len(c.yang_kinds)
        s.yin_deck = c.yin_counts
        s.senior = tuple(range(n))
        s.started = (False,) * n
        s.claims = (False,) * n
        s.turn = 1
        s.player = 0
        s.phase = START
        s.decider = 0
        s.chosen = ()
        s.growth = ()
        s.moved = ()
        s.attacked = ()
        s.conquered = ()
        s.proposed = ()
        s.battle = None
        s.merge = None
        s.yang_at = s.yin_at = s.yin_card = s.fresh = -1
        s.log = ()
        return s

    def clone(self) -> EmperorState:
        """A copy to build the successor in (the caller never touches `self`)."""
        s = EmperorState.__new__(EmperorState)
        s.__dict__.update(self.__dict__)
        s.game = self.game
        s._legal = None
        s._cache = None
        return s

    # --- engine hooks ----------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == END:
            return TERMINAL
        if self.phase in CHANCE_PHASES:
            return CHANCE
        return self.decider

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
        return [float(v) for v in rules.seat_scores(self)]

    def observation(self, seat: int | None) -> JSON:
        return view.observation(self, seat)

    def resample_from_infostate(self, seat: int, rng: random.Random) -> State:
        return view.resample(self, seat, rng)

    def observation_tensor(self, seat: int | None) -> list[float]:
        return view.tensor(self, seat)

    def heuristic(self, seat: int) -> float:
        return view.heuristic(self, seat)

    def heuristic_terms(self, seat: int) -> dict[str, float]:
        return view.heuristic_terms(self, seat)

    # --- serialisation -----------------------------------------------------------
    def to_json(self) -> JSON:
        d: JSON = {}
        for f in FIELDS:
            v = getattr(self, f)
            if isinstance(v, tuple):
                v = [list(x) if isinstance(x, tuple) else x for x in v]
            d[f] = v
        return d

    @classmethod
    def from_json(cls, game: EmperorGame, data: JSON) -> EmperorState:
        """Inverse of `to_json`; a ValueError names the first field that does not fit."""
        try:
            return cls._from_json(game, data)
        except (TypeError, IndexError, KeyError, AttributeError) as e:
            raise ValueError(f"malformed emperor state: {e!r}") from e

    @classmethod
    def _from_json(cls, game: EmperorGame, data: JSON) -> EmperorState:
        if not isinstance(data, dict):
            raise ValueError("an emperor state must be a JSON object")
        missing = [f for f in FIELDS if f not in data]
        if missing:
            raise ValueError(f"emperor state lacks {missing[0]!r}")
        t = game.tables
        n = game.players
        s = cls(game)

        def ints(key: str, length: int | None = None) -> tuple[int, ...]:
            v = data[key]
            if not isinstance(v, list) or not all(
                isinstance(x, int) and not isinstance(x, bool) for x in v
            ):
                raise ValueError(f"emperor state field {key!r} must be a list of whole numbers")
            if length is not None and len(v) != length:
                raise ValueError(f"emperor state field {key!r} must have {length} entries")
            return tuple(v)

        def nested(key: str, length: int, inner: int) -> tuple[tuple[int, ...], ...]:
            v = data[key]
            if not isinstance(v, list) or len(v) != length:
                raise ValueError(f"emperor state field {key!r} must have {length} entries")
            out = []
            for row in v:
                if not isinstance(row, list) or len(row) != inner:
                    raise ValueError(f"emperor state field {key!r} has a malformed entry")
                out.append(tuple(int(x) for x in row))
            return tuple(out)

        def scalar(key: str) -> int:
            v = data[key]
            if isinstance(v, bool) or not isinstance(v, int):
                raise ValueError(f"emperor state field {key!r} must be a whole number")
            return v

        c = t.c
        s.owner = ints("owner", t.P)
        s.units = ints("units", t.P)
        s.markers = nested("markers", t.P, len(c.marker_kinds))
        s.hands = nested("hands", n, len(c.yang_kinds))
        s.yang_deck = ints("yang_deck", len(c.yang_kinds))
        s.yang_out = ints("yang_out", len(c.yang_kinds))
        s.yin_deck = ints("yin_deck", len(c.yin_kinds))
        s.senior = ints("senior", n)
        s.started = tuple(bool(x) for x in data["started"])
        s.claims = tuple(bool(x) for x in data["claims"])
        if len(s.started) != n or len(s.claims) != n:
            raise ValueError("emperor state fields 'started' and 'claims' need one entry a seat")
        s.turn = scalar("turn")
        s.player = scalar("player")
        if data["phase"] not in PHASES:
            raise ValueError(f"emperor state has an unknown phase {data['phase']!r}")
        s.phase = data["phase"]
        s.decider = scalar("decider")
        s.chosen = ints("chosen")
        s.growth = ints("growth")
        s.moved = ints("moved")
        s.attacked = tuple((int(a), int(b)) for a, b in data["attacked"])
        s.conquered = ints("conquered")
        s.proposed = ints("proposed")
        battle = data["battle"]
        s.battle = None if battle is None else (int(battle[0]), int(battle[1]), int(battle[2]))
        merge = data["merge"]
        s.merge = None if merge is None else (int(merge[0]), int(merge[1]))
        s.yang_at = scalar("yang_at")
        s.yin_at = scalar("yin_at")
        s.yin_card = scalar("yin_card")
        s.fresh = scalar("fresh")
        s.log = tuple(str(x) for x in data["log"])
        for seat in (s.player, s.decider, *s.senior):
            if not 0 <= seat < n:
                raise ValueError(f"emperor state names seat {seat}, outside 0..{n - 1}")
        return s


# imported last: both modules build on the names above
from tianxia.games.emperor import rules, view  # noqa: E402
