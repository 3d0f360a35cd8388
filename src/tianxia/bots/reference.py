"""OpenSpiel's own search bots, entered through the OpenSpiel adapter (extra `rl`).

`openspiel-ismcts` is OpenSpiel's `ISMCTSBot`: one tree keyed by information-state
strings (the adapter's perfect-recall digests), a fresh determinisation of the seat's
information state per simulation. `openspiel-mcts` is OpenSpiel's `MCTSBot`, which needs
the whole state: on a game with hidden information it searches `determinizations` worlds
drawn once per decision (perfect-information Monte Carlo), each with an equal share of
the simulations, and plays the action with the most visits summed over them.

Both score a new leaf with an evaluator working on the engine's states, so the
comparison with our bots is between searches, not between adapters:
`rollouts="random"` plays uniformly random moves to the end of the game (OpenSpiel's
`RandomRolloutEvaluator` on our value scale); `rollouts="hook"` plays `rollout_depth`
random decisions and then asks the game's evaluation hook, as `ismcts` does.

pyspiel is imported only when one of these bots is made.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any, ClassVar

from tianxia.bots.base import Bot, _check_number
from tianxia.bots.evaluation import values
from tianxia.core import CHANCE, TERMINAL, Action, Game, State, sample_chance

_TOP = 5
_ROLLOUTS = ("random", "hook")


def _adapter(bot: str) -> Any:
    try:
        from tianxia.adapters import openspiel
    except ImportError as e:
        raise ValueError(f"{bot} needs OpenSpiel: pip install 'tianxia[rl]' ({e})") from e
    return openspiel


class EngineEvaluator:
    """A leaf evaluator for OpenSpiel's searches that plays on the engine's states.

    Values are `tianxia.bots.evaluation.values`: final returns rescaled to [-1, 1], or
    the evaluation hook (centred in zero-sum games) where the rollout stops early.

    Args:
        rollouts: `random` (to the end of the game) or `hook` (`depth` decisions, then
            the evaluation hook).
        depth: random decisions before the hook scores the position (`hook` only).
        rng: the rollout stream.
    """

    def __init__(self, rollouts: str, depth: int, rng: random.Random) -> None:
        self.to_end = rollouts == "random"
        self.depth = depth
        self.rng = rng
        self.leaves = 0

    def evaluate(self, spiel_state: Any) -> Any:
        import numpy as np

        self.leaves += 1
        return np.array(self.values(spiel_state.tianxia_state), dtype=np.float64)

    def values(self, state: State) -> list[float]:
        rng = self.rng
        decisions = 0
        while True:
            p = state.current_player()
            if p == TERMINAL:
                return values(state)
            if p == CHANCE:
                state = state.apply_unchecked(sample_chance(state, rng))
                continue
            if not self.to_end and decisions >= self.depth:
                return values(state)
            state = state.apply_unchecked(rng.choice(state.legal_actions()))
            decisions += 1

    def prior(self, spiel_state: Any) -> list[tuple[int, float]]:
        if spiel_state.is_chance_node():
            return list(spiel_state.chance_outcomes())
        legal = spiel_state.legal_actions(spiel_state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class _ReferenceBot(Bot):
    """What both OpenSpiel entrants share: options, the adapter, the evaluator, timing."""

    OPTIONS: ClassVar[Mapping[str, Any]] = {
        "simulations": 200,
        "exploration": 2.0,
        "rollouts": "random",
        "rollout_depth": 4,
    }

    def __init__(self, game: Game, seat: int, seed: int = 0, **options: Any) -> None:
        super().__init__(game, seat, seed, **options)
        o = self.options
        self.simulations: int = _check_number(
            self.NAME, "simulations", o["simulations"], kind=int, low=1
        )
        self.exploration: float = _check_number(
            self.NAME, "exploration", o["exploration"], kind=float, low=0.0
        )
        if o["rollouts"] not in _ROLLOUTS:
            raise ValueError(
                f"{self.NAME}: option rollouts must be random or hook, not {o['rollouts']!r}"
            )
        self.rollout_depth: int = _check_number(
            self.NAME, "rollout_depth", o["rollout_depth"], kind=int, low=0
        )
        self.spiel = _adapter(self.NAME)
        import numpy as np

        spec = game.spec()
        self.spiel_game = self.spiel.load(spec["game"], players=game.players, **spec["options"])
        # Separate streams, so that one part's use of randomness does not shift another's.
        self.np_random = np.random.RandomState(self.rng.randrange(2**32))
        self.evaluator = EngineEvaluator(
            o["rollouts"], self.rollout_depth, random.Random(self.rng.randrange(2**63))
        )
        self.world_rng = random.Random(self.rng.randrange(2**63))
        self.last_simulations = 0
        self.last_seconds = 0.0

    def _choose(self, state: State, legal: tuple[Action, ...]) -> Action:
        start = time.perf_counter()
        visits = self._search(self.spiel_game.wrap(state))
        self.last_seconds = time.perf_counter() - start
        self.last_simulations = self.simulations
        # Most visits; ties go to the better mean, then to the lower action id.
        ranked = sorted(visits.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0]))
        choice: Action = self.game.action_from_id(ranked[0][0])
        speed = self.simulations / self.last_seconds if self.last_seconds > 0 else 0.0
        lines = [
            f"{self.NAME}: {choice} after {self.simulations} simulations in "
            f"{self.last_seconds:.2f}s ({speed:.0f}/s), {self.options['rollouts']} rollouts"
        ]
        for a, (n, mean) in ranked[:_TOP]:
            lines.append(f"  {self.game.action_from_id(a)}: {n} visits, value {mean:+.3f}")
        self._explanation = "\n".join(lines)
        return choice

    def _search(self, root: Any) -> dict[int, tuple[int, float]]:
        """Visits and mean value of each root action (OpenSpiel ids)."""
        raise NotImplementedError


class OpenSpielISMCTSBot(_ReferenceBot):
    """OpenSpiel's `ISMCTSBot` (UCT, final move by most visits).

    Options:
        simulations: simulations per decision.
        exploration: OpenSpiel's `uct_c`, for values on [-1, 1] (its examples use 2).
        rollouts: `random` (to the end) or `hook` (`rollout_depth` decisions, then the
            evaluation hook).
        rollout_depth: random decisions before the hook (`hook` only).
    """

    NAME = "openspiel-ismcts"

    def __init__(self, game: Game, seat: int, seed: int = 0, **options: Any) -> None:
        super().__init__(game, seat, seed, **options)
        from open_spiel.python.algorithms import ismcts

        self.search = ismcts.ISMCTSBot(
            self.spiel_game,
            self.evaluator,
            self.exploration,
            self.simulations,
            random_state=self.np_random,
        )
        rng = self.world_rng
        self.search.set_resampler(lambda s, player: s.resample(player, rng))

    def _search(self, root: Any) -> dict[int, tuple[int, float]]:
        self.search.run_search(root)
        return {
            int(a): (int(c.visits), c.value() if c.visits else 0.0)
            for a, c in self.search._root_node.child_info.items()
        }


class OpenSpielMCTSBot(_ReferenceBot):
    """OpenSpiel's `MCTSBot` on determinisations (perfect-information Monte Carlo).

    With hidden information it sees each drawn world whole, so it may play on what its
    seat cannot know (strategy fusion); with perfect information one world is the game.

    Options: those of `openspiel-ismcts`, and `determinizations`, the worlds drawn per
    decision (0: one with perfect information, 4 otherwise); each gets an equal share of
    the simulations.
    """

    NAME = "openspiel-mcts"
    OPTIONS: ClassVar[Mapping[str, Any]] = {**_ReferenceBot.OPTIONS, "determinizations": 0}

    def __init__(self, game: Game, seat: int, seed: int = 0, **options: Any) -> None:
        super().__init__(game, seat, seed, **options)
        k = _check_number(
            self.NAME, "determinizations", self.options["determinizations"], kind=int, low=0
        )
        if k == 0:
            k = 1 if game.info.information == "perfect" else 4
        self.determinizations: int = min(k, self.simulations)
        from open_spiel.python.algorithms import mcts

        self.mcts = mcts

    def _search(self, root: Any) -> dict[int, tuple[int, float]]:
        k = self.determinizations
        share, extra = divmod(self.simulations, k)
        visits: dict[int, int] = {}
        totals: dict[int, float] = {}
        for i in range(k):
            world = root.resample(self.seat, self.world_rng)
            search = self.mcts.MCTSBot(
                self.spiel_game,
                self.exploration,
                share + (1 if i < extra else 0),
                self.evaluator,
                solve=False,
                random_state=self.np_random,
            )
            node = search.mcts_search(world)
            for child in node.children:
                a = int(child.action)
                visits[a] = visits.get(a, 0) + int(child.explore_count)
                totals[a] = totals.get(a, 0.0) + float(child.total_reward)
        return {a: (n, totals[a] / n if n else 0.0) for a, n in visits.items()}
