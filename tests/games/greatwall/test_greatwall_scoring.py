"""The scoring check (GW-4) and the rulebook's examples of scoring."""

from __future__ import annotations

import pytest

from tianxia.core import CHANCE, IllegalActionError
from tianxia.games.greatwall.position import position
from tianxia.games.greatwall.search import WIN_FEATURES, win_features
from tianxia.games.greatwall.state import GreatWallState

LEAD = WIN_FEATURES.index("tile_leads")


def totals(s: GreatWallState, section: int = 0) -> list[int]:
    return list(s.observation(None)["sections"][section]["totals"])


def legal(s: GreatWallState) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def refused(s: GreatWallState, text: str) -> tuple[str, str]:
    with pytest.raises(IllegalActionError) as err:
        s.apply(text)
    return err.value.rule, err.value.reason


# --- the rulebook's examples ----------------------------------------------------------
def test_example_noble_turns_red_5_yellow_3_into_2_against_3() -> None:
    # Red (seat 0) tower + gate = 5, yellow (seat 1) wall + gate = 3; yellow adds the noble.
    s = position(2, ["0:tower 0:gate 1:wall 1:gate | 5 3", "| 2 4"], seat=1, hands={1: "noble"})
    assert totals(s) == [5, 3]
    s = s.apply("play noble A")
    assert totals(s) == [2, 3]


def test_example_warriors_yellow_4_against_brown_6() -> None:
    # Yellow: watchtower + one warrior; brown: three warriors = 1 + 2 + 3.
    s = position(2, ["0:tower 0:warrior 1:warrior 1:warrior 1:warrior | 5 3", "| 2 4"], seat=0)
    assert totals(s) == [4, 6]


def test_example_dragon_turns_blue_3_green_2_into_2_against_4() -> None:
    # Under blue's noble every card counts 1; green's dragon covers the noble.
    s = position(
        2, ["0:noble 1:gate 0:wall 1:wall 0:wall | 5 3", "| 2 4"], seat=1, hands={1: "dragon"}
    )
    assert totals(s) == [3, 2]
    s = s.apply("dragon on A1")
    assert totals(s) == [2, 4]


def test_example_second_tile_with_no_other_player_present() -> None:
    # Red alone in the section, his total 1 - 5 = -4: he still takes the second tile.
    s = position(2, ["0:wall*5 | 3", "1:gate | 2 4"], seat=0)
    assert s.current_player() == CHANCE  # the take was automatic; new tiles are revealed
    assert s.observation(None)["players"][0]["won"] == [3, 5]
    assert s.observation(None)["sections"][0]["cards"] == []


def test_example_after_a_scoring_the_tile_lowers_the_total() -> None:
    s = position(2, ["0:tower 0:gate 1:gate | 5 3", "| 2 4"], seat=0)
    s = s.apply("lay 3 on A1")
    assert totals(s) == [2, 2]


# --- GW-4.1 -----------------------------------------------------------------------------
def test_gw_4_1_only_a_strictly_higher_total_scores() -> None:
    s = position(2, ["0:gate 1:gate | 5 3", "| 2 4"], hands={0: "wall"})
    assert s.observation(None)["phase"] == "actions"
    rule, reason = refused(s, "lay 5 on A1")
    assert rule == "GW-4.1" and "only in the scoring check" in reason
    s = position(2, ["0:gate 1:wall | 5 3", "| 2 4"], hands={0: "wall"})
    assert s.observation(None)["phase"] == "scoring"


def test_gw_4_1_the_check_is_made_at_the_start_of_the_own_turn() -> None:
    # Seat 0 takes the lead during its turn: it scores only on its next turn.
    s = position(2, ["1:gate | 5 3", "| 2 4"], hands={0: "tower"}, decks={1: "wall"})
    s = s.apply("play tower A").apply("draw").apply("deal wall")
    assert s.current_player() == 1 and totals(s) == [3, 2]
    assert s.observation(None)["phase"] == "actions"


def test_gw_4_1_reason_names_the_totals() -> None:
    s = position(3, ["0:gate 1:tower | 5 3", "0:gate 2:wall | 2 4", "| 1 7"])
    assert legal(s) == ["lay 2 on B1", "lay 4 on B1"]
    assert refused(s, "lay 5 on A1") == ("GW-4.1", "P1 does not lead in section A: 2 against 3")


# --- GW-4.2 -----------------------------------------------------------------------------
def test_gw_4_2_two_tiles_choose_one_and_a_card_of_ones_own() -> None:
    s = position(2, ["0:gate 1:wall 0:wall | 5 3", "| 2 4"])
    assert legal(s) == ["lay 3 on A1", "lay 3 on A3", "lay 5 on A1", "lay 5 on A3"]
    assert refused(s, "lay 5 on A2")[0] == "GW-4.2"
    assert refused(s, "lay 7 on A1")[0] == "GW-4.2"
    assert refused(s, "take A")[0] == "GW-4.2"
    s = s.apply("lay 5 on A3")
    obs = s.observation(None)["sections"][0]
    assert obs["tiles"] == [3] and obs["placed"] == {"value": 5, "card": 3}
    assert totals(s) == [-2, 1]


def test_gw_4_2_a_covered_card_cannot_take_the_tile() -> None:
    s = position(2, ["0:wall/1:dragon 0:tower 1:wall | 5 3", "| 2 4"])
    assert legal(s) == ["lay 3 on A2", "lay 5 on A2"]


def test_gw_4_2_equal_tiles_are_one_choice() -> None:
    s = position(3, ["0:gate 0:wall 1:wall | 4 4", "| 2 5", "| 1 7"])
    assert legal(s) == ["lay 4 on A1", "lay 4 on A2"]


def test_gw_4_2_one_choice_only_is_made_automatically() -> None:
    s = position(3, ["0:gate 1:wall | 4 4", "| 2 5", "| 1 7"], hands={0: "wall"})
    assert s.observation(None)["phase"] == "actions"
    assert s.observation(None)["sections"][0]["placed"] == {"value": 4, "card": 1}


# --- GW-4.3 -----------------------------------------------------------------------------
def test_gw_4_3_second_tile_the_first_goes_to_its_cards_owner_and_the_cards_leave() -> None:
    before = position(2, ["0:gate*5 1:wall 0:wall | 3", "1:tower 0:tower | 2 4"], seat=0)
    assert totals(before) == [-2, 1]
    s = position(2, ["0:gate*5 1:wall 0:wall | 3", "1:tower 0:tower | 2 4"], seat=1)
    assert s.current_player() == CHANCE
    obs = s.observation(None)
    assert obs["players"][1]["won"] == [3] and obs["players"][0]["won"] == [5]
    assert obs["players"][0]["gone"] == {"wall": 1, "gate": 1}
    assert obs["players"][1]["gone"] == {"wall": 1}
    assert obs["sections"][0] == {
        "name": "A", "open": True, "tiles": [], "placed": None, "cards": [], "totals": [0, 0]
    }  # fmt: skip
    s = s.apply("reveal 8").apply("reveal 1")
    assert s.observation(None)["sections"][0]["tiles"] == [8, 1]
    assert s.current_player() == 1


def test_gw_4_3_the_same_player_may_win_both_tiles() -> None:
    s = position(2, ["0:tower*1 1:wall | 3", "1:tower | 2 4"], seat=0)
    assert s.observation(None)["players"][0]["won"] == [3, 1]


def test_gw_4_3_section_closes_when_the_tiles_run_out() -> None:
    s = position(2, ["0:gate*5 | 3", "1:tower | 2 4"], bag={}, hands={0: "wall"})
    obs = s.observation(None)
    assert obs["sections"][0]["open"] is False
    assert s.current_player() == 0 and obs["phase"] == "actions"
    assert "play wall A" not in legal(s) and "play wall B" in legal(s)


# --- GW-4.4 -----------------------------------------------------------------------------
def test_gw_4_4_another_players_card_even_covered_blocks_the_lone_claim() -> None:
    s = position(2, ["0:wall*5 1:wall/0:dragon | 3", "| 2 4"], seat=0, hands={0: "wall"})
    assert totals(s) == [-3, 0]
    assert s.observation(None)["phase"] == "actions"


# --- ruling R12: a seat without cards counts 0 ---------------------------------------
# P2 holds the first tile on his wall and has his dragon on P1's wall: P2 stands at
# 1 + 1 - 4 = -2, P1 (all his cards covered) at 0.
CROWDED = "1:wall*4 0:wall/1:dragon | 3"


def test_r12_with_three_players_a_seat_without_cards_counts_0() -> None:
    s = position(3, [CROWDED, "| 2 4", "| 1 7"], seat=0, hands={0: "wall"})
    assert totals(s) == [0, -2, 0]
    # P3 built nothing in A, yet counts 0 there: P1's 0 is no lead.
    assert s.observation(None)["phase"] == "actions"
    assert s.observation(None)["sections"][0]["tiles"] == [3]
    assert s.observation(None)["players"][0]["won"] == []
    # Once cards have stopped, no seat can score anywhere: a stalemate ends the game.
    s = position(3, [CROWDED, "| 2 4", "| 1 7"], seat=0, stopped=True)
    assert s.is_terminal()


def test_r12_the_same_position_with_two_players_is_a_lead() -> None:
    s = position(2, [CROWDED, "| 2 4"], seat=0)
    assert s.observation(None)["players"][0]["won"] == [3]
    assert s.observation(None)["players"][1]["won"] == [4]


def test_r12_the_refusal_names_the_seat_that_counts_0() -> None:
    s = position(3, [CROWDED, "0:wall | 2 4", "| 1 7"], seat=0)
    assert legal(s) == ["lay 2 on B1", "lay 4 on B1"]
    assert refused(s, "take A") == (
        "GW-4.1",
        "P1 does not lead in section A: 0 against 0 (P3, without a card there, counts 0)",
    )


def test_r12_the_evaluation_hook_credits_only_a_real_lead() -> None:
    s = position(3, [CROWDED, "| 2 4", "| 1 7"], seat=0, hands={0: "wall"})
    assert win_features(s)[0][0][LEAD] == 0.0
    assert win_features(s)[0][1][LEAD] == 0.0
    assert s.heuristic_terms(0)["tile_leads"] == 0.0
    # Alone in a section a seat wins the second tile however low its total (GW-4.4).
    s = position(3, ["0:wall*5 | 3", "| 2 4", "| 1 7"], seat=1, hands={1: "wall"})
    assert win_features(s)[0][0][LEAD] == 3.0
    assert win_features(s)[0][1][LEAD] == 0.0


# --- GW-4.5 -----------------------------------------------------------------------------
def test_gw_4_5_several_sections_in_the_order_the_player_chooses() -> None:
    s = position(2, ["0:gate*4 | 5", "0:wall*2 | 3"], bag={7: 2, 8: 2})
    assert legal(s) == ["take A", "take B"]
    s = s.apply("take B")
    assert s.current_player() == CHANCE
    s = s.apply("reveal 7").apply("reveal 8")
    # the one choice left (A) is automatic, then new tiles follow there
    assert s.observation(None)["players"][0]["won"] == [3, 2, 5, 4]


def test_gw_4_5_a_section_scores_once_per_turn() -> None:
    s = position(2, ["0:gate | 5 3", "1:wall | 2 4"], hands={0: "wall"})
    assert legal(s) == ["lay 3 on A1", "lay 5 on A1"]
    s = s.apply("lay 5 on A1")
    assert s.observation(None)["phase"] == "actions"
    assert refused(s, "take A")[0] == "GW-4.1"


# --- GW-4.6 -----------------------------------------------------------------------------
def test_gw_4_6_no_card_in_the_section_no_tile() -> None:
    s = position(2, ["0:wall*5 | 3", "1:wall 0:wall | 2 4"], seat=1, hands={1: "wall"})
    assert totals(s) == [-4, 0]
    assert s.observation(None)["phase"] == "actions"
    rule, _ = refused(s, "take A")
    assert rule == "GW-4.1"
