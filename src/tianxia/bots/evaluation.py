"""Values of positions for search, all on one scale: [-1, 1], from each seat's view.

Final returns are rescaled from the game's declared utility range; unfinished positions
are scored by the game's evaluation hook (`State.heuristic`), which estimates the same
return on the same scale.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tianxia.core import Game, State


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


def values(state: State) -> list[float]:
    """`value_for` every seat.

    In a two-seat zero-sum game one seat's estimate is the other's negated, so the
    evaluation hook is asked once (it is most of a search's cost).
    """
    game = state.game
    if state.is_terminal():
        return [_rescale(game, r) for r in state.returns()]
    if game.players == 2 and game.info.utility == "zero_sum":
        first = _clamp(state.heuristic(0))
        return [first, -first]
    return [_clamp(state.heuristic(s)) for s in range(game.players)]


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
