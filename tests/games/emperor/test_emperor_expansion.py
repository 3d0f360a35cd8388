"""Phase 4: attacks, dice, retreats, advancing and mergers (EM-7)."""

from __future__ import annotations

import pytest

import tianxia
from tianxia import IllegalActionError
from tianxia.games.emperor.position import play, position, where

G2 = tianxia.load_game("emperor", players=2)
G3 = tianxia.load_game("emperor", players=3)


def legal(s) -> set[str]:  # type: ignore[no-untyped-def]
    return {str(a) for a in s.legal_actions()}


def test_even_roll_costs_the_defender_odd_the_attacker() -> None:
    s = position(G2, {"hopeh": (0, 6), "honan": (1, 3), "korea": (1, 1)})
    s = play(s, "attack hopeh>honan")
    assert s.current_player() == 1 and s.phase == "defender"
    s = play(s, "stand")
    assert s.current_player() == 0 and legal(s) == {"roll", "withdraw"}
    s = play(s, "roll", "die 2")
    assert where(s, "honan") == (1, 2) and where(s, "hopeh") == (0, 6)
    s = play(s, "stand", "roll", "die 5")
    assert where(s, "honan") == (1, 2) and where(s, "hopeh") == (0, 5)
    s = play(s, "stand", "roll", "die 6", "stand", "roll", "die 4")
    assert where(s, "honan") == (None, 0)
    assert s.phase == "advance"
    assert legal(s) == {f"advance {n}" for n in range(6)}


def test_advance_and_the_advancing_units_attack_no_more() -> None:
    s = position(G2, {"hopeh": (0, 6), "honan": (1, 1), "anhwei": (1, 2)})
    s = play(s, "attack hopeh>honan", "stand", "roll", "die 2", "advance 4")
    assert where(s, "honan") == (0, 4) and where(s, "hopeh") == (0, 2)
    with pytest.raises(IllegalActionError) as e:
        s.apply("attack honan>anhwei")
    assert e.value.rule == "EM-7.7"


def test_attacker_rolls_only_while_he_has_a_unit_in_the_attacking_province() -> None:
    s = position(G2, {"hopeh": (0, 1), "shantung": (0, 2), "honan": (1, 3), "anhwei": (1, 1)})
    s = play(s, "attack hopeh>honan", "stand", "roll", "die 1")
    assert where(s, "hopeh") == (None, 0)
    assert s.battle is None and s.phase == "expansion"


def test_attacker_may_withdraw_and_not_attack_again_from_there() -> None:
    s = position(G2, {"hopeh": (0, 6), "honan": (1, 3)})
    s = play(s, "attack hopeh>honan", "stand", "withdraw")
    assert s.phase == "expansion"
    with pytest.raises(IllegalActionError) as e:
        s.apply("attack hopeh>honan")
    assert e.value.rule == "EM-7.2" and "already" in e.value.reason


def test_only_an_opponents_province_is_attacked() -> None:
    s = position(G2, {"hopeh": (0, 6), "honan": (1, 3)})
    with pytest.raises(IllegalActionError) as e:
        s.apply("attack hopeh>shantung")
    assert e.value.rule == "EM-7.2"


def test_blocked_border_needs_the_matching_card_which_is_spent() -> None:
    holdings = {"hopeh": (0, 6), "liaoning": (1, 3)}
    s = position(G2, holdings)
    with pytest.raises(IllegalActionError) as e:
        s.apply("attack hopeh>liaoning")
    assert e.value.rule == "EM-7.3" and "great wall" in e.value.reason
    s = position(G2, holdings, hands={0: {"great_wall": 1}})
    wall = s.t.yang_index["great_wall"]
    s = s.apply("attack hopeh>liaoning")
    assert s.hands[0][wall] == 0 and s.yang_out[wall] == 1


def test_double_obstacle_needs_the_stronger_card() -> None:
    holdings = {"hopeh": (0, 6), "shansi": (1, 3)}
    s = position(G2, holdings, hands={0: {"mountains": 1, "water": 1}})
    assert "attack hopeh>shansi" not in legal(s)
    s = position(G2, holdings, hands={0: {"great_wall": 1}})
    assert "attack hopeh>shansi" in legal(s)


def test_retreat_before_the_first_roll() -> None:
    s = position(G2, {"hopeh": (0, 6), "honan": (1, 3), "anhwei": (1, 2)})
    s = s.apply("attack hopeh>honan")
    assert "retreat anhwei" in legal(s)
    s = s.apply("retreat anhwei")
    assert where(s, "anhwei") == (1, 5) and where(s, "honan") == (None, 0)
    assert s.phase == "advance" and s.current_player() == 0


def test_retreat_during_the_attack_with_the_cap() -> None:
    s = position(G2, {"hopeh": (0, 6), "honan": (1, 4), "anhwei": (1, 8)})
    s = play(s, "attack hopeh>honan", "stand", "roll", "die 2")
    s = s.apply("retreat anhwei")
    assert where(s, "anhwei") == (1, 10)  # 8 + 3, the surplus removed at once


def test_retreat_cannot_cross_a_blocked_border_without_a_card() -> None:
    # the Yellow River runs between Shansi and Shensi
    holdings = {"honan": (0, 6), "shansi": (1, 3), "shensi": (1, 2)}
    s = position(G2, holdings).apply("attack honan>shansi")
    assert "retreat shensi" not in legal(s)
    with pytest.raises(IllegalActionError) as e:
        s.apply("retreat shensi")
    assert e.value.rule == "EM-7.5"
    s = position(G2, holdings, hands={1: {"water": 1}}).apply("attack honan>shansi")
    s = s.apply("retreat shensi")
    assert where(s, "shensi") == (1, 5) and s.hands[1][s.t.yang_index["water"]] == 0
    # under closed borders too; only open borders let the retreat cross freely
    closed = tianxia.load_game("emperor", players=2, borders="closed")
    assert "retreat shensi" not in legal(position(closed, holdings).apply("attack honan>shansi"))
    opened = tianxia.load_game("emperor", players=2, borders="open")
    assert "retreat shensi" in legal(position(opened, holdings).apply("attack honan>shansi"))


def test_merger_proposal_needs_consent_and_the_weaker_becomes_junior() -> None:
    s = position(G3, {"hopeh": (0, 6), "honan": (1, 3), "korea": (2, 2)}, hands={1: {"hunger": 1}})
    s = s.apply("merge 1")
    assert s.current_player() == 1 and legal(s) == {"accept", "refuse"}
    refused = s.apply("refuse")
    assert refused.phase == "expansion" and "merge 1" not in legal(refused)
    s = s.apply("accept")
    assert where(s, "honan") == (0, 3)
    assert s.senior == (0, 0, 2)
    assert sum(s.hands[1]) == 0 and s.yang_out[s.t.yang_index["hunger"]] == 1
    obs = s.observation(None)
    assert obs["players"][1]["status"] == "junior"


def test_junior_partner_takes_no_more_turns() -> None:
    s = position(G3, {"hopeh": (0, 6), "honan": (0, 3), "korea": (2, 2)}, senior=(0, 0, 2))
    s = play(s, "done", "yang hopeh", "yin hopeh", "yin card plague", "yang card water")
    assert s.player == 2


def test_weaker_turn_owner_has_his_phase_5_before_the_merger() -> None:
    s = position(G3, {"hopeh": (0, 2), "honan": (1, 5), "korea": (2, 2)})
    s = play(s, "merge 1", "accept")
    assert s.phase == "assign yang" and s.merge == (1, 0)
    assert where(s, "hopeh") == (0, 2)
    s = play(s, "yang hopeh", "yin hopeh", "yin card drought", "yang card water")
    assert where(s, "hopeh") == (1, 1) and s.senior == (1, 1, 2)
    assert sum(s.hands[0]) == 0  # the card just kept is lost with the merger
    assert s.player == 1


def test_equal_states_merge_under_the_turn_owner() -> None:
    s = position(G3, {"hopeh": (0, 3), "honan": (1, 3), "korea": (2, 2)})
    s = play(s, "merge 1", "accept")
    assert s.senior == (0, 0, 2)


def test_defender_may_offer_a_merger_once() -> None:
    s = position(G3, {"hopeh": (0, 6), "honan": (1, 3), "korea": (2, 2)})
    s = play(s, "attack hopeh>honan", "offer merger")
    assert s.current_player() == 0 and legal(s) == {"accept", "refuse"}
    refused = s.apply("refuse")
    assert legal(refused) == {"roll", "withdraw"}
    refused = play(refused, "roll", "die 2")
    assert "offer merger" not in legal(refused)
    with pytest.raises(IllegalActionError) as e:
        refused.apply("offer merger")
    assert e.value.rule == "EM-7.6"
    merged = s.apply("accept")
    assert merged.senior == (0, 0, 2) and where(merged, "honan") == (0, 3)
    assert merged.battle is None


def test_junior_partner_scores_nothing_of_his_own() -> None:
    s = position(G3, {"hopeh": (0, 6), "honan": (0, 3), "korea": (2, 2)}, senior=(0, 0, 2), turn=33)
    s = s.apply("done")
    assert s.is_terminal()
    assert s.scores()[1] == 0 and s.scores()[0] > s.scores()[2] > 0
    assert s.returns() == [1.0, -0.5, -0.5]


def test_a_two_player_merger_is_won_by_the_senior() -> None:
    s = position(G2, {"hopeh": (0, 6), "honan": (1, 3)})
    s = play(s, "merge 1", "accept")
    assert s.is_terminal() and s.senior == (0, 0)
    assert s.returns() == [1.0, -1.0]


def test_shared_result_option_lets_the_junior_share_his_seniors_result() -> None:
    g = tianxia.load_game("emperor", players=3, merger_result="shared")
    s = position(g, {"hopeh": (0, 6), "honan": (0, 3), "korea": (2, 2)}, senior=(0, 0, 2), turn=33)
    s = s.apply("done")
    r = s.returns()
    assert r[0] == r[1] == 0.5 and r[2] == -1.0
    assert s.scores()[0] == s.scores()[1]
    two = tianxia.load_game("emperor", players=2, merger_result="shared")
    merged = play(position(two, {"hopeh": (0, 6), "honan": (1, 3)}), "merge 1", "accept")
    assert merged.is_terminal() and merged.returns() == [0.0, 0.0]
