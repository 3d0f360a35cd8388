"""The table's log in words stays true when the match is rolled back past the states it
keeps and played on differently."""

from __future__ import annotations

import random

import pytest

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


def test_words_are_made_only_when_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # A table nobody reads in words (bots, research clients) spends nothing on them; read
    # later, they are those of the actions as played.
    import tianxia.play.table

    made = [0]

    def counted(*args: object) -> tuple[str, str]:
        made[0] += 1
        return event_words(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(tianxia.play.table, "event_words", counted)
    t = Table(Match(load_game("china", players=3), seed=5), [SeatPlan()] * 3)
    rng = random.Random(5)
    while t.match.seq < 2 * RECENT_STATES + 5 and not t.state.is_terminal():
        t.play(rng.choice(t.state.legal_actions()))
    assert made[0] == 0
    assert [t.words(i, 0) for i in range(t.match.seq)] == _words_now(t, 0)
    assert made[0] == t.match.seq
