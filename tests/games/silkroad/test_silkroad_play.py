"""Seeded random journeys keep the game's bookkeeping invariants at every step."""

from __future__ import annotations

import random

import pytest

import tianxia
from tianxia.core import CHANCE, Match
from tianxia.games.silkroad.game import SilkroadGame
from tianxia.games.silkroad.rules import DEAL, END
from tianxia.games.silkroad.state import SilkroadState


@pytest.mark.parametrize("n", [2, 3, 4, 7])
def test_random_journeys_keep_cards_bazaars_and_wind_rose_consistent(n: int) -> None:
    g = tianxia.load_game("silkroad", players=n)
    assert isinstance(g, SilkroadGame)
    for seed in range(3):
        m = Match(g, seed=seed)
        rng = random.Random(seed)
        while not m.state.is_terminal():
            s = m.state
            assert isinstance(s, SilkroadState)
            if s.phase != DEAL:
                in_transit = 1 if s.mode == "B" else 0
                cards = sum(s.deck) + sum(s.discard) + in_transit
                cards += sum(map(len, s.hands)) + sum(map(len, s.displays))
                assert cards == 48
                assert s.deck_bazaars + (s.marker - 1) + sum(s.bazaar_cards) == 7
                assert all(len(h) <= 3 for h in s.hands) and all(len(d) <= 3 for d in s.displays)
                assert s.rose[0] != s.rose[1]
                if n == 2:
                    assert g.owner[s.rose[0]] != g.owner[s.rose[1]]
            if s.current_player() == CHANCE:
                m.resolve_chance()
            else:
                m.play(rng.choice(s.legal_actions()))
        final = m.state
        assert isinstance(final, SilkroadState) and final.phase == END
        assert final.ended == "venice" and max(final.pos) == 80
