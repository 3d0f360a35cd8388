"""The batched environment against Gymnasium's SyncVectorEnv over the single environment.

Run from the repository root: ``.venv/bin/python benchmarks/adapters/vector.py [seconds]
[num_envs] [game]`` (default 3 s a line, 16 games, the Great Wall at two seats). It
writes VECTOR.md beside this file. Every line steps the same games (seeded, random
masked actions for the learning seat, random opponents) and counts the learning seat's
steps per second, each of which returns an observation and a mask.
"""

from __future__ import annotations

import os
import platform
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium.vector import SyncVectorEnv

import tianxia
from tianxia.adapters.gym import TianxiaEnv
from tianxia.adapters.vector import TianxiaVectorEnv


def pick(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per row, in one NumPy call (the same for every line)."""
    return np.asarray(np.argmax(rng.random(masks.shape) * masks, axis=1))


class Line:
    """One way of stepping games, run in slices so that the lines share the load alike."""

    def __init__(self, label: str, envs: Any, batched: bool) -> None:
        self.label, self.envs, self.batched = label, envs, batched
        self.rng = np.random.default_rng(0)
        self.obs, _ = envs.reset(seed=0)
        self.steps, self.seconds = 0, 0.0

    def run(self, seconds: float) -> None:
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            if self.batched:
                self.obs, *_ = self.envs.step(pick(self.obs["action_mask"], self.rng))
                self.steps += self.envs.num_envs
            else:
                a = int(pick(self.obs["action_mask"][None, :], self.rng)[0])
                self.obs, _, done, _, _ = self.envs.step(a)
                self.steps += 1
                if done:
                    self.obs, _ = self.envs.reset()
        self.seconds += time.perf_counter() - start

    @property
    def rate(self) -> float:
        return self.steps / self.seconds


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    name = sys.argv[3] if len(sys.argv) > 3 else "greatwall"
    players = tianxia.load_game(name).info.min_players
    load = os.getloadavg()[0]

    def make() -> TianxiaEnv:
        return TianxiaEnv(name, players=players)

    runs = [
        Line("TianxiaEnv, one game", make(), batched=False),
        Line(f"SyncVectorEnv over {n} TianxiaEnv", SyncVectorEnv([make] * n), batched=True),
        Line(
            f"TianxiaVectorEnv, {n} games",
            TianxiaVectorEnv(name, n, players=players, copy=False),
            batched=True,
        ),
        Line(
            f"TianxiaVectorEnv, {n} games, 2 worker processes",
            TianxiaVectorEnv(name, n, players=players, copy=False, workers=2),
            batched=True,
        ),
    ]
    rounds = 6
    for _ in range(rounds):
        for line in runs:
            line.run(seconds / rounds)
    for line in runs:
        line.envs.close()
    lines = [(line.label, line.rate, line.steps) for line in runs]
    base = lines[1][1]
    cores = os.cpu_count()
    out = [
        "# The batched environment: steps per second",
        "",
        f"Recorded {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {platform.processor() or 'x86_64'} "
        f"({cores} cores), Python {platform.python_version()}; load average {load:.1f} when "
        "the run started.",
        f"Engine: {tianxia._native.summary()}.",
        "",
        f"{tianxia.load_game(name).info.title} at {players} seats against random "
        f"opponents, {seconds:g} s a line in six slices taken in turn with the other lines "
        "(so that changes in the machine's load fall on every line alike); a step is one "
        "decision of the learning seat, "
        "with its observation and mask. Regenerate with "
        "`.venv/bin/python benchmarks/adapters/vector.py`.",
        "",
        "| line | steps/s | steps | x SyncVectorEnv |",
        "|---|---:|---:|---:|",
    ]
    for label, rate, steps in lines:
        out.append(f"| {label} | {rate:,.0f} | {steps:,} | {rate / base:.2f} |")
    out.append("")
    if cores and load > cores:
        out += [
            f"**Measured under load** (load average {load:.1f} on {cores} cores): other work",
            "shared the cores throughout, so the figures are low and noisy and the ratios only",
            "indicative; worker processes in particular cannot gain when no core is free. A",
            "fair run (idle machine, and pgx on CPU beside it) is still to be made.",
            "",
        ]
    out += [
        "Where the time goes (cProfile of the batched line): most of a step is the engine",
        "itself, `Match.play` (the legality check, the transition and the log) for the",
        "learning seat and the opponents, and the observation tensor; batching removes only",
        "the per-game wrapper work (a dictionary per game, copies, concatenation). Going",
        "several times faster than SyncVectorEnv needs the stepping loop in the compiled",
        "modules, not in the adapter.",
        "",
    ]
    path = Path(__file__).with_name("VECTOR.md")
    path.write_text("\n".join(out), encoding="utf-8")
    print(path.read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
