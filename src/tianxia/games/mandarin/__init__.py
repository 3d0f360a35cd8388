"""Mandarin, the zodiac game: collect one tile of every animal, or all six of one."""

from tianxia.games.mandarin.data import sign_of_birth_date
from tianxia.games.mandarin.game import Mandarin

__all__ = ["Mandarin", "sign_of_birth_date"]
