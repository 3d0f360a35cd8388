"""The turn: setup, cashing in, the roll, the character square (MA-1, MA-2)."""

from __future__ import annotations

import pytest
from mandarin_helpers import holdings, play

import tianxia
from tianxia.core import CHANCE, IllegalActionError
from tianxia.games.mandarin import rules
from tianxia.games.mandarin.state import MandarinState


def test_signs_are_chosen_in_seat_order_and_place_the_mandarins() -> None:
    g = tianxia.load_game("mandarin", players=3)
    s = g.new_initial_state()
    assert s.current_player() == 0
    s = play(s, "sign goat", "sign monkey", "sign goat")
    assert s.pos == (22, 25, 22)  # two mandarins may share a character square
    assert s.sign == (7, 8, 7)
    assert s.current_player() == CHANCE and s.seat == 0 and s.phase == rules.DIE
    with pytest.raises(IllegalActionError) as err:
        s.apply("sign rat")
    assert err.value.rule == "ENGINE-3"


def test_a_sign_after_the_setup_is_refused_by_rule_ma_1_3() -> None:
    g = tianxia.load_game("mandarin", players=2)
    s = g.position(sign=(0, 6), pos=(1, 19), phase=rules.START, owner=holdings({0: ["ox-red"]}))
    with pytest.raises(IllegalActionError) as err:
        s.apply("sign rat")
    assert err.value.rule == "MA-1.3"


def test_everyone_starts_with_3000_yuan() -> None:
    s = tianxia.load_game("mandarin", players=5).new_initial_state()
    assert isinstance(s, MandarinState)
    assert s.money == (3000,) * 5


def test_character_square_pays_100_and_ends_the_turn() -> None:
    g = tianxia.load_game("mandarin", players=2)
    s = play(g.position(sign=(0, 6), pos=(1, 19), phase=rules.DIE), "die 3")
    assert s.pos[0] == 4 and s.money == (3100, 3000)
    assert s.seat == 1 and s.phase == rules.DIE and s.turns == 1


def test_the_mandarin_moves_clockwise_round_the_ring() -> None:
    g = tianxia.load_game("mandarin", players=2)
    s = play(g.position(sign=(0, 6), pos=(34, 19), phase=rules.DIE), "die 3")
    assert s.pos[0] == 1 and s.money[0] == 3100


def test_a_coloured_square_draws_a_tile() -> None:
    g = tianxia.load_game("mandarin", players=2)
    s = play(g.position(sign=(0, 6), pos=(1, 19), phase=rules.DIE), "die 2")
    assert s.pos[0] == 3 and s.phase == rules.FACE and s.current_player() == CHANCE
    assert s.chance_outcomes() == [
        (s.parse_action("face up"), 0.5),
        (s.parse_action("face down"), 0.5),
    ]


def test_face_up_probability_is_an_option() -> None:
    g = tianxia.load_game("mandarin", players=2, face_up=0.25)
    s = play(g.position(sign=(0, 6), pos=(1, 19), phase=rules.DIE), "die 2")
    assert dict((str(a), p) for a, p in s.chance_outcomes()) == {"face up": 0.25, "face down": 0.75}


def test_cashing_in_pays_200_or_400_for_the_pagoda_and_refills_the_dispenser() -> None:
    g = tianxia.load_game("mandarin", players=2)
    s = g.position(
        sign=(0, 6), pos=(1, 19), phase=rules.START, owner=holdings({0: ["rat-red", "rat-blue"]})
    )
    assert [str(a) for a in s.legal_actions()] == ["roll", "cash rat-red", "cash rat-blue"]
    s = play(s, "cash rat-blue")
    assert s.money[0] == 3400 and rules.dispenser_count(s) == 71
    s = play(s, "cash rat-red")
    assert s.money[0] == 3600 and rules.dispenser_count(s) == 72
    assert s.phase == rules.DIE  # nothing left to cash: the die is thrown


def test_cashing_in_only_before_the_roll_of_ones_own_turn() -> None:
    g = tianxia.load_game("mandarin", players=2)
    s = g.position(
        sign=(0, 6),
        pos=(1, 19),
        phase=rules.START,
        owner=holdings({0: ["rat-red"], 1: ["horse-red"]}),
    )
    with pytest.raises(IllegalActionError) as err:
        s.apply("cash horse-red")
    assert err.value.rule == "MA-2.1" and "not in P1's collection" in err.value.reason
    s = play(s, "roll")
    assert s.current_player() == CHANCE
    s = play(s, "die 3")  # character square: the turn passes to seat 1, who may cash in
    assert s.current_player() == 1 and s.phase == rules.START
    with pytest.raises(IllegalActionError):
        s.apply("cash rat-red")
