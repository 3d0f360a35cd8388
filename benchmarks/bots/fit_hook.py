"""Fit a game's win model, the evaluation hook of a game that offers one, to finished games.

    .venv/bin/python benchmarks/bots/fit_hook.py greatwall benchmarks/bots/runs/greatwall-*/games.jsonl

A game's search room that offers `win_features(state)` (per seat, the features named by
`WIN_FEATURES`, and the share of the game still to play) scores a position by a
conditional logit (`tianxia.core.winmodel`): seat i wins with chance
softmax_i(sum_f (b_f + share * c_f) x_if).
This script replays the games in tournament journals (`games.jsonl`, as `tianxia
tournament` and `lines.py` write them; a game found in several journals counts once),
takes the features at every `--every`-th decision and the game's final shares (a tie
split among its winners), and fits b and c per number of seats by maximum likelihood
with a small ridge penalty (Newton's method on standardised features). It prints the
held-out log-loss of the model against the uniform guess (a fifth of the games held
out), then `WIN_WEIGHTS` fitted on every game, to paste into the game's search room.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

import tianxia

Data = tuple[np.ndarray, np.ndarray, np.ndarray]  # design (N, n, 2d), shares (N, n), game ids


def positions(name: str, journals: list[Path], every: int) -> dict[int, Data]:
    """Per number of seats: each position's design rows, the final shares, its game."""
    found: dict[int, tuple[list[Any], list[Any], list[int]]] = {}
    seen: set[tuple[int, tuple[str, ...]]] = set()
    for path in journals:
        for line in path.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            record = entry.get("log")
            if record is None or record.get("game") != name:
                continue
            n = int(record["players"])
            key = (n, tuple(record["log"]))
            if key in seen:
                continue
            seen.add(key)
            game = tianxia.load_game(name, players=n, **record.get("options", {}))
            search = game.search
            xs, ys, ids = found.setdefault(n, ([], [], []))
            state = game.new_initial_state()
            decisions = 0
            for step in record["log"]:
                if state.current_player() >= 0:
                    if decisions % every == 0:
                        rows, share = search.win_features(state)
                        xs.append([row + [share * f for f in row] for row in rows])
                        ys.append(entry["shares"])
                        ids.append(len(seen))
                    decisions += 1
                state = state.apply(step)
    return {
        n: (np.array(xs, dtype=float), np.array(ys, dtype=float), np.array(ids))
        for n, (xs, ys, ids) in found.items()
    }


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """Mean cross-entropy of the final shares under the model with weights `w`."""
    z = x @ w
    z = z - z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(-(y * logp).sum(axis=1).mean())


def fit(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    """Maximum-likelihood weights of the conditional logit, with `ridge` on standardised
    weights; Newton's method (the objective is convex)."""
    d = x.shape[2]
    scale = x.reshape(-1, d).std(axis=0)
    scale[scale == 0] = 1.0
    xs = x / scale
    w = np.zeros(d)
    m = len(y)
    for _ in range(50):
        z = xs @ w
        z = z - z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        mean_x = np.einsum("ni,nid->nd", p, xs)
        grad = np.einsum("ni,nid->d", p - y, xs) / m + 2 * ridge * w
        flat = xs.reshape(-1, d)
        second = (flat * p.reshape(-1, 1)).T @ flat - mean_x.T @ mean_x
        hess = second / m + 2 * ridge * np.eye(d)
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-10:
            break
    out: np.ndarray = w / scale
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("journals", nargs="+", type=Path)
    parser.add_argument("--every", type=int, default=3, help="every k-th decision of a game")
    parser.add_argument("--ridge", type=float, default=1e-4)
    parser.add_argument("--digits", type=int, default=4)
    args = parser.parse_args(argv)
    search = tianxia.load_game(args.game).search
    if not hasattr(search, "win_features"):
        parser.error(f"{args.game}'s search room offers no win_features")
    names = search.WIN_FEATURES
    data = positions(args.game, args.journals, args.every)
    if not data:
        parser.error("no finished games of this game in those journals")
    table: dict[int, tuple[list[float], list[float]]] = {}
    for n in sorted(data):
        x, y, ids = data[n]
        games = sorted(set(ids.tolist()))
        held = set(random.Random(0).sample(games, len(games) // 5))
        test = np.array([i in held for i in ids])
        train = ~test
        w = fit(x[train], y[train], args.ridge)
        print(
            f"{n} seats: {len(games)} games, {len(y)} positions; held-out log-loss "
            f"{log_loss(x[test], y[test], w):.4f} (uniform {math.log(n):.4f})",
            file=sys.stderr,
        )
        w = fit(x, y, args.ridge)
        half = len(names)
        table[n] = (
            [round(float(v), args.digits) for v in w[:half]],
            [round(float(v), args.digits) for v in w[half:]],
        )
    print("WIN_WEIGHTS: winmodel.Weights = {")
    for n, (base, slope) in table.items():
        print(f"    {n}: (")
        for part in (base, slope):
            print("        (")
            for name, v in zip(names, part):
                print(f"            {v!r},  # {name}")
            print("        ),")
        print("    ),")
    print("}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
