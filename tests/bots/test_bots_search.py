"""Greedy and ISMCTS: they choose sensibly, explain themselves, and respect their budget."""

from __future__ import annotations

import random
import re

import pytest

import tianxia
import tianxia.bots
from tianxia.bots.ismcts import ISMCTSBot, _Node
from tianxia.core import CHANCE, Match, State


def _highcard_with(cards: tuple[int, int]) -> State:
    game = tianxia.load_game("highcard", players=2)
    return game.new_initial_state().apply(f"deal {cards[0]}").apply(f"deal {cards[1]}")


@pytest.mark.parametrize("chance", ["open", "seen", "closed"])
def test_every_way_of_searching_chance_finds_the_swap(chance: str) -> None:
    state = _highcard_with((1, 4))
    bot = tianxia.bots.make("ismcts", state.game, 0, seed=2, simulations=60, chance=chance)
    assert str(bot.act(state)) == "swap"


@pytest.mark.parametrize("bot_name", ["greedy", "ismcts", "pimc"])
def test_a_low_card_is_swapped_and_a_high_card_kept(bot_name: str) -> None:
    low = _highcard_with((1, 4))
    high = _highcard_with((6, 4))
    for seed in range(3):
        bot = tianxia.bots.make(bot_name, low.game, 0, seed=seed)
        assert str(bot.act(low)) == "swap"
        assert str(bot.act(high)) == "stay"


def test_ismcts_explains_its_alternatives_with_visits_values_and_terms() -> None:
    bot = tianxia.bots.make("ismcts", _highcard_with((2, 5)).game, 0, seed=1, simulations=200)
    bot.act(_highcard_with((2, 5)))
    text = bot.explain()
    first, *rest = text.splitlines()
    assert first.startswith("ismcts: swap after 200 simulations")
    assert any(line.strip().startswith("swap:") and "visits" in line for line in rest)
    assert any(line.strip().startswith("stay:") and "value" in line for line in rest)
    assert "terms now: score +2" in text
    visits = [int(line.split(":")[1].split()[0]) for line in rest if "visits" in line]
    assert sum(visits) == 200 + 2 * 4  # four prior visits for each of the two actions
    assert first.endswith("visits include 4 from the one-ply prior")


def test_without_a_prior_the_visits_are_the_simulations() -> None:
    state = _highcard_with((2, 5))
    bot = tianxia.bots.make("ismcts", state.game, 0, seed=1, simulations=50, prior_visits=0)
    bot.act(state)
    lines = bot.explain().splitlines()
    assert "prior" not in lines[0]
    assert sum(int(line.split(":")[1].split()[0]) for line in lines if "visits," in line) == 50


def test_explain_before_any_decision_says_so() -> None:
    bot = tianxia.bots.make("greedy", tianxia.load_game("highcard", players=2), 1)
    assert "no decision yet" in bot.explain()


def test_greedy_explains_the_values_it_compared() -> None:
    state = _highcard_with((1, 4))
    bot = tianxia.bots.make("greedy", state.game, 0, seed=0)
    bot.act(state)
    text = bot.explain()
    assert text.startswith("greedy: swap")
    assert re.search(r"\n  swap: [+-]\d\.\d{3}\n  stay: -0\.\d{3}\n", text)
    assert "terms after swap: score" in text


def test_ismcts_counts_its_simulations() -> None:
    state = _highcard_with((3, 4))
    bot = tianxia.bots.make("ismcts", state.game, 0, seed=0, simulations=77)
    assert isinstance(bot, ISMCTSBot)
    bot.act(state)
    assert bot.last_simulations == 77
    assert bot.simulations_per_second > 0


def test_ismcts_with_a_time_limit_alone_still_decides() -> None:
    state = _highcard_with((3, 4))
    bot = tianxia.bots.make("ismcts", state.game, 0, seed=0, time_limit=0.01)
    assert bot.act(state) in state.legal_actions()
    assert bot.last_simulations >= 1


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"simulations": 0}, "simulations must be >= 1"),
        ({"simulations": 2.5}, "simulations must be a whole number"),
        ({"simulations": "many"}, "simulations must be a number"),
        ({"time_limit": -1}, "time_limit must be >= 0.001"),
        ({"exploration": -0.5}, "exploration must be >= 0"),
        ({"rollout_depth": True}, "rollout_depth must be a number"),
        ({"prior_visits": -1}, "prior_visits must be >= 0"),
        ({"prior_worlds": 0}, "prior_worlds must be >= 1"),
        ({"chance": "ajar"}, "chance must be open, seen or closed"),
        ({"expand": "best"}, "expand must be random or greedy"),
        ({"opponents": "psychic"}, "opponents must be fused, informed or policy"),
        ({"centre": 2}, "centre must be 0 or 1"),
        ({"widen_power": 1.5}, "widen_power must be in"),
    ],
)
def test_bad_search_options_are_refused(options: dict, message: str) -> None:
    game = tianxia.load_game("highcard", players=2)
    with pytest.raises(ValueError, match=message):
        tianxia.bots.make("ismcts", game, 0, **options)


def test_pimc_sums_its_worlds_and_refuses_zero_worlds() -> None:
    state = _highcard_with((2, 5))
    bot = tianxia.bots.make("pimc", state.game, 0, seed=3, simulations=90, determinizations=3)
    bot.act(state)
    text = bot.explain()
    assert text.startswith("pimc: swap after 90 simulations")
    visits = [int(line.split(":")[1].split()[0]) for line in text.splitlines() if "visits," in line]
    assert sum(visits) == 90 + 2 * 4
    with pytest.raises(ValueError, match="determinizations must be >= 1"):
        tianxia.bots.make("pimc", state.game, 0, determinizations=0)


def test_greedy_refuses_a_negative_number_of_determinizations() -> None:
    game = tianxia.load_game("highcard", players=2)
    with pytest.raises(ValueError, match="determinizations must be >= 0"):
        tianxia.bots.make("greedy", game, 0, determinizations=-1)


@pytest.mark.parametrize("bot_name", ["greedy", "ismcts", "pimc"])
@pytest.mark.parametrize("name", tianxia.list_games())
def test_search_bots_finish_a_whole_game(name: str, bot_name: str) -> None:
    game = tianxia.load_game(name)
    match = Match(game, seed=1)
    options = {} if bot_name == "greedy" else {"simulations": 10, "rollout_depth": 2}
    bots = [tianxia.bots.make(bot_name, game, s, seed=s, **options) for s in range(game.players)]
    while not match.state.is_terminal():
        if match.state.is_chance_node():
            match.resolve_chance()
        else:
            match.play(bots[match.state.current_player()].act(match.state))
    assert len(match.state.returns()) == game.players


def _auction(seed: int = 1) -> State:
    """A Mandarin decision with a couple of hundred bids to choose from."""
    game = tianxia.load_game("mandarin", players=2)
    match = Match(game, seed=seed)
    chooser = random.Random(seed)
    while True:
        match.resolve_chance()
        legal = match.state.legal_actions()
        if len(legal) > 100:
            return match.state
        match.play(chooser.choice(legal))


def test_widening_keeps_an_auction_to_its_best_bids_at_the_root() -> None:
    state = _auction()
    # Widening over every bid: without the game's abstraction, which keeps only a few.
    bot = ISMCTSBot(
        state.game, state.current_player(), seed=2, simulations=150, widen_above=100, abstract=0
    )
    choice = bot.act(state)
    legal = state.legal_actions()
    assert len(bot._root_rank) == len(legal) > bot.widen_above
    # After n visits a widened root weighs ceil(2 * sqrt(n)) actions, best one-ply first;
    # every other action keeps only its prior visits.
    top = {str(a) for a in sorted(legal, key=bot._root_rank.__getitem__)[:25]}
    searched = []
    for line in bot.explain().splitlines()[1:-1]:
        action, rest = line.strip().split(": ")
        if int(rest.split()[0]) > bot.prior_visits:
            searched.append(action)
    assert str(choice) in searched and set(searched) <= top


def test_a_game_may_declare_its_own_search_defaults() -> None:
    mandarin = tianxia.load_game("mandarin", players=2)
    declared = mandarin.search.SEARCH_DEFAULTS
    bot = ISMCTSBot(mandarin, 0)
    assert (bot.centre, bot.prior_visits) == (bool(declared["centre"]), declared["prior_visits"])
    assert ISMCTSBot(mandarin, 0, prior_visits=3).prior_visits == 3  # the caller's word wins
    assert ISMCTSBot(tianxia.load_game("greatwall"), 0).prior_visits == 4


@pytest.mark.parametrize("name", ["greatwall", "silkroad"])
def test_the_wall_and_the_silk_road_search_with_open_loop_chance_by_default(name: str) -> None:
    game = tianxia.load_game(name, players=2)
    assert ISMCTSBot(game, 0).chance == "open"
    assert ISMCTSBot(game, 0, chance="closed").chance == "closed"  # the caller's word wins
    for other in ("emperor", "china", "mandarin"):
        assert ISMCTSBot(tianxia.load_game(other), 0).chance == "closed"


@pytest.mark.parametrize(
    ("chance", "own_deal", "other_deal"),
    [("open", False, False), ("seen", True, False), ("closed", True, True)],
)
def test_chance_branches_the_tree_as_the_mode_says(
    chance: str, own_deal: bool, other_deal: bool
) -> None:
    # Seat 0 searches: the card it is dealt on a swap it sees, the one seat 1 is dealt on
    # a swap it does not (`seen` branches on the first only).
    state = _highcard_with((1, 4))
    bot = ISMCTSBot(state.game, 0, seed=3, chance=chance, prior_visits=0)
    root = _Node(0)
    for _ in range(300):
        bot._simulate(root, state.resample_from_infostate(0, bot.rng))
    swap = next(n for a, n in root.children.items() if str(a) == "swap")
    dealt = [n for n in swap.children.values() if n.player == CHANCE]
    assert bool(dealt) == own_deal
    # seat 1's swap, under each card seat 0 may have been dealt (or right after the swap)
    replies = [n for d in dealt or [swap] for a, n in d.children.items() if str(a) == "swap"]
    assert replies
    assert any(n.children for n in replies) == other_deal


def test_rollout_depth_end_means_the_end_of_the_game() -> None:
    game = tianxia.load_game("greatwall", players=2)
    assert ISMCTSBot(game, 0).rollout_depth == 4
    assert ISMCTSBot(game, 0, rollout_depth="end").rollout_depth == game.info.max_game_length
    with pytest.raises(ValueError, match="rollout_depth"):
        ISMCTSBot(game, 0, rollout_depth="deep")


def test_china_rolls_out_to_the_end_at_three_and_five_seats_and_16_decisions_at_four() -> None:
    for players in (3, 5):
        china = tianxia.load_game("china", players=players)
        assert ISMCTSBot(china, 0).rollout_depth == china.info.max_game_length
    four = tianxia.load_game("china", players=4)
    assert ISMCTSBot(four, 0).rollout_depth == 16
    assert ISMCTSBot(four, 0, rollout_depth=4).rollout_depth == 4  # the caller's word wins


def test_a_table_size_s_defaults_add_to_the_game_s(monkeypatch: pytest.MonkeyPatch) -> None:
    four = tianxia.load_game("china", players=4)
    monkeypatch.setattr(four.search, "SEARCH_DEFAULTS_BY_PLAYERS", {4: {"prior_visits": 9}})
    bot = ISMCTSBot(four, 0)
    assert (bot.prior_visits, bot.rollout_depth) == (9, four.info.max_game_length)
    assert ISMCTSBot(tianxia.load_game("china", players=3), 0).prior_visits == 4


@pytest.mark.parametrize("seed", range(4))
def test_greedy_expansion_adds_the_best_one_ply_action_first(seed: int) -> None:
    # Holding the lowest card, swapping is better one ply on than staying.
    state = _highcard_with((1, 4))
    greedy = ISMCTSBot(state.game, 0, seed=seed, expand="greedy", prior_visits=0)
    root = _Node(0)
    greedy._simulate(root, state.resample_from_infostate(0, greedy.rng))
    assert [str(a) for a in root.children] == ["swap"]
    assert root.rank is not None and set(map(str, root.rank)) == {"stay", "swap"}


def test_random_expansion_adds_either_action_first() -> None:
    state = _highcard_with((1, 4))
    first: set[str] = set()
    for seed in range(12):
        bot = ISMCTSBot(state.game, 0, seed=seed, prior_visits=0)
        root = _Node(0)
        bot._simulate(root, state.resample_from_infostate(0, bot.rng))
        first.update(str(a) for a in root.children)
    assert first == {"stay", "swap"}


def _great_wall_on_turn() -> State:
    match = Match(tianxia.load_game("greatwall", players=2), seed=5)
    while match.state.current_player() == CHANCE:
        match.resolve_chance()
    return match.state


def _first_informed(node: _Node) -> list[_Node]:
    """The shallowest nodes below `node` that split another seat's decision by its hand."""
    if node.infos is not None:
        return [node]
    return [m for child in node.children.values() for m in _first_informed(child)]


@pytest.mark.parametrize("opponents", ["fused", "informed"])
def test_informed_opponents_decide_under_the_hand_they_hold(opponents: str) -> None:
    state = _great_wall_on_turn()
    me = state.current_player()
    bot = ISMCTSBot(state.game, me, seed=4, opponents=opponents, prior_visits=0)
    root = _Node(me)
    for _ in range(300):
        bot._simulate(root, state.resample_from_infostate(me, bot.rng))
    first = _first_informed(root)
    if opponents == "fused":
        assert first == []
        return
    assert first
    # Each holds one node per hand the other seat may hold there, its decisions beneath.
    size = sum(state.hands[1 - me])  # type: ignore[attr-defined]
    assert any(len(n.infos or {}) > 1 for n in first)
    for n in first:
        assert n.infos is not None
        assert all(sum(hand) == size for hand in n.infos)
        assert all(below.player == 1 - me for below in n.infos.values())


def _movers(node: _Node) -> set[int]:
    """Every seat (or CHANCE) that decides at a node of the tree below `node`."""
    below = [*node.children.values(), *(node.infos or {}).values()]
    return {node.player}.union(*(_movers(child) for child in below))


@pytest.mark.parametrize("opponents", ["fused", "policy"])
def test_opponents_played_by_the_policy_leave_only_the_searcher_in_the_tree(
    opponents: str,
) -> None:
    state = _great_wall_on_turn()
    me = state.current_player()
    bot = ISMCTSBot(state.game, me, seed=4, opponents=opponents, prior_visits=0, simulations=50)
    root = _Node(me)
    for _ in range(300):
        bot._simulate(root, state.resample_from_infostate(me, bot.rng))
    movers = _movers(root)
    assert me in movers
    assert (1 - me in movers) == (opponents == "fused")
    if opponents == "policy":
        # The tree still grows past the other seat's turn to the searcher's next decision.
        deep = [g for c in root.children.values() for g in c.children.values()]
        assert any(g.player == me for g in deep)
    assert bot.act(state) in state.legal_actions()


def test_informed_opponents_need_a_game_that_names_private_information() -> None:
    greatwall = tianxia.load_game("greatwall", players=2)
    assert ISMCTSBot(greatwall, 0)._private is None
    assert ISMCTSBot(greatwall, 0, opponents="informed")._private is not None
    # Mandarin hides nothing a seat holds alone: its opponents are searched as ever.
    assert (
        ISMCTSBot(tianxia.load_game("mandarin", players=2), 0, opponents="informed")._private
        is None
    )
