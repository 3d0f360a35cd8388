"""The data files: their invariants, the birth-date signs, the user override."""

from __future__ import annotations

import datetime
import shutil
from pathlib import Path

import pytest

import tianxia
from tianxia.games.mandarin import data
from tianxia.games.mandarin.data import TABLES, load_tables, sign_of_birth_date

ZODIAC = [
    "rat",
    "ox",
    "tiger",
    "rabbit",
    "dragon",
    "snake",
    "horse",
    "goat",
    "monkey",
    "rooster",
    "dog",
    "pig",
]


def test_the_board_runs_in_zodiac_order_with_36_squares() -> None:
    assert TABLES.animals == tuple(ZODIAC)
    assert TABLES.squares == 36 and TABLES.character_square == 1
    assert len(set(TABLES.characters)) == 12 and all(TABLES.characters)


def test_72_tiles_twelve_animals_in_six_colours() -> None:
    assert len(TABLES.colours) == 6 and len(set(TABLES.tile_names)) == 72
    assert TABLES.tile_names[0] == "rat-red" and TABLES.tile_names[71] == "pig-purple"


def test_one_pagoda_tile_per_animal() -> None:
    assert [t // 6 for t in TABLES.pagoda_tiles] == list(range(12))


def test_the_reconstructed_pagodas_sit_two_per_colour_on_zodiac_opposites() -> None:
    colours = [t % 6 for t in TABLES.pagoda_tiles]
    assert all(colours.count(c) == 2 for c in range(6))
    assert all(colours[a] == colours[(a + 6) % 12] for a in range(12))


def test_new_year_dates_cover_1900_to_2099_inside_the_lunar_window() -> None:
    assert TABLES.first_year == 1900 and len(TABLES.new_years) == 200
    for i, day in enumerate(TABLES.new_years):
        assert day.year == 1900 + i
        assert datetime.date(day.year, 1, 21) <= day <= datetime.date(day.year, 2, 20)


@pytest.mark.parametrize(
    ("born", "sign"),
    [
        ("1956-01-20", "goat"),  # the rulebook's own example: January 1956 is a goat
        ("1956-02-20", "monkey"),  # February 1956 is a monkey
        ("1956-02-11", "goat"),  # the day before the 1956 new year (12 February)
        ("1956-02-12", "monkey"),
        ("1990-01-26", "snake"),  # 1990's new year fell in January, on the 27th
        ("1990-01-27", "horse"),
        ("2025-01-28", "dragon"),
        ("2025-01-29", "snake"),
        ("2026-02-16", "snake"),
        ("2026-02-17", "horse"),
        ("1900-01-30", "pig"),
        ("1900-01-31", "rat"),
    ],
)
def test_birth_dates_give_the_sign_of_the_chinese_year(born: str, sign: str) -> None:
    assert sign_of_birth_date(born) == sign
    assert sign_of_birth_date(datetime.date.fromisoformat(born)) == sign


def test_a_birth_date_gives_the_sign_action() -> None:
    g = tianxia.load_game("mandarin", players=2)
    assert str(g.sign_action("1990-01-26")) == "sign snake"


@pytest.mark.parametrize("bad", ["1956-13-01", "yesterday", "1850-05-05", "2100-06-01"])
def test_bad_birth_dates_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        sign_of_birth_date(bad)


def _copy_data(tmp_path: Path) -> Path:
    folder = tmp_path / "mandarin"
    shutil.copytree(data.PACKAGE_DIR / "data", folder)
    return folder


def test_a_printed_board_can_replace_the_shipped_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _copy_data(tmp_path)
    text = (folder / "tiles.toml").read_text(encoding="utf-8")
    (folder / "tiles.toml").write_text(text.replace('rat = "blue"', 'rat = "red"'), "utf-8")
    monkeypatch.setenv("TIANXIA_DATA_DIR", str(tmp_path))
    assert load_tables().pagoda_tiles[0] == 0


@pytest.mark.parametrize(
    ("filename", "old", "new"),
    [
        ("board.toml", 'animal = "pig"', 'animal = "rat"'),
        ("board.toml", "squares_per_sector = 3", "squares_per_sector = 4"),
        ("tiles.toml", '"purple"]', '"red"]'),
        ("tiles.toml", 'pig = "red"', 'pig = "gold"'),
        ("new_year.toml", '"1956-02-12"', '"1956-03-12"'),
        ("new_year.toml", "first_year = 1900", "first_year = 1901"),
    ],
)
def test_a_broken_data_file_is_refused_with_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, filename: str, old: str, new: str
) -> None:
    folder = _copy_data(tmp_path)
    text = (folder / filename).read_text(encoding="utf-8")
    assert old in text
    (folder / filename).write_text(text.replace(old, new), "utf-8")
    monkeypatch.setenv("TIANXIA_DATA_DIR", str(tmp_path))
    with pytest.raises(ValueError, match=filename):
        load_tables()
