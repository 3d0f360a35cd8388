"""Mandarin's static data: the zodiac board, the 72 tiles and the lunar new-year dates.

Loaded once from `data/*.toml` (or the user's override, see `tianxia.core.data`),
validated, and frozen into `TABLES`.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tianxia.core.data import load_toml

GAME = "mandarin"
PACKAGE_DIR = Path(__file__).parent
ANIMAL_COUNT = 12
COLOUR_COUNT = 6
TILE_COUNT = ANIMAL_COUNT * COLOUR_COUNT


@dataclass(frozen=True)
class Tables:
    """Everything the rules read from data files.

    Tile ``t`` shows animal ``t // 6`` in colour ``t % 6``; square ``q`` lies in sector
    ``q // 3``, and the sector's character square is ``3k + character_square``.
    """

    animals: tuple[str, ...]
    characters: tuple[str, ...]
    colours: tuple[str, ...]
    squares_per_sector: int
    character_square: int
    pagoda_tiles: tuple[int, ...]
    tile_names: tuple[str, ...]
    first_year: int
    new_years: tuple[datetime.date, ...]

    @property
    def squares(self) -> int:
        return self.squares_per_sector * len(self.animals)


def _fail(filename: str, why: str) -> ValueError:
    return ValueError(f"{GAME} data file {filename}: {why}")


def _board(raw: dict[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...], int, int]:
    sectors = raw.get("sector")
    if not isinstance(sectors, list) or len(sectors) != ANIMAL_COUNT:
        raise _fail("board.toml", f"needs exactly {ANIMAL_COUNT} [[sector]] tables")
    animals = tuple(str(s.get("animal", "")).strip().lower() for s in sectors)
    characters = tuple(str(s.get("character", "")) for s in sectors)
    if len(set(animals)) != ANIMAL_COUNT or not all(a.isalpha() for a in animals):
        raise _fail("board.toml", "animal names must be distinct single words")
    per = raw.get("squares_per_sector")
    char = raw.get("character_square")
    if per != 3 or char not in (0, 1, 2):
        raise _fail("board.toml", "a sector has 3 squares and one character square among them")
    return animals, characters, per, char


def _tiles(
    raw: dict[str, Any], animals: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[int, ...]]:
    colours = tuple(str(c).strip().lower() for c in raw.get("colours", ()))
    if len(colours) != COLOUR_COUNT or len(set(colours)) != COLOUR_COUNT:
        raise _fail("tiles.toml", f"needs {COLOUR_COUNT} distinct colours")
    pagoda = raw.get("pagoda")
    if not isinstance(pagoda, dict) or set(pagoda) != set(animals):
        raise _fail("tiles.toml", "[pagoda] must name one colour for every animal")
    tiles = []
    for a, animal in enumerate(animals):
        colour = str(pagoda[animal]).strip().lower()
        if colour not in colours:
            raise _fail("tiles.toml", f"the pagoda colour of {animal} is no tile colour")
        tiles.append(a * COLOUR_COUNT + colours.index(colour))
    return colours, tuple(tiles)


def _new_years(raw: dict[str, Any]) -> tuple[int, tuple[datetime.date, ...]]:
    first = raw.get("first_year")
    dates_raw = raw.get("dates")
    if not isinstance(first, int) or not isinstance(dates_raw, list) or not dates_raw:
        raise _fail("new_year.toml", "needs first_year and a list of dates")
    dates = []
    for i, d in enumerate(dates_raw):
        day = d if isinstance(d, datetime.date) else datetime.date.fromisoformat(str(d))
        # The lunar new year always falls between 21 January and 20 February.
        if day.year != first + i or not (1, 21) <= (day.month, day.day) <= (2, 20):
            raise _fail("new_year.toml", f"{day} is no lunar new year of {first + i}")
        dates.append(day)
    return first, tuple(dates)


def load_tables() -> Tables:
    """Read and validate the three data files."""
    animals, characters, per, char = _board(load_toml(GAME, "board.toml", PACKAGE_DIR))
    colours, pagodas = _tiles(load_toml(GAME, "tiles.toml", PACKAGE_DIR), animals)
    first, dates = _new_years(load_toml(GAME, "new_year.toml", PACKAGE_DIR))
    names = tuple(f"{animals[t // COLOUR_COUNT]}-{colours[t % COLOUR_COUNT]}" for t in range(72))
    return Tables(animals, characters, colours, per, char, pagodas, names, first, dates)


TABLES = load_tables()


def zodiac_year(born: datetime.date, tables: Tables = TABLES) -> int:
    """The Chinese year of a birth date: the Gregorian year, or the one before it for a
    date before that year's lunar new year.

    >>> zodiac_year(datetime.date(1956, 1, 20)), zodiac_year(datetime.date(1956, 2, 20))
    (1955, 1956)
    """
    if not isinstance(born, datetime.date):
        raise ValueError(f"a birth date is needed, not {born!r}")
    i = born.year - tables.first_year
    if not 0 <= i < len(tables.new_years):
        last = tables.first_year + len(tables.new_years) - 1
        raise ValueError(f"birth dates from {tables.first_year} to {last} are known, not {born}")
    return born.year if born >= tables.new_years[i] else born.year - 1


def sign_of_birth_date(born: datetime.date | str, tables: Tables = TABLES) -> str:
    """The animal sign of a birth date (a `date` or ISO text such as ``"1956-01-20"``).

    1900 was a year of the rat, and the signs follow in zodiac order.

    >>> sign_of_birth_date("1956-01-20"), sign_of_birth_date("1956-02-20")
    ('goat', 'monkey')
    """
    if isinstance(born, str):
        try:
            born = datetime.date.fromisoformat(born.strip())
        except ValueError:
            raise ValueError(f"{born!r} is not a date written YYYY-MM-DD") from None
    year = zodiac_year(born, tables)
    return tables.animals[(year - 1900) % ANIMAL_COUNT]
