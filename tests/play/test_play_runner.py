"""`play_match` and `BotSpec`: one game between any mix of players."""

from __future__ import annotations

import pytest

import tianxia
import tianxia.bots
from tianxia.core import Action, IllegalActionError, Match, State
from tianxia.play import BotSpec, play_match, shares_of_win


@pytest.mark.parametrize("name", tianxia.list_games())
def test_a_match_between_bots_replays_from_its_log(name: str) -> None:
    game = tianxia.load_game(name)
    bots = [tianxia.bots.make("random", game, s, seed=s) for s in range(game.players)]
    match = play_match(game, bots, seed=3)
    assert match.state.is_terminal()
    assert tianxia.replay(game, match.log) == match.state
    again = play_match(
        game, [tianxia.bots.make("random", game, s, seed=s) for s in range(game.players)], seed=3
    )
    assert again.log == match.log


def test_any_mix_of_bots_and_plain_callables_can_sit() -> None:
    game = tianxia.load_game("highcard", players=3)
    seen: list[tuple[int, str]] = []

    def always_swap(state: State) -> Action:
        return state.parse_action("swap")

    players = [
        tianxia.bots.make("greedy", game, 0),
        always_swap,
        tianxia.bots.make("random", game, 2),
    ]
    match = play_match(game, players, seed=1, on_action=lambda m, s, a: seen.append((s, str(a))))
    assert [s for s, _ in seen] == [0, 1, 2]
    assert seen[1] == (1, "swap")
    assert match.state.is_terminal()


def test_the_wrong_number_of_players_is_refused() -> None:
    game = tianxia.load_game("highcard", players=2)
    with pytest.raises(ValueError, match="needs 2 players, not 1"):
        play_match(game, [tianxia.bots.make("random", game, 0)])


def test_a_player_without_act_is_refused() -> None:
    game = tianxia.load_game("highcard", players=2)
    with pytest.raises(ValueError, match="needs an act"):
        play_match(game, [object(), object()])  # type: ignore[list-item]


def test_an_illegal_answer_raises_the_rules_error() -> None:
    game = tianxia.load_game("highcard", players=2, swaps=False)
    with pytest.raises(IllegalActionError) as err:
        play_match(game, [lambda s: s.game.parse_action_text("swap")] * 2, seed=0)
    assert err.value.rule == "HC-2"


def test_shares_of_win_split_ties() -> None:
    assert shares_of_win([1.0, -1.0]) == [1.0, 0.0]
    assert shares_of_win([0.5, 0.5, -1.0]) == [0.5, 0.5, 0.0]


def test_bot_specs_read_their_options_as_typed_values() -> None:
    spec = BotSpec.parse(" ismcts:simulations=200:time_limit=0.5:rollout_depth=none ")
    assert spec == BotSpec("ismcts", {"simulations": 200, "time_limit": 0.5, "rollout_depth": None})
    assert str(BotSpec.parse("greedy:determinizations=4")) == "greedy:determinizations=4"
    assert BotSpec.parse("random") == BotSpec("random")


@pytest.mark.parametrize("text", ["", "  ", ":simulations=3", "ismcts:simulations", "ismcts:=4"])
def test_malformed_bot_specs_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="written"):
        BotSpec.parse(text)


def test_a_spec_makes_its_bot_with_its_options() -> None:
    game = tianxia.load_game("highcard", players=2)
    bot = BotSpec.parse("ismcts:simulations=12").make(game, 1, seed=4)
    match = Match(game, seed=0)
    match.resolve_chance()
    match.play("stay")
    match.resolve_chance()
    bot.act(match.state)
    assert bot.last_simulations == 12
    with pytest.raises(ValueError, match="no option 'depth'"):
        BotSpec.parse("ismcts:depth=3").make(game, 0, seed=0)
