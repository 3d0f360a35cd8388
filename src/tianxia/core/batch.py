"""Many games of one variant stepped in one call, against uniformly random opponents.

The batched learning environment (`tianxia.adapters.vector`) spends most of a step in
the engine: the learner's action, chance and the opponents' moves until the learner
decides again, then the learner's observation tensor and the ids of its legal actions.
This module runs that loop compiled, on `Lane`s: a game's state, the actions applied
(chance outcomes included, so `replay` rebuilds it), its chance stream and one stream
per random opponent. It plays what `Match` and the random bot play with the same
streams, draw for draw, but keeps no history of states, no events and no sentences, and
does not check the learner's action again: the caller has checked its id against the
mask this module wrote, which lists exactly `legal_actions()`.
"""

from __future__ import annotations

import random
from array import array
from typing import Final

from tianxia.core.actions import Action
from tianxia.core.constants import CHANCE, TERMINAL
from tianxia.core.game import State, sample_chance

# Read on every step; `Final` keeps them in C variables in the compiled build.
_CHANCE: Final = CHANCE
_TERMINAL: Final = TERMINAL


class Lane:
    """One game of a batch.

    Attributes:
        state: the current state.
        log: every action applied since the initial state, chance outcomes included.
        chance: the stream chance draws from (what `Match.rng` would be).
        bots: per seat, the stream of the random opponent playing it (None: a learner).
        legal, ids: the legal actions when the learner last observed, and their ids.
    """

    def __init__(self, state: State, chance: random.Random, bots: list[random.Random | None]):
        self.state = state
        self.log: list[Action] = []
        self.chance = chance
        self.bots = bots
        self.legal: tuple[Action, ...] = ()
        self.ids: list[int] = []


def advance(lane: Lane, seat: int) -> bool:
    """Play chance and the random opponents until `seat` decides or the game ends;
    True when it ended.

    An opponent with one legal action takes it without drawing, as the random bot does.
    """
    s = lane.state
    log = lane.log
    bots = lane.bots
    while True:
        p = s.current_player()
        if p == seat:
            lane.state = s
            return False
        if p == _TERMINAL:
            lane.state = s
            return True
        if p == _CHANCE:
            a = sample_chance(s, lane.chance)
        else:
            legal = s.legal_actions()
            if len(legal) == 1:
                a = legal[0]
            else:
                rng = bots[p]
                assert rng is not None, "a learner's seat is to move"
                a = rng.choice(legal)
        log.append(a)
        s = s.apply_unchecked(a)


def play(lane: Lane, action_id: int, seat: int) -> bool:
    """Apply the legal action of id `action_id` for `seat` (it must be one of
    `lane.ids`), then `advance`; True when the game ended."""
    a = lane.legal[lane.ids.index(action_id)]
    lane.log.append(a)
    lane.state = lane.state.apply_unchecked(a)
    return advance(lane, seat)


def observe(
    lane: Lane,
    seat: int,
    ids: dict[Action, int],
    tensors: array[float],
    rows: list[int],
    cols: list[int],
    row: int,
) -> None:
    """Append `seat`'s observation tensor to `tensors` (float32, as NumPy reads it),
    and its legal action ids (when it is to move) to `cols`, with `row` in `rows` for
    each; keep them in the lane."""
    s = lane.state
    tensors.fromlist(s.observation_tensor(seat))
    if s.current_player() != seat:
        lane.legal = ()
        lane.ids = []
        return
    legal = s.legal_actions()
    mine = [ids[a] for a in legal]
    lane.legal = legal
    lane.ids = mine
    cols.extend(mine)
    rows.extend([row] * len(mine))


def step(
    lanes: list[Lane],
    actions: list[int],
    seat: int,
    ids: dict[Action, int],
    tensors: array[float],
    rows: list[int],
    cols: list[int],
) -> list[bool]:
    """Every lane's step: `actions[i]` for `seat` in lane `i` (a negative id: the lane
    does not move), then its observation (as `observe`, row `i`). Returns which games
    ended in this step; their observation is of the final state."""
    over = [False] * len(lanes)
    for i, lane in enumerate(lanes):
        a = actions[i]
        if a >= 0:
            over[i] = play(lane, a, seat)
        observe(lane, seat, ids, tensors, rows, cols, i)
    return over
