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
from tianxia.games.emperor.data import NORMAL, components
from tianxia.games.emperor.rules import CLOSED, COLONISTS_CROSS, OPEN
from tianxia.games.emperor.state import EmperorState, initial_fields


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
        self.tables = rules.Tables(
            components(),
            self.players,
            str(self.options["borders"]),
            str(self.options["honan_shensi"]),
            yin_target=str(self.options["yin_target"]),
            merger_result=str(self.options["merger_result"]),
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
