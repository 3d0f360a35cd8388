"""The suite proven on the test game, including that it catches a broken game."""

from __future__ import annotations

import random

import pytest
from harness import Case, check_game

import tianxia
from tianxia.core import IllegalActionError, Match
from toygame import Deal, HighCardState, Stay, Swap


def test_toy_game_is_registered() -> None:
    assert "highcard" in tianxia.list_games()


def test_swap_refused_when_switched_off_names_the_rule() -> None:
    m = Match(tianxia.load_game("highcard", players=2, swaps=False), seed=3)
    m.resolve_chance()
    with pytest.raises(IllegalActionError) as err:
        m.play(Swap())
    assert err.value.rule == "HC-2"
    assert "switched off" in m.state.explain("swap")


def test_forced_chance_outcomes_decide_the_winner() -> None:
    g = tianxia.load_game("highcard", players=2)
    s = g.new_initial_state().apply(Deal(2)).apply(Deal(5)).apply(Swap()).apply(Deal(6))
    s = s.apply(Stay())
    assert s.is_terminal() and s.returns() == [1.0, -1.0]


class LeakyState(HighCardState):
    """Shows every hand to everyone: the suite must notice that resampling then fails."""

    def observation(self, seat: int | None) -> dict:  # type: ignore[override]
        obs = super().observation(seat)
        obs["hands"] = list(self.hands)
        return obs


def test_suite_catches_a_leaky_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    g = tianxia.load_game("highcard", players=2)
    monkeypatch.setattr(
        type(g),
        "new_initial_state",
        lambda self: LeakyState.make(self, hands=(), discards=(), turn=0),
    )
    monkeypatch.setattr(
        HighCardState,
        "resample_from_infostate",
        lambda self, seat, rng: LeakyState.make(
            self.game, hands=tuple(reversed(self.hands)), discards=self.discards, turn=self.turn
        ),
    )
    with pytest.raises(AssertionError):
        check_game(Case("highcard", 2), range(2))


def test_same_seed_same_log() -> None:
    g = tianxia.load_game("highcard", players=3)
    logs = []
    for _ in range(2):
        m = Match(g, seed=11)
        rng = random.Random(5)
        while not m.state.is_terminal():
            m.resolve_chance()
            if not m.state.is_terminal():
                m.play(rng.choice(m.state.legal_actions()))
        logs.append(m.log)
    assert logs[0] == logs[1]
