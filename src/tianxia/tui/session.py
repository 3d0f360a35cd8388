"""One game at the table: the match, who sits where, the bots, undo and the visible log.

Everything here is free of widgets so that the rules of the table (what may be undone,
which log lines a seat may read) are tested without a screen.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from tianxia.core import CHANCE, TERMINAL, Action, Game, Match, State

# A strength is a bot name and its options; the names are those of `tianxia.bots.make`.
STRENGTHS: dict[str, tuple[str, dict[str, Any]]] = {
    "random": ("random", {}),
    "easy": ("greedy", {}),
    "medium": ("ismcts", {"simulations": 200}),
    "hard": ("ismcts", {"simulations": 1000}),
}

# How many other choices are tried when deciding whether a log line tells a seat what was
# chosen; beyond that many, an even spread of them.
_ALTERNATIVES = 80
# How many redrawn positions are tried when deciding whether an action revealed something.
_RESAMPLES = 4


class Bot(Protocol):
    def act(self, state: State) -> Action: ...

    def explain(self) -> str: ...


class RandomBot:
    """The bot used when `tianxia.bots` is not installed: a seeded uniform choice."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self._why = "it has not moved yet"

    def act(self, state: State) -> Action:
        legal = state.legal_actions()
        choice = self.rng.choice(legal)
        self._why = f"chose {choice} at random among {len(legal)} legal actions"
        return choice

    def explain(self) -> str:
        return self._why


def make_bot(strength: str, game: Game, seat: int, seed: int) -> Bot:
    """The bot for `seat` at `strength` (one of `STRENGTHS`).

    Raises:
        ValueError: for an unknown strength.
    """
    if strength not in STRENGTHS:
        raise ValueError(f"no bot strength {strength!r} (strengths: {', '.join(STRENGTHS)})")
    name, options = STRENGTHS[strength]
    try:
        from tianxia import bots
    except ImportError:
        return RandomBot(seed)
    made: Bot = bots.make(name, game, seat, seed=seed, **options)
    return made


@dataclass(frozen=True)
class SeatPlan:
    """Who plays a seat: a person at this keyboard, or a bot at a strength."""

    kind: Literal["human", "bot"] = "human"
    strength: str = "medium"

    def label(self) -> str:
        return "human" if self.kind == "human" else f"bot ({self.strength})"

    @classmethod
    def parse(cls, text: str) -> SeatPlan:
        """`human`, or `bot:<strength>` / a bare strength name."""
        t = text.strip().lower()
        if t == "human":
            return cls("human")
        strength = t.removeprefix("bot:").removeprefix("bot")
        strength = strength.strip(": ") or "medium"
        if strength not in STRENGTHS:
            raise ValueError(
                f"a seat is 'human' or a bot strength ({', '.join(STRENGTHS)}), not {text!r}"
            )
        return cls("bot", strength)


@dataclass(frozen=True)
class LogLine:
    index: int
    seat: int
    text: str
    hidden: bool


def seat_name(seat: int) -> str:
    if seat == CHANCE:
        return "chance"
    if seat == TERMINAL:
        return "end"
    return f"P{seat + 1}"


class Session:
    """A match with seats assigned.

    Args:
        match: the game in progress (fresh or loaded).
        seats: one plan per seat.
        bot_seed: seeds the bots' own streams (seat `i` gets ``bot_seed + i``), so
            thinking never draws from the match's chance stream.
    """

    def __init__(self, match: Match, seats: Sequence[SeatPlan], bot_seed: int = 0) -> None:
        game = match.game
        if len(seats) != game.players:
            raise ValueError(f"{game.NAME} has {game.players} seats, not {len(seats)}")
        self.match = match
        self.seats: tuple[SeatPlan, ...] = tuple(seats)
        self.bots: dict[int, Bot] = {
            i: make_bot(p.strength, game, i, bot_seed + i)
            for i, p in enumerate(self.seats)
            if p.kind == "bot"
        }
        self.explanations: dict[int, tuple[int, str]] = {}
        self._revealing: dict[int, bool] = {}
        self._visible: dict[tuple[int, int | None], bool] = {}
        self.match.resolve_chance()

    # --- who is where -------------------------------------------------------
    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def state(self) -> State:
        return self.match.state

    def to_move(self) -> int:
        return self.state.current_player()

    def is_human(self, seat: int) -> bool:
        return 0 <= seat < len(self.seats) and self.seats[seat].kind == "human"

    def humans(self) -> list[int]:
        return [i for i, p in enumerate(self.seats) if p.kind == "human"]

    def human_to_move(self) -> bool:
        return self.is_human(self.to_move())

    def bot_to_move(self) -> bool:
        return self.to_move() in self.bots

    @property
    def hotseat(self) -> bool:
        """Several people share the screen, so each hand hides behind a hand-over."""
        return len(self.humans()) > 1

    # --- playing --------------------------------------------------------------
    def play(self, action: Action | str | int) -> Action:
        """Apply a person's action for the seat to move, then let chance act.

        Raises:
            IllegalActionError, NotationError: the action is refused; nothing changes.
        """
        a = self.state.to_action(action)
        self.match.play(a)
        self.match.resolve_chance()
        return a

    def play_bot(self, seat: int, state: State, action: Action, why: str) -> bool:
        """Apply a bot's choice made on `state`; refuse it if the table moved meanwhile."""
        if self.state is not state or self.to_move() != seat:
            return False
        self.match.play(action)
        self.explanations[seat] = (len(self.match.log) - 1, why)
        self.match.resolve_chance()
        return True

    def last_explanation(self) -> tuple[int, int, str] | None:
        """`(seat, log index, text)` of the most recent bot move, if any bot has moved."""
        if not self.explanations:
            return None
        seat, (index, text) = max(self.explanations.items(), key=lambda kv: kv[1][0])
        return seat, index, text

    # --- undo -----------------------------------------------------------------
    def can_undo(self) -> bool:
        """Whether the seat to move may take back its last action.

        Only a person's own actions of the turn still in progress: the last action was
        theirs, they are to move again, and it neither followed nor revealed anything
        hidden or random. So undo never crosses a chance node or another seat's decision.
        """
        seat = self.to_move()
        if not self.is_human(seat) or not self.match.log:
            return False
        i = len(self.match.log) - 1
        return self.match.seat_of(i) == seat and not self.revealed(i)

    def undo(self) -> Action:
        """Take back one action; ValueError (nothing changes) when undo is not allowed."""
        if not self.can_undo():
            raise ValueError(
                "nothing of yours to undo: undo stops at a chance event, at anything "
                "revealed, and at another seat's decision"
            )
        for key in [k for k in self._visible if k[0] >= len(self.match.log) - 1]:
            del self._visible[key]
        self._revealing.pop(len(self.match.log) - 1, None)
        return self.match.undo()

    def revealed(self, index: int) -> bool:
        """Whether action `log[index]` showed its taker something they did not know.

        Tried on positions redrawn from the taker's information: if the same action gives
        the taker a different view in any of them, it uncovered hidden information.
        """
        if index in self._revealing:
            return self._revealing[index]
        m = self.match
        seat = m.seat_of(index)
        before, action = m.history[index], m.log[index]
        result = False
        if seat == CHANCE:
            result = True
        elif self.game.info.information == "imperfect":
            seen = m.history[index + 1].observation(seat)
            rng = random.Random(index)
            for _ in range(_RESAMPLES):
                other = before.resample_from_infostate(seat, rng)
                if action not in other.legal_actions():
                    result = True
                    break
                if other.apply_unchecked(action).observation(seat) != seen:
                    result = True
                    break
        self._revealing[index] = result
        return result

    # --- the log as a seat may read it ---------------------------------------
    def visible(self, index: int, viewer: int | None) -> bool:
        """Whether `viewer` learnt exactly what `log[index]` was.

        A line is shown when its taker is the viewer, when the game hides nothing, or
        when every other choice open at that point would have left the viewer a
        different view; if some other choice looks the same to the viewer, the line is
        hidden. Once the game is over every line is shown.
        """
        if self.state.is_terminal() or self.game.info.information == "perfect":
            return True
        key = (index, viewer)
        if key in self._visible:
            return self._visible[key]
        m = self.match
        actor = m.seat_of(index)
        result = True
        if viewer is None or actor != viewer:
            before, action = m.history[index], m.log[index]
            seen = m.history[index + 1].observation(viewer)
            others = [a for a in before.legal_actions() if a != action]
            step = max(1, len(others) // _ALTERNATIVES)
            result = all(
                before.apply_unchecked(a).observation(viewer) != seen
                for a in others[::step][:_ALTERNATIVES]
            )
        self._visible[key] = result
        return result

    def log_lines(self, viewer: int | None) -> list[LogLine]:
        lines = []
        for i, a in enumerate(self.match.log):
            seat = self.match.seat_of(i)
            hidden = not self.visible(i, viewer)
            lines.append(LogLine(i, seat, "(hidden)" if hidden else str(a), hidden))
        return lines

    # --- saving ---------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        self.match.save(path)

    def viewer(self, shown: int | None) -> int | None:
        """Whose view the screen shows: the only person, the seat handed over, or nobody."""
        humans = self.humans()
        if len(humans) == 1:
            return humans[0]
        if shown is not None and shown in humans:
            return shown
        return None
