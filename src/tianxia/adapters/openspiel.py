"""Every Tianxia game as an OpenSpiel python game.

>>> from tianxia.adapters import openspiel
>>> names = openspiel.register()          # ['tianxia_china', ...]
>>> import pyspiel
>>> game = pyspiel.load_game("tianxia_greatwall(players=3)")  # doctest: +SKIP

Mapping, for a variant with ``n = num_distinct_actions``:

- player actions keep their engine ids ``0 .. n-1``; chance outcome ``k`` of OpenSpiel is
  the engine id ``n + k``;
- parameters: ``players`` and every option of the game. An option whose default depends
  on the player count is a text parameter whose default ``"default"`` means "the game's
  default for this player count"; any other text is read as the engine reads command-line
  text (``"on"``, ``"3"``);
- `register` puts `load_game` in place of ``pyspiel.load_game``. For a Tianxia game it
  reads the game string and checks every parameter in Python, so a bad one raises a
  `ValueError` that names it and its allowed values, then hands pyspiel the parameters as
  a typed dict. pyspiel's own string parser reads any text of digits and signs as a whole
  number and stops at a bare ``CHECK_TRUE`` when it is not one, so ``board=4-5`` could
  not be written in a game string at all otherwise. Other games go to pyspiel unchanged;
- observation string: the engine's canonical JSON observation of the seat; observation
  tensor: the adapters' one encoding (`tianxia.adapters.encoding`), seats relative to the
  observer. A public observer (``private_info=NONE``) sees the spectator's view, seats
  absolute;
- information state string (perfect recall): ``recall=`` and a 128-bit digest that chains
  every observation the seat has received, the current one last (consecutive repeats
  folded, since the seat cannot tell them apart), and every action it took. Computed
  once per state and seat and kept, it stays short however long the game and however
  large the observation, which search trees, asking for it at every node, need;
- information state tensor: the observation tensor followed by how many times the seat
  has taken each action: fixed length, so lossy about order;
- `resample_from_infostate`: the engine's, with the seat's recall copied over; the other
  seats' recall in a resampled world starts from their current view (it has no past).

Search these games with OpenSpiel's Python algorithms (``open_spiel.python.algorithms``
``mcts`` and ``ismcts``): the C++ ``pyspiel.MCTSBot`` and ``pyspiel.ISMCTSBot`` end the
process with a segmentation fault at their first step on every Tianxia game, as on
OpenSpiel's own Python games (pyspiel 2.0.2).
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import orjson
import pyspiel

import tianxia
from tianxia.adapters.encoding import encoding
from tianxia.core import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    NotationError,
    State,
    sample_chance,
)

PREFIX = "tianxia_"
DEFAULT = "default"

_CHANCE_MODE = {
    "explicit": pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    "deterministic": pyspiel.GameType.ChanceMode.DETERMINISTIC,
}
_INFORMATION = {
    "perfect": pyspiel.GameType.Information.PERFECT_INFORMATION,
    "imperfect": pyspiel.GameType.Information.IMPERFECT_INFORMATION,
}
_UTILITY = {
    "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
    "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM,
    "general_sum": pyspiel.GameType.Utility.GENERAL_SUM,
}


def short_name(name: str) -> str:
    """The OpenSpiel name of Tianxia game `name`."""
    return PREFIX + name


def register(names: Sequence[str] | None = None) -> list[str]:
    """Register games (default: every one of `tianxia.list_games()`) with pyspiel.

    Calling it again is harmless: names already registered are left as they are.

    Returns:
        The OpenSpiel short names, in the order of `names`.

    Raises:
        ValueError: a name that is not a Tianxia game.
    """
    chosen = list(tianxia.list_games() if names is None else names)
    known = set(pyspiel.registered_names())
    out = []
    for name in chosen:
        short = short_name(name)
        if short not in known:
            game_type = _game_type(name)
            cls = type(f"SpielGame_{name}", (SpielGame,), {"TIANXIA_NAME": name})
            # pyspiel pickles states (clone across processes, serialisation) by class name.
            globals()[cls.__name__] = cls
            pyspiel.register_game(game_type, cls)
            known.add(short)
        out.append(short)
    pyspiel.load_game = load_game
    return out


_PYSPIEL_LOAD_GAME = pyspiel.load_game


def load_game(game: Any, params: Mapping[str, Any] | None = None) -> pyspiel.Game:
    """``pyspiel.load_game``, with a Tianxia game's parameters checked in Python first.

    Takes what pyspiel takes: ``"tianxia_china(players=4,board=4-5)"``, or a short name and
    a dict of parameters. Anything that is not a registered Tianxia game goes to pyspiel
    as it is.

    Raises:
        ValueError: a parameter that is unknown, malformed or not one of its allowed
            values, named with the values it accepts.
    """
    if isinstance(game, str):
        short, text = _split_game_string(game)
        name = short.removeprefix(PREFIX)
        if short.startswith(PREFIX) and short in pyspiel.registered_names():
            given = _parse_parameters(game, text) if text is not None else {}
            if params is not None:
                given.update(params)
            return _PYSPIEL_LOAD_GAME(short, checked_parameters(name, given))
    if params is None:
        return _PYSPIEL_LOAD_GAME(game)
    return _PYSPIEL_LOAD_GAME(game, dict(params))


def _split_game_string(text: str) -> tuple[str, str | None]:
    short, paren, rest = text.partition("(")
    if not paren:
        return text.strip(), None
    return short.strip(), rest


def _parse_parameters(game_string: str, text: str) -> dict[str, Any]:
    if not text.endswith(")") or "(" in text or ")" in text[:-1]:
        raise ValueError(f"a game string is name(key=value,...), not {game_string!r}")
    out: dict[str, Any] = {}
    for pair in filter(None, (p.strip() for p in text[:-1].split(","))):
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"parameters are written key=value, not {pair!r} in {game_string!r}")
        out[key.strip()] = value.strip()
    return out


def checked_parameters(name: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """`params` for Tianxia game `name` checked by the engine and typed as pyspiel expects.

    Values may be text as in a game string (``"on"``, ``"4"``) or typed.

    Raises:
        ValueError: an unknown parameter, a player count or option value the game does
            not allow (the message names what it allows).
    """
    short = short_name(name)
    spec = _parameter_spec(name)
    unknown = sorted(set(params) - set(spec))
    if unknown:
        raise ValueError(f"{short} has no parameter {unknown[0]!r} (parameters: {', '.join(spec)})")
    info = tianxia.load_game(name).info
    players: int | None = None
    if "players" in params:
        raw = params["players"]
        whole = isinstance(raw, int | np.integer) and not isinstance(raw, bool)
        if not whole and not (isinstance(raw, str) and raw.strip().isdigit()):
            raise ValueError(
                f"{short}: players must be a whole number from {info.min_players} to "
                f"{info.max_players}, not {raw!r}"
            )
        players = int(raw)
    options = {k: v for k, v in params.items() if k != "players" and v != DEFAULT}
    try:
        game = _engine_game(name, players, options)
    except ValueError as e:
        raise ValueError(f"{short}: {e}") from e
    typed: dict[str, Any] = {"players": game.players}
    for key, value in params.items():
        if key == "players":
            continue
        # A text parameter keeps the caller's text ("default" included); a typed one
        # takes the engine's reading of it, which has the type pyspiel declared.
        typed[key] = str(value) if spec[key] == DEFAULT else game.options[key]
    return typed


def load(name: str, players: int | None = None, **options: Any) -> SpielGame:
    """`pyspiel.load_game` for Tianxia game `name`, registering it first if needed."""
    register([name])
    params: dict[str, Any] = dict(options)
    if players is not None:
        params["players"] = players
    game = load_game(short_name(name), params)
    assert isinstance(game, SpielGame)
    return game


def _engine_game(name: str, players: int | None, options: Mapping[str, Any]) -> Game:
    """`tianxia.load_game`, shared: variants are immutable, and pyspiel rebuilds games
    whenever it deserialises a state."""
    key = (name, players, tuple(sorted((k, repr(v)) for k, v in options.items())))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = tianxia.load_game(name, players=players, **options)
    return game


_GAMES: dict[tuple[str, int | None, tuple[tuple[str, str], ...]], Game] = {}


@functools.cache
def _parameter_spec(name: str) -> dict[str, Any]:
    """OpenSpiel parameters: `players` and each option, typed when its default is fixed."""
    base = tianxia.load_game(name)
    info = base.info
    per_count = [
        tianxia.load_game(name, players=n).options
        for n in range(info.min_players, info.max_players + 1)
    ]
    spec: dict[str, Any] = {"players": info.min_players}
    for opt in info.option_specs:
        defaults = {repr(o[opt.name]) for o in per_count}
        value = base.options[opt.name]
        typed = isinstance(value, bool | int | float | str)
        spec[opt.name] = value if typed and len(defaults) == 1 else DEFAULT
    return spec


@functools.cache
def _game_type(name: str) -> pyspiel.GameType:
    info = tianxia.load_game(name).info
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"Tianxia {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=_CHANCE_MODE[info.chance],
        information=_INFORMATION[info.information],
        utility=_UTILITY[info.utility],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_spec(name),
    )


def _engine_options(name: str, params: Mapping[str, Any]) -> tuple[int | None, dict[str, Any]]:
    players = params.get("players")
    options = {k: v for k, v in params.items() if k != "players" and v != DEFAULT}
    return (int(players) if players is not None else None), options


class SpielGame(pyspiel.Game):
    """A Tianxia variant seen by OpenSpiel. `tianxia_game` is the engine's `Game`."""

    TIANXIA_NAME = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        players, options = _engine_options(self.TIANXIA_NAME, params or {})
        try:
            game = _engine_game(self.TIANXIA_NAME, players, options)
        except ValueError as e:
            raise ValueError(f"{short_name(self.TIANXIA_NAME)}: {e}") from e
        info = game.info
        utility_sum = None
        if info.utility == "zero_sum":
            utility_sum = 0.0
        elif info.utility == "constant_sum":
            if "utility_sum" not in info.extra:
                raise ValueError(
                    f"{short_name(self.TIANXIA_NAME)}: a constant-sum game must declare "
                    "its utility_sum in GameInfo.extra"
                )
            utility_sum = float(info.extra["utility_sum"])
        game_info = pyspiel.GameInfo(
            num_distinct_actions=info.num_distinct_actions,
            max_chance_outcomes=info.max_chance_outcomes,
            num_players=game.players,
            min_utility=float(info.min_utility),
            max_utility=float(info.max_utility),
            utility_sum=utility_sum,
            max_game_length=info.max_game_length,
        )
        full = {"players": game.players, **{k: _param(v) for k, v in (params or {}).items()}}
        full["players"] = game.players
        super().__init__(_game_type(self.TIANXIA_NAME), game_info, full)
        self._attach(game)

    def _attach(self, game: Game) -> None:
        self.tianxia_game: Game = game
        self.num_actions = game.info.num_distinct_actions
        self.obs_size = game.observation_tensor_size()
        # pyspiel's clone starts from a new initial state each time; states are immutable,
        # so one serves them all.
        self.initial = game.new_initial_state()

    def __getattr__(self, name: str) -> Any:
        # pyspiel rebuilds unpickled games without calling __init__: reattach from params.
        if name in ("tianxia_game", "num_actions", "obs_size", "initial"):
            players, options = _engine_options(self.TIANXIA_NAME, self.get_parameters())
            self._attach(_engine_game(self.TIANXIA_NAME, players, options))
            return getattr(self, name)
        raise AttributeError(name)

    def new_initial_state(self) -> SpielState:
        return SpielState(self, self.initial)

    def __deepcopy__(self, memo: dict[int, Any]) -> SpielGame:
        # pyspiel's clone deep-copies each attribute of a state; a game is immutable.
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # pyspiel pickles a game as its game string and reads it back with its own parser,
        # which fails on text such as board=4-5; the parameters as a dict do not.
        return (_unpickle_game, (self.TIANXIA_NAME, dict(self.get_parameters())))

    def wrap(self, state: State) -> SpielState:
        """An OpenSpiel state at the engine's `state` (with no recall of earlier steps)."""
        if state.game.spec() != self.tianxia_game.spec():
            raise ValueError(f"the state is of {state.game!r}, not of {self.tianxia_game!r}")
        return SpielState(self, state)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> Observer:
        return Observer(self, iig_obs_type, params)


def _unpickle_game(name: str, params: dict[str, Any]) -> SpielGame:
    register([name])
    game = load_game(short_name(name), params)
    assert isinstance(game, SpielGame)
    return game


def _unpickle_state(game: SpielGame, history: list[int], attributes: dict[str, Any]) -> SpielState:
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    # As pyspiel does: the history rebuilds OpenSpiel's own record, the attributes bring
    # back the recall (a resampled world has recall but no history).
    state.__dict__.update(attributes)
    return state


def _param(v: Any) -> Any:
    return v if isinstance(v, bool | int | float | str) else str(v)


class _Trail:
    """One step of a game's history, kept to answer perfect-recall questions lazily.

    `actor` took `action` (an engine id) to reach `state`. `digests` caches each seat's
    recall digest at this step (a resampled world presets them), `keys` the information
    state strings made of them, `legal` the legal actions' engine ids.
    """

    __slots__ = (
        "action",
        "actor",
        "digests",
        "keys",
        "legal",
        "legal_set",
        "obs",
        "own",
        "parent",
        "state",
        "views",
    )

    def __init__(self, parent: _Trail | None, state: State, actor: int, action: int | None) -> None:
        self.parent = parent
        self.state = state
        self.actor = actor
        self.action = action
        self.digests: dict[int | None, bytes] = {}
        self.keys: dict[int | None, str] = {}
        self.obs: dict[int | None, str] = {}
        self.views: dict[int | None, Any] = {}
        self.own: dict[int, dict[int, int]] = {}
        self.legal: list[int] | None = None
        self.legal_set: frozenset[int] = frozenset()

    def legal_ids(self) -> list[int]:
        """The engine ids of the legal actions, in the engine's order."""
        if self.legal is None:
            game = self.state.game
            self.legal = [game.action_id(a) for a in self.state.legal_actions()]
            self.legal_set = frozenset(self.legal)
        return self.legal

    def view(self, seat: int | None) -> Any:
        """The observation of `seat` as the engine's JSON object (compared, never hashed)."""
        if seat in self.views:
            return self.views[seat]
        view = self.views[seat] = self.state.observation(seat)
        return view

    def key(self, seat: int | None) -> str:
        """The information state string of `seat`: its recall digest, written once."""
        text = self.keys.get(seat)
        if text is None:
            text = self.keys[seat] = "recall=" + self.digest(seat).hex()
        return text

    def observation(self, seat: int | None) -> str:
        text = self.obs.get(seat)
        if text is None:
            view = self.view(seat)
            text = self.obs[seat] = json.dumps(view, sort_keys=True, separators=(",", ":"))
        return text

    def digest(self, seat: int | None) -> bytes:
        """The chained hash of all `seat` (None: a spectator) has observed and done.

        A first step (a new game, or a resampled world's other seats) starts from its view.
        """
        pending: list[_Trail] = []
        node: _Trail | None = self
        while node is not None and seat not in node.digests:
            pending.append(node)
            node = node.parent
        for step in reversed(pending):
            base = step.parent.digests[seat] if step.parent is not None else b""
            own = seat is not None and step.actor == seat and step.action is not None
            # Objects compare much faster than their canonical text is written, and most
            # steps change only some seats' views: the text is made for changed views only.
            # orjson writes it about eight times faster than `json` (it was a third of
            # OpenSpiel's search time); only its sameness matters, never its exact bytes.
            if not own and step.parent is not None and step.view(seat) == step.parent.view(seat):
                step.digests[seat] = base
                continue
            h = hashlib.blake2b(base, digest_size=16)
            if own:
                h.update(b"\x00did %d" % step.action)  # type: ignore[str-format]
            h.update(b"\x00saw ")
            h.update(orjson.dumps(step.view(seat), option=orjson.OPT_SORT_KEYS))
            step.digests[seat] = h.digest()
        return self.digests[seat]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Trail:
        # Steps never change once taken (only their caches fill in), so clones share them.
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as the engine state plus each seat's recall and action counts: the steps
        # before are not needed to answer any question about this one.
        players = self.state.game.players
        digests: dict[int | None, bytes] = {None: self.digest(None)}
        digests.update((seat, self.digest(seat)) for seat in range(players))
        own = {seat: self.own_actions(seat) for seat in range(players)}
        return (_rebuild_trail, (self.state.game.spec(), self.state.to_json(), digests, own))

    def own_actions(self, seat: int) -> dict[int, int]:
        """How many times `seat` took each action (by engine id) up to this step."""
        pending: list[_Trail] = []
        node: _Trail | None = self
        while node is not None and seat not in node.own:
            pending.append(node)
            node = node.parent
        counts: dict[int, int] = {}
        for step in reversed(pending):
            counts = dict(step.parent.own[seat]) if step.parent is not None else {}
            if step.actor == seat and step.action is not None:
                counts[step.action] = counts.get(step.action, 0) + 1
            step.own[seat] = counts
        return self.own[seat]


def _rebuild_trail(
    spec: Mapping[str, Any],
    data: Any,
    digests: dict[int | None, bytes],
    own: dict[int, dict[int, int]] | None = None,
) -> _Trail:
    game = _engine_game(spec["game"], spec["players"], spec["options"])
    trail = _Trail(None, game.state_from_json(data), CHANCE, None)
    trail.digests.update(digests)
    trail.own.update(own or {})
    return trail


class SpielState(pyspiel.State):
    """An OpenSpiel state over an immutable engine state (`tianxia_state`)."""

    def __init__(self, game: SpielGame, state: State, trail: _Trail | None = None) -> None:
        super().__init__(game)
        self._game = game
        self._trail = trail if trail is not None else _Trail(None, state, CHANCE, None)

    @property
    def tianxia_state(self) -> State:
        """The engine's state under this OpenSpiel state."""
        return self._trail.state

    # --- the pyspiel python-game hooks ---------------------------------------
    def current_player(self) -> int:
        p = self.tianxia_state.current_player()
        if p == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if p == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return p

    def is_terminal(self) -> bool:
        return self.tianxia_state.is_terminal()

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.tianxia_state.current_player():
            return []
        return list(self._trail.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        game = self._game.tianxia_game
        n = self._game.num_actions
        return [(game.action_id(a) - n, p) for a, p in self.tianxia_state.chance_outcomes()]

    def engine_id(self, action: int) -> int:
        """The engine's id of OpenSpiel action `action` in this state."""
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise NotationError(repr(action), "OpenSpiel actions are whole numbers")
        if self.tianxia_state.is_chance_node():
            return int(action) + self._game.num_actions
        return int(action)

    def _apply_action(self, action: int) -> None:
        state = self.tianxia_state
        actor = state.current_player()
        i = self.engine_id(action)
        try:
            a = self._game.tianxia_game.action_from_id(i)
        except ValueError as e:
            raise IllegalActionError("ENGINE-2", str(e)) from None
        trail = self._trail
        # A search applies actions it was just given as legal: the engine's check, which
        # names the broken rule, is needed only for the others.
        known = trail.legal is not None and i in trail.legal_set and actor >= 0
        after = state.apply_unchecked(a) if known else state.apply(a)
        self._trail = _Trail(trail, after, actor, i)

    def _action_to_string(self, player: int, action: int) -> str:
        n = self._game.num_actions
        i = int(action) + n if player == CHANCE else int(action)
        return str(self._game.tianxia_game.action_from_id(i))

    def returns(self) -> list[float]:
        return [float(r) for r in self.tianxia_state.returns()]

    def rewards(self) -> list[float]:
        # Utilities arrive once, at the end, so the last step's reward is the return.
        return self.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """A world `player_id` cannot tell from this one, drawn by the engine.

        `probability_sampler` is any callable returning a float in [0, 1) (OpenSpiel's
        samplers are); it seeds the draw. The seat's recall is carried over, so the
        information state string is unchanged. The world has no OpenSpiel `history()`:
        the real one would name chance outcomes the world does not have.
        """
        if not callable(probability_sampler):
            raise ValueError(f"a sampler returning floats is needed, not {probability_sampler!r}")
        seed = int(float(probability_sampler()) * 2**53)
        return self.resample(player_id, random.Random(seed))

    def resample(self, seat: int, rng: random.Random) -> SpielState:
        """`resample_from_infostate` drawing from the engine-style `rng`."""
        players = self._game.tianxia_game.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be in 0..{players - 1}, not {seat!r}")
        world = self.tianxia_state.resample_from_infostate(seat, rng)
        trail = _Trail(None, world, CHANCE, None)
        trail.digests[seat] = self._trail.digest(seat)
        # What everyone has seen is the same in every world the seat cannot tell apart.
        trail.digests[None] = self._trail.digest(None)
        trail.own[seat] = self._trail.own_actions(seat)
        # The other seats' recall starts from their view in this world, hashed only when a
        # search asks for it (most worlds are walked a few steps, not by every seat).
        return SpielState(self._game, world, trail)

    def information_state_string(self, player: int | None = None) -> str:
        """The seat's recall digest (`player` defaults to the seat to move), cached.

        Python callers such as OpenSpiel's Python IS-MCTS reach this directly; C++ callers
        reach the same text through the perfect-recall observer.
        """
        seat = self.current_player() if player is None else player
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer):
            raise ValueError(f"an information state belongs to a seat, not {seat!r}")
        if not 0 <= seat < self._game.tianxia_game.players:
            raise ValueError(f"no seat {seat!r} in a {self._game.tianxia_game.players}-player game")
        return self._trail.key(int(seat))

    def __deepcopy__(self, memo: dict[int, Any]) -> SpielState:
        clone: SpielState = self.clone()
        return clone

    def __reduce__(self) -> tuple[Any, ...]:
        # pyspiel's own pickle names the game by its game string (see SpielGame.__reduce__).
        return (_unpickle_state, (self._game, list(self.history()), dict(self.__dict__)))

    def __str__(self) -> str:
        return str(self.tianxia_state)

    # --- views --------------------------------------------------------------
    def trail(self) -> _Trail:
        return self._trail


class Observer:
    """OpenSpiel's observer interface (`string_from`, `set_from`, `tensor`, `dict`)."""

    def __init__(
        self, game: SpielGame, iig_obs_type: Any, params: Mapping[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {dict(params)}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        private = obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observation of every seat's private information is not offered")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.perfect_recall = bool(obs_type.perfect_recall)
        # A seat's own actions are private to it, so a public observer does not count them.
        self.counts_own = self.perfect_recall and not self.public_only
        size = game.obs_size + (game.num_actions if self.counts_own else 0)
        self.encoding = encoding(game.tianxia_game)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {"observation": self.tensor[: game.obs_size]}
        if self.counts_own:
            self.dict["own_actions"] = self.tensor[game.obs_size :]

    def _seat(self, player: int) -> int | None:
        return None if self.public_only else player

    def set_from(self, state: SpielState, player: int) -> None:
        self.encoding.encode(state.tianxia_state, self._seat(player), self.dict["observation"])
        if self.counts_own:
            counts = self.dict["own_actions"]
            counts.fill(0)
            for a, k in state.trail().own_actions(player).items():
                counts[a] = k

    def string_from(self, state: SpielState, player: int) -> str:
        if self.perfect_recall:
            return state.trail().key(self._seat(player))
        return state.trail().observation(self._seat(player))


def seeded_resampler(seed: int) -> Callable[[SpielState, int], SpielState]:
    """A resampler for OpenSpiel's `ISMCTSBot.set_resampler` drawing from its own seeded
    stream, so that a search is reproducible."""
    rng = random.Random(seed)

    def resample(state: SpielState, player: int) -> SpielState:
        return state.resample(player, rng)

    return resample


class HeuristicEvaluator:
    """An evaluator for OpenSpiel's MCTS and IS-MCTS bots that keeps rollouts short.

    It plays at most `max_rollout` random steps on the engine state (chance drawn by its
    probabilities), then scores a position that is not over with the game's own
    `State.heuristic`, so a search costs the same however long the game.

    Args:
        max_rollout: random steps before the heuristic takes over (0: none).
        seed: seeds the rollout stream.
    """

    def __init__(self, max_rollout: int = 20, seed: int = 0) -> None:
        if isinstance(max_rollout, bool) or not isinstance(max_rollout, int) or max_rollout < 0:
            raise ValueError(f"max_rollout must be a whole number >= 0, not {max_rollout!r}")
        self.max_rollout = max_rollout
        self.rng = random.Random(seed)

    def evaluate(self, state: SpielState) -> np.ndarray:
        s = state.tianxia_state
        for _ in range(self.max_rollout):
            if s.is_terminal():
                break
            if s.is_chance_node():
                s = s.apply_unchecked(sample_chance(s, self.rng))
            else:
                s = s.apply_unchecked(self.rng.choice(s.legal_actions()))
        if s.is_terminal():
            return np.array(s.returns(), dtype=np.float64)
        return np.array([s.heuristic(p) for p in range(s.game.players)], dtype=np.float64)

    def prior(self, state: SpielState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]
