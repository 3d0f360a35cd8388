"""Helpers for tests: loading a benchmark script as a module, playing a match out."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

from tianxia.core import CHANCE, Match

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_benchmark(relative: str) -> ModuleType:
    """The script at `benchmarks/<relative>`, imported as a module (it is not a package)."""
    path = BENCHMARKS / relative
    spec = importlib.util.spec_from_file_location(f"bench_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play_out(m: Match, rng: random.Random) -> None:
    """Play `m` to its end: chance from its own stream, every decision at random."""
    while not m.state.is_terminal():
        if m.state.current_player() == CHANCE:
            m.resolve_chance()
        else:
            m.play(rng.choice(m.state.legal_actions()))


def random_step(m: Match, rng: random.Random) -> None:
    """One step of a seeded random game: a chance outcome drawn by its weights from `rng`
    (not the match's own stream, so one seed fixes the whole game), else a random legal
    action."""
    state = m.state
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        m.play(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    else:
        m.play(rng.choice(state.legal_actions()))
