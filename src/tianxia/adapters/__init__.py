"""Research interfaces: every game as an OpenSpiel game, a PettingZoo AEC environment and a
Gymnasium environment.

The heavy libraries (pyspiel, pettingzoo, gymnasium, numpy) are imported only by the
modules of this package, never by `import tianxia`; install them with ``tianxia[rl]``.
The adapters reach a game only through the engine contract (`tianxia.core`).

- `tianxia.adapters.openspiel.register()`: ``pyspiel.load_game("tianxia_<name>")``.
- `tianxia.adapters.pettingzoo.env(name, ...)`: an AEC environment.
- `tianxia.adapters.gym.TianxiaEnv(name, ...)`: one seat against the project's bots.
- `tianxia.adapters.bench.run(name, seconds)`: steps per second through each of them.
"""
