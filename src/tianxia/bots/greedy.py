"""One ply of look-ahead on the game's evaluation hook.

Each legal action is tried on a few determinisations (states drawn from the bot's
information state), with the chance events the action triggers drawn from the bot's own
stream; the action whose successors the evaluation likes best on average is taken, ties
broken by the same stream.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from tianxia.bots.base import Bot, _check_number, in_words, move_in_words, terms_text
from tianxia.bots.evaluation import mean_terms, settle, value_for
from tianxia.core import Action, Game, State

_TOP = 5


class GreedyBot(Bot):
    """Greedy on `State.heuristic`.

    Options:
        determinizations: states drawn from the information state per decision
            (0: one in a game of perfect information, 8 otherwise).
    """

    NAME = "greedy"
    OPTIONS: ClassVar[Mapping[str, Any]] = {"determinizations": 0}

    def __init__(self, game: Game, seat: int, seed: int = 0, **options: Any) -> None:
        super().__init__(game, seat, seed, **options)
        k = _check_number(
            self.NAME, "determinizations", self.options["determinizations"], kind=int, low=0
        )
        if k == 0:
            k = 1 if game.info.information == "perfect" else 8
        self.determinizations: int = k

    def _choose(self, state: State, legal: tuple[Action, ...]) -> Action:
        worlds = [
            state.resample_from_infostate(self.seat, self.rng) for _ in range(self.determinizations)
        ]
        seat = self.seat
        scored: list[tuple[float, Action]] = []
        for a in legal:
            v = sum(value_for(settle(w.apply_unchecked(a), self.rng), seat) for w in worlds)
            scored.append((v / len(worlds), a))
        best_value = max(v for v, _ in scored)
        best = [a for v, a in scored if v >= best_value - 1e-12]
        choice = best[0] if len(best) == 1 else self.rng.choice(best)
        ranked = sorted(scored, key=lambda va: -va[0])[:_TOP]
        lines = [
            f"greedy: {choice} (evaluation {best_value:+.3f}, "
            f"{len(legal)} legal actions, {len(worlds)} determinisations)"
        ]
        lines += [f"  {a}: {v:+.3f}" for v, a in ranked]
        terms = mean_terms((settle(w.apply_unchecked(choice), self.rng) for w in worlds), seat)
        lines.append(f"  terms after {choice}: {terms_text(terms)}")
        self._explanation = "\n".join(lines)
        others = [a for _, a in ranked if a != choice]
        self._reason = lambda: in_words(
            "greedy",
            move_in_words(state, choice),
            len(legal),
            move_in_words(state, others[0]) if others else "",
        )
        return choice
