"""Mandarin positions built directly, for tests and examples."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tianxia.games.mandarin import rules
from tianxia.games.mandarin.data import ANIMAL_COUNT
from tianxia.games.mandarin.state import DISPENSER, MandarinState, Phase, opening

if TYPE_CHECKING:
    from tianxia.games.mandarin.game import Mandarin


def _tupled(key: str, value: Any) -> Any:
    if key == "firsts" and isinstance(value, list | tuple):
        return tuple(tuple(v) if isinstance(v, list | tuple) else v for v in value)
    if isinstance(value, list):
        return tuple(value)
    return value


def position(game: Mandarin, **fields: Any) -> MandarinState:
    """A position: unnamed fields take their opening values, `firsts` follows from
    `owner` in seat order unless given, and an empty dispenser has just run empty
    (`dry` 0) unless `dry` is given."""
    values = opening(game)
    unknown = sorted(set(fields) - set(values))
    if unknown:
        raise ValueError(f"a mandarin state has no field {unknown[0]!r}")
    values.update({k: _tupled(k, v) for k, v in fields.items()})
    if "dry" not in fields and values["owner"].count(DISPENSER) == values["holes"]:
        values["dry"] = 0
    if "phase" in fields:
        values["phase"] = Phase(values["phase"])
    state = MandarinState.new_draft(game, **values)
    if "firsts" not in fields:
        for animal in range(ANIMAL_COUNT):
            rules._refresh_firsts(state, animal)
    return state.freeze()
