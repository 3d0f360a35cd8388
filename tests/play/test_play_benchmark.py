"""The benchmark helpers, on small settings (the real runs live in benchmarks/bots.py)."""

from __future__ import annotations

import pytest

import tianxia
from tianxia.play.benchmark import decision_states, search_speed, strength, typical_players


def test_typical_player_counts_are_the_smallest_and_four_where_allowed() -> None:
    assert typical_players("highcard") == [2, 3]
    for name in tianxia.list_games():
        counts = typical_players(name)
        game = tianxia.load_game(name)
        assert counts[0] == type(game).MIN_PLAYERS and counts[-1] <= type(game).MAX_PLAYERS


@pytest.mark.parametrize("name", tianxia.list_games())
def test_decision_states_are_real_choices_in_order(name: str) -> None:
    first, mid = decision_states(tianxia.load_game(name), seed=1)
    assert len(first.legal_actions()) > 1 and len(mid.legal_actions()) > 1
    assert first.current_player() >= 0 and mid.current_player() >= 0


def test_strength_rows_judge_against_the_issue_targets() -> None:
    two, _ = strength(tianxia.load_game("highcard", players=2), "greedy", "random", 10, seed=1)
    assert two.target == ">= 80% of games" and two.met == (two.win_rate >= 0.8)
    three, result = strength(
        tianxia.load_game("highcard", players=3), "ismcts:simulations=20", "greedy", 6, seed=1
    )
    assert three.target == ">= 1.6x fair share" and three.met == (three.share_ratio >= 1.6)
    assert [s.label for s in result.standings] == ["ismcts:simulations=20", "greedy"]
    assert result.standings[1].seat_games == 12
    assert three.simulations_per_second > 0


def test_search_speed_reports_both_decisions() -> None:
    speed = search_speed(tianxia.load_game("highcard", players=2), seconds=0.01, seed=2)
    assert set(speed) == {"first", "mid"}
    assert all(speed[k]["simulations"] >= 1 for k in speed)
