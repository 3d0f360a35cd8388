"""Drawing from the dispenser: the first tile, the push-your-luck chain, the empty
dispenser (MA-3)."""

from __future__ import annotations

import pytest
from mandarin_helpers import play, tile

import tianxia
from tianxia.core import CHANCE, IllegalActionError, State
from tianxia.games.mandarin import rules
from tianxia.games.mandarin.state import MandarinState


def landed(players: int = 3, **fields: object) -> MandarinState:
    """Seat 0 rolls 2 from the rat's character square onto the ox's first coloured square."""
    g = tianxia.load_game("mandarin", players=players)
    pos = (1, 19, 28, 31, 34)[:players]
    base = {"sign": tuple(p // 3 for p in pos), "pos": pos, "phase": rules.DIE}
    base.update(fields)
    return play(g.position(**base), "die 2")


def options(s: State) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def test_the_first_tile_face_up_may_be_kept_ending_the_turn() -> None:
    s = play(landed(), "face up", "tile ox-red")
    assert s.current_player() == 0 and options(s) == ["keep", "draw"]
    s = play(s, "keep")
    assert s.owner[tile("ox-red")] == 0 and s.seat == 1


def test_the_first_tile_face_down_may_be_kept_and_is_then_turned_over() -> None:
    s = play(landed(), "face down")
    assert options(s) == ["keep", "draw"]
    assert s.observation(0)["lot"] == {"face_up": [], "face_down": 1}
    s = play(s, "keep")
    assert s.current_player() == CHANCE and s.phase == rules.REVEAL
    s = play(s, "tile pig-green")
    assert s.owner[tile("pig-green")] == 0 and s.seat == 1 and s.holes == 0


def test_leaving_the_first_tile_and_drawing_again_then_keeping_both() -> None:
    s = play(landed(), "face down", "draw", "face up", "tile dog-red")
    assert options(s) == ["keep", "draw"]
    s = play(s, "keep", "tile goat-blue")
    assert s.owner[tile("dog-red")] == 0 and s.owner[tile("goat-blue")] == 0
    assert s.seat == 1


def test_the_push_your_luck_chain_goes_on_while_tiles_land_face_up() -> None:
    s = play(landed(), "face up", "tile rat-red", "draw", "face up", "tile ox-red", "draw")
    s = play(s, "face up", "tile tiger-red")
    assert s.lot == (tile("rat-red"), tile("ox-red"), tile("tiger-red"))
    s = play(s, "keep")
    assert s.owner.count(0) == 3


def test_a_later_tile_face_down_sends_every_drawn_tile_to_auction() -> None:
    s = play(landed(), "face up", "tile rat-red", "draw", "face down")
    assert s.phase == rules.AUCTION and s.current_player() == 0
    view = s.observation(1)
    assert view["lot"] == {"face_up": ["rat-red"], "face_down": 1}
    assert "keep" not in options(s)
    with pytest.raises(IllegalActionError) as err:
        s.apply("keep")
    assert err.value.rule == "MA-3.3"


def test_the_face_down_tile_has_no_picture_until_it_is_turned() -> None:
    s = play(landed(), "face down", "draw", "face down")
    # nothing in the full state names the face-down tiles: nobody can know them
    assert s.lot == () and s.holes == 2 and s.owner.count(rules.LOT) == 0
    assert rules.dispenser_count(s) == 70


def test_an_empty_dispenser_gives_no_tile_until_another_player_cashes_in() -> None:
    owner = [1 if t % 6 < 2 else 2 if t % 6 < 4 else 0 for t in range(72)]
    s = landed(owner=tuple(owner))
    assert s.pos[0] == 3 and s.seat == 1 and s.owner == tuple(owner)  # no draw, turn over
    assert s.phase == rules.START and s.observation(None)["may_draw"] == []
    # Seat 1's own tile does not reopen the dispenser to seat 1: "een andere speler".
    s = play(s, "cash rat-red", "roll", "die 2")  # onto the goat's coloured square
    assert s.pos[1] == 21 and s.seat == 2 and s.phase == rules.START
    assert rules.dispenser_count(s) == 1 and s.observation(None)["may_draw"] == [0, 2]
    s = play(s, "roll", "die 2")  # seat 2 onto the dog's coloured square: seat 1 cashed in
    assert s.pos[2] == 30 and s.phase == rules.FACE
    s = play(s, "face up")
    assert [str(a) for a, _ in s.chance_outcomes()] == ["tile rat-red"]


def test_a_second_player_cashing_in_opens_the_dispenser_to_all() -> None:
    owner = [1 if t % 6 < 2 else 2 if t % 6 < 4 else 0 for t in range(72)]
    owner[tile("rat-red")] = rules.DISPENSER
    g = tianxia.load_game("mandarin", players=3)
    s = g.position(
        sign=(0, 6, 9), pos=(1, 19, 28), phase=rules.START, seat=2, actor=2, owner=owner, dry=0b10
    )
    assert s.observation(None)["may_draw"] == [0, 2]
    s = play(s, "cash rat-green")
    assert s.dry == -1 and s.observation(None)["may_draw"] == [0, 1, 2]


def test_tiles_put_back_unsold_do_not_reopen_the_dispenser() -> None:
    owner = [1 if t % 6 < 2 else 2 if t % 6 < 4 else 0 for t in range(72)]
    owner[tile("ox-red")] = owner[tile("ox-blue")] = rules.DISPENSER
    s = play(landed(owner=tuple(owner)), "face up", "tile ox-red", "draw", "face down")
    assert s.phase == rules.AUCTION and rules.dispenser_count(s) == 0
    s = play(s, "pass", "pass", "pass")  # nobody bids: both tiles go back (MA-4.6)
    assert rules.dispenser_count(s) == 2 and s.seat == 1
    assert s.observation(None)["may_draw"] == []
    s = play(s, "roll", "die 2")  # seat 1 onto the goat's coloured square: no draw
    assert s.seat == 2 and rules.dispenser_count(s) == 2


def test_cashing_in_after_drawing_the_last_tile_does_not_allow_another_draw() -> None:
    owner = [1 if t % 6 < 2 else 2 if t % 6 < 4 else 0 for t in range(72)]
    owner[tile("ox-red")] = rules.DISPENSER
    s = play(landed(owner=tuple(owner)), "face up", "tile ox-red")
    assert [str(a) for a in s.legal_actions() if not str(a).startswith("cash")] == ["keep"]
    s = play(s, "cash pig-pink")
    assert rules.dispenser_count(s) == 1 and "draw" not in options(s)
    with pytest.raises(IllegalActionError) as err:
        s.apply("draw")
    assert err.value.rule == "MA-3.4"
    assert "no player other than P1 has cashed in" in err.value.reason


def test_no_second_draw_from_an_empty_dispenser() -> None:
    owner = [2] * 72
    owner[tile("ox-red")] = rules.DISPENSER
    owner[tile("rat-red")] = 1
    s = play(landed(owner=tuple(owner), firsts=((),) * 12), "face up", "tile ox-red")
    assert options(s) == ["keep"]
    with pytest.raises(IllegalActionError) as err:
        s.apply("draw")
    assert err.value.rule == "MA-3.4"
