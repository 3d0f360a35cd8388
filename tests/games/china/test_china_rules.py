"""One test (or a few) per rule of docs/rules/china.md."""

from __future__ import annotations

import random

import pytest

import tianxia
from tianxia.core import CHANCE, TERMINAL, IllegalActionError, Match
from tianxia.games.china import rules
from tianxia.games.china.position import play, position
from tianxia.games.china.state import ChinaState


def g4(**options: object) -> tianxia.Game:
    return tianxia.load_game("china", players=4, **options)


def field(game: tianxia.Game, name: str) -> int:
    return game.board.field_names.index(name)  # type: ignore[attr-defined,no-any-return]


def rule_of(s: ChinaState, move: str) -> str:
    with pytest.raises(IllegalActionError) as err:
        s.apply(move)
    assert err.value.reason
    return err.value.rule


# --- CH-1 set-up ------------------------------------------------------------------
def test_board_side_follows_player_count() -> None:
    assert tianxia.load_game("china", players=3).options["board"] == "3-4"
    assert tianxia.load_game("china", players=5).options["board"] == "4-5"
    assert tianxia.load_game("china", players=4).options["board"] == "4-5"
    assert tianxia.load_game("china", players=4, board="3-4").options["board"] == "3-4"
    with pytest.raises(ValueError, match="3-4 side"):
        tianxia.load_game("china", players=3, board="4-5")
    with pytest.raises(ValueError, match="4-5 side"):
        tianxia.load_game("china", players=5, board="3-4")


def test_the_sides_differ_in_their_roads() -> None:
    small = tianxia.load_game("china", players=4, board="3-4").board  # type: ignore[attr-defined]
    large = tianxia.load_game("china", players=4, board="4-5").board  # type: ignore[attr-defined]
    assert small.field_names == large.field_names and small.roads != large.roads


@pytest.mark.parametrize(("players", "cards"), [(3, 47), (4, 52), (5, 57)])
def test_cards_removed_by_player_count(players: int, cards: int) -> None:
    s = tianxia.load_game("china", players=players).new_initial_state()
    assert isinstance(s, ChinaState)
    assert sum(s.deck) == cards
    assert len(set(s.deck)) == len(set(s.game.cards.deck))


def test_supplies_of_houses_emissaries_and_fortifications() -> None:
    plain = g4().new_initial_state()
    forts = g4(fortifications=True).new_initial_state()
    assert isinstance(plain, ChinaState) and isinstance(forts, ChinaState)
    assert plain.supply == ((20, 8, 0),) * 4
    assert forts.supply == ((20, 8, 1),) * 4


def test_deal_gives_three_hidden_cards_and_four_face_up() -> None:
    s = g4().new_initial_state()
    assert s.current_player() == CHANCE
    s = play(s, *["card red"] * 12, *["card green"] * 4)  # type: ignore[arg-type]
    assert s.current_player() == 0 and s.phase == "turn"
    assert all(sum(h) == 3 for h in s.hands) and sum(s.display) == 4
    assert s.observation(1)["hand"]["red"] == 3
    assert s.observation(None)["hand"] is None
    assert s.observation(None)["emperor"] == 0
    assert s.log[-1] == "cards dealt; P1 holds the Emperor and begins"


def test_a_game_of_rules_version_2_keeps_its_deal_line_and_its_saves_load() -> None:
    """The log is part of the state (and of stored games' hashes): a game stored under
    version 2 replays with the line it was played with, "seat 0", and plays to its end."""
    old = tianxia.load_game("china", players=4, **rules_version_2())
    assert old.rules_version == 2 and old.info.version == 2 and old != g4()
    m = Match(old, seed=3)
    m.resolve_chance()
    assert isinstance(m.state, ChinaState)
    assert m.state.log[-1] == "cards dealt; seat 0 holds the Emperor and begins"
    rng = random.Random(3)
    for _ in range(20):
        m.play(rng.choice(m.state.legal_actions()))
        m.resolve_chance()
    save = m.to_json()
    # Written as version 2 saves were: no legacy option among the options.
    save = {**save, "options": {k: v for k, v in save["options"].items() if k != "rules_version"}}
    assert save["rules_version"] == 2
    again = Match.from_json(save)
    assert again.state == m.state and again.game.rules_version == 2
    while not again.state.is_terminal():
        again.play(rng.choice(again.state.legal_actions()))
        again.resolve_chance()
    assert again.state.current_player() == TERMINAL


def rules_version_2() -> dict[str, object]:
    from tianxia.games.china.game import ChinaGame

    return ChinaGame.options_of_version(2, {})


# --- CH-2 the turn ----------------------------------------------------------------
def test_a_turn_places_or_exchanges_never_both() -> None:
    game = g4()
    s = position(game, houses={"Wei.1": 1}, hands=[{"red": 3}, {}, {}, {}], display={"red": 4})
    assert "exchange red" in {str(a) for a in s.legal_actions()}
    s = play(s, "house Wei.2")
    assert rule_of(s, "exchange red") == "CH-2"
    t = play(position(game, hands=[{"red": 3}, {}, {}, {}], display={"red": 4}), "exchange red")
    assert rule_of(t, "house Wei.1") == "CH-7"


def test_pass_only_when_neither_placing_nor_exchanging_is_possible() -> None:
    game = g4()
    s = position(game, hands=[{"red": 1}, {}, {}, {}], display={"red": 4})
    assert rule_of(s, "pass") == "CH-2.1"
    empty = position(
        game, hands=[{}, {}, {}, {}], deck={}, exhaustions=2, display={}, houses={"Wei.1": 1}
    )
    assert [str(a) for a in empty.legal_actions()] == ["pass"]


# --- CH-3 placing -----------------------------------------------------------------
def test_all_pieces_of_a_turn_go_into_one_province() -> None:
    s = position(
        g4(),
        houses={"Wei.1": 1, "Yan.1": 1},
        hands=[{"red": 3}, {}, {}, {}],
        display={"red": 4},
    )
    s = play(s, "house Wei.2")
    assert rule_of(s, "house Yan.2") == "CH-3.1"
    assert "house Wei.3" in {str(a) for a in s.legal_actions()}


def test_empty_province_judged_at_the_start_of_the_turn() -> None:
    s = position(g4(), hands=[{"red": 3}, {}, {}, {}], display={"red": 4})
    s = play(s, "house Wei.1")
    # the first house made Wei non-empty, but the limit was fixed at the start of the turn
    assert s.phase == "refill" and rule_of(s, "house Wei.2") == "CH-3.2"


def test_a_fortification_counts_as_a_piece_in_the_province() -> None:
    s = position(
        g4(fortifications=True),
        houses={"Zhao.1": 1},
        forts=["Wei.1"],
        hands=[{"red": 2}, {}, {}, {}],
        display={"red": 4},
    )
    s = play(s, "house Wei.1")
    assert s.phase == "place"


def test_one_card_per_piece_and_at_most_three_cards() -> None:
    s = position(
        g4(),
        houses={"Wei.1": 1},
        hands=[{"green": 2, "yellow": 1}, {}, {}, {}],
        display={"red": 4},
    )
    assert rule_of(s, "house Wei.2") == "CH-3.3"
    s = play(s, "house Wei.2 joker green")
    # a second joker would make four cards
    assert rule_of(s, "house Wei.3 joker yellow") == "CH-3.3"
    assert [str(a) for a in s.legal_actions()] == ["done"]


def test_joker_needs_two_cards_of_another_colour() -> None:
    s = position(
        g4(),
        houses={"Wei.1": 1},
        hands=[{"green": 1, "red": 2}, {}, {}, {}],
        display={"red": 4},
    )
    assert rule_of(s, "house Wei.2 joker green") == "CH-3.4"
    assert rule_of(s, "house Wei.2 joker red") == "CH-3.4"
    assert "house Chu.1 joker red" in {str(a) for a in s.legal_actions()}


def test_no_piece_of_a_kind_left_in_supply() -> None:
    game = g4()
    houses = {
        f"{p}.{k}": 0 for p, n in (("Chu", 8), ("Qin", 7), ("Qi", 5)) for k in range(1, n + 1)
    }
    s = position(game, houses=houses, hands=[{"red": 3}, {}, {}, {}], display={"red": 4})
    assert s.supply[0][0] == 0
    assert rule_of(s, "house Wei.1") == "CH-3.5"
    assert not any(str(a).startswith("house") for a in s.legal_actions())


def test_played_cards_go_to_the_open_discard_pile() -> None:
    s = position(
        g4(), houses={"Wei.1": 1}, hands=[{"red": 1, "green": 2}, {}, {}, {}], display={"red": 4}
    )
    s = play(s, "house Wei.2", "house Wei.3 joker green")
    assert s.discards == (0, 0, 0, 1, 2)
    assert s.observation(2)["discards"] == {
        "violet": 0,
        "yellow": 0,
        "orange": 0,
        "red": 1,
        "green": 2,
    }


# --- CH-4 houses and emissaries --------------------------------------------------------
def test_house_only_on_a_free_house_field() -> None:
    s = position(g4(), houses={"Wei.1": 1}, hands=[{"red": 1}, {}, {}, {}], display={"red": 4})
    assert rule_of(s, "house Wei.1") == "CH-4.1"


def test_no_emissary_where_no_house_stands() -> None:
    s = position(g4(), hands=[{"red": 1}, {}, {}, {}], display={"red": 4})
    with pytest.raises(IllegalActionError) as err:
        s.apply("emissary Wei")
    assert err.value.rule == "CH-4.2" and "no house" in err.value.reason


def test_emissary_without_own_house_and_after_scoring() -> None:
    houses = {f"Lu.{k}": 1 for k in range(1, 5)}
    s = position(
        g4(),
        houses=houses,
        scored=["Lu"],
        points=[0, 4, 0, 0],
        hands=[{"orange": 1}, {}, {}, {}],
        display={"red": 4},
    )
    assert "emissary Lu" in {str(a) for a in s.legal_actions()}


def test_emissary_limit_counts_houses_placed_earlier_in_the_turn() -> None:
    s = position(
        g4(),
        houses={"Wei.1": 0, "Wei.2": 1},
        emissaries={"Wei": [0, 1, 0, 0]},
        hands=[{"red": 2}, {}, {}, {}],
        display={"red": 4},
    )
    assert rule_of(s, "emissary Wei") == "CH-4.2"
    s = play(s, "house Wei.3", "emissary Wei")
    assert rules.emissaries_in(s, 4) == 2


# --- CH-5 house scoring ---------------------------------------------------------------
def test_full_province_scored_at_once_and_marked() -> None:
    s = position(
        g4(),
        houses={"Lu.1": 1, "Lu.2": 1, "Lu.3": 2},
        hands=[{"orange": 2}, {}, {}, {}],
        display={"red": 4},
    )
    s = play(s, "house Lu.4")
    assert s.points == (2, 4, 2, 0) and s.scored[8] == 1
    assert "Lu is full and scored" in s.log[-1]
    assert s.observation(None)["provinces"][8]["scored"] is True


def test_no_house_no_points_and_ties_share_a_rank() -> None:
    assert rules.rank_points([3, 3, 0, 1]) == [7, 7, 0, 3]
    assert rules.rank_points([1, 1, 1, 1]) == [4, 4, 4, 4]
    assert rules.rank_points([5, 4, 3, 2, 1]) == [15, 5, 4, 3, 2]


def test_a_fortification_alone_does_not_fill_a_field() -> None:
    s = position(
        g4(fortifications=True),
        houses={"Lu.1": 1, "Lu.2": 1, "Lu.3": 2},
        hands=[{"orange": 2}, {}, {}, {}],
        display={"red": 4},
    )
    s = play(s, "fortify Lu.4")
    assert s.scored[8] == 0 and s.points == (0, 0, 0, 0)
    s = play(s, "house Lu.4")
    assert s.scored[8] == 1 and s.points == (4, 4, 2, 0)


# --- CH-6 refilling -------------------------------------------------------------------
def test_refill_to_three_in_any_order_then_the_display() -> None:
    s = position(
        g4(),
        houses={"Wei.1": 1},
        hands=[{"red": 2, "green": 1}, {}, {}, {}],
        display={"yellow": 2, "violet": 2},
    )
    s = play(s, "house Wei.2", "house Wei.3", "take yellow")
    assert s.phase == "refill" and sum(s.display) == 3
    s = play(s, "draw")
    assert s.current_player() == CHANCE and s.phase == "draw"
    s = play(s, "card orange")
    # hand full: only now chance refills the display to four
    assert sum(s.hands[0]) == 3 and s.phase == "reveal" and sum(s.display) == 3
    assert s.known[0] == (0, 1, 0, 0, 0)
    s = play(s, "card red")
    assert s.phase == "turn" and s.seat == 1 and sum(s.display) == 4


def test_first_exhaustion_reshuffles_the_discards_and_keeps_the_display() -> None:
    s = position(
        g4(),
        houses={"Wei.1": 1},
        hands=[{"red": 2, "green": 1}, {}, {}, {}],
        display={"yellow": 4},
        discards={"violet": 5},
        deck={"orange": 1},
    )
    s = play(s, "house Wei.2", "house Wei.3", "draw", "card orange")
    assert s.exhaustions == 1 and s.deck == (5, 0, 0, 2, 0) and s.discards == (0,) * 5
    assert s.display == (0, 4, 0, 0, 0)


def test_second_exhaustion_refills_only_from_the_display() -> None:
    s = position(
        g4(),
        houses={"Wei.1": 1},
        hands=[{"red": 1, "green": 2}, {}, {}, {}],
        display={"yellow": 1},
        deck={"orange": 1},
        exhaustions=1,
    )
    s = play(s, "house Wei.2", "house Wei.3 joker green", "draw", "card orange")
    assert s.exhaustions == 2 and s.observation(None)["last_round"] is True
    assert rule_of(s, "draw") == "CH-6.4"
    s = play(s, "take yellow")
    # nothing is left to take or lay out: the hand stays short and the turn ends
    assert s.phase == "turn" and s.seat == 1 and sum(s.hands[0]) == 2


# --- CH-7 exchange ----------------------------------------------------------------------
def test_exchange_one_card_for_one_from_display_or_deck() -> None:
    s = position(g4(), hands=[{"red": 3}, {}, {}, {}], display={"green": 4})
    t = play(s, "exchange red", "take green")
    assert t.hands[0] == (0, 0, 0, 2, 1) and t.discards[3] == 1
    assert t.phase == "reveal"
    u = play(s, "exchange red", "draw", "card violet")
    assert u.hands[0] == (1, 0, 0, 2, 0) and u.phase == "turn" and u.seat == 1
    assert rule_of(s, "take green") == "CH-6.1"


# --- CH-8 end of the game --------------------------------------------------------------
def test_the_round_is_finished_after_the_second_exhaustion() -> None:
    game = g4()
    s = position(
        game,
        houses={"Wei.1": 1},
        hands=[{"red": 3}, {"red": 3}, {"red": 3}, {"red": 3}],
        display={"yellow": 4},
        deck={},
        exhaustions=2,
        seat=1,
    )
    for seat in (1, 2, 3):
        assert s.current_player() == seat
        s = play(s, "exchange red", "take yellow")
    # the player before the Emperor (seat 0) played last
    assert s.current_player() == TERMINAL and s.final is not None


def test_placement_possible_while_a_field_or_dragon_field_has_room() -> None:
    game = g4()
    b = game.board  # type: ignore[attr-defined]
    owners = {name: i % 4 for i, name in enumerate(b.field_names)}
    full = position(game, houses=owners)
    # every field is built, but the dragon fields are still empty
    assert rules.any_placement_possible(full)
    lim = {b.province_names[p]: rules.emissary_limit(full, p) for p in range(9)}
    closed = position(
        game, houses=owners, emissaries={name: [k, 0, 0, 0] for name, k in lim.items()}
    )
    assert not rules.any_placement_possible(closed)


def test_game_ends_at_once_when_the_board_is_closed() -> None:
    game = g4()
    b = game.board  # type: ignore[attr-defined]
    owners = {name: i % 4 for i, name in enumerate(b.field_names)}
    s = position(game, houses=owners, deck={"red": 40})
    lim = {b.province_names[p]: rules.emissary_limit(s, p) for p in range(9)}
    lim["Lu"] -= 1
    s = position(
        game,
        houses=owners,
        emissaries={name: [k, 0, 0, 0] for name, k in lim.items()},
        hands=[{"orange": 1, "red": 2}, {}, {}, {}],
        display={"red": 4},
    )
    s = play(s, "emissary Lu", "done", "take red")
    assert s.phase == "reveal"
    s = play(s, "card red")
    assert s.phase == "over" and "no piece can be placed" in s.log[-1]


# --- CH-9 final scoring -----------------------------------------------------------------
def test_final_scoring_adds_unscored_provinces_alliances_and_chains() -> None:
    s = position(
        g4(),
        houses={"Lu.1": 1, "Lu.2": 1, "Lu.3": 1, "Qi.6": 1, "Qi.5": 1},
        emissaries={"Lu": [0, 2, 0, 0], "Qi": [0, 1, 0, 0]},
        hands=[{"red": 3}, {"red": 3}, {"red": 3}, {"red": 3}],
        display={"yellow": 4},
        deck={},
        exhaustions=2,
        seat=3,
    )
    s = play(s, "exchange red", "take yellow")
    assert s.phase == "over"
    # Lu 3 + Qi 2 houses, alliance 11 (Qi-Lu) 3 emissaries, chain Qi.6-Qi.5-Lu.2-Lu.1-...
    houses, allies, chains = rules.final_terms(s)
    # Lu.1 and Lu.3 both branch off Lu.2: the longest path has four houses
    assert s.final == ((0, 0, 0), (5, 3, 4), (0, 0, 0), (0, 0, 0))
    assert s.points == (0, 12, 0, 0) and chains[1] == 4 and allies[1] == 3 and houses[1] == 5


def test_each_group_scores_its_longest_simple_path_of_four_or_more() -> None:
    game = g4()
    s = position(
        game,
        houses={
            "Chu.1": 0,
            "Chu.2": 0,
            "Chu.3": 0,
            "Chu.8": 0,
            "Chu.4": 0,
            "Chu.7": 0,
            "Yan.1": 0,
            "Yan.2": 0,
            "Yan.3": 0,
        },
    )
    # Chu.1-2-3-4-7 is the longest path (Chu.8 is a branch); Yan's three do not count.
    assert rules.chain_points(s, 0) == 5


def test_alliance_majority_ties_all_score() -> None:
    s = position(g4(), emissaries={"Yan": [1, 1, 0, 0], "Qi": [2, 2, 1, 0]})
    assert rules.alliance_points(s) == [7, 7, 0, 0]


# --- CH-10 the winner -------------------------------------------------------------------
def test_winner_by_points_then_pieces_left_in_supply() -> None:
    s = position(
        g4(),
        houses={"Wei.1": 2},
        points=[10, 10, 3, 10],
        hands=[{"red": 3}, {"red": 3}, {"red": 3}, {"red": 3}],
        display={"yellow": 4},
        deck={},
        exhaustions=2,
        emissaries={"Wei": [1, 0, 0, 1]},
        seat=3,
    )
    s = play(s, "exchange red", "take yellow")
    assert rules.winners(s) == [1]
    assert s.returns() == [-1 / 3, 1.0, -1 / 3, -1 / 3]
    assert abs(sum(s.returns())) < 1e-9


# --- CH-11 fortifications ---------------------------------------------------------------
def test_fortifications_only_in_the_variant() -> None:
    s = position(g4(), houses={"Wei.1": 1}, hands=[{"red": 3}, {}, {}, {}], display={"red": 4})
    assert not any(str(a).startswith("fortify") for a in s.legal_actions())
    with pytest.raises(tianxia.NotationError):
        s.apply("fortify Wei.2")


def test_fortify_needs_a_free_field_and_a_card() -> None:
    game = g4(fortifications=True)
    s = position(
        game,
        houses={"Wei.1": 1},
        forts=["Wei.2"],
        hands=[{"red": 1, "green": 2}, {}, {}, {}],
        display={"red": 4},
    )
    assert rule_of(s, "fortify Wei.1") == "CH-11.1"
    assert rule_of(s, "fortify Wei.2") == "CH-11.1"
    assert "fortify Wei.3 joker green" in {str(a) for a in s.legal_actions()}
    s = play(s, "fortify Wei.3")
    assert s.supply[0][2] == 0 and s.phase == "place"
    assert rule_of(s, "fortify Wei.4 joker green") == "CH-3.5"


def test_fortification_is_neutral() -> None:
    game = g4(fortifications=True)
    s = position(
        game,
        houses={"Wei.1": 1},
        forts=["Wei.2"],
        hands=[{}, {}, {"red": 1}, {}],
        display={"red": 4},
        seat=2,
    )
    s = play(s, "house Wei.2")
    assert s.houses[field(game, "Wei.2")] == 2


def test_fortified_house_doubles_the_province_score() -> None:
    game = g4(fortifications=True)
    s = position(
        game,
        houses={"Lu.1": 1, "Lu.2": 1, "Lu.3": 2},
        forts=["Lu.3"],
        hands=[{"orange": 1}, {}, {}, {}],
        display={"red": 4},
    )
    s = play(s, "house Lu.4")
    assert s.points == (2, 4, 4, 0)


def test_fortified_house_doubles_the_chain_through_it() -> None:
    game = g4(fortifications=True)
    chain = {"Qin.3": 3, "Qin.4": 3, "Qin.5": 3, "Qin.6": 3, "Shu.1": 3}
    assert rules.chain_points(position(game, houses=chain, forts=["Qin.4"]), 3) == 10
    chain["Qin.7"] = 3
    # a fortification on the branch is off the scored path ... unless the path goes there
    assert rules.chain_points(position(game, houses=chain, forts=["Qin.7"]), 3) == 10
    chain["Qin.1"] = 3
    assert rules.chain_points(position(game, houses=chain, forts=["Qin.1"]), 3) == 5


# --- random play stays within the rules -------------------------------------------------
@pytest.mark.parametrize("seed", [3, 4])
def test_random_games_conserve_cards_and_pieces(seed: int) -> None:
    game = tianxia.load_game("china", players=5, fortifications=True)
    m = Match(game, seed=seed)
    rng = random.Random(seed)
    while not m.state.is_terminal():
        s = m.state
        assert isinstance(s, ChinaState)
        cards = sum(s.deck) + sum(s.display) + sum(s.discards) + sum(map(sum, s.hands))
        assert cards == 57
        assert all(k <= h for hk, hh in zip(s.known, s.hands) for k, h in zip(hk, hh))
        assert all(sup[0] + s.houses.count(i) == 20 for i, sup in enumerate(s.supply))
        if s.is_chance_node():
            m.resolve_chance()
        else:
            m.play(rng.choice(s.legal_actions()))
    assert m.state.returns() and max(m.state.returns()) > 0


def test_every_refusal_names_a_documented_rule() -> None:
    import re
    from pathlib import Path

    doc = Path(__file__).resolve().parents[3] / "docs" / "rules" / "china.md"
    documented = set(re.findall(r"(CH-\d+(?:\.\d+)?)\b", doc.read_text()))
    game = tianxia.load_game("china", players=3, fortifications=True)
    m = Match(game, seed=11)
    rng = random.Random(11)
    seen: set[str] = set()
    step = 0
    while not m.state.is_terminal():
        s = m.state
        if s.is_chance_node():
            m.resolve_chance()
            continue
        if step % 5 == 0:
            legal = set(s.legal_actions())
            for a in game.codec.actions:
                if a not in legal:
                    with pytest.raises(IllegalActionError) as err:
                        s.apply(a)
                    seen.add(err.value.rule)
        step += 1
        m.play(rng.choice(s.legal_actions()))
    assert seen <= documented
    assert {"CH-3.1", "CH-3.3", "CH-4.1", "CH-4.2", "CH-6.1", "CH-11.1"} <= seen


def test_position_builder_documents_itself_and_refuses_bad_input() -> None:
    import doctest

    from tianxia.games.china import position as builder

    assert doctest.testmod(builder).failed == 0
    with pytest.raises(ValueError, match="no card colour 'blue'"):
        position(g4(), hands=[{"blue": 1}, {}, {}, {}])
    with pytest.raises(ValueError, match="more cards"):
        position(g4(), hands=[{"violet": 10}, {}, {}, {}])
