"""The websocket messages, as pydantic types: what a client may send, checked strictly.

Client messages are JSON objects with a `type`: hello, act, undo, chat. Anything else,
or a message that does not fit its type (unknown keys, wrong types, absurd values), is
answered with an `error` and changes nothing.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

try:
    import orjson
except ImportError:  # an install without the server extra's orjson: `json` writes the same
    orjson = None  # type: ignore[assignment]

MAX_FRAME = 16 * 1024  # bytes of one client message
MAX_TEXT = 64  # characters of an action's notation or an action id
MAX_CHAT = 500


def encode(msg: Any) -> str:
    """A server message as compact JSON text, as every frame is written.

    orjson writes a view of a few KiB several times faster than `json`, and every
    accepted action sends one to each connection of its game. The text is the same JSON
    (keys in order, no spaces), except that characters beyond ASCII are written as
    themselves, not escaped. What orjson cannot write (an integer past 64 bits, a key
    that is not text or a number) is written by `json`.
    """
    if orjson is not None:
        try:
            return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:
            pass
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


# Every digit as 0, so that a number written with a point or an exponent (which `json`
# and orjson may write apart) shows as `0.`, `0e` or `0E`: three searches for a fixed
# string, about twice as fast as a regular expression's over a state's text.
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")


def _fraction(text: bytes) -> bool:
    """Whether `text` holds a digit followed by a point or an exponent's letter."""
    digits = text.translate(_DIGITS_AS_ZERO)
    return b"0." in digits or b"0e" in digits or b"0E" in digits


def canonical(value: Any) -> bytes:
    """`value` as `json.dumps(value, sort_keys=True, separators=(",", ":"))` writes it,
    as bytes: what a stored state hash is taken of, so the same for ever.

    orjson writes it about ten times faster, and byte for byte the same where the text
    is ASCII, every key is text and no number has a fraction (a state's JSON: whole
    numbers, flags, names, lists and objects). Where any of that may not hold, `json`
    writes it.
    """
    if orjson is not None:
        try:
            text = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        except TypeError:
            pass
        else:
            if text.isascii() and not _fraction(text):
                return text
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(_Message):
    type: Literal["hello"]
    secret: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    spectator: bool = False
    # A seat of the account signed in by the socket's session cookie (no secret needed).
    seat: Annotated[int, Field(ge=0, le=16)] | None = None
    last_seq: Annotated[int, Field(ge=0, le=10_000_000)] = 0
    player: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    # A browser asks for the board drawn as SVG in every view, in its language.
    board: bool = False
    # `xx` is the test-only pseudo-locale, refused unless the server runs with it.
    lang: Literal["en", "nl", "de", "xx"] = "en"

    @field_validator("lang")
    @classmethod
    def _offered(cls, lang: str) -> str:
        from tianxia.web.i18n import accepted

        if lang not in accepted():
            raise ValueError(f"no language {lang!r} here")
        return lang


# The log marks a stand-in's moves by client ids of this form (`server.clocks`): no
# client's own action may pose as one.
STAND_IN_PREFIX = "stand-in:"


class Act(_Message):
    type: Literal["act"]
    action_id: Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]
    expected_seq: Annotated[int, Field(ge=0, le=10_000_000)]
    action: Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]

    @field_validator("action_id")
    @classmethod
    def _own(cls, action_id: str) -> str:
        if action_id.startswith(STAND_IN_PREFIX):
            raise ValueError(f"an action id may not begin with {STAND_IN_PREFIX!r}")
        return action_id


class Undo(_Message):
    type: Literal["undo"]
    action_id: Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]
    expected_seq: Annotated[int, Field(ge=0, le=10_000_000)]


class Chat(_Message):
    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT)]


ClientMessage = Annotated[Hello | Act | Undo | Chat, Field(discriminator="type")]
client_message: TypeAdapter[Hello | Act | Undo | Chat] = TypeAdapter(ClientMessage)


# Error codes of `{"type": "error"}` and `{"type": "refused"}` (docs/server.md lists them).
BAD_JSON = "bad_json"
BAD_MESSAGE = "bad_message"
TOO_LARGE = "too_large"
RATE_LIMITED = "rate_limited"
NO_HELLO = "no_hello"
UNKNOWN_SECRET = "unknown_secret"
NO_SEAT = "no_seat"
NOT_YOUR_TURN = "not_your_turn"
STALE = "stale"
ILLEGAL = "illegal"
UNREADABLE = "unreadable"
NOT_STARTED = "not_started"
GAME_OVER = "game_over"
CONFLICT = "conflict"
# The database failed to write (disk full, read-only): nothing changed; send it again.
UNAVAILABLE = "unavailable"
# The client's address has as many websockets open as it may (then close 1008).
TOO_MANY_CONNECTIONS = "too_many_connections"
UNLOADABLE = "unloadable"  # a stored game this release cannot resume (then close 4409)
