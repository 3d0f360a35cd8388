"""The end of the game and scoring (EM-3, EM-9)."""

from __future__ import annotations

import tianxia
from tianxia.games.emperor import rules
from tianxia.games.emperor.position import play, position, where

G2 = tianxia.load_game("emperor", players=2)
G3 = tianxia.load_game("emperor", players=3)

FIFTEEN = [
    "hopeh",
    "shantung",
    "shansi",
    "honan",
    "shensi",
    "kansu",
    "szechwan",
    "hupeh",
    "hunan",
    "kiangsi",
    "anhwei",
    "kiangsu",
    "chekiang",
    "fukien",
    "kwangtung",
]


def finish_turn(s, yin_at: str, yin_kind: str = "plague"):  # type: ignore[no-untyped-def]
    """Play out the current player's turn: first growth target, done, then the cards."""
    while s.phase == "growth":
        s = s.apply(s.legal_actions()[0])
    while s.phase in ("colonisation", "movement", "expansion"):
        s = s.apply("done")
    return play(s, f"yang {s.t.ids[0]}", f"yin {yin_at}", f"yin card {yin_kind}", "yang card water")


def test_game_ends_after_33_turns() -> None:
    s = position(G2, {"hopeh": (0, 5), "korea": (1, 2)}, turn=32, player=1)
    s = finish_turn(s, "korea")
    assert s.turn == 33 and s.player == 0 and not s.is_terminal()
    s = finish_turn_without_cards(s)
    assert s.is_terminal()
    assert s.observation(None)["returns"] == s.returns()


def finish_turn_without_cards(s):  # type: ignore[no-untyped-def]
    while s.phase == "growth":
        s = s.apply(s.legal_actions()[0])
    while s.phase in ("colonisation", "movement", "expansion"):
        s = s.apply("done")
    return s


def test_fifteen_provinces_held_until_the_next_turn_end_the_game() -> None:
    holdings = {p: (0, 2) for p in FIFTEEN} | {"korea": (1, 2)}
    s = position(G2, holdings, turn=5)
    assert rules.control(s, 0) == 19  # 15 held, Taiwan, Kwangsi, Kweichow, Yunnan influenced
    s = finish_turn(s, "hopeh")
    assert s.claims[0] and s.player == 1
    s = finish_turn(s, "korea")
    assert s.is_terminal()
    assert s.returns() == [1.0, -1.0]


def test_fifteen_provinces_lost_before_the_next_turn_lapse() -> None:
    opp = {p: (1, 2) for p in ("korea", "liaoning", "yunnan", "kweichow", "kwangsi", "taiwan")}
    holdings = {p: (0, 2) for p in FIFTEEN} | opp | {"kwangtung": (0, 1)}
    s = position(G2, holdings, turn=5)
    assert rules.control(s, 0) == 15
    s = finish_turn(s, "hopeh")
    assert s.claims[0]
    # seat 1 takes Kwangtung away before seat 0's next turn
    s = s.apply(s.legal_actions()[0])
    while s.phase in ("colonisation", "movement"):
        s = s.apply("done")
    s = play(s, "attack kwangsi>kwangtung", "stand", "roll", "die 2", "advance 0", "done")
    s = play(s, "yang hopeh", "yin korea", "yin card plague", "yang card water")
    assert where(s, "kwangtung") == (None, 0)
    assert rules.control(s, 0) == 14
    assert not s.is_terminal() and s.player == 0 and not s.claims[0]


def test_eliminating_the_last_opponent_ends_the_game() -> None:
    s = position(G2, {"hopeh": (0, 6), "honan": (1, 1)})
    s = play(s, "attack hopeh>honan", "stand", "roll", "die 2")
    assert s.is_terminal()
    assert s.returns() == [1.0, -1.0]


def test_an_eliminated_player_takes_no_more_turns() -> None:
    s = position(G3, {"hopeh": (0, 6), "honan": (1, 1), "korea": (2, 2)})
    s = play(s, "attack hopeh>honan", "stand", "roll", "die 2")
    assert not s.is_terminal() and s.phase == "advance"
    s = play(
        s, "advance 0", "done", "yang hopeh", "yin hopeh", "yin card plague", "yang card water"
    )
    assert s.player == 2
    assert s.observation(None)["players"][1]["status"] == "eliminated"


def test_influence_clause_a_borders_own_provinces_and_no_opponent() -> None:
    s = position(G2, {"hopeh": (0, 3), "anhwei": (1, 3)})
    infl = rules.influence(s)
    ix = s.t.index
    assert infl[ix["shantung"]] == -1  # borders both
    assert infl[ix["liaoning"]] == 0  # borders Hopeh only (across the wall: still a neighbour)
    assert infl[ix["chekiang"]] == 1
    assert infl[ix["yunnan"]] == -1  # far from both, reachable by both through empty land


def test_influence_clause_b_no_opponent_reaches_it_through_empty_provinces() -> None:
    # Kweichow has no occupied neighbour; its empty region (Szechwan, Hunan, Kwangsi, Yunnan,
    # Kweichow) borders only the provinces of seat 0
    ring = {p: (0, 2) for p in ("shensi", "kansu", "hupeh", "kiangsi", "kwangtung")}
    s = position(G2, ring | {"korea": (1, 2)})
    ix = s.t.index
    assert rules.influence(s)[ix["kweichow"]] == 0
    s = position(G2, ring | {"kwangtung": (1, 2)})
    assert rules.influence(s)[ix["kweichow"]] == -1  # the opponent reaches it through Kwangsi


def test_influence_clause_b_for_an_enclosed_empty_region() -> None:
    # Kwangsi, Kweichow and Yunnan are empty; Szechwan, Hunan, Kwangtung hold them in
    s = position(G2, {"szechwan": (0, 3), "hunan": (0, 3), "kwangtung": (0, 3), "hopeh": (1, 3)})
    ix = s.t.index
    infl = rules.influence(s)
    assert infl[ix["yunnan"]] == infl[ix["kweichow"]] == infl[ix["kwangsi"]] == 0
    s = position(G2, {"szechwan": (0, 3), "hunan": (0, 3), "kwangtung": (1, 3)})
    infl = rules.influence(s)
    assert infl[ix["yunnan"]] == 0  # borders Szechwan only (a)
    assert infl[ix["kwangsi"]] == -1  # borders both


def test_score_counts_units_cards_provinces_and_markers() -> None:
    s = position(
        G2,
        {"hopeh": (0, 5), "honan": (0, 2), "korea": (1, 2)},
        hands={0: {"water": 1, "flood": 1}},
        markers={"hopeh": {"city": 1, "agriculture": 1}, "honan": {"mine": 1}},
    )
    control = rules.control(s, 0)
    assert s.scores()[0] == 7 + 2 + 2 * control + 1 + 2 + 1


def test_returns_split_between_winners_and_sum_to_zero() -> None:
    s = position(G3, {"hopeh": (0, 3), "honan": (1, 3), "korea": (2, 1)}, turn=33)
    s = s.apply("done")
    r = s.returns()
    assert abs(sum(r)) < 1e-9 and max(r) == 1.0


def test_fifteen_provinces_reached_outside_the_own_turn_count_from_the_end_of_the_next() -> None:
    holdings = {p: (0, 2) for p in FIFTEEN} | {"korea": (1, 2)}
    s = position(G2, holdings, turn=5, player=1)
    assert rules.control(s, 0) >= 15 and not s.claims[0]
    s = finish_turn(s, "korea")
    # no claim was made at the end of seat 0's own turn, so his turn is played
    assert not s.is_terminal() and s.player == 0
    s = finish_turn(s, "hopeh")
    assert s.claims[0] and not s.is_terminal()
    s = finish_turn(s, "korea")
    assert s.is_terminal() and s.returns() == [1.0, -1.0]
