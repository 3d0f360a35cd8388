"""The components file and its invariants (GW-1.1, GW-1.2, GW-1.4; docs/data/greatwall.md)."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest

import tianxia
from tianxia.core.data import ENV_VAR, load_toml
from tianxia.games.greatwall import data as comp_module
from tianxia.games.greatwall.data import KINDS, components, parse_components

DATA = Path(comp_module.__file__).parent / "data" / "components.toml"


def raw() -> dict[str, Any]:
    with DATA.open("rb") as f:
        return tomllib.load(f)


def test_tile_bag_holds_36_tiles_of_the_printed_values() -> None:
    c = components()
    assert dict(zip(c.tile_values, c.tile_counts)) == {1: 2, 2: 6, 3: 7, 4: 7, 5: 8, 7: 4, 8: 2}
    assert c.tile_total == 36
    assert sum(v * n for v, n in zip(c.tile_values, c.tile_counts)) == 147
    assert 6 not in c.tile_values


def test_each_set_has_20_cards_of_the_printed_kinds() -> None:
    c = components()
    assert dict(zip(KINDS, c.card_copies)) == {
        "wall": 7,
        "gate": 3,
        "tower": 1,
        "noble": 1,
        "warrior": 5,
        "horseman": 2,
        "dragon": 1,
    }
    assert c.set_size == 20
    assert dict(zip(KINDS, c.card_values)) == {
        "wall": 1,
        "gate": 2,
        "tower": 3,
        "noble": 1,
        "warrior": 1,
        "horseman": 2,
        "dragon": 1,
    }


def test_sections_per_player_count() -> None:
    assert components().sections == {2: 2, 3: 3, 4: 4, 5: 4}
    for n, k in ((2, 2), (3, 3), (4, 4), (5, 4)):
        assert tianxia.load_game("greatwall", players=n).info.extra["sections"] == k


def test_shipped_data_is_not_reconstructed() -> None:
    assert components().reconstructed is False


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["card"].append({"kind": "wall", "value": 1, "copies": 1}), "twice"),
        (lambda d: d["card"].pop(), "missing"),
        (lambda d: d["card"][0].update(kind="catapult"), "unknown card kind"),
        (lambda d: d["card"][6].update(copies=2), "exactly one dragon"),
        (lambda d: d["card"][1].update(value=0), "value"),
        (lambda d: d["tiles"].update({"9": 1}), "even"),
        (lambda d: d["tiles"].update({"x": 2}), "not a number"),
        (lambda d: d["sections"].pop("5"), "2, 3, 4 and 5"),
        (lambda d: d["sections"].update({"5": 6}), "sections must be"),
        (lambda d: d["setup"].update(hand=0), "setup.hand"),
    ],
)
def test_broken_data_is_refused_with_the_invariant_named(change: Any, message: str) -> None:
    data = copy.deepcopy(raw())
    change(data)
    with pytest.raises(ValueError, match=message):
        parse_components(data)


def test_a_user_file_replaces_the_shipped_one(tmp_path: Path, monkeypatch: Any) -> None:
    folder = tmp_path / "greatwall"
    folder.mkdir()
    text = DATA.read_text(encoding="utf-8").replace("8 = 2", "8 = 4")
    (folder / "components.toml").write_text(text, encoding="utf-8")
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    loaded = parse_components(load_toml("greatwall", "components.toml", DATA.parent.parent))
    assert loaded.tile_total == 38
