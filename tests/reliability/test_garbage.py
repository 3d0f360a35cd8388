"""Garbage: messages drawn by hypothesis over the protocol's schema (right and wrong
types, keys, sizes and values) and raw mutations of good messages (truncated JSON,
binary frames, invalid UTF-8, deep nesting, huge numbers, over-size frames, unknown
types, messages before hello). Each gets a typed answer or the documented close code;
the game's seq and state hash never move; the server logs no unhandled exception; its
memory grows by less than 10 %."""

from __future__ import annotations

import contextlib
import json
import random
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tianxia.server import protocol as P

from .harness import (
    RUNS,
    hooked,
    new_game,
    rss_kib,
    running,
    server_state,
    size,
    unhandled,
    write_summary,
    ws_url,
)

SCHEMA_INPUTS = 1_500  # per database, and as many raw mutations; ten times in make test-long
CODES = {
    P.BAD_JSON,
    P.BAD_MESSAGE,
    P.TOO_LARGE,
    P.NO_HELLO,
    P.UNKNOWN_SECRET,
    P.NO_SEAT,
    P.NOT_YOUR_TURN,
    P.STALE,
    P.ILLEGAL,
    P.UNREADABLE,
    P.NOT_STARTED,
    P.GAME_OVER,
    P.CONFLICT,
}
CLOSE_CODES = {1007, 1009}  # invalid UTF-8 in a text frame; a frame over 64 KiB
MUTATIONS = [
    "truncate",
    "flip",
    "insert",
    "binary",
    "utf8",
    "nest",
    "number",
    "large",
    "huge",
    "unknown",
    "empty",
    "bom",
]
PER_SOCKET = 50  # under the rate limit's burst of 60: garbage, not a flood

_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=80),
)
_value = st.recursive(
    _scalar,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_fields = {
    "secret": st.text(min_size=0, max_size=70),
    "spectator": st.booleans(),
    "last_seq": st.integers(min_value=-5, max_value=10**12),
    "player": st.text(max_size=70),
    "board": st.booleans(),
    "lang": st.sampled_from(["en", "nl", "de", "fr", ""]),
    "action_id": st.text(min_size=0, max_size=70),
    "expected_seq": st.integers(min_value=-5, max_value=10**12),
    "action": st.text(max_size=70),
    "text": st.text(max_size=600),
}
_schema_message = st.builds(
    lambda kind, known, extra: {"type": kind, **known, **extra},
    st.sampled_from(["hello", "act", "undo", "chat"]) | st.text(max_size=12) | _value,
    st.fixed_dictionaries({}, optional={k: v | _value for k, v in _fields.items()}),
    st.dictionaries(st.text(max_size=10), _value, max_size=2),
)


def _good() -> list[str]:
    return [
        json.dumps({"type": "act", "action_id": "a1", "expected_seq": 3, "action": "draw"}),
        json.dumps({"type": "undo", "action_id": "u1", "expected_seq": 3}),
        json.dumps({"type": "chat", "text": "hello there"}),
        json.dumps({"type": "hello", "spectator": True, "last_seq": 0}),
    ]


@st.composite
def _raw(draw: st.DrawFn) -> str | bytes:
    base = draw(st.sampled_from(_good()))
    how = draw(st.sampled_from(MUTATIONS))
    if how == "truncate":
        return base[: draw(st.integers(0, len(base) - 1))]
    if how == "flip":
        i = draw(st.integers(0, len(base) - 1))
        return base[:i] + draw(st.characters()) + base[i + 1 :]
    if how == "insert":
        i = draw(st.integers(0, len(base)))
        return base[:i] + draw(st.text(min_size=1, max_size=8)) + base[i:]
    if how == "binary":
        return draw(st.binary(max_size=64)) or b"\x00"
    if how == "utf8":
        return "\x00UTF8" + base  # marked: sent as a text frame of invalid UTF-8
    if how == "nest":
        n = draw(st.integers(1, 9000))
        return "[" * n + "]" * n
    if how == "number":
        digits = draw(st.integers(20, 5000))
        return json.dumps({"type": "act", "action_id": "n", "action": "draw"})[:-1] + (
            ', "expected_seq": ' + "9" * digits + "}"
        )
    if how == "large":
        return json.dumps({"type": "chat", "text": "x" * draw(st.integers(17_000, 60_000))})
    if how == "huge":
        return "x" * draw(st.integers(66_000, 70_000))
    if how == "unknown":
        return json.dumps({"type": draw(st.text(max_size=12)), "x": 1})
    if how == "empty":
        return draw(st.sampled_from(["", " ", "null", "0", '""', "{}", "[]"]))
    return "\ufeff" + base


class _Pool:
    """The sockets garbage goes through: a fresh one every `PER_SOCKET` messages (or
    after a close), each bound as nobody, a spectator or the seat not to move."""

    def __init__(self, base: str, gid: str, idle_secret: str, rng: random.Random) -> None:
        self.base, self.gid, self.idle, self.rng = base, gid, idle_secret, rng
        self.cm: Any = None
        self.ws: Any = None
        self.used = 0
        self.answers: dict[str, int] = {}
        self.closes: dict[int, int] = {}
        self.wrong: list[str] = []
        self.sent = 0

    def _fresh(self) -> None:
        self.close()
        self.cm = connect(ws_url(self.base, self.gid), ping_interval=None, open_timeout=10)
        self.ws = self.cm.__enter__()
        self.used = 0
        bind = self.rng.choice(["none", "spectator", "seat"])
        if bind != "none":
            hello = {"type": "hello", "last_seq": 10**6}
            hello.update({"spectator": True} if bind == "spectator" else {"secret": self.idle})
            self.ws.send(json.dumps(hello))
            assert json.loads(self.ws.recv(timeout=10))["type"] == "view"

    def close(self) -> None:
        if self.cm is not None:
            with contextlib.suppress(ConnectionClosed):
                self.cm.__exit__(None, None, None)
            self.cm = self.ws = None

    def send(self, message: str | bytes) -> None:
        if self.ws is None or self.used >= PER_SOCKET:
            self._fresh()
        self.used += 1
        self.sent += 1
        try:
            if isinstance(message, str) and message.startswith("\x00UTF8"):
                self.ws.send(b"\xff\xfe" + message[5:].encode(), text=True)
            elif isinstance(message, str) and not _encodable(message):
                # A lone surrogate has no UTF-8: on the wire it is invalid UTF-8.
                self.ws.send(message.encode("utf-8", "surrogatepass"), text=True)
            else:
                self.ws.send(message)
            while True:
                reply = json.loads(self.ws.recv(timeout=10))
                if reply["type"] == "view" and not _is_hello(message):
                    continue  # someone else's news; not an answer
                break
        except ConnectionClosed as e:
            code = e.rcvd.code if e.rcvd is not None else -1
            self.closes[code] = self.closes.get(code, 0) + 1
            if code not in CLOSE_CODES:
                self.wrong.append(f"closed {code} after {str(message)[:80]!r}")
            self.close()
            return
        kind = reply["type"]
        key = f"{kind}:{reply.get('code', '')}"
        self.answers[key] = self.answers.get(key, 0) + 1
        if kind in ("error", "refused"):
            if reply["code"] not in CODES:
                self.wrong.append(f"untyped {reply} after {str(message)[:80]!r}")
        elif kind == "view" and _is_hello(message):
            self.used = PER_SOCKET  # it bound this socket anew: take a fresh one next
        elif kind != "chat":
            self.wrong.append(f"{kind} after {str(message)[:80]!r}")


def _encodable(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _is_hello(message: str | bytes) -> bool:
    if isinstance(message, bytes):
        return False
    try:
        data = json.loads(message)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("type") == "hello"


# Drawn once per test run: hypothesis spends about 4 ms of CPU on each schema message
# (its recursive values), and with `derandomize` both databases are sent the same
# inputs anyway. The first test to need them draws them under a file lock and leaves
# them in runs/reliability/ for the other (in another xdist worker, or waiting on the
# lock), which reads them instead of drawing them again.
_drawn: dict[int, list[list[str | bytes]]] = {}


def _inputs(n: int) -> list[list[str | bytes]]:
    if n not in _drawn:
        import fcntl

        import hypothesis

        RUNS.mkdir(parents=True, exist_ok=True)
        cache = RUNS / f"garbage-inputs-{n}-hypothesis-{hypothesis.__version__}.json"
        with (RUNS / "garbage-inputs.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if cache.exists() and cache.stat().st_mtime >= Path(__file__).stat().st_mtime:
                schema = json.loads(cache.read_text())
            else:
                schema = _draw(_schema_message, n)
                cache.write_text(json.dumps(schema))
        # The raw mutations cost a tenth as much to draw, and hold the large frames:
        # drawn here, not kept.
        _drawn[n] = [schema, _draw(_raw(), n)]
    return _drawn[n]


def _draw(strategy: st.SearchStrategy[Any], n: int) -> list[str | bytes]:
    texts: list[str | bytes] = []

    @settings(
        max_examples=n,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(message=strategy)
    def draw(message: Any) -> None:
        texts.append(message if isinstance(message, str | bytes) else _dumps(message))

    draw()
    return texts


def test_garbage_changes_nothing(url: str, backend: str, tmp_path: Path) -> None:
    started = time.monotonic()
    n = size(SCHEMA_INPUTS)
    with running(hooked(url, tmp_path, tap=False)) as server:
        gid, secrets = new_game(server.base, "greatwall", 2)
        before = server_state(server.base, gid)
        idle = secrets[1 - before["to_move"]]
        pool = _Pool(server.base, gid, idle, random.Random(3))
        rss: list[int] = []
        checks: list[bool] = []

        def check() -> None:
            now = server_state(server.base, gid)
            checks.append((now["seq"], now["state_hash"]) == (before["seq"], before["state_hash"]))

        for texts in _inputs(n):
            for text in texts:
                pool.send(text)
                if pool.sent % 2000 == 0:
                    check()
                if pool.sent == n // 5:
                    rss.append(rss_kib(server.pid))  # after warming up
        pool.close()
        check()
        rss.append(rss_kib(server.pid))
        bad = unhandled(server)
    growth = (rss[-1] - rss[0]) / rss[0]
    report = {
        "inputs": pool.sent,
        "schema_inputs": n,
        "answers": pool.answers,
        "closes": {str(k): v for k, v in pool.closes.items()},
        "untyped_or_wrong": len(pool.wrong),
        "state_checks": len(checks),
        "state_changes": sum(1 for ok in checks if not ok),
        "rss_kib_after_warmup": rss[0],
        "rss_kib_at_end": rss[-1],
        "memory_growth": round(growth, 4),
        "unhandled": bad,
    }
    write_summary("garbage", backend, report, started)
    assert not pool.wrong, pool.wrong[:10]
    assert report["state_changes"] == 0, report
    assert bad == 0, report
    assert growth < 0.10, report


def _dumps(message: Any) -> str:
    try:
        return json.dumps(message)
    except ValueError:  # NaN and infinities are not JSON: send them the way JS would
        return json.dumps(message, allow_nan=True)
