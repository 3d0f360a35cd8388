"""The map and the deck of China, read once from `data/*.toml`, validated and frozen.

`validate_board` and `validate_cards` check every invariant the rulebook and the public
facts impose; a file replaced through `TIANXIA_DATA_DIR` is held to the same checks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tianxia.core.data import load_toml

COLOURS: tuple[str, ...] = ("violet", "yellow", "orange", "red", "green")
SIDES: tuple[str, ...] = ("3-4", "4-5")
_HERE = Path(__file__).parent


@dataclass(frozen=True)
class Board:
    """Static tables of one board side. Indices are used everywhere in the rules."""

    side: str
    reconstructed: bool
    province_names: tuple[str, ...]
    province_colour: tuple[int, ...]
    dragon_xy: tuple[tuple[int, int], ...]
    field_names: tuple[str, ...]
    field_province: tuple[int, ...]
    field_xy: tuple[tuple[int, int], ...]
    province_fields: tuple[tuple[int, ...], ...]
    alliances: tuple[tuple[int, int], ...]
    roads: tuple[tuple[int, int], ...]
    neighbours: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Cards:
    """The deck by colour, the cards removed per player count and each player's supply."""

    reconstructed: bool
    deck: tuple[int, ...]
    removed: Mapping[int, int]
    houses: int
    emissaries: int
    fortifications: int

    def deck_for(self, players: int) -> tuple[int, ...]:
        """The cards in play for `players` seats, by colour."""
        return tuple(n - self.removed[players] for n in self.deck)


def _fail(what: str) -> None:
    raise ValueError(f"china board data: {what}")


def validate_board(raw: Mapping[str, Any], side: str) -> Board:
    """Build the `Board` of `side` from parsed TOML, or a ValueError naming the broken rule."""
    if side not in SIDES:
        _fail(f"no side {side!r} (sides: {', '.join(SIDES)})")
    provinces = raw.get("province", [])
    if len(provinces) != 9:
        _fail(f"there must be 9 provinces, not {len(provinces)}")
    names: list[str] = []
    colours: list[int] = []
    dragons: list[tuple[int, int]] = []
    field_names: list[str] = []
    field_prov: list[int] = []
    field_xy: list[tuple[int, int]] = []
    prov_fields: list[tuple[int, ...]] = []
    for p, prov in enumerate(provinces):
        name = prov.get("name")
        if not isinstance(name, str) or not name or name in names:
            _fail(f"province {p + 1} needs a unique name")
        assert isinstance(name, str)
        colour = prov.get("colour")
        if colour not in COLOURS:
            _fail(f"{name} has colour {colour!r}, not one of {', '.join(COLOURS)}")
        fields = prov.get("fields", [])
        if not 4 <= len(fields) <= 8:
            _fail(f"{name} has {len(fields)} house fields; a province has 4 to 8")
        names.append(name)
        colours.append(COLOURS.index(colour))
        dragons.append(_xy(prov.get("dragon"), f"{name} dragon field"))
        start = len(field_names)
        for k, xy in enumerate(fields):
            field_names.append(f"{name}.{k + 1}")
            field_prov.append(p)
            field_xy.append(_xy(xy, f"{name}.{k + 1}"))
        prov_fields.append(tuple(range(start, len(field_names))))
    for c in range(len(COLOURS)):
        holders = [names[p] for p in range(9) if colours[p] == c]
        if len(holders) != (1 if COLOURS[c] == "violet" else 2):
            want = "one province" if COLOURS[c] == "violet" else "two provinces"
            _fail(f"colour {COLOURS[c]} must belong to {want}, not {holders}")
    chu = colours.index(0)
    if len(prov_fields[chu]) != max(len(f) for f in prov_fields):
        _fail("the violet province must be the largest")
    index = {n: i for i, n in enumerate(names)}
    alliances: list[tuple[int, int]] = []
    for k, pair in enumerate(raw.get("alliances", [])):
        if len(pair) != 2 or any(n not in index for n in pair) or pair[0] == pair[1]:
            _fail(f"alliance {k + 1} must join two different provinces: {pair}")
        a, b = index[pair[0]], index[pair[1]]
        if (a, b) in alliances or (b, a) in alliances:
            _fail(f"alliance {k + 1} repeats {pair}")
        if colours[a] == colours[b]:
            _fail(f"alliance {k + 1}: {pair[0]} and {pair[1]} share a colour and cannot border")
        alliances.append((a, b))
    if len(alliances) != 15:
        _fail(f"there must be 15 alliances, not {len(alliances)}")
    borders = {frozenset(p) for p in alliances}
    fidx = {n: i for i, n in enumerate(field_names)}
    roads_raw = raw.get("roads", {}).get("inner", [])
    side_raw = raw.get("side", {}).get(side, {}).get("roads")
    if side_raw is None:
        _fail(f"side {side} lists no roads")
    roads: list[tuple[int, int]] = []
    for pair in [*roads_raw, *side_raw]:
        if len(pair) != 2 or any(n not in fidx for n in pair) or pair[0] == pair[1]:
            _fail(f"road {pair} must join two different house fields")
        a, b = sorted((fidx[pair[0]], fidx[pair[1]]))
        if (a, b) in roads:
            _fail(f"road {pair} is listed twice")
        pa, pb = field_prov[a], field_prov[b]
        if pa != pb and frozenset((pa, pb)) not in borders:
            _fail(f"road {pair} crosses between provinces that do not border")
        roads.append((a, b))
    nbrs: list[list[int]] = [[] for _ in field_names]
    for a, b in roads:
        nbrs[a].append(b)
        nbrs[b].append(a)
    lonely = [field_names[f] for f in range(len(field_names)) if not nbrs[f]]
    if lonely:
        _fail(f"every house field needs a road; {', '.join(lonely)} has none")
    return Board(
        side=side,
        reconstructed=bool(raw.get("reconstructed", False)),
        province_names=tuple(names),
        province_colour=tuple(colours),
        dragon_xy=tuple(dragons),
        field_names=tuple(field_names),
        field_province=tuple(field_prov),
        field_xy=tuple(field_xy),
        province_fields=tuple(prov_fields),
        alliances=tuple(alliances),
        roads=tuple(roads),
        neighbours=tuple(tuple(sorted(n)) for n in nbrs),
    )


def _xy(value: Any, what: str) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and 0 <= v <= 100 for v in value)
    ):
        _fail(f"{what} needs coordinates [x, y] within 0..100")
    return (value[0], value[1])


def validate_cards(raw: Mapping[str, Any]) -> Cards:
    """Build `Cards` from parsed TOML, or a ValueError naming the broken rule."""
    deck_raw = raw.get("deck", {})
    if set(deck_raw) != set(COLOURS) or not all(
        isinstance(deck_raw[c], int) and deck_raw[c] > 0 for c in COLOURS
    ):
        raise ValueError(f"china card data: the deck needs a positive count for {COLOURS}")
    deck = tuple(deck_raw[c] for c in COLOURS)
    if sum(deck) != 57:
        raise ValueError(f"china card data: the deck has 57 cards, not {sum(deck)}")
    removed_raw = raw.get("removed", {})
    removed = {int(k): v for k, v in removed_raw.items()}
    if set(removed) != {3, 4, 5} or removed != {3: 2, 4: 1, 5: 0}:
        raise ValueError("china card data: 3 players remove 2 cards per colour, 4 remove 1")
    supply = raw.get("supply", {})
    houses, emissaries, forts = (
        supply.get("houses"),
        supply.get("emissaries"),
        supply.get("fortifications"),
    )
    if (houses, emissaries, forts) != (20, 8, 1):
        raise ValueError(
            "china card data: each player has 20 houses, 8 emissaries, 1 fortification"
        )
    return Cards(
        reconstructed=bool(raw.get("reconstructed", False)),
        deck=deck,
        removed=removed,
        houses=houses,
        emissaries=emissaries,
        fortifications=forts,
    )


_BOARDS: dict[str, Board] = {}
_CARDS: list[Cards] = []


def board(side: str) -> Board:
    """The validated board of `side`, read once per process."""
    if side not in _BOARDS:
        _BOARDS[side] = validate_board(load_toml("china", "board.toml", _HERE), side)
    return _BOARDS[side]


def cards() -> Cards:
    """The validated deck and supplies, read once per process."""
    if not _CARDS:
        _CARDS.append(validate_cards(load_toml("china", "cards.toml", _HERE)))
    return _CARDS[0]
