"""The data files: one test per invariant, on the shipped files and on broken copies."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tianxia
from tianxia.games.china import data as china_board
from tianxia.games.china.data import COLOURS, SIDES, validate_board, validate_cards

DATA = Path(china_board.__file__).parent / "data"


def raw_board() -> dict[str, Any]:
    with (DATA / "board.toml").open("rb") as f:
        return tomllib.load(f)


def raw_cards() -> dict[str, Any]:
    with (DATA / "cards.toml").open("rb") as f:
        return tomllib.load(f)


@pytest.fixture(params=SIDES)
def side(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def broken(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    raw = copy.deepcopy(raw_board())
    change(raw)
    return raw


def test_files_are_marked_reconstructed(side: str) -> None:
    assert china_board.board(side).reconstructed
    assert china_board.cards().reconstructed


def test_nine_provinces(side: str) -> None:
    assert len(china_board.board(side).province_names) == 9
    with pytest.raises(ValueError, match="9 provinces"):
        validate_board(broken(lambda r: r["province"].pop()), side)


def test_four_to_eight_house_fields(side: str) -> None:
    b = china_board.board(side)
    sizes = dict(zip(b.province_names, map(len, b.province_fields)))
    assert sizes == {
        "Chu": 8,
        "Qin": 7,
        "Qi": 6,
        "Zhao": 6,
        "Wei": 7,
        "Han": 5,
        "Yan": 5,
        "Shu": 4,
        "Lu": 4,
    }

    def shrink(r: dict[str, Any]) -> None:
        r["province"][7]["fields"] = r["province"][7]["fields"][:3]

    with pytest.raises(ValueError, match="4 to 8"):
        validate_board(broken(shrink), side)


def test_colours_violet_once_others_twice(side: str) -> None:
    b = china_board.board(side)
    for c, name in enumerate(COLOURS):
        holders = [p for p, pc in enumerate(b.province_colour) if pc == c]
        assert len(holders) == (1 if name == "violet" else 2)
    assert b.province_names[b.province_colour.index(0)] == "Chu"

    def recolour(r: dict[str, Any]) -> None:
        r["province"][1]["colour"] = "violet"

    with pytest.raises(ValueError, match="violet"):
        validate_board(broken(recolour), side)


def test_fifteen_alliances_between_distinct_provinces(side: str) -> None:
    b = china_board.board(side)
    assert len(b.alliances) == 15 == len({frozenset(a) for a in b.alliances})
    with pytest.raises(ValueError, match="15 alliances"):
        validate_board(broken(lambda r: r["alliances"].pop()), side)

    def repeat(r: dict[str, Any]) -> None:
        r["alliances"][1] = ["Qin", "Zhao"]

    with pytest.raises(ValueError, match="repeats"):
        validate_board(broken(repeat), side)


def test_same_colour_provinces_do_not_border(side: str) -> None:
    b = china_board.board(side)
    assert all(b.province_colour[x] != b.province_colour[y] for x, y in b.alliances)

    def same(r: dict[str, Any]) -> None:
        r["alliances"][0] = ["Qi", "Qin"]

    with pytest.raises(ValueError, match="share a colour"):
        validate_board(broken(same), side)


def test_roads_cross_only_alliance_borders(side: str) -> None:
    b = china_board.board(side)
    borders = {frozenset(a) for a in b.alliances}
    for x, y in b.roads:
        px, py = b.field_province[x], b.field_province[y]
        assert px == py or frozenset((px, py)) in borders

    def stray(r: dict[str, Any]) -> None:
        r["side"][side]["roads"].append(["Yan.2", "Chu.6"])

    with pytest.raises(ValueError, match="do not border"):
        validate_board(broken(stray), side)


def test_every_field_on_a_road(side: str) -> None:
    b = china_board.board(side)
    assert all(b.neighbours)

    def cut(r: dict[str, Any]) -> None:
        r["roads"]["inner"] = [x for x in r["roads"]["inner"] if "Lu.4" not in x]
        r["side"][side]["roads"] = [x for x in r["side"][side]["roads"] if "Lu.4" not in x]

    with pytest.raises(ValueError, match=r"Lu\.4"):
        validate_board(broken(cut), side)


def test_large_side_crosses_every_border_and_small_side_fewer() -> None:
    def crossings(side: str) -> list[frozenset[int]]:
        b = china_board.board(side)
        return [
            frozenset((b.field_province[x], b.field_province[y]))
            for x, y in b.roads
            if b.field_province[x] != b.field_province[y]
        ]

    large, small = crossings("4-5"), crossings("3-4")
    assert set(large) == {frozenset(a) for a in china_board.board("4-5").alliances}
    assert len(small) < len(large)


def _long_paths_through(side: str, provinces: int) -> bool:
    """Whether some simple road path of 4+ fields visits `provinces` provinces."""
    b = china_board.board(side)

    def walk(f: int, seen: list[int]) -> bool:
        if len(seen) >= 4 and len({b.field_province[x] for x in seen}) >= provinces:
            return True
        if len(seen) >= 7:
            return False
        return any(walk(x, [*seen, x]) for x in b.neighbours[f] if x not in seen)

    return any(walk(f, [f]) for f in range(len(b.field_names)))


def test_chains_of_four_through_three_provinces(side: str) -> None:
    assert _long_paths_through(side, 3)


def test_coordinates_for_drawing(side: str) -> None:
    b = china_board.board(side)
    assert len(set(b.field_xy)) == len(b.field_xy)
    assert all(0 <= v <= 100 for xy in (*b.field_xy, *b.dragon_xy) for v in xy)

    def off(r: dict[str, Any]) -> None:
        r["province"][0]["fields"][0] = [120, 5]

    with pytest.raises(ValueError, match="coordinates"):
        validate_board(broken(off), side)


def test_fifty_seven_cards_by_colour() -> None:
    c = china_board.cards()
    assert sum(c.deck) == 57
    assert dict(zip(COLOURS, c.deck)) == {
        "violet": 10,
        "yellow": 11,
        "orange": 11,
        "red": 13,
        "green": 12,
    }
    raw = raw_cards()
    raw["deck"]["red"] = 12
    with pytest.raises(ValueError, match="57"):
        validate_cards(raw)


def test_removal_and_supplies_follow_the_rulebook() -> None:
    c = china_board.cards()
    assert [sum(c.deck_for(n)) for n in (3, 4, 5)] == [47, 52, 57]
    assert (c.houses, c.emissaries, c.fortifications) == (20, 8, 1)
    raw = raw_cards()
    raw["supply"]["houses"] = 25
    with pytest.raises(ValueError, match="20 houses"):
        validate_cards(raw)


def test_unknown_side_is_refused() -> None:
    with pytest.raises(ValueError, match="no side"):
        validate_board(raw_board(), "2-3")


def test_override_folder_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = (DATA / "cards.toml").read_text().replace("red = 13", "red = 14")
    (tmp_path / "china").mkdir()
    (tmp_path / "china" / "cards.toml").write_text(raw)
    monkeypatch.setenv("TIANXIA_DATA_DIR", str(tmp_path))
    from tianxia.core.data import load_toml

    with pytest.raises(ValueError, match="57"):
        validate_cards(load_toml("china", "cards.toml", DATA.parent))
    assert tianxia.load_game("china", players=3).info.extra["reconstructed_board"]
