"""Bots decide from their seat's information only, on every registered game.

Two states that differ only in what the bot's seat cannot see (one is a resample of the
other for that seat) must give the same decision and the same explanation when the bot
starts from the same random stream.
"""

from __future__ import annotations

import random

import pytest

import tianxia
import tianxia.bots
from tianxia.core import CHANCE, Match, State

_OPTIONS: dict[str, dict[str, int]] = {
    "random": {},
    "greedy": {"determinizations": 3},
    "ismcts": {"simulations": 40},
    "pimc": {"simulations": 40, "determinizations": 4},
}
try:
    import pyspiel  # noqa: F401
except ImportError:  # extra `rl` absent: OpenSpiel's bots cannot be made
    pass
else:
    _OPTIONS["openspiel-ismcts"] = {"simulations": 20, "rollouts": "hook"}
    _OPTIONS["openspiel-mcts"] = {"simulations": 20, "rollouts": "hook"}


def _decision_points(name: str, seed: int, count: int) -> list[State]:
    """States along one seeded random game where a seat is to move with a real choice."""
    game = tianxia.load_game(name)
    match = Match(game, seed=seed)
    chooser = random.Random(seed)
    found: list[State] = []
    while not match.state.is_terminal():
        if match.state.current_player() == CHANCE:
            match.resolve_chance()
            continue
        legal = match.state.legal_actions()
        if len(legal) > 1:
            found.append(match.state)
        match.play(chooser.choice(legal))
    step = max(1, len(found) // count)
    return found[::step][:count]


def _hidden_twin(state: State, seat: int) -> State:
    """A state `seat` cannot tell from `state`, differing from it if anything is hidden."""
    twin = state
    for k in range(20):
        twin = state.resample_from_infostate(seat, random.Random(1000 + k))
        if twin.to_json() != state.to_json():
            break
    assert twin.observation(seat) == state.observation(seat)
    assert twin.legal_actions() == state.legal_actions()
    return twin


@pytest.mark.parametrize("bot_name", sorted(_OPTIONS))
@pytest.mark.parametrize("name", tianxia.list_games())
def test_same_information_gives_the_same_decision(name: str, bot_name: str) -> None:
    differing = 0
    for state in _decision_points(name, seed=2, count=3):
        seat = state.current_player()
        twin = _hidden_twin(state, seat)
        differing += twin.to_json() != state.to_json()
        decisions = []
        for s in (state, twin):
            bot = tianxia.bots.make(bot_name, s.game, seat, seed=17, **_OPTIONS[bot_name])
            # the first line of an explanation holds the search speed, which varies
            decisions.append((bot.act(s), bot.explain().splitlines()[1:]))
        assert decisions[0] == decisions[1]
    if tianxia.load_game(name).info.information == "imperfect":
        assert differing > 0, "no twin differed: the test proved nothing"


@pytest.mark.parametrize("name", tianxia.list_games())
def test_the_true_hidden_state_is_not_what_decides(name: str) -> None:
    """A bot that peeked would follow the true deal; ours follows its stream only."""
    state = _decision_points(name, seed=4, count=1)[0]
    seat = state.current_player()
    twins = [state.resample_from_infostate(seat, random.Random(k)) for k in range(4)]
    picks = set()
    for s in [state, *twins]:
        bot = tianxia.bots.make("ismcts", s.game, seat, seed=9, simulations=30)
        picks.add(bot.act(s))
    assert len(picks) == 1
