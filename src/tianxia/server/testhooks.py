"""Hooks that only tests turn on: fault points, an outbound tap and secret tagging.

They are off unless the server's environment has ``TIANXIA_TEST_HOOKS=1``; then
`Hooks.from_env` returns an object the app and the live games call at a few places, and
when it is off they hold `None` and pay one comparison. docs/reliability.md tells how
the harnesses in tests/reliability/ use them.

- ``TIANXIA_TEST_FAULT=<point>:<n>`` kills the process (SIGKILL to itself) the n-th time
  it passes `point`; ``<point>:p<prob>[:<seed>]`` at each pass with that probability.
  Points: ``before_commit`` (the action checked and written, its transaction not yet
  committed), ``after_commit`` (committed, not yet acknowledged), ``after_ack``
  (acknowledged, nobody else told), ``mid_broadcast`` (after a connection was sent its
  view while another is still owed one), ``mail_claimed`` (a mail claimed, not yet
  handed to the SMTP server), ``mail_sent`` (handed over, not yet marked sent).
- ``TIANXIA_TEST_LIE=ack_before_commit`` breaks the promise on purpose: the action is
  acknowledged at once and written a little later, so a kill loses acknowledged
  actions. Only the harness's self-test uses it, to show that it catches loss.
  ``TIANXIA_TEST_LIE=forget_resends``: a resent action id is judged as a new action
  (no remembered answer, no look-up by id), for the duplicates harness's self-test.
  ``TIANXIA_TEST_LIE=skip_an_event``: a hello with a last seq is answered from one event
  past it, for the reconnection harness's self-test.
- ``TIANXIA_TEST_BREAK=bot`` makes every bot's move fail, ``TIANXIA_TEST_BREAK=view:<n>``
  the n-th view the server builds for a broadcast: faults of the server's own code, to
  show that a game goes on past them and that they are logged, not swallowed.
- ``POST /api/test/writes`` ``{"fail": true}`` makes every database write fail as a
  full disk does, until ``{"fail": false}``: the refusals and retries of a failed write.
- ``TIANXIA_TEST_GRACE=<seconds>`` shortens the time a game asked for stays in memory
  whatever the count (2 s), so a test sees idle games leave memory at once;
  ``GET /api/test/memory`` says which games are in memory.
- ``TIANXIA_TEST_TAP=<file>`` records every websocket frame and HTTP response body, per
  viewer, one JSON line each (length and SHA-256; the text too with
  ``TIANXIA_TEST_TAP_TEXT=1``), and checks it for tagged secrets: every frame is
  searched for each thing its viewer may not know, each written as the server would
  write it (see `Secrets`). A find is written as a ``leak`` line.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from tianxia.server.live import LiveGame

POINTS = (
    "before_commit",
    "after_commit",
    "after_ack",
    "mid_broadcast",
    "mail_claimed",
    "mail_sent",
)


def _compact(value: Any) -> str:
    """JSON as the server writes a frame (`protocol.encode`)."""
    from tianxia.server.protocol import encode

    return encode(value)


@dataclass
class Hooks:
    fault_point: str | None = None
    countdown: int = 0
    probability: float = 0.0
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    ack_before_commit: bool = False
    forget_resends: bool = False
    skip_an_event: bool = False
    tap_path: str | None = None
    tap_text: bool = False
    break_bots: bool = False
    break_view: int = 0
    # Every write fails as a full disk does (set and cleared by a test route).
    writes_fail: bool = False
    # Seconds a game asked for stays in memory whatever the count (`Hub.grace`).
    grace: float | None = None
    _tap_lock: threading.Lock = field(default_factory=threading.Lock)
    # The seat secrets this process handed out, as (game, seat) -> secret: secrets are
    # stored hashed, so only the tap of the process that issued one can look for it.
    issued: dict[tuple[str, int], str] = field(default_factory=dict)
    scanned: int = 0
    leaks: int = 0

    @classmethod
    def from_env(cls, env: dict[str, str] | os._Environ[str] | None = None) -> Hooks | None:
        env = os.environ if env is None else env
        if env.get("TIANXIA_TEST_HOOKS") != "1":
            return None
        hooks = cls()
        spec = env.get("TIANXIA_TEST_FAULT", "")
        if spec:
            point, _, rest = spec.partition(":")
            if point not in POINTS:
                raise ValueError(f"no fault point {point!r} (points: {', '.join(POINTS)})")
            hooks.fault_point = point
            if rest.startswith("p"):
                prob, _, seed = rest[1:].partition(":")
                hooks.probability = float(prob)
                hooks.rng = random.Random(int(seed or 0))
            else:
                hooks.countdown = int(rest or 1)
        hooks.ack_before_commit = env.get("TIANXIA_TEST_LIE") == "ack_before_commit"
        hooks.forget_resends = env.get("TIANXIA_TEST_LIE") == "forget_resends"
        hooks.skip_an_event = env.get("TIANXIA_TEST_LIE") == "skip_an_event"
        broken = env.get("TIANXIA_TEST_BREAK", "")
        hooks.break_bots = broken == "bot"
        if broken.startswith("view:"):
            hooks.break_view = int(broken[5:])
        if env.get("TIANXIA_TEST_GRACE"):
            hooks.grace = float(env["TIANXIA_TEST_GRACE"])
        hooks.tap_path = env.get("TIANXIA_TEST_TAP") or None
        hooks.tap_text = env.get("TIANXIA_TEST_TAP_TEXT") == "1"
        return hooks

    # --- fault points ---------------------------------------------------------------------
    def fault(self, point: str) -> None:
        """Die here, without a word, if the test chose this point and its time has come;
        at ``write``, fail as a full disk does if the test asked for that."""
        if point == "write":
            if self.writes_fail:
                import sqlite3

                import sqlalchemy as sa

                raise sa.exc.OperationalError(
                    "test hook", {}, sqlite3.OperationalError("database or disk is full")
                )
            return
        if point != self.fault_point:
            return
        if self.probability:
            if self.rng.random() >= self.probability:
                return
        else:
            self.countdown -= 1
            if self.countdown > 0:
                return
        os.kill(os.getpid(), signal.SIGKILL)

    def view_breaks(self) -> None:
        """Raise here the n-th time a broadcast builds a view, if the test asked for it."""
        if self.break_view <= 0:
            return
        self.break_view -= 1
        if self.break_view == 0:
            raise RuntimeError("test hook: this view fails")

    # --- the outbound tap -----------------------------------------------------------------
    def outbound(
        self,
        kind: str,
        live: LiveGame | None,
        viewer: int | None,
        text: str,
        finished_only: bool = False,
    ) -> None:
        """Record one outbound message for `viewer` of `live` and look in it for what
        that viewer may not know. `finished_only`: a replay or log of a finished game,
        where every seat's past is public and only the seed, the chance stream and the
        seats' secrets stay secret (a past state's public fields would otherwise match
        tags of the present one)."""
        if self.tap_path is None:
            return
        record: dict[str, Any] = {
            "kind": kind,
            "game": live.id if live is not None else None,
            "viewer": viewer,
            "seq": live.table.seq if live is not None else None,
            "bytes": len(text.encode()),
            "sha256": hashlib.sha256(text.encode()).hexdigest(),
        }
        if self.tap_text:
            record["text"] = text
        found: list[dict[str, Any]] = []
        if live is not None:
            for label, marker in Secrets.of(live).hidden_from(viewer, self.issued):
                if finished_only and not label.startswith(("seed", "rng", "secret")):
                    continue
                if marker in text:
                    found.append({"label": label, "marker": marker[:120]})
        lines = [record]
        lines += [{"kind": "leak", "game": record["game"], "viewer": viewer, **f} for f in found]
        with self._tap_lock:
            self.scanned += 1
            self.leaks += len(found)
            with open(self.tap_path, "a") as out:
                for line in lines:
                    out.write(json.dumps(line) + "\n")


class Secrets:
    """What each viewer of one game may not know at its current state, each as the
    exact text the server would write if it sent it: the tags the tap looks for.

    The engine's hidden values are small integers and colour names that also occur in
    public places, so a hidden card is not tagged by its value alone but by the text
    that carries it: the full state's fields (``"hands":[[0,1,...]]``), each other
    seat's private observation fields (``"hand":{"red":2,...}``), the sentences only
    another seat reads ("P1 draws a red"), the actions open to the seat deciding, bot
    reasons before the end, the chance seed and the chance stream's state (numbers of
    18 to 19 and 9 to 10 digits), and the seat secrets this process issued. A tag that
    also occurs in what the viewer may see (its own hand equal to another's) tells
    nothing and is not searched for; `skipped` counts those.
    """

    _cache: ClassVar[dict[str, tuple[int, Secrets]]] = {}

    def __init__(self, live: LiveGame) -> None:
        t = live.table
        m = t.match
        state = t.state
        players = live.game.players
        seq = t.seq
        terminal = state.is_terminal()
        seats = list(range(players))
        public: list[tuple[str, str]] = [("seed", str(live.row["seed"]))]
        words = m.rng.getstate()[1]
        public += [(f"rng[{i}]", str(words[i])) for i in (0, 1, 2)]
        full = state.to_json()
        public += [(f"state.{k}", f'"{k}":{_compact(v)}') for k, v in full.items()]
        # Per seat: the tags of things only that seat may know.
        private: dict[int, list[tuple[str, str]]] = {s: [] for s in seats}
        spectator = state.observation(None)
        for s in seats:
            obs = state.observation(s)
            for k, v in obs.items():
                if spectator.get(k) != v:
                    private[s].append((f"obs[{s}].{k}", f'"{k}":{_compact(v)}'))
            legal = t.legal_for(s)
            if legal:
                private[s].append((f"legal[{s}]", _compact(legal)))
        if not terminal:
            for i in range(seq):
                ev = m.event(i)
                if ev.seen_by is not None and ev.text != ev.others:
                    text = _compact(ev.text)[1:-1]
                    for s in ev.seen_by:
                        private[s].append((f"event[{i + 1}]", text))
            for q, (s, why) in t.explanations.items():
                if len(why) >= 16:
                    private[s].append((f"why[{q}]", _compact(why)[1:-1]))
        self.seq = seq
        self.game_id = live.id
        self.public = public
        self.private = private
        self.seats = seats
        self.references: dict[int | None, str] = {}
        self.hidden: dict[int | None, list[tuple[str, str]]] = {}
        self.live = live
        self.skipped = 0

    @classmethod
    def of(cls, live: LiveGame) -> Secrets:
        key = id(live.table.state)
        cached = cls._cache.get(live.id)
        if cached is not None and cached[0] == key and cached[1].seq == live.table.seq:
            return cached[1]
        found = cls(live)
        cls._cache[live.id] = (key, found)
        return found

    def reference(self, viewer: int | None) -> str:
        """What `viewer` may see now, written out: a tag found here tells it nothing."""
        if viewer not in self.references:
            live = self.live
            t = live.table
            parts = [
                t.state.envelope(viewer, t.seq),
                t.events_for(viewer),
                t.legal_for(viewer),
                live.summary(),
            ]
            self.references[viewer] = "\n".join(_compact(p) for p in parts)
        return self.references[viewer]

    def hidden_from(
        self, viewer: int | None, issued: dict[tuple[str, int], str]
    ) -> list[tuple[str, str]]:
        if viewer not in self.hidden:
            tags = list(self.public)
            for s in self.seats:
                if s != viewer:
                    tags += self.private[s]
            ref = self.reference(viewer)
            kept = [(label, marker) for label, marker in tags if marker not in ref]
            self.skipped += len(tags) - len(kept)
            self.hidden[viewer] = kept
        out = list(self.hidden[viewer])
        for s in self.seats:
            secret = issued.get((self.game_id, s))
            if s != viewer and secret is not None:
                out.append((f"secret[{s}]", secret))
        return out
