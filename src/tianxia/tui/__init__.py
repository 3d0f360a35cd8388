"""The terminal player: every game drawn on screen, playable against bots or hotseat."""

from tianxia.tui.app import TianxiaApp

__all__ = ["TianxiaApp"]
