"""The engine contract: `Game` (a rules variant) and `State` (an immutable position).

Games subclass both and fill the underscore hooks; the public methods here hold the
policy every game shares (legality check, terminal guard, input conversion), so a
face (bot, CLI, adapter) sees the same behaviour from every game.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import zlib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Final, Literal, Self, TypeVar, cast

from mypy_extensions import mypyc_attr

from tianxia.core.actions import Action, ActionCodec
from tianxia.core.constants import CHANCE, TERMINAL
from tianxia.core.errors import IllegalActionError, NotationError, shown
from tianxia.core.events import Event, seat_name
from tianxia.core.value import FrozenStateError, StateDataError, StateMeta, json_codec

JSON = dict[str, Any]
_T = TypeVar("_T")
# How a frozen state fills its own caches. Kept in a C variable by the compiled build:
# written `object.__setattr__(...)` it looks up `object` and its method on every call.
_fill: Final = object.__setattr__


@dataclass(frozen=True)
class OptionSpec:
    """One variant option of a game.

    Args:
        name: keyword accepted by `load_game`.
        default: value when not given; may be overridden per player count by
            `Game._default_option`.
        choices: the allowed values (booleans: ``(False, True)``).
        help: one line for `tianxia games`.
        conformance: whether the conformance suite covers every choice.
    """

    name: str
    default: Any
    choices: tuple[Any, ...]
    help: str = ""
    conformance: bool = True


@dataclass(frozen=True)
class GameInfo:
    """Declared facts about one game variant (the players and options fixed)."""

    name: str
    title: str
    version: int
    min_players: int
    max_players: int
    players: int
    options: Mapping[str, Any]
    option_specs: tuple[OptionSpec, ...]
    num_distinct_actions: int
    max_chance_outcomes: int
    max_game_length: int
    chance: Literal["explicit", "deterministic"]
    information: Literal["perfect", "imperfect"]
    utility: Literal["zero_sum", "constant_sum", "general_sum"]
    min_utility: float
    max_utility: float
    extra: Mapping[str, Any] = field(default_factory=dict)


# Not native classes (compiled, their methods still are): games add attributes freely
# and register by a decorator; states are built by the metaclass from their annotations.
@mypyc_attr(native_class=False)
class Game(ABC):
    """A rules variant: fixed player count and options, static data, the action codec.

    Subclasses set the class attributes and implement `new_initial_state`,
    `state_from_json`, `_codec` and `_max_game_length`.
    """

    NAME: ClassVar[str]
    TITLE: ClassVar[str]
    VERSION: ClassVar[int] = 1
    MIN_PLAYERS: ClassVar[int]
    MAX_PLAYERS: ClassVar[int]
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = ()
    CHANCE_KIND: ClassVar[Literal["explicit", "deterministic"]] = "explicit"
    INFORMATION: ClassVar[Literal["perfect", "imperfect"]] = "imperfect"
    UTILITY: ClassVar[Literal["zero_sum", "constant_sum", "general_sum"]] = "zero_sum"
    MIN_UTILITY: ClassVar[float] = -1.0
    MAX_UTILITY: ClassVar[float] = 1.0
    # The game's rooms, bound once so a state reaches its rules without importing them
    # (states are data; rules, views and search import the state, never the reverse):
    # rules: legal_actions, chance_outcomes, apply, why_illegal, describe, event,
    #        returns, scores (each taking the state first);
    # view: observation, deciding, scores_for;
    # search: resample, heuristic, heuristics, heuristic_terms, tensor (and, optional,
    #         SEARCH_DEFAULTS, SEARCH_DEFAULTS_BY_PLAYERS, search_actions, private,
    #         read by `ismcts`, and HOOK_VERSION, raised when the evaluation hook
    #         changes, so that benchmarks keep results of different hooks apart).
    rules: ClassVar[Any] = None
    view: ClassVar[Any] = None
    search: ClassVar[Any] = None
    # Options that exist only so that games stored under an older rules version play on as
    # they were played (`options_of_version` sets them). No face offers them, the
    # conformance suite does not enumerate them, and a game's `options` (so its spec, its
    # saves and its equality) holds one only when it is set away from its default.
    LEGACY_OPTIONS: ClassVar[tuple[OptionSpec, ...]] = ()

    # `players` is typed `object` because it is checked here (a ValueError for anything
    # but a whole number in range); a compiled build would otherwise refuse a str with a
    # TypeError before the check.
    def __init__(self, players: object = None, **options: Any) -> None:
        if players is None:
            players = self.MIN_PLAYERS
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"{self.NAME}: players must be a whole number, not {shown(players)}")
        if not self.MIN_PLAYERS <= players <= self.MAX_PLAYERS:
            raise ValueError(
                f"{self.NAME} is for {self.MIN_PLAYERS}-{self.MAX_PLAYERS} players, not {players}"
            )
        self.players: int = players
        specs = {o.name: o for o in self.OPTIONS}
        legacy = {o.name: o for o in self.LEGACY_OPTIONS}
        unknown = sorted(set(options) - set(specs) - set(legacy))
        if unknown:
            known = ", ".join(specs) or "none"
            raise ValueError(f"{self.NAME} has no option {shown(unknown[0])} (options: {known})")
        chosen: dict[str, Any] = {}
        for spec in self.OPTIONS:
            value = options.get(spec.name, self._default_option(spec, players))
            value = _coerce(spec, value)
            if not _is_choice(spec, value):
                allowed = ", ".join(map(repr, spec.choices))
                raise ValueError(
                    f"{self.NAME}: option {spec.name}={shown(value)} is not one of {allowed}"
                )
            chosen[spec.name] = value
        for spec in self.LEGACY_OPTIONS:
            value = _coerce(spec, options.get(spec.name, spec.default))
            if not _is_choice(spec, value):
                allowed = ", ".join(map(repr, spec.choices))
                raise ValueError(
                    f"{self.NAME}: option {spec.name}={shown(value)} is not one of {allowed}"
                )
            if value != spec.default:
                chosen[spec.name] = value
        self._check_options(chosen)
        self.options: Mapping[str, Any] = MappingProxyType(chosen)
        self._key = (self.NAME, players, tuple(sorted(chosen.items())))
        self._codec_cache: ActionCodec | None = None
        self._info_cache: GameInfo | None = None

    @property
    def rules_version(self) -> int:
        """The rules version this variant plays: `VERSION`, or an older one that a legacy
        option named ``rules_version`` keeps for games stored under it."""
        return int(self.options.get("rules_version", self.VERSION))

    @classmethod
    def options_of_version(cls, version: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options under which this release plays a save written under rules `version`.

        A game whose rules changed maps an older version onto options that keep the old
        rules, so old saves replay as they were played. By default, a version that a
        legacy option ``rules_version`` lists is kept by that option.
        """
        out = dict(options)
        for spec in cls.LEGACY_OPTIONS:
            if spec.name == "rules_version" and version in spec.choices:
                out.setdefault("rules_version", version)
        return out

    # A game is a value named by its spec: equal specs are equal games, and pickling
    # rebuilds it from the spec (its data and caches are built again on the other side).
    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        # By type, not isinstance: the compiled build folds an isinstance against this
        # non-native class to False.
        if not issubclass(type(other), _GameBase[0]):
            return NotImplemented
        return type(self) is type(other) and self._key == cast(Game, other)._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_game, (type(self), self.players, dict(self.options)))

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self

    # --- hooks -------------------------------------------------------------
    def _default_option(self, spec: OptionSpec, players: int) -> Any:
        """The default of `spec` for this player count (the declared default unless overridden)."""
        return spec.default

    def _check_options(self, options: Mapping[str, Any]) -> None:
        """Refuse combinations of options the rules do not allow (raise ValueError)."""
        return None

    @abstractmethod
    def _codec(self) -> ActionCodec:
        """Every action and chance outcome of this variant, in a fixed documented order."""

    @abstractmethod
    def _max_game_length(self) -> int:
        """An upper bound on the number of actions (chance outcomes included) in one game."""

    def _info_extra(self) -> Mapping[str, Any]:
        return {}

    @abstractmethod
    def new_initial_state(self) -> State:
        """The position before the first action (often a chance node: shuffles and deals)."""

    def state_from_json(self, data: object) -> State:
        """Inverse of `State.to_json`: an equal state.

        Any value is accepted (compiled, an annotation narrower than `object` would
        refuse ill-typed data with a bare TypeError before this body could say why).

        Raises:
            StateDataError: (a ValueError) data that does not describe a state of this
                variant; the message names the first field at fault.
        """
        cls = type(self.new_initial_state())
        return cls.from_json(self, data)

    # --- public API ----------------------------------------------------------
    @property
    def codec(self) -> ActionCodec:
        if self._codec_cache is None:
            self._codec_cache = self._codec()
        return self._codec_cache

    @property
    def info(self) -> GameInfo:
        if self._info_cache is None:
            codec = self.codec
            self._info_cache = GameInfo(
                name=self.NAME,
                title=self.TITLE,
                version=self.rules_version,
                min_players=self.MIN_PLAYERS,
                max_players=self.MAX_PLAYERS,
                players=self.players,
                options=self.options,
                option_specs=self.OPTIONS,
                num_distinct_actions=codec.num_actions,
                max_chance_outcomes=codec.num_outcomes,
                max_game_length=self._max_game_length(),
                chance=self.CHANCE_KIND,
                information=self.INFORMATION,
                utility=self.UTILITY,
                min_utility=self.MIN_UTILITY,
                max_utility=self.MAX_UTILITY,
                extra=MappingProxyType(dict(self._info_extra())),
            )
        return self._info_cache

    def action_id(self, action: Action) -> int:
        """The stable integer of `action`; chance outcomes follow the player actions."""
        return self.codec.encode(action)

    def action_from_id(self, i: object) -> Action:
        """Inverse of `action_id`; a `NotationError` for anything but an id in range."""
        return self.codec.decode(i)

    def parse_action_text(self, text: object) -> Action:
        """The action written `text` in this game's notation (NotationError if none)."""
        if not isinstance(text, str):
            raise NotationError(shown(text), "notation must be a string")
        return self.codec.parse(text)

    def layout(self) -> JSON:
        """The printed, unchanging parts a renderer needs to draw the board (map
        coordinates, borders, the track, card texts), as JSON-able data.

        Public by nature and the same in every state, so it is not repeated in each
        observation. Empty unless the game fills it.
        """
        return {}

    def observation_tensor_size(self) -> int:
        """Length of `State.observation_tensor`."""
        return 1024

    def spec(self) -> JSON:
        """What `load_game` needs to build this variant again."""
        return {"game": self.NAME, "players": self.players, "options": dict(self.options)}

    @classmethod
    def option_sets(cls, players: int) -> list[dict[str, Any]]:
        """Every combination of the options the conformance suite covers."""
        specs = [o for o in cls.OPTIONS if o.conformance]
        combos = itertools.product(*(o.choices for o in specs))
        return [dict(zip([o.name for o in specs], c)) for c in combos]

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"load_game({self.NAME!r}, players={self.players}{opts})"


# Looked up at run time (a compiled isinstance against `Game` itself is always False).
_GameBase: tuple[type, ...] = (Game,)


def _rebuild_game(cls: type[Game], players: int, options: dict[str, Any]) -> Game:
    return cls(players, **options)


def _coerce(spec: OptionSpec, value: Any) -> Any:
    """Accept command-line text for an option ('on', '3', 'true') as its typed value."""
    if not isinstance(value, str):
        return value
    kinds = {type(c) for c in spec.choices}
    if kinds == {bool}:
        low = value.strip().lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
    elif kinds == {int}:
        try:
            return int(value)
        except ValueError:
            return value
    elif kinds == {float}:
        try:
            return float(value)
        except ValueError:
            return value
    return value


def _is_choice(spec: OptionSpec, value: Any) -> bool:
    """Whether `value` is one of the option's choices, of the same type: True is not 1."""
    try:
        return any(type(value) is type(c) and value == c for c in spec.choices)
    except (TypeError, ValueError):
        return False


def hashed_features(obs: Any, size: int) -> list[float]:
    """A fixed-length vector from nested JSON data (the hashing trick, with crc32)."""
    vec = [0.0] * size
    stack: list[tuple[str, Any]] = [("", obs)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            stack.extend((f"{path}/{k}", v) for k, v in value.items())
        elif isinstance(value, list | tuple):
            stack.extend((f"{path}/{i}", v) for i, v in enumerate(value))
        elif isinstance(value, int | float):
            vec[zlib.crc32(path.encode()) % size] += float(value)
        elif value is not None:
            vec[zlib.crc32(f"{path}={value}".encode()) % size] += 1.0
    return vec


@mypyc_attr(native_class=False)
class State(metaclass=StateMeta):
    """An immutable position. `apply` returns a new state; the old one stays valid.

    A game's state class declares its fields as annotations and nothing else of its
    layout; the base (`tianxia.core.value`) makes it a frozen, slotted value with
    `make`, `draft`/`freeze`, `replace`, `to_json`/`from_json`, equality, hashing and
    pickling derived from the fields. Rules build a successor in a draft:

        t = s.draft()          # a mutable copy
        t.seat = 1
        return t.freeze()      # the draft becomes the frozen successor

    A game's rules room answers `current_player`, `legal_actions`, `chance_outcomes`,
    `apply` (pure), `returns`, `scores`, `event` (what an action tells each seat); a state
    class without rules (a test's toy game) implements `current_player`, `_legal_actions`
    and `_apply` itself.
    """

    __slots__ = ("_chances", "_hash", "_legal", "_player", "game")
    _hash: int | None

    # Filled in per value class by the metaclass.
    FIELDS: ClassVar[tuple[str, ...]] = ()
    CACHES: ClassVar[tuple[str, ...]] = ()
    SAVED_FIELDS: ClassVar[tuple[str, ...]] = ()
    DERIVED: ClassVar[tuple[str, ...]] = ()

    def __init__(self, game: Game) -> None:
        self.game = game
        self._legal: tuple[Action, ...] | None = None
        self._player: int | None = None
        self._chances: tuple[tuple[Action, float], ...] | None = None

    # --- the value ------------------------------------------------------------
    @classmethod
    def make(cls, game: Game, **fields: Any) -> Self:
        """A frozen state from every declared field (derived fields are computed)."""
        d = cls.new_draft(game, **fields)
        if cls.DERIVED:
            for f, v in d.derive().items():
                setattr(d, f, v)
        frozen: Self = d.freeze()
        return frozen

    @classmethod
    def new_draft(cls, game: Game, **fields: Any) -> Self:
        """A draft from every saved field, derived fields left unset: for building a
        position step by step with the rules' own functions, then `freeze()`."""
        missing = [f for f in cls.SAVED_FIELDS if f not in fields]
        extra = sorted(set(fields) - set(cls.FIELDS))
        if missing or extra:
            what = f"missing {missing[0]!r}" if missing else f"no field {extra[0]!r}"
            raise TypeError(f"{cls.__name__}: {what}")
        d: Self = object.__new__(cls.Draft)  # type: ignore[attr-defined]
        d.game = game
        d._legal = None
        d._player = None
        d._chances = None
        d._hash = None
        for c in cls.CACHES:
            setattr(d, c, None)
        for f in cls.FIELDS:
            setattr(d, f, fields.get(f))
        return d

    def draft(self) -> Self:
        """A mutable copy of this state to build a successor in; `freeze()` ends it."""
        raise TypeError(f"{type(self).__name__} declares no state fields")

    def freeze(self) -> Self:
        """On a draft: turn it into the frozen state it describes and return it."""
        raise TypeError("only a draft can be frozen")

    def replace(self, **changes: Any) -> Self:
        """A frozen copy with `changes` made (derived fields are recomputed)."""
        unknown = sorted(set(changes) - set(self.FIELDS))
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {unknown[0]!r}")
        d = self.draft()
        for f, v in changes.items():
            setattr(d, f, v)
        if self.DERIVED:
            for f, v in d.derive().items():
                setattr(d, f, v)
        return d.freeze()

    def derive(self) -> dict[str, Any]:
        """The derived fields (`DERIVED`) computed from the saved ones."""
        return {}

    def validate(self) -> None:
        """Raise `StateDataError` when loaded fields contradict each other or the rules.

        Called on loaded data before `derive`; it must not read derived fields.
        """
        return None

    def to_json(self) -> JSON:
        """The full state as JSON-able data; `Game.state_from_json` inverts it."""
        return {f: enc(getattr(self, f)) for f, enc, _ in json_codec(type(self))}

    @classmethod
    def from_json(cls, game: Game, data: Any) -> Self:
        """The state `data` describes, every value checked against its field's type.

        Raises:
            StateDataError: (a ValueError) naming the first field at fault.
        """
        if not isinstance(data, dict):
            raise StateDataError(f"{cls.__name__}: expected an object of fields")
        codec = json_codec(cls)
        names = [f for f, _, _ in codec]
        missing = [f for f in names if f not in data]
        extra = sorted(set(data) - set(names))
        if missing:
            raise StateDataError(f"{missing[0]}: missing")
        if extra:
            raise StateDataError(f"{extra[0]}: no such field in {game.NAME}")
        d = cls.new_draft(game, **{f: dec(data[f], game, f) for f, _, dec in codec})
        # Checked before anything is derived from the values, so rules never read them raw.
        try:
            d.validate()
        except StateDataError:
            raise
        except ValueError as e:
            # A game's own check may raise a plain ValueError; callers are promised one kind.
            raise StateDataError(f"{cls.__name__}: {e}") from None
        try:
            if cls.DERIVED:
                for f, v in d.derive().items():
                    setattr(d, f, v)
        except (TypeError, ValueError, IndexError, KeyError, AttributeError) as e:
            raise StateDataError(f"{cls.__name__}: {e}") from None
        state: Self = d.freeze()
        return state

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f) for f in self.SAVED_FIELDS)

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _rebuild_state,
            (type(self), self.game, tuple(getattr(self, f) for f in self.FIELDS)),
        )

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self

    # --- hooks: a game binds its rooms on the Game (rules, view, search) ----------
    def current_player(self) -> int:
        """A seat index, `CHANCE` or `TERMINAL`.

        A value class's own ``current_player`` is moved to `_current_player` by the
        metaclass and this one runs it once per state: the engine and the loops around
        it ask two to four times a step (`is_terminal`, `legal_actions`, the loop's own
        question), and a frozen state's answer never changes.
        """
        p = self._player
        if p is None:
            p = self._current_player()
            _fill(self, "_player", p)
        return p

    def _current_player(self) -> int:
        """The game's answer: a value class's own `current_player` (renamed by the
        metaclass), or else its rules' `current_player(state)`, compiled."""
        result: int = self.game.rules.current_player(self)
        return result

    def _legal_actions(self) -> Sequence[Action]:
        """Legal player actions at a player node, in codec order."""
        result: Sequence[Action] = self.game.rules.legal_actions(self)
        return result

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """`(outcome, probability)` pairs at a chance node, in a fixed order."""
        chances = self._chances
        if chances is None:
            rules = self.game.rules
            if rules is None or _mover(self) != CHANCE:
                raise IllegalActionError("ENGINE-3", "this is not a chance node")
            # Kept for the state (the draw and the legality check of the outcome drawn
            # each ask for them), handed out as a fresh list each time.
            chances = tuple(rules.chance_outcomes(self))
            _fill(self, "_chances", chances)
        return list(chances)

    def _apply(self, action: Action) -> State:
        """The successor state; `action` is known to be legal. Must not change `self`."""
        result: State = self.game.rules.apply(self, action)
        return result

    def _why_illegal(self, action: Action) -> tuple[str, str]:
        """`(rule, reason)` for an action that is not legal now. Games name their rule."""
        rules = self.game.rules
        if rules is not None:
            result: tuple[str, str] = rules.why_illegal(self, action)
            return result
        return ("ENGINE-2", f"{action} is not one of the actions open now")

    def _describe(self, action: Action) -> str:
        """What a legal action does, in one sentence."""
        rules = self.game.rules
        return str(rules.describe(self, action)) if rules is not None else f"{action} is legal"

    def returns(self) -> list[float]:
        """Utilities per seat (final at terminal states; zeros before)."""
        result: list[float] = self.game.rules.returns(self)
        return result

    def scores(self) -> list[float]:
        """The game's own points per seat, as they stand."""
        result: list[float] = self.game.rules.scores(self)
        return result

    def observation(self, seat: object) -> JSON:
        """The JSON-able view of `seat` (None: a spectator).

        Raises:
            ValueError: for a seat outside ``0..players-1``.
        """
        self._check_seat(seat)
        result: JSON = self.game.view.observation(self, seat)
        return result

    def _check_seat(self, seat: Any) -> None:
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.game.players
        ):
            raise ValueError(f"no seat {shown(seat)} in a {self.game.players}-player game")

    def resample_from_infostate(self, seat: object, rng: random.Random) -> State:
        """A full state consistent with all `seat` has seen. Perfect information: itself."""
        if seat is None:
            raise ValueError("a spectator has no information state to resample from")
        self._check_seat(seat)
        search = self.game.search
        if search is None:
            return self
        result: State = search.resample(self, seat, rng)
        return result

    def observation_tensor(self, seat: object) -> list[float]:
        """The observation as a fixed-length vector of `Game.observation_tensor_size()`.

        The default hashes every leaf of `observation(seat)` (its path, and its value if
        the value is text) into a bucket: exact for numbers and flags, lossy only where
        two leaves share a bucket. Games may override it with a hand-made encoding.
        """
        self._check_seat(seat)
        search = self.game.search
        if search is not None:
            result: list[float] = search.tensor(self, seat)
            return result
        return hashed_features(self.observation(seat), self.game.observation_tensor_size())

    def heuristic(self, seat: int) -> float:
        """An estimate in [-1, 1] of `seat`'s final return, for bots to cut rollouts short.

        The default compares the game's own scores; a game's search room gives better ones.
        """
        search = self.game.search
        if search is not None:
            return float(search.heuristic(self, seat))
        s = self.scores()
        n = len(s)
        if n < 2:
            return 0.0
        mine = s[seat]
        best_other = max(v for i, v in enumerate(s) if i != seat)
        scale = max(1.0, sum(abs(v) for v in s) / n)
        return math.tanh((mine - best_other) / scale)

    def heuristics(self) -> list[float]:
        """`heuristic` of every seat at once; games whose terms are shared override it."""
        search = self.game.search
        if search is not None:
            return list(search.heuristics(self))
        return [self.heuristic(seat) for seat in range(self.game.players)]

    def heuristic_terms(self, seat: int) -> dict[str, float]:
        """The main terms of `heuristic`, by name, for a bot's explanation."""
        search = self.game.search
        if search is not None:
            return dict(search.heuristic_terms(self, seat))
        return {"score": float(self.scores()[seat])}

    # --- public API ----------------------------------------------------------
    def legal_actions(self) -> tuple[Action, ...]:
        """Actions open now: player actions, or the chance outcomes at a chance node.

        Empty exactly when the state is terminal.
        """
        legal = self._legal
        if legal is None:
            p = _mover(self)
            if p == TERMINAL:
                legal = ()
            elif p == CHANCE:
                outcomes: Sequence[tuple[Action, float]] | None = self._chances
                if outcomes is None:
                    outcomes = self.chance_outcomes()
                legal = tuple([a for a, _ in outcomes])
            else:
                legal = tuple(self._legal_actions())
            _fill(self, "_legal", legal)
        return legal

    def forget_legal(self) -> None:
        """Drop the cached legal actions (recomputed if asked again).

        A long game's history keeps every state; their action lists are most of what a
        live game holds and what the garbage collector has to walk.
        """
        _fill(self, "_legal", None)

    def is_terminal(self) -> bool:
        return _mover(self) == TERMINAL

    def is_chance_node(self) -> bool:
        return _mover(self) == CHANCE

    def to_action(self, action: object) -> Action:
        """Accept an action, its notation, or its id; `NotationError` for any other value."""
        if isinstance(action, Action):
            return action
        if isinstance(action, str):
            return self.parse_action(action)
        if isinstance(action, int) and not isinstance(action, bool):
            return self.game.action_from_id(action)
        raise NotationError(shown(action), "an action, its notation or its id is needed")

    def check(self, action: object) -> Action:
        """The legal action equal to `action` (its canonical value); `IllegalActionError`
        naming the rule unless `action` is legal now."""
        chances = self._chances
        if chances is not None and self._legal is None:
            # A chance outcome just drawn by `sample_chance` (every playout and search):
            # found among the outcomes without building the legal-action tuple.
            for known, _ in chances:
                if known is action:
                    return known
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        # An action taken from `legal_actions()` (what bots and playouts pass) is found
        # by identity, without calling its dataclass __eq__ on the actions before it.
        for known in legal:
            if known is action:
                return known
        if self.is_terminal():
            raise IllegalActionError("ENGINE-1", "the game is over; no action can be taken", action)
        try:
            return legal[legal.index(action)]
        except ValueError:
            pass
        if not self.game.codec.knows(action):
            # An action object built by hand with a field of the wrong type or out of range
            # (Take(999), Bid("100")): refused here, before any rule reads its fields.
            raise IllegalActionError(
                "ENGINE-4", f"{shown(action)} is not an action of {self.game.NAME}", action
            )
        if self.is_chance_node():
            raise IllegalActionError(
                "ENGINE-3", f"chance decides now, and {action} is not one of its outcomes", action
            )
        rule, reason = self._why_illegal(cast(Action, action))
        raise IllegalActionError(rule, reason, action)

    def apply(self, action: object) -> State:
        """The state after `action`; raises `IllegalActionError` (naming the rule) if illegal.

        `self` is left unchanged either way.
        """
        a = action if isinstance(action, Action) else self.to_action(action)
        return self._apply(self.check(a))

    def apply_unchecked(self, action: Action) -> State:
        """`apply` without the legality check, for search over actions already known legal."""
        return self._apply(action)

    def parse_action(self, text: object) -> Action:
        """The action written `text`; `str(action)` is the inverse."""
        return self.game.parse_action_text(text)

    def explain(self, action: object) -> str:
        """Why `action` is or is not legal now, in one sentence."""
        try:
            a = self.to_action(action)
            self.check(a)
        except (IllegalActionError, NotationError, ValueError) as e:
            return f"illegal: {e}"
        return f"legal: {self._describe(a)}"

    def explained_actions(self) -> list[tuple[Action, str]]:
        """Every legal action with its `explain` text, each known legal without a check."""
        return [(a, f"legal: {self._describe(a)}") for a in self.legal_actions()]

    def observation_string(self, seat: object) -> str:
        """The observation as canonical JSON text (a key for information sets)."""
        return json.dumps(self.observation(seat), sort_keys=True, separators=(",", ":"))

    def __eq__(self, other: object) -> bool:
        # Value classes get a generated field-by-field comparison instead.
        if self is other:
            return True
        if type(self) is not type(other):
            return NotImplemented
        same = cast(State, other)  # the same type (see Game.__eq__ on isinstance)
        return self.game == same.game and self.to_json() == same.to_json()

    def __hash__(self) -> int:
        h = getattr(self, "_hash", None)
        if h is None:
            if self.FIELDS:
                h = hash((type(self).__name__, self.game._key, self._values()))
            else:
                h = hash(json.dumps(self.to_json(), sort_keys=True))
            _fill(self, "_hash", h)
        return h

    # --- what the table sees --------------------------------------------------
    def event(self, action: Action, after: State) -> Event:
        """What applying `action` here (giving `after`) tells each seat.

        Games declare this; the default is safe, not precise: a player's action is
        public (it changed a public position), a chance outcome of a game with hidden
        information is told to nobody.
        """
        rules = self.game.rules
        if rules is not None:
            result: Event = rules.event(self, action, after)
            return result
        p = self.current_player()
        if p == CHANCE:
            if self.game.INFORMATION == "perfect":
                return Event.public(f"chance: {action}", reveals=True)
            return Event("chance: " + str(action), frozenset(), "chance acts", True)
        return Event.public(f"{seat_name(p)}: {action}")

    def deciding(self) -> str:
        """What the seat to move decides now, in a word or two (the envelope's `deciding`)."""
        if self.is_terminal():
            return "over"
        if self.is_chance_node():
            return "chance"
        view = self.game.view
        if view is not None and hasattr(view, "deciding"):
            return str(view.deciding(self))
        return "move"

    def scores_for(self, seat: int | None) -> list[float | None]:
        """The scores `seat` may see (None where a seat's score is hidden from it)."""
        view = self.game.view
        if view is not None and hasattr(view, "scores_for"):
            return list(view.scores_for(self, seat))
        return list(self.scores())

    def envelope(self, seat: object, seq: int | None = None) -> JSON:
        """The observation of `seat` in the envelope every game shares.

        Keys: game, rules_version, seq, seat, to_move (a seat, "chance", or None at the
        end), deciding, terminal, scores (as `seat` may see them) and body (the game's
        own `observation(seat)`, its keys unchanged).
        """
        self._check_seat(seat)
        p = self.current_player()
        to_move: int | str | None = "chance" if p == CHANCE else None if p == TERMINAL else p
        return {
            "game": self.game.NAME,
            "rules_version": self.game.rules_version,
            "seq": seq,
            "seat": seat,
            "to_move": to_move,
            "deciding": self.deciding(),
            "terminal": p == TERMINAL,
            "scores": self.scores_for(cast(int | None, seat)),
            "body": self.observation(seat),
        }

    def __str__(self) -> str:
        return json.dumps(self.observation(None), sort_keys=True, indent=1)


def _rebuild_state(cls: type[State], game: Game, values: tuple[Any, ...]) -> State:
    state: State = cls.new_draft(game, **dict(zip(cls.FIELDS, values))).freeze()
    return state


# Chance is drawn once or twice per step of every playout and search, so the draw lives
# in this compiled module (`tianxia.core.match` re-exports it).
def choose_outcome(outcomes: Sequence[tuple[_T, float]], rng: random.Random) -> _T:
    """One of `outcomes` (value, probability), drawn from `rng` by the probabilities."""
    r = rng.random()
    acc = 0.0
    for a, p in outcomes:
        acc += p
        if r < acc:
            return a
    return outcomes[-1][0]


def _mover(s: State) -> int:
    """`s.current_player()`, read from the state's kept answer when it has one: a compiled
    call of a method of an interpreted class goes the generic way, which costs more than
    the answer."""
    p = s._player
    return s.current_player() if p is None else p


def sample_chance(state: State, rng: random.Random) -> Action:
    """One outcome of the chance node `state`, drawn from `rng` by its probabilities."""
    chances = state._chances
    if chances is None:
        # Fills the state's cache (or refuses a state that is not a chance node).
        return choose_outcome(state.chance_outcomes(), rng)
    return choose_outcome(chances, rng)


__all__ = [
    "JSON",
    "Event",
    "FrozenStateError",
    "Game",
    "GameInfo",
    "OptionSpec",
    "State",
    "StateDataError",
]
