"""The values search backs up: returns rescaled to [-1, 1], the evaluation hook before the end."""

from __future__ import annotations

import pytest

import tianxia
import tianxia.bots
from tianxia.bots.evaluation import mean_terms, value_for, values
from tianxia.play import play_match


@pytest.mark.parametrize("name", tianxia.list_games())
def test_values_along_a_game_lie_in_range_and_end_on_the_returns(name: str) -> None:
    game = tianxia.load_game(name)
    seen: list[list[float]] = []
    bots = [tianxia.bots.make("random", game, s, seed=s) for s in range(game.players)]
    match = play_match(game, bots, seed=6, on_action=lambda m, s, a: seen.append(values(m.state)))
    assert all(-1.0 <= v <= 1.0 for row in seen for v in row)
    low, high = game.info.min_utility, game.info.max_utility
    expected = [2 * (r - low) / (high - low) - 1 for r in match.state.returns()]
    assert values(match.state) == pytest.approx(expected)
    assert [value_for(match.state, s) for s in range(game.players)] == pytest.approx(expected)


def test_zero_sum_values_are_centred_leads() -> None:
    game = tianxia.load_game("highcard", players=3)
    state = game.new_initial_state().apply("deal 2").apply("deal 5").apply("deal 6")

    class OwnProgress(type(state)):  # type: ignore[misc]
        """A hook that scores each seat's own card, not its lead."""

        def heuristic(self, seat: int) -> float:
            return self.hands[seat] / 10

    counted = OwnProgress.make(game, hands=state.hands, discards=state.discards, turn=state.turn)
    assert values(counted) == pytest.approx([0.2 - 1.3 / 3, 0.5 - 1.3 / 3, 0.6 - 1.3 / 3])
    assert sum(values(counted)) == pytest.approx(0.0)


def test_mean_terms_average_over_states() -> None:
    game = tianxia.load_game("highcard", players=2)
    a = game.new_initial_state().apply("deal 2").apply("deal 5")
    b = game.new_initial_state().apply("deal 4").apply("deal 5")
    assert mean_terms([a, b], 0) == {"score": 3.0}
    assert mean_terms([], 0) == {}
