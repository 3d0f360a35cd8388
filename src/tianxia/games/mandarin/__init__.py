"""Mandarin, the zodiac game: collect one tile of every animal, or all six of one."""

from tianxia.games.mandarin.game import Mandarin
from tianxia.games.mandarin.tables import sign_of_birth_date

__all__ = ["Mandarin", "sign_of_birth_date"]
