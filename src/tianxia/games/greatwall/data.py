"""The printed components, read once from `data/components.toml` and validated.

The rules give the card kinds their effects (noble, warriors, horsemen, dragon), so the
kinds and their order are fixed here; the data file gives their values and copies, the
fame tiles and the number of sections, and a printed-game owner may replace it through
`TIANXIA_DATA_DIR` (see docs/data/greatwall.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tianxia.core.data import load_toml

KINDS: tuple[str, ...] = ("wall", "gate", "tower", "noble", "warrior", "horseman", "dragon")
WALL, GATE, TOWER, NOBLE, WARRIOR, HORSEMAN, DRAGON = range(7)
SECTION_NAMES = "ABCD"


@dataclass(frozen=True)
class Components:
    """Card values and copies (indexed by kind), fame tiles, sections per player count."""

    card_values: tuple[int, ...]
    card_copies: tuple[int, ...]
    tile_values: tuple[int, ...]
    tile_counts: tuple[int, ...]
    sections: dict[int, int]
    hand: int
    reconstructed: bool

    @property
    def set_size(self) -> int:
        return sum(self.card_copies)

    @property
    def tile_total(self) -> int:
        return sum(self.tile_counts)


def parse_components(raw: dict[str, Any]) -> Components:
    """Validate the parsed TOML; a ValueError names the first broken invariant."""
    cards = raw.get("card")
    if not isinstance(cards, list):
        raise ValueError("components: [[card]] entries are missing")
    by_kind: dict[str, tuple[int, int]] = {}
    for entry in cards:
        kind = entry.get("kind")
        if kind not in KINDS:
            raise ValueError(f"components: unknown card kind {kind!r} (kinds: {', '.join(KINDS)})")
        if kind in by_kind:
            raise ValueError(f"components: card kind {kind!r} is listed twice")
        value, copies = entry.get("value"), entry.get("copies")
        if not isinstance(value, int) or value < 1:
            raise ValueError(f"components: {kind} value must be a whole number >= 1")
        if not isinstance(copies, int) or copies < 1:
            raise ValueError(f"components: {kind} copies must be a whole number >= 1")
        by_kind[kind] = (value, copies)
    missing = [k for k in KINDS if k not in by_kind]
    if missing:
        raise ValueError(f"components: card kinds missing: {', '.join(missing)}")
    for single in ("noble", "dragon"):
        if by_kind[single][1] != 1:
            raise ValueError(f"components: a set holds exactly one {single}")
    tiles_raw = raw.get("tiles")
    if not isinstance(tiles_raw, dict) or not tiles_raw:
        raise ValueError("components: [tiles] is missing")
    tiles: list[tuple[int, int]] = []
    for key, count in tiles_raw.items():
        try:
            value = int(key)
        except ValueError:
            raise ValueError(f"components: tile value {key!r} is not a number") from None
        if value < 1 or not isinstance(count, int) or count < 1:
            raise ValueError(f"components: tile {key} needs a value >= 1 and a count >= 1")
        tiles.append((value, count))
    tiles.sort()
    if sum(c for _, c in tiles) % 2:
        raise ValueError("components: the fame tiles must come in an even number (pairs)")
    sections_raw = raw.get("sections")
    if not isinstance(sections_raw, dict):
        raise ValueError("components: [sections] is missing")
    sections = {int(k): v for k, v in sections_raw.items()}
    if sorted(sections) != [2, 3, 4, 5]:
        raise ValueError("components: [sections] must give 2, 3, 4 and 5 players")
    if any(not isinstance(v, int) or not 1 <= v <= len(SECTION_NAMES) for v in sections.values()):
        raise ValueError(f"components: sections must be 1..{len(SECTION_NAMES)}")
    hand = raw.get("setup", {}).get("hand")
    set_size = sum(c for _, c in by_kind.values())
    if not isinstance(hand, int) or not 1 <= hand <= set_size:
        raise ValueError("components: setup.hand must be between 1 and the set size")
    return Components(
        card_values=tuple(by_kind[k][0] for k in KINDS),
        card_copies=tuple(by_kind[k][1] for k in KINDS),
        tile_values=tuple(v for v, _ in tiles),
        tile_counts=tuple(c for _, c in tiles),
        sections=sections,
        hand=hand,
        reconstructed=bool(raw.get("reconstructed", False)),
    )


@cache
def components() -> Components:
    """The components in use (the shipped file, or the user's override)."""
    return parse_components(load_toml("greatwall", "components.toml", Path(__file__).parent))
