"""Hidden information, resampling, notation and serialisation of Die Seidenstraße."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as hs

import tianxia
from tianxia.core import CHANCE, Match, NotationError
from tianxia.games.silkroad.actions import Give, Play
from tianxia.games.silkroad.game import SilkroadGame
from tianxia.games.silkroad.position import card, position
from tianxia.games.silkroad.state import SilkroadState

G4 = tianxia.load_game("silkroad", players=4)
G3 = tianxia.load_game("silkroad", players=3)
assert isinstance(G4, SilkroadGame) and isinstance(G3, SilkroadGame)


def played(g: SilkroadGame, seed: int, steps: int) -> SilkroadState:
    m = Match(g, seed=seed)
    rng = random.Random(seed)
    while len(m.log) < steps and not m.state.is_terminal():
        if m.state.current_player() == CHANCE:
            m.resolve_chance()
        else:
            m.play(rng.choice(m.state.legal_actions()))
    assert isinstance(m.state, SilkroadState)
    return m.state


def test_hands_are_hidden_and_cards_before_players_are_public() -> None:
    s = position(G4, [5, 3, 3, 0], hands=[[0, 1], [2, 3], [4], []], displays=[[], [5], [], []])
    mine = s.observation(1)
    assert mine["hand"] == [2, 3] and mine["hand_sizes"] == [2, 2, 1, 0]
    assert mine["displays"][1] == [5]
    assert s.observation(None)["hand"] is None
    text = json.dumps(s.observation(0))
    assert "[2, 3]" not in text


def test_the_observation_names_the_decision_and_everything_a_board_needs() -> None:
    obs = position(G4, [5, 3, 3, 0]).observation(None)
    for key in (
        "to_move",
        "decision",
        "merchants",
        "silver",
        "displays",
        "bazaar_marker",
        "milestone",
        "wind_rose",
        "pile",
        "discard",
        "log",
        "penalties_due",
    ):
        assert key in obs
    assert obs["merchants"][0] == {"colour": "white", "owner": 0, "field": 5}
    assert "P1" in obs["decision"]


def test_resampling_keeps_what_the_seat_knows_and_redraws_the_rest() -> None:
    s = played(G4, 4, 60)
    r = s.resample_from_infostate(2, random.Random(9))
    assert isinstance(r, SilkroadState)
    assert r.observation(2) == s.observation(2)
    assert [len(h) for h in r.hands] == [len(h) for h in s.hands]
    assert r.hands[2] == s.hands[2]
    totals = [sum(h.count(k) for h in r.hands) + r.deck[k] for k in range(len(r.deck))]
    expect = [sum(h.count(k) for h in s.hands) + s.deck[k] for k in range(len(s.deck))]
    assert totals == expect


def test_indistinguishable_states_resample_to_the_same_state() -> None:
    c3, c4, c5, c6 = (card(G4, k) for k in ("caravan-3", "caravan-4", "caravan-5", "caravan-6"))
    a = position(G4, [5, 3, 3, 0], hands=[[c3], [c4, c5], [c6], []])
    b = position(G4, [5, 3, 3, 0], hands=[[c3], [c6, c5], [c4], []])
    assert a.observation(0) == b.observation(0) and a != b
    ra = a.resample_from_infostate(0, random.Random(11))
    rb = b.resample_from_infostate(0, random.Random(11))
    assert ra == rb


def test_resampling_at_a_chance_node_never_touches_public_counts() -> None:
    s = position(G4, [5, 3, 3, 0], hands=[[card(G4, "caravan-3")], [], [], []])
    s2 = s.apply(Play(card(G4, "caravan-3"), 0))
    assert s2.current_player() == CHANCE
    r = s2.resample_from_infostate(1, random.Random(2))
    assert isinstance(r, SilkroadState) and isinstance(s2, SilkroadState)
    assert r.observation(1) == s2.observation(1) and r.deck_bazaars == s2.deck_bazaars


@settings(max_examples=150, deadline=None)
@given(
    hs.integers(
        min_value=0, max_value=G3.info.num_distinct_actions + G3.info.max_chance_outcomes - 1
    )
)
def test_every_action_id_and_notation_round_trips(i: int) -> None:
    a = G3.action_from_id(i)
    assert G3.action_id(a) == i
    assert G3.parse_action_text(str(a)) == a


def test_notation_reads_like_the_game() -> None:
    assert str(Play(card(G4, "caravan-5"), 0)) == "play #3 white"
    assert str(Give(0, 6)) == "give #1 orange"
    assert [str(a) for a in G4.codec.outcomes[:2]] == ["draw bazaar", "draw #1"]
    for bad in ("play #99 white", "give #1 black", "carry IV"):
        try:
            G4.parse_action_text(bad)
        except NotationError:
            continue
        raise AssertionError(f"{bad!r} was read")


def test_explain_names_the_rule() -> None:
    s = position(G4, [5, 3, 3, 0], hands=[[card(G4, "caravan-5")], [], [], []])
    assert s.explain("play #3 white").startswith("legal: lays #3")
    assert s.explain("play #3 yellow").startswith("illegal: SR-3.1")
    assert s.explain("give #3 yellow").startswith("illegal: SR-4.1")


def test_heuristic_prefers_silver_and_progress() -> None:
    s = position(G4, [40, 3, 3, 0], silver=(30, 10, 10, 10))
    assert s.heuristic(0) > 0 > s.heuristic(1)
    assert -1 <= s.heuristic(3) <= 1
    assert set(s.heuristic_terms(0)) == {"silver", "progress", "penalty", "bazaars"}


def test_observation_tensor_has_a_fixed_length_and_hides_other_hands() -> None:
    c3, c4, c5 = (card(G4, k) for k in ("caravan-3", "caravan-4", "caravan-5"))
    a = position(G4, [5, 3, 3, 0], hands=[[c3], [c4], [], []])
    b = position(G4, [5, 3, 3, 0], hands=[[c3], [c5], [], []])
    size = G4.observation_tensor_size()
    assert len(a.observation_tensor(0)) == size == len(played(G3, 1, 80).observation_tensor(None))
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.observation_tensor(1) != b.observation_tensor(1)


def test_a_broken_saved_state_is_refused_with_a_clear_error() -> None:
    good = position(G4, [5, 3, 3, 0]).to_json()
    for broken, words in (
        ({k: v for k, v in good.items() if k != "pos"}, "pos: missing"),
        ({**good, "hands": [[], []]}, "hands: one entry per seat (4)"),
        ({**good, "deck": [1, 2]}, "deck/discard: one count per card kind"),
        ({**good, "phase": "siesta"}, "phase: expected one of"),
        ({**good, "pos": [5, 3, "x", 0]}, "pos[2]: expected a whole number"),
        ({**good, "pos": [5, 3, 300, 0]}, "pos: at most 4 merchants, each on the track"),
    ):
        try:
            G4.state_from_json(broken)
        except ValueError as e:
            assert words in str(e)
        else:
            raise AssertionError(f"{words}: accepted")
