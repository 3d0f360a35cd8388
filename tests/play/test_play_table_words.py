"""The table's log in words stays true when the match is rolled back past the states it
keeps and played on differently."""

from __future__ import annotations

import random

from tianxia import load_game
from tianxia.core.match import RECENT_STATES, Match
from tianxia.play.table import SeatPlan, Table, event_words


def _words_now(t: Table, viewer: int) -> list[tuple[str, str]]:
    m = t.match
    return [
        event_words(m.history[i], m.log[i], m.event(i))
        if m.event(i).visible_to(viewer)
        else ("", m.event(i).others)
        for i in range(m.seq)
    ]


def test_words_after_a_rollback_tell_the_actions_played_since() -> None:
    t = Table(Match(load_game("greatwall", players=2), seed=3), [SeatPlan()] * 2)
    rng = random.Random(3)
    while t.match.seq < 3 * RECENT_STATES + 10:
        t.play(rng.choice(t.state.legal_actions()))
    assert [t.words(i, 0) for i in range(t.match.seq)] == _words_now(t, 0)
    # Rolled back as the server does when a write fails, past the kept states.
    kept = t.match.seq - 2 * RECENT_STATES
    while t.match.seq > kept:
        t.match.undo()
    other = random.Random(99)
    for _ in range(2 * RECENT_STATES):
        if t.state.is_terminal():
            break
        t.play(other.choice(t.state.legal_actions()))
    assert [t.words(i, 0) for i in range(t.match.seq)] == _words_now(t, 0)
    assert [t.words(i, 1) for i in range(t.match.seq)] == _words_now(t, 1)
