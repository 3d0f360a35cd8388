"""The map and deck files: their invariants, and replacing them with the printed ones."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tianxia.core.data import ENV_VAR, load_toml
from tianxia.games.emperor import data as comp
from tianxia.games.emperor.data import PACKAGE_DIR, components, parse_components

C = components()


def _raw() -> tuple[dict, dict]:
    return load_toml("emperor", "map.toml", PACKAGE_DIR), load_toml(
        "emperor", "components.toml", PACKAGE_DIR
    )


def test_twenty_one_provinces_and_45_borders() -> None:
    assert len(C.province_ids) == 21 == len(set(C.province_ids))
    assert len(C.borders) == 45


def test_named_provinces_and_their_sea_links_are_kept() -> None:
    pairs = {frozenset((b.a, b.b)) for b in C.borders}
    for island, coast in (
        ("taiwan", ("chekiang", "fukien", "kwangtung")),
        ("korea", ("shantung", "liaoning")),
    ):
        linked = {p for pair in pairs if island in pair for p in pair if p != island}
        assert linked == set(coast)


def test_adjacency_is_symmetric_and_without_loops() -> None:
    import tianxia

    t = tianxia.load_game("emperor", players=2).tables
    for p in range(t.P):
        assert p not in t.nbrs[p]
        for q in t.nbrs[p]:
            assert p in t.nbrs[q]
            assert t.block[p][q] == t.block[q][p]


def test_map_is_connected() -> None:
    seen = {C.province_ids[0]}
    stack = [C.province_ids[0]]
    while stack:
        x = stack.pop()
        for b in C.borders:
            for u, v in ((b.a, b.b), (b.b, b.a)):
                if u == x and v not in seen:
                    seen.add(v)
                    stack.append(v)
    assert seen == set(C.province_ids)


def test_double_obstacles_need_the_stronger_card() -> None:
    by_pair = {frozenset((b.a, b.b)): b for b in C.borders}
    assert by_pair[frozenset(("hopeh", "shansi"))].strongest == "great_wall"
    assert by_pair[frozenset(("hopeh", "shansi"))].obstacles == ("great_wall", "mountains")
    assert by_pair[frozenset(("szechwan", "yunnan"))].strongest == "mountains"
    assert by_pair[frozenset(("hopeh", "honan"))].strongest == "normal"


def test_border_types_of_the_reconstruction() -> None:
    kinds = Counter(b.strongest for b in C.borders)
    assert kinds == {"normal": 21, "mountains": 16, "water": 6, "great_wall": 2}


def test_every_province_of_china_proper_has_a_normal_border() -> None:
    # only the lands beyond the wall and the sea are closed on every side
    closed = {
        p
        for p in C.province_ids
        if not any(p in (b.a, b.b) and b.strongest == "normal" for b in C.borders)
    }
    assert closed == {"liaoning", "korea", "taiwan"}


def test_yang_deck_adds_up_to_32() -> None:
    assert sum(C.yang_counts) == 32
    groups = {g: 0 for g in comp.YANG_GROUPS}
    for g, n in zip(C.yang_groups, C.yang_counts):
        groups[g] += n
    assert groups == {"economy": 12, "attack": 12, "defence": 8}


def test_yin_deck_adds_up_to_32() -> None:
    assert sum(C.yin_counts) == 32
    by_loss = {0: 0, 1: 0, 2: 0}
    for loss, n in zip(C.yin_loss, C.yin_counts):
        by_loss[loss] += n
    assert by_loss == {0: 2, 1: 18, 2: 12}
    assert sum(n for sp, n in zip(C.yin_special, C.yin_counts) if sp) == 2


def test_pieces() -> None:
    assert C.units_per_player == 30
    assert dict(zip(C.marker_kinds, C.marker_counts)) == {"city": 4, "mine": 4, "agriculture": 4}
    assert dict(zip(C.marker_kinds, C.marker_growth)) == {"city": 1, "mine": 1, "agriculture": 2}
    assert dict(C.start_provinces) == {2: 3, 3: 2, 4: 1, 5: 1}
    assert (C.turns, C.victory_provinces, C.province_cap) == (33, 15, 10)


def test_defence_cards_name_loss_two_yin_cards() -> None:
    for kind, group in zip(C.yang_kinds, C.yang_groups):
        if group == "defence":
            assert C.yin_loss[C.yin_kinds.index(kind)] == 2


def test_files_are_marked_reconstructed() -> None:
    board, pieces = _raw()
    assert board["reconstructed"] is True and pieces["reconstructed"] is True
    assert C.reconstructed


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda b, p: b["border"].append({"a": "hopeh", "b": "atlantis", "obstacles": []}),
            "unknown",
        ),
        (lambda b, p: b["border"].append({"a": "hopeh", "b": "hopeh", "obstacles": []}), "itself"),
        (lambda b, p: b["border"].append({"a": "honan", "b": "hopeh", "obstacles": []}), "twice"),
        (
            lambda b, p: b["border"].append({"a": "hopeh", "b": "korea", "obstacles": ["lava"]}),
            "obstacles",
        ),
        (lambda b, p: b["province"].append(dict(b["province"][0])), "twice"),
        (lambda b, p: p["yang"][0].update(group="luck"), "group"),
        (lambda b, p: p.update(units_per_player=-1), "units_per_player"),
        (lambda b, p: p.update(start_provinces={"2": 3}), "start_provinces"),
    ],
)
def test_bad_data_is_refused_with_the_file_named(change, message) -> None:  # type: ignore[no-untyped-def]
    board, pieces = _raw()
    change(board, pieces)
    with pytest.raises(ValueError, match=message):
        parse_components(board, pieces)


def test_cut_off_province_is_refused() -> None:
    board, pieces = _raw()
    board["border"] = [b for b in board["border"] if "taiwan" not in (b["a"], b["b"])]
    with pytest.raises(ValueError, match="not connected"):
        parse_components(board, pieces)


def test_a_printed_map_replaces_the_shipped_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (PACKAGE_DIR / "data" / "map.toml").read_text()
    text = text.replace(
        '{ a = "hopeh", b = "honan", obstacles = [] }',
        '{ a = "hopeh", b = "honan", obstacles = ["water"] }',
    )
    (tmp_path / "emperor").mkdir()
    (tmp_path / "emperor" / "map.toml").write_text(text)
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    comp.components.cache_clear()
    try:
        mine = comp.components()
        border = next(b for b in mine.borders if {b.a, b.b} == {"hopeh", "honan"})
        assert border.obstacles == ("water",)
    finally:
        monkeypatch.delenv(ENV_VAR)
        comp.components.cache_clear()
    assert (
        next(b for b in comp.components().borders if {b.a, b.b} == {"hopeh", "honan"}).obstacles
        == ()
    )
