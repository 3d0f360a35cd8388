"""Move quality of bots against a long search, for settings a few dozen games cannot rank.

    .venv/bin/python benchmarks/bots/regret.py silkroad --players 2 --positions 50 \
        --oracle 3000 --bots ismcts:simulations=100 ismcts:simulations=100:rollout_greedy=1

Positions come from seeded games of greedy players (one move in five random, so that the
positions vary), at decisions with three or more legal actions. An `ismcts` search of
--oracle simulations (no prior, random rollouts of depth 4) values every root action
there; each bot then decides twice per position (two seeds), and its regret is the
oracle's best value less the oracle's value of the bot's choice. Lower is better; the
interval is 1.96 standard errors. The oracle is itself an `ismcts`, so settings close to
its own are favoured: a ranking, not a proof, and kept only where games agree.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

import tianxia
from tianxia import bots
from tianxia.bots.ismcts import ISMCTSBot, _Node
from tianxia.core import Action, Game, State, sample_chance
from tianxia.play.runner import BotSpec


class Oracle(ISMCTSBot):
    """An `ismcts` that keeps every root action's mean value of its last search."""

    table: dict[Action, float]

    def _describe_search(
        self, choice: Action, ranked: list[tuple[Action, _Node]], samples: list[State]
    ) -> str:
        self.table = {a: n.total / max(1, n.visits) for a, n in ranked}
        return f"oracle: {choice}"


def positions(game: Game, count: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    found: list[State] = []
    match = 0
    while len(found) < count:
        match += 1
        players = [
            bots.make("greedy", game, i, seed=seed * 1000 + match * 10 + i)
            for i in range(game.players)
        ]
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                state = state.apply(sample_chance(state, rng))
                continue
            legal = state.legal_actions()
            if len(legal) >= 3 and rng.random() < 0.1:
                found.append(state)
            if rng.random() < 0.8:
                state = state.apply(players[state.current_player()].act(state))
            else:
                state = state.apply(rng.choice(legal))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--oracle", type=int, default=3000, help="the oracle's simulations")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", nargs="+", required=True)
    args = parser.parse_args(argv)
    game = tianxia.load_game(args.game, players=args.players)
    states = positions(game, args.positions, args.seed)
    started = time.perf_counter()
    tables = []
    for i, state in enumerate(states):
        oracle = Oracle(
            game,
            state.current_player(),
            seed=7 + i,
            simulations=args.oracle,
            prior_visits=0,
            rollout_depth=4,
            rollout_greedy=0,
            final="visits",
            centre=1,
        )
        oracle.act(state)
        tables.append(oracle.table)
    print(
        f"{args.game} {args.players}p: {len(states)} positions, oracle {args.oracle} "
        f"simulations, {time.perf_counter() - started:.0f}s",
        flush=True,
    )
    for text in args.bots:
        spec = BotSpec.parse(text)
        regrets: list[float] = []
        agree = 0
        started = time.perf_counter()
        for i, state in enumerate(states):
            table = tables[i]
            best = max(table.values())
            for k in range(2):
                bot: Any = spec.make(game, state.current_player(), seed=1000 * k + i)
                value = table.get(bot.act(state), min(table.values()))
                regrets.append(best - value)
                agree += value >= best - 1e-12
        n = len(regrets)
        mean = sum(regrets) / n
        sd = (sum((r - mean) ** 2 for r in regrets) / (n - 1)) ** 0.5
        print(
            f"  {text}: regret {mean:.4f} ± {1.96 * sd / n**0.5:.4f}, agrees {agree / n:.0%}, "
            f"{time.perf_counter() - started:.0f}s",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
