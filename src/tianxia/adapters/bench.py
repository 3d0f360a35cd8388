"""Steps per second through each research interface, against the bare engine.

>>> from tianxia.adapters import bench
>>> bench.run("greatwall", seconds=2.0)["interfaces"]["engine"]["steps_per_s"]  # doctest: +SKIP

Every interface plays seeded random games (uniform over legal actions, chance drawn by
its probabilities) for about `seconds` each:

- ``engine``: `State.legal_actions` and `State.apply` only;
- ``engine_observing``: the same plus the mover's `State.observation_tensor` at every
  decision, which is what an agent sees through the environments below;
- ``openspiel``: a pyspiel state (`legal_actions`, `chance_outcomes`, `apply_action`);
- ``pettingzoo``: the AEC cycle (`last`, then `step` with an action from the info's mask);
- ``gym``: one seat's `step` against random bots (each of its steps runs the others' moves;
  ``steps_per_s`` counts every action, ``env_steps_per_s`` the seat's own).

A step is one applied action, chance outcomes included, so the figures compare directly.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import tianxia
from tianxia.core import Game, choose_outcome, sample_chance
from tianxia.machine import machine

INTERFACES = ("engine", "engine_observing", "openspiel", "pettingzoo", "gym")


def _timed(one_game: Callable[[int], tuple[int, int]], seconds: float) -> dict[str, float]:
    """Play games `one_game(seed) -> (steps, env_steps)` until `seconds` have passed."""
    steps = env_steps = games = 0
    start = time.perf_counter()
    elapsed = 0.0
    while games == 0 or elapsed < seconds:
        s, e = one_game(games)
        steps += s
        env_steps += e
        games += 1
        elapsed = time.perf_counter() - start
    return {
        "steps_per_s": steps / elapsed,
        "env_steps_per_s": env_steps / elapsed,
        "games": games,
        "mean_length": steps / games,
    }


def _engine(game: Game, observing: bool) -> Callable[[int], tuple[int, int]]:
    def one_game(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps = decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply(sample_chance(state, rng))
            else:
                if observing:
                    state.observation_tensor(state.current_player())
                state = state.apply(rng.choice(state.legal_actions()))
                decisions += 1
            steps += 1
        return steps, decisions

    return one_game


def _openspiel(game: Game) -> Callable[[int], tuple[int, int]]:
    from tianxia.adapters import openspiel

    spiel_game = openspiel.load(game.NAME, players=game.players, **game.options)

    def one_game(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        state = spiel_game.new_initial_state()
        steps = decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choose_outcome(state.chance_outcomes(), rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
            steps += 1
        return steps, decisions

    return one_game


def _pettingzoo(game: Game) -> Callable[[int], tuple[int, int]]:
    from tianxia.adapters.pettingzoo import env

    aec = env(game.NAME, players=game.players, **game.options)

    def one_game(seed: int) -> tuple[int, int]:
        rng = np.random.default_rng(seed)
        aec.reset(seed=seed)
        decisions = 0
        for _ in aec.agent_iter():
            _, _, term, trunc, info = aec.last()
            if term or trunc:
                aec.step(None)
                continue
            aec.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            decisions += 1
        assert aec.match is not None
        return len(aec.match.log), decisions

    return one_game


def _gym(game: Game) -> Callable[[int], tuple[int, int]]:
    from tianxia.adapters.gym import TianxiaEnv

    env = TianxiaEnv(game.NAME, players=game.players, **game.options)

    def one_game(seed: int) -> tuple[int, int]:
        rng = np.random.default_rng(seed)
        obs, _ = env.reset(seed=seed)
        done = False
        decisions = 0
        while not done:
            obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            decisions += 1
        assert env.match is not None
        return len(env.match.log), decisions

    return one_game


def run(
    game_name: str,
    seconds: float = 3.0,
    players: int | None = None,
    interfaces: tuple[str, ...] = INTERFACES,
) -> dict[str, Any]:
    """Measure `game_name` through each of `interfaces` for about `seconds` each.

    Returns:
        ``{"game", "players", "seconds", "machine", "interfaces": {name: {"steps_per_s",
        "env_steps_per_s", "games", "mean_length", "vs_engine"}}}``; ``vs_engine`` is the
        interface's speed as a fraction of the bare engine's (when the engine was measured).

    Raises:
        ValueError: an unknown game, interface or a time that is not positive.
    """
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds <= 0:
        raise ValueError(f"seconds must be a positive number, not {seconds!r}")
    unknown = [i for i in interfaces if i not in INTERFACES]
    if unknown:
        raise ValueError(f"no interface {unknown[0]!r} (interfaces: {', '.join(INTERFACES)})")
    game = tianxia.load_game(game_name, players=players)
    makers: dict[str, Callable[[], Callable[[int], tuple[int, int]]]] = {
        "engine": lambda: _engine(game, observing=False),
        "engine_observing": lambda: _engine(game, observing=True),
        "openspiel": lambda: _openspiel(game),
        "pettingzoo": lambda: _pettingzoo(game),
        "gym": lambda: _gym(game),
    }
    rows: dict[str, dict[str, float]] = {}
    for name in interfaces:
        rows[name] = _timed(makers[name](), float(seconds))
    if "engine" in rows:
        base = rows["engine"]["steps_per_s"]
        for row in rows.values():
            row["vs_engine"] = row["steps_per_s"] / base
    return {
        "game": game_name,
        "players": game.players,
        "seconds": seconds,
        "machine": machine(),
        "interfaces": rows,
    }


def to_markdown(result: dict[str, Any]) -> str:
    """One result of `run` as a markdown table."""
    lines = [
        f"### {result['game']} ({result['players']} players)",
        "",
        "| interface | steps/s | agent steps/s | games | mean length | × engine |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, r in result["interfaces"].items():
        ratio = r.get("vs_engine")
        lines.append(
            f"| {name} | {r['steps_per_s']:,.0f} | {r['env_steps_per_s']:,.0f} | {r['games']} "
            f"| {r['mean_length']:,.0f} | {'' if ratio is None else f'{ratio:.2f}'} |"
        )
    return "\n".join(lines)
