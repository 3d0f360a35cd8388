"""The track, the bazaar table and the movement deck, loaded once, validated and frozen."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tianxia.core.data import data_file, load_toml

GAME = "silkroad"
PACKAGE_DIR = Path(__file__).parent

PART_KINDS = ("move", "foremost", "last", "to_next", "to_last", "foreign")
WHEN_KINDS = ("always", "last")
NUMERALS = ("", "I", "II", "III")
MAX_BACK = 10
MAX_FORWARD = 10


@dataclass(frozen=True, slots=True)
class Part:
    """One movement on a card: who moves (`kind`) and how far (`steps`, negative = back)."""

    kind: str
    steps: int


@dataclass(frozen=True, slots=True)
class Alternative:
    numeral: int
    when: str
    silver: int
    parts: tuple[Part, ...]


@dataclass(frozen=True, slots=True)
class CardKind:
    index: int
    key: str
    title: str
    text: str
    copies: int
    alts: tuple[Alternative, ...]

    def alt(self, numeral: int) -> Alternative | None:
        for a in self.alts:
            if a.numeral == numeral:
                return a
        return None


@dataclass(frozen=True, slots=True)
class City:
    name: str
    field: int
    first: int
    behind: tuple[int, ...]

    def pay(self, position: int) -> int:
        """Ounces for a merchant standing on `position` when this city is scored."""
        if position >= self.field:
            return self.first
        d = self.field - position
        return self.behind[d - 1] if d <= len(self.behind) else 0


@dataclass(frozen=True, slots=True)
class BazaarRow:
    bazaar: int
    ounces: tuple[int, int, int]
    miles: int


@dataclass(frozen=True, slots=True)
class SilkroadData:
    length: int
    start_silver: int
    start_fields: tuple[str, ...]
    start_positions: tuple[int, ...]
    penalties: tuple[int, ...]
    cities: tuple[City, ...]  # the trade cities, then Venice last
    bazaar_cards: int
    bazaar: tuple[BazaarRow, ...]
    cards: tuple[CardKind, ...]
    reconstructed: tuple[str, ...]

    @property
    def floor(self) -> int:
        return min(self.start_positions)

    @property
    def deck_size(self) -> int:
        return sum(c.copies for c in self.cards)

    def bazaar_row(self, marker: int) -> BazaarRow | None:
        """The row under the bazaar marker, or None once the marker has left the track.

        The marker moves once per bazaar card, so with fewer rows than cards it can be
        pushed past the last row; from then on no bazaar can be called (SR-6.5).
        """
        return self.bazaar[marker - 1] if 1 <= marker <= len(self.bazaar) else None


def _require(cond: bool, file: str, message: str) -> None:
    if not cond:
        raise ValueError(f"silkroad data {file}: {message}")


def _int(v: Any, file: str, what: str) -> int:
    _require(isinstance(v, int) and not isinstance(v, bool), file, f"{what} must be an integer")
    return int(v)


def parse_track(
    raw: dict[str, Any],
) -> tuple[int, int, tuple[str, ...], tuple[int, ...], tuple[int, ...], tuple[City, ...]]:
    f = "track.toml"
    length = _int(raw.get("length"), f, "length")
    silver = _int(raw.get("start_silver"), f, "start_silver")
    fields = tuple(str(x) for x in raw.get("start_fields", []))
    positions = tuple(_int(x, f, "start_positions") for x in raw.get("start_positions", []))
    _require(len(fields) == len(positions) >= 1, f, "one start position per start field")
    _require(all(p <= 0 for p in positions), f, "start fields lie before field 1")
    _require(len(set(positions)) == len(positions), f, "start positions differ")
    penalties = tuple(_int(x, f, "penalties") for x in raw.get("penalties", []))
    _require(len(penalties) == 4 and penalties[0] == 0, f, "penalties for 0..3 cards, 0 first")
    _require(list(penalties) == sorted(penalties), f, "penalties grow with the cards")
    cities: list[City] = []
    for c in raw.get("city", []):
        behind = tuple(_int(x, f, "behind") for x in c.get("behind", []))
        city = City(
            str(c["name"]), _int(c["field"], f, "field"), _int(c["first"], f, "first"), behind
        )
        _require(all(x >= 0 for x in behind), f, f"{city.name}: amounts are not negative")
        _require(list(behind) == sorted(behind, reverse=True), f, f"{city.name}: nearer pays more")
        _require(all(city.first >= x for x in behind), f, f"{city.name}: arriving pays most")
        cities.append(city)
    _require(len(cities) >= 1, f, "at least the goal")
    _require(cities[-1].field == length, f, "the last city is the goal at the end of the track")
    fs = [c.field for c in cities]
    _require(fs == sorted(set(fs)) and fs[0] > 0, f, "cities lie on the track in route order")
    firsts = [c.first for c in cities[:-1]]
    _require(firsts == sorted(firsts), f, "cities further west pay more")
    gaps = [b - a for a, b in zip([0, *fs], fs)]
    _require(all(g > MAX_FORWARD for g in gaps), f, "no single move can pass two cities")
    return length, silver, fields, positions, penalties, tuple(cities)


def parse_bazaar(raw: dict[str, Any]) -> tuple[int, tuple[BazaarRow, ...]]:
    f = "bazaar.toml"
    cards = _int(raw.get("cards"), f, "cards")
    rows: list[BazaarRow] = []
    for r in raw.get("row", []):
        ounces = tuple(_int(x, f, "ounces") for x in r.get("ounces", []))
        _require(len(ounces) == 3, f, "three places are paid")
        _require(list(ounces) == sorted(ounces, reverse=True), f, "a better place pays more")
        miles = _int(r.get("miles"), f, "miles")
        _require(abs(miles) <= MAX_FORWARD, f, "a bazaar moves at most 10 fields")
        rows.append(
            BazaarRow(_int(r["bazaar"], f, "bazaar"), (ounces[0], ounces[1], ounces[2]), miles)
        )
    _require(cards >= 1, f, "at least one bazaar card")
    # The printed track may be shorter than the stack of bazaar cards: the rulebook expects
    # bazaars to be skipped so that not every merchant can call one (SR-6.5).
    _require(
        [r.bazaar for r in rows] == list(range(1, len(rows) + 1)) and bool(rows),
        f,
        "rows are numbered 1, 2, ... from the first bazaar",
    )
    _require(len(rows) <= cards, f, "more rows than bazaar cards: the last rows are never reached")
    for a, b in itertools.pairwise(rows):
        _require(all(y >= x for x, y in zip(a.ounces, b.ounces)), f, "later bazaars pay more")
        _require(b.miles < a.miles, f, "later bazaars move fewer miles")
    return cards, tuple(rows)


def parse_cards(raw: dict[str, Any]) -> tuple[CardKind, ...]:
    f = "cards.toml"
    kinds: list[CardKind] = []
    for i, c in enumerate(raw.get("card", [])):
        key = str(c.get("key", ""))
        _require(bool(key) and " " not in key, f, f"card {i} needs a key without blanks")
        alts: list[Alternative] = []
        for a in c.get("alt", []):
            parts = tuple(
                Part(str(p["kind"]), _int(p["steps"], f, "steps")) for p in a.get("parts", [])
            )
            alt = Alternative(
                _int(a["numeral"], f, "numeral"),
                str(a.get("when", "always")),
                _int(a.get("silver", 0), f, "silver"),
                parts,
            )
            _require(alt.numeral in (1, 2, 3), f, f"{key}: numerals are I, II or III")
            _require(alt.when in WHEN_KINDS, f, f"{key}: unknown condition {alt.when!r}")
            _require(1 <= len(parts) <= 3, f, f"{key}: one to three parts per alternative")
            for p in parts:
                _require(p.kind in PART_KINDS, f, f"{key}: unknown part kind {p.kind!r}")
                _require(p.steps >= -MAX_BACK, f, f"{key}: no printed move goes more than 10 back")
                if p.kind in ("to_next", "to_last"):
                    _require(p.steps == 0, f, f"{key}: {p.kind} has no steps")
                else:
                    _require(p.steps != 0, f, f"{key}: a {p.kind} part moves someone")
            _require(
                alt.numeral == 1 or any(p.kind == "move" for p in parts),
                f,
                f"{key}: a group alternative moves its group",
            )
            alts.append(alt)
        nums = [a.numeral for a in alts]
        _require(bool(alts) and nums == sorted(set(nums)), f, f"{key}: distinct numerals in order")
        kinds.append(
            CardKind(
                i, key, str(c["title"]), str(c["text"]), _int(c["copies"], f, "copies"), tuple(alts)
            )
        )
    _require(len({k.key for k in kinds}) == len(kinds), f, "card keys are unique")
    _require(all(k.copies >= 1 for k in kinds), f, "every card kind has a copy")
    return tuple(kinds)


def build(track: dict[str, Any], bazaar: dict[str, Any], cards: dict[str, Any]) -> SilkroadData:
    """Validate the three raw files and freeze them into one value."""
    length, silver, fields, positions, penalties, cities = parse_track(track)
    n_bazaar, rows = parse_bazaar(bazaar)
    kinds = parse_cards(cards)
    recon = tuple(
        name
        for name, raw in (("track.toml", track), ("bazaar.toml", bazaar), ("cards.toml", cards))
        if raw.get("reconstructed", False)
    )
    return SilkroadData(
        length, silver, fields, positions, penalties, cities, n_bazaar, rows, kinds, recon
    )


# The bazaar track rules versions 1 and 2 shipped: a row for every bazaar card.
SEVEN_ROW_BAZAAR = "bazaar-seven-rows.toml"


@functools.cache
def load_data(seven_row_bazaar: bool = False) -> SilkroadData:
    """The game's data, read once (from `TIANXIA_DATA_DIR/silkroad/` when present).

    With `seven_row_bazaar` (games stored under rules versions 1-2), the shipped bazaar
    track is the seven-row one they were played on; a user's own `bazaar.toml` is read
    either way, since it is the track the user played on.
    """
    bazaar = "bazaar.toml"
    if seven_row_bazaar and data_file(GAME, bazaar, PACKAGE_DIR).parent == PACKAGE_DIR / "data":
        bazaar = SEVEN_ROW_BAZAAR
    return build(
        load_toml(GAME, "track.toml", PACKAGE_DIR),
        load_toml(GAME, bazaar, PACKAGE_DIR),
        load_toml(GAME, "cards.toml", PACKAGE_DIR),
    )


def numeral_index(alts: Sequence[Alternative], numeral: int) -> int:
    """The position of alternative `numeral` among a card's alternatives."""
    for i, a in enumerate(alts):
        if a.numeral == numeral:
            return i
    raise ValueError(f"no alternative {numeral}")
