"""Tianxia: five board games of old China behind one seeded, reproducible engine.

>>> import tianxia
>>> game = tianxia.load_game("greatwall", players=2)
>>> state = game.new_initial_state()
>>> state.current_player() == tianxia.CHANCE
True
"""

# First, before any engine module is imported: the guard that picks compiled or pure modules.
from tianxia import _native

_native.install()

from tianxia.core import (  # noqa: E402
    CHANCE,
    TERMINAL,
    Action,
    Game,
    GameInfo,
    IllegalActionError,
    Match,
    NotationError,
    State,
    list_games,
    load_game,
    register_game,
    replay,
)
from tianxia.core.registry import register_lazy  # noqa: E402

compiled = _native.compiled

__version__ = "0.1.0"

for _name in ("china", "greatwall", "emperor", "mandarin", "silkroad"):
    register_lazy(_name, f"tianxia.games.{_name}")

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "Match",
    "NotationError",
    "State",
    "__version__",
    "compiled",
    "list_games",
    "load_game",
    "register_game",
    "replay",
]
