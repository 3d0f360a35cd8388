"""Hidden information, observations, notation and serialisation over seeded playouts."""

from __future__ import annotations

import json
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tianxia
from scripts import play_out
from tianxia.core import CHANCE, Match
from tianxia.core.match import sample_chance
from tianxia.games.greatwall.position import position
from tianxia.games.greatwall.search import WIN_FEATURES, WIN_WEIGHTS, win_chances
from tianxia.games.greatwall.state import GreatWallState


def playout(players: int, seed: int, steps: int) -> GreatWallState:
    game = tianxia.load_game("greatwall", players=players)
    rng = random.Random(seed)
    s = game.new_initial_state()
    for _ in range(steps):
        if s.is_terminal():
            break
        a = sample_chance(s, rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions())
        s = s.apply(a)  # type: ignore[assignment]
    assert isinstance(s, GreatWallState)
    return s


def test_observation_shows_own_hand_and_only_sizes_of_others() -> None:
    s = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "wall gate", 1: "dragon noble"})
    mine, theirs, spectator = s.observation(0), s.observation(1), s.observation(None)
    assert mine["hand"] == {"wall": 1, "gate": 1}
    assert theirs["hand"] == {"noble": 1, "dragon": 1}
    assert spectator["hand"] is None and spectator["deck"] is None
    assert [p["hand_size"] for p in spectator["players"]] == [2, 2]
    assert "dragon" not in json.dumps(mine["players"])


def test_other_hands_do_not_change_a_seats_observation() -> None:
    a = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "wall", 1: "dragon noble"})
    b = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "wall", 1: "gate gate"})
    assert a.observation(0) == b.observation(0)
    assert a.observation(1) != b.observation(1)


def test_indistinguishable_states_resample_to_the_same_state() -> None:
    a = position(3, ["1:tower | 5 3", "| 2 4", "| 1 7"], hands={0: "wall", 1: "dragon noble"})
    b = position(3, ["1:tower | 5 3", "| 2 4", "| 1 7"], hands={0: "wall", 1: "wall gate"})
    ra = a.resample_from_infostate(0, random.Random(5))
    rb = b.resample_from_infostate(0, random.Random(5))
    assert ra == rb
    assert ra.observation(0) == a.observation(0)


def test_resampling_keeps_what_the_seat_knows_and_varies_the_rest() -> None:
    s = playout(4, seed=3, steps=60)
    seen = set()
    for k in range(20):
        r = s.resample_from_infostate(2, random.Random(k))
        assert r.observation(2) == s.observation(2)
        assert r.to_json()["hands"][2] == s.to_json()["hands"][2]
        seen.add(json.dumps(r.to_json()["hands"]))
    assert len(seen) > 1


def test_a_deck_has_no_order_until_drawn_even_for_its_owner() -> None:
    s = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "wall"})
    s = s.apply("draw")
    outcomes = dict((str(a), p) for a, p in s.chance_outcomes())
    assert len(outcomes) > 1
    assert abs(sum(outcomes.values()) - 1) < 1e-9


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 10_000))
def test_heuristic_stays_in_range_and_names_its_terms(players: int, seed: int) -> None:
    s = playout(players, seed, 120)
    for seat in range(players):
        assert -1.0 <= s.heuristic(seat) <= 1.0
        assert tuple(s.heuristic_terms(seat)) == WIN_FEATURES
    # Expected returns of a zero-sum game: they sum to 0, from chances that sum to 1.
    assert sum(s.heuristics()) == pytest.approx(0.0, abs=1e-12)
    assert sum(win_chances(s)) == pytest.approx(1.0)
    assert s.heuristics() == [s.heuristic(seat) for seat in range(players)]


def test_heuristic_prefers_the_seat_with_more_fame() -> None:
    s = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "wall"}, won={0: [8, 7]})
    assert s.heuristic(0) > 0 > s.heuristic(1)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_win_model_gives_the_same_seats_the_same_chances(players: int) -> None:
    # At the deal every seat holds its whole set and nothing is won: only the seat to
    # move differs, by the one weight the model gives moving (all cards still to play).
    s = playout(players, 1, 0)
    rng = random.Random(0)
    while s.current_player() == CHANCE:
        s = s.apply(sample_chance(s, rng))
    chances = win_chances(s)
    mover = s.current_player()
    other = chances[(mover + 1) % players]
    assert all(c == pytest.approx(other) for p, c in enumerate(chances) if p != mover)
    base, slope = WIN_WEIGHTS[2 if players == 2 else 4]
    assert chances[mover] / other == pytest.approx(math.exp(base[-1] + slope[-1]))


def test_the_win_model_counts_fame_and_cards_still_to_play() -> None:
    # Two seats alike but for two fame: the richer is the likelier winner.
    even = position(2, ["| 5 3", "| 2 4"], hands={0: "wall", 1: "wall"})
    richer = position(2, ["| 5 3", "| 2 4"], hands={0: "wall", 1: "wall"}, won={0: [2]})
    assert win_chances(richer)[0] > win_chances(even)[0]
    # Three and five seats borrow the nearest table size fitted.
    assert set(WIN_WEIGHTS) == {2, 4}
    for n in WIN_WEIGHTS:
        base, slope = WIN_WEIGHTS[n]
        assert len(base) == len(slope) == len(WIN_FEATURES)
        assert base[WIN_FEATURES.index("fame")] > 0


def test_the_public_log_tells_recent_events_without_hidden_cards() -> None:
    m = Match(tianxia.load_game("greatwall", players=2), seed=4)
    m.resolve_chance()
    m.play("draw")
    m.resolve_chance()
    log = m.state.observation(1)["log"]
    assert log[-1] == "P1: draw"
    assert all("deal" not in line for line in log)


def test_every_game_ends_within_the_declared_length() -> None:
    for players in (2, 3, 4, 5):
        for seed in range(3):
            game = tianxia.load_game("greatwall", players=players)
            m = Match(game, seed=seed)
            play_out(m, random.Random(seed))
            assert len(m.log) <= game.info.max_game_length
            assert abs(sum(m.state.returns())) < 1e-9


def test_observation_tensor_has_one_length_and_hides_other_hands() -> None:
    sizes = set()
    for players in (2, 3, 4, 5):
        s = playout(players, seed=players, steps=80)
        size = s.game.observation_tensor_size()
        sizes.add(size)
        for seat in (None, *range(players)):
            assert len(s.observation_tensor(seat)) == size
    assert len(sizes) == 1
    a = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "wall", 1: "dragon noble"})
    b = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "wall", 1: "gate gate"})
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.observation_tensor(1) != b.observation_tensor(1)
    c = position(2, ["1:tower 0:wall | 5 3", "| 2 4"], hands={0: "wall", 1: "dragon noble"})
    assert a.observation_tensor(None) != c.observation_tensor(None)


def test_a_drawn_card_is_told_to_its_owner_alone() -> None:
    m = Match(tianxia.load_game("greatwall", players=3), seed=4)
    m.resolve_chance()
    me = m.state.current_player()
    m.play("draw")
    m.resolve_chance()
    mine = m.events_for(me)[-1]
    other = m.events_for((me + 1) % 3)[-1]
    spectator = m.events_for(None)[-1]
    assert mine["text"].startswith(f"P{me + 1} draws a ") and mine["action"].startswith("deal")
    assert other == spectator == {**mine, "text": f"P{me + 1} draws a card", "action": None}


def test_fame_tiles_are_revealed_to_everyone() -> None:
    m = Match(tianxia.load_game("greatwall", players=2), seed=4)
    m.resolve_chance()
    first = m.events_for(None)[0]
    assert first["seat"] is None and first["text"].startswith("a fame tile of value")
