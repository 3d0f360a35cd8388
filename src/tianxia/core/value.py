"""The state base's machinery: declared fields become a frozen, slotted value.

A game's state class lists its fields as annotations (no ``__slots__`` of its own):

    class SilkState(State):
        seat: int
        phase: Phase
        silver: tuple[int, ...]

The metaclass gives it slots for those fields and, generated once per class:

- ``make(game, **fields)``: a new frozen state from every field;
- ``draft()``: a mutable copy to build a successor in, and ``freeze()`` on it, which
  turns the draft itself into the frozen state (no second copy);
- ``replace(**changes)``: a frozen copy with some fields changed;
- ``to_json()`` / ``from_json(game, data)``: exact, derived from the field types, and
  validating every value on the way in;
- ``__eq__`` / ``__hash__`` over the fields (the hash cached), pickling by the game's
  spec plus the field values, and ``copy``/``deepcopy`` returning the value itself.

The class's own ``current_player`` is renamed ``_current_player``: the inherited
`State.current_player` asks it once per state and keeps the answer (in a slot of the
base, like the legal actions and the chance outcomes), since a frozen state's never
changes.

A frozen state refuses attribute assignment. Field types are limited to immutable
data: ``int``, ``float``, ``bool``, ``str``, ``None``, enums, ``tuple[...]``,
``frozenset[...]``, ``X | None``, actions, frozen dataclasses of these, and immutable
classes that give their own JSON codec as ``field_codec()`` (`tianxia.core.log.Log`).

Private annotations (``_memo: dict[str, int] | None``) are per-state caches: slots set
to None in every new state or draft, written with ``object.__setattr__``, never saved,
compared or pickled. Derived fields (kept for speed, rebuilt rather than trusted) are
listed in ``DERIVED``: they are slots copied by ``draft``, left out of JSON, equality and hash,
and recomputed by the class's ``derive`` hook after ``make`` and ``from_json``.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import sys
import types
import typing
from abc import ABCMeta
from collections.abc import Callable
from typing import Any

Encoder = Callable[[Any], Any]
Decoder = Callable[[Any, Any, str], Any]  # (value, game, path) -> field value

# Slots every value state has besides its fields: the game, the legal-action and hash caches.
BASE_SLOTS = ("game", "_legal", "_player", "_chances", "_hash")


class FrozenStateError(AttributeError):
    """A state is an immutable value; build a successor with `draft()` or `replace()`."""


class StateDataError(ValueError):
    """Saved state data that does not fit the state's declared fields."""


def _cache_names(ns: dict[str, Any]) -> tuple[str, ...]:
    """Private annotations (``_memo: dict | None``): per-state caches, None in every new state."""
    ann = ns.get("__annotations__", {})
    return tuple(
        n
        for n, tp in ann.items()
        if n.startswith("_")
        and not n.startswith("__")
        and n not in BASE_SLOTS
        and "ClassVar" not in (tp if isinstance(tp, str) else repr(tp))
    )


def _field_names(ns: dict[str, Any]) -> tuple[str, ...]:
    ann = ns.get("__annotations__", {})
    names = []
    for name, tp in ann.items():
        text = tp if isinstance(tp, str) else repr(tp)
        if name == "game" or name.startswith("_") or "ClassVar" in text:
            continue
        names.append(name)
    return tuple(names)


class StateMeta(ABCMeta):
    """Turns the annotated fields of a state class without ``__slots__`` into slots."""

    def __new__(
        mcls, name: str, bases: tuple[type, ...], ns: dict[str, Any], **kw: Any
    ) -> StateMeta:
        value_class = "__slots__" not in ns and any(isinstance(b, StateMeta) for b in bases)
        if value_class:
            inherited: tuple[str, ...] = ()
            for b in bases:
                inherited += tuple(f for f in getattr(b, "FIELDS", ()) if f not in inherited)
            own = tuple(f for f in _field_names(ns) if f not in inherited)
            fields = inherited + own
            inherited_caches: tuple[str, ...] = ()
            for b in bases:
                inherited_caches += tuple(getattr(b, "CACHES", ()))
            own_caches = tuple(c for c in _cache_names(ns) if c not in inherited_caches)
            caches = inherited_caches + own_caches
            derived = tuple(ns.get("DERIVED", ())) or tuple(
                d for b in bases for d in getattr(b, "DERIVED", ())
            )
            missing = [d for d in derived if d not in fields]
            if missing:
                raise TypeError(f"{name}.DERIVED names {missing[0]!r}, which is not a field")
            for f in own:
                # A class-level default would clash with the slot of the same name.
                if f in ns:
                    raise TypeError(f"{name}.{f}: state fields take no class-level default")
            ns["__slots__"] = own + own_caches
            if "current_player" in ns:
                # `State.current_player` keeps the answer in the state and asks this
                # one once (see there).
                ns["_current_player"] = ns.pop("current_player")
        cls = super().__new__(mcls, name, bases, ns, **kw)
        if value_class and fields:
            _install(cls, fields, derived, caches)
        return cls


def _install(
    cls: Any, fields: tuple[str, ...], derived: tuple[str, ...], caches: tuple[str, ...] = ()
) -> None:
    saved = tuple(f for f in fields if f not in derived)
    cls.FIELDS = fields
    cls.CACHES = caches
    cls.SAVED_FIELDS = saved
    cls.__setattr__ = _frozen_setattr
    cls.__delattr__ = _frozen_delattr
    cls._json_codec = None

    draft_cls = type(
        f"{cls.__name__}Draft",
        (cls,),
        {
            "__slots__": (),
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,
            "__module__": cls.__module__,
            "__qualname__": f"{cls.__qualname__}.Draft",
            "freeze": _freeze,
        },
    )
    cls.Draft = draft_cls

    # Generated straight-line code: a field-by-field copy is the fastest Python has.
    lines = [
        "def draft(self):",
        "    d = _new(_D)",
        "    d.game = self.game",
        "    d._legal = None",
        "    d._player = None",
        "    d._chances = None",
        "    d._hash = None",
        *(f"    d.{c} = None" for c in caches),
        *(f"    d.{f} = self.{f}" for f in fields),
        "    return d",
        "def __eq__(self, other):",
        "    if self is other:",
        "        return True",
        "    if type(other) is not type(self):",
        "        return NotImplemented",
        "    return self.game == other.game"
        + "".join(f" and self.{f} == other.{f}" for f in saved),
        "def _values(self):",
        "    return (" + "".join(f"self.{f}, " for f in saved) + ")",
    ]
    scope: dict[str, Any] = {"_new": object.__new__, "_D": draft_cls}
    exec("\n".join(lines), scope)
    cls.draft = scope["draft"]
    cls.__eq__ = scope["__eq__"]
    cls._values = scope["_values"]


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise FrozenStateError(
        f"{type(self).__name__} is immutable: build a successor with draft() or replace()"
    )


def _frozen_delattr(self: Any, name: str) -> None:
    raise FrozenStateError(f"{type(self).__name__} is immutable")


def _freeze(self: Any) -> Any:
    """Turn this draft into the frozen state it describes and return it."""
    self.__class__ = type(self).__mro__[1]
    return self


# --- JSON codecs built from the field types --------------------------------------


def _fail(path: str, want: str, value: Any) -> StateDataError:
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return StateDataError(f"{path}: expected {want}, found {shown}")


def _resolve(cls: type, name: str) -> Any:
    owner = next(c for c in cls.__mro__ if name in inspect.get_annotations(c))
    ann = inspect.get_annotations(owner)[name]
    if not isinstance(ann, str):
        return ann
    module = sys.modules[owner.__module__]
    return eval(ann, dict(vars(module)), dict(vars(owner)))


def codec_for(tp: Any) -> tuple[Encoder, Decoder]:
    """The JSON encoder and validating decoder for values of type `tp`."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is bool:
        return _same, _decode_bool
    if tp is int:
        return _same, _decode_int
    if tp is float:
        return _same, _decode_float
    if tp is str:
        return _same, _decode_str
    if tp is type(None) or tp is None:
        return _same, _decode_none
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _enum_codec(tp)
    if isinstance(tp, type) and hasattr(tp, "field_codec"):
        # A value type that knows its own JSON form (`tianxia.core.log.Log`).
        own: tuple[Encoder, Decoder] = tp.field_codec()
        return own
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _tuple_codec(args[0])
        return _fixed_tuple_codec(args)
    if origin is frozenset:
        return _frozenset_codec(args[0])
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        if len(options) == 1 and len(args) == 2:
            return _optional_codec(options[0])
        raise TypeError(f"state fields may be X | None, not the union {tp}")
    if isinstance(tp, type) and _is_action(tp):
        return _action_codec()
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_codec(tp)
    raise TypeError(f"{tp!r} is not an immutable type a state field may have")


def _is_action(tp: type) -> bool:
    return any(
        b.__name__ == "Action" and b.__module__ == "tianxia.core.actions" for b in tp.__mro__
    )


def _same(v: Any) -> Any:
    return v


def _decode_bool(v: Any, game: Any, path: str) -> bool:
    if not isinstance(v, bool):
        raise _fail(path, "true or false", v)
    return v


def _decode_int(v: Any, game: Any, path: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise _fail(path, "a whole number", v)
    return v


def _decode_float(v: Any, game: Any, path: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise _fail(path, "a number", v)
    return float(v)


def _decode_str(v: Any, game: Any, path: str) -> str:
    if not isinstance(v, str):
        raise _fail(path, "text", v)
    return v


def _decode_none(v: Any, game: Any, path: str) -> None:
    if v is not None:
        raise _fail(path, "null", v)


def _enum_codec(tp: type[enum.Enum]) -> tuple[Encoder, Decoder]:
    # By name, lower case: readable in a save, and stable when values are renumbered.
    members = {m.name.lower(): m for m in tp}
    want = "one of " + ", ".join(repr(v) for v in members)

    def dec(v: Any, game: Any, path: str) -> Any:
        try:
            return members[v]
        except (KeyError, TypeError):
            raise _fail(path, want, v) from None

    return (lambda v: v.name.lower()), dec


def _tuple_codec(item: Any) -> tuple[Encoder, Decoder]:
    enc, dec = codec_for(item)
    simple = enc is _same

    def encode(v: Any) -> Any:
        return list(v) if simple else [enc(x) for x in v]

    def decode(v: Any, game: Any, path: str) -> Any:
        if not isinstance(v, list):
            raise _fail(path, "a list", v)
        return tuple(dec(x, game, f"{path}[{i}]") for i, x in enumerate(v))

    return encode, decode


def _fixed_tuple_codec(items: tuple[Any, ...]) -> tuple[Encoder, Decoder]:
    codecs = [codec_for(t) for t in items]

    def encode(v: Any) -> Any:
        return [c[0](x) for c, x in zip(codecs, v)]

    def decode(v: Any, game: Any, path: str) -> Any:
        if not isinstance(v, list) or len(v) != len(codecs):
            raise _fail(path, f"a list of {len(codecs)}", v)
        return tuple(c[1](x, game, f"{path}[{i}]") for i, (c, x) in enumerate(zip(codecs, v)))

    return encode, decode


def _frozenset_codec(item: Any) -> tuple[Encoder, Decoder]:
    enc, dec = codec_for(item)

    def encode(v: Any) -> Any:
        return sorted((enc(x) for x in v), key=repr)

    def decode(v: Any, game: Any, path: str) -> Any:
        if not isinstance(v, list):
            raise _fail(path, "a list", v)
        out = frozenset(dec(x, game, f"{path}[{i}]") for i, x in enumerate(v))
        if len(out) != len(v):
            raise _fail(path, "a list without repeats", v)
        return out

    return encode, decode


def _optional_codec(item: Any) -> tuple[Encoder, Decoder]:
    enc, dec = codec_for(item)

    def encode(v: Any) -> Any:
        return None if v is None else enc(v)

    def decode(v: Any, game: Any, path: str) -> Any:
        return None if v is None else dec(v, game, path)

    return encode, decode


def _action_codec() -> tuple[Encoder, Decoder]:
    def decode(v: Any, game: Any, path: str) -> Any:
        if not isinstance(v, str):
            raise _fail(path, "an action's notation", v)
        try:
            return game.parse_action_text(v)
        except ValueError:
            raise _fail(path, "an action's notation", v) from None

    return str, decode


def _dataclass_codec(tp: type) -> tuple[Encoder, Decoder]:
    hints = typing.get_type_hints(tp)
    # Fields left out of __init__ are caches, rebuilt by the dataclass itself.
    names = [f.name for f in dataclasses.fields(tp) if f.init]
    codecs = {n: codec_for(hints[n]) for n in names}

    def encode(v: Any) -> Any:
        return {n: codecs[n][0](getattr(v, n)) for n in names}

    def decode(v: Any, game: Any, path: str) -> Any:
        if not isinstance(v, dict) or set(v) != set(names):
            raise _fail(path, "an object with " + ", ".join(names), v)
        return tp(**{n: codecs[n][1](v[n], game, f"{path}.{n}") for n in names})

    return encode, decode


def json_codec(cls: Any) -> list[tuple[str, Encoder, Decoder]]:
    """`(field, encoder, decoder)` for every saved field of `cls`, built once."""
    if cls.__dict__.get("_json_codec") is None:
        cls._json_codec = [(f, *codec_for(_resolve(cls, f))) for f in cls.SAVED_FIELDS]
    codec: list[tuple[str, Encoder, Decoder]] = cls._json_codec
    return codec
