"""The Great Wall of China (Knizia, 2006): `load_game("greatwall", players=2..5)`."""

from tianxia.games.greatwall.game import GreatWall
from tianxia.games.greatwall.state import GreatWallState

__all__ = ["GreatWall", "GreatWallState"]
