"""Die Seidenstraße (Kommerell, 1998): a merchants' race from Xi'an to Venice."""

from tianxia.games.silkroad.game import SilkroadGame

__all__ = ["SilkroadGame"]
