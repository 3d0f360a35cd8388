"""Emperor of China: registers the game `emperor` with the engine."""

from tianxia.games.emperor.game import EmperorGame

__all__ = ["EmperorGame"]
