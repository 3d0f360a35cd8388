"""The map and the pieces of Emperor of China, read once from `data/*.toml` and validated.

Both files are reconstructions (see docs/data/emperor.md); a user may replace either with
a transcription of the printed game through `TIANXIA_DATA_DIR`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from tianxia.core.data import load_toml

GAME = "emperor"
PACKAGE_DIR = Path(__file__).parent

# Precedence of obstacles: an attack across a border needs the card of the strongest one.
OBSTACLES = ("water", "mountains", "great_wall")
NORMAL = "normal"
YANG_GROUPS = ("economy", "attack", "defence")


@dataclass(frozen=True)
class Border:
    a: str
    b: str
    obstacles: tuple[str, ...]
    optional: bool

    @property
    def strongest(self) -> str:
        """The obstacle an attack must overcome, or "normal"."""
        if not self.obstacles:
            return NORMAL
        return max(self.obstacles, key=OBSTACLES.index)


@dataclass(frozen=True)
class Components:
    """Everything static: provinces, borders, decks and the numbers of the rules."""

    province_ids: tuple[str, ...]
    province_names: tuple[str, ...]
    pinyin: tuple[str, ...]
    coords: tuple[tuple[float, float], ...]
    borders: tuple[Border, ...]
    yang_kinds: tuple[str, ...]
    yang_groups: tuple[str, ...]
    yang_counts: tuple[int, ...]
    yin_kinds: tuple[str, ...]
    yin_loss: tuple[int, ...]
    yin_special: tuple[bool, ...]
    yin_counts: tuple[int, ...]
    marker_kinds: tuple[str, ...]
    marker_counts: tuple[int, ...]
    marker_growth: tuple[int, ...]
    marker_points: tuple[int, ...]
    units_per_player: int
    province_cap: int
    turns: int
    victory_provinces: int
    growth_base: int
    start_units: int
    start_provinces: Mapping[int, int]
    reconstructed: bool


def _fail(filename: str, msg: str) -> ValueError:
    return ValueError(f"emperor data file {filename}: {msg}")


def _int(d: Mapping[str, Any], key: str, filename: str, low: int = 0) -> int:
    v = d.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        raise _fail(filename, f"{key} must be a whole number >= {low}, not {v!r}")
    return v


def parse_components(board: Mapping[str, Any], pieces: Mapping[str, Any]) -> Components:
    """Validate the parsed `map.toml` and `components.toml`; a ValueError names any fault."""
    m, c = "map.toml", "components.toml"
    provinces = board.get("province")
    if not isinstance(provinces, list) or not provinces:
        raise _fail(m, "needs a [[province]] list")
    ids: list[str] = []
    for p in provinces:
        pid = p.get("id")
        if not isinstance(pid, str) or not pid.isidentifier() or pid != pid.lower():
            raise _fail(m, f"province id {pid!r} must be a lower-case word")
        if pid in ids:
            raise _fail(m, f"province {pid!r} is listed twice")
        ids.append(pid)
        for key in ("x", "y"):
            if not isinstance(p.get(key), int | float):
                raise _fail(m, f"province {pid!r} needs a number {key}")
    borders: list[Border] = []
    seen: set[frozenset[str]] = set()
    for b in board.get("border", []):
        a, z = b.get("a"), b.get("b")
        if a not in ids or z not in ids:
            raise _fail(m, f"border {a!r}-{z!r} names an unknown province")
        if a == z:
            raise _fail(m, f"border {a!r}-{z!r} joins a province to itself")
        pair = frozenset((a, z))
        if pair in seen:
            raise _fail(m, f"border {a}-{z} is listed twice")
        seen.add(pair)
        obstacles = tuple(b.get("obstacles", ()))
        bad = [o for o in obstacles if o not in OBSTACLES]
        if bad or len(set(obstacles)) != len(obstacles):
            raise _fail(m, f"border {a}-{z} has obstacles {obstacles}; allowed: {OBSTACLES}")
        borders.append(Border(a, z, obstacles, bool(b.get("optional", False))))
    if not borders:
        raise _fail(m, "needs a border list")
    # every province must be reachable, or part of the board could never matter
    reach = {ids[0]}
    frontier = [ids[0]]
    while frontier:
        here = frontier.pop()
        for bd in borders:
            for x, y in ((bd.a, bd.b), (bd.b, bd.a)):
                if x == here and y not in reach:
                    reach.add(y)
                    frontier.append(y)
    if len(reach) != len(ids):
        raise _fail(m, f"the map is not connected: {sorted(set(ids) - reach)} cut off")

    markers = pieces.get("marker", {})
    marker_kinds = tuple(markers)
    yang = pieces.get("yang", [])
    yang_kinds = tuple(y.get("kind") for y in yang)
    yang_groups = tuple(y.get("group") for y in yang)
    yin = pieces.get("yin", [])
    yin_kinds = tuple(y.get("kind") for y in yin)
    if len(set(yang_kinds)) != len(yang_kinds) or len(set(yin_kinds)) != len(yin_kinds):
        raise _fail(c, "a yang or yin kind is listed twice")
    for kind, group in zip(yang_kinds, yang_groups):
        if group not in YANG_GROUPS:
            raise _fail(c, f"yang {kind!r} has group {group!r}; allowed: {YANG_GROUPS}")
        if group == "economy" and kind not in marker_kinds:
            raise _fail(c, f"economy card {kind!r} has no marker of that name")
        if group == "attack" and kind not in OBSTACLES:
            raise _fail(c, f"attack card {kind!r} names no obstacle")
        if group == "defence" and kind not in yin_kinds:
            raise _fail(c, f"defence card {kind!r} names no yin card")
    for o in OBSTACLES:
        if any(o in b.obstacles for b in borders) and o not in yang_kinds:
            raise _fail(c, f"no attack card crosses {o!r}")
    start = pieces.get("start_provinces", {})
    start_by_n = {int(k): int(v) for k, v in start.items()}
    if sorted(start_by_n) != [2, 3, 4, 5] or min(start_by_n.values()) < 1:
        raise _fail(c, "start_provinces needs a count >= 1 for each of 2, 3, 4, 5 players")
    return Components(
        province_ids=tuple(ids),
        province_names=tuple(str(p.get("name", p["id"])) for p in provinces),
        pinyin=tuple(str(p.get("pinyin", "")) for p in provinces),
        coords=tuple((float(p["x"]), float(p["y"])) for p in provinces),
        borders=tuple(borders),
        yang_kinds=yang_kinds,
        yang_groups=yang_groups,
        yang_counts=tuple(_int(y, "count", c) for y in yang),
        yin_kinds=yin_kinds,
        yin_loss=tuple(_int(y, "loss", c) for y in yin),
        yin_special=tuple(bool(y.get("special", False)) for y in yin),
        yin_counts=tuple(_int(y, "count", c) for y in yin),
        marker_kinds=marker_kinds,
        marker_counts=tuple(_int(markers[k], "count", c) for k in marker_kinds),
        marker_growth=tuple(_int(markers[k], "growth", c) for k in marker_kinds),
        marker_points=tuple(_int(markers[k], "points", c) for k in marker_kinds),
        units_per_player=_int(pieces, "units_per_player", c, 3),
        province_cap=_int(pieces, "province_cap", c, 3),
        turns=_int(pieces, "turns", c, 1),
        victory_provinces=_int(pieces, "victory_provinces", c, 1),
        growth_base=_int(pieces, "growth_base", c),
        start_units=_int(pieces, "start_units", c, 1),
        start_provinces=MappingProxyType(start_by_n),
        reconstructed=bool(board.get("reconstructed")) or bool(pieces.get("reconstructed")),
    )


@cache
def components() -> Components:
    """The map and pieces in use (the user's override files if `TIANXIA_DATA_DIR` has them)."""
    return parse_components(
        load_toml(GAME, "map.toml", PACKAGE_DIR), load_toml(GAME, "components.toml", PACKAGE_DIR)
    )
