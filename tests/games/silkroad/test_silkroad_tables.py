"""The rules' tables and quick answers (`rules.Tables`, `problem`, `carries`, `has_effect`)
against the simulating reference (`carry_problem`, `groups`, `part_candidates`) that the
explanations of refused actions still use, on many seeded positions."""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import pytest

import tianxia
from tianxia.core import CHANCE, sample_chance
from tianxia.games.silkroad import rules, search
from tianxia.games.silkroad.actions import Carry, Miles, Pick
from tianxia.games.silkroad.data import SilkroadData, parse_cards
from tianxia.games.silkroad.game import SilkroadGame
from tianxia.games.silkroad.rules import TURN


def game(n: int) -> SilkroadGame:
    g = tianxia.load_game("silkroad", players=n)
    assert isinstance(g, SilkroadGame)
    return g


def alt(numeral: int, parts: list[tuple[str, int]], when: str = "always") -> dict[str, Any]:
    return {
        "numeral": numeral,
        "when": when,
        "silver": 0,
        "parts": [{"kind": k, "steps": s} for k, s in parts],
    }


# Alternatives the shipped deck does not have: parts after the first that go back to the
# last merchant (which can forbid an alternative after something moved), foreign and
# foremost parts after a move, groups whose only part moves them back.
ODD_CARDS = parse_cards(
    {
        "card": [
            {"key": key, "title": key, "text": key, "copies": 1, "alt": alts}
            for key, alts in [
                ("on-then-back", [alt(1, [("move", 3), ("to_last", 0)])]),
                ("back-then-last", [alt(1, [("to_last", 0), ("last", 4)])]),
                ("rob-then-go", [alt(1, [("foreign", -3), ("move", 2)])]),
                ("next-then-storm", [alt(1, [("to_next", 0), ("foremost", -4)])]),
                ("straggle", [alt(1, [("last", 5), ("to_next", 0)], when="last")]),
                (
                    "group-back",
                    [alt(1, [("move", -10)]), alt(2, [("move", -2)]), alt(3, [("move", -1)])],
                ),
                (
                    "group-storm",
                    [
                        alt(1, [("foremost", -2)]),
                        alt(2, [("move", 2), ("to_last", 0)]),
                        alt(3, [("move", 12), ("foreign", -10)], when="last"),
                    ],
                ),
            ]
        ]
    }
)


def odd_game(n: int) -> SilkroadGame:
    """A game whose deck is the shipped one and `ODD_CARDS` (its tables built from it)."""
    g = SilkroadGame(n)
    shipped: SilkroadData = g.data
    d = SilkroadData(
        shipped.length,
        shipped.start_silver,
        shipped.start_fields,
        shipped.start_positions,
        shipped.penalties,
        shipped.cities,
        shipped.bazaar_cards,
        shipped.bazaar,
        shipped.cards + ODD_CARDS,
        shipped.reconstructed,
    )
    g.data = d
    g.tables = rules.Tables(g)
    return g


def positions(g: SilkroadGame, rng: random.Random, count: int) -> list[tuple[int, ...]]:
    """Seeded positions: spread over the track, bunched (ties, neighbours, groups), and at
    the ends (the start fields, just before Venice, more than 10 apart)."""
    out = []
    for i in range(count):
        if i % 3 == 0:
            pos = [rng.randint(g.floor, g.length - 1) for _ in range(g.merchants)]
        elif i % 3 == 1:
            base = rng.randint(g.floor, g.length - 4)
            pos = [min(g.length - 1, base + rng.randint(0, 3)) for _ in range(g.merchants)]
        else:
            pos = [rng.choice((g.floor, g.floor + 1, 0, g.length - 2, g.length - 1))]
            pos += [rng.randint(g.floor, g.length - 1) for _ in range(g.merchants - 1)]
            rng.shuffle(pos)
        out.append(tuple(pos))
    return out


def reference_ways(g: SilkroadGame, pos: tuple[int, ...], card: int, subject: int) -> list[Carry]:
    """Every allowed way by simulating each alternative for each group."""
    out = []
    for a in g.data.cards[card].alts:
        for comp in rules.groups(g, pos, subject, a.numeral):
            if not rules.carry_problem(g, pos, a, (subject, *comp), subject):
                out.append(Carry(a.numeral, comp))
    return out


@pytest.mark.parametrize("n", [2, 3, 4, 7])
@pytest.mark.parametrize("odd", [False, True])
def test_quick_answers_agree_with_simulating_every_alternative(n: int, odd: bool) -> None:
    g = odd_game(n) if odd else game(n)
    t = rules.Tables(g)
    rng = random.Random(20 + n)
    seen = set()
    for pos in positions(g, rng, 150):
        for card, kind in enumerate(g.data.cards):
            for subject in range(g.merchants):
                expected = reference_ways(g, pos, card, subject)
                assert rules.carries(t, pos, card, subject) == expected, (pos, kind.key, subject)
                effect = t.sure[card] or bool(expected)
                assert rules.has_effect(t, pos, card, subject) == effect, (pos, kind.key)
                for a in kind.alts:
                    plan = t.plan(card, a.numeral)
                    others = [m for m in range(g.merchants) if m != subject]
                    # Any group, standing together or not: the check does not look.
                    for comp in itertools.combinations(others, a.numeral - 1):
                        c1, c2 = (*comp, -1, -1)[:2]
                        code = rules.problem(t, pos, plan, subject, c1, c2)
                        want = rules.carry_problem(g, pos, a, (subject, *comp), subject)
                        assert rules.PROBLEMS[code] == want, (pos, kind.key, subject, comp)
                        seen.add(want)
    # The positions reach every answer, so each branch was compared.
    assert seen == {"", "when", "back", "dead"} if odd else seen >= {"", "dead", "when"}


@pytest.mark.parametrize("n", [2, 5])
def test_candidates_agree_with_part_candidates(n: int) -> None:
    g = odd_game(n)
    t = g.tables
    for pos in positions(g, random.Random(n), 200):
        for card, kind in enumerate(g.data.cards):
            for a in kind.alts:
                plan = t.plan(card, a.numeral)
                for i, part in enumerate(a.parts):
                    for subject in range(g.merchants):
                        got = rules._candidates(t, pos, plan.kinds[i], plan.steps[i], subject)
                        assert got == rules.part_candidates(g, pos, part, subject)


def test_the_tables_name_the_cards_alternatives_and_actions_of_the_data() -> None:
    g = odd_game(3)
    t = g.tables
    assert (t.players, t.merchants, t.floor, t.length) == (3, 6, -2, 80)
    for card, kind in enumerate(g.data.cards):
        plans = t.plans[card]
        assert [p.numeral for p in plans] == [a.numeral for a in kind.alts]
        for p, a in zip(plans, kind.alts):
            assert [rules.PART_KINDS[k] for k in p.kinds] == [q.kind for q in a.parts]
            assert list(p.steps) == [q.steps for q in a.parts]
            assert p.last_only == (a.when == "last") and p.silver == a.silver
            assert p.printed_within_reach
            kinds = [q.kind for q in a.parts]
            assert list(p.back_after) == ["to_last" in kinds[i + 1 :] for i in range(len(kinds))]
        assert t.simple[card] == (t.sure[card] and len(kind.alts) == 1)
        for m in range(g.merchants):
            assert str(t.plays[card][m]) == f"play #{card + 1} {rules.COLOURS[m]}"
    with pytest.raises(ValueError):
        t.plan(0, 2)
    for a, b in itertools.combinations(range(g.merchants), 2):
        assert t.carry_three[a][b] == Carry(3, (a, b))
    assert [t.carry_pair[m] for m in range(6)] == [Carry(2, (m,)) for m in range(6)]
    assert t.picks == tuple(Pick(m) for m in range(6))
    assert t.miles[4][10 + 3] == Miles(4, 3) and t.miles[1][10 - 7] == Miles(1, -7)
    assert t.city_fields == tuple(c.field for c in g.data.cities)


def test_rows_kept_sorted_are_read_and_extended_as_sorting_would() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        row = tuple(rng.randint(0, 6) for _ in range(rng.randint(0, 4)))
        if rng.random() < 0.7:
            row = tuple(sorted(row))
        card = rng.randint(0, 6)
        assert rules.kinds_of(row) == tuple(sorted(set(row))), row
        assert rules.with_card(row, card) == tuple(sorted((*row, card))), (row, card)


@pytest.mark.parametrize("n", [2, 3, 6])
def test_targets_and_bazaars_read_from_the_tables_agree_with_the_data(n: int) -> None:
    g = game(n)
    rng = random.Random(n)
    s = g.new_initial_state()
    turns = 0
    while not s.is_terminal():
        if s.phase == TURN:
            turns += 1
            for seat in range(n):
                assert rules._targets(g.tables, s.rose, seat) == rules.targets(g, s.rose, seat)
                left = (
                    s.bazaar_cards[seat] > 0
                    and g.data.bazaar_row(s.marker) is not None
                    and (s.last_call[seat] == 0 or s.marker > s.last_call[seat])
                )
                assert rules.bazaar_left(g, s, seat) == left
            reversed_rose = s.replace(rose=s.rose[::-1])
            assert rules._targets(g.tables, reversed_rose.rose, 0) == rules.targets(
                g, reversed_rose.rose, 0
            )
        s = s.apply(
            sample_chance(s, rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions())
        )
    assert turns > 20


@pytest.mark.parametrize("n", [2, 4])
def test_chance_outcomes_from_the_table_are_the_counts_over_the_pile(n: int) -> None:
    g = game(n)
    rng = random.Random(7 * n)
    s = g.new_initial_state()
    draws = 0
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            draws += 1
            bazaars = s.deck_bazaars if s.phase == rules.DRAW else 0
            total = sum(s.deck) + bazaars
            want = [(g.tables.draw_bazaar, bazaars / total)] if bazaars else []
            want += [(g.tables.draws[k], c / total) for k, c in enumerate(s.deck) if c]
            got = rules.chance_outcomes(s)
            assert [(str(a), p) for a, p in got] == [(str(a), p) for a, p in want]
        s = s.apply(
            sample_chance(s, rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions())
        )
    assert draws > 50
    # Counts beyond the table (no such pile in play) are computed.
    assert rules._chance(g.tables.chances[0], g.tables.draws[0], 9, 500) == (
        g.tables.draws[0],
        9 / 500,
    )


def test_a_city_is_scored_once_some_company_has_every_merchant_past_it() -> None:
    g = game(3)
    rng = random.Random(3)
    for pos in positions(g, rng, 500):
        for field in (0, 16, 32, 48, 64):
            worst = [min(pos[m] for m in own) for own in g.merchants_of]
            assert rules._company_past(pos, g.merchants_of, field) == (max(worst) >= field)


@pytest.mark.parametrize("n", [2, 3, 7])
def test_the_evaluation_hook_is_its_terms_summed_and_set_against_the_best_rival(n: int) -> None:
    g = game(n)
    rng = random.Random(11 * n)
    s = g.new_initial_state()
    checked = 0
    while not s.is_terminal():
        values = [sum(search.heuristic_terms(s, i).values()) for i in range(n)]
        want = [
            math.tanh((values[i] - max(v for j, v in enumerate(values) if j != i)) / 20.0)
            for i in range(n)
        ]
        assert search.heuristics(s) == want
        assert [search.heuristic(s, i) for i in range(n)] == want
        checked += 1
        s = s.apply(
            sample_chance(s, rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions())
        )
    assert checked > 100
