"""The mutable holder of one game: current state, action log, seeded chance stream."""

from __future__ import annotations

import json
import random
from array import array
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar, overload

from tianxia.core.actions import Action
from tianxia.core.constants import CHANCE
from tianxia.core.errors import IllegalActionError, NotationError, shown
from tianxia.core.events import Event
from tianxia.core.game import JSON, Game, State
from tianxia.core.game import choose_outcome as choose_outcome
from tianxia.core.game import sample_chance as sample_chance

# 1: variant, seed and log; 2 adds the chance stream's exact state ("rng").
SAVE_FORMAT = 2
_S = TypeVar("_S", bound=State)

# What a match in memory keeps of its past: a state every CHECKPOINT_EVERY actions and the
# last RECENT_STATES (what undo takes back to); any other is rebuilt from the checkpoint
# before it, at most CHECKPOINT_EVERY - 1 actions replayed. A finished 4-seat Mandarin game
# (3,700 actions) kept every state: 5 MB; see benchmarks/server/RESULTS.md.
CHECKPOINT_EVERY = 64
RECENT_STATES = 16


class History(Sequence[State]):
    """The states a match went through: `history[0]` the initial one, `history[-1]` the
    current one, `history[i + 1]` the state after `log[i]`.

    It keeps only a state every `CHECKPOINT_EVERY` actions and the last `RECENT_STATES`;
    any other state is rebuilt by replaying the log from the checkpoint before it, and
    the last one rebuilt is kept, so that reading the states in order costs one action
    each. A rebuilt state equals the one the match went through (the log determines
    it), but is not the same object.
    """

    __slots__ = ("_cursor", "_cursor_at", "_length", "_log", "_marks", "_recent")

    def __init__(self, initial: State, log: list[Action]) -> None:
        self._log = log
        self._marks: list[State] = [initial]
        self._recent: list[State] = [initial]
        self._length = 1
        self._cursor: State | None = None
        self._cursor_at = -1

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> State: ...
    @overload
    def __getitem__(self, index: slice) -> list[State]: ...
    def __getitem__(self, index: int | slice) -> State | list[State]:
        if isinstance(index, slice):
            return [self._at(i) for i in range(*index.indices(self._length))]
        i = index + self._length if index < 0 else index
        if not 0 <= i < self._length:
            raise IndexError(f"no state {index} in a history of {self._length}")
        return self._at(i)

    def __iter__(self) -> Iterator[State]:
        for i in range(self._length):
            yield self._at(i)

    def _at(self, i: int) -> State:
        first_recent = self._length - len(self._recent)
        if i >= first_recent:
            return self._recent[i - first_recent]
        if i == self._cursor_at and self._cursor is not None:
            return self._cursor
        k, rest = divmod(i, CHECKPOINT_EVERY)
        if rest == 0:
            return self._marks[k]
        start, state = k * CHECKPOINT_EVERY, self._marks[k]
        if self._cursor is not None and start < self._cursor_at < i:
            start, state = self._cursor_at, self._cursor
        log = self._log
        for j in range(start, i):
            state = state.apply_unchecked(log[j])
        self._cursor, self._cursor_at = state, i
        return state

    def append(self, state: State) -> None:
        """Record the state after the log's newest action."""
        if self._length % CHECKPOINT_EVERY == 0:
            self._marks.append(state)
        self._recent.append(state)
        if len(self._recent) > RECENT_STATES:
            del self._recent[0]
        self._length += 1

    def pop(self) -> State:
        """Forget the current state (the log's newest action is being taken back); the
        state before it is `self[-1]` again, rebuilt when it was no longer kept."""
        if self._length < 2:
            raise IndexError("the initial state is never taken back")
        gone = self._recent.pop()
        self._length -= 1
        if self._length % CHECKPOINT_EVERY == 0:
            self._marks.pop()
        if self._cursor_at >= self._length:
            self._cursor, self._cursor_at = None, -1
        if not self._recent:
            self._recent.append(self._at(self._length - 1))
        return gone


class Match:
    """One game in progress.

    Args:
        game: the variant.
        seed: seeds the chance stream; the same seed and the same player actions give
            the same log.

    Attributes:
        state: the current state.
        log: every action applied so far, chance outcomes included.
        history: the states, `history[0]` the initial one, `history[-1] is state`
            (a `History`: the older states are rebuilt from the log when read).
    """

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)
        self.state: State = game.new_initial_state()
        self.log: list[Action] = []
        self.history = History(self.state, self.log)
        self._events: list[Event] = []
        # Who decided each action, and a number naming each action as applied (another
        # action applied at the same index after an undo gets another number).
        self._movers = array("b")
        self._stamps = array("q")
        self._applied = 0

    @property
    def seq(self) -> int:
        """How many actions (chance outcomes included) have been applied."""
        return len(self.log)

    def play(self, action: object) -> State:
        """Apply `action` (or its notation or id) for whoever is to act; returns the new state."""
        a = self.state.check(self.state.to_action(action))
        new = self.state.apply_unchecked(a)
        self._movers.append(self.state.current_player())
        self._applied += 1
        self._stamps.append(self._applied)
        self.log.append(a)
        self.history.append(new)
        self.state.forget_legal()
        self.state = new
        return new

    def resolve_chance(self) -> list[Action]:
        """Sample and apply chance outcomes until a player (or the end) is to act."""
        drawn: list[Action] = []
        while self.state.current_player() == CHANCE:
            a = sample_chance(self.state, self.rng)
            self.play(a)
            drawn.append(a)
        return drawn

    def undo(self) -> Action:
        """Take back the last action; returns it. The chance stream is not rewound."""
        if not self.log:
            raise ValueError("nothing to undo")
        del self._events[len(self.log) - 1 :]
        self._movers.pop()
        self._stamps.pop()
        # The log still holds the action while the history may rebuild the state before it.
        self.history.pop()
        self.state = self.history[-1]
        return self.log.pop()

    def seat_of(self, index: int) -> int:
        """Who took action `log[index]` (`CHANCE` for chance outcomes)."""
        if not -len(self._movers) <= index < len(self._movers):
            raise IndexError(f"no action {index} in a log of {len(self._movers)}")
        return self._movers[index]

    def stamp(self, index: int) -> int:
        """A number naming `log[index]` as it was applied: an action applied at that index
        after an undo has another, so a record kept beside a step can tell it still holds."""
        return self._stamps[index]

    # --- events: the log as each seat may read it ------------------------------
    def event(self, index: int) -> Event:
        """The event of `log[index]`, as the game's rules declare it."""
        while len(self._events) <= index:
            i = len(self._events)
            self._events.append(self.history[i].event(self.log[i], self.history[i + 1]))
        return self._events[index]

    def events_for(self, seat: int | None, since: int = 0) -> list[JSON]:
        """`seat`'s view of the log (None: a spectator), from seq `since` + 1 on.

        Each event is ``{"seq", "seat", "text", "action"}``: seq counts from 1, seat is
        who decided (None for chance), text the sentence as `seat` may read it, action
        the notation, or None where `seat` may not know it. Once the game is over, every
        event is shown whole to everyone.
        """
        self.state._check_seat(seat)
        over = self.state.is_terminal()
        out: list[JSON] = []
        for i in range(max(0, since), len(self.log)):
            ev = self.event(i)
            who = self.seat_of(i)
            decider = None if who == CHANCE else who
            if over:
                out.append(
                    {"seq": i + 1, "seat": decider, "text": ev.text, "action": str(self.log[i])}
                )
            else:
                out.append(ev.to_json(i + 1, decider, str(self.log[i]), seat))
        return out

    # --- saving -----------------------------------------------------------------
    def to_json(self) -> JSON:
        """A saved game: the variant, the seed, the chance stream and the log."""
        version, internal, gauss = self.rng.getstate()
        return {
            "format": SAVE_FORMAT,
            **self.game.spec(),
            "rules_version": self.game.rules_version,
            "seed": self.seed,
            "log": [str(a) for a in self.log],
            "ids": [self.game.action_id(a) for a in self.log],
            "rng": [version, list(internal), gauss],
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: Any) -> Match:
        """Rebuild a saved match by replaying its log.

        Where a save has both ids and notation, they must name the same actions. A save
        of an older `rules_version` than the game's `VERSION` is replayed by its notation
        alone, since a rule change may shift the ids; if the notation no longer replays,
        the save is refused with the rules versions and the first entry that fails. The
        chance stream continues exactly where it stood (format 2); a format-1 save
        continues it as a fresh run would, by drawing once per chance outcome.

        Raises:
            ValueError: a save that is not an object of the expected fields, names an
                unknown game or variant, or whose log is unreadable, illegal, or
                disagrees with itself; the message says which entry.
        """
        from tianxia.core.registry import game_class, load_game

        if not isinstance(data, dict):
            raise ValueError("a saved game is a JSON object")
        for key in ("game", "players"):
            if key not in data:
                raise ValueError(f"a saved game names its {key!r}; this one does not")
        players = data["players"]
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"a saved game's players is a whole number, not {shown(players)}")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise ValueError("a saved game's 'options' is an object")
        seed = data.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"a saved game's seed is a whole number, not {shown(seed)}")
        version = data.get("rules_version")
        if isinstance(version, int) and not isinstance(version, bool):
            options = game_class(data["game"]).options_of_version(version, options)
        game = load_game(data["game"], players=players, **options)
        version = data.get("rules_version", game.VERSION)
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise ValueError(
                f"a saved game's rules_version is a whole number, not {shown(version)}"
            )
        if version > game.VERSION:
            raise ValueError(
                f"the save was written under rules version {version} of {game.NAME}, "
                f"newer than this Tianxia's {game.VERSION}"
            )
        m = cls(game, seed=seed)
        ids: list[Any] = data.get("ids") or []
        notes: list[Any] = data.get("log") or []
        if not isinstance(ids, list) or not isinstance(notes, list):
            raise ValueError("a saved game's 'ids' and 'log' are lists")
        if ids and notes and len(ids) != len(notes):
            raise ValueError(f"the save's ids ({len(ids)}) and log ({len(notes)}) differ in length")
        older = version < game.rules_version
        if older:
            # A rule change may add or remove actions, which moves the ids of the others;
            # the notation names each action by what it does, so it is what carries over.
            if ids and not notes:
                raise ValueError(
                    f"the save was written under rules version {version} of {game.NAME}, "
                    f"now {game.VERSION}; its ids no longer name the same actions and it "
                    "has no notation ('log') to replay instead"
                )
            ids = []
        for i, entry in enumerate(ids or notes):
            try:
                if older and not isinstance(entry, str):
                    raise NotationError(
                        shown(entry), "an older save replays by notation, text only"
                    )
                a = m.state.to_action(entry)
                if ids and notes and str(a) != notes[i]:
                    raise ValueError(
                        f"entry {i + 1}: id {shown(entry)} is {a}, but the log says {shown(notes[i])}"
                    )
                m.play(a)
            except (IllegalActionError, NotationError) as e:
                if older:
                    raise ValueError(
                        f"the save was written under rules version {version} of {game.NAME} "
                        f"and its notation no longer replays under version {game.VERSION}: "
                        f"entry {i + 1} ({shown(entry)}): {e}"
                    ) from None
                raise ValueError(f"entry {i + 1} of the save ({shown(entry)}): {e}") from None
        rng = data.get("rng")
        if rng is not None:
            try:
                m.rng.setstate((rng[0], tuple(rng[1]), rng[2]))
            except (TypeError, ValueError, IndexError, KeyError) as e:
                raise ValueError(f"the save's chance stream is unreadable: {e}") from None
        else:
            for i in range(len(m.log)):
                if m.seat_of(i) == CHANCE:
                    m.rng.random()
        return m

    @classmethod
    def load(cls, path: str | Path) -> Match:
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))


def apply_all(state: _S, *actions: Action | str | int) -> _S:
    """`state` after `actions` (notation, ids or actions; chance outcomes too), each checked."""
    for a in actions:
        nxt = state.apply(a)
        assert type(nxt) is type(state)
        state = nxt
    return state


def replay(game: Game, log: Iterable[Action | str | int]) -> State:
    """The state reached by applying `log` from the initial state; each step is checked."""
    state = game.new_initial_state()
    for entry in log:
        state = state.apply(entry)
    return state
