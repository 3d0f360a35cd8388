"""Phase 5: yin and yang cards (EM-8)."""

from __future__ import annotations

import dataclasses

import pytest

import tianxia
from tianxia import IllegalActionError
from tianxia.games.emperor.position import play, position, where
from tianxia.games.emperor.rules import Tables

G2 = tianxia.load_game("emperor", players=2)
HOLD = {"hopeh": (0, 5), "honan": (1, 3), "korea": (1, 2)}


def legal(s) -> set[str]:  # type: ignore[no-untyped-def]
    return {str(a) for a in s.legal_actions()}


def phase5(**kw):  # type: ignore[no-untyped-def]
    return position(G2, kw.pop("holdings", HOLD), phase="assign yang", **kw)


def test_cards_go_face_down_yang_to_any_province_yin_to_an_own_one() -> None:
    s = phase5(holdings={**HOLD, "shantung": (0, 2)})
    assert legal(s) == {f"yang {p}" for p in s.t.ids}
    s = s.apply("yang korea")
    assert legal(s) == {"yin hopeh", "yin shantung"}
    s = s.apply("yin shantung")
    assert s.is_chance_node() and s.phase == "draw yin"
    assert s.observation(0)["my_fresh_yang"] is None


@pytest.mark.parametrize("target", ["honan", "taiwan"])
def test_yin_card_may_not_be_aimed_at_a_rival_or_dropped_on_an_empty_province(
    target: str,
) -> None:
    s = phase5().apply("yang korea")
    with pytest.raises(IllegalActionError) as e:
        s.apply(f"yin {target}")
    assert e.value.rule == "EM-8.1" and "drawer's own" in e.value.reason


def test_a_drawer_without_provinces_assigns_his_yin_card_anywhere() -> None:
    s = position(G2, {"honan": (1, 3)}, phase="assign yang").apply("yang korea")
    assert legal(s) == {f"yin {p}" for p in s.t.ids}


def test_yin_target_any_option_keeps_the_old_free_assignment() -> None:
    g = tianxia.load_game("emperor", players=2, yin_target="any")
    s = position(g, HOLD, phase="assign yang").apply("yang korea")
    assert legal(s) == {f"yin {p}" for p in s.t.ids}
    assert play(s, "yin honan", "yin card plague", "yang card water").units[s.t.index["honan"]] == 2


def test_yin_card_costs_one_unit_and_yang_card_is_kept() -> None:
    s = play(phase5(), "yang korea", "yin hopeh", "yin card plague", "yang card water")
    assert where(s, "hopeh") == (0, 4)
    assert s.hands[0][s.t.yang_index["water"]] == 1
    assert s.player == 1


def test_yin_card_can_empty_a_province() -> None:
    holdings = {**HOLD, "hopeh": (0, 2), "shantung": (0, 3)}
    s = play(
        phase5(holdings=holdings), "yang korea", "yin hopeh", "yin card hunger", "yang card water"
    )
    assert s.current_player() == 0 and legal(s) == {"endure"}
    s = s.apply("endure")
    assert where(s, "hopeh") == (None, 0)


def test_owner_of_the_struck_province_plays_his_defence_card() -> None:
    s = play(
        phase5(hands={0: {"hunger": 1}}),
        "yang korea",
        "yin hopeh",
        "yin card hunger",
        "yang card water",
    )
    assert s.current_player() == 0 and legal(s) == {"defend", "endure"}
    defended = s.apply("defend")
    assert where(defended, "hopeh") == (0, 5)
    hunger = s.t.yang_index["hunger"]
    assert defended.hands[0][hunger] == 0 and defended.yang_out[hunger] == 1
    endured = s.apply("endure")
    assert where(endured, "hopeh") == (0, 3)


def test_defence_card_must_match_the_yin_card() -> None:
    s = play(
        phase5(hands={0: {"hunger": 1}}),
        "yang korea",
        "yin hopeh",
        "yin card flood",
        "yang card water",
    )
    with pytest.raises(IllegalActionError) as e:
        s.apply("defend")
    assert e.value.rule == "EM-8.2"


def test_fresh_yang_defends_only_in_the_same_province() -> None:
    s = play(phase5(), "yang hopeh", "yin hopeh", "yin card flood", "yang card flood")
    assert legal(s) == {"defend", "endure"}
    s = s.apply("defend")
    assert where(s, "hopeh") == (0, 5) and sum(s.hands[0]) == 0
    s = play(phase5(), "yang korea", "yin hopeh", "yin card flood", "yang card flood")
    assert legal(s) == {"endure"}
    s = s.apply("endure")
    assert where(s, "hopeh") == (0, 3) and s.hands[0][s.t.yang_index["flood"]] == 1


def test_special_yin_destroys_every_attack_card_the_fresh_one_included() -> None:
    hands = {0: {"water": 1, "mountains": 2, "hunger": 1}}
    s = play(
        phase5(hands=hands), "yang hopeh", "yin hopeh", "yin card special", "yang card great_wall"
    )
    t = s.t
    assert s.hands[0][t.yang_index["hunger"]] == 1 and sum(s.hands[0]) == 1
    assert (
        s.yang_out[t.yang_index["mountains"]] == 2 and s.yang_out[t.yang_index["great_wall"]] == 1
    )
    assert where(s, "hopeh") == (0, 5)


def test_economy_card_places_its_marker_even_in_an_opponents_province() -> None:
    s = play(phase5(), "yang honan", "yin hopeh", "yin card rebellion", "yang card agriculture")
    assert s.markers[s.t.index["honan"]] == (0, 0, 1)
    assert sum(s.hands[0]) == 0
    assert s.observation(None)["provinces"][s.t.index["honan"]]["markers"]["agriculture"] == 1


def test_economy_card_without_a_marker_left_is_kept_face_up() -> None:
    g = tianxia.load_game("emperor", players=2)
    c = dataclasses.replace(g.tables.c, marker_counts=(1, 4, 4))
    g.tables = Tables(c, 2, "colonists_cross", "mountains")
    s = position(g, HOLD, phase="assign yang", markers={"korea": {"city": 1}})
    s = play(s, "yang hopeh", "yin hopeh", "yin card plague", "yang card city")
    assert s.hands[0][s.t.yang_index["city"]] == 1
    assert s.observation(1)["players"][0]["shown_cards"] == {"city": 1}


def test_yin_deck_is_public_and_drawn_card_by_card() -> None:
    s = play(phase5(), "yang korea", "yin hopeh")
    outcomes = dict((str(a), p) for a, p in s.chance_outcomes())
    assert outcomes["yin card special"] == pytest.approx(2 / 32)
    assert outcomes["yin card hunger"] == pytest.approx(6 / 32)
    s = s.apply("yin card special")
    assert s.observation(1)["yin_deck"]["special"] == 1


def test_the_player_of_the_last_turn_draws_no_cards() -> None:
    s = position(G2, HOLD, turn=33)
    s = s.apply("done")
    assert s.is_terminal()
    assert sum(s.yang_deck) == 32
