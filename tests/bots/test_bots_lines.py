"""The benchmark lines' entrants: what `benchmarks/bots/lines.py` pits against what."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import tianxia
from tianxia.play.runner import BotSpec

LINES = Path(__file__).resolve().parents[2] / "benchmarks" / "bots" / "lines.py"


def _lines() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_lines", LINES)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_our_options_reach_our_entrant_only_and_every_entrant_is_a_bot() -> None:
    lines = _lines()
    ours, theirs = lines.entrants("vs-os-hook", 100, None, "rollout_depth=end")
    assert ours == "ismcts:simulations=100:rollout_depth=end"
    assert theirs == "openspiel-ismcts:simulations=100:rollouts=hook"
    timed, _ = lines.entrants("vs-os-time", 100, 0.25, "rollout_depth=end")
    assert timed == "ismcts:time_limit=0.2500:rollout_depth=end"
    assert lines.entrants("greedy-random", 100, None, "rollout_depth=end") == ("greedy", "random")
    game = tianxia.load_game("greatwall", players=2)
    bot = BotSpec.parse(ours).make(game, 0, 0)
    assert bot.rollout_depth == game.info.max_game_length


def test_wilson_interval_holds_the_rate_and_narrows_with_games() -> None:
    lines = _lines()
    low, high = lines.wilson(30, 50)
    assert low < 0.6 < high
    low2, high2 = lines.wilson(300, 500)
    assert low < low2 < 0.6 < high2 < high
