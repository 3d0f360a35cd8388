"""Every example of the rulebook (Abacus Spiele, 2005), played on a built position.

Seats: Herman 0, Anne 1, Marc 2, Carl 3.
"""

from __future__ import annotations

import pytest

import tianxia
from tianxia.core import IllegalActionError
from tianxia.games.china import rules
from tianxia.games.china.position import play, position

HERMAN, ANNE, MARC, CARL = 0, 1, 2, 3


@pytest.fixture
def game() -> tianxia.Game:
    return tianxia.load_game("china", players=4)


@pytest.fixture
def fort_game() -> tianxia.Game:
    return tianxia.load_game("china", players=4, fortifications=True)


def test_herman_places_one_house_in_empty_wei_and_must_stop(game: tianxia.Game) -> None:
    s = position(game, hands=[{"violet": 1, "red": 2}, {}, {}, {}], display={"yellow": 4})
    s = play(s, "house Wei.1")
    # Wei held no piece at the start of the turn: one piece, then the refill.
    assert s.phase == "refill"
    with pytest.raises(IllegalActionError) as err:
        s.apply("house Wei.2")
    assert err.value.rule == "CH-3.2"
    assert "held no piece" in err.value.reason


def test_anne_places_two_in_wei_with_a_red_card_and_a_green_joker(game: tianxia.Game) -> None:
    s = position(
        game,
        houses={"Wei.1": HERMAN},
        hands=[{}, {"red": 1, "green": 2}, {}, {}],
        display={"yellow": 4},
        seat=ANNE,
    )
    s = play(s, "house Wei.2", "house Wei.3 joker green")
    assert s.houses[s.game.board.field_names.index("Wei.3")] == ANNE
    assert sum(s.hands[ANNE]) == 0 and s.to_take == 3 and s.phase == "refill"


def test_marc_with_three_yellow_cards(game: tianxia.Game) -> None:
    s = position(
        game,
        houses={"Qi.1": ANNE},
        hands=[{}, {}, {"yellow": 3}, {}],
        display={"red": 4},
        seat=MARC,
    )
    legal = {str(a) for a in s.legal_actions()}
    # two pieces in Qi, or in Qin, or the pair as a joker anywhere of another colour
    assert {"house Qi.2", "house Qin.1", "house Wei.1 joker yellow"} <= legal
    assert not any(a.endswith("joker yellow") and ("Qi." in a or "Qin." in a) for a in legal)
    two = play(s, "house Qi.2", "house Qi.3")
    assert two.phase == "refill" and two.hands[MARC][1] == 1
    with pytest.raises(IllegalActionError) as err:
        two.apply("house Qi.4")
    assert err.value.rule == "CH-3.2"
    with pytest.raises(IllegalActionError) as err:
        s.apply("house Qin.1 joker yellow")
    assert err.value.rule == "CH-3.4"


def test_chu_emissary_limit_of_four(game: tianxia.Game) -> None:
    s = position(
        game,
        houses={"Chu.1": ANNE, "Chu.2": ANNE, "Chu.3": ANNE, "Chu.4": ANNE, "Chu.5": MARC},
        emissaries={"Chu": [0, 1, 1, 0]},
        hands=[{"violet": 1, "orange": 2}, {}, {}, {}],
        display={"red": 4},
    )
    assert rules.emissary_limit(s, 0) == 4
    s = play(s, "emissary Chu", "emissary Chu joker orange")
    assert rules.emissaries_in(s, 0) == 4
    later = position(
        game,
        houses={"Chu.1": ANNE, "Chu.2": ANNE, "Chu.3": ANNE, "Chu.4": ANNE},
        emissaries={"Chu": [2, 1, 1, 0]},
        hands=[{}, {"violet": 1}, {}, {}],
        seat=ANNE,
    )
    with pytest.raises(IllegalActionError) as err:
        later.apply("emissary Chu")
    assert err.value.rule == "CH-4.2"
    assert "limit in Chu is 4" in err.value.reason


def test_qin_with_two_tied_majorities_allows_two_emissaries(game: tianxia.Game) -> None:
    s = position(
        game,
        houses={"Qin.1": ANNE, "Qin.2": ANNE, "Qin.3": CARL, "Qin.4": CARL},
        hands=[{"yellow": 3}, {}, {}, {}],
        display={"red": 4},
    )
    assert rules.emissary_limit(s, 1) == 2
    for pair in (
        ("emissary Qin", "emissary Qin"),
        ("house Qin.5", "house Qin.6"),
        ("house Qin.5", "emissary Qin"),
    ):
        after = play(s, *pair)
        assert after.phase == "refill"


def test_wei_scoring_seven_four_two() -> None:
    # Rulebook: Herman 4, Marc 2, Carl 1 houses score 7, 4 and 2.
    assert rules.rank_points([4, 0, 2, 1]) == [7, 0, 4, 2]


def test_wei_example_scored_when_the_last_field_fills(game: tianxia.Game) -> None:
    # Herman (green) 4, Marc (red) 2, Carl (blue) 1: Carl's house fills Wei's last field.
    s = position(
        game,
        houses={
            "Wei.1": HERMAN,
            "Wei.2": HERMAN,
            "Wei.3": HERMAN,
            "Wei.4": HERMAN,
            "Wei.5": MARC,
            "Wei.6": MARC,
        },
        hands=[{}, {}, {}, {"red": 1}],
        display={"yellow": 4},
        seat=CARL,
    )
    wei = game.board.province_names.index("Wei")
    assert s.scored[wei] == 0
    s = play(s, "house Wei.7")
    assert s.points == (7, 0, 4, 2)
    assert s.scored[wei] == 1


@pytest.mark.parametrize("side", ["3-4", "4-5"])
def test_every_example_province_has_room_for_its_houses(side: str) -> None:
    g = tianxia.load_game("china", players=4, board=side)
    fields = dict(zip(g.board.province_names, map(len, g.board.province_fields)))
    # The houses each example of the rulebook shows in one province at one time.
    shown = {
        "Zhao": 3 + 2,  # red 3, yellow 2: at most 3 emissaries
        "Chu": 4,  # Anne's 4 houses set the emissary limit
        "Qin": 2 + 2 + 2,  # Anne 2, Carl 2, and then two more houses in one turn
        "Qi": 2 + 2 + 1,  # Marc 2, Anne 2, Carl 1 scoring 5, 5, 2
        "Shu": 1,  # Carl's chain ends in Shu
    }
    for name, houses in shown.items():
        assert fields[name] >= houses, name
    # The Wei example is a scoring of a province just filled: exactly its 7 houses.
    assert fields["Wei"] == 4 + 2 + 1
    # The road chain: 4 of Carl's houses in Qin and 1 in Shu, and a fifth house of his
    # in Qin on a branch, at Qin's lower left.
    assert fields["Qin"] >= 4 + 1
    qin = [
        g.board.field_xy[f] for f in g.board.province_fields[g.board.province_names.index("Qin")]
    ]
    branch = g.board.field_xy[g.board.field_names.index("Qin.7")]
    assert branch[0] == min(x for x, _ in qin) and branch[1] == max(y for _, y in qin)


def test_qi_scoring_five_five_two(game: tianxia.Game) -> None:
    assert rules.rank_points([0, 2, 2, 1]) == [0, 5, 5, 2]
    s = position(
        game,
        houses={"Qi.1": MARC, "Qi.2": MARC, "Qi.3": ANNE, "Qi.4": ANNE, "Qi.5": CARL},
    )
    houses, _, _ = rules.final_terms(s)
    assert houses == [0, 5, 5, 2]


def test_alliances_three_and_four(game: tianxia.Game) -> None:
    s = position(
        game,
        emissaries={"Wei": [0, 0, 1, 1], "Qin": [1, 0, 1, 2], "Shu": [0, 2, 0, 1]},
    )
    # Alliance 3 (Wei-Qin): Carl holds the majority in both and scores 2 + 4.
    # Alliance 4 (Qin-Shu): Carl leads Qin, Anne leads Shu: nobody scores.
    assert rules.alliance_points(s) == [0, 0, 0, 6]
    assert game.board.alliances[2] == (4, 1) and game.board.alliances[3] == (1, 7)


@pytest.mark.parametrize("side", ["3-4", "4-5"])
def test_road_chain_of_five_with_a_branch(side: str) -> None:
    game = tianxia.load_game("china", players=4, board=side)
    s = position(
        game,
        houses={
            "Qin.3": CARL,
            "Qin.4": CARL,
            "Qin.5": CARL,
            "Qin.6": CARL,
            "Shu.1": CARL,
            "Qin.7": CARL,
        },
    )
    # Qin.7 hangs on a branch off Qin.6: the longest unbroken road counts 5 houses.
    assert rules.chain_points(s, CARL) == 5


def test_herman_fortifies_qi_and_builds_on_it(fort_game: tianxia.Game) -> None:
    s = position(
        fort_game,
        houses={"Qi.1": MARC},
        hands=[{"yellow": 3}, {}, {}, {}],
        display={"red": 4},
    )
    s = play(s, "fortify Qi.2", "house Qi.2")
    f = fort_game.board.field_names.index("Qi.2")
    assert f in s.forts and s.houses[f] == HERMAN
    # one yellow card is left, but two pieces end the placing
    assert s.hands[HERMAN][1] == 1 and s.phase == "refill"
    with pytest.raises(IllegalActionError) as err:
        s.apply("house Qi.3")
    assert err.value.rule == "CH-3.2"
