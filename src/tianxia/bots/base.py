"""What every bot shares: its seat, its own random stream, input checks and the explanation.

A bot is handed the true state in `act`, but decides only from what its seat may know:
`observation(seat)`, `legal_actions()`, `current_player()` and states drawn with
`resample_from_infostate(seat, rng)` (and the states it derives from those).
"""

from __future__ import annotations

import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from tianxia.core import Action, Game, State


def move_in_words(state: State, action: Action) -> str:
    """`action` as the sentence the game's rules write for it ("P1 places a house on ...")."""
    return state.explain(action).removeprefix("legal: ")


def in_words(
    kind: str, move: str, count: int = 0, runner_up: str = "", tried: int = 0, total: int = 0
) -> str:
    """Why a bot chose `move` (the move's own sentence), in words a player reads: the first
    thing its explanation says. Every sentence here is a template of the catalogues, so a
    Dutch or German player reads it, the moves inside in their words too.

    kind: "only" (no other move), "random" (one of `count`), "greedy" (the best position
    one move ahead of `count`, `runner_up` next), "search" (tried in `tried` of `total`
    simulated games, more than any other; `runner_up` next, tried `count` times),
    "best_mean" (of `total` simulated games, the move whose games went best), "skipped"
    (a stand-in's pass for a seat whose time ran out, its turn skipped).
    """
    if kind == "skipped":
        return f"Passed for the seat, whose time ran out: {move}"
    if kind == "only":
        return f"Played the only move open: {move}"
    if kind == "random":
        return f"Chose at random among {count} moves: {move}"
    if kind == "greedy" and runner_up:
        return (
            f"Looked one move ahead at {count} moves and chose the one that leaves it best "
            f"placed: {move}. Next best: {runner_up}"
        )
    if kind == "greedy":
        return (
            f"Looked one move ahead at {count} moves and chose the one that leaves it best "
            f"placed: {move}"
        )
    if kind == "best_mean" and runner_up:
        return (
            f"Played out {total} games in thought and chose the move whose games went best "
            f"for it: {move}. Next best: {runner_up}"
        )
    if not runner_up:
        return f"Tried this move in all {total} games it played out in thought: {move}"
    if count == 1:
        return (
            f"Tried this move in {tried} of {total} games it played out in thought, more "
            f"than any other: {move}. Next most tried, once: {runner_up}"
        )
    return (
        f"Tried this move in {tried} of {total} games it played out in thought, more than "
        f"any other: {move}. Next most tried, {count} times: {runner_up}"
    )


def _check_number(
    bot: str, name: str, value: Any, *, kind: type, low: float, high: float | None = None
) -> Any:
    """`value` as `kind` if it lies in [low, high]; a ValueError that says which otherwise."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{bot}: option {name} must be a number, not {value!r}")
    if kind is int and value != int(value):
        raise ValueError(f"{bot}: option {name} must be a whole number, not {value!r}")
    value = kind(value)
    if value < low or (high is not None and value > high):
        bound = f">= {low}" if high is None else f"in {low}..{high}"
        raise ValueError(f"{bot}: option {name} must be {bound}, not {value!r}")
    return value


class Bot(ABC):
    """A seat's player. Subclasses implement `_choose` and may extend `explain`.

    Args:
        game: the variant the bot plays.
        seat: the seat it plays, `0 .. game.players - 1`.
        seed: seeds the bot's own random stream (never the global one).
        options: bot-specific settings (see `OPTIONS` of each bot).
    """

    NAME: ClassVar[str]
    OPTIONS: ClassVar[Mapping[str, Any]] = {}

    def __init__(self, game: Game, seat: int, seed: int = 0, **options: Any) -> None:
        if not isinstance(game, Game):
            raise ValueError(f"{self.NAME}: a loaded game is needed, not {game!r}")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ValueError(f"{self.NAME}: seat must be a whole number, not {seat!r}")
        if not 0 <= seat < game.players:
            raise ValueError(
                f"{self.NAME}: seat {seat} does not exist in a {game.players}-player game"
            )
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"{self.NAME}: seed must be a whole number, not {seed!r}")
        unknown = sorted(set(options) - set(self.OPTIONS))
        if unknown:
            known = ", ".join(self.OPTIONS) or "none"
            raise ValueError(f"{self.NAME} bot has no option {unknown[0]!r} (options: {known})")
        self.game = game
        self.seat = seat
        self.seed = seed
        self.rng = random.Random(seed)
        self.options: dict[str, Any] = {**self.OPTIONS, **options}
        self._explanation = f"{self.NAME}: no decision yet"
        # The reason in words, built only when asked: a random playout asks for none.
        self._reason: Callable[[], str] = lambda: "No decision yet"

    def act(self, state: State) -> Action:
        """The action this bot takes in `state`, where its seat is to move.

        Raises:
            ValueError: `state` is of another game variant, over, or not this seat's turn.
        """
        if not isinstance(state, State):
            raise ValueError(f"{self.NAME}: a state is needed, not {state!r}")
        if state.game.spec() != self.game.spec():
            raise ValueError(
                f"{self.NAME}: the state is of {state.game!r}, but this bot plays {self.game!r}"
            )
        to_move = state.current_player()
        if to_move != self.seat:
            who = "nobody (the game is over)" if state.is_terminal() else f"seat {to_move}"
            if state.is_chance_node():
                who = "chance"
            raise ValueError(f"{self.NAME} plays seat {self.seat}, but {who} is to move")
        legal = state.legal_actions()
        if len(legal) == 1:
            self._explanation = f"{self.NAME}: {legal[0]} is the only legal action"
            only = legal[0]
            self._reason = lambda: in_words("only", move_in_words(state, only))
            return legal[0]
        return self._choose(state, legal)

    @abstractmethod
    def _choose(self, state: State, legal: tuple[Action, ...]) -> Action:
        """Pick one of `legal` (two or more) and set `self._explanation`."""

    def explain(self) -> str:
        """Why the last action was chosen: alternatives, their figures, evaluation terms."""
        return self._explanation

    def reason(self) -> str:
        """Why the last action was chosen, in one sentence a player reads (`in_words`);
        `explain` keeps the figures behind it."""
        return self._reason()

    def __getstate__(self) -> dict[str, Any]:
        # The reason waits in a closure, which pickling cannot carry: a bot sent to
        # another process (the server's bot workers) carries its sentence already said.
        said = dict(self.__dict__)
        said["_reason"] = functools.partial(str, self._reason())
        return said

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"make({self.NAME!r}, {self.game!r}, seat={self.seat}, seed={self.seed}{opts})"


def terms_text(terms: Mapping[str, float], limit: int = 6) -> str:
    """The largest evaluation terms by size, as `name +0.42` pairs."""
    top = sorted(terms.items(), key=lambda kv: (-abs(kv[1]), kv[0]))[:limit]
    return ", ".join(f"{k} {v:+.3g}" for k, v in top) or "none"
