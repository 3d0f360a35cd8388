"""One or more tests per rule of docs/rules/silkroad.md; positions are built directly."""

from __future__ import annotations

import random

import pytest

import tianxia
from tianxia.core import CHANCE, TERMINAL, IllegalActionError
from tianxia.games.silkroad.actions import (
    CallBazaar,
    Carry,
    Draw,
    Drop,
    Give,
    Lay,
    Miles,
    Pick,
    Play,
    Start,
    Wait,
)
from tianxia.games.silkroad.game import SilkroadGame
from tianxia.games.silkroad.position import card, position
from tianxia.games.silkroad.rules import CARRY, DRAW, END, MILES, PICK, PLACE, TURN
from tianxia.games.silkroad.state import SilkroadState


def game(n: int) -> SilkroadGame:
    g = tianxia.load_game("silkroad", players=n)
    assert isinstance(g, SilkroadGame)
    return g


G2, G3, G4 = game(2), game(3), game(4)


def c(key: str, g: SilkroadGame = G4) -> int:
    return card(g, key)


def refused(s: SilkroadState, action: object, rule: str) -> None:
    before = s.to_json()
    with pytest.raises(IllegalActionError) as err:
        s.apply(action)  # type: ignore[arg-type]
    assert err.value.rule == rule, err.value.reason
    assert s.to_json() == before


def st(x: object) -> SilkroadState:
    assert isinstance(x, SilkroadState)
    return x


# --- SR-1: setup -------------------------------------------------------------


def deal(g: SilkroadGame, seed: int = 3) -> SilkroadState:
    s = g.new_initial_state()
    rng = random.Random(seed)
    while s.current_player() == CHANCE:
        outcomes = s.chance_outcomes()
        assert all(a != Draw(-1) for a, _ in outcomes), "no bazaar card is dealt"
        s = st(s.apply(rng.choice([a for a, _ in outcomes])))
    return s


@pytest.mark.parametrize("n", range(2, 8))
def test_setup_deals_three_movement_cards_each_then_shuffles_in_the_spare_bazaars(n: int) -> None:
    g = game(n)
    s = deal(g)
    assert [len(h) for h in s.hands] == [3] * n
    assert s.phase == PLACE
    each = 2 if n <= 3 else 1
    assert s.bazaar_cards == (each,) * n
    assert s.deck_bazaars == 7 - each * n
    assert sum(s.deck) == 48 - 3 * n


def test_setup_silver_10_bazaar_marker_1_milestone_first_city_and_wind_rose() -> None:
    s = deal(G4)
    assert s.silver == (10,) * 4 and s.marker == 1
    obs = s.observation(None)
    assert obs["milestone"] == "Samarkand"
    assert obs["wind_rose"] == ["white", "yellow"]  # the start player and his left neighbour


@pytest.mark.parametrize(("n", "each"), [(2, 3), (3, 2), (4, 1), (7, 1)])
def test_trading_companies_for_two_and_three_players(n: int, each: int) -> None:
    g = game(n)
    assert g.merchants == n * each
    assert all(len(ms) == each for ms in g.merchants_of)


def test_merchants_are_placed_on_start_fields_in_turn_order() -> None:
    s = deal(G2)
    seats = []
    for field in (0, 1, 2, 2, 1, 0):
        seats.append(s.current_player())
        s = st(s.apply(Start(field)))
    assert seats == [0, 1, 0, 1, 0, 1]
    assert s.pos == (-2, -1, 0, 0, -1, -2)
    assert s.phase == TURN and s.current_player() == 0
    refused(s, Start(0), "SR-1.6")


# --- SR-2, SR-3: turns and option A -------------------------------------------


def test_play_lays_the_card_before_you_moves_your_merchant_and_draws() -> None:
    s = position(G4, [5, 3, 3, 0], hands=[[c("caravan-5"), c("caravan-3"), c("oasis")], [], [], []])
    s = st(s.apply(Play(c("caravan-5"), 0)))
    assert s.pos[0] == 10
    assert s.displays[0] == (c("caravan-5"),)
    assert s.phase == DRAW and s.current_player() == CHANCE
    s = st(s.apply(Draw(c("caravan-8"))))
    assert len(s.hands[0]) == 3 and s.phase == TURN and s.turn_seat == 1


def test_a_drawn_bazaar_card_is_set_aside_advances_the_marker_and_is_replaced() -> None:
    s = position(G4, [5, 3, 3, 0], hands=[[c("caravan-5")], [], [], []])
    s = st(s.apply(Play(c("caravan-5"), 0)))
    probs = dict(s.chance_outcomes())
    assert probs[Draw(-1)] == pytest.approx(3 / (48 - 1 + 3))
    s = st(s.apply(Draw(-1)))
    assert s.marker == 2 and s.deck_bazaars == 2 and s.hands[0] == ()
    assert s.phase == DRAW
    s = st(s.apply(Draw(c("caravan-3"))))
    s = st(s.apply(Draw(c("caravan-4"))))
    s = st(s.apply(Draw(c("caravan-4"))))
    assert len(s.hands[0]) == 3 and s.phase == TURN


def test_no_card_is_played_for_a_merchant_of_another_player() -> None:
    s = position(G4, [5, 3, 3, 0], hands=[[c("caravan-5")], [], [], []])
    refused(s, Play(c("caravan-5"), 1), "SR-3.1")
    refused(s, Play(c("caravan-4"), 0), "SR-3.1")


def test_option_a_is_closed_with_three_cards_before_you() -> None:
    three = [c("caravan-3"), c("caravan-3"), c("caravan-4")]
    s = position(
        G4, [5, 3, 3, 0], hands=[[c("caravan-5")], [], [], []], displays=[three, [], [], []]
    )
    refused(s, Play(c("caravan-5"), 0), "SR-3.2")
    assert all(isinstance(a, Give | CallBazaar) for a in s.legal_actions())


def test_an_empty_pile_takes_the_discard_pile_and_later_stops_drawing() -> None:
    k = len(G4.data.cards)
    discard = [0] * k
    discard[c("caravan-3")] = 2
    s = position(G4, [5, 3, 3, 0], hands=[[c("caravan-5")], [], [], []])
    s = s.replace(deck=(0,) * k, deck_bazaars=0, discard=tuple(discard))
    after = st(s.apply(Play(c("caravan-5"), 0)))
    assert after.phase == DRAW and after.reshuffles == 1
    assert after.deck[c("caravan-3")] == 2 and sum(after.discard) == 0
    spent = st(s.replace(reshuffles=4).apply(Play(c("caravan-5"), 0)))
    assert spent.phase == TURN and spent.hands[0] == () and spent.turn_seat == 1


def test_a_player_with_nothing_to_use_waits() -> None:
    s = position(G4, [5, 3, 3, 0], hands=[[], [c("caravan-3")], [], []], bazaar_cards=(0, 1, 1, 1))
    assert s.legal_actions() == (Wait(),)
    s = st(s.apply(Wait()))
    assert s.turn_seat == 1
    refused(s, Wait(), "SR-2.2")


# --- SR-4: option B and the wind rose -----------------------------------------


def test_give_goes_only_to_a_marked_merchant_that_is_not_yours() -> None:
    s = position(G4, [5, 3, 3, 0], displays=[[c("caravan-3")], [], [], []], turn=4)
    gives = [a for a in s.legal_actions() if isinstance(a, Give)]
    assert gives == [Give(c("caravan-3"), 1)]
    refused(s, Give(c("caravan-3"), 0), "SR-4.1")
    refused(s, Give(c("caravan-3"), 2), "SR-4.1")
    refused(s, Give(c("caravan-4"), 1), "SR-4.1")


def test_the_receiver_carries_it_out_chooses_the_alternative_and_the_card_is_discarded() -> None:
    gc = c("great-caravan")
    s = position(G4, [10, 11, 13, 10], displays=[[], [], [gc], []], turn=6)
    s = st(s.apply(Give(gc, 0)))
    assert s.phase == CARRY and s.current_player() == 0
    assert s.legal_actions() == (Carry(1, ()), Carry(2, (1,)), Carry(2, (3,)), Carry(3, (1, 3)))
    s = st(s.apply(Carry(2, (3,))))
    assert s.pos == (14, 11, 13, 14)
    assert s.discard[gc] == 1 and s.displays[2] == ()
    assert s.phase == TURN and s.turn_seat == 3


def test_the_wind_rose_marker_moves_to_the_next_free_colour() -> None:
    c3, c4 = c("caravan-3"), c("caravan-4")
    s = position(G4, [5, 3, 3, 0], displays=[[], [], [c3], [c4]], turn=6)
    s = st(s.apply(Give(c3, 1)))
    assert s.rose == (0, 2)
    s = st(s.apply(Give(c4, 0)))  # 1 is free again, so the marker stops there
    assert s.rose == (1, 2)
    s2 = position(G4, [5, 3, 3, 0], displays=[[], [], [c3], []], turn=6)
    s2 = st(s2.apply(Give(c3, 0)))  # 1 is marked: skipped
    assert s2.rose == (2, 1)


def test_two_players_move_the_marker_to_their_next_own_colour() -> None:
    c3 = c("caravan-3", G2)
    s = position(G2, [5, 3, 3, 0, 1, 2], displays=[[c3], [c3]], turn=3)
    assert [a for a in s.legal_actions() if isinstance(a, Give)] == [Give(c3, 0)]
    s = st(s.apply(Give(c3, 0)))
    assert s.rose == (2, 1)
    s = st(s.apply(Give(c3, 1)))
    assert s.rose == (2, 3)


def test_three_players_with_both_own_colours_marked_may_choose_any_foreign_merchant() -> None:
    c3 = c("caravan-3", G3)
    s = position(G3, [5, 3, 3, 0, 1, 2], displays=[[c3], [], []], turn=3, rose=(0, 3))
    gives = [a for a in s.legal_actions() if isinstance(a, Give)]
    assert gives == [Give(c3, m) for m in (1, 2, 4, 5)]
    s = st(s.apply(Give(c3, 4)))
    assert s.pos[4] == 4 and s.rose == (0, 3)


# --- SR-5: special rules --------------------------------------------------------


def test_a_move_of_more_than_10_forward_is_cut_to_10() -> None:
    tw = c("tailwind")
    s = position(G4, [0, 20, 20, 30], hands=[[tw], [], [], []])
    s = st(s.apply(Play(tw, 0)))
    assert s.pos[0] == 10


def test_a_card_moving_more_than_10_back_cannot_be_played() -> None:
    lw = c("lost-way")
    s = position(G4, [25, 14, 20, 30], hands=[[lw, c("caravan-3")], [], [], []])
    refused(s, Play(lw, 0), "SR-5.1")
    ok = position(G4, [24, 14, 20, 30], hands=[[lw], [], [], []])
    assert st(ok.apply(Play(lw, 0))).pos[0] == 14


def test_only_cards_that_move_someone_may_be_played() -> None:
    s = position(G4, [0, 20, 20, 30], hands=[[], [c("tailwind")], [], [c("oasis"), c("caravan-3")]])
    refused(s.replace(turn=5), Play(c("tailwind"), 1), "SR-5.2")
    refused(s.replace(turn=7), Play(c("oasis"), 3), "SR-5.2")
    assert st(s.replace(turn=7).apply(Play(c("caravan-3"), 3))).pos[3] == 33


def test_dead_card_exception_lay_a_dead_card_when_nothing_moves_anyone() -> None:
    oasis, tw, lw = c("oasis"), c("tailwind"), c("lost-way")
    s = position(G4, [30, 30, 10, 10], hands=[[oasis, tw, lw], [], [], []], turn=0)
    assert s.legal_actions() == (Lay(oasis), Lay(lw), Lay(tw))
    s = st(s.apply(Lay(tw)))
    assert s.displays[0] == (tw,) and s.pos == (30, 30, 10, 10) and s.phase == DRAW
    live = position(G4, [30, 30, 10, 10], hands=[[oasis, c("caravan-3")], [], [], []], turn=0)
    refused(live, Lay(oasis), "SR-5.3")


def test_dead_card_exception_give_up_a_card_before_you_when_three_lie_there() -> None:
    oasis, tw, lw = c("oasis"), c("tailwind"), c("lost-way")
    s = position(
        G4,
        [30, 30, 10, 10],
        hands=[[oasis, lw], [], [], []],
        displays=[[oasis, tw, tw], [], [], []],
        turn=0,
    )
    assert s.legal_actions() == (Drop(oasis), Drop(tw))
    s = st(s.apply(Drop(tw)))
    assert s.displays[0] == (oasis, tw) and s.discard[tw] == 1 and s.turn_seat == 1


def test_group_moves_need_a_connected_group_containing_the_merchant() -> None:
    gc = c("great-caravan")
    s = position(G4, [10, 11, 13, 10], hands=[[gc], [], [], []])
    s = st(s.apply(Play(gc, 0)))
    assert s.phase == CARRY and s.current_player() == 0
    refused(s, Carry(2, (2,)), "SR-5.4")
    refused(s, Carry(3, (1, 2)), "SR-5.4")
    s = st(s.apply(Carry(3, (1, 3))))
    assert s.pos == (13, 14, 13, 13)


def test_ties_for_the_foremost_are_decided_by_the_cards_player() -> None:
    ss = c("sandstorm-3")
    s = position(G4, [10, 20, 20, 5], hands=[[ss], [], [], []])
    s = st(s.apply(Play(ss, 0)))
    assert s.phase == PICK and s.current_player() == 0 and s.pos[0] == 13
    assert s.legal_actions() == (Pick(1), Pick(2))
    refused(s, Pick(0), "SR-5.5")
    s = st(s.apply(Pick(2)))
    assert s.pos == (13, 20, 17, 5)
    # Passed on: the passer, not the receiver, settles the tie.
    b = position(G4, [10, 20, 20, 5], displays=[[], [], [ss], []], turn=6)
    b = st(b.apply(Give(ss, 0)))
    assert b.phase == PICK and b.current_player() == 2


def test_a_foreign_merchant_is_one_of_another_company() -> None:
    rb = c("robbers", G2)
    s = position(G2, [10, 12, 14, 16, 18, -2], displays=[[], [rb]], turn=3)
    s = st(s.apply(Give(rb, 0)))
    assert s.phase == PICK and s.current_player() == 0
    assert s.legal_actions() == (Pick(1), Pick(3))  # 5 stands on start field A: it cannot go back
    s = st(s.apply(Pick(3)))
    assert s.pos[3] == 13


# --- SR-6: bazaars --------------------------------------------------------------


def test_no_bazaar_in_the_first_round() -> None:
    s = position(G4, [5, 3, 3, 0], hands=[[], [], [c("caravan-3")], []], turn=2)
    assert CallBazaar() not in s.legal_actions()
    refused(s, CallBazaar(), "SR-6.1")
    assert CallBazaar() in s.replace(turn=6).legal_actions()


def test_a_bazaar_pays_the_three_foremost_then_moves_the_caller() -> None:
    s = position(G4, [10, 20, 19, 5], milestone=1)
    s = st(s.apply(CallBazaar()))
    assert s.silver == (12, 18, 14, 10)
    assert s.pos[0] == 16 and s.marker == 2 and s.bazaar_cards[0] == 0
    refused(s.replace(turn=8), CallBazaar(), "SR-6.1")


def test_shared_places_share_the_average_rounded_down() -> None:
    s = st(position(G4, [10, 20, 20, 5], milestone=1).apply(CallBazaar()))
    assert s.silver == (12, 16, 16, 10)  # (8 + 4) // 2 each, then 2
    s = st(position(G4, [30, 20, 20, 20], milestone=2).apply(CallBazaar()))
    assert s.silver == (18, 12, 12, 12)  # (4 + 2 + 0) // 3 each


def test_later_bazaars_can_move_the_caller_back() -> None:
    s = st(position(G4, [10, 20, 19, 5], milestone=1, marker=6).apply(CallBazaar()))
    assert s.pos[0] == 8 and s.silver == (17, 30, 22, 10)


# --- SR-7: cities ----------------------------------------------------------------


def test_the_first_to_reach_the_milestone_city_triggers_payment_by_position() -> None:
    s = position(G4, [14, 12, 5, 10], hands=[[c("caravan-3")], [], [], []])
    s = st(s.apply(Play(c("caravan-3"), 0)))
    assert s.silver == (20, 13, 10, 11)
    assert s.milestone == 1 and s.observation(None)["milestone"] == "Buchara"
    s = st(s.apply(Draw(c("caravan-4"))))
    assert s.silver == (20, 13, 10, 11), "a city pays only once"


# --- SR-8: companies ---------------------------------------------------------------


def test_a_company_is_paid_when_all_its_merchants_arrived_for_its_worst() -> None:
    c3 = c("caravan-3", G3)
    s = position(G3, [20, 17, 15, 14, 13, 10], hands=[[c3], [], []])
    assert s.milestone == 0
    s = st(s.apply(Play(c3, 3)))
    assert s.pos[3] == 17
    assert s.silver == (20, 14, 11)


def test_a_company_calls_two_bazaars_but_not_two_in_a_row() -> None:
    s = position(G2, [5, 3, 3, 0, 1, 2], hands=[[c("caravan-3", G2)], []], turn=2)
    s = st(s.apply(CallBazaar()))
    assert s.phase == MILES and s.remaining == 6 and s.current_player() == 0
    legal = s.legal_actions()
    assert Miles(0, 6) in legal and Miles(2, 1) in legal and Miles(1, 1) not in legal
    refused(s, Miles(0, 7), "SR-8.3")
    s = st(s.apply(Miles(2, 4)))
    s = st(s.apply(Miles(4, 2)))
    assert s.pos == (5, 3, 7, 0, 3, 2) and s.phase == TURN
    again = s.replace(turn=4)
    assert again.bazaar_cards[0] == 1
    refused(again, CallBazaar(), "SR-8.3")
    assert CallBazaar() in again.replace(marker=3).legal_actions()


def test_venice_pays_every_merchant_of_a_company() -> None:
    c3 = c("caravan-3", G2)
    s = position(G2, [78, 79, 70, 60, 75, 77], hands=[[c3], []], milestone=4)
    s = st(s.apply(Play(c3, 0)))
    assert s.phase == END and s.current_player() == TERMINAL
    assert s.silver == (10 + 20 + 2 + 7 - 1, 10 + 14 + 0 + 10)


# --- SR-9: the end ---------------------------------------------------------------


def test_reaching_venice_ends_pays_by_position_and_charges_cards_before_players() -> None:
    c3, c4, c5 = c("caravan-3"), c("caravan-4"), c("caravan-5")
    s = position(
        G4,
        [75, 70, 79, 60],
        hands=[[c5], [], [], []],
        displays=[[], [c3, c4], [c3, c3, c4], []],
        milestone=4,
    )
    s = st(s.apply(Play(c5, 0)))
    assert s.ended == "venice" and s.is_terminal() and s.legal_actions() == ()
    assert s.silver == (29, 9, 18, 10)
    assert s.returns() == pytest.approx([1.0, -1 / 3, -1 / 3, -1 / 3])
    assert s.bazaar_cards == (1, 1, 1, 1), "bazaar cards do not count"
    refused(s, Wait(), "ENGINE-1")


def test_the_journey_ends_when_nobody_can_use_a_card_or_bazaar() -> None:
    c3 = c("caravan-3")
    s = position(G4, [5, 3, 3, 0], displays=[[c3], [], [], []], bazaar_cards=(0, 0, 0, 0), turn=4)
    s = st(s.apply(Give(c3, 1)))
    assert s.ended == "stall" and s.is_terminal()
    assert s.silver == (10, 10, 10, 10) and s.returns() == [0.0] * 4


def test_silver_never_drops_below_zero() -> None:
    s = position(G4, [5, 3, 3, 0], hands=[[c("bandits")], [], [], []], silver=(1, 10, 10, 10))
    s = st(s.apply(Play(c("bandits"), 0)))
    assert s.silver[0] == 0 and s.pos[0] == 3


def test_winners_share_and_returns_sum_to_zero() -> None:
    s = position(G4, [5, 3, 3, 0], phase=END, silver=(30, 30, 5, 1))
    assert s.returns() == pytest.approx([0.5, 0.5, -0.5, -0.5])


def test_common_mistakes_name_their_rule() -> None:
    c3 = c("caravan-3")
    s = position(G4, [5, 3, 3, 0], hands=[[c3], [], [], []], bazaar_cards=(0, 1, 1, 1))
    refused(s, CallBazaar(), "SR-6.1")  # no bazaar card left
    refused(s, Lay(c3), "SR-5.3")  # a live card cannot be laid dead
    refused(s, Drop(c3), "SR-5.3")  # not lying before you
    refused(s, Carry(1, ()), "SR-4.2")  # nothing to carry out
    refused(s, Pick(1), "SR-5.5")
    refused(s, Miles(0, 1), "SR-8.3")
    refused(s, Draw(c3), "SR-3.3")
    gc = c("great-caravan")
    carrying = st(position(G4, [10, 11, 13, 10], hands=[[gc], [], [], []]).apply(Play(gc, 0)))
    refused(carrying, Play(c3, 0), "SR-4.2")  # the card must be carried out first
    refused(carrying, Carry(2, (0,)), "SR-5.4")  # the carrier is no companion of himself
    assert "legal: carries out alternative III" in carrying.explain(Carry(3, (1, 3)))
