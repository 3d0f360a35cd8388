"""The end of the game (GW-5): last tile, the final round, the stalemate, the winner."""

from __future__ import annotations

from tianxia.core import CHANCE, TERMINAL
from tianxia.games.greatwall.actions import Draw, Pass, Play
from tianxia.games.greatwall.position import position
from tianxia.games.greatwall.state import GreatWallState


def legal(s: GreatWallState) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def test_gw_5_1_the_last_tile_claimed_ends_the_game_at_once() -> None:
    s = position(2, ["0:gate*5 | 3", "closed"], bag={}, hands={0: "wall gate"})
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.scores() == [8.0, 0.0]
    assert s.returns() == [1.0, -1.0]
    assert s.legal_actions() == ()


def test_gw_5_1_not_over_while_a_section_still_has_a_tile() -> None:
    s = position(2, ["0:gate*5 | 3", "1:tower*2 0:wall | 4"], bag={}, hands={0: "wall"})
    assert not s.is_terminal()
    assert s.observation(None)["sections"][0]["open"] is False


def test_gw_5_2_final_round_then_scoring_checks_only_until_stalemate() -> None:
    s = position(
        2,
        ["0:tower 1:tower | 5 3", "| 2 4"],
        hands={0: "wall", 1: "gate wall"},
        decks={0: "", 1: "wall"},
    )
    s = s.apply("play wall B")
    obs = s.observation(None)
    assert obs["final_round"] is True and obs["emptied_by"] == 0
    assert legal(s) == ["pass"]
    s = s.apply("pass")
    # seat 1 has its one more turn, a normal one
    assert s.current_player() == 1 and s.observation(None)["phase"] == "actions"
    s = s.apply("play gate A").apply("draw").apply("deal wall")
    obs = s.observation(None)
    assert obs["cards_stopped"] is True
    # seat 0 is alone in B: its turn is the scoring check only
    assert s.current_player() == 0 and legal(s) == ["lay 2 on B1", "lay 4 on B1"]
    assert all(not isinstance(a, Play | Draw | Pass) for a in s.legal_actions())
    s = s.apply("lay 4 on B1")
    # no actions follow: seat 1 leads A (5 against 3) and scores at once
    assert s.current_player() == 1 and legal(s) == [
        "lay 3 on A2",
        "lay 3 on A3",
        "lay 5 on A2",
        "lay 5 on A3",
    ]
    s = s.apply("lay 5 on A2")
    # A: seat 0 has 3 against 0, B: seat 0 alone; both second tiles, in seat 0's order
    assert s.current_player() == 0 and legal(s) == ["take A", "take B"]
    s = s.apply("take B")
    assert s.current_player() == CHANCE
    s = s.apply("reveal 8").apply("reveal 1")
    # the other take was automatic; A's new tiles follow; then no one can score any more
    s = s.apply("reveal 7").apply("reveal 1")
    assert s.is_terminal()
    assert s.observation(None)["players"][0]["won"] == [2, 4, 3]
    assert s.observation(None)["players"][1]["won"] == [5]
    assert s.returns() == [1.0, -1.0]


def test_gw_5_2_the_trigger_also_comes_from_the_last_horseman() -> None:
    s = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "horseman"}, decks={0: ""})
    s = s.apply("horseman B")
    assert s.observation(None)["emptied_by"] == 0


def test_gw_5_2_stalemate_ends_the_game() -> None:
    s = position(2, ["0:tower 1:tower | 5 3", "0:gate 1:gate | 2 4"], trigger=0, stopped=True)
    assert s.is_terminal()
    assert s.returns() == [0.0, 0.0]


def test_gw_5_3_tiles_lying_on_cards_do_not_count() -> None:
    s = position(
        2,
        ["0:tower*5 0:gate 0:gate 1:gate | 3", "| 2 4"],
        won={1: [2]},
        trigger=0,
        stopped=True,
    )
    assert s.is_terminal()
    assert s.scores() == [0.0, 2.0]
    assert s.returns() == [-1.0, 1.0]


def over(players: int, won: dict[int, list[int]]) -> GreatWallState:
    sections = ["closed"] * {2: 2, 3: 3, 4: 4, 5: 4}[players]
    return position(players, sections, won=won, bag={})


def test_gw_5_4_highest_fame_total_wins() -> None:
    assert over(3, {0: [5], 1: [8], 2: [7]}).returns() == [-0.5, 1.0, -0.5]


def test_gw_5_4_tie_broken_by_more_tiles() -> None:
    assert over(2, {0: [5, 3], 1: [8]}).returns() == [1.0, -1.0]


def test_gw_5_4_still_tied_the_victory_is_shared() -> None:
    assert over(2, {0: [4, 4], 1: [5, 3]}).returns() == [0.0, 0.0]
    r = over(3, {0: [8], 1: [8], 2: [3]}).returns()
    assert r == [0.25, 0.25, -0.5] and sum(r) == 0
    r = over(5, {0: [8], 1: [8], 2: [3]}).returns()
    assert r == [0.375, 0.375, -0.25, -0.25, -0.25]


def test_gw_5_4_returns_are_zero_before_the_end() -> None:
    s = position(2, ["1:tower | 5 3", "| 2 4"], hands={0: "wall"}, won={0: [8]})
    assert s.returns() == [0.0, 0.0] and s.scores() == [8.0, 0.0]
