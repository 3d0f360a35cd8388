"""Every registered game through OpenSpiel: loading, game type, logs, search bots."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import tianxia  # noqa: E402
from tianxia.adapters import openspiel  # noqa: E402
from tianxia.adapters.encoding import encoding  # noqa: E402
from tianxia.core import CHANCE, IllegalActionError, Match  # noqa: E402
from tianxia.core.registry import game_class  # noqa: E402


def variants(largest_slow: bool = False) -> list[Any]:
    out = []
    for name in tianxia.list_games():
        cls = game_class(name)
        for players in sorted({cls.MIN_PLAYERS, cls.MAX_PLAYERS}):
            slow = largest_slow and players == cls.MAX_PLAYERS != cls.MIN_PLAYERS
            marks = [pytest.mark.slow] if slow else []
            out.append(pytest.param(name, players, id=f"{name}-{players}p", marks=marks))
    return out


VARIANTS = variants()
# OpenSpiel's own random simulation checks every tensor of every seat at every step.
VARIANTS_SMALLEST_FAST = variants(largest_slow=True)
NAMES = [pytest.param(n, id=n) for n in tianxia.list_games()]


def engine_ids(state: Any) -> list[int]:
    n = state.get_game().num_distinct_actions()
    return [pa.action + n if pa.player == CHANCE else pa.action for pa in state.full_history()]


def random_steps(state: Any, seed: int, steps: int) -> None:
    rng = np.random.RandomState(seed)
    for _ in range(steps):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


def random_spiel_game(game: Any, seed: int) -> Any:
    rng = np.random.RandomState(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            actions, probs = zip(*s.chance_outcomes())
            s.apply_action(int(rng.choice(actions, p=probs)))
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
    return s


@pytest.mark.parametrize(("name", "players"), VARIANTS)
def test_every_game_loads_with_its_facts(name: str, players: int) -> None:
    openspiel.register()
    game = pyspiel.load_game(f"tianxia_{name}(players={players})")
    info = tianxia.load_game(name, players=players).info
    assert game.num_players() == players
    assert game.num_distinct_actions() == info.num_distinct_actions
    assert game.max_chance_outcomes() == info.max_chance_outcomes
    assert game.max_game_length() == info.max_game_length
    assert game.min_utility() == info.min_utility
    assert game.max_utility() == info.max_utility
    t = game.get_type()
    assert t.short_name == f"tianxia_{name}"
    explicit = t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert explicit == (info.chance == "explicit")
    imperfect = t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert imperfect == (info.information == "imperfect")
    zero_sum = t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert zero_sum == (info.utility == "zero_sum")
    assert game.get_parameters()["players"] == players
    for opt in info.option_specs:
        assert opt.name in game.get_parameters()
    # defaults that depend on the player count are the engine's own
    assert dict(game.tianxia_game.options) == dict(info.options)


def test_options_pass_through_as_parameters() -> None:
    game = openspiel.load("highcard", players=2, swaps=False)
    assert game.tianxia_game.options["swaps"] is False
    s = game.new_initial_state()
    s.apply_action(0)
    s.apply_action(1)
    assert s.legal_actions() == [0]
    assert pyspiel.load_game("tianxia_highcard(swaps=True)").tianxia_game.options["swaps"]


def test_bad_parameters_are_refused_with_the_reason() -> None:
    openspiel.register(["highcard"])
    with pytest.raises(Exception, match="2-3 players"):
        pyspiel.load_game("tianxia_highcard(players=7)")
    with pytest.raises(ValueError, match=r"no parameter 'jokers' \(parameters: players, swaps\)"):
        pyspiel.load_game("tianxia_highcard(jokers=True)")
    with pytest.raises(ValueError, match="no game called"):
        openspiel.register(["no_such_game"])


def test_a_bad_option_in_a_game_string_is_named_with_its_allowed_values() -> None:
    openspiel.register(["china"])
    with pytest.raises(ValueError, match=r"option board='6-7' is not one of '3-4', '4-5'"):
        pyspiel.load_game("tianxia_china(board=6-7)")
    with pytest.raises(ValueError, match=r"fortifications='maybe' is not one of False, True"):
        pyspiel.load_game("tianxia_china(players=4,fortifications=maybe)")
    with pytest.raises(ValueError, match=r"players must be a whole number from 3 to 5, not 'x'"):
        pyspiel.load_game("tianxia_china(players=x)")
    with pytest.raises(ValueError, match="key=value"):
        pyspiel.load_game("tianxia_china(players=4,board)")
    with pytest.raises(ValueError, match=r"board='6-7' is not one of"):
        pyspiel.load_game("tianxia_china", {"players": 4, "board": "6-7"})


def test_a_game_string_takes_values_pyspiel_would_read_as_numbers() -> None:
    # pyspiel's own parser takes "4-5" for a whole number and fails on it.
    openspiel.register(["china"])
    game = pyspiel.load_game("tianxia_china(players=4,board=4-5,fortifications=on)")
    assert game.tianxia_game.options == {"board": "4-5", "fortifications": True}
    assert game.get_parameters() == {"players": 4, "board": "4-5", "fortifications": True}
    assert (
        pyspiel.load_game("tianxia_china(players=4,board=3-4)").tianxia_game.options["board"]
        == "3-4"
    )
    assert pyspiel.load_game("tic_tac_toe").num_players() == 2


def test_a_game_whose_string_pyspiel_cannot_read_still_pickles() -> None:
    game = openspiel.load("china", players=4, board="4-5")
    state = game.new_initial_state()
    random_steps(state, seed=3, steps=60)
    while state.is_chance_node():  # the tensor below is a deciding seat's
        state.apply_action(state.chance_outcomes()[0][0])
    assert sum(state.information_state_tensor(state.current_player())[game.obs_size :]) > 0
    again = pickle.loads(pickle.dumps(game))
    assert again.get_parameters() == game.get_parameters()
    twin = pickle.loads(pickle.dumps(state))
    assert twin.history() == state.history()
    assert twin.tianxia_state == state.tianxia_state
    assert twin.get_game().get_parameters()["board"] == "4-5"
    for seat in range(4):
        assert twin.information_state_string(seat) == state.information_state_string(seat)
        assert twin.information_state_tensor(seat) == state.information_state_tensor(seat)


def test_register_is_idempotent() -> None:
    first = openspiel.register()
    assert openspiel.register() == first
    assert set(first) <= set(pyspiel.registered_names())


@pytest.mark.parametrize(("name", "players"), VARIANTS)
def test_engine_logs_replay_step_by_step_through_pyspiel(name: str, players: int) -> None:
    game = openspiel.load(name, players=players)
    engine = game.tianxia_game
    n = engine.info.num_distinct_actions
    for seed in range(2):
        m = Match(engine, seed=seed)
        chooser = random.Random(seed)
        while not m.state.is_terminal():
            if m.state.is_chance_node():
                m.resolve_chance()
            else:
                m.play(chooser.choice(m.state.legal_actions()))
        s = game.new_initial_state()
        for step, (engine_state, a) in enumerate(zip(m.history, m.log)):
            p = engine_state.current_player()
            assert s.current_player() == p
            assert s.tianxia_state == engine_state
            if p == CHANCE:
                outcomes = [
                    (engine.action_id(o) - n, pr) for o, pr in engine_state.chance_outcomes()
                ]
                assert s.chance_outcomes() == outcomes
                s.apply_action(engine.action_id(a) - n)
            else:
                ids = [engine.action_id(x) for x in engine_state.legal_actions()]
                assert s.legal_actions() == ids
                assert s.action_to_string(p, engine.action_id(a)) == str(a)
                if step % 9 == 0:
                    for seat in range(players):
                        seen = engine_state.observation_string(seat)
                        assert s.observation_string(seat) == seen
                s.apply_action(engine.action_id(a))
        assert s.is_terminal()
        assert s.returns() == m.state.returns()
        assert engine_ids(s) == [engine.action_id(a) for a in m.log]


@pytest.mark.parametrize(("name", "players"), VARIANTS)
def test_random_pyspiel_games_are_engine_games(name: str, players: int) -> None:
    game = openspiel.load(name, players=players)
    for seed in range(2):
        s = random_spiel_game(game, seed)
        final = tianxia.replay(game.tianxia_game, engine_ids(s))
        assert final == s.tianxia_state
        assert s.returns() == final.returns()
        assert s.rewards() == final.returns()


@pytest.mark.parametrize(("name", "players"), VARIANTS_SMALLEST_FAST)
def test_pyspiel_random_simulation_checks(name: str, players: int) -> None:
    game = openspiel.load(name, players=players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_clone_and_pickle_keep_the_state_and_recall(name: str) -> None:
    game = openspiel.load(name)
    rng = np.random.RandomState(5)
    s = game.new_initial_state()
    for _ in range(40):
        if s.is_terminal():
            break
        if s.is_chance_node():
            actions, probs = zip(*s.chance_outcomes())
            s.apply_action(int(rng.choice(actions, p=probs)))
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
    for twin in (s.clone(), pickle.loads(pickle.dumps(s))):
        assert twin.history() == s.history()
        assert twin.tianxia_state == s.tianxia_state
        for seat in range(game.num_players()):
            assert twin.information_state_string(seat) == s.information_state_string(seat)
            assert twin.information_state_tensor(seat) == s.information_state_tensor(seat)
    c = s.clone()
    if not c.is_terminal():
        c.apply_action(
            c.legal_actions()[0] if not c.is_chance_node() else c.chance_outcomes()[0][0]
        )
        assert len(c.history()) == len(s.history()) + 1


@pytest.mark.parametrize(("name", "players"), VARIANTS)
def test_strings_tensors_and_resampling(name: str, players: int) -> None:
    game = openspiel.load(name, players=players)
    engine = game.tianxia_game
    rng = np.random.RandomState(11)
    s = game.new_initial_state()
    resample_rng = random.Random(3)
    step = 0
    while not s.is_terminal() and step < 300:
        if step % 7 == 0:
            for seat in range(players):
                obs = s.observation_tensor(seat)
                assert len(obs) == engine.observation_tensor_size()
                assert obs == pytest.approx(list(encoding(engine).encode(s.tianxia_state, seat)))
                info_t = s.information_state_tensor(seat)
                assert len(info_t) == engine.observation_tensor_size() + game.num_distinct_actions()
                key = s.information_state_string(seat)
                # short however large the observation: a digest that ends with it
                assert len(key) == len("recall=") + 32 and key.startswith("recall=")
                r = s.resample(seat, resample_rng)
                assert r.information_state_string(seat) == key
                assert r.observation_string(seat) == s.observation_string(seat)
                if s.current_player() == seat:
                    assert r.legal_actions() == s.legal_actions()
        if s.is_chance_node():
            actions, probs = zip(*s.chance_outcomes())
            s.apply_action(int(rng.choice(actions, p=probs)))
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
        step += 1


def test_information_state_string_carries_the_seats_past() -> None:
    game = openspiel.load("highcard", players=2)
    a = game.new_initial_state()
    for x in (0, 1, 0):  # deal seat 0 a 1, seat 1 a 2; seat 0 stays
        a.apply_action(x)
    b = game.new_initial_state()
    for x in (0, 1, 0):
        b.apply_action(x)
    assert a.information_state_string(1) == b.information_state_string(1)
    # the same position without its past: same observation, another information state
    fresh = game.wrap(a.tianxia_state)
    assert fresh.observation_string(1) == a.observation_string(1)
    assert fresh.information_state_string(1) != a.information_state_string(1)
    own = a.information_state_tensor(0)[-game.num_distinct_actions() :]
    assert list(own) == [1.0, 0.0]  # seat 0 stayed once
    assert list(a.information_state_tensor(1)[-game.num_distinct_actions() :]) == [0.0, 0.0]


def test_public_observer_sees_the_spectator_view() -> None:
    from open_spiel.python.observation import make_observation

    game = openspiel.load("highcard", players=2)
    s = game.new_initial_state()
    s.apply_action(3)
    obs = make_observation(
        game,
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
        ),
    )
    assert obs.string_from(s, 0) == s.tianxia_state.observation_string(None)
    assert '"my_card":4' in s.observation_string(0)
    assert '"my_card":4' not in obs.string_from(s, 0)
    public_recall = make_observation(
        game,
        pyspiel.IIGObservationType(
            perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
        ),
    )
    # seat 0's private card differs, the public record does not
    other = game.new_initial_state()
    other.apply_action(2)
    assert public_recall.string_from(s, 0) == public_recall.string_from(other, 0)
    assert s.information_state_string(0) != other.information_state_string(0)


def test_illegal_actions_raise_the_engine_reason_and_change_nothing() -> None:
    game = openspiel.load("highcard", players=2, swaps=False)
    s = game.new_initial_state()
    s.apply_action(0)
    s.apply_action(1)
    before = (s.history(), s.tianxia_state)
    with pytest.raises(IllegalActionError, match="HC-2"):
        s.apply_action(1)
    with pytest.raises(IllegalActionError, match="99"):
        s.apply_action(99)
    assert (s.history(), s.tianxia_state) == before


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_mcts_bot_finishes_games(name: str) -> None:
    from open_spiel.python.algorithms import mcts

    game = openspiel.load(name)
    evaluator = openspiel.HeuristicEvaluator(max_rollout=8, seed=1)
    bot = mcts.MCTSBot(game, 2.0, 3, evaluator, random_state=np.random.RandomState(2))
    s = play_with(game, lambda state: bot.step(state), seed=3)
    assert tianxia.replay(game.tianxia_game, engine_ids(s)) == s.tianxia_state


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_ismcts_bot_finishes_games(name: str) -> None:
    from open_spiel.python.algorithms import ismcts

    game = openspiel.load(name)
    if game.tianxia_game.info.information == "perfect":
        pytest.skip("IS-MCTS is for imperfect information; MCTS covers this game")
    evaluator = openspiel.HeuristicEvaluator(max_rollout=8, seed=1)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 3, random_state=np.random.RandomState(2))
    bot.set_resampler(openspiel.seeded_resampler(4))
    s = play_with(game, lambda state: bot.step(state), seed=3)
    assert tianxia.replay(game.tianxia_game, engine_ids(s)) == s.tianxia_state


def play_with(game: Any, choose: Any, seed: int) -> Any:
    rng = np.random.RandomState(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            actions, probs = zip(*s.chance_outcomes())
            s.apply_action(int(rng.choice(actions, p=probs)))
        else:
            a = int(choose(s))
            assert a in s.legal_actions()
            s.apply_action(a)
    return s


def test_heuristic_evaluator_refuses_a_negative_rollout() -> None:
    with pytest.raises(ValueError, match="max_rollout"):
        openspiel.HeuristicEvaluator(max_rollout=-1)


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_rl_environment_runs_episodes(name: str) -> None:
    from open_spiel.python import rl_environment

    game = openspiel.load(name)
    env = rl_environment.Environment(
        game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=0)
    )
    rng = np.random.RandomState(0)
    ts = env.reset()
    size = game.tianxia_game.observation_tensor_size() + game.num_distinct_actions()
    assert len(ts.observations["info_state"][0]) == size
    while not ts.last():
        p = ts.observations["current_player"]
        ts = env.step([rng.choice(ts.observations["legal_actions"][p])])
    assert ts.rewards == env.get_state.returns()


def test_resample_from_infostate_takes_openspiel_samplers() -> None:
    game = openspiel.load("highcard", players=3)
    s = game.new_initial_state()
    for x in (0, 1, 2):
        s.apply_action(x)
    worlds = set()
    sampler = pyspiel.UniformProbabilitySampler(0, 0.0, 1.0)
    for _ in range(20):
        w = s.resample_from_infostate(1, sampler)
        assert w.information_state_string(1) == s.information_state_string(1)
        assert w.legal_actions() == s.legal_actions()
        assert w.history() == []
        worlds.add(w.tianxia_state.to_json()["hands"][0])
    assert len(worlds) > 1  # seat 0's hidden card is redrawn
    with pytest.raises(ValueError, match="sampler"):
        s.resample_from_infostate(1, 0.5)
    with pytest.raises(ValueError, match="seat"):
        s.resample(3, random.Random(0))


def test_a_resampled_world_starts_the_other_seats_recall_from_their_view_there() -> None:
    game = openspiel.load("highcard", players=2)
    s = game.new_initial_state()
    for x in (0, 1):  # deal seat 0 a 1, seat 1 a 2
        s.apply_action(x)
    rng = random.Random(5)
    keys: dict[str, set[str]] = {}
    for _ in range(30):
        world = s.resample(0, rng)
        keys.setdefault(world.observation_string(1), set()).add(world.information_state_string(1))
    assert len(keys) > 1  # seat 1 holds other cards in other worlds...
    assert all(len(k) == 1 for k in keys.values())  # ...one recall for each card it sees
    assert len(set().union(*keys.values())) == len(keys)
