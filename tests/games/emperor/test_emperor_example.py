"""A worked opening for two players, every phase in turn, as docs/rules/emperor.md tells it."""

from __future__ import annotations

import tianxia
from tianxia.games.emperor.position import play, where


def test_two_player_opening() -> None:
    g = tianxia.load_game("emperor", players=2)
    s = g.new_initial_state()
    # turn 1, seat 0: three adjacent provinces, no growth, nothing to colonise (EM-4.1, EM-5.1)
    s = play(s, "start kiangsu", "start anhwei", "start chekiang")
    assert s.phase == "movement"
    s = play(s, "move 2 kiangsu>anhwei", "done")
    # no opponent on the board yet: expansion has nothing to offer (EM-7)
    assert s.phase == "assign yang"
    s = play(s, "yang anhwei", "yin chekiang", "yin card drought", "yang card agriculture")
    assert where(s, "anhwei") == (0, 5) and where(s, "chekiang") == (0, 2)
    assert s.markers[s.t.index["anhwei"]] == (0, 0, 1)
    # turn 2, seat 1
    assert (s.turn, s.player, s.phase) == (2, 1, "start")
    s = play(s, "start honan", "start hopeh", "start shantung", "move 2 hopeh>honan", "done")
    assert s.phase == "expansion"
    s = play(s, "attack honan>anhwei", "stand", "roll", "die 2", "stand", "roll", "die 1")
    assert where(s, "anhwei") == (0, 4) and where(s, "honan") == (1, 4)
    # the defender gives way, with every unit, into his own Kiangsu (EM-7.5)
    s = play(s, "retreat kiangsu", "advance 3")
    assert where(s, "kiangsu") == (0, 5) and where(s, "anhwei") == (1, 3)
    assert where(s, "honan") == (1, 1)
    # the yin card is seat 1's own misfortune: it goes to one of his provinces (EM-8.1)
    assert {str(a) for a in s.apply("done").apply("yang honan").legal_actions()} == {
        "yin honan",
        "yin hopeh",
        "yin shantung",
        "yin anhwei",
    }
    s = play(s, "done", "yang honan", "yin anhwei", "yin card flood", "yang card water")
    # the flood strikes his Anhwei; with no flood card he can only endure it (EM-8.2)
    assert s.current_player() == 1 and [str(a) for a in s.legal_actions()] == ["endure"]
    s = s.apply("endure")
    assert where(s, "anhwei") == (1, 1)
    # turn 3, seat 0: the agriculture marker stayed with Anhwei, now seat 1's (EM-8.4)
    assert (s.turn, s.player, s.phase) == (3, 0, "growth")
    assert s.growth == (-1,)
    assert s.observation(0)["players"][1]["yang_cards"] == 1
    assert s.observation(0)["my_cards"] == {}
    assert s.observation(1)["my_cards"] == {"water": 1}
