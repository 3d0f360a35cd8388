"""Seat markers shared with OpenSpiel (its kChancePlayerId and kTerminalPlayerId)."""

from typing import Final

CHANCE: Final = -1
TERMINAL: Final = -4
