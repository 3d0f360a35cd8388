"""Search options of ismcts: action abstraction (Mandarin), the final move, greedy rollouts."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import cast

import pytest

import tianxia
import tianxia.bots
from tianxia.bots.evaluation import value_for
from tianxia.bots.ismcts import ISMCTSBot
from tianxia.core import State, sample_chance
from tianxia.games.mandarin import rules, search
from tianxia.games.mandarin.actions import BID_STEP, Bid, Cash, Pass
from tianxia.games.mandarin.state import MandarinState


def _first(players: int, seed: int, found: Callable[[MandarinState], bool]) -> MandarinState:
    """The first state of a seeded random game where `found` holds."""
    game = tianxia.load_game("mandarin", players=players)
    rng = random.Random(seed)
    for _ in range(50):
        state = cast(MandarinState, game.new_initial_state())
        while not state.is_terminal():
            if state.is_chance_node():
                state = cast(MandarinState, state.apply(sample_chance(state, rng)))
                continue
            if found(state):
                return state
            # Bids within the purse only, so that auctions run on instead of forfeiting.
            purse = state.money[state.actor]
            legal = [
                a for a in state.legal_actions() if not isinstance(a, Bid) or a.amount <= purse
            ]
            state = cast(MandarinState, state.apply(rng.choice(legal)))
    raise AssertionError("no such state in 50 random games")


def _auction(s: MandarinState) -> bool:
    return s.phase == rules.AUCTION and s.money[s.actor] >= s.high + 10 * BID_STEP


def _cashes(s: MandarinState) -> bool:
    return s.phase == rules.START and sum(isinstance(a, Cash) for a in s.legal_actions()) >= 3


def test_an_auction_is_weighed_at_a_few_bids_within_the_purse() -> None:
    state = _first(2, 1, _auction)
    legal = state.legal_actions()
    weighed = search.search_actions(state, legal)
    bids = sorted(a.amount for a in weighed if isinstance(a, Bid))
    purse = state.money[state.actor]
    assert Pass() in weighed and set(weighed) <= set(legal)
    assert sum(isinstance(a, Bid) for a in legal) > 50
    assert 2 <= len(bids) <= 2 + len(search.BID_LEVELS)
    assert bids[0] == state.high + BID_STEP  # the minimum raise
    assert bids[-1] == purse - purse % BID_STEP  # the whole purse, never beyond it


def test_cashing_is_weighed_only_when_money_is_short_and_once_an_animal() -> None:
    state = _first(2, 2, _cashes)
    legal = state.legal_actions()
    rich = state.replace(money=tuple(max(m, 3000) for m in state.money))
    assert not any(isinstance(a, Cash) for a in search.search_actions(rich, legal))
    poor = state.replace(
        money=tuple(0 if i == state.actor else m for i, m in enumerate(state.money))
    )
    cashes = [a for a in search.search_actions(poor, legal) if isinstance(a, Cash)]
    animals = {a.tile // 6 for a in legal if isinstance(a, Cash)}
    assert len(cashes) == len(animals) and {a.tile // 6 for a in cashes} == animals
    assert rules.ROLL in search.search_actions(poor, legal)


@pytest.mark.parametrize("seed", [0, 1])
def test_ismcts_plays_only_what_the_abstraction_weighs(seed: int) -> None:
    state = _first(2, 1, _auction)
    weighed = set(search.search_actions(state, state.legal_actions()))
    bot = tianxia.bots.make("ismcts", state.game, state.actor, seed=seed, simulations=60)
    choice = bot.act(state)
    assert choice in weighed
    listed = {line.strip().split(": ")[0] for line in bot.explain().splitlines()[1:-1]}
    assert listed <= {str(a) for a in weighed}
    again = tianxia.bots.make("ismcts", state.game, state.actor, seed=seed, simulations=60)
    assert again.act(state) == choice  # the same seed, the same decision


def test_the_abstraction_can_be_switched_off() -> None:
    game = tianxia.load_game("mandarin", players=2)
    assert ISMCTSBot(game, 0)._abstract is search.search_actions
    assert ISMCTSBot(game, 0, abstract=0)._abstract is None
    assert ISMCTSBot(tianxia.load_game("greatwall"), 0)._abstract is None  # no such hook
    with pytest.raises(ValueError, match="abstract"):
        ISMCTSBot(game, 0, abstract=2)


def _greatwall_decision(seed: int) -> State:
    game = tianxia.load_game("greatwall", players=2)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 3:
        legal = state.legal_actions()
        state = state.apply(sample_chance(state, rng) if state.is_chance_node() else legal[0])
    return state


def _listed(bot: ISMCTSBot) -> list[tuple[str, int, float]]:
    """(action, visits, value) of each alternative in the bot's explanation."""
    out = []
    for line in bot.explain().splitlines()[1:-1]:
        action, rest = line.strip().split(": ")
        visits, value = rest.split(" visits, value ")
        out.append((action, int(visits), float(value)))
    return out


@pytest.mark.parametrize("final", ["visits", "mean"])
def test_the_move_is_the_most_visited_or_the_best_mean(final: str) -> None:
    state = _greatwall_decision(3)
    bot = ISMCTSBot(state.game, state.current_player(), seed=1, simulations=80, final=final)
    choice = bot.act(state)
    listed = _listed(bot)
    assert listed[0][0] == str(choice)
    key = 1 if final == "visits" else 2
    assert listed[0][key] == max(row[key] for row in listed)
    with pytest.raises(ValueError, match="final"):
        ISMCTSBot(state.game, 0, final="robust")


def test_a_greedy_rollout_step_takes_the_movers_best_successor() -> None:
    state = _greatwall_decision(5)
    seat = state.current_player()
    bot = ISMCTSBot(state.game, seat, seed=2, rollout_greedy=1.0)
    # The actions that draw no card, so that each successor is exact.
    legal = tuple(a for a in state.legal_actions() if not state.apply(a).is_chance_node())
    assert len(legal) > 2
    after = bot._greedy_step(state, seat, legal)
    best = max(value_for(state.apply(a), seat) for a in legal)
    assert value_for(after, seat) == pytest.approx(best)
    with pytest.raises(ValueError, match="rollout_greedy"):
        ISMCTSBot(state.game, seat, rollout_greedy=1.5)


@pytest.mark.parametrize("name", ["silkroad", "greatwall"])
def test_greedy_rollouts_by_default_where_measured_and_the_caller_may_say_otherwise(
    name: str,
) -> None:
    game = tianxia.load_game(name, players=2)
    assert ISMCTSBot(game, 0).rollout_greedy == 1.0
    assert ISMCTSBot(game, 0, rollout_greedy=0).rollout_greedy == 0.0
    assert ISMCTSBot(tianxia.load_game("china"), 0).rollout_greedy == 0.0


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_emperor_rolls_out_greedily_from_three_seats_and_at_random_at_two(
    players: int,
) -> None:
    many = tianxia.load_game("emperor", players=players)
    assert ISMCTSBot(many, 0).rollout_greedy == 1.0
    assert ISMCTSBot(many, 0, rollout_greedy=0).rollout_greedy == 0.0  # the caller's word wins
    assert ISMCTSBot(tianxia.load_game("emperor", players=2), 0).rollout_greedy == 0.0
