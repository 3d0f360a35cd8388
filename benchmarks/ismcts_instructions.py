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

import sys

import tianxia
from tianxia.bots.ismcts import ISMCTSBot
from tianxia.cli.bench import search_positions

POSITIONS = 3


def main() -> None:
    name, players, simulations = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    game = tianxia.load_game(name, players=players)
    chosen = search_positions(game, POSITIONS, seed=3)
    warm = chosen[0]
    ISMCTSBot(game, warm.current_player(), seed=99, simulations=5).act(warm)
    if simulations:
        for i, s in enumerate(chosen):
            ISMCTSBot(game, s.current_player(), seed=3 + i, simulations=simulations).act(s)
    engine = "compiled" if tianxia.compiled() else "pure Python"
    print(f"simulations {len(chosen) * simulations} ({engine})", file=sys.stderr)


if __name__ == "__main__":
    main()
