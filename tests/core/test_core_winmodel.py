"""The win model shared by the games whose evaluation hook is one (tianxia.core.winmodel)."""

from __future__ import annotations

import math

import pytest

from tianxia.core import winmodel

TABLE: winmodel.Weights = {2: ((1.0, 0.5), (0.0, 1.0)), 4: ((2.0, 0.0), (-1.0, 0.0))}


def test_weights_move_with_the_share_still_to_play() -> None:
    assert winmodel.weights(TABLE, 2, 0.0) == [1.0, 0.5]
    assert winmodel.weights(TABLE, 2, 1.0) == [1.0, 1.5]
    assert winmodel.weights(TABLE, 4, 0.5) == [1.5, 0.0]


def test_a_table_size_without_its_own_borrows_the_largest_fitted() -> None:
    assert winmodel.weights(TABLE, 3, 0.0) == winmodel.weights(TABLE, 4, 0.0)
    assert winmodel.weights(TABLE, 7, 0.0) == winmodel.weights(TABLE, 4, 0.0)


def test_rows_of_the_seats_still_in_the_game_take_the_weights_of_the_table_size() -> None:
    # Two states left of four, all the game still to play: four seats' weights give the
    # first a logit of 1 against 0, where two seats' would give it 4.
    rows = [[1.0, 2.0], [0.0, 0.0]]
    four = winmodel.chances(TABLE, rows, 1.0, 4)
    assert four[0] == pytest.approx(math.exp(1) / (math.exp(1) + 1))
    assert winmodel.chances(TABLE, rows, 1.0)[0] == pytest.approx(math.exp(4) / (math.exp(4) + 1))


def test_chances_are_the_softmax_of_the_weighted_features() -> None:
    rows = [[1.0, 2.0], [0.0, 0.0]]
    c = winmodel.chances(TABLE, rows, 0.0)
    # Logits 1 + 0.5 * 2 = 2 and 0: the first seat wins with e^2 / (e^2 + 1).
    assert c[0] == pytest.approx(math.exp(2) / (math.exp(2) + 1))
    assert sum(c) == pytest.approx(1.0)
    assert winmodel.terms(TABLE, ("a", "b"), rows, 0.0, 0) == {"a": 1.0, "b": 1.0}
    # Huge logits do not overflow: the softmax is taken from the largest.
    assert winmodel.chances(TABLE, [[1000.0, 0.0], [999.0, 0.0]], 0.0)[0] == pytest.approx(
        1 / (1 + math.exp(-1))
    )


def test_expected_returns_are_zero_sum_and_span_the_utilities() -> None:
    assert winmodel.expected_returns([1.0, 0.0, 0.0, 0.0]) == [1.0, -1 / 3, -1 / 3, -1 / 3]
    assert winmodel.expected_returns([0.25] * 4) == [0.0] * 4
    assert sum(winmodel.expected_returns([0.1, 0.2, 0.3, 0.4])) == pytest.approx(0.0)


def test_a_finished_game_splits_the_win_among_its_winners() -> None:
    assert winmodel.winners_chances([0.5, 0.5, -1.0]) == [0.5, 0.5, 0.0]
    assert winmodel.winners_chances([-1 / 3, 1.0, -1 / 3, -1 / 3]) == [0.0, 1.0, 0.0, 0.0]
