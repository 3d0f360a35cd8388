"""A turn (GW-2) and what each card does (GW-3)."""

from __future__ import annotations

import pytest

from tianxia.core import CHANCE, IllegalActionError, NotationError
from tianxia.games.greatwall.position import position
from tianxia.games.greatwall.state import GreatWallState


def totals(s: GreatWallState, section: int = 0) -> list[int]:
    return list(s.observation(None)["sections"][section]["totals"])


def legal(s: GreatWallState) -> set[str]:
    return {str(a) for a in s.legal_actions()}


def refused(s: GreatWallState, text: str) -> str:
    with pytest.raises(IllegalActionError) as err:
        s.apply(text)
    return err.value.rule


def test_gw_2_1_the_scoring_check_comes_before_the_actions() -> None:
    s = position(2, ["0:gate 1:wall | 5 3", "| 2 4"], hands={0: "wall gate"})
    assert legal(s) == {"lay 3 on A1", "lay 5 on A1"}
    assert refused(s, "play wall B") == "GW-2.1"
    assert refused(s, "draw") == "GW-2.1"
    s = s.apply("lay 5 on A1")
    assert "play wall B" in legal(s)


def test_gw_2_2_one_card_or_several_identical_cards_to_one_section() -> None:
    s = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "wall wall wall gate warrior"})
    opts = legal(s)
    assert {"play wall A", "play 2 wall A", "play 3 wall A", "play gate B"} <= opts
    assert "play 4 wall A" not in opts
    assert refused(s, "play 2 gate A") == "GW-2.2"
    s = s.apply("play 3 wall A")
    cards = s.observation(None)["sections"][0]["cards"]
    assert cards == [[[1, "tower"]], [[0, "wall"]], [[0, "wall"]], [[0, "wall"]]]
    assert s.observation(0)["hand"] == {"gate": 1, "warrior": 1}


def test_gw_2_2_cards_go_to_the_right_end() -> None:
    s = position(2, ["1:tower 0:wall | 5 3", "| 2 4"], hands={0: "gate"})
    s = s.apply("play gate A")
    assert s.observation(None)["sections"][0]["cards"][-1] == [[0, "gate"]]


def test_gw_2_two_actions_then_the_next_player() -> None:
    s = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "wall gate"})
    s = s.apply("play wall A")
    assert s.current_player() == 0 and s.observation(None)["actions_done"] == 1
    s = s.apply("draw")
    assert s.current_player() == CHANCE
    s = s.apply("deal warrior")
    assert s.current_player() == 1
    assert s.observation(0)["hand"] == {"gate": 1, "warrior": 1}


def test_gw_2_3_no_draw_from_an_empty_deck() -> None:
    s = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "wall"}, decks={0: ""})
    assert "draw" not in legal(s)
    assert refused(s, "draw") == "GW-2.3"


def test_gw_2_4_pass_only_when_nothing_can_be_played_or_drawn() -> None:
    s = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "wall"})
    assert refused(s, "pass") == "GW-2.4"
    s = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "horseman"}, decks={0: ""})
    assert legal(s) == {"horseman A", "horseman B"}
    s = s.apply("horseman A")
    assert legal(s) == {"pass"}
    s = s.apply("pass").apply("pass")
    assert s.current_player() == 1


def test_gw_3_1_walls_gates_and_the_watchtower_count_1_2_3() -> None:
    s = position(2, ["0:wall 0:gate 1:tower | 5 3", "| 2 4"], seat=1, hands={1: "wall"})
    assert totals(s) == [3, 3]


def test_gw_3_2_noble_makes_every_card_count_1_even_those_played_later() -> None:
    s = position(2, ["0:tower 1:noble | 5 3", "| 2 4"], hands={0: "gate warrior"})
    assert totals(s) == [1, 1]
    s = s.apply("play gate A").apply("play warrior A")
    assert totals(s) == [3, 1]


def test_gw_3_3_warriors_of_one_colour_count_1_3_6_10_15() -> None:
    for n, total in enumerate((1, 3, 6, 10, 15), start=1):
        s = position(2, [" ".join(["0:warrior"] * n) + " | 5 3", "| 2 4"], seat=1)
        assert totals(s)[0] == total


def test_gw_3_3_warriors_count_per_colour_and_covered_ones_drop_out() -> None:
    s = position(2, ["0:warrior 1:warrior 0:warrior 1:warrior | 5 3", "| 2 4"], seat=1)
    assert totals(s) == [3, 3]
    s = position(2, ["0:warrior/1:dragon 0:warrior 0:warrior | 5 3", "| 2 4"], seat=1)
    assert totals(s) == [3, 1]


def test_gw_3_3_warriors_under_a_noble_count_1_each() -> None:
    s = position(2, ["0:warrior 0:warrior 0:warrior 1:noble | 5 3", "| 2 4"], seat=1)
    assert totals(s) == [3, 1]


def test_gw_3_4_horsemen_are_free_and_several_go_anywhere_in_one_window() -> None:
    s = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "horseman horseman wall"})
    s = s.apply("horseman A").apply("horseman B")
    obs = s.observation(None)
    assert obs["actions_done"] == 0
    assert totals(s, 0) == [2, 3] and totals(s, 1) == [2, 0]


def test_gw_3_4_horsemen_after_action_two_but_never_after_action_three() -> None:
    s = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "horseman wall wall"})
    s = s.apply("play wall A")
    assert "horseman B" in legal(s)
    s = s.apply("play wall B")
    assert s.current_player() == 1


def test_gw_3_4_no_horseman_during_the_scoring_check_nor_as_an_action() -> None:
    s = position(2, ["0:gate 1:wall | 5 3", "| 2 4"], hands={0: "horseman"})
    assert refused(s, "horseman B") == "GW-2.1"
    with pytest.raises(NotationError):
        s.apply("play horseman B")
    s = s.apply("lay 5 on A1")
    s = s.apply("horseman B")
    assert s.observation(0)["hand"] == {}
    s = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "wall"})
    assert refused(s, "horseman A") == "GW-3.4"


def test_gw_3_5_dragon_covers_a_card_which_then_counts_nothing() -> None:
    s = position(2, ["1:tower 1:gate | 5 3", "| 2 4"], hands={0: "dragon"})
    assert {"dragon on A1", "dragon on A2", "play dragon A", "play dragon B"} <= legal(s)
    s = s.apply("dragon on A1")
    assert totals(s) == [1, 2]
    cards = s.observation(None)["sections"][0]["cards"]
    assert cards[0] == [[1, "tower"], [0, "dragon"]]


def test_gw_3_5_dragon_on_a_dragon_and_on_own_cards() -> None:
    s = position(3, ["0:wall 1:tower/2:dragon | 5 3", "| 2 4", "| 1 7"], hands={0: "dragon"})
    assert {"dragon on A1", "dragon on A2"} <= legal(s)
    s = s.apply("dragon on A2")
    assert totals(s) == [2, 0, 0]


def test_gw_3_5_covered_noble_loses_its_effect() -> None:
    s = position(2, ["1:noble 1:tower | 5 3", "| 2 4"], hands={0: "dragon"})
    assert totals(s) == [0, 2]
    s = s.apply("dragon on A1")
    assert totals(s) == [1, 3]


def test_gw_3_5_no_dragon_on_a_card_bearing_a_fame_tile() -> None:
    s = position(2, ["1:tower*2 1:gate 1:gate 0:gate | 3", "| 2 4"], hands={0: "dragon"})
    assert "dragon on A1" not in legal(s)
    assert refused(s, "dragon on A1") == "GW-3.5"
    assert refused(s, "dragon on A9") == "GW-3.5"
    s = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "wall"})
    assert refused(s, "dragon on A1") == "GW-3.5"


def test_gw_3_6_a_tile_on_a_card_lowers_its_owners_total() -> None:
    s = position(2, ["0:tower*2 0:gate 1:gate | 5", "| 2 4"], seat=1, hands={1: "wall"})
    assert totals(s) == [3, 2]


def test_gw_1_1_no_section_beyond_the_player_count() -> None:
    s = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "wall"})
    with pytest.raises(NotationError):
        s.apply("play wall C")
