"""The game-agnostic engine. It imports nothing else of tianxia."""

from tianxia.core.actions import Action, ActionCodec, action
from tianxia.core.constants import CHANCE, TERMINAL
from tianxia.core.errors import IllegalActionError, NotationError
from tianxia.core.events import Event, seat_name
from tianxia.core.game import JSON, Game, GameInfo, OptionSpec, State
from tianxia.core.match import Match, apply_all, choose_outcome, replay, sample_chance
from tianxia.core.registry import game_class, list_games, load_game, register_game, register_lazy
from tianxia.core.value import FrozenStateError, StateDataError

__all__ = [
    "CHANCE",
    "JSON",
    "TERMINAL",
    "Action",
    "ActionCodec",
    "Event",
    "FrozenStateError",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "Match",
    "NotationError",
    "OptionSpec",
    "State",
    "StateDataError",
    "action",
    "apply_all",
    "choose_outcome",
    "game_class",
    "list_games",
    "load_game",
    "register_game",
    "register_lazy",
    "replay",
    "sample_chance",
    "seat_name",
]
