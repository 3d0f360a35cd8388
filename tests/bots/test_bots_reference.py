"""OpenSpiel's search bots as entrants: made by name, seeded, legal, in tournaments."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

import tianxia
import tianxia.bots
from tianxia.core import Match
from tianxia.play import Tournament

REFERENCE = ["openspiel-ismcts", "openspiel-mcts"]


def _decision(name: str, seed: int) -> Match:
    match = Match(tianxia.load_game(name), seed=seed)
    match.resolve_chance()
    while len(match.state.legal_actions()) < 2:
        match.play(match.state.legal_actions()[0])
        match.resolve_chance()
    return match


# Random rollouts play to the end: a short game for them, a long one cut by the hook.
@pytest.mark.parametrize("name,rollouts", [("greatwall", "random"), ("mandarin", "hook")])
@pytest.mark.parametrize("bot_name", REFERENCE)
def test_reference_bots_play_legal_seeded_moves(name: str, bot_name: str, rollouts: str) -> None:
    state = _decision(name, seed=3).state
    seat = state.current_player()
    picks = []
    for _ in range(2):
        bot = tianxia.bots.make(
            bot_name, state.game, seat, seed=5, simulations=24, rollouts=rollouts
        )
        picks.append((bot.act(state), bot.explain().splitlines()[1:]))
        assert bot.last_simulations == 24
    assert picks[0] == picks[1]
    assert picks[0][0] in state.legal_actions()
    assert bot.explain().startswith(f"{bot_name}: {picks[0][0]} after 24 simulations")


def test_mcts_on_hidden_information_shares_its_budget_over_worlds() -> None:
    state = _decision("greatwall", seed=1).state
    bot = tianxia.bots.make("openspiel-mcts", state.game, state.current_player(), simulations=30)
    assert bot.determinizations == 4
    bot.act(state)
    visits = sum(int(line.split(": ")[1].split()[0]) for line in bot.explain().splitlines()[1:])
    # The root's children hold every simulation but each world's first (the root's own).
    assert visits <= 30


@pytest.mark.parametrize(
    "options",
    [{"rollouts": "greedy"}, {"simulations": 0}, {"exploration": -1}, {"depth": 3}],
    ids=["rollouts", "simulations", "exploration", "unknown"],
)
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    game = tianxia.load_game("highcard")
    with pytest.raises(ValueError):
        tianxia.bots.make("openspiel-ismcts", game, 0, **options)


def test_reference_bots_enter_tournaments_by_name() -> None:
    game = tianxia.load_game("highcard", players=2)
    entrants = ["openspiel-ismcts:simulations=40", "openspiel-mcts:simulations=40:rollouts=hook"]
    one = Tournament(game, entrants, 4, seed=3).run(workers=1)
    two = Tournament(game, entrants, 4, seed=3).run(workers=2)
    assert one.to_json()["results"] == two.to_json()["results"]
    ismcts, mcts = one.standings
    assert ismcts.simulations == 40 * ismcts.decisions > 0
    assert mcts.seat_games == 4
