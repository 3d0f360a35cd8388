"""Research interfaces: every game as an OpenSpiel game, a PettingZoo AEC environment, a
Gymnasium environment and a batched Gymnasium vector environment.

The heavy libraries (pyspiel, pettingzoo, gymnasium, numpy) are imported only by the
modules of this package, never by `import tianxia` or `import tianxia.adapters`; install
them with ``tianxia[rl]``. The adapters reach a game only through the engine contract
(`tianxia.core`).

- `tianxia.adapters.layout(game)`: what each index of the observation tensor means.
- `tianxia.adapters.encoding`: the one observation encoding every face hands out.
- `tianxia.adapters.openspiel.register()`: ``pyspiel.load_game("tianxia_<name>")``.
- `tianxia.adapters.pettingzoo.env(name, ...)`: an AEC environment.
- `tianxia.adapters.gym.TianxiaEnv(name, ...)`: one seat against opponents.
- `tianxia.adapters.vector.TianxiaVectorEnv(name, num_envs, ...)`: many games in one step;
  `tianxia.adapters.vector.Seats`: the same with every seat played by the caller.
- `tianxia.adapters.opponents`: opponents (bots, policies, snapshots, a `League`) and
  rewards.
- `tianxia.adapters.bench.run(name, seconds)`: steps per second through each of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tianxia.core import Game


def layout(
    game: Game | str, players: int | None = None, **options: Any
) -> list[tuple[int, int, str]]:
    """``(start, stop, meaning)`` for every block of the observation tensor of `game` (a
    `Game`, or a name with `players` and options as for `tianxia.load_game`), in order.

    Seats are relative to the observer: ``seat +r`` is the seat `r` places after it.
    """
    from tianxia.adapters.encoding import layout as of

    return of(game, players, **options)


__all__ = ["layout"]
