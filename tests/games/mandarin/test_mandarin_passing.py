"""Passing other mandarins: the tile taken, the second roll, the repeat variant (MA-6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from mandarin_helpers import holdings, play, tile

import tianxia
from tianxia.core import CHANCE, IllegalActionError
from tianxia.games.mandarin import rules
from tianxia.games.mandarin.state import MandarinState


def at(
    holds: Mapping[int, Sequence[str]], pos: tuple[int, ...], repeat: bool = False
) -> MandarinState:
    g = tianxia.load_game("mandarin", players=len(pos), repeat_passing=repeat)
    return g.position(
        sign=tuple(p // 3 for p in pos), pos=pos, phase=rules.DIE, owner=holdings(holds)
    )


def test_passing_takes_a_tile_of_the_passed_player_instead_of_drawing() -> None:
    s = play(at({1: ["ox-red", "goat-red"], 2: ["pig-red"]}, (1, 3, 31)), "die 4")
    assert s.pos[0] == 5 and s.phase == rules.TAKE and s.current_player() == 0
    assert [str(a) for a in s.legal_actions()] == ["take ox-red", "take goat-red"]
    with pytest.raises(IllegalActionError) as err:
        s.apply("take pig-red")  # seat 2 was not passed
    assert err.value.rule == "MA-6.1"
    s = play(s, "take goat-red")
    assert s.owner[tile("goat-red")] == 0
    assert s.current_player() == CHANCE and s.phase == rules.DIE  # he rolls again at once


def test_the_tile_may_come_from_any_passed_player() -> None:
    s = play(at({1: ["ox-red"], 2: ["ox-green"]}, (1, 3, 4)), "die 5")
    assert [str(a) for a in s.legal_actions()] == ["take ox-red", "take ox-green"]


def test_the_second_move_draws_no_tile_and_ends_the_turn() -> None:
    s = play(at({1: ["ox-red"]}, (1, 3, 31)), "die 4", "take ox-red", "die 3")
    assert s.pos[0] == 8 and s.seat == 1 and s.owner.count(rules.LOT) == 0
    assert s.money[0] == 3000


def test_the_second_move_collects_100_on_a_character_square() -> None:
    s = play(at({1: ["ox-red"]}, (1, 3, 31)), "die 4", "take ox-red", "die 2")
    assert s.pos[0] == 7 and s.money[0] == 3100 and s.seat == 1


def test_the_second_move_pays_rent() -> None:
    holds = {1: ["tiger-red", "tiger-green", "tiger-blue"]}
    s = play(at(holds, (1, 3, 31)), "die 4", "take tiger-red")
    assert rules.holder(s, 2) == -1  # the take broke seat 1's hold on the tiger
    s = play(at({1: ["tiger-red", "tiger-green", "tiger-blue", "ox-red"]}, (1, 3, 31)), "die 4")
    s = play(s, "take ox-red", "die 1")
    assert s.pos[0] == 6 and s.money == (2800, 3200, 3000)


def test_the_first_landing_square_does_nothing_when_passing() -> None:
    s = play(at({1: ["ox-red"]}, (1, 3, 31)), "die 3")  # onto the ox's character square
    assert s.pos[0] == 4 and s.money[0] == 3000 and s.phase == rules.TAKE


def test_passing_means_strictly_between_start_and_end() -> None:
    s = play(at({1: ["ox-red"]}, (1, 3, 31)), "die 2")  # lands on seat 1's square
    assert s.phase == rules.FACE
    s = play(at({1: ["rat-red"]}, (1, 1, 31)), "die 2")  # leaves a shared square
    assert s.phase == rules.FACE


def test_passing_a_player_without_tiles_gives_only_the_second_roll() -> None:
    s = play(at({}, (1, 3, 31)), "die 4")
    assert s.phase == rules.DIE and s.current_player() == CHANCE and s.rolls == 1


def test_without_the_variant_passing_again_on_the_second_move_gives_nothing() -> None:
    s = play(at({1: ["ox-red"], 2: ["rabbit-red"]}, (1, 3, 9)), "die 4", "take ox-red", "die 5")
    assert s.pos[0] == 10 and s.money[0] == 3100 and s.seat == 1
    assert s.owner[tile("rabbit-red")] == 2


def test_the_repeat_variant_takes_again_and_rolls_again() -> None:
    s = at({1: ["ox-red"], 2: ["rabbit-red"]}, (1, 3, 9), repeat=True)
    s = play(s, "die 4", "take ox-red", "die 5")
    assert s.phase == rules.TAKE
    s = play(s, "take rabbit-red")
    assert s.owner[tile("rabbit-red")] == 0 and s.phase == rules.DIE and s.rolls == 2


def test_a_chain_of_passes_ends_once_every_other_mandarin_is_passed() -> None:
    g = tianxia.load_game("mandarin", players=5, repeat_passing=True)
    s = g.position(sign=(0, 1, 3, 5, 7), pos=(0, 3, 9, 15, 21), phase=rules.DIE)
    for k in range(1, 5):
        s = play(s, "die 6")  # each roll passes the next mandarin: 3, 9, 15, 21
        assert s.phase == rules.DIE and s.rolls == k
    s = play(s, "die 6")  # 24 to 30 passes nobody: the turn ends there
    assert s.pos[0] == 30 and s.seat == 1 and s.turns == 1
