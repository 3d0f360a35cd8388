"""The table: one match with its seats, whose decision it is, undo, and each seat's log.

Every face uses this one table: the terminal player, `tianxia play` and the server.
It adds no rule of its own: legality, notation and explanations come from the
engine, and which log lines a seat may read from the events the game's rules declare
(`Match.events_for`).

The undo rule, the only one: a person may take back their own most recent action
while they are still the one to decide, when that action was told to every seat
whole and revealed nothing (its event is public and not marked `reveals`). Undo
never crosses a chance outcome or another seat's decision, and a bot never undoes.
Taking back several actions in a row walks back through the same conditions.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from tianxia.core import (
    CHANCE,
    JSON,
    Action,
    Event,
    Game,
    IllegalActionError,
    Match,
    State,
    seat_name,
)

# A strength is a bot name and its options; the names are those of `tianxia.bots.make`.
STRENGTHS: dict[str, tuple[str, dict[str, Any]]] = {
    "random": ("random", {}),
    "easy": ("greedy", {}),
    "medium": ("ismcts", {"simulations": 200}),
    "hard": ("ismcts", {"simulations": 1000}),
    # The search guided by a trained network, at the top of the scale: 800 of its
    # simulations take about the time of `hard`'s 1000, and it plays level with `ismcts`
    # at equal time (docs/research.md). Only where weights ship for the variant.
    "learned": ("learned", {"simulations": 800}),
}
LEARNED = "learned"


def strengths_for(game: Game) -> list[str]:
    """The strengths that play `game`: every one but `learned` where no trained weights
    ship for its title, player count and options."""
    try:
        from tianxia.bots.learned import has_weights
    except ImportError:  # NumPy absent: no network to run
        return [s for s in STRENGTHS if s != LEARNED]
    return [s for s in STRENGTHS if s != LEARNED or has_weights(game)]


class Bot(Protocol):
    def act(self, state: State) -> Action: ...

    def explain(self) -> str: ...


def explanation_of(bot: Bot) -> str:
    """What a table keeps of a bot's move: its reason in words on the first line (what a
    player reads), then the figures its search gives (what the terminal shows too)."""
    reason = getattr(bot, "reason", None)
    words = reason() if callable(reason) else ""
    return f"{words}\n{bot.explain()}" if words else bot.explain()


class RandomBot:
    """The bot used when `tianxia.bots` is not installed: a seeded uniform choice."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self._why = "it has not moved yet"
        self._reason: Callable[[], str] = lambda: ""

    def act(self, state: State) -> Action:
        legal = state.legal_actions()
        choice = self.rng.choice(legal)
        self._why = f"chose {choice} at random among {len(legal)} legal actions"
        try:
            from tianxia.bots.base import in_words, move_in_words
        except ImportError:  # the sentences live with the bots
            return choice
        kind = "only" if len(legal) == 1 else "random"
        self._reason = lambda: in_words(kind, move_in_words(state, choice), len(legal))
        return choice

    def explain(self) -> str:
        return self._why

    def reason(self) -> str:
        return self._reason()

    def __getstate__(self) -> dict[str, Any]:
        # As `tianxia.bots.base.Bot`: the closure of the reason does not pickle, its text does.
        said = dict(self.__dict__)
        said["_reason"] = functools.partial(str, self._reason())
        return said


def make_bot(strength: str, game: Game, seat: int, seed: int) -> Bot:
    """The bot for `seat` at `strength` (one of `STRENGTHS`).

    Raises:
        ValueError: for an unknown strength.
    """
    if strength not in STRENGTHS:
        raise ValueError(f"no bot strength {strength!r} (strengths: {', '.join(STRENGTHS)})")
    if strength == LEARNED and strength not in strengths_for(game):
        raise ValueError(
            f"no trained weights ship for {game.info.title} at {game.players} players with "
            f"these options, so no {strength} bot plays it"
        )
    name, options = STRENGTHS[strength]
    try:
        from tianxia import bots
    except ImportError:
        return RandomBot(seed)
    made: Bot = bots.make(name, game, seat, seed=seed, **options)
    return made


@dataclass(frozen=True)
class SeatPlan:
    """Who plays a seat: a person, or a bot at a strength."""

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


def event_words(state: State, action: Action, event: Event) -> tuple[str, str]:
    """The sentence in words of `action` taken in `state`, for a viewer who reads
    `event` whole: `(subject, sentence)`, the subject a seat's name and the space or
    colon after it where the game's sentence has none of its own (it is kept apart so
    that the sentence alone is translated).

    A player's action reads as the game describes it (the sentence its move button
    shows); a chance outcome told to everyone as the game describes it, and one told to
    some seats only as the game describes it if that sentence names the seat, else as
    its event says it (which names that seat). Where the game has no words for an
    outcome, the event's own sentence stays.
    """
    rules = state.game.rules
    if rules is None:
        return "", event.text
    seat = state.current_player()
    said = str(rules.describe(state, action))
    if said.startswith("chance: ") or said in (str(action), f"{action} is legal"):
        return "", event.text
    if seat == CHANCE:
        # An outcome told to one seat is that seat's: the game's sentence must name it.
        private = event.seen_by is not None and not re.match(r"P[1-9] ", said)
        return "", event.text if private else said
    name = seat_name(seat)
    if said.startswith(name + " "):
        return "", said
    # "the defender stays for the next roll": the seat that decides is named first.
    return (f"{name}: " if said.startswith("the ") else f"{name} "), said


class NotYourTurn(IllegalActionError):
    """An action sent for a seat that is not the one to decide."""


class Table:
    """A match with seats assigned.

    Args:
        match: the game in progress (fresh or loaded).
        seats: one plan per seat.
        bot_seed: seeds the bots' own streams (seat `i` gets ``bot_seed + i``), so
            thinking never draws from the match's chance stream.
        bots: bots already made for some bot seats (any object with `act` and
            `explain`), used instead of making one from the seat's strength.
    """

    def __init__(
        self,
        match: Match,
        seats: Sequence[SeatPlan],
        bot_seed: int = 0,
        bots: Mapping[int, Bot] | None = None,
    ) -> None:
        game = match.game
        if len(seats) != game.players:
            raise ValueError(f"{game.NAME} has {game.players} seats, not {len(seats)}")
        self.match = match
        self.seats: tuple[SeatPlan, ...] = tuple(seats)
        self.bot_seed = bot_seed
        given = dict(bots or {})
        self.bots: dict[int, Bot] = {
            i: given[i] if i in given else make_bot(p.strength, game, i, bot_seed + i)
            for i, p in enumerate(self.seats)
            if p.kind == "bot"
        }
        # seq of the bot's move -> (seat, explanation)
        self.explanations: dict[int, tuple[int, str]] = {}
        self.chance_before: tuple[Any, ...] | None = None  # `play`
        # log[i] in words (`event_words`), recorded when first read (`words`: a table
        # nobody reads in words, a bot's or a research client's, spends nothing on
        # them), beside the action's stamp (`Match.stamp`), which tells a word recorded
        # before the match was rolled back from one still true.
        self._words: list[tuple[int, tuple[str, str]]] = []
        self.match.resolve_chance()

    # --- who is where -------------------------------------------------------
    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def state(self) -> State:
        return self.match.state

    @property
    def seq(self) -> int:
        return self.match.seq

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

    def viewer(self, shown: int | None) -> int | None:
        """Whose view a shared screen shows: the only person, the seat handed over, or nobody."""
        humans = self.humans()
        if len(humans) == 1:
            return humans[0]
        if shown is not None and shown in humans:
            return shown
        return None

    # --- playing --------------------------------------------------------------
    def play(self, action: Action | str | int, seat: int | None = None) -> Action:
        """Apply an action for the seat to move (or for `seat`, which must be to move),
        then let chance act.

        Raises:
            NotYourTurn: `seat` is given and is not the one to decide.
            IllegalActionError, NotationError: the action is refused; nothing changes.
        """
        if seat is not None:
            self.check_turn(seat)
        a = self.state.to_action(action)
        self.match.play(a)
        # The chance stream as it was before the draws this action brings (None: none
        # drew), for a caller that takes the action back (the server, when its write
        # fails): copied only when chance draws, since it is 625 numbers.
        self.chance_before = self.match.rng.getstate() if self.state.is_chance_node() else None
        self.match.resolve_chance()
        return a

    def check_turn(self, seat: int) -> None:
        """Raise `NotYourTurn` unless `seat` is the one to decide now."""
        p = self.to_move()
        if self.state.is_terminal():
            raise NotYourTurn("TABLE-1", "the game is over; no action can be taken")
        if p != seat:
            raise NotYourTurn(
                "TABLE-1", f"it is {seat_name(p)}'s decision now, not {seat_name(seat)}'s"
            )

    def bot_choice(self, seat: int) -> tuple[State, Action, str]:
        """Let `seat`'s bot think on the current state: `(state, action, explanation)`.

        Pure with respect to the table (it changes nothing), so it may run off the
        caller's thread; hand the result to `play_bot`.
        """
        state = self.state
        bot = self.bots[seat]
        action = bot.act(state)
        return state, action, explanation_of(bot)

    def play_bot(self, seat: int, state: State, action: Action, why: str) -> bool:
        """Apply a bot's choice made on `state`; refuse it if the table moved meanwhile."""
        if self.state is not state or self.to_move() != seat:
            return False
        self.match.play(action)
        self.explanations[self.seq] = (seat, why)
        self.match.resolve_chance()
        return True

    def last_explanation(self) -> tuple[int, int, str] | None:
        """`(seat, log index, text)` of the most recent bot move, if any bot has moved."""
        if not self.explanations:
            return None
        seq = max(self.explanations)
        seat, text = self.explanations[seq]
        return seat, seq - 1, text

    # --- undo -----------------------------------------------------------------
    def can_undo(self, seat: int | None = None) -> bool:
        """Whether `seat` (default: the seat to move) may take back its last action now."""
        if seat is None:
            seat = self.to_move()
        if seat != self.to_move() or not self.is_human(seat) or not self.match.log:
            return False
        i = len(self.match.log) - 1
        if self.match.seat_of(i) != seat:
            return False
        ev = self.match.event(i)
        return ev.seen_by is None and not ev.reveals

    def undo(self, seat: int | None = None) -> Action:
        """Take back one action of `seat` (default: the seat to move).

        Raises:
            IllegalActionError: (rule TABLE-2) undo is not allowed now; nothing changes.
        """
        if not self.can_undo(seat):
            raise IllegalActionError(
                "TABLE-2",
                "nothing of yours to undo: undo stops at a chance event, at anything "
                "revealed, and at another seat's decision",
            )
        self.explanations.pop(self.seq, None)
        return self.match.undo()

    # --- what a seat sees -------------------------------------------------------
    def events_for(self, viewer: int | None, since: int = 0) -> list[JSON]:
        """`viewer`'s view of the log after seq `since` (see `Match.events_for`)."""
        return self.match.events_for(viewer, since)

    def _record(self) -> None:
        m = self.match
        n = min(len(self._words), m.seq)
        while n and self._words[n - 1][0] != m.stamp(n - 1):
            n -= 1
        del self._words[n:]
        while len(self._words) < m.seq:
            i = len(self._words)
            self._words.append((m.stamp(i), event_words(m.history[i], m.log[i], m.event(i))))

    def words(self, index: int, viewer: int | None) -> tuple[str, str]:
        """`log[index]` in words as `viewer` may read it: `(subject, sentence)` (see
        `event_words`); an event `viewer` may not read whole gives its redacted sentence
        until the game is over, as `events_for` does."""
        ev = self.match.event(index)
        if not ev.visible_to(viewer) and not self.state.is_terminal():
            return "", ev.others
        self._record()
        return self._words[index][1]

    def legal_for(self, viewer: int | None) -> list[JSON]:
        """The actions open to `viewer` with their explanations; empty unless it decides."""
        state = self.state
        if viewer is None or state.current_player() != viewer:
            return []
        return [{"action": str(a), "explain": text} for a, text in state.explained_actions()]

    def view(self, viewer: int | None) -> JSON:
        """Everything `viewer` may see now, from its observation and its log only."""
        state = self.state
        envelope = state.envelope(viewer, self.seq)
        return {
            "seq": self.seq,
            "view": envelope,
            "legal": self.legal_for(viewer),
            "events": self.events_for(viewer),
            "terminal": envelope["terminal"],
            "scores": envelope["scores"],
            "undo": viewer is not None and self.can_undo(viewer),
        }

    def log_lines(self, viewer: int | None) -> list[JSON]:
        """The log as `viewer` reads it, with who decided as a name."""
        out = []
        for e in self.events_for(viewer):
            who = "chance" if e["seat"] is None else seat_name(e["seat"])
            out.append({**e, "who": who})
        return out

    # --- saving -----------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        self.match.save(path)


__all__ = [
    "STRENGTHS",
    "Bot",
    "NotYourTurn",
    "RandomBot",
    "SeatPlan",
    "Table",
    "event_words",
    "make_bot",
    "strengths_for",
]
