"""The turn: setup, cashing in, the roll, the character square (MA-1, MA-2)."""

from __future__ import annotations

import pytest
from mandarin_helpers import holdings, play, tile

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


def test_cashing_in_only_on_ones_own_turn() -> None:
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


def drawn(**fields: object) -> MandarinState:
    """Seat 0 of three lands on the ox's coloured square and draws ox-red face up."""
    g = tianxia.load_game("mandarin", players=3)
    base: dict[str, object] = {"sign": (0, 6, 10), "pos": (1, 19, 31), "phase": rules.DIE}
    base.update(fields)
    return play(g.position(**base), "die 2", "face up", "tile ox-red")


def test_the_pending_decision_names_cashing_in_at_every_decision_of_the_turn() -> None:
    """MA-2.1: the prompt never says cashing in is only for the start of the turn."""
    held = holdings({0: ["rat-red"], 1: ["pig-red"]})
    start = tianxia.load_game("mandarin", players=3).position(
        sign=(0, 6, 10), pos=(1, 19, 31), phase=rules.START, owner=held
    )
    assert isinstance(start, MandarinState)
    assert rules.pending(start) == (
        "P1 rolls the die; P1 may also cash in tiles, at any decision of the turn"
    )
    # The same words with drawn tiles lying: cashing in did not end at the roll.
    assert rules.pending(drawn(owner=held)).endswith(
        "P1 may also cash in tiles, at any decision of the turn"
    )
    # A player holding no tile has nothing to cash in, and is not told he may.
    empty = start.replace(owner=holdings({1: ["pig-red"]}))
    assert rules.pending(empty) == "P1 rolls the die"


def test_cashing_in_while_a_drawn_tile_lies_on_the_board() -> None:
    s = drawn(owner=holdings({0: ["rat-red", "rat-blue"], 1: ["pig-red"]}))
    assert [str(a) for a in s.legal_actions()] == ["cash rat-red", "cash rat-blue", "keep", "draw"]
    assert rules.pending(s) == (
        "P1 keeps the drawn tiles or draws again; "
        "P1 may also cash in tiles, at any decision of the turn"
    )
    s = play(s, "cash rat-blue")
    assert s.money[0] == 3400 and s.phase == rules.CHOOSE and s.current_player() == 0
    assert s.lot == (tile("ox-red"),)
    s = play(s, "keep")
    assert s.owner[tile("ox-red")] == 0 and s.owner[tile("rat-blue")] == rules.DISPENSER
    assert s.seat == 1


def test_cashing_in_before_taking_from_a_passed_player() -> None:
    g = tianxia.load_game("mandarin", players=3)
    owner = holdings({0: ["rat-red"], 1: ["pig-red", "dog-red"]})
    s = g.position(sign=(0, 1, 10), pos=(1, 3, 31), phase=rules.DIE, owner=owner)
    s = play(s, "die 4")  # passes seat 1 on the ox's coloured square
    assert s.phase == rules.TAKE
    assert [str(a) for a in s.legal_actions()] == ["cash rat-red", "take dog-red", "take pig-red"]
    s = play(s, "cash rat-red")
    assert s.money[0] == 3200 and s.phase == rules.TAKE
    with pytest.raises(IllegalActionError) as err:
        s.apply("cash pig-red")
    assert err.value.rule == "MA-2.1" and "not in P1's collection" in err.value.reason
    s = play(s, "take pig-red")
    # The second roll follows at once: no cashing between the take and the die (MA-6.2).
    assert s.current_player() == CHANCE and s.phase == rules.DIE


def test_cashing_in_during_the_auction_of_ones_own_turn_covers_a_bid() -> None:
    s = drawn(owner=holdings({0: ["rat-red"], 1: ["pig-red"]}), money=(100, 3000, 3000))
    s = play(s, "draw", "face down")
    assert s.phase == rules.AUCTION and s.current_player() == 0
    assert [str(a) for a in s.legal_actions()][:3] == ["cash rat-red", "pass", "bid 100"]
    s = play(s, "cash rat-red", "bid 300")
    # Seat 1 bids in seat 0's auction, but it is not seat 1's turn.
    with pytest.raises(IllegalActionError) as err:
        s.apply("cash pig-red")
    assert err.value.rule == "MA-2.1" and "player on turn" in err.value.reason
    assert "cash pig-red" not in [str(a) for a in s.legal_actions()]
    s = play(s, "pass", "pass")
    assert s.money == (0, 3000, 3000) and s.receiver == 0  # paid from the cashed 200


def test_cashing_in_leaves_the_wealth_term_of_the_evaluation_unchanged() -> None:
    s = drawn(owner=holdings({0: ["rat-red", "ox-blue"], 1: ["pig-red"]}))
    after = play(s, "cash rat-red")
    # Tiles count at their cash value: cashing in moves wealth, it creates none.
    assert after.heuristic_terms(0)["wealth_lead"] == s.heuristic_terms(0)["wealth_lead"]
    assert after.heuristic_terms(0)["animals"] < s.heuristic_terms(0)["animals"]
