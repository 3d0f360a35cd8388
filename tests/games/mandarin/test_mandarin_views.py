"""Observations, hidden money, resampling, notation, JSON, heuristics."""

from __future__ import annotations

import json
import random

import pytest

import tianxia
from tianxia.core import CHANCE, Match, State
from tianxia.games.mandarin import rules
from tianxia.games.mandarin.state import MandarinState

OBSERVATION_KEYS = {
    "seat",
    "players",
    "to_move",
    "phase",
    "prompt",
    "turn_of",
    "turns",
    "turn_cap",
    "rolls",
    "last_roll",
    "signs",
    "positions",
    "collections",
    "sector_holders",
    "sector_claims",
    "dispenser",
    "may_draw",
    "lot",
    "auction",
    "receiver",
    "passed",
    "debtor",
    "money",
    "all_money",
    "winners",
    "end",
    "money_variant",
    "log",
}


def random_state(seed: int, steps: int, players: int = 3, **options: object) -> MandarinState:
    g = tianxia.load_game("mandarin", players=players, **options)
    m = Match(g, seed=seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        s = m.state
        if s.is_terminal():
            break
        if s.current_player() == CHANCE:
            m.resolve_chance()
        else:
            m.play(chooser.choice(s.legal_actions()))
    assert isinstance(m.state, MandarinState)
    return m.state


def with_money(s: MandarinState, money: tuple[int, ...]) -> MandarinState:
    data = s.to_json()
    data["money"] = list(money)
    out = s.game.state_from_json(data)
    assert isinstance(out, MandarinState)
    return out


def test_the_observation_has_the_documented_keys_and_only_ones_own_money() -> None:
    s = random_state(3, 40)
    for seat in (None, 0, 1, 2):
        view = s.observation(seat)
        assert set(view) == OBSERVATION_KEYS
        assert view["money"] == (None if seat is None else s.money[seat])
        assert view["all_money"] is None
        json.dumps(view)


def test_others_money_does_not_change_a_seats_view() -> None:
    s = random_state(5, 60)
    other = with_money(s, (s.money[0] + 100, s.money[1], 12300))
    assert other.observation(1) == s.observation(1)
    assert other.observation(None) == s.observation(None)
    assert other.observation(0) != s.observation(0)


def test_resampling_depends_only_on_what_the_seat_sees() -> None:
    s = random_state(7, 80)
    twin = with_money(s, (s.money[0], 100, 9900))
    for seat in (0,):
        a = s.resample_from_infostate(seat, random.Random(11))
        b = twin.resample_from_infostate(seat, random.Random(11))
        assert a == b
        assert a.observation(seat) == s.observation(seat)
        assert isinstance(a, MandarinState) and a.money[seat] == s.money[seat]
    assert s.resample_from_infostate(1, random.Random(1)) != s  # the others' purses move


def test_the_final_money_is_shown_to_all_at_the_end() -> None:
    s = random_state(2, 10**6, players=2)
    assert s.is_terminal() and s.observation(0)["all_money"] == list(s.money)
    assert s.resample_from_infostate(0, random.Random(0)) is s


def test_every_action_round_trips_through_its_notation_and_id() -> None:
    g = tianxia.load_game("mandarin", players=4)
    for i, a in enumerate(g.codec.actions + g.codec.outcomes):
        assert g.parse_action_text(str(a)) == a and g.action_id(a) == i
    assert g.info.num_distinct_actions == 12 + 1 + 72 + 72 + 4 + 200


@pytest.mark.parametrize(
    "change",
    [
        {"money": [1, 2]},
        {"owner": [0] * 71},
        {"phase": 99},
        {"turns": True},
        {"end": "won"},
        {"firsts": [[]] * 11},
        {"log": ["a"] * 7},
        {"log": [3]},
    ],
)
def test_bad_json_is_refused(change: dict[str, object]) -> None:
    s = random_state(1, 20)
    data = s.to_json()
    data.update(change)
    with pytest.raises(ValueError):
        s.game.state_from_json(data)
    with pytest.raises(ValueError):
        s.game.state_from_json({k: v for k, v in s.to_json().items() if k != "owner"})


def test_the_heuristic_stays_in_range_and_names_its_terms() -> None:
    for variant in (False, True):
        s: State = random_state(9, 0, money=variant)
        g = s.game
        m = Match(g, seed=9)
        chooser = random.Random(9)
        while not m.state.is_terminal():
            st_ = m.state
            for seat in range(g.players):
                assert -1.0 <= st_.heuristic(seat) <= 1.0
            assert set(st_.heuristic_terms(0)) == {
                "animals",
                "best_animal",
                "sectors",
                "wealth_lead",
            }
            if st_.current_player() == CHANCE:
                m.resolve_chance()
            else:
                m.play(chooser.choice(st_.legal_actions()))


def test_explanations_name_the_action_or_the_rule() -> None:
    g = tianxia.load_game("mandarin", players=2)
    s = g.position(sign=(0, 6), pos=(1, 19), phase=rules.START, owner=(0,) + (-1,) * 71)
    assert s.explain("roll") == "legal: P1 stops cashing in and rolls the die"
    assert s.explain("cash rat-red").startswith("legal: P1 returns rat-red")
    assert s.explain("bid 100").startswith("illegal: MA-4.1")
    assert s.explain("keep").startswith("illegal: MA-3.1")
    assert s.explain("die 3").startswith("illegal: MA-0.1")


def test_the_observation_tensor_has_a_fixed_length_and_hides_others_money() -> None:
    for players in (2, 5):
        for steps in (0, 30, 200):
            s = random_state(players + steps, steps, players=players)
            vec = s.observation_tensor(0)
            assert len(vec) == s.game.observation_tensor_size()
            assert len(s.observation_tensor(None)) == len(vec)
            assert all(0.0 <= x <= 1.0 for x in vec[:-8])
            richer = with_money(s, (s.money[0],) + (9900,) * (players - 1))
            assert richer.observation_tensor(0) == vec


@pytest.mark.parametrize(
    "change",
    [
        {"pos": [36, 0, 0]},
        {"sign": [12, 0, 0]},
        {"owner": [3] + [-1] * 71},
        {"money": [-100, 0, 0]},
        {"actor": 7},
        {"lot": [5]},
        {"firsts": [[0, 0]] + [[]] * 11},
    ],
)
def test_json_with_impossible_values_is_refused(change: dict[str, object]) -> None:
    s = random_state(4, 10)
    data = s.to_json()
    data.update(change)
    with pytest.raises(ValueError, match="out of range"):
        s.game.state_from_json(data)


def test_the_log_keeps_the_last_six_public_events() -> None:
    g = tianxia.load_game("mandarin", players=2)
    s = g.new_initial_state().apply("sign rat").apply("sign horse")
    assert s.observation(None)["log"] == ["P1: sign rat", "P2: sign horse"]
    for _ in range(3):
        s = s.apply("die 3")
    assert s.observation(1)["log"] == [
        "P1: sign rat",
        "P2: sign horse",
        "die 3",
        "die 3",
        "die 3",
    ]
    s = s.apply("die 3").apply("die 3")
    assert len(s.observation(0)["log"]) == 6 and s.observation(0)["log"][0] == "P2: sign horse"


def test_the_heuristic_counts_a_standing_bid_as_money_promised() -> None:
    from test_mandarin_auction import auction

    s = auction(money=(3000, 3000, 3000))
    # The lot is one face-up tile and one face-down one: worth 400 at the bank.
    fair = s.apply("bid 400")
    dear = s.apply("bid 2000")
    beyond = s.apply("bid 3100")
    assert fair.heuristic_terms(0)["wealth_lead"] == pytest.approx(0.0, abs=0.07)
    assert dear.heuristic_terms(0)["wealth_lead"] < fair.heuristic_terms(0)["wealth_lead"]
    # An over-bid forfeits the whole purse: worse than any bid within it.
    assert beyond.heuristic_terms(0)["wealth_lead"] < dear.heuristic_terms(0)["wealth_lead"]
    assert beyond.heuristic(0) < dear.heuristic(0) < fair.heuristic(0)
