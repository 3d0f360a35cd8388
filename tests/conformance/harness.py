"""Checks every game must pass, played over seeded random games.

Used by `test_conformance.py` for every registered game, player count and option set.
"""

from __future__ import annotations

import copy
import json
import math
import pickle
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

import tianxia
from tianxia.core import CHANCE, TERMINAL, Action, Game, IllegalActionError, Match, State, replay
from tianxia.core.game import _coerce
from tianxia.core.registry import game_class


@dataclass
class Case:
    name: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)

    def game(self) -> Game:
        return tianxia.load_game(self.name, players=self.players, **self.options)

    def __str__(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.name}-{self.players}p" + (f"-{opts}" if opts else "")


def cases(names: list[str]) -> list[Any]:
    out = []
    for name in names:
        cls = game_class(name)
        for n in range(cls.MIN_PLAYERS, cls.MAX_PLAYERS + 1):
            for opts in cls.option_sets(n):
                try:
                    cls(n, **opts)
                except ValueError:
                    continue
                c = Case(name, n, opts)
                out.append(pytest.param(c, id=str(c)))
    return out


def random_game(
    game: Game, seed: int, checks: bool, every: int = 7
) -> tuple[Match, dict[str, int]]:
    """Play one seeded random game; with `checks`, assert the contract along the way."""
    match = Match(game, seed=seed)
    chooser = random.Random(seed * 7919 + 1)
    sampler = random.Random(seed * 104729 + 3)
    stats = {"steps": 0, "resample_diffs": 0, "resamples": 0}
    codec = game.codec
    info = game.info
    while not match.state.is_terminal():
        s = match.state
        step = stats["steps"]
        assert step < info.max_game_length, (
            f"{game} ran past max_game_length {info.max_game_length}"
        )
        legal = s.legal_actions()
        assert legal, "a non-terminal state has no legal action"
        assert len(set(legal)) == len(legal), "legal actions repeat"
        if checks:
            _check_step(
                game,
                s,
                legal,
                codec,
                sampler,
                stats,
                deep=(step % every == 0 or info.max_game_length < 50),
            )
        if s.current_player() == CHANCE:
            match.resolve_chance()
        else:
            match.play(chooser.choice(legal))
        stats["steps"] = len(match.log)
    assert match.state.current_player() == TERMINAL
    assert match.state.legal_actions() == ()
    return match, stats


def _check_step(
    game: Game,
    s: State,
    legal: tuple[Action, ...],
    codec: Any,
    rng: random.Random,
    stats: dict[str, int],
    deep: bool,
) -> None:
    p = s.current_player()
    info = game.info
    if p == CHANCE:
        outcomes = s.chance_outcomes()
        assert outcomes
        assert all(pr > 0 for _, pr in outcomes), "a chance outcome has no probability"
        assert math.isclose(sum(pr for _, pr in outcomes), 1.0, abs_tol=1e-9)
        for a, _ in outcomes:
            i = game.action_id(a)
            assert (
                info.num_distinct_actions
                <= i
                < info.num_distinct_actions + info.max_chance_outcomes
            )
    else:
        assert 0 <= p < game.players
        ids = [game.action_id(a) for a in legal]
        assert all(0 <= i < info.num_distinct_actions for i in ids), "player action id out of range"
        assert ids == sorted(ids), "legal actions are not in codec order"
    for a in rng.sample(list(legal), min(4, len(legal))):
        assert game.action_from_id(game.action_id(a)) == a
        assert s.parse_action(str(a)) == a, f"notation of {a!r} does not round-trip"
        assert s.explain(a).startswith("legal")
    if not deep:
        return
    before = s.to_json()
    # apply leaves its input unchanged
    s.apply(rng.choice(legal))
    assert s.to_json() == before, "apply changed its input"
    # JSON round trip
    text = json.dumps(before)
    again = game.state_from_json(json.loads(text))
    assert again == s and again.to_json() == before
    assert hash(again) == hash(s), "equal states hash differently"
    assert again.current_player() == p and again.legal_actions() == legal
    # pickling and deep copy round-trip, and a state refuses to change
    assert pickle.loads(pickle.dumps(s)) == s
    assert copy.deepcopy(s) == s
    with pytest.raises(AttributeError):
        s.game = game  # type: ignore[misc]
    # the evaluation hook: in range, and the all-seat form agrees with the per-seat one
    values = s.heuristics()
    assert values == pytest.approx([s.heuristic(i) for i in range(game.players)])
    assert all(-1.0 <= v <= 1.0 for v in values), values
    # observations are JSON-able
    for seat in [None, *range(game.players)]:
        json.dumps(s.observation(seat))
    # an illegal action raises and changes nothing
    pool = codec.actions if p != CHANCE else codec.outcomes
    illegal = [a for a in rng.sample(list(pool), min(30, len(pool))) if a not in legal]
    if p != CHANCE:
        illegal += [a for a in codec.outcomes[:1]]
    for a in illegal[:3]:
        with pytest.raises(IllegalActionError) as err:
            s.apply(a)
        assert err.value.rule and err.value.reason
        assert s.explain(a).startswith("illegal")
        assert s.to_json() == before
    # resampling from an information state
    for seat in range(game.players):
        r = s.resample_from_infostate(seat, random.Random(rng.random()))
        assert r.observation(seat) == s.observation(seat), f"resample changes seat {seat}'s view"
        assert s.to_json() == before, "resampling changed the state"
        if p == seat:
            assert r.legal_actions() == legal
        if r.current_player() == CHANCE or p == CHANCE:
            assert r.current_player() == p
        stats["resamples"] += 1
        if r.to_json() != before:
            stats["resample_diffs"] += 1


def check_events(match: Match, rng: random.Random, every: int = 5, alternatives: int = 6) -> None:
    """The engine's events tell a seat no more than its observation does.

    At sampled steps, for every viewer: when another choice (or a world redrawn from
    the viewer's information) would have left the viewer the same observation, the
    viewer's event must read the same; an event is never blank for anyone.
    """
    game = match.game
    viewers: list[int | None] = [None, *range(game.players)]
    for i in range(0, len(match.log), every):
        before, action, after = match.history[i], match.log[i], match.history[i + 1]
        ev = match.event(i)
        actor = before.current_player()
        for v in viewers:
            text = ev.text_for(v)
            assert isinstance(text, str) and text.strip(), f"event {i + 1} is blank for {v}"
            if v is not None and v == actor:
                continue
            seen = after.observation(v)
            others = [a for a in before.legal_actions() if a != action]
            for b in rng.sample(others, min(alternatives, len(others))):
                after_b = before.apply_unchecked(b)
                if after_b.observation(v) == seen:
                    ev_b = before.event(b, after_b)
                    assert ev_b.text_for(v) == text, (
                        f"event {i + 1} tells {v} which of {action} and {b} happened: "
                        f"{text!r} / {ev_b.text_for(v)!r}"
                    )
                    assert not ev.visible_to(v), (
                        f"event {i + 1} shows {v} the notation {action}, which its view hides"
                    )
            if v is None or actor == CHANCE:
                continue
            world = before.resample_from_infostate(v, random.Random(rng.random()))
            if action in world.legal_actions():
                after_w = world.apply_unchecked(action)
                if after_w.observation(v) == seen:
                    assert world.event(action, after_w).text_for(v) == text, (
                        f"event {i + 1} reads differently to {v} in a world it cannot tell apart"
                    )


def check_game(case: Case, seeds: range) -> None:
    game = case.game()
    total_diffs = 0
    assert pickle.loads(pickle.dumps(game)) == game and copy.deepcopy(game) == game
    for seed in seeds:
        match, stats = random_game(game, seed, checks=True)
        check_events(match, random.Random(seed))
        total_diffs += stats["resample_diffs"]
        final = match.state
        # replay(log) rebuilds the final state
        assert replay(game, match.log) == final
        assert replay(game, [game.action_id(a) for a in match.log]) == final
        # the same seed gives the same log
        again, _ = random_game(game, seed, checks=False)
        assert again.log == match.log
        # a saved match loads back
        assert Match.from_json(json.loads(json.dumps(match.to_json()))).state == final
        # returns in range, scores one per seat
        ret = final.returns()
        assert len(ret) == game.players and len(final.scores()) == game.players
        assert all(game.info.min_utility - 1e-9 <= v <= game.info.max_utility + 1e-9 for v in ret)
        if game.info.utility == "zero_sum":
            assert abs(sum(ret)) < 1e-6
    if game.info.information == "imperfect":
        assert total_diffs > 0, "resampled states never differ: nothing is hidden?"


def check_bad_construction(name: str) -> None:
    cls = game_class(name)
    for bad in (cls.MIN_PLAYERS - 1, cls.MAX_PLAYERS + 1, "three", 2.5, True):
        with pytest.raises(ValueError):
            tianxia.load_game(name, players=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        tianxia.load_game(name, players=cls.MIN_PLAYERS, no_such_option=1)
    for spec in cls.OPTIONS:
        with pytest.raises(ValueError):
            tianxia.load_game(name, players=cls.MAX_PLAYERS, **{spec.name: object()})
        assert _coerce(spec, spec.default) == spec.default
