"""Machine instructions per IS-MCTS simulation, a measure the machine's load does not move.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python benchmarks/ismcts_instructions.py silkroad 2 40    # and with 0

As `step_instructions.py` for playouts: run it with `SIMULATIONS` and with 0; both take
the same seeded playout, pick the same three positions along it (as `tianxia bench
--ismcts` does with six) and search one position for 5 simulations as a warm-up; with
`SIMULATIONS`, the bot then searches each of the three for that many. The difference of
the two `Collected` counts divided by 3 x `SIMULATIONS` is the cost of one simulation
with the bot's default options (resampling, selection, rollout, evaluation hook).
"""

from __future__ import annotations

import random
import sys

import tianxia
from tianxia.bots.ismcts import ISMCTSBot
from tianxia.core import CHANCE, State, sample_chance

POSITIONS = 3


def positions(game: tianxia.Game, seed: int = 3) -> list[State]:
    """Positions with a choice, spread along one seeded random playout."""
    rng = random.Random(seed)
    found: list[State] = []
    s: State = game.new_initial_state()
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            a = sample_chance(s, rng)
        else:
            if len(s.legal_actions()) > 1:
                found.append(s)
            a = rng.choice(s.legal_actions())
        s = s.apply(a)
    step = max(1, len(found) // POSITIONS)
    return found[::step][:POSITIONS]


def main() -> None:
    name, players, simulations = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    game = tianxia.load_game(name, players=players)
    chosen = positions(game)
    warm = chosen[0]
    ISMCTSBot(game, warm.current_player(), seed=99, simulations=5).act(warm)
    if simulations:
        for i, s in enumerate(chosen):
            ISMCTSBot(game, s.current_player(), seed=3 + i, simulations=simulations).act(s)
    engine = "compiled" if tianxia.compiled() else "pure Python"
    print(f"simulations {len(chosen) * simulations} ({engine})", file=sys.stderr)


if __name__ == "__main__":
    main()
