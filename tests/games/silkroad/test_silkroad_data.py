"""Invariants of the shipped data files (docs/data/silkroad.md), one test each."""

from __future__ import annotations

import copy
import itertools
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

import tianxia
from tianxia.core import Match
from tianxia.core.data import load_toml
from tianxia.games.silkroad import data as sd
from tianxia.games.silkroad.data import PACKAGE_DIR, build, load_data


def raw() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    return (
        load_toml("silkroad", "track.toml", PACKAGE_DIR),
        load_toml("silkroad", "bazaar.toml", PACKAGE_DIR),
        load_toml("silkroad", "cards.toml", PACKAGE_DIR),
    )


def test_track_has_80_fields_with_cities_on_16_32_48_64_and_venice_on_80() -> None:
    d = load_data()
    assert d.length == 80
    assert [(c.name, c.field) for c in d.cities] == [
        ("Samarkand", 16),
        ("Buchara", 32),
        ("Bagdad", 48),
        ("Byzanz", 64),
        ("Venedig", 80),
    ]


def test_first_arrivals_pay_10_12_14_20_and_20_at_venice() -> None:
    assert [c.first for c in load_data().cities] == [10, 12, 14, 20, 20]


def test_cities_further_west_pay_more_on_every_field_before_them() -> None:
    cities = load_data().cities[:-1]
    for a, b in itertools.pairwise(cities):
        assert all(b.pay(b.field - d) >= a.pay(a.field - d) for d in range(0, 12))


def test_nearer_fields_pay_more_and_far_fields_nothing() -> None:
    for c in load_data().cities:
        pays = [c.pay(c.field - d) for d in range(0, 16)]
        assert pays == sorted(pays, reverse=True)
        assert pays[-1] == 0 and c.pay(c.field + 3) == c.first


def test_deck_has_48_movement_cards_and_7_bazaar_cards() -> None:
    d = load_data()
    assert d.deck_size == 48
    assert d.bazaar_cards == 7


def test_the_bazaar_track_has_six_rows_for_the_seven_cards() -> None:
    """SR-6.5: with a row for every card the track never runs out while a merchant holds
    one, so "niet iedere koopman een bazaar kan uitroepen" could never happen; the sixth
    bazaar is the last one whose payment is known."""
    d = load_data()
    assert len(d.bazaar) == 6 < d.bazaar_cards
    assert d.bazaar_row(6) is d.bazaar[5] and d.bazaar_row(7) is None


def test_the_seven_row_track_of_rules_versions_1_and_2_is_the_six_rows_and_one_more() -> None:
    six, seven = load_data(), load_data(seven_row_bazaar=True)
    assert len(seven.bazaar) == seven.bazaar_cards == 7
    assert seven.bazaar[:6] == six.bazaar
    assert seven.bazaar[6].ounces == (24, 14, 8) and seven.bazaar[6].miles == -4
    assert (seven.cards, seven.cities) == (six.cards, six.cities)


def test_bazaar_facts_leader_earns_8_at_the_first_and_20_at_the_sixth() -> None:
    rows = load_data().bazaar
    assert rows[0].ounces[0] == 8 and rows[5].ounces[0] == 20


def test_later_bazaars_pay_more_and_move_fewer_miles() -> None:
    rows = load_data().bazaar
    for a, b in itertools.pairwise(rows):
        assert all(y >= x for x, y in zip(a.ounces, b.ounces))
        assert b.miles < a.miles
    assert rows[0].miles > 0 > rows[-1].miles


def test_every_kind_of_card_the_rulebook_names_exists() -> None:
    cards = load_data().cards
    kinds = {p.kind for c in cards for a in c.alts for p in a.parts}
    assert kinds == set(sd.PART_KINDS)
    steps = [p.steps for c in cards for a in c.alts for p in a.parts]
    assert min(steps) < 0 < max(steps), "forward and back moves"
    assert max(steps) > sd.MAX_FORWARD, "a move the 10-field rule cuts"
    assert {a.numeral for c in cards for a in c.alts} == {1, 2, 3}, "groups I, II, III"
    silver = [a.silver for c in cards for a in c.alts]
    assert min(silver) < 0 < max(silver), "silver gains and losses"
    assert any(a.when == "last" for c in cards for a in c.alts), "a card that may do nothing"


def test_group_cards_list_their_numerals_in_order_and_start_with_I() -> None:
    for c in load_data().cards:
        nums = [a.numeral for a in c.alts]
        assert nums[0] == 1 and nums == sorted(set(nums))


def test_no_printed_move_goes_more_than_10_back() -> None:
    assert all(p.steps >= -10 for c in load_data().cards for a in c.alts for p in a.parts)


def test_penalties_for_cards_before_a_player_are_0_1_3_6() -> None:
    assert load_data().penalties == (0, 1, 3, 6)


def test_start_fields_a_b_c_lie_before_field_1() -> None:
    d = load_data()
    assert d.start_fields == ("A", "B", "C") and d.start_positions == (-2, -1, 0)


def test_all_three_files_say_they_are_reconstructed() -> None:
    assert load_data().reconstructed == ("track.toml", "bazaar.toml", "cards.toml")


@pytest.mark.parametrize(
    ("which", "change", "message"),
    [
        (0, lambda t: t["city"][0].update(first=30), "further west"),
        (0, lambda t: t.update(length=81), "goal"),
        (0, lambda t: t.update(penalties=[0, 1, 3]), "penalties"),
        (1, lambda b: b["row"][1].update(miles=9), "fewer miles"),
        (1, lambda b: b["row"][0].update(ounces=[2, 4, 8]), "better place"),
        (1, lambda b: b.update(cards=5), "never reached"),
        (1, lambda b: b["row"][2].update(bazaar=4), "numbered 1, 2"),
        (1, lambda b: b.update(row=[]), "numbered 1, 2"),
        (2, lambda c: c["card"][0]["alt"][0].update(numeral=4), "numerals"),
        (2, lambda c: c["card"][0]["alt"][0]["parts"][0].update(kind="fly"), "part kind"),
        (2, lambda c: c["card"][0]["alt"][0]["parts"][0].update(steps=-11), "10 back"),
        (2, lambda c: c["card"][1].update(key=c["card"][0]["key"]), "unique"),
    ],
)
def test_broken_data_is_refused_with_a_clear_message(which: int, change: Any, message: str) -> None:
    files = [copy.deepcopy(x) for x in raw()]
    change(files[which])
    with pytest.raises(ValueError, match=message):
        build(*files)


def test_a_bazaar_track_shorter_than_the_bazaar_cards_is_accepted() -> None:
    track, bazaar, cards = raw()
    bazaar["row"] = bazaar["row"][:4]
    d = build(track, bazaar, cards)
    assert d.bazaar_cards == 7 and len(d.bazaar) == 4
    assert d.bazaar_row(4) is d.bazaar[3] and d.bazaar_row(5) is None


def test_a_user_s_own_seven_row_track_loads_and_plays(tmp_path: Path, monkeypatch: Any) -> None:
    """A transcription with a row for every card is a valid file of the schema: it
    replaces the shipped track, for the current rules and for stored older games alike."""
    folder = tmp_path / "silkroad"
    folder.mkdir()
    shutil.copy(PACKAGE_DIR / "data" / sd.SEVEN_ROW_BAZAAR, folder / "bazaar.toml")
    monkeypatch.setenv("TIANXIA_DATA_DIR", str(tmp_path))
    load_data.cache_clear()
    try:
        mine = load_data()
        assert len(mine.bazaar) == 7 and mine.bazaar_row(7) is mine.bazaar[6]
        assert load_data(seven_row_bazaar=True).bazaar == mine.bazaar
        game = tianxia.load_game("silkroad", players=7)
        assert len(game.layout()["bazaar"]) == 7
        m = Match(game, seed=1)
        rng = random.Random(1)
        while not m.state.is_terminal():
            m.resolve_chance()
            if not m.state.is_terminal():
                m.play(rng.choice(m.state.legal_actions()))
    finally:
        monkeypatch.delenv("TIANXIA_DATA_DIR")
        load_data.cache_clear()
    assert len(load_data().bazaar) == 6


def test_a_printed_file_replaces_the_shipped_one(tmp_path: Path, monkeypatch: Any) -> None:
    folder = tmp_path / "silkroad"
    folder.mkdir()
    text = (
        (PACKAGE_DIR / "data" / "bazaar.toml")
        .read_text()
        .replace("ounces = [8, 4, 2]", "ounces = [9, 4, 2]")
    )
    (folder / "bazaar.toml").write_text(text)
    shutil.copy(PACKAGE_DIR / "data" / "track.toml", folder / "track.toml")
    monkeypatch.setenv("TIANXIA_DATA_DIR", str(tmp_path))
    load_data.cache_clear()
    try:
        assert load_data().bazaar[0].ounces == (9, 4, 2)
    finally:
        monkeypatch.delenv("TIANXIA_DATA_DIR")
        load_data.cache_clear()
    assert load_data().bazaar[0].ounces == (8, 4, 2)
