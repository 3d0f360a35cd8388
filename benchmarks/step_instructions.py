"""Machine instructions per random-playout step, a measure the machine's load does not move.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python benchmarks/step_instructions.py silkroad 2 10    # and with 0

On a shared machine `tianxia bench`'s steps/s move by 10-30% between runs of the same
code; the instruction count of the same seeded playouts does not. Run it twice, with
`K` playouts and with none (the imports, the game's tables and one warm-up playout,
which both runs share); the difference of the two `Collected` counts divided by the
steps printed is the cost of one step of the bench's loop (`legal_actions`, a checked
`apply`, chance drawn by its probabilities). Instructions are not time (cache misses
and branches are not counted), but a change that removes work shows in them.

One run does the same when callgrind counts only inside the playouts, which run inside
the one call of C's `functools.reduce`:

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        --toggle-collect=functools_reduce .venv/bin/python benchmarks/step_instructions.py silkroad 2 10
"""

from __future__ import annotations

import functools
import random
import sys

import tianxia
from tianxia.core import CHANCE, State, sample_chance


def playout(game: tianxia.Game, seed: int) -> int:
    """One seeded random playout, as `tianxia bench` plays it; its number of steps."""
    rng = random.Random(seed)
    s: State = game.new_initial_state()
    steps = 0
    while not s.is_terminal():
        s = s.apply(
            sample_chance(s, rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions())
        )
        steps += 1
    return steps


def main() -> None:
    name, players, k = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    game = tianxia.load_game(name, players=players)
    playout(game, 10**6)  # warm-up, in both runs: the game's caches and tables
    # The playouts run inside one call of C's functools.reduce, which nothing else here
    # calls: `--toggle-collect=functools_reduce` counts them alone, in one run.
    steps = functools.reduce(lambda total, seed: total + playout(game, seed), range(k), 0)
    engine = "compiled" if tianxia.compiled() else "pure Python"
    print(f"steps {steps} ({engine})", file=sys.stderr)


if __name__ == "__main__":
    main()
