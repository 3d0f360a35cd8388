"""Hidden hands and deck: observations, resampling without peeking, round trips."""

from __future__ import annotations

import random

import tianxia
from tianxia.games.china.position import play, position
from tianxia.games.china.state import ChinaState


def g4() -> tianxia.Game:
    return tianxia.load_game("china", players=4)


def twins() -> tuple[ChinaState, ChinaState]:
    """Two positions seat 0 cannot tell apart: other hands and the deck differ."""
    game = g4()
    common = {"houses": {"Wei.1": 1}, "display": {"red": 4}}
    a = position(game, hands=[{"red": 3}, {"green": 3}, {"yellow": 3}, {"orange": 3}], **common)  # type: ignore[arg-type]
    b = position(
        game, hands=[{"red": 3}, {"violet": 3}, {"green": 2, "red": 1}, {"yellow": 3}], **common
    )  # type: ignore[arg-type]
    return a, b


def test_observation_shows_own_hand_only() -> None:
    a, b = twins()
    assert a.observation(0) == b.observation(0)
    assert a.observation(None) == b.observation(None)
    assert a.observation(1) != b.observation(1)
    assert a.observation(1)["hand"]["green"] == 3 and a.observation(1)["hand_sizes"] == [3] * 4
    assert "hands" not in a.observation(0)


def test_resample_never_peeks() -> None:
    a, b = twins()
    ra = a.resample_from_infostate(0, random.Random(5))
    rb = b.resample_from_infostate(0, random.Random(5))
    assert ra.to_json() == rb.to_json()
    assert ra.observation(0) == a.observation(0)


def test_resample_keeps_cards_known_to_be_in_a_hand() -> None:
    s = position(
        g4(),
        houses={"Wei.1": 1},
        hands=[{"red": 3}, {"violet": 1, "green": 2}, {}, {}],
        known=[{}, {"violet": 1}, {}, {}],
        display={"red": 4},
    )
    for seed in range(20):
        r = s.resample_from_infostate(0, random.Random(seed))
        assert isinstance(r, ChinaState)
        assert r.hands[1][0] >= 1 and sum(r.hands[1]) == 3 and r.hands[0] == s.hands[0]
        assert sum(r.deck) == sum(s.deck)


def test_cards_taken_from_the_display_become_known_until_played() -> None:
    s = position(
        g4(),
        houses={"Wei.1": 1},
        hands=[{"red": 2, "violet": 1}, {}, {}, {}],
        display={"red": 2, "green": 2},
    )
    s = play(s, "house Wei.2", "house Wei.3", "take green", "take green", "card red", "card red")
    assert s.observation(2)["known"][0]["green"] == 2
    later = position(
        g4(),
        hands=[{"green": 2, "red": 1}, {}, {}, {}],
        known=[{"green": 2}, {}, {}, {}],
        display={"red": 4},
    )
    later = play(later, "house Chu.1 joker green")
    assert later.observation(2)["known"][0]["green"] == 0


def test_every_action_id_and_notation_round_trip() -> None:
    for players, opts in ((3, {}), (5, {"fortifications": True})):
        game = tianxia.load_game("china", players=players, **opts)
        n = game.info.num_distinct_actions + game.info.max_chance_outcomes
        for i in range(n):
            a = game.action_from_id(i)
            assert game.action_id(a) == i
            assert game.parse_action_text(str(a)) == a
        assert game.info.num_distinct_actions < 20000


def test_heuristic_terms_are_game_aware() -> None:
    s = position(
        g4(),
        houses={"Wei.1": 0, "Wei.2": 0, "Wei.3": 1},
        emissaries={"Wei": [1, 0, 0, 0], "Zhao": [1, 0, 0, 0]},
        points=[3, 0, 0, 0],
    )
    terms = s.heuristic_terms(0)
    assert terms["points"] == 3 and terms["provinces"] == 3 and terms["alliances"] == 2
    assert s.heuristic(0) > 0 > s.heuristic(1)


def test_bad_saved_state_is_refused() -> None:
    game = g4()
    data = game.new_initial_state().to_json()
    data["hands"] = [[0, 0, 0, 0, 0]]
    try:
        game.state_from_json(data)
    except ValueError as e:
        assert str(e) == "hands: 4 entries"
    else:
        raise AssertionError("a state with one hand for four players was accepted")


def test_observation_tensor_has_the_declared_length_and_hides_hands() -> None:
    a, b = twins()
    size = a.game.observation_tensor_size()
    assert len(a.observation_tensor(0)) == size == len(a.observation_tensor(None))
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.observation_tensor(1) != b.observation_tensor(1)
    assert all(0.0 <= v <= 1.0 for v in a.observation_tensor(0))
    game = tianxia.load_game("china", players=5, fortifications=True)
    s = game.new_initial_state()
    assert len(s.observation_tensor(2)) == game.observation_tensor_size()


def test_resample_after_the_reshuffle_keeps_the_deck_inside_the_reshuffled_pile() -> None:
    game = g4()
    s = position(
        game,
        houses={"Wei.1": 1},
        hands=[{"red": 3}, {"violet": 3}, {"violet": 3}, {"yellow": 3}],
        display={"green": 4},
        discards={"violet": 3, "yellow": 7, "orange": 8, "red": 9, "green": 7},
        deck={"orange": 2},
        exhaustions=1,
    )
    assert s.observation(1)["reshuffled_deck"]["orange"] == 2
    for seed in range(10):
        r = s.resample_from_infostate(1, random.Random(seed))
        assert isinstance(r, ChinaState)
        assert r.deck == (0, 0, 2, 0, 0)
        assert r.observation(1) == s.observation(1)
    # forced play: seat 0 draws one of the two orange cards; others still know the pile
    t = play(s, "exchange red", "draw", "card orange")
    assert t.drawn[0] == (0, 0, 1, 0, 0) and t.observation(1)["draws_from_reshuffled_deck"][0] == 1
    for seed in range(10):
        r = t.resample_from_infostate(1, random.Random(seed))
        assert isinstance(r, ChinaState)
        assert r.deck == (0, 0, 1, 0, 0) and r.hands[0][2] >= 1
