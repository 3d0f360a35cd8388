"""The end: both collections, the turn cap, returns, and the money variant (MA-8, MA-9)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from mandarin_helpers import holdings, play, tile

import tianxia
from tianxia.core import IllegalActionError
from tianxia.games.mandarin import rules
from tianxia.games.mandarin.data import TABLES
from tianxia.games.mandarin.state import MandarinState

ELEVEN = [f"{a}-red" for a in TABLES.animals[:11]]  # every animal but the pig
SIX = [f"{a}-red" for a in ("tiger", "rabbit", "dragon", "snake", "horse", "goat")]


def at(
    holds: Mapping[int, Sequence[str]], variant: bool = False, **fields: object
) -> MandarinState:
    g = tianxia.load_game("mandarin", players=3, money=variant)
    base: dict[str, object] = {
        "sign": (0, 6, 10),
        "pos": (1, 19, 31),
        "phase": rules.DIE,
        "owner": holdings(holds),
    }
    base.update(fields)
    return g.position(**base)


def test_one_tile_of_every_animal_wins() -> None:
    s = play(at({0: ELEVEN}), "die 2", "face up", "tile pig-blue", "keep")
    assert s.is_terminal() and s.end == "collection" and s.winners == (0,)
    assert s.returns() == [1.0, -0.5, -0.5]
    assert s.legal_actions() == ()


def test_all_six_of_one_animal_wins_even_when_taken_by_passing() -> None:
    rats = [f"rat-{c}" for c in TABLES.colours]
    s = at({0: rats[:5], 1: rats[5:]}, pos=(1, 3, 31))
    s = play(s, "die 4", "take rat-purple")
    assert s.is_terminal() and s.winners == (0,)


def test_winning_an_auction_can_complete_a_collection() -> None:
    s = at({1: ELEVEN})
    s = play(s, "die 2", "face up", "tile pig-red", "draw", "face down")
    s = play(s, "pass", "bid 100", "pass", "tile rat-blue")
    assert s.is_terminal() and s.winners == (1,)


def test_a_game_nobody_finishes_ends_at_the_turn_cap_and_the_richest_wins() -> None:
    g = tianxia.load_game("mandarin", players=3)
    assert g.info.extra["turn_cap"] == 300
    s = at({1: ["rat-blue"]}, turns=299)  # the rat pagoda is worth 400
    s = play(s, "die 3")  # seat 0 collects 100 on the ox's character square
    assert s.is_terminal() and s.end == "cap"
    assert rules.wealth(s) == [3100, 3400, 3000]
    assert s.winners == (1,) and s.returns() == [-0.5, 1.0, -0.5]


def test_tied_winners_share_and_the_returns_sum_to_zero() -> None:
    s = play(at({}, turns=299, money=(3000, 3100, 3000)), "die 3")
    assert s.winners == (0, 1) and s.returns() == [0.5, 0.5, -1.0]


def test_money_variant_the_richest_wins_when_a_collection_is_complete() -> None:
    s = at({0: ELEVEN}, variant=True, money=(1000, 9000, 3000))
    s = play(s, "die 2", "face up", "tile pig-blue", "keep")
    assert s.is_terminal() and s.end == "collection" and s.winners == (1,)
    assert rules.wealth(s) == [1000 + 12 * 200 + 200, 9000, 3000]  # snake-red is a pagoda


def test_money_variant_special_auction_pays_the_auctioneer() -> None:
    s = play(at({0: SIX}, variant=True), "die 2", "face down")
    cashes = [f"cash {name}" for name in SIX]
    assert [str(a) for a in s.legal_actions()] == [*cashes, "keep", "draw", "offer"]
    s = play(s, "offer")
    assert s.phase == rules.AUCTION and s.seller == 0 and s.current_player() == 1
    s = play(s, "bid 300", "pass")
    assert s.money == (3300, 2700, 3000) and s.phase == rules.REVEAL
    s = play(s, "tile dog-green")
    assert s.owner[tile("dog-green")] == 1 and s.seat == 1


def test_an_unsold_special_auction_puts_the_tile_back() -> None:
    s = play(at({0: SIX}, variant=True), "die 2", "face up", "tile dog-green", "offer")
    s = play(s, "pass", "pass")
    assert s.owner[tile("dog-green")] == rules.DISPENSER and s.seat == 1
    assert s.money == (3000, 3000, 3000)


def test_the_special_auction_needs_the_variant_six_tiles_and_the_first_tile() -> None:
    s = play(at({0: SIX}), "die 2", "face down")
    with pytest.raises(IllegalActionError) as err:
        s.apply("offer")
    assert err.value.rule == "MA-9.2" and "money variant" in err.value.reason
    s = play(at({0: SIX[:5]}, variant=True), "die 2", "face down")
    with pytest.raises(IllegalActionError) as err:
        s.apply("offer")
    assert err.value.rule == "MA-9.2" and "6 tiles" in err.value.reason
    s = play(at({0: SIX}, variant=True), "die 2", "face down", "draw", "face up", "tile ox-red")
    with pytest.raises(IllegalActionError) as err:
        s.apply("offer")
    assert err.value.rule == "MA-9.2" and "first tile" in err.value.reason
