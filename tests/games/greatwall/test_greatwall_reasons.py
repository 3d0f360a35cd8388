"""Every refusal names a rule of docs/rules/greatwall.md and says why in words."""

from __future__ import annotations

import random
import re
from pathlib import Path

import tianxia
from tianxia.core import CHANCE
from tianxia.core.match import sample_chance
from tianxia.games.greatwall.position import position

RULES = Path(__file__).parents[3] / "docs" / "rules" / "greatwall.md"


def documented_rules() -> set[str]:
    return set(re.findall(r"\*\*(GW-[0-9.]+)", RULES.read_text(encoding="utf-8")))


def test_refusals_over_a_seeded_game_name_documented_rules() -> None:
    ids = documented_rules()
    game = tianxia.load_game("greatwall", players=3)
    rng = random.Random(11)
    s = game.new_initial_state()
    named: set[str] = set()
    while not s.is_terminal():
        if s.current_player() != CHANCE:
            legal = set(s.legal_actions())
            for a in rng.sample(game.codec.actions, 40) + list(game.codec.outcomes):
                if a not in legal:
                    verdict = s.explain(a)
                    assert verdict.startswith("illegal: GW-"), verdict
                    named.add(verdict.split(": ")[1])
        a = sample_chance(s, rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions())
        s = s.apply(a)
    assert named <= ids
    assert {"GW-4.1", "GW-3.5", "GW-1.3"} <= named


def test_common_mistakes_get_specific_reasons() -> None:
    s = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "wall gate"}, decks={0: ""})
    assert s.explain("play 2 wall A") == "illegal: GW-2.2: P1 holds 1 wall card, not 2"
    assert (
        s.explain("draw") == "illegal: GW-2.3: P1's own deck is empty, so there is nothing to draw"
    )
    assert s.explain("pass").startswith("illegal: GW-2.4")
    assert s.explain("dragon on A1") == "illegal: GW-3.5: P1 holds no dragon"
    assert s.explain("play wall A").startswith("legal: P1 plays a wall to the right end of A")


def test_legal_actions_are_described_in_one_sentence() -> None:
    s = position(2, ["0:gate 1:wall | 5 3", "| 2 4"])
    assert s.explain("lay 5 on A1") == (
        "legal: P1 lays the fame tile 5 on card A1; P1's total in A drops by 5"
    )
