"""Setting up (GW-1): sections, tiles face up, the two-player pair rule, the deal."""

from __future__ import annotations

import pytest

import tianxia
from tianxia.core import CHANCE, IllegalActionError
from tianxia.games.greatwall.actions import Deal, Reveal
from tianxia.games.greatwall.data import KINDS
from tianxia.games.greatwall.position import position
from tianxia.games.greatwall.state import GreatWallState


def reveal_all(s: GreatWallState, values: list[int]) -> GreatWallState:
    for v in values:
        s = s.apply(Reveal(v))  # type: ignore[assignment]
    return s


def deal_all(s: GreatWallState) -> GreatWallState:
    while s.current_player() == CHANCE:
        s = s.apply(s.legal_actions()[0])  # type: ignore[assignment]
    return s


@pytest.mark.parametrize(("players", "sections"), [(2, 2), (3, 3), (4, 4), (5, 4)])
def test_gw_1_1_sections_by_player_count(players: int, sections: int) -> None:
    s = tianxia.load_game("greatwall", players=players).new_initial_state()
    assert len(s.observation(None)["sections"]) == sections


def test_gw_1_2_the_first_reveal_draws_from_the_whole_bag() -> None:
    s = tianxia.load_game("greatwall", players=3).new_initial_state()
    assert s.current_player() == CHANCE
    probs = {str(a): p for a, p in s.chance_outcomes()}
    assert probs == pytest.approx(
        {"reveal 1": 2 / 36, "reveal 2": 6 / 36, "reveal 3": 7 / 36, "reveal 4": 7 / 36,
         "reveal 5": 8 / 36, "reveal 7": 4 / 36, "reveal 8": 2 / 36}
    )  # fmt: skip


def test_gw_1_3_two_tiles_face_up_per_section() -> None:
    s = tianxia.load_game("greatwall", players=3).new_initial_state()
    s = reveal_all(s, [5, 5, 2, 7, 8, 1])
    obs = s.observation(None)
    assert [sec["tiles"] for sec in obs["sections"]] == [[5, 5], [2, 7], [8, 1]]
    assert obs["bag_size"] == 30


def test_gw_1_3_two_players_box_an_equal_pair_and_draw_again() -> None:
    s = tianxia.load_game("greatwall", players=2).new_initial_state()
    s = reveal_all(s, [4, 4])
    obs = s.observation(None)
    assert obs["sections"][0]["tiles"] == []
    assert obs["boxed"] == {"4": 2}
    assert s.current_player() == CHANCE
    s = reveal_all(s, [4, 3, 2, 2, 8, 1])
    obs = s.observation(None)
    assert [sec["tiles"] for sec in obs["sections"]] == [[4, 3], [8, 1]]
    assert obs["boxed"] == {"4": 2, "2": 2}
    assert obs["bag_size"] == 36 - 8


def test_gw_1_3_equal_pair_rule_also_when_refilling() -> None:
    # Seat 0 is alone in A with its first tile laid: it takes the second one at once.
    s = position(2, ["0:gate*5 | 3", "1:wall | 2 4"], seat=0)
    assert s.current_player() == CHANCE
    s = reveal_all(s, [7, 7])
    assert s.observation(None)["boxed"] == {"7": 2}
    assert s.current_player() == CHANCE
    s = reveal_all(s, [7, 1])
    assert s.observation(None)["sections"][0]["tiles"] == [7, 1]


def test_gw_1_3_equal_pair_stays_with_three_players() -> None:
    s = tianxia.load_game("greatwall", players=3).new_initial_state()
    s = reveal_all(s, [4, 4])
    assert s.observation(None)["sections"][0]["tiles"] == [4, 4]


def test_gw_1_4_each_player_draws_five_from_his_own_shuffled_set() -> None:
    s = tianxia.load_game("greatwall", players=2).new_initial_state()
    s = reveal_all(s, [5, 3, 2, 4])
    first = dict((str(a), p) for a, p in s.chance_outcomes())
    assert first["deal wall"] == pytest.approx(7 / 20)
    assert first["deal dragon"] == pytest.approx(1 / 20)
    s = s.apply(Deal(KINDS.index("dragon")))  # type: ignore[assignment]
    assert "deal dragon" not in {str(a) for a in s.legal_actions()}
    s = deal_all(s)
    obs = s.observation(0)
    assert [p["hand_size"] for p in obs["players"]] == [5, 5]
    assert [p["deck_size"] for p in obs["players"]] == [15, 15]
    assert obs["hand"]["dragon"] == 1


def test_gw_1_5_seat_0_begins() -> None:
    s = tianxia.load_game("greatwall", players=4).new_initial_state()
    s = reveal_all(s, [5, 3, 2, 4, 1, 7, 8, 3])
    s = deal_all(s)
    assert s.current_player() == 0
    assert s.observation(None)["phase"] == "actions"


def test_gw_1_chance_outcomes_cannot_be_chosen_by_players() -> None:
    s = position(2, ["0:gate | 5 3", "| 2 4"], seat=1, hands={1: "wall"})
    with pytest.raises(IllegalActionError) as err:
        s.apply(Reveal(5))
    assert err.value.rule == "GW-1.3"
    with pytest.raises(IllegalActionError) as err:
        s.apply(Deal(0))
    assert err.value.rule == "GW-1.4"
