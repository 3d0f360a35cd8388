"""Observations, hidden cards, resampling, notation and refusals."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tianxia
from tianxia import IllegalActionError, NotationError
from tianxia.core import Match
from tianxia.games.emperor import search
from tianxia.games.emperor.game import EmperorGame
from tianxia.games.emperor.position import play, position

G2 = tianxia.load_game("emperor", players=2)
G3 = tianxia.load_game("emperor", players=3)
HOLD = {"hopeh": (0, 5), "honan": (1, 3), "korea": (2, 2)}


def test_kept_yang_cards_are_seen_by_their_owner_only() -> None:
    s = position(G3, HOLD, hands={1: {"water": 1, "flood": 1}})
    assert s.observation(1)["my_cards"] == {"water": 1, "flood": 1}
    for seat in (0, 2, None):
        obs = s.observation(seat)
        assert "water" not in json.dumps(obs["my_cards"])
        assert obs["players"][1]["yang_cards"] == 2
    assert s.observation(None)["my_cards"] is None


def test_the_drawn_yang_card_is_seen_by_the_drawer_only() -> None:
    s = play(
        position(G3, HOLD, phase="assign yang"),
        "yang hopeh",
        "yin hopeh",
        "yin card flood",
        "yang card flood",
    )
    assert s.phase == "defence"
    assert s.observation(0)["my_fresh_yang"] == "flood"
    assert s.observation(1)["my_fresh_yang"] is None and s.observation(1)["yang_drawn"]


def test_observation_draws_the_whole_board() -> None:
    obs = position(G3, HOLD).observation(None)
    assert len(obs["provinces"]) == 21
    assert {"current_player", "phase", "pending", "scores", "log", "turn"} <= set(obs)
    assert obs["provinces"][0] == {
        "id": "hopeh",
        "owner": 0,
        "units": 5,
        "markers": {"city": 0, "mine": 0, "agriculture": 0},
        "influence": None,
    }


def test_resample_depends_only_on_what_the_seat_knows() -> None:
    a = position(G3, HOLD, hands={0: {"hunger": 1}, 1: {"water": 1, "flood": 1}})
    b = position(G3, HOLD, hands={0: {"hunger": 1}, 1: {"mountains": 2}})
    assert a.observation(0) == b.observation(0)
    ra = a.resample_from_infostate(0, random.Random(5))
    rb = b.resample_from_infostate(0, random.Random(5))
    assert ra.to_json() == rb.to_json()
    assert ra.observation(0) == a.observation(0)
    assert ra.hands[0] == a.hands[0]
    assert sum(ra.hands[1]) == 2 and sum(ra.yang_deck) == sum(a.yang_deck)


def test_resample_redraws_hidden_cards() -> None:
    s = position(G3, HOLD, hands={1: {"water": 1, "flood": 1}})
    hands = {s.resample_from_infostate(0, random.Random(i)).hands[1] for i in range(20)}
    assert len(hands) > 1
    assert all(sum(h[:3]) == 0 for h in hands)  # economy cards are never kept hidden


def test_resample_keeps_the_totals_of_every_card_kind() -> None:
    s = play(
        position(G3, HOLD, hands={1: {"water": 2}}, phase="assign yang"), "yang hopeh", "yin hopeh"
    )
    s = play(s, "yin card plague")
    s = s.apply("yang card mountains")
    for seed in range(10):
        r = s.resample_from_infostate(2, random.Random(seed))
        total = [
            r.yang_deck[k] + r.yang_out[k] + sum(h[k] for h in r.hands) + (r.fresh == k)
            for k in range(len(r.yang_deck))
        ]
        assert total == list(r.t.c.yang_counts)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=G3.info.num_distinct_actions + 19))
def test_every_action_round_trips_through_notation_and_id(i: int) -> None:
    a = G3.action_from_id(i)
    assert G3.parse_action_text(str(a)) == a
    assert G3.action_id(a) == i


def test_bad_state_json_is_refused() -> None:
    good = position(G3, HOLD).to_json()
    bad_values = (
        ("owner", [0, 1]),
        ("phase", "lunch"),
        ("turn", "x"),
        ("hands", [[0]]),
        ("attacked", [[1]]),
        ("battle", 5),
        ("markers", None),
        ("units", [11] + [0] * 20),
        ("player", 7),
        ("turn", 0),
    )
    for key, bad in bad_values:
        with pytest.raises(ValueError):
            G3.state_from_json({**good, key: bad})
    with pytest.raises(ValueError):
        G3.state_from_json({"owner": []})


def test_notation_errors_and_wrong_phase_reasons() -> None:
    s = position(G3, HOLD)
    with pytest.raises(NotationError):
        s.apply("attack hopeh to honan")
    with pytest.raises(IllegalActionError) as e:
        s.apply("grow hopeh")
    assert e.value.rule == "EM-7.1" and "expansion" in e.value.reason
    with pytest.raises(IllegalActionError) as e:
        s.apply("die 3")
    assert e.value.rule == "EM-3.1"
    assert s.explain("attack hopeh>honan").startswith("legal: attacks honan from hopeh")


def test_heuristic_favours_the_stronger_state() -> None:
    s = position(G2, {"hopeh": (0, 9), "honan": (0, 9), "korea": (1, 1)})
    assert s.heuristic(0) > 0 > s.heuristic(1)
    assert -1 <= s.heuristic(1) <= 1
    assert set(s.heuristic_terms(0)) >= {"score", "units", "provinces", "markers", "yang_cards"}


def test_the_win_model_reads_each_state_and_its_chances_give_the_hook() -> None:
    s = position(G2, {"hopeh": (0, 9), "honan": (0, 9), "korea": (1, 1)})
    rows, share = search.win_features(s)
    f = {name: [row[i] for row in rows] for i, name in enumerate(search.WIN_FEATURES)}
    assert f["score"] == [float(x) for x in s.scores()]
    assert f["units"] == [18.0, 1.0]
    assert f["to_move"] == [1.0, 0.0]
    assert share == 1 - s.turn / G2.tables.turns
    chances = search.win_chances(s)
    assert sum(chances) == pytest.approx(1.0) and chances[0] > chances[1]
    assert s.heuristics() == pytest.approx([2 * c - 1 for c in chances])
    assert tuple(s.heuristic_terms(0)) == search.WIN_FEATURES


def test_the_win_model_gives_no_chance_to_a_junior_or_an_eliminated_state() -> None:
    # A junior partner and an eliminated state cannot win (EM-9.3): the rest share it all,
    # and the hook is the expected return, a loser's for them.
    s = position(G3, {"hopeh": (1, 2), "honan": (1, 9), "korea": (2, 2)}, senior=(1, 1, 2))
    chances = search.win_chances(s)
    assert chances[0] == 0.0 and sum(chances) == pytest.approx(1.0)
    assert s.heuristic(0) == -0.5
    assert sum(s.heuristics()) == pytest.approx(0.0, abs=1e-12)
    out = position(G3, {"honan": (1, 9), "korea": (2, 2)})
    assert search.win_chances(out)[0] == 0.0
    # Sharing his senior's result, a junior wins with him: both get the state's chance.
    g = tianxia.load_game("emperor", players=3, merger_result="shared")
    shared = position(g, {"hopeh": (1, 2), "honan": (1, 9), "korea": (2, 2)}, senior=(1, 1, 2))
    c = search.win_chances(shared)
    assert c[0] == c[1] and c[1] + c[2] == pytest.approx(1.0)
    assert sum(shared.heuristics()) == pytest.approx(0.0, abs=1e-12)


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 10_000))
def test_the_hook_is_zero_sum_and_in_range_through_a_game(players: int, seed: int) -> None:
    from tianxia.core.match import sample_chance

    g = tianxia.load_game("emperor", players=players)
    rng = random.Random(seed)
    s = g.new_initial_state()
    for _ in range(150):
        if s.is_terminal():
            break
        h = s.heuristics()
        assert all(-1.0 <= v <= 1.0 for v in h)
        assert sum(h) == pytest.approx(0.0, abs=1e-9)
        assert h == [s.heuristic(x) for x in range(players)]
        s = s.apply(
            sample_chance(s, rng) if s.current_player() < 0 else rng.choice(s.legal_actions())
        )


def test_observation_tensor_has_a_fixed_length_and_hides_others_cards() -> None:
    a = position(G3, HOLD, hands={1: {"water": 1, "flood": 1}})
    b = position(G3, HOLD, hands={1: {"mountains": 2}})
    size = G3.observation_tensor_size()
    assert len(a.observation_tensor(None)) == size == len(a.observation_tensor(1))
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.observation_tensor(None) == b.observation_tensor(None)
    assert a.observation_tensor(1) != b.observation_tensor(1)


def test_every_refusal_names_a_rule_of_the_rules_document() -> None:
    from pathlib import Path

    from tianxia.core import CHANCE
    from tianxia.core.match import sample_chance

    doc = (Path(__file__).parents[3] / "docs" / "rules" / "emperor.md").read_text()
    rng = random.Random(11)
    seen: set[str] = set()
    s = G3.new_initial_state()
    steps = 0
    while not s.is_terminal() and steps < 400:
        if s.current_player() == CHANCE:
            s = s.apply(sample_chance(s, rng))
        else:
            legal = set(s.legal_actions())
            for a in rng.sample(G3.codec.actions, 40):
                if a not in legal:
                    with pytest.raises(IllegalActionError) as e:
                        s.apply(a)
                    seen.add(e.value.rule)
                    assert e.value.reason.strip()
            s = s.apply(rng.choice(sorted(legal, key=G3.action_id)))
        steps += 1
    assert len(seen) >= 5
    for rule in seen:
        assert re.search(rf"\*\*{re.escape(rule)}[ .*]", doc), rule


def test_resample_of_an_indistinguishable_twin_is_the_same() -> None:
    from tianxia.core import CHANCE
    from tianxia.core.match import sample_chance

    rng = random.Random(4)
    s = G3.new_initial_state()
    checked = 0
    while not s.is_terminal() and checked < 30:
        if s.current_player() == CHANCE:
            a = sample_chance(s, rng)
        else:
            a = rng.choice([x for x in s.legal_actions() if str(x)[:5] not in ("merge", "offer")])
        s = s.apply(a)
        if s.is_terminal() or sum(map(sum, s.hands)) == 0:
            continue
        for seat in range(3):
            twin = s.resample_from_infostate(seat, random.Random(99))
            assert twin.observation(seat) == s.observation(seat)
            mine = s.resample_from_infostate(seat, random.Random(7))
            assert mine.to_json() == twin.resample_from_infostate(seat, random.Random(7)).to_json()
            checked += 1
    assert checked >= 30


def test_heuristic_scores_a_junior_partner_as_holding_nothing() -> None:
    merged = position(G2, {"hopeh": (0, 9), "honan": (0, 9)}, senior=(0, 0))
    assert merged.heuristic(0) > 0.9 and merged.heuristic(1) < -0.9
    assert merged.heuristic_terms(1)["score"] == 0.0


def test_heuristic_under_shared_results_scores_one_merged_state_as_0() -> None:
    g = tianxia.load_game("emperor", players=2, merger_result="shared")
    merged = position(g, {"hopeh": (0, 9), "honan": (0, 9)}, senior=(0, 0))
    assert merged.heuristic(0) == 0.0 == merged.heuristic(1)


def test_heuristic_halves_a_lead_while_a_last_shared_merger_offer_awaits_its_reply() -> None:
    hold = {"hopeh": (0, 9), "honan": (0, 9), "korea": (1, 1)}
    g = tianxia.load_game("emperor", players=2, merger_result="shared")
    s = position(g, hold)
    offered = s.apply("merge 1")
    assert offered.current_player() == 1
    assert offered.heuristic(0) == pytest.approx(s.heuristic(0) / 2)
    # scored as it stands, an accepted offer makes the stronger state the winner
    s = position(G2, hold)
    assert s.apply("merge 1").heuristic(0) > s.heuristic(0) > 0


def test_heuristic_warns_a_weaker_proposer_that_acceptance_makes_him_junior() -> None:
    s = position(G2, {"hopeh": (0, 2), "honan": (1, 9)})
    offered = s.apply("merge 1")
    assert offered.current_player() == 1
    assert offered.heuristic(0) < s.heuristic(0) < 0


def test_heuristic_scores_a_merger_put_off_until_after_phase_5_as_done() -> None:
    # the weaker turn owner's offer is accepted: he merges after his phase 5 (EM-7.1)
    s = position(G3, {"hopeh": (0, 2), "honan": (1, 9), "korea": (2, 2)})
    s = play(s, "merge 1", "accept")
    assert s.merge == (1, 0) and s.phase == "assign yang"
    done = position(
        G3,
        {"hopeh": (1, 2), "honan": (1, 9), "korea": (2, 2)},
        senior=(1, 1, 2),
        phase="assign yang",
    ).replace(turn=s.turn, player=s.player)  # the same turn, still the junior's
    assert [s.heuristic(x) for x in range(3)] == pytest.approx(
        [done.heuristic(x) for x in range(3)]
    )
    # A junior partner's result cannot be a win: he expects a loser's return (EM-9.3).
    assert s.heuristic(0) == -0.5


OLD_SAVE = (
    Path(__file__).resolve().parents[2] / "data" / "saves-0.1" / "emperor-2p-seed5-midgame.json"
)


def test_a_save_of_rules_version_1_replays_under_the_old_rules() -> None:
    data = json.loads(OLD_SAVE.read_text(encoding="utf-8"))
    assert data["rules_version"] == 1 and "yin kweichow" in data["log"][:6]
    m = Match.from_json(data)
    assert dict(m.game.options) == {
        "borders": "closed",
        "yin_target": "any",
        "merger_result": "shared",
        "honan_shensi": "mountains",
    }
    assert EmperorGame.options_of_version(1, {"open_borders": True})["borders"] == "open"
    # under the current rules the first turn's yin card may not go to an empty province
    data = {**data, "rules_version": EmperorGame.VERSION, "options": {}}
    with pytest.raises(ValueError, match=r"EM-8\.1"):
        Match.from_json(data)


def test_state_json_round_trip_while_a_markers_growth_is_due() -> None:
    # the growth queue holds provinces, so a marker in Korea (province 19) is due from 19
    s = position(
        G2, {"korea": (0, 3), "hopeh": (1, 3)}, phase="growth", markers={"korea": {"city": 1}}
    )
    s = s.apply("grow korea")
    assert s.growth == (s.t.index["korea"],)
    again = G2.state_from_json(json.loads(json.dumps(s.to_json())))
    assert again.growth == s.growth and again.legal_actions() == s.legal_actions()
