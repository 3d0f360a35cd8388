"""`tianxia.bots.make`: names, options and refusals, on every registered game."""

from __future__ import annotations

import random

import pytest

import tianxia
import tianxia.bots
from tianxia.core import Match


def _first_decision(name: str, seed: int = 0) -> Match:
    game = tianxia.load_game(name)
    match = Match(game, seed=seed)
    match.resolve_chance()
    return match


@pytest.mark.parametrize("name", tianxia.list_games())
def test_random_bot_plays_a_legal_action_reproducibly(name: str) -> None:
    match = _first_decision(name)
    seat = match.state.current_player()
    picks = []
    for _ in range(2):
        bot = tianxia.bots.make("random", match.game, seat, seed=5)
        picks.append([bot.act(match.state) for _ in range(5)])
    assert picks[0] == picks[1]
    assert all(a in match.state.legal_actions() for a in picks[0])
    assert "random" in bot.explain()


def test_unknown_bot_is_refused_with_the_known_names() -> None:
    game = tianxia.load_game("highcard", players=2)
    with pytest.raises(ValueError, match=r"no bot called 'oracle'.*random"):
        tianxia.bots.make("oracle", game, 0)


@pytest.mark.parametrize(
    ("seat", "seed", "options", "message"),
    [
        (2, 0, {}, "seat 2 does not exist"),
        (-1, 0, {}, "seat -1 does not exist"),
        ("0", 0, {}, "seat must be a whole number"),
        (0, "x", {}, "seed must be a whole number"),
        (0, 0, {"depth": 3}, "no option 'depth'"),
    ],
)
def test_bad_construction_is_refused(
    seat: object, seed: object, options: dict, message: str
) -> None:
    game = tianxia.load_game("highcard", players=2)
    with pytest.raises(ValueError, match=message):
        tianxia.bots.make("random", game, seat, seed=seed, **options)  # type: ignore[arg-type]


def test_act_refuses_a_state_where_the_seat_is_not_to_move() -> None:
    match = _first_decision("highcard")
    other = 1 - match.state.current_player()
    bot = tianxia.bots.make("random", match.game, other)
    state_before = match.state.to_json()
    rng_before = bot.rng.getstate()
    with pytest.raises(ValueError, match=f"plays seat {other}, but seat"):
        bot.act(match.state)
    with pytest.raises(ValueError, match="chance"):
        bot.act(match.game.new_initial_state())
    with pytest.raises(ValueError, match="a state is needed"):
        bot.act("stay")  # type: ignore[arg-type]
    assert match.state.to_json() == state_before
    assert bot.rng.getstate() == rng_before


def test_act_refuses_a_state_of_another_variant() -> None:
    three = tianxia.load_game("highcard", players=3)
    match = _first_decision("highcard")
    bot = tianxia.bots.make("random", three, match.state.current_player())
    with pytest.raises(ValueError, match="this bot plays"):
        bot.act(match.state)


def test_bots_never_touch_the_global_random_stream() -> None:
    random.seed(11)
    expected = random.random()
    random.seed(11)
    for name in tianxia.bots.available():
        match = _first_decision("highcard", seed=3)
        bot = tianxia.bots.make(name, match.game, match.state.current_player(), seed=1)
        bot.act(match.state)
    assert random.random() == expected
