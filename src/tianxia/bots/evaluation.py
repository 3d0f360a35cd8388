"""Values of positions for search, all on one scale: [-1, 1], from each seat's view.

Final returns are rescaled from the game's declared utility range; unfinished positions
are scored by the game's evaluation hook (`State.heuristic`), which estimates the same
return on the same scale.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from tianxia.core import CHANCE, Game, State, sample_chance


def _rescale(game: Game, value: float) -> float:
    low, high = game.info.min_utility, game.info.max_utility
    if high <= low:
        return 0.0
    return max(-1.0, min(1.0, 2.0 * (value - low) / (high - low) - 1.0))


def _clamp(value: float) -> float:
    return max(-1.0, min(1.0, float(value)))


def value_for(state: State, seat: int) -> float:
    """`seat`'s final return, rescaled, at the end; the evaluation hook before it."""
    if state.is_terminal():
        return _rescale(state.game, state.returns()[seat])
    return _clamp(state.heuristic(seat))


def values(state: State, centre: bool = True) -> list[float]:
    """`value_for` every seat; in a zero-sum game and with `centre`, centred so that they
    sum to zero.

    Some evaluation hooks score a seat's own progress rather than its lead; where the
    returns are zero-sum, subtracting the mean turns those into leads, so that a search
    seat does not prefer positions just because everyone is doing well. A hook that
    already scores a lead, from values the seat cannot see and a determinisation draws
    at random, only gains noise from the others' values (`ismcts:centre=0`).
    """
    game = state.game
    if state.is_terminal():
        return [_rescale(game, r) for r in state.returns()]
    hook = [_clamp(v) for v in state.heuristics()]
    if game.info.utility != "zero_sum" or not centre:
        return hook
    mean = sum(hook) / len(hook)
    return [_clamp(v - mean) for v in hook]


def settle(state: State, rng: random.Random) -> State:
    """Draw the chance events pending at `state` from `rng`, up to the next decision."""
    while state.current_player() == CHANCE:
        state = state.apply_unchecked(sample_chance(state, rng))
    return state


def mean_terms(states: Iterable[State], seat: int) -> dict[str, float]:
    """The evaluation's terms for `seat`, averaged over several states (determinisations)."""
    total: dict[str, float] = {}
    n = 0
    for s in states:
        n += 1
        terms: dict[str, Any] = s.heuristic_terms(seat)
        for k, v in terms.items():
            total[k] = total.get(k, 0.0) + float(v)
    return {k: v / n for k, v in total.items()} if n else {}
