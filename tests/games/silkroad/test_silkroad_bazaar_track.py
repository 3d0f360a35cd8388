"""The bazaar track (SR-6.5) on a data file shaped like the printed one: fewer rows than
bazaar cards, so bazaars are skipped and not every merchant can call one; and the ruling
that bazaar cards do not count toward the three cards before a player (SR-3.2, SR-9.2)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import tianxia
from tianxia.core import CHANCE, IllegalActionError, Match
from tianxia.games.silkroad.actions import CallBazaar, Draw, Give, Play, Wait
from tianxia.games.silkroad.data import load_data
from tianxia.games.silkroad.game import SilkroadGame
from tianxia.games.silkroad.position import card, position
from tianxia.games.silkroad.rules import DEAL, END, TURN, describe
from tianxia.games.silkroad.state import SilkroadState

# A bazaar track shaped like the printed one: six rows for seven bazaar cards.
PRINTED = Path(__file__).parents[2] / "data" / "silkroad-printed-bazaar"


@pytest.fixture
def printed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Games created inside the test read the six-row bazaar track."""
    monkeypatch.setenv("TIANXIA_DATA_DIR", str(PRINTED))
    load_data.cache_clear()
    yield
    monkeypatch.delenv("TIANXIA_DATA_DIR")
    load_data.cache_clear()


def game(n: int) -> SilkroadGame:
    g = tianxia.load_game("silkroad", players=n)
    assert isinstance(g, SilkroadGame)
    return g


def st(x: object) -> SilkroadState:
    assert isinstance(x, SilkroadState)
    return x


def refused(s: SilkroadState, action: object, rule: str) -> None:
    before = s.to_json()
    with pytest.raises(IllegalActionError) as err:
        s.apply(action)
    assert err.value.rule == rule, err.value.reason
    assert s.to_json() == before


# --- loading -------------------------------------------------------------------------


def test_a_track_with_fewer_rows_than_bazaar_cards_loads(printed: None) -> None:
    d = load_data()
    assert d.bazaar_cards == 7 and len(d.bazaar) == 6
    assert "bazaar.toml" not in d.reconstructed
    assert d.bazaar_row(6) == d.bazaar[5] and d.bazaar_row(7) is None
    g = game(4)
    assert g.layout()["bazaar_cards"] == 7 and len(g.layout()["bazaar"]) == 6
    assert g.spare_bazaars == 3


def test_the_shipped_track_is_six_rows_for_seven_cards() -> None:
    d = load_data()
    assert [d.bazaar_row(m) for m in range(1, 7)] == list(d.bazaar)
    assert d.bazaar_row(7) is None and d.bazaar_cards == 7
    g = game(7)
    assert g.info.version == g.rules_version == 3
    assert len(g.layout()["bazaar"]) == 6 and g.layout()["bazaar_cards"] == 7


# --- games stored under rules versions 1 and 2: the seven-row track ---------------------


def greedy_bazaars(g: SilkroadGame, seed: int) -> Match:
    """A game in which every merchant calls his bazaar as soon as he may."""
    m = Match(g, seed=seed)
    rng = random.Random(seed)
    while not m.state.is_terminal():
        m.resolve_chance()
        if m.state.is_terminal():
            break
        legal = m.state.legal_actions()
        m.play(CallBazaar() if CallBazaar() in legal else rng.choice(legal))
    return m


def test_a_game_stored_under_version_2_keeps_the_seven_row_track_and_finishes() -> None:
    old_options = SilkroadGame.options_of_version(2, {})
    old = tianxia.load_game("silkroad", players=7, **old_options)
    assert isinstance(old, SilkroadGame) and old.rules_version == 2
    assert len(old.data.bazaar) == 7 and old.layout()["bazaar_cards"] == 7
    assert old.spec()["options"] == {"rules_version": 2} and old != game(7)
    # Seven players, each with one card, all calling: the seventh calls bazaar 7.
    played = next(m for m in (greedy_bazaars(old, seed) for seed in range(10)) if seventh_called(m))
    save = played.to_json()
    assert save["rules_version"] == 2
    # As version 2 wrote it: its options held nothing, since the option did not exist.
    stored = {**save, "options": {}}
    mid = len(stored["log"]) // 2
    halfway = {**stored, "log": stored["log"][:mid], "ids": stored["ids"][:mid]}
    halfway.pop("rng")
    for data in (stored, halfway):
        again = Match.from_json(data)
        assert again.game == old and again.game.rules_version == 2
        assert again.log == played.log[: len(data["log"])]
    assert Match.from_json(stored).state == played.state
    # A stored game in progress plays on to its end on the seven-row track.
    m = Match.from_json(halfway)
    rng = random.Random(5)
    while not m.state.is_terminal():
        m.resolve_chance()
        if not m.state.is_terminal():
            m.play(rng.choice(m.state.legal_actions()))
    assert st(m.state).phase == END
    # Under the current rules the seventh call is refused: the version had to change.
    with pytest.raises(ValueError, match=r"SR-6\.5"):
        Match.from_json({**stored, "rules_version": 3})


def seventh_called(m: Match) -> bool:
    return any("calls bazaar 7" in str(st(s).log[-1]) for s in m.history[1:] if st(s).log)


# --- SR-6.5: past the last row ---------------------------------------------------------


def test_past_the_last_row_no_bazaar_can_be_called(printed: None) -> None:
    g = game(4)
    # Five bazaar cards are spent; player 1 holds one, one more lies in the pile.
    on_last = position(
        g, [10, 20, 19, 5], marker=6, deck_bazaars=1, bazaar_cards=(1, 0, 0, 0), milestone=1
    )
    assert CallBazaar() in on_last.legal_actions()
    called = st(on_last.apply(CallBazaar()))
    assert called.silver == (17, 30, 22, 10) and called.pos[0] == 8 and called.marker == 7

    # The last card left the pile and pushed the marker off the track: player 1's is dead.
    past = position(
        g,
        [10, 20, 19, 5],
        hands=[[card(g, "caravan-3")], [], [], []],
        marker=7,
        deck_bazaars=0,
        bazaar_cards=(1, 0, 0, 0),
    )
    assert CallBazaar() not in past.legal_actions()
    refused(past, CallBazaar(), "SR-6.5")
    assert past.observation(0)["bazaar_allowed"] == [False] * 4
    assert "run out" in describe(past, CallBazaar())


def test_a_bazaar_card_drawn_on_the_last_row_pushes_the_marker_off_the_track(
    printed: None,
) -> None:
    g = game(4)
    c5 = card(g, "caravan-5")
    s = position(
        g,
        [5, 3, 3, 0],
        hands=[[c5], [], [], []],
        marker=6,
        deck_bazaars=1,
        bazaar_cards=(0, 1, 0, 0),
    )
    assert s.observation(None)["bazaar_allowed"] == [False, True, False, False]
    s = st(s.apply(Play(c5, 0)))
    s = st(s.apply(Draw(-1)))
    assert s.marker == 7 and s.deck_bazaars == 0
    assert "the bazaar track has run out" in s.log[-1]
    s = st(s.apply(Draw(card(g, "caravan-3"))))
    s = st(s.apply(Draw(card(g, "caravan-4"))))
    s = st(s.apply(Draw(card(g, "caravan-4"))))
    # Player 2 still holds his bazaar card on his turn, and may not call it.
    assert s.phase == TURN and s.turn_seat == 1
    assert s.bazaar_cards == (0, 1, 0, 0)
    assert CallBazaar() not in s.legal_actions()
    refused(s, CallBazaar(), "SR-6.5")


def test_the_journey_ends_when_only_uncallable_bazaar_cards_are_left(printed: None) -> None:
    g = game(4)
    c3 = card(g, "caravan-3")
    before = position(
        g,
        [5, 3, 3, 0],
        displays=[[c3], [], [], []],
        marker=7,
        deck_bazaars=0,
        bazaar_cards=(0, 1, 0, 0),
        turn=4,
    )
    s = st(before.apply(Give(c3, 1)))
    assert s.ended == "stall" and s.is_terminal()
    assert s.silver == (10, 10, 10, 10)
    # With a row left on the track the journey goes on and player 2 calls his bazaar.
    live = st(before.replace(marker=6, bazaar_cards=(0, 1, 1, 0)).apply(Give(c3, 1)))
    assert not live.is_terminal() and live.turn_seat == 1
    assert live.legal_actions() == (CallBazaar(),)
    assert Wait() not in live.legal_actions()


def test_a_company_cannot_call_its_second_bazaar_past_the_last_row(printed: None) -> None:
    g = game(2)
    s = position(
        g, [5, 3, 3, 0, 1, 2], marker=7, last_call=(3, 5), bazaar_cards=(1, 0), deck_bazaars=0
    )
    refused(s, CallBazaar(), "SR-6.5")
    assert CallBazaar() in s.replace(marker=6, deck_bazaars=1).legal_actions()


def journeys(n: int, seeds: range) -> Iterator[tuple[SilkroadGame, list[SilkroadState]]]:
    g = game(n)
    for seed in seeds:
        m = Match(g, seed=seed)
        rng = random.Random(seed)
        seen = [st(m.state)]
        while not m.state.is_terminal():
            if m.state.current_player() == CHANCE:
                m.resolve_chance()
            else:
                m.play(rng.choice(m.state.legal_actions()))
            seen.append(st(m.state))
        yield g, seen


@pytest.mark.parametrize("n", [2, 4, 7])
def test_random_journeys_on_the_printed_track_end_and_skip_bazaars(printed: None, n: int) -> None:
    skipped = 0
    for g, seen in journeys(n, range(3)):
        assert len(seen) <= g.info.max_game_length
        for s in seen:
            if s.phase == DEAL:
                continue
            assert s.deck_bazaars + (s.marker - 1) + sum(s.bazaar_cards) == 7
            if s.marker > 6:
                assert not any(s.observation(None)["bazaar_allowed"])
        final = seen[-1]
        assert final.phase == END and final.ended in ("venice", "stall")
        skipped += sum(final.bazaar_cards)
    # Six rows for seven cards: at seven players one card is always left uncalled.
    if n == 7:
        assert skipped >= 3


# --- ruling: bazaar cards are not among the three cards before a player ---------------


def test_bazaar_cards_do_not_count_toward_the_three_cards_before_a_player() -> None:
    g = game(3)
    c3, c4, c5 = card(g, "caravan-3"), card(g, "caravan-4"), card(g, "caravan-5")
    # Two movement cards and both bazaar cards lie before player 1: option A stays open.
    s = position(g, [5, 3, 3, 0, 1, 2], hands=[[c5], [], []], displays=[[c3, c4], [], []])
    assert s.bazaar_cards[0] == 2
    assert Play(c5, 0) in s.legal_actions()
    s = st(s.apply(Play(c5, 0)))
    assert len(s.displays[0]) == 3 and s.bazaar_cards[0] == 2
    # The third movement card closes option A, bazaar cards or not.
    full = position(g, [5, 3, 3, 0, 1, 2], hands=[[c5], [], []], displays=[[c3, c3, c4], [], []])
    refused(full, Play(c5, 0), "SR-3.2")
    assert full.observation(None)["penalties_due"][0] == 6


def test_bazaar_cards_left_over_cost_nothing_at_the_end(printed: None) -> None:
    g = game(4)
    c5 = card(g, "caravan-5")
    s = position(
        g,
        [75, 70, 60, 60],
        hands=[[c5], [], [], []],
        marker=7,
        deck_bazaars=0,
        bazaar_cards=(1, 0, 0, 0),
        milestone=4,
    )
    s = st(s.apply(Play(c5, 0)))
    assert s.ended == "venice" and s.bazaar_cards == (1, 0, 0, 0)
    venice = g.data.cities[-1]
    paid = [venice.pay(p) for p in (80, 70, 60, 60)]
    assert s.silver == (10 + paid[0] - 1, 10 + paid[1], 10 + paid[2], 10 + paid[3])
