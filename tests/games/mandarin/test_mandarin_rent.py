"""Sectors, rent and bankruptcy (MA-5, MA-7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from mandarin_helpers import holdings, play, tile

import tianxia
from tianxia.core import IllegalActionError
from tianxia.games.mandarin import rules
from tianxia.games.mandarin.state import MandarinState

OX = 1


def at(holds: Mapping[int, Sequence[str]], **fields: object) -> MandarinState:
    g = tianxia.load_game("mandarin", players=3)
    base: dict[str, object] = {
        "sign": (0, 6, 10),
        "pos": (1, 19, 31),
        "phase": rules.DIE,
        "owner": holdings(holds),
    }
    base.update(fields)
    return g.position(**base)


THREE_OX = ["ox-red", "ox-yellow", "ox-green"]


def test_three_tiles_own_the_sector_and_rent_is_200_on_a_coloured_square() -> None:
    s = play(at({1: THREE_OX}), "die 2")
    assert rules.holder(s, OX) == 1
    assert s.money == (2800, 3200, 3000)
    assert s.phase == rules.FACE  # the coloured square still draws a tile


def test_with_the_pagoda_tile_rent_is_400() -> None:
    s = play(at({1: ["ox-red", "ox-yellow", "ox-pink"]}), "die 2")
    assert s.money == (2600, 3400, 3000)


def test_an_owned_character_square_pays_rent_and_no_100() -> None:
    s = play(at({1: THREE_OX}), "die 3")
    assert s.pos[0] == 4 and s.money == (2800, 3200, 3000) and s.seat == 1


def test_ones_own_sector_still_pays_100_on_its_character_square() -> None:
    s = play(at({0: THREE_OX}, phase=rules.DIE), "die 3")
    assert s.money == (3100, 3000, 3000)


def test_two_holders_the_pagoda_owner_rules_the_sector() -> None:
    s = at({1: THREE_OX, 2: ["ox-blue", "ox-pink", "ox-purple"]}, firsts=((), (1, 2)) + ((),) * 10)
    assert rules.holder(s, OX) == 2 and rules.rent_of(s, OX) == 400


def test_two_holders_always_share_the_six_tiles_so_one_has_the_pagoda() -> None:
    # The ruling (first to three keeps the sector) can never be needed: six tiles
    # per animal and one pagoda among them.
    for animal in range(12):
        assert len(rules.ANIMAL_TILES[animal]) == 6
        assert sum(rules.IS_PAGODA[t] for t in rules.ANIMAL_TILES[animal]) == 1


def test_taking_the_pagoda_moves_the_sector_and_its_rent() -> None:
    s = at(
        {1: ["ox-red", "ox-yellow", "ox-pink"], 2: ["ox-blue", "ox-purple", "ox-green"]},
        pos=(1, 3, 31),
    )
    assert rules.holder(s, OX) == 1 and rules.rent_of(s, OX) == 400
    # seat 0 passes seat 1 and takes the ox pagoda from him; the landing costs nothing
    s = play(s, "die 4")
    assert s.pos[0] == 5 and s.phase == rules.TAKE and s.money[0] == 3000
    s = play(s, "take ox-pink")
    assert rules.holder(s, OX) == 2 and rules.rent_of(s, OX) == 200
    assert s.firsts[OX] == (2,)


def test_a_sector_is_lost_with_the_third_tile() -> None:
    s = at({1: THREE_OX, 0: ["rat-red"]}, seat=1, actor=1, phase=rules.START)
    assert rules.holder(s, OX) == 1
    s = play(s, "cash ox-red")
    assert rules.holder(s, OX) == -1 and s.firsts[OX] == ()


def test_bankruptcy_gives_all_money_and_a_tile_of_the_creditors_choice() -> None:
    s = at({0: ["pig-red", "dog-red"], 1: THREE_OX}, money=(150, 3000, 3000))
    s = play(s, "die 2")
    assert s.money == (0, 3150, 3000)
    assert s.phase == rules.SEIZE and s.current_player() == 1
    assert [str(a) for a in s.legal_actions()] == ["take dog-red", "take pig-red"]
    with pytest.raises(IllegalActionError) as err:
        s.apply("cash pig-red")  # no cashing in first
    assert err.value.rule == "MA-7.1" and "may not cash in tiles first" in err.value.reason
    with pytest.raises(IllegalActionError) as err:
        s.apply("take ox-red")
    assert err.value.rule == "MA-7.1"
    s = play(s, "take pig-red")
    assert s.owner[tile("pig-red")] == 1
    assert s.phase == rules.FACE and s.seat == 0  # the bankrupt plays on and draws


def test_a_bankrupt_without_tiles_only_loses_his_money() -> None:
    s = play(at({1: THREE_OX}, money=(100, 3000, 3000)), "die 3")
    assert s.money == (0, 3100, 3000) and s.seat == 1
