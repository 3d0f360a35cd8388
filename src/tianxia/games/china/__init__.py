"""China (Schacht, 2005): place houses and emissaries, score majorities, alliances, roads."""

from tianxia.games.china.game import ChinaGame
from tianxia.games.china.state import ChinaState

__all__ = ["ChinaGame", "ChinaState"]
