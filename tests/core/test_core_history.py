"""A match keeps a bounded part of its past; every state of it can still be read."""

from __future__ import annotations

import random
import tracemalloc

import pytest

import tianxia
from tianxia.core.constants import CHANCE
from tianxia.core.match import CHECKPOINT_EVERY, RECENT_STATES, Match


def _played(name: str, players: int, seed: int, steps: int | None = None) -> Match:
    m = Match(tianxia.load_game(name, players=players), seed=seed)
    rng = random.Random(seed)
    m.resolve_chance()
    while not m.state.is_terminal() and (steps is None or m.seq < steps):
        m.play(rng.choice(m.state.legal_actions()))
        m.resolve_chance()
    return m


def test_every_state_of_the_history_is_the_one_the_log_gives() -> None:
    m = _played("greatwall", 2, seed=3, steps=3 * CHECKPOINT_EVERY + 5)
    states = [m.game.new_initial_state()]
    for a in m.log:
        states.append(states[-1].apply(a))
    assert len(m.history) == len(states) == m.seq + 1
    # Out of order, so that neither the kept states nor the last rebuilt one hide a slip.
    order = list(range(len(states)))
    random.Random(1).shuffle(order)
    for i in order:
        assert m.history[i].to_json() == states[i].to_json(), i
    assert [s.to_json() for s in m.history[1:4]] == [s.to_json() for s in states[1:4]]
    assert m.history[-1] is m.state
    assert m.history[-len(states)].to_json() == states[0].to_json()
    with pytest.raises(IndexError):
        m.history[len(states)]


def test_seat_of_names_who_decided_each_action() -> None:
    m = _played("china", 3, seed=5, steps=150)
    states = [m.game.new_initial_state()]
    for a in m.log:
        states.append(states[-1].apply(a))
    assert [m.seat_of(i) for i in range(m.seq)] == [s.current_player() for s in states[:-1]]
    assert CHANCE in {m.seat_of(i) for i in range(m.seq)}


def test_undo_past_the_kept_states_rebuilds_the_state_before() -> None:
    m = _played("mandarin", 4, seed=2, steps=2 * CHECKPOINT_EVERY + RECENT_STATES + 3)
    full = [m.game.new_initial_state()]
    for a in m.log:
        full.append(full[-1].apply(a))
    stamps = [m.stamp(i) for i in range(m.seq)]
    # Back over a checkpoint and well past the recent states, then forward again.
    back = CHECKPOINT_EVERY + RECENT_STATES + 2
    for _ in range(back):
        m.undo()
        assert m.state.to_json() == full[m.seq].to_json()
        assert m.history[-1] is m.state
    assert [m.stamp(i) for i in range(m.seq)] == stamps[: m.seq]
    rng = random.Random(9)
    while m.seq < len(full) + 10 and not m.state.is_terminal():
        m.play(rng.choice(m.state.legal_actions()))
        m.resolve_chance()
    assert m.stamp(m.seq - 1) not in stamps
    replayed = tianxia.replay(m.game, m.log)
    assert replayed.to_json() == m.state.to_json()
    for i in range(0, m.seq + 1, 7):
        assert m.history[i].to_json() == tianxia.replay(m.game, m.log[:i]).to_json()


def test_events_read_the_same_from_rebuilt_states() -> None:
    m = _played("silkroad", 3, seed=4, steps=200)
    full = [m.game.new_initial_state()]
    for a in m.log:
        full.append(full[-1].apply(a))
    expected = [full[i].event(m.log[i], full[i + 1]) for i in range(m.seq)]
    assert [m.event(i) for i in range(m.seq)] == expected


def test_a_finished_game_in_memory_is_not_every_state_of_it() -> None:
    """A finished 4-seat Mandarin game of random play (about 3,700 actions) held every
    state: about 5 MB. The match's own memory is now a small part of that."""
    game = tianxia.load_game("mandarin", players=4)
    _played("mandarin", 4, seed=0, steps=50)  # caches and data built outside the count
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        m = _played("mandarin", 4, seed=1)
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    assert m.state.is_terminal() and m.game == game
    held = sum(d.size_diff for d in after.compare_to(before, "filename"))
    assert m.seq > 20 * CHECKPOINT_EVERY
    assert held < 1_000_000, f"{held:,} bytes held by a finished game of {m.seq} actions"
