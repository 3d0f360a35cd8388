"""Who plays the seats a learner does not, and what the learner is paid at the end.

An opponent is any of:

- a bot name of `tianxia.bots.available()` (``"random"``, ``"greedy"``, ``"ismcts"``, ...),
  built afresh for each game with ``opponent_options`` and a stream seeded from the game;
- a bot object (`tianxia.bots.Bot`) made for that seat of that variant; its stream is
  reseeded at each reset, as the named bots' are, so a seed still fixes the game;
- a policy: any callable ``(observation, mask) -> action id``, given the observation of
  its own seat in the one encoding (`tianxia.adapters.encoding`, so it sits at seat 0 as
  the learner does) and its int8 action mask;
- `snapshot(policy)`: a frozen copy of a learner's policy, for self-play;
- a `League` of snapshots: each game draws one of them for the seat.

Rewards (`REWARDS`), paid once when the game ends, 0 before:

- ``"win"``: the seat's `State.returns()` entry (the game's own utility, +1 for the
  winner and -1 for the others in a two-seat game);
- ``"rank"``: the seat's place, from +1 (first) to -1 (last) in equal steps; seats are
  ordered by return (so by the rules' winner and tie-breaks), then by score, and seats
  level on both share the mean of their places;
- ``"score"``: the normalised margin: the seat's score less the best other seat's,
  divided by the largest absolute score at the table (at least 1), within [-1, 1].

An illegal action by the learner ends the game with the worst reward of the kind: the
game's minimum utility for ``"win"``, -1 for the others.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

import tianxia.bots
from tianxia.adapters.encoding import encoding
from tianxia.bots import Bot
from tianxia.core import Action, Game, State

REWARDS = ("win", "rank", "score")


@runtime_checkable
class Policy(Protocol):
    """``(observation, mask) -> action id``: the observation of the policy's own seat
    (float32, the one encoding) and its int8 mask of legal action ids."""

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> Any: ...


class Snapshot:
    """A frozen copy of a policy: later learning does not reach it.

    Attributes:
        policy: the copy.
        label: a name for tables and logs (``"snapshot 3"`` in a league).
    """

    def __init__(self, policy: Policy, label: str = "snapshot") -> None:
        if not callable(policy):
            raise ValueError(
                f"a snapshot needs a callable (observation, mask) -> action, not {policy!r}"
            )
        self.policy = copy.deepcopy(policy)
        self.label = label

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> Any:
        return self.policy(observation, mask)

    def __repr__(self) -> str:
        return f"Snapshot({self.label!r})"


def snapshot(policy: Policy, label: str = "snapshot") -> Snapshot:
    """A frozen deep copy of `policy`.

    Copying reaches what the callable holds: an object with its parameters as
    attributes, or a `functools.partial` over them. A plain function or a lambda is
    copied as itself, so it would go on reading the live parameters it refers to.
    """
    return Snapshot(policy, label)


class League:
    """Past snapshots of a learner; every game seats one of them, drawn at random.

    Args:
        capacity: how many snapshots to keep (the oldest leaves first); None: all.
        latest: the probability of drawing the newest snapshot; the rest of the time
            every kept snapshot is equally likely (the newest included).
    """

    def __init__(self, capacity: int | None = None, latest: float = 0.0) -> None:
        if capacity is not None and (
            isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1
        ):
            raise ValueError(f"capacity must be a whole number >= 1 or None, not {capacity!r}")
        if isinstance(latest, bool) or not isinstance(latest, int | float) or not 0 <= latest <= 1:
            raise ValueError(f"latest must be a probability in [0, 1], not {latest!r}")
        self.capacity = capacity
        self.latest = float(latest)
        self.snapshots: list[Snapshot] = []
        self._added = 0

    def add(self, policy: Policy) -> Snapshot:
        """Freeze a copy of `policy` and keep it; returns the snapshot."""
        snap = policy if isinstance(policy, Snapshot) else Snapshot(policy)
        snap = Snapshot(snap.policy, f"snapshot {self._added}")
        self._added += 1
        self.snapshots.append(snap)
        if self.capacity is not None and len(self.snapshots) > self.capacity:
            del self.snapshots[0]
        return snap

    def sample(self, rng: random.Random) -> Snapshot:
        """One kept snapshot, drawn from `rng`.

        Raises:
            ValueError: the league holds no snapshot yet.
        """
        if not self.snapshots:
            raise ValueError("the league holds no snapshot yet; add() one before playing")
        if rng.random() < self.latest:
            return self.snapshots[-1]
        return self.snapshots[rng.randrange(len(self.snapshots))]

    def __len__(self) -> int:
        return len(self.snapshots)

    def __repr__(self) -> str:
        return f"League({len(self)} snapshots, capacity={self.capacity}, latest={self.latest})"


Opponent = str | Bot | Policy | League
Actor = Callable[[State], Action]


def _kind(opponent: Any) -> str:
    if isinstance(opponent, str):
        return "name"
    if isinstance(opponent, Bot):
        return "bot"
    if isinstance(opponent, League):
        return "league"
    if callable(opponent):
        return "policy"
    return ""


class Opponents:
    """The opponents of the learning `seat` (or seats) in `game`, checked once, turned
    into actors per game.

    Args:
        seat: the learning seat, or a collection of them.
        opponents: one opponent for every other seat, one per other seat in seat order,
            or a mapping seat -> opponent.
        options: options for the bots named by name.

    Raises:
        ValueError: a seat without an opponent, an unknown bot or option, a bot object
            of another seat or variant, or something that is no opponent at all.
    """

    def __init__(
        self,
        game: Game,
        seat: int | Collection[int],
        opponents: Opponent | Sequence[Opponent] | Mapping[int, Opponent],
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.game = game
        self.learners = frozenset([seat] if isinstance(seat, int) else seat)
        self.options = dict(options or {})
        self.encoding = encoding(game)
        self.by_seat = _per_seat(opponents, self.learners, game.players)
        available = tianxia.bots.available()
        for other, opponent in self.by_seat.items():
            kind = _kind(opponent)
            if kind == "name" and opponent not in available:
                raise ValueError(
                    f"seat {other}: no bot called {opponent!r} (bots: {', '.join(available)})"
                )
            if kind == "bot" and (opponent.seat != other or opponent.game.spec() != game.spec()):
                raise ValueError(
                    f"seat {other}: the bot {opponent!r} plays seat {opponent.seat} of "
                    f"{opponent.game!r}, not seat {other} of {game!r}"
                )
            if not kind:
                raise ValueError(
                    f"seat {other}: an opponent is a bot name, a bot, a callable "
                    f"(observation, mask) -> action or a League, not {opponent!r}"
                )
        # Bad bot options are refused now, not at the first reset; a league may still be
        # empty here (its first snapshot is often added after the environment is made).
        for other, opponent in self.by_seat.items():
            if isinstance(opponent, str):
                tianxia.bots.make(opponent, game, other, seed=0, **self.options)

    def actors(self, seed: int) -> dict[int, Actor]:
        """One actor per other seat for a game seeded with `seed`."""
        streams = random.Random(seed)
        out: dict[int, Actor] = {}
        for other, opponent in sorted(self.by_seat.items()):
            sub = streams.randrange(2**31)
            kind = _kind(opponent)
            if kind == "name":
                bot = tianxia.bots.make(opponent, self.game, other, seed=sub, **self.options)
                out[other] = bot.act
            elif kind == "bot":
                opponent.rng = random.Random(sub)
                out[other] = opponent.act
            else:
                policy = opponent.sample(random.Random(sub)) if kind == "league" else opponent
                out[other] = self._policy_actor(other, policy)
        return out

    def _policy_actor(self, seat: int, policy: Policy) -> Actor:
        game = self.game
        enc = self.encoding
        n_actions = game.info.num_distinct_actions

        def act(state: State) -> Action:
            legal = state.legal_actions()
            mask = np.zeros(n_actions, np.int8)
            ids = [game.action_id(a) for a in legal]
            mask[ids] = 1
            chosen = policy(enc.encode(state, seat), mask)
            chosen = int(np.asarray(chosen).reshape(()))
            if not 0 <= chosen < n_actions or not mask[chosen]:
                raise ValueError(
                    f"seat {seat}: the policy {policy!r} chose action id {chosen}, "
                    "which its mask does not allow"
                )
            return game.action_from_id(chosen)

        return act


def _per_seat(opponents: Any, learners: frozenset[int], players: int) -> dict[int, Any]:
    others = [s for s in range(players) if s not in learners]
    if _kind(opponents) and not isinstance(opponents, Mapping):
        return dict.fromkeys(others, opponents)
    if isinstance(opponents, Mapping):
        if sorted(opponents) != others:
            raise ValueError(
                f"opponents must name one for seats {others}, got seats {sorted(opponents)}"
            )
        return {int(k): v for k, v in opponents.items()}
    if not isinstance(opponents, Sequence):
        raise ValueError(
            f"opponents must be an opponent, a sequence or a mapping, not {opponents!r}"
        )
    given = list(opponents)
    if len(given) != len(others):
        raise ValueError(f"opponents must give {len(others)} (seats {others}), not {len(given)}")
    return dict(zip(others, given, strict=True))


def check_reward(kind: str) -> str:
    if kind not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {kind!r}")
    return kind


def final_reward(state: State, seat: int, kind: str) -> float:
    """`seat`'s reward of `kind` in the finished `state` (see the module docstring)."""
    returns = [float(r) for r in state.returns()]
    if kind == "win":
        return returns[seat]
    scores = [float(s) for s in state.scores()]
    n = len(scores)
    if kind == "score":
        best_other = max(s for i, s in enumerate(scores) if i != seat)
        scale = max(1.0, max(abs(s) for s in scores))
        return max(-1.0, min(1.0, (scores[seat] - best_other) / scale))
    key = [(returns[i], scores[i]) for i in range(n)]
    above = sum(1 for k in key if k > key[seat])
    level = sum(1 for k in key if k == key[seat])
    place = above + (level - 1) / 2  # 0 first .. n-1 last, ties at their mean place
    return 1.0 - 2.0 * place / (n - 1)


def worst_reward(game: Game, kind: str) -> float:
    return float(game.info.min_utility) if kind == "win" else -1.0
