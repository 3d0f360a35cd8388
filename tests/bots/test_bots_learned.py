"""The learned bot: its network's file and checks, the guided search, training, entry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tianxia
import tianxia.bots
from tianxia.bots.learned import (
    WEIGHTS,
    LearnedBot,
    PolicyValueNet,
    has_weights,
    mismatch,
    weights_path,
)
from tianxia.core import Game, Match, State


def _greatwall(players: int = 2) -> Game:
    return tianxia.load_game("greatwall", players=players)


def _first_decision(game: Game, seed: int = 3) -> State:
    match = Match(game, seed=seed)
    match.resolve_chance()
    return match.state


def _highcard_with(cards: tuple[int, int]) -> State:
    game = tianxia.load_game("highcard", players=2)
    return game.new_initial_state().apply(f"deal {cards[0]}").apply(f"deal {cards[1]}")


def test_weights_round_trip_through_the_file(tmp_path: Path) -> None:
    game = _greatwall()
    net = PolicyValueNet.initial(game, [16, 8], seed=4)
    rng = np.random.default_rng(0)
    net.policy = (rng.standard_normal(net.policy[0].shape).astype(np.float32), net.policy[1])
    path = net.save(tmp_path / "gw.npz")
    back = PolicyValueNet.load(path, game)
    obs = rng.standard_normal((3, net.header["observation_size"])).astype(np.float32)
    for a, b in zip(net.forward(obs), back.forward(obs), strict=True):
        np.testing.assert_array_equal(a, b)
    assert back.header["title"] == game.info.title
    assert back.header["players"] == 2
    assert back.header["rules_version"] == game.info.version
    assert back.header["encoding_version"] == 2


def test_an_untrained_network_has_a_uniform_prior_and_zero_values() -> None:
    game = _greatwall()
    net = PolicyValueNet.initial(game, [16], seed=1)
    state = _first_decision(game)
    from tianxia.adapters.encoding import encoding

    logits, value = net.forward(encoding(game).encode(state, state.current_player()))
    assert logits.shape == (game.info.num_distinct_actions,)
    assert np.all(logits == 0) and np.all(value == 0)


@pytest.mark.parametrize(
    ("change", "sentence"),
    [
        ({"players": 3}, "at 3 players, not at 2"),
        ({"game": "china", "title": "China"}, "for China, not The Great Wall"),
        ({"rules_version": 99}, "rules version 99"),
        ({"encoding_version": 1}, "observation encoding 1"),
        ({"options": {"sections": 9}}, "the options"),
        ({"format_version": 7}, "weights format 7"),
        ({"actions": 5}, "expect 5 action ids"),
    ],
)
def test_weights_that_do_not_fit_are_refused_with_a_sentence_saying_what_differs(
    tmp_path: Path, change: dict[str, object], sentence: str
) -> None:
    game = _greatwall()
    net = PolicyValueNet.initial(game, [8], seed=0)
    net.header = {**net.header, **change}
    path = net.save(tmp_path / "other.npz")
    with pytest.raises(ValueError, match=sentence) as caught:
        PolicyValueNet.load(path, game)
    message = str(caught.value)
    assert message.count(". ") == 0 and "\n" not in message
    with pytest.raises(ValueError, match=sentence):
        tianxia.bots.make("learned", game, 0, path=str(path))


def test_a_missing_or_foreign_file_is_refused(tmp_path: Path) -> None:
    game = _greatwall()
    with pytest.raises(ValueError, match="no weights at"):
        PolicyValueNet.load(tmp_path / "none.npz", game)
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip at all")
    with pytest.raises(ValueError, match="not a weights file"):
        PolicyValueNet.load(junk, game)
    np.savez(tmp_path / "bare.npz", a=np.zeros(2))
    with pytest.raises(ValueError, match="not a weights file"):
        PolicyValueNet.load(tmp_path / "bare.npz", game)


def test_arrays_whose_shapes_disagree_with_the_header_are_refused(tmp_path: Path) -> None:
    game = _greatwall()
    net = PolicyValueNet.initial(game, [8], seed=0)
    net.layers = [(np.zeros((5, 8), np.float32), np.zeros(8, np.float32))]
    path = net.save(tmp_path / "bent.npz")
    with pytest.raises(ValueError, match="shapes disagree"):
        PolicyValueNet.load(path, game)


def test_the_network_prior_steers_the_search() -> None:
    # Holding 1 against 4, swapping wins; a network sure of "stay", with the hook given
    # no weight and few simulations, keeps the search on "stay", and a uniform prior
    # with the hook finds the swap.
    state = _highcard_with((1, 4))
    game = state.game
    net = PolicyValueNet.initial(game, [4], seed=0)
    stay = game.action_id(game.action_from_id(0))
    bias = np.zeros_like(net.policy[1])
    bias[stay] = 8.0
    net.policy = (net.policy[0], bias)
    sure = LearnedBot(game, 0, seed=1, net=net, simulations=12, hook=0.0)
    assert str(sure.act(state)) == "stay"
    assert sure.last_visits[game.action_from_id(0)] > sure.last_visits[game.action_from_id(1)]
    plain = tianxia.bots.make("learned", game, 0, seed=1, simulations=60)
    assert str(plain.act(state)) == "swap"
    assert "no trained weights" in plain.explain()


def test_the_learned_bot_plays_a_whole_game_reproducibly(tmp_path: Path) -> None:
    game = _greatwall()
    path = PolicyValueNet.initial(game, [16], seed=2).save(tmp_path / "gw.npz")

    def play(seed: int) -> list[object]:
        bots = [
            tianxia.bots.make("learned", game, 0, seed=seed, simulations=6, path=str(path)),
            tianxia.bots.make("random", game, 1, seed=seed),
        ]
        from tianxia.play import play_match

        return play_match(game, bots, seed=5).to_json()["log"]

    assert play(1) == play(1)
    bot = tianxia.bots.make("learned", game, 0, seed=1, simulations=6, path=str(path))
    state = _first_decision(game)
    if state.current_player() != 0:
        state = _first_decision(game, seed=4)
    before = state.to_json()
    bot.act(state)
    assert state.to_json() == before
    assert "network [16]" in bot.explain()


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("simulations", 0),
        ("hook", 1.5),
        ("noise", -0.1),
        ("chance", "seen"),
        ("path", 3),
        ("sample_moves", -1),
    ],
)
def test_bad_options_are_refused(option: str, value: Any) -> None:
    with pytest.raises(ValueError, match=option if option != "path" else "file name"):
        tianxia.bots.make("learned", _greatwall(), 0, **{option: value})


def test_a_tournament_takes_a_learned_entrant_with_a_weights_path(tmp_path: Path) -> None:
    from tianxia.play import Tournament

    game = _greatwall()
    path = PolicyValueNet.initial(game, [8], seed=0).save(tmp_path / "gw.npz")
    result = Tournament(game, [f"learned:path={path}:simulations=4", "random"], games=2).run()
    assert sum(len(r.returns) for r in result.records) == 4
    with pytest.raises(ValueError, match="at 2 players, not at 3"):
        Tournament(_greatwall(3), [f"learned:path={path}", "random"], games=1)


def test_every_shipped_weights_file_fits_its_game_today() -> None:
    files = sorted(WEIGHTS.glob("*.npz"))
    for path in files:
        name, players = path.stem.rsplit("-", 1)
        game = tianxia.load_game(name, players=int(players))
        assert weights_path(game) == path
        header = json.loads(str(np.load(path)["header"]))
        assert mismatch(header, game) is None, path
        assert has_weights(game)
        assert path.stat().st_size < 2_000_000


def test_training_writes_weights_and_resumes_where_it_stopped(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from tianxia.bots.learned_train import TrainConfig, train

    game = _greatwall()
    config = TrainConfig(
        game="greatwall", players=2, iterations=1, games=2, simulations=3, hidden=[8], epochs=1
    )
    out = tmp_path / "gw.npz"
    seen: list[tuple[str, int, int]] = []
    net = train(config, out, progress=lambda *a: seen.append(a))
    assert ("iterations", 1, 1) in seen and ("games", 2, 2) in seen
    first = PolicyValueNet.load(out, game)
    assert first.header["trained"]["iterations"] == 1
    assert first.header["trained"]["positions"] > 0
    games = sorted((tmp_path / "gw.train" / "iteration-0000").glob("game-*.npz"))
    assert len(games) == 2
    stamps = [p.stat().st_mtime_ns for p in games]
    # One more iteration: the first one's games are not played again.
    config.iterations = 2
    net = train(config, out)
    assert net.header["trained"]["iterations"] == 2
    assert net.header["trained"]["games"] == 4
    assert [p.stat().st_mtime_ns for p in games] == stamps
    # A finished run asked again trains nothing more.
    again = train(config, out)
    assert again.header["trained"]["iterations"] == 2
    config.hidden = [4]
    with pytest.raises(ValueError, match="hidden"):
        train(config, out)


def test_train_command_writes_weights_the_bot_plays(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from typer.testing import CliRunner

    from tianxia.cli.main import _load_commands, app

    _load_commands()
    out = tmp_path / "w.npz"
    args = ["train", "greatwall", "--players", "2", "--iterations", "1", "--games", "1"]
    args += ["--simulations", "2", "--hidden", "8", "--epochs", "1", "-j", "1", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "after 1 iterations" in result.output
    game = _greatwall()
    bot = tianxia.bots.make("learned", game, 0, simulations=2, path=str(out))
    assert isinstance(bot, LearnedBot) and bot.net is not None
    bad = CliRunner().invoke(app, [*args[:-2], "--hidden", "x", "--out", str(out)])
    assert bad.exit_code != 0


def test_the_learned_strength_is_offered_only_where_weights_ship(tmp_path: Path) -> None:
    from tianxia.play.table import STRENGTHS, make_bot, strengths_for

    china = tianxia.load_game("china", players=3)
    assert not has_weights(china)
    assert "learned" not in strengths_for(china)
    assert set(strengths_for(china)) == set(STRENGTHS) - {"learned"}
    with pytest.raises(ValueError, match="no trained weights ship for China"):
        make_bot("learned", china, 0, 0)
    great = _greatwall()
    assert ("learned" in strengths_for(great)) == has_weights(great)
    if has_weights(great):
        bot = make_bot("learned", great, 1, 0)
        assert isinstance(bot, LearnedBot) and bot.net is not None


def test_the_server_refuses_a_learned_seat_where_no_weights_ship(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from tianxia.server.app import create_app
    from tianxia.web.pages import catalogue

    app = create_app(f"sqlite:///{tmp_path}/db.sqlite")
    with TestClient(app) as client:
        seats = ["open", "bot:learned", "open"]
        refused = client.post("/api/games", json={"game": "china", "players": 3, "seats": seats})
        assert refused.status_code == 422
        assert "no learned bot plays China" in refused.json()["detail"]
        two = client.post(
            "/api/games", json={"game": "greatwall", "players": 2, "seats": ["open", "bot:learned"]}
        )
        assert two.status_code == (201 if has_weights(_greatwall()) else 422)
    by_name = {g["name"]: g for g in catalogue()}
    assert "learned" not in by_name["china"]["counts"]["3"]["strengths"]
    assert ("learned" in by_name["greatwall"]["counts"]["2"]["strengths"]) == has_weights(
        _greatwall()
    )


def test_the_benchmark_lines_take_a_learned_entrant() -> None:
    from scripts import load_benchmark

    lines = load_benchmark("bots/lines.py")
    ours, _ = lines.entrants("vs-os-hook", 100, None, "", "learned:path=w.npz")
    assert ours == "learned:path=w.npz:simulations=100"
    timed, _ = lines.entrants("vs-os-time", 100, 0.25, "hook=1", "learned:path=w.npz")
    assert timed == "learned:path=w.npz:time_limit=0.2500:hook=1"
    assert lines.entrants("vs-os-hook", 100, None)[0] == "ismcts:simulations=100"


def test_the_learned_benchmark_records_a_line_with_its_interval(tmp_path: Path) -> None:
    from scripts import load_benchmark

    bench = load_benchmark("bots/learned.py")
    game = _greatwall()
    path = PolicyValueNet.initial(game, [8], seed=0).save(tmp_path / "w.npz")
    args = ["greatwall", "--games", "2", "--seconds", "0.005", "--weights", str(path)]
    assert bench.main([*args, "--out", str(tmp_path), "--runs", str(tmp_path / "runs")]) == 0
    report = json.loads((tmp_path / "learned.json").read_text())
    (row,) = report["runs"][-1]["rows"]
    assert row["games"] == 2 and row["seat_games"] == 2
    assert 0 <= row["low"] <= row["win_rate"] <= row["high"] <= 1
    assert row["bot"].startswith(f"learned:path={path}:time_limit=0.005")
    assert report["runs"][-1]["machine"] and report["runs"][-1]["date"]
    assert "| greatwall | 2 | weights |" in (tmp_path / "learned.md").read_text()


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    """A policy as the environments take them: the lowest legal action id."""
    return int(np.flatnonzero(mask)[0])


def test_a_policy_callable_takes_a_seat_in_a_tournament_by_its_import_path() -> None:
    from tianxia.play import Tournament

    game = _greatwall()
    state = _first_decision(game)
    seat = state.current_player()
    bot = tianxia.bots.make("policy", game, seat, policy=first_legal)
    assert bot.act(state) == min(state.legal_actions(), key=game.action_id)
    ref = f"{__name__}.first_legal"
    by_ref = tianxia.bots.make("policy", game, seat, ref=ref)
    assert by_ref.act(state) == bot.act(state)
    result = Tournament(game, [f"policy:ref={ref}", "random"], games=2).run()
    assert len(result.records) == 2
    with pytest.raises(ValueError, match="nothing callable"):
        tianxia.bots.make("policy", game, 0, ref="tianxia.no_such_thing")
    with pytest.raises(ValueError, match="either policy"):
        tianxia.bots.make("policy", game, 0, ref=ref, policy=first_legal)


def test_a_policy_answering_an_illegal_id_is_refused_and_the_state_kept() -> None:
    game = _greatwall()
    state = _first_decision(game)
    seat = state.current_player()
    legal_ids = {game.action_id(a) for a in state.legal_actions()}
    outside = next(i for i in range(game.info.num_distinct_actions) if i not in legal_ids)
    bot = tianxia.bots.make("policy", game, seat, policy=lambda obs, mask: outside)
    before = state.to_json()
    with pytest.raises(ValueError, match=f"answered {outside}, which is not one of"):
        bot.act(state)
    assert state.to_json() == before


def test_the_expert_iteration_example_of_the_research_tour_runs() -> None:
    pytest.importorskip("torch")
    import re

    doc = Path(__file__).resolve().parents[2] / "docs" / "research.md"
    section = doc.read_text(encoding="utf-8").split("## Learned bots", 1)[1].split("\n## ", 1)[0]
    (example,) = re.findall(r"^```py\n(.*?)^```", section, re.M | re.S)
    namespace: dict[str, object] = {"__name__": "research_learned"}
    exec(compile(example, "docs/research.md[expert iteration]", "exec"), namespace)
    bot = namespace["bot"]
    assert isinstance(bot, LearnedBot) and bot.net is not None
    assert bot.net.header["trained"]["iterations"] == 1


def test_tianxia_play_refuses_a_learned_seat_where_no_weights_ship() -> None:
    from typer.testing import CliRunner

    from tianxia.cli.main import _load_commands, app

    _load_commands()
    result = CliRunner().invoke(app, ["play", "china", "--seats", "human,learned,random"])
    assert result.exit_code == 2
    assert "no trained weights ship for China" in " ".join(result.output.split())


@pytest.mark.parametrize("name", tianxia.list_games())
def test_the_learned_search_decides_from_its_seats_information_only(name: str) -> None:
    import random

    game = tianxia.load_game(name)
    match = Match(game, seed=2)
    chooser = random.Random(2)
    checked = differing = 0
    while not match.state.is_terminal() and checked < 3:
        if match.state.is_chance_node():
            match.resolve_chance()
            continue
        state, legal = match.state, match.state.legal_actions()
        if len(legal) > 1 and (checked == 0 or chooser.random() < 0.2):
            seat = state.current_player()
            twin = state
            for k in range(20):  # a world that differs, where anything is hidden
                twin = state.resample_from_infostate(seat, random.Random(1000 + k))
                if twin.to_json() != state.to_json():
                    break
            assert twin.observation(seat) == state.observation(seat)
            differing += twin.to_json() != state.to_json()
            decisions = []
            for s in (state, twin):
                bot = tianxia.bots.make("learned", game, seat, seed=17, simulations=30)
                decisions.append((bot.act(s), bot.explain().splitlines()[1:]))
            assert decisions[0] == decisions[1]
            checked += 1
        match.play(chooser.choice(legal))
    assert checked >= 1 and differing > 0


@pytest.mark.timeout(120)
def test_self_play_on_a_process_pool_gives_the_games_of_one_process(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from tianxia.bots.learned_train import TrainConfig, train

    config = TrainConfig(
        game="greatwall", players=2, iterations=1, games=2, simulations=3, hidden=[8], epochs=1
    )
    train(config, tmp_path / "pool.npz", workers=2, backend="pool")
    train(config, tmp_path / "one.npz", workers=1)
    for seed in (0, 1):
        with (
            np.load(tmp_path / "pool.train" / "iteration-0000" / f"game-{seed}.npz") as a,
            np.load(tmp_path / "one.train" / "iteration-0000" / f"game-{seed}.npz") as b,
        ):
            for key in ("obs", "mask", "policy", "value"):
                np.testing.assert_array_equal(a[key], b[key])
    with pytest.raises(ValueError, match="backend"):
        train(config, tmp_path / "x.npz", backend="threads")


@pytest.mark.ray
@pytest.mark.slow
@pytest.mark.timeout(240)
def test_self_play_as_ray_tasks_gives_the_games_of_one_process(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("ray")
    from tianxia.bots.learned_train import TrainConfig, train

    config = TrainConfig(
        game="greatwall", players=2, iterations=1, games=2, simulations=3, hidden=[8], epochs=1
    )
    train(config, tmp_path / "ray.npz", workers=2, backend="ray")
    train(config, tmp_path / "one.npz", workers=1)
    for seed in (0, 1):
        with (
            np.load(tmp_path / "ray.train" / "iteration-0000" / f"game-{seed}.npz") as a,
            np.load(tmp_path / "one.train" / "iteration-0000" / f"game-{seed}.npz") as b,
        ):
            for key in ("obs", "mask", "policy", "value"):
                np.testing.assert_array_equal(a[key], b[key])
