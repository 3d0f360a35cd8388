"""Games by name. A game package calls `register_game` when it is imported."""

from __future__ import annotations

import importlib
from typing import Any

from tianxia.core.errors import shown
from tianxia.core.game import Game

_REGISTRY: dict[str, type[Game]] = {}
_LAZY: dict[str, str] = {}


def register_game(cls: type[Game]) -> type[Game]:
    """Make `cls` loadable as `load_game(cls.NAME)`. Usable as a class decorator."""
    _REGISTRY[cls.NAME] = cls
    return cls


def register_lazy(name: str, module: str) -> None:
    """Name a module that registers game `name` when imported (keeps `import tianxia` light)."""
    _LAZY[name] = module


def game_class(name: object) -> type[Game]:
    if not isinstance(name, str):
        raise ValueError(f"a game is named by text, not {shown(name)}")
    if name not in _REGISTRY and name in _LAZY:
        importlib.import_module(_LAZY[name])
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(list_games()) or "none"
        raise ValueError(f"no game called {shown(name)} (games: {known})") from None


def load_game(name: str, players: int | None = None, **options: Any) -> Game:
    """The variant of game `name` for `players` seats with `options`.

    >>> load_game("greatwall", players=3).info.players
    3
    """
    return game_class(name)(players, **options)


def list_games() -> list[str]:
    """Names of every registered game (the built-in ones first, in their order)."""
    names: list[str] = []
    for name, module in _LAZY.items():
        if name not in _REGISTRY:
            try:
                importlib.import_module(module)
            except ModuleNotFoundError as e:
                if e.name is None or not module.startswith(e.name):
                    raise
                continue
        if name in _REGISTRY:
            names.append(name)
    names.extend(n for n in _REGISTRY if n not in names)
    return names
