"""The batched environment against Gymnasium's SyncVectorEnv over the single environment,
and beside pgx on the CPU.

Run from the repository root: ``.venv/bin/python benchmarks/adapters/vector.py [seconds]
[game]`` (default 12 s a line, the Great Wall at two seats). It writes VECTOR.md beside
this file and the raw figures to ``benchmarks/records/<date>/vector.json``. Every line of
ours steps seeded games with random masked actions for the learning seat against random
opponents, and counts the learning seat's steps per second, each of which hands back an
observation and a mask. Two more lines drive the compiled loop of `tianxia.core.batch`
without the learner's arrays, with and without observations: what the engine alone
allows. The pgx line (``pip install -e ".[bench-pgx]"``; skipped with a
sentence without it) steps a batch of 256 Othello games, jitted, with random legal
actions, auto-reset, and the observation and legal-action mask of every step made
(`block_until_ready`).
"""

from __future__ import annotations

import json
import os
import platform
import random
import sys
import time
from array import array
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium.vector import SyncVectorEnv

import tianxia
from tianxia.adapters.gym import TianxiaEnv
from tianxia.adapters.vector import TianxiaVectorEnv
from tianxia.core import batch

PGX_GAME = "othello"
PGX_BATCH = 256
NOTES = "<!-- notes: kept when the table is written again -->\n"


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

    def close(self) -> None:
        self.envs.close()

    @property
    def rate(self) -> float:
        return self.steps / self.seconds


class EngineLine:
    """The compiled loop's games without the learner's arrays: random legal actions for
    the learner, chance and the random opponents (``observe=False``: no observation
    either), so what is left of a step is the engine's own work; the bound on any
    batched environment over this engine."""

    def __init__(self, label: str, name: str, players: int, n: int, observe: bool) -> None:
        self.label, self.observe = label, observe
        self.envs = TianxiaVectorEnv(name, n, players=players, copy=False)
        self.envs.reset(seed=0)
        self.rng = random.Random(0)
        self.steps, self.seconds = 0, 0.0

    def run(self, seconds: float) -> None:
        lanes = self.envs._lanes
        assert lanes is not None
        rng = self.rng
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            tensors: array[float] = array("f")
            rows: list[int] = []
            cols: list[int] = []
            for i, lane in enumerate(lanes.lanes):
                assert lane is not None
                legal = lane.state.legal_actions()
                a = legal[rng.randrange(len(legal))]
                lane.state = lane.state.apply_unchecked(a)
                if batch.advance(lane, 0):
                    lanes.reset(i, None)
                if self.observe:
                    batch.observe(lane, 0, lanes.ids, tensors, rows, cols, i)
                del lane.log[:]  # nobody reads it here; keeps memory flat
            self.steps += len(lanes.lanes)
        self.seconds += time.perf_counter() - start

    def close(self) -> None:
        self.envs.close()

    @property
    def rate(self) -> float:
        return self.steps / self.seconds


class PgxLine:
    """pgx's `PGX_GAME`, `PGX_BATCH` games stepped by one jitted call with random legal
    actions; every step's observation and mask are made before the clock reads."""

    def __init__(self) -> None:
        import jax
        import jax.numpy as jnp
        import pgx
        from pgx.experimental import auto_reset

        self.jax = jax
        env = pgx.make(PGX_GAME)
        self.label = f"pgx {PGX_GAME}, {PGX_BATCH} games (jax {jax.__version__}, CPU)"
        init = jax.jit(jax.vmap(env.init))
        vstep = jax.vmap(auto_reset(env.step, env.init))

        @jax.jit
        def step(state: Any, key: Any) -> Any:
            k1, k2 = jax.random.split(key)
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
            action = jax.random.categorical(k1, logits, axis=-1)
            return vstep(state, action, jax.random.split(k2, PGX_BATCH))

        self.step = step
        self.key = jax.random.PRNGKey(0)
        self.key, sub = jax.random.split(self.key)
        self.state = init(jax.random.split(sub, PGX_BATCH))
        for _ in range(3):  # compiled before the clock runs
            self._one()
        self.steps, self.seconds = 0, 0.0

    def _one(self) -> None:
        self.key, sub = self.jax.random.split(self.key)
        self.state = self.step(self.state, sub)
        self.state.observation.block_until_ready()
        self.state.legal_action_mask.block_until_ready()

    def run(self, seconds: float) -> None:
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            self._one()
            self.steps += PGX_BATCH
        self.seconds += time.perf_counter() - start

    def close(self) -> None:
        return None

    @property
    def rate(self) -> float:
        return self.steps / self.seconds


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 12.0
    name = sys.argv[2] if len(sys.argv) > 2 else "greatwall"
    players = tianxia.load_game(name).info.min_players
    loads = [os.getloadavg()[0]]

    def make() -> TianxiaEnv:
        return TianxiaEnv(name, players=players)

    def ours(n: int, workers: int = 0) -> TianxiaVectorEnv:
        return TianxiaVectorEnv(name, n, players=players, copy=False, workers=workers)

    runs: list[Any] = [
        Line("TianxiaEnv, one game", make(), batched=False),
        Line("SyncVectorEnv over 16 TianxiaEnv", SyncVectorEnv([make] * 16), batched=True),
        Line("TianxiaVectorEnv, 16 games", ours(16), batched=True),
        Line("TianxiaVectorEnv, 256 games", ours(256), batched=True),
        Line("TianxiaVectorEnv, 256 games, 2 worker processes", ours(256, 2), batched=True),
        EngineLine("compiled loop, 256 games: engine only", name, players, 256, False),
        EngineLine(
            "compiled loop, 256 games: engine and observations, no arrays",
            name,
            players,
            256,
            True,
        ),
    ]
    pgx_note = ""
    try:
        runs.append(PgxLine())
    except ImportError as e:
        pgx_note = (
            f"No pgx line: pgx or JAX is not installed ({e.name}); "
            '`.venv/bin/pip install -e ".[bench-pgx]"` adds them.'
        )
    rounds = 6
    for _ in range(rounds):
        for line in runs:
            line.run(seconds / rounds)
        loads.append(os.getloadavg()[0])
    for line in runs:
        line.close()
    base = runs[1].rate
    when = datetime.now(UTC)
    cores = os.cpu_count()
    record = {
        "date": f"{when:%Y-%m-%d %H:%M} UTC",
        "machine": f"{platform.processor() or platform.machine()}, {cores} cores",
        "python": platform.python_version(),
        "engine": tianxia._native.summary(),
        "game": name,
        "players": players,
        "seconds_per_line": seconds,
        "slices": rounds,
        "load_average": loads,
        "lines": [
            {"label": line.label, "steps": line.steps, "seconds": line.seconds, "rate": line.rate}
            for line in runs
        ],
    }
    where = Path(__file__).resolve().parents[1] / "records" / f"{when:%Y-%m-%d}"
    where.mkdir(parents=True, exist_ok=True)
    (where / "vector.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    out = [
        "# The batched environment: steps per second",
        "",
        f"Recorded {record['date']} on {record['machine']}, Python {record['python']}; "
        f"load average {min(loads):.1f} to {max(loads):.1f} during the run (sampled "
        "between the slices). Raw figures: "
        f"`benchmarks/records/{when:%Y-%m-%d}/vector.json`.",
        f"Engine: {record['engine']}.",
        "",
        f"{tianxia.load_game(name).info.title} at {players} seats against random "
        f"opponents, {seconds:g} s a line in {rounds} slices taken in turn with the other "
        "lines (so that changes in the machine's load fall on every line alike); a step "
        "is one decision of the learning seat, with its observation and mask (the "
        "opponents' moves and chance in between are part of it). Regenerate with "
        "`.venv/bin/python benchmarks/adapters/vector.py`.",
        "",
        "| line | steps/s | steps | x SyncVectorEnv |",
        "|---|---:|---:|---:|",
    ]
    for line in runs:
        out.append(f"| {line.label} | {line.rate:,.0f} | {line.steps:,} | {line.rate / base:.2f} |")
    out.append("")
    if pgx_note:
        out += [pgx_note, ""]
    path = Path(__file__).with_name("VECTOR.md")
    # The written notes below the marker (the choice of pgx game, the profile) are kept.
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    _, marker, notes = old.partition(NOTES)
    out += [NOTES.rstrip(), notes.strip(), ""] if marker else []
    path.write_text("\n".join(out), encoding="utf-8")
    print(path.read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
