"""Auctions: order, bids, the final pass, payment, the over-bid penalty, no bids (MA-4)."""

from __future__ import annotations

import pytest
from mandarin_helpers import play, tile

import tianxia
from tianxia.core import CHANCE, IllegalActionError, NotationError
from tianxia.games.mandarin import rules
from tianxia.games.mandarin.state import MandarinState


def auction(players: int = 3, seat: int = 0, **fields: object) -> MandarinState:
    """`seat` draws rat-red face up, then a face-down tile: both go to auction."""
    g = tianxia.load_game("mandarin", players=players)
    pos = [19, 25, 31, 34, 10][:players]
    pos[seat] = 1
    base = {"sign": tuple(p // 3 for p in pos), "pos": tuple(pos), "phase": rules.DIE}
    base.update(seat=seat, actor=seat)
    base.update(fields)
    return play(g.position(**base), "die 2", "face up", "tile rat-red", "draw", "face down")


def test_the_causer_bids_first_then_clockwise() -> None:
    s = auction(seat=1)
    assert s.current_player() == 1
    s = play(s, "bid 100")
    assert s.current_player() == 2
    s = play(s, "bid 200")
    assert s.current_player() == 0
    s = play(s, "pass", "bid 300")
    assert s.current_player() == 2  # seat 0 passed for good


def test_a_bid_must_be_higher_and_in_hundreds() -> None:
    s = play(auction(), "bid 500")
    with pytest.raises(IllegalActionError) as err:
        s.apply("bid 500")
    assert err.value.rule == "MA-4.2" and "higher" in err.value.reason
    with pytest.raises(NotationError):
        s.apply("bid 550")
    with pytest.raises(NotationError):
        s.apply("bid 50")
    assert [str(a) for a in s.legal_actions()[:2]] == ["pass", "bid 600"]


def test_a_pass_is_final_and_the_winner_pays_the_bank() -> None:
    s = play(auction(), "bid 100", "pass", "bid 300")
    assert s.current_player() == 0
    s = play(s, "pass")  # only seat 2's bid stands
    assert s.money == (3000, 3000, 2700)
    assert s.current_player() == CHANCE and s.phase == rules.REVEAL
    s = play(s, "tile pig-pink")
    assert s.owner[tile("rat-red")] == 2 and s.owner[tile("pig-pink")] == 2
    assert s.seat == 1 and s.turns == 1


def test_an_over_bid_loses_all_money_to_the_bank_and_the_auction_is_held_again() -> None:
    s = play(auction(money=(3000, 400, 3000)), "pass", "bid 1000", "pass")
    assert s.money == (3000, 0, 3000)
    assert s.phase == rules.AUCTION and s.high == 0 and s.bidder == -1
    assert s.current_player() == 0  # the causer opens the new auction
    view = s.observation(2)["auction"]
    assert view["overbid"] == [1] and view["out"] == [1]
    s = play(s, "pass", "bid 200")
    assert s.money == (3000, 0, 2800) and s.phase == rules.REVEAL


def test_the_over_bidder_may_bid_his_whole_purse_without_penalty() -> None:
    s = play(auction(money=(3000, 1000, 3000)), "pass", "bid 1000", "pass")
    assert s.money == (3000, 0, 3000) and s.phase == rules.REVEAL and s.receiver == 1


def test_an_auction_nobody_bids_in_puts_the_tiles_back() -> None:
    s = play(auction(), "pass", "pass", "pass")
    assert s.owner[tile("rat-red")] == rules.DISPENSER
    assert rules.dispenser_count(s) == 72 and s.seat == 1 and s.holes == 0
    assert s.money == (3000, 3000, 3000)


def test_when_every_bidder_over_bids_the_tiles_go_back() -> None:
    s = play(auction(players=2, money=(0, 0)), "bid 100", "pass")
    assert s.phase == rules.AUCTION and s.current_player() == 1
    s = play(s, "bid 100")
    assert s.phase == rules.START or s.phase == rules.DIE
    assert rules.dispenser_count(s) == 72
