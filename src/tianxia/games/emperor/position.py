"""Positions written by hand, for tests, examples and teaching.

>>> from tianxia import load_game
>>> s = position(load_game("emperor", players=2), {"hopeh": (0, 5), "honan": (1, 2)})
>>> s.phase, s.units[s.t.index["hopeh"]]
('expansion', 5)
"""

from __future__ import annotations

from collections.abc import Mapping

from tianxia.core.match import apply_all
from tianxia.games.emperor import rules
from tianxia.games.emperor.game import EmperorGame
from tianxia.games.emperor.state import (
    COLONISE,
    EXPAND,
    MOVE,
    PHASES,
    EmperorState,
    Phase,
    initial_fields,
)


def position(
    game: EmperorGame,
    holdings: Mapping[str, tuple[int, int]],
    *,
    player: int = 0,
    turn: int = 10,
    phase: str = EXPAND,
    hands: Mapping[int, Mapping[str, int]] | None = None,
    markers: Mapping[str, Mapping[str, int]] | None = None,
    started: tuple[bool, ...] | None = None,
    senior: tuple[int, ...] | None = None,
) -> EmperorState:
    """A position with `holdings` = {province: (seat, units)}, `player` to act in `phase`.

    The yang deck holds every card not in a hand and not spent on a marker, so the cards
    add up. `phase="growth"` starts the player's turn (the growth due is worked out);
    colonisation, movement and expansion start that phase with nothing done yet.

    Raises:
        ValueError: for an unknown province, card kind or phase, or more cards than exist.
    """
    t = game.tables
    c = t.c
    known = set(t.yang_index) | set(t.marker_index)
    for cards in [*(hands or {}).values(), *(markers or {}).values()]:
        for kind in cards:
            if kind not in known:
                raise ValueError(f"no card or marker kind {kind!r}")
    for pid in markers or {}:
        if pid not in t.index:
            raise ValueError(f"no province {pid!r}")
    s = EmperorState.new_draft(game, **initial_fields(game))
    owner = [-1] * t.P
    units = [0] * t.P
    for pid, (seat, n) in holdings.items():
        if pid not in t.index:
            raise ValueError(f"no province {pid!r}")
        if not 0 <= seat < game.players or not 1 <= n <= t.cap:
            raise ValueError(f"{pid}: seat {seat} with {n} units is not possible")
        owner[t.index[pid]] = seat
        units[t.index[pid]] = n
    s.owner, s.units = tuple(owner), tuple(units)
    deck = list(c.yang_counts)
    hand_rows = [[0] * len(c.yang_kinds) for _ in range(game.players)]
    for seat, cards in (hands or {}).items():
        for kind, n in cards.items():
            k = t.yang_index[kind]
            hand_rows[seat][k] += n
            deck[k] -= n
    mrows = [[0] * len(c.marker_kinds) for _ in range(t.P)]
    for pid, ms in (markers or {}).items():
        for kind, n in ms.items():
            m = t.marker_index[kind]
            mrows[t.index[pid]][m] += n
            k = t.yang_index[kind]
            deck[k] -= n
    if min(deck) < 0:
        raise ValueError("more yang cards in hands and markers than the deck holds")
    out = [0] * len(deck)
    for ms in (markers or {}).values():
        for kind, n in ms.items():
            out[t.yang_index[kind]] += n
    s.hands = tuple(tuple(r) for r in hand_rows)
    s.markers = tuple(tuple(r) for r in mrows)
    s.yang_deck = tuple(deck)
    s.yang_out = tuple(out)
    s.started = started if started is not None else (True,) * game.players
    if senior is not None:
        s.senior = senior
    s.turn = turn
    if phase not in PHASES:
        raise ValueError(f"no phase {phase!r}")
    rules.begin_turn(s, player)
    if phase == "growth" or s.phase == phase:
        return s.freeze()
    s.growth = ()
    s.decider = player
    if phase == COLONISE:
        s.phase = COLONISE
    elif phase == MOVE:
        s.moved = (0,) * t.P
        s.phase = MOVE
    else:
        s.phase = Phase(phase)
    return s.freeze()


def play(state: EmperorState, *moves: str) -> EmperorState:
    """Apply `moves` (notation, chance outcomes included) one after another, checked."""
    return apply_all(state, *moves)


def where(state: EmperorState, province: str) -> tuple[int | None, int]:
    """(owner seat or None, units) of a province."""
    p = state.t.index[province]
    o = state.owner[p]
    return (None if o < 0 else o, state.units[p])
