"""Helpers shared by the Mandarin tests: build holdings, play notation, name tiles."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tianxia.core import State
from tianxia.games.mandarin import rules
from tianxia.games.mandarin.data import TABLES
from tianxia.games.mandarin.state import MandarinState


def holdings(by_seat: Mapping[int, Sequence[str]]) -> tuple[int, ...]:
    owner = [rules.DISPENSER] * 72
    for seat, names in by_seat.items():
        for name in names:
            owner[TABLES.tile_names.index(name)] = seat
    return tuple(owner)


def play(s: State, *actions: str) -> MandarinState:
    for a in actions:
        s = s.apply(a)
    assert isinstance(s, MandarinState)
    return s


def tile(name: str) -> int:
    return TABLES.tile_names.index(name)
