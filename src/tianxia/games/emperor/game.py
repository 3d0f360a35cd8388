"""Emperor of China (G. L. Lamborn, Dynamic Games 1972), after the German fan rules.

2-5 players grow, colonise, move and fight over 21 provinces of China for 33 turns;
yin and yang cards bring calamities and boons. Rules: docs/rules/emperor.md (EM-n),
source: the German rulebook in shared/seeds/002. Data: docs/data/emperor.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from tianxia.core.actions import ActionCodec
from tianxia.core.game import JSON, Game, OptionSpec
from tianxia.core.registry import register_game
from tianxia.games.emperor import rules, search, view
from tianxia.games.emperor.actions import (
    Accept,
    Advance,
    AssignYang,
    AssignYin,
    Attack,
    Colonise,
    Defend,
    Die,
    Done,
    DrawYang,
    DrawYin,
    Endure,
    Grow,
    Move,
    OfferMerger,
    ProposeMerger,
    Refuse,
    Retreat,
    Roll,
    Stand,
    Start,
    Withdraw,
)
from tianxia.games.emperor.data import NORMAL, Components, components
from tianxia.games.emperor.state import EmperorState, initial_fields

# choices of the option `borders` (EM-2.2, ruling R1)
COLONISTS_CROSS = "colonists_cross"
CLOSED = "closed"
OPEN = "open"


class Tables:
    """Lookup tables of one variant, built once: neighbours, obstacles and action objects."""

    def __init__(self, c: Components, players: int, borders: str, honan_shensi: str):
        self.c = c
        self.n = players
        self.P = len(c.province_ids)
        self.ids = c.province_ids
        self.index = {pid: i for i, pid in enumerate(c.province_ids)}
        self.cap = c.province_cap
        # a retreat and movement cross obstacles freely only with borders="open" (EM-2.2)
        self.open_borders = borders == OPEN
        nbrs: list[list[int]] = [[] for _ in range(self.P)]
        # block[a][b]: the obstacle an attack from a into b must overcome (NORMAL if none)
        self.block: list[dict[int, str]] = [{} for _ in range(self.P)]
        for b in c.borders:
            i, j = self.index[b.a], self.index[b.b]
            nbrs[i].append(j)
            nbrs[j].append(i)
            kind = NORMAL if (b.optional and honan_shensi == "normal") else b.strongest
            self.block[i][j] = kind
            self.block[j][i] = kind
        self.nbrs: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(x)) for x in nbrs)
        # neighbours reachable by movement and a retreat without a card (EM-2.2)
        self.open_nbrs: tuple[tuple[int, ...], ...] = tuple(
            tuple(q for q in self.nbrs[p] if self.open_borders or self.block[p][q] == NORMAL)
            for p in range(self.P)
        )
        # neighbours colonists may enter: every one unless the borders are closed (EM-5.1)
        self.colonise_nbrs: tuple[tuple[int, ...], ...] = (
            self.open_nbrs if borders == CLOSED else self.nbrs
        )
        self.yang_index = {k: i for i, k in enumerate(c.yang_kinds)}
        self.yin_index = {k: i for i, k in enumerate(c.yin_kinds)}
        self.marker_index = {k: i for i, k in enumerate(c.marker_kinds)}
        # yang kind -> marker index (economy cards), or -1
        self.yang_marker = tuple(
            self.marker_index[k] if g == "economy" else -1
            for k, g in zip(c.yang_kinds, c.yang_groups)
        )
        self.attack_kinds = tuple(i for i, g in enumerate(c.yang_groups) if g == "attack")
        self.economy_kinds = tuple(i for i, g in enumerate(c.yang_groups) if g == "economy")
        self.hidden_kinds = tuple(i for i, g in enumerate(c.yang_groups) if g != "economy")
        # yin kind -> the yang kind that defends against it, or -1
        self.defence_for = tuple(
            self.yang_index.get(k, -1)
            if self.yang_index.get(k, -1) >= 0 and c.yang_groups[self.yang_index[k]] == "defence"
            else -1
            for k in c.yin_kinds
        )
        self.start_count = c.start_provinces[players]
        self.supply_each = c.units_per_player
        self.directed = tuple((a, b) for a in range(self.P) for b in self.nbrs[a])

        ids = self.ids
        self.DONE = Done()
        self.start = tuple(Start(p) for p in ids)
        self.grow = tuple(Grow(p) for p in ids)
        self.colonise = {(a, b): Colonise(ids[a], ids[b]) for a, b in self.directed}
        self.move = {
            (a, b): tuple(Move(ids[a], ids[b], k) for k in range(self.cap + 1))
            for a, b in self.directed
        }
        self.attack = {(a, b): Attack(ids[a], ids[b]) for a, b in self.directed}
        self.propose = tuple(ProposeMerger(s) for s in range(players))
        self.ACCEPT, self.REFUSE = Accept(), Refuse()
        self.STAND, self.OFFER = Stand(), OfferMerger()
        self.retreat = tuple(Retreat(p) for p in ids)
        self.ROLL, self.WITHDRAW = Roll(), Withdraw()
        self.advance = tuple(Advance(k) for k in range(self.cap + 1))
        self.yang = tuple(AssignYang(p) for p in ids)
        self.yin = tuple(AssignYin(p) for p in ids)
        self.DEFEND, self.ENDURE = Defend(), Endure()
        self.die = tuple(Die(f) for f in range(1, 7))
        self.draw_yin = tuple(DrawYin(k) for k in c.yin_kinds)
        self.draw_yang = tuple(DrawYang(k) for k in c.yang_kinds)

    def player_actions(self) -> list[Any]:
        acts: list[Any] = [self.DONE, *self.start, *self.grow]
        acts += [self.colonise[d] for d in self.directed]
        acts += [m for d in self.directed for m in self.move[d][1:]]
        acts += [self.attack[d] for d in self.directed]
        acts += [*self.propose, self.ACCEPT, self.REFUSE, self.STAND, *self.retreat]
        acts += [self.OFFER, self.ROLL, self.WITHDRAW, *self.advance, *self.yang, *self.yin]
        acts += [self.DEFEND, self.ENDURE]
        return acts

    def chance_actions(self) -> list[Any]:
        return [*self.die, *self.draw_yin, *self.draw_yang]


@register_game
class EmperorGame(Game):
    """Emperor of China for 2-5 players."""

    NAME = "emperor"
    TITLE = "Emperor of China"
    # 2: colonists cross obstacles, yin cards strike the drawer's own provinces, a merged
    # game is scored as it stands (a junior partner has no provinces); eight borders of the
    # reconstructed map revised
    VERSION = 2
    MIN_PLAYERS = 2
    MAX_PLAYERS = 5
    rules: ClassVar[Any] = rules
    view: ClassVar[Any] = view
    search: ClassVar[Any] = search
    OPTIONS = (
        OptionSpec(
            "borders",
            COLONISTS_CROSS,
            (COLONISTS_CROSS, CLOSED, OPEN),
            "obstacles stop movement and retreat but not colonists; closed: colonists too; "
            "open: only attacks need cards",
        ),
        OptionSpec(
            "yin_target",
            "own",
            ("own", "any"),
            "a yin card goes to one of the drawer's own provinces, or to any province",
            conformance=False,
        ),
        OptionSpec(
            "merger_result",
            "scoring",
            ("scoring", "shared"),
            "a junior partner scores what he holds (nothing), or shares his senior's result "
            "as in a series",
            conformance=False,
        ),
        OptionSpec(
            "honan_shensi",
            "mountains",
            ("mountains", "normal"),
            "the disputed Honan-Shensi border is a mountain border or a normal one",
            conformance=False,
        ),
    )

    def __init__(self, players: object = None, **options: Any) -> None:
        super().__init__(players, **options)
        self.tables = Tables(
            components(),
            self.players,
            str(self.options["borders"]),
            str(self.options["honan_shensi"]),
        )

    @classmethod
    def options_of_version(cls, version: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """Version 1 closed obstacles to colonists (or opened them all with `open_borders`),
        let a yin card strike any province and gave a junior his senior's result."""
        out = dict(options)
        if version == 1:
            opened = bool(out.pop("open_borders", False))
            out["borders"] = OPEN if opened else CLOSED
            out.setdefault("yin_target", "any")
            out.setdefault("merger_result", "shared")
        return out

    def _codec(self) -> ActionCodec:
        return ActionCodec(self.tables.player_actions(), self.tables.chance_actions())

    def _max_game_length(self) -> int:
        t = self.tables
        c = t.c
        units = self.players * c.units_per_player
        markers_bonus = sum(n * g for n, g in zip(c.marker_counts, c.marker_growth))
        per_turn = (
            t.start_count  # first-turn placement
            + 1
            + markers_bonus  # growth placements
            + units // 3
            + 1  # colonisations (three units each) and done
            + units
            + 1  # movements (each moves a unit that cannot move again) and done
            + 1  # done with expansion
            + 2 * self.players  # merger offers and replies
            + 5 * len(t.directed)  # attack, defender's first choice, reply, withdraw, advance
            + 3 * units  # each roll (choice, roll, die) costs a unit
            + 6  # phase 5: two assignments, two draws, the defence choice
        )
        return per_turn * c.turns + 1

    def observation_tensor_size(self) -> int:

        return search.tensor_size(self.tables)

    def layout(self) -> JSON:
        """Provinces with name and map position, and borders with their obstacles."""
        c = self.tables.c
        return {
            "provinces": [
                {"id": pid, "name": name, "x": x, "y": y}
                for pid, name, (x, y) in zip(c.province_ids, c.province_names, c.coords)
            ],
            "borders": [
                {"a": b.a, "b": b.b, "obstacles": list(obstacles), "strongest": strongest}
                for b in c.borders
                for opened in [b.optional and self.options["honan_shensi"] == "normal"]
                for obstacles, strongest in [((), NORMAL) if opened else (b.obstacles, b.strongest)]
            ],
        }

    def _info_extra(self) -> Mapping[str, Any]:
        c = self.tables.c
        return {"provinces": len(c.province_ids), "turns": c.turns, "reconstructed": True}

    def new_initial_state(self) -> EmperorState:
        return EmperorState.make(self, **initial_fields(self))
