"""Live games: the table in memory, its lock, its connections, bots and clocks.

A game's state is its committed log replayed through the engine. Every change follows
one path, under the game's lock: check, apply in memory, write the new log rows in one
transaction, and only then acknowledge and send each connection its own view. If the
write fails, the memory is rolled back and the action refused: no client ever sees a
state that is not committed.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from tianxia.core import (
    CHANCE,
    Game,
    IllegalActionError,
    Match,
    NotationError,
    State,
    load_game,
    seat_name,
)
from tianxia.core.registry import game_class
from tianxia.play.table import NotYourTurn, RandomBot, SeatPlan, Table, make_bot
from tianxia.server import protocol as P
from tianxia.server.bots import BOTS_ONLY, PERSON, BotScheduler, think
from tianxia.server.clocks import (
    MIN_CLOCK,
    Clock,
    is_stand_in,
    left,
    queue_timeout_mail,
    spend,
    stand_in_id,
)
from tianxia.server.leases import Leases, catch_up
from tianxia.server.lobby import SECONDS as LOBBY_SECONDS
from tianxia.server.lobby import LobbyPages
from tianxia.server.ratings import ranking
from tianxia.server.storage import SEAT_CLOCKS, Conflict, Row, Store

if TYPE_CHECKING:
    from tianxia.server.mail import Mail
    from tianxia.server.testhooks import Hooks

log = logging.getLogger("tianxia.server")
_T = TypeVar("_T")
TAKEOVER_STRENGTH = "medium"


class Unloadable(Exception):
    """A stored game this release cannot resume: written under newer rules, or its log no
    longer replays to the states stored with it (the rules changed under it). The
    message names the game, its rules version and the first seq that differs."""


def state_hash(state: State) -> str:
    """SHA-256 of the state's canonical serialisation (sorted keys, no spaces:
    `protocol.canonical`)."""
    return hashlib.sha256(P.canonical(state.to_json())).hexdigest()


def receipt(seed: int, game_id: str, stored_hash: str) -> str:
    """What an ack carries for the stored state hash: an HMAC of it under the game's
    secret seed. The plain hash is of the whole state, hidden cards included; late in a
    game a seat could hash its guesses at the few cards still hidden and test them
    against it. Keyed, it identifies the state for the server alone, and stays the same
    for a resent action, across restarts."""
    key = f"{seed}:{game_id}".encode()
    return hmac.new(key, stored_hash.encode(), hashlib.sha256).hexdigest()


# Messages other than views (chat lines) kept for a connection that does not read.
OUTBOX = 100
UNAVAILABLE_SENTENCE = (
    "the game could not be saved just now (the database refused the write): "
    "nothing changed; try again in a moment"
)
# A bot whose move could not be written tries again after this, doubling to BOT_RETRY_MAX.
BOT_RETRY = 0.25
BOT_RETRY_MAX = 30.0
# Answers to action ids remembered per seat (a page resends its last few at most).
REPLIES = 64


async def _nothing() -> None:
    return None


@dataclass(eq=False)
class Connection:
    """One websocket: whom it speaks for, what it has been sent, its rate budget."""

    send: Callable[[dict[str, Any]], Awaitable[None]]
    close: Callable[[], Awaitable[None]] = field(default=_nothing)
    seat: int | None = None
    bound: bool = False
    player: str | None = None
    # The signed-in account the socket was opened for (its session cookie), if any.
    account: str | None = None
    sent_seq: int = 0
    sent_final: bool = False
    board: bool = False
    lang: str = "en"
    tokens: float = 60.0
    stamp: float = field(default_factory=time.monotonic)
    # What the connection's own sender owes it: messages in order, then a view of the
    # game as it is when the socket is ready (views in between are not needed: the
    # view's events run from what was last sent).
    outbox: list[dict[str, Any]] = field(default_factory=list)
    view_owed: bool = False
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    sender: asyncio.Task[None] | None = None

    def post(self, msg: dict[str, Any]) -> None:
        """Queue `msg` for the sender; a viewer that stops reading loses the oldest."""
        self.outbox = [*self.outbox[-(OUTBOX - 1) :], msg]
        self.wake.set()

    def spend(self, rate: float = 30.0, burst: float = 60.0) -> bool:
        now = time.monotonic()
        self.tokens = min(burst, self.tokens + (now - self.stamp) * rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class Storage:
    """The store behind one thread: writes happen in order, off the event loop. The
    reads anyone may ask for at any rate run beside it (`read`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tianxia-db")
        # As many threads as the store has reader connections.
        self.readers = ThreadPoolExecutor(
            max_workers=store.reader_count, thread_name_prefix="tianxia-read"
        )

        self._pending: list[tuple[str, list[Row], dict[str, Any] | None, asyncio.Future[None]]] = []
        self._flushing = False
        self._flusher: asyncio.Task[None] | None = None

    async def run(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, lambda: fn(*args, **kwargs))

    async def read(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """Run `fn`, a read on the store's reader connections (`Store.snapshot`), on
        a thread of its own: the lobby's polls never queue in front of a commit."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.readers, lambda: fn(*args, **kwargs))

    async def append(self, game_id: str, rows: list[Row], values: dict[str, Any] | None) -> None:
        """Write one game's rows, and `values` into its row (`Store.append`); returns
        once they are committed.

        Appends that arrive while a commit is in flight wait and go together in the next
        transaction (group commit): one fsync for many games, and still no answer before
        its own rows are durable.

        Raises:
            Conflict: the seq or client id was taken; nothing of this append was written.
        """
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((game_id, rows, values, fut))
        if not self._flushing:
            self._flushing = True
            self._flusher = asyncio.create_task(self._flush())
        await fut

    async def _flush(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    results = await self.run(
                        self.store.append_many, [(g, rows, values) for g, rows, values, _ in batch]
                    )
                except BaseException as e:
                    for *_, fut in batch:
                        if not fut.done():
                            fut.set_exception(e)
                    if not isinstance(e, Exception):
                        raise
                    continue
                for (*_, fut), failure in zip(batch, results, strict=True):
                    if fut.done():
                        continue
                    if failure is None:
                        fut.set_result(None)
                    else:
                        fut.set_exception(failure)
        finally:
            self._flushing = False


class LiveGame:
    """One game in memory. Build with `LiveGame.load`."""

    def __init__(self, hub: Hub, game_id: str, row: dict[str, Any], seats: list[dict[str, Any]]):
        self.hub = hub
        self.id = game_id
        self.row = row
        self.seats = seats
        # The names of the accounts open seats are kept for (`seats.invited`), by id:
        # the lobby and the table say whom a seat waits for.
        self.invited_names: dict[str, str] = {}
        # A game stored under an older rules version plays on under the options that
        # keep its rules (`Game.options_of_version`), as the engine replays older saves.
        options = game_class(row["game"]).options_of_version(
            row["rules_version"], json.loads(row["options"])
        )
        self.game: Game = hub.game(row["game"], row["players"], options)
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.table: Table
        self.takeover: set[int] = set()
        # The answers given to each seat's action ids, newest last: a resend gets its
        # first answer. Ids are a seat's own; the oldest are forgotten past REPLIES
        # (a resend of an accepted one is then answered from its stored row).
        self.replies: dict[int, OrderedDict[str, dict[str, Any]]] = {}
        self.chat: list[dict[str, Any]] = []
        # The game that follows this one when its players asked for a rematch.
        self.rematch: str | None = row.get("rematch")
        # Each rated seat's rating before and after this game, once it is rated (kept
        # with the game's row, so the end-of-game summary shows it after a restart).
        self.rating_changes: list[dict[str, Any]] | None = _changes_of(row)
        self.bot_task: asyncio.Task[None] | None = None
        self.clock_task: asyncio.Task[None] | None = None
        # Set once the end of the game was seen with its lease held (rated, given back).
        self.finishing = False
        # The game's time banks (None: no clock), and the (seq, seat) whose clock the
        # clock task waits on: asked again for the same turn, it is left running.
        self.clock = Clock.of(row)
        self.clock_for: tuple[int, int] | None = None
        # Who made each decision of a person's seat: seq -> (seat, by a stand-in), from
        # the log's client ids (a stand-in's are `stand-in:<seq>`).
        self.marks: dict[int, tuple[int, bool]] = {}
        # Seats whose turn a stand-in plays once, their time having run out under the
        # `skip` policy; and, per seat, what a person who returns is told once (`away`).
        self.skipping: set[int] = set()
        self.away: dict[int, dict[str, Any]] = {}
        # Set when the hub let the game leave memory (`Hub.trim`); `used` is when it was
        # last asked for (monotonic), to leave the least recently used first.
        self.evicted = False
        self.used = time.monotonic()
        # What a view holds whoever receives it, per (seat, language, board), for the
        # state `_views_of` at `version` (`shared_view`); `version` counts the changes
        # broadcast, which a view may show beside the state (seats, clock, rematch).
        self.version = 0
        self._views: dict[tuple[int | None, str, bool], tuple[dict[str, Any], str | None]] = {}
        self._views_of: tuple[State, int] | None = None
        # The seats' rows of those views, alike for every seat: made once for them all.
        self._seat_rows: list[dict[str, Any]] | None = None

    # --- loading ------------------------------------------------------------------------
    @classmethod
    async def load(cls, hub: Hub, game_id: str) -> LiveGame | None:
        st = hub.storage
        row = await st.run(st.store.game, game_id)
        if row is None:
            return None
        current = game_class(row["game"]).VERSION
        what = f"game {game_id} ({row['game']}, rules version {row['rules_version']})"
        if row["rules_version"] > current:
            raise Unloadable(
                f"{what} was written by a newer release; this one has rules version {current}"
            )
        seats = await st.run(st.store.seats, game_id)
        live = cls(hub, game_id, row, seats)
        from tianxia.server.accounts import account_names  # accounts imports this module

        live.invited_names = await st.read(account_names, st.store, invited_ids(seats))
        rows = await st.run(st.store.log, game_id)
        match = Match(live.game, seed=row["seed"])
        for r in rows:
            chance = match.state.current_player() == CHANCE
            try:
                match.play(r.action)
            except (IllegalActionError, NotationError) as e:
                raise Unloadable(
                    f"{what}: seq {r.seq} ({r.action!r}) no longer replays under rules "
                    f"version {current}: {e}"
                ) from None
            if chance:
                # choose_outcome draws once per chance outcome: the stream stays in step.
                match.rng.random()
            elif r.seat is not None and r.client_id is not None:
                live.marks[r.seq] = (r.seat, is_stand_in(r.client_id))
            # Every stored state, not only the last: a rule changed without a new rules
            # version shows at the first seq it touched.
            if state_hash(match.state) != r.state_hash:
                raise Unloadable(
                    f"{what}: the replayed log gives another state at seq {r.seq} than the "
                    f"one stored (the rules changed without a new rules version?)"
                )
        start = match.seq
        live.table = Table(match, live.plans(), bot_seed=row["seed"] % 1_000_003)
        for s in seats:
            if s["resigned"]:
                live.table.bots[s["seat"]] = make_bot(
                    TAKEOVER_STRENGTH, live.game, s["seat"], s["seat"]
                )
            elif (
                s["stand_in_since"] is not None
                and live.clock is not None
                and live.clock.policy == "bot"
            ):
                # Ran out of time before the restart and not back since: the stand-in
                # plays on, as it did.
                live.table.bots[s["seat"]] = make_bot(
                    TAKEOVER_STRENGTH, live.game, s["seat"], match.seq
                )
                live.takeover.add(s["seat"])
        # The table resolves chance at once (the opening deal): write what it drew, in
        # the group commit with the moves being written (under a flood of new games, a
        # commit of its own for each kept the players' moves waiting behind them).
        if match.seq > start:
            rows = live.rows_since(start, None, None)
            try:
                await st.append(game_id, rows, live.public())
            except Conflict:
                # Another process loaded it at the same time and wrote the same draws
                # first: the stored game is the one to hold.
                return await cls.load(hub, game_id)
        elif row.get("seq") != match.seq:
            # Stored before the row kept its public summary: the lobby reads it from now on.
            await st.run(st.store.set_values, game_id, live.public())
        return live

    @classmethod
    async def create(
        cls, hub: Hub, row: dict[str, Any], seats: list[dict[str, Any]], max_open: int = 0
    ) -> LiveGame:
        """A new game: built in memory from the rows it is to be written as
        (`new_game_rows`), its opening's chance resolved, then written whole in one
        transaction with those draws and its public summary (`Store.insert_game`), and
        held by the hub. Nothing is read back: what was written is what is held.

        Raises:
            OverQuota: as `Store.insert_game`; nothing was written or kept.
        """
        live = cls(hub, row["id"], row, seats)
        seed = int(row["seed"])
        live.table = Table(Match(live.game, seed=seed), live.plans(), bot_seed=seed % 1_000_003)
        opening = live.rows_since(0, None, None)
        row.update(live.public())
        st = hub.storage
        await st.run(st.store.insert_game, row, seats, opening, max_open)
        hub.games[live.id] = live
        live.kick()
        hub.trim()
        return live

    def receipt(self, stored_hash: str) -> str:
        """The state hash an ack carries: keyed (`receipt`), or, with the test hooks on,
        the plain hash the harnesses compare with a replay of the stored log."""
        if self.hub.hooks is not None:
            return stored_hash
        return receipt(int(self.row["seed"]), self.id, stored_hash)

    def public(self) -> dict[str, Any]:
        """The public summary the game's row keeps for the lobby (`Store.lobby`)."""
        state = self.table.state
        p = state.current_player()
        return {
            "seq": self.table.seq,
            "to_move": p if p >= 0 else None,
            "scores": json.dumps(state.scores_for(None)),
        }

    def plans(self) -> list[SeatPlan]:
        return [
            SeatPlan("bot", s["strength"] or "random") if s["kind"] == "bot" else SeatPlan()
            for s in self.seats
        ]

    def rows_since(self, start: int, client_id: str | None, seat: int | None) -> list[Row]:
        m = self.table.match
        out = []
        for i in range(start, m.seq):
            who = m.seat_of(i)
            out.append(
                Row(
                    seq=i + 1,
                    client_id=client_id if i == start else None,
                    seat=None if who == CHANCE else who,
                    action=str(m.log[i]),
                    state_hash=state_hash(m.history[i + 1]),
                    undone=False,
                )
            )
        return out

    # --- what the game is doing ----------------------------------------------------------
    @property
    def status(self) -> str:
        if self.table.state.is_terminal():
            return "finished"
        if any(s["kind"] == "open" for s in self.seats):
            return "open"
        return "running"

    def summary(self) -> dict[str, Any]:
        """The public summary: nothing any one seat may not see."""
        state = self.table.state
        p = state.current_player()
        return {
            "id": self.id,
            "game": self.row["game"],
            "title": self.game.info.title,
            "players": self.row["players"],
            "options": json.loads(self.row["options"]),
            "rules_version": self.row["rules_version"],
            "status": self.status,
            "seq": self.table.seq,
            "to_move": p if p >= 0 else None,
            "clock": None if self.clock is None else self.clock.public(),
            "created": self.row["created"],
            "seats": self.seat_list(),
            "scores": state.scores_for(None),
            "rating_changes": self.rating_changes,
            "present": len(self.present()),
        }

    def seat_list(self) -> list[dict[str, Any]]:
        names = seat_names(self.seats)
        present = self.present()
        return [
            {
                "seat": s["seat"],
                "name": names[i],
                "kind": s["kind"],
                "strength": s["strength"],
                "resigned": bool(s["resigned"]),
                "bot_playing": s["seat"] in self.takeover,
                "account": s.get("account_id") is not None,
                "present": s["seat"] in present,
                "invited": kept_for(s, self.invited_names),
            }
            for i, s in enumerate(self.seats)
        ]

    def present(self) -> set[int]:
        """The seats whose socket is open now (a window of their player holds them)."""
        return {c.seat for c in self.conns if c.seat is not None and c.bound}

    def view_message(self, conn: Connection) -> dict[str, Any]:
        """Everything sent to `conn` comes from its viewer's envelope and events only:
        what every connection of its seat and language is sent alike (`shared_view`),
        and its own events since its last view (and board, as a patch of its last)."""
        t = self.table
        seat = conn.seat
        since = min(conn.sent_seq, t.seq)
        if t.state.is_terminal() and not conn.sent_final:
            since = 0  # the end shows every event whole: send the log again
            conn.sent_final = True
        shared, svg = self.shared_view(seat, conn.lang, conn.board)
        events = t.events_for(seat, since=since)
        if conn.lang != "en":
            from tianxia.web.sentences import translate_sentence

            events = [
                {**e, "text": translate_sentence(e["text"], conn.lang, self.game.NAME)}
                if e.get("text")
                else e
                for e in events
            ]
        if self.marks:
            marks = self.marks
            events = [
                {**e, "stand_in": True} if marks.get(e["seq"], (0, False))[1] else e for e in events
            ]
        msg = {**shared, "since": since, "events": events}
        if self.clock is not None:
            msg["clock"] = self.clock_view(time.time())
        if seat is not None and conn.bound and seat in self.away:
            # Told once: the first view after the person came back from a stand-in.
            msg["away"] = self.away.pop(seat)
        if svg is not None:
            # A browser: each move in words, and the board whole or as a patch.
            from tianxia.web.tableview import board_for, with_words

            msg["events"] = with_words(self, seat, conn.lang, events)
            msg.update(board_for(conn, svg))
        conn.sent_seq = t.seq
        return msg

    def shared_view(
        self, seat: int | None, lang: str, board: bool
    ) -> tuple[dict[str, Any], str | None]:
        """What a view of `seat` in `lang` holds whoever receives it, and for a browser
        (`board`) the board drawn, as SVG: computed once per state and change of the
        game, for every connection that sees it alike (a seat's windows, the
        spectators). The caller must not change what it is given."""
        t = self.table
        now = (t.state, self.version)
        if self._views_of is None or self._views_of[0] is not now[0] or self._views_of[1] != now[1]:
            self._views.clear()
            self._seat_rows = None
            self._views_of = now
        key = (seat, lang, board)
        found = self._views.get(key)
        if found is None:
            found = self._views[key] = self._shared_view(seat, lang, board)
        return found

    def _shared_view(
        self, seat: int | None, lang: str, board: bool
    ) -> tuple[dict[str, Any], str | None]:
        t = self.table
        state = t.state
        envelope = state.envelope(seat, t.seq)
        status = self.status
        running = status == "running"
        if self._seat_rows is None:
            self._seat_rows = self.seat_list()
        msg: dict[str, Any] = {
            "type": "view",
            "seq": t.seq,
            "view": envelope,
            "legal": t.legal_for(seat) if running and seat not in t.bots else [],
            "terminal": envelope["terminal"],
            "scores": envelope["scores"],
            "undo": seat is not None and running and t.can_undo(seat),
            "status": status,
            "seat": seat,
            "seats": self._seat_rows,
        }
        if lang != "en":
            _in_words_of(msg, lang, self.game.NAME)
        svg = None
        if board:
            # A browser: the board, moves in words, the players' panels, the end.
            from tianxia.web.tableview import table_fields

            fields, svg = table_fields(self, seat, lang, envelope, msg["legal"])
            msg.update(fields)
        if state.is_terminal():
            # A bot's reasons name the moves it weighed, which can tell what it held:
            # they are shown once the game is over and nothing is hidden any more.
            from tianxia.web.sentences import bot_reason

            msg["why"] = {
                str(seq): bot_reason(text, lang, self.game.NAME)
                for seq, (_, text) in t.explanations.items()
            }
        return msg, svg

    def attach(self, conn: Connection) -> None:
        """Count `conn` among the game's viewers and send it a view at once."""
        self.hub.adopt(self)
        arrives = conn.seat is not None and conn.seat not in self.present()
        self.conns.add(conn)
        self.version += 1
        if arrives:
            # The other panels show this seat present now; a second window of a seat
            # already present changes nothing anyone sees, and costs nobody a view.
            self.broadcast()
        if conn.sender is None or conn.sender.done():
            conn.sender = asyncio.create_task(self._sender(conn))
        conn.view_owed = True
        conn.wake.set()

    def detach(self, conn: Connection) -> None:
        self.conns.discard(conn)
        if not self.conns:
            self._views.clear()  # a game nobody watches holds no view (boards are large)
            self._seat_rows = None
        if conn.seat is not None and conn.seat not in self.present():
            self.broadcast()  # the other panels show this seat gone
        if conn.sender is not None:
            conn.sender.cancel()

    def broadcast(self) -> None:
        """Owe every viewer a view of the game as it now is.

        Each connection's own sender builds and sends it when that socket is ready:
        sending here, under the game's lock, let one viewer that stopped reading (its
        buffers full) stop the whole game for everyone."""
        self.version += 1
        for conn in list(self.conns):
            conn.view_owed = True
            conn.wake.set()
        if self.hub.mail is not None:
            self.hub.mail.news(self)  # a turn, a start, an end: mail for the accounts in it

    async def _sender(self, conn: Connection) -> None:
        hooks = self.hub.hooks
        while conn in self.conns:
            await conn.wake.wait()
            conn.wake.clear()
            try:
                while conn.outbox:
                    await conn.send(conn.outbox.pop(0))
                if not conn.view_owed:
                    continue
                conn.view_owed = False
                # The view is built under the lock: a commit in progress has changed the
                # table before its write returns, and nobody may see it before then.
                async with self.lock:
                    if conn not in self.conns:
                        return
                    try:
                        if hooks is not None:
                            hooks.view_breaks()
                        msg = self.view_message(conn)
                    except Exception:
                        # A fault of ours, not of the socket: left silent, the page would
                        # wait for a view that never comes. It is logged, and the socket
                        # closed so the page reconnects and asks again.
                        log.exception("game %s: the view for seat %s failed", self.id, conn.seat)
                        self.conns.discard(conn)
                        await conn.close()
                        return
                await conn.send(msg)
            except Exception:  # a dead socket: its handler will drop it
                self.conns.discard(conn)
                return
            if hooks is not None and any(c.view_owed for c in self.conns if c is not conn):
                hooks.fault("mid_broadcast")

    # --- the one path of change ----------------------------------------------------------
    async def act(self, conn: Connection, msg: P.Act) -> dict[str, Any]:
        """Check, apply, commit, then answer; the caller broadcasts after an accept."""
        seat = conn.seat
        if seat is None:
            # Refused before any look-up and remembered nowhere: a spectator's id
            # neither reads a seat's answer nor blocks a seat's action.
            return self._in_language(
                self._refuse(msg.action_id, P.NO_SEAT, "SERVER-1", "a spectator takes no action"),
                conn.lang,
            )
        forget = self.hub.hooks is not None and self.hub.hooks.forget_resends
        mine = self.replies.setdefault(seat, OrderedDict())
        if msg.action_id in mine and not forget:
            return self._in_language(mine[msg.action_id], conn.lang)
        reply = await self._act(conn, msg)
        if reply["type"] == "refused" and reply["code"] != P.UNAVAILABLE and not forget:
            # A resend of an action this seat had taken before a restart is refused as
            # stale or conflicting; the database still knows its first result, which is
            # the answer. Only refusals pay for the look-up.
            st = self.hub.storage
            done = await st.run(st.store.by_client_id, self.id, seat, msg.action_id)
            if done is not None:
                reply = {
                    "type": "accepted",
                    "action_id": msg.action_id,
                    "seq": done.seq,
                    "state_hash": self.receipt(done.state_hash),
                }
        if reply.get("code") != P.UNAVAILABLE:
            # Nothing was judged when the database failed: a resend is judged afresh.
            mine[msg.action_id] = reply
            while len(mine) > REPLIES:
                mine.popitem(last=False)
        return self._in_language(reply, conn.lang)

    @staticmethod
    def _in_language(reply: dict[str, Any], lang: str) -> dict[str, Any]:
        """A refusal's reason in the connection's language (the rule number stays)."""
        if reply["type"] != "refused" or lang == "en":
            return reply
        from tianxia.web.sentences import translate_reason

        return {**reply, "reason": translate_reason(reply["rule"], reply["reason"], lang)}

    def _refuse(self, action_id: str, code: str, rule: str, reason: str) -> dict[str, Any]:
        return {
            "type": "refused",
            "action_id": action_id,
            "code": code,
            "rule": rule,
            "reason": reason,
        }

    async def _act(self, conn: Connection, msg: P.Act) -> dict[str, Any]:
        t = self.table
        if conn.seat is None:
            return self._refuse(msg.action_id, P.NO_SEAT, "SERVER-1", "a spectator takes no action")
        status = self.status
        if status == "open":
            return self._refuse(
                msg.action_id,
                P.NOT_STARTED,
                "SERVER-2",
                "the game waits for every seat to be taken",
            )
        # Stale before over: of conflicting actions at the last move, the ones that lost
        # the race are told their view was out of date, as at any other seq.
        if msg.expected_seq != t.seq:
            return self._refuse(
                msg.action_id,
                P.STALE,
                "SERVER-3",
                f"the game is at seq {t.seq}, not {msg.expected_seq}: the view was out of date",
            )
        if status == "finished":
            return self._refuse(msg.action_id, P.GAME_OVER, "ENGINE-1", "the game is over")
        try:
            t.check_turn(conn.seat)
            if conn.seat in t.bots:
                raise NotYourTurn("SERVER-4", f"a bot is playing {seat_name(conn.seat)}'s seat")
            action = t.state.check(t.state.to_action(msg.action))
        except NotationError as e:
            return self._refuse(msg.action_id, P.UNREADABLE, "ENGINE-0", e.reason)
        except NotYourTurn as e:
            return self._refuse(msg.action_id, P.NOT_YOUR_TURN, e.rule, e.reason)
        except IllegalActionError as e:
            return self._refuse(msg.action_id, P.ILLEGAL, e.rule, e.reason)
        try:
            row = await self.commit(action, conn.seat, msg.action_id)
        except Exception as e:
            log.error("game %s: the action of seat %s was not written: %s", self.id, conn.seat, e)
            return self._refuse(msg.action_id, P.UNAVAILABLE, "SERVER-6", UNAVAILABLE_SENTENCE)
        if row is None:
            return self._refuse(
                msg.action_id, P.CONFLICT, "SERVER-5", "another action took this seq first"
            )
        return {
            "type": "accepted",
            "action_id": msg.action_id,
            "seq": row.seq,
            "state_hash": self.receipt(row.state_hash),
        }

    async def commit(self, action: Any, seat: int, client_id: str | None) -> Row | None:
        """Apply `action` (legal, for `seat`) and what chance then decides; write it all
        in one transaction; roll the memory back if the write fails. The game's lock is
        held by the caller."""
        t = self.table
        m = t.match
        start = m.seq
        # A stand-in's move for a person's seat is marked in the log by its client id
        # (a seat given up is played by a bot of its own: not a stand-in's).
        stand_in = (seat in self.takeover or seat in self.skipping) and not self.seats[seat][
            "resigned"
        ]
        if stand_in:
            client_id = stand_in_id(start + 1)
        own = client_id is not None and not stand_in
        t.play(action, seat)
        # A failed write puts the chance stream back as it was, if chance drew.
        rng = t.chance_before
        rows = self.rows_since(start, client_id, seat)
        status = "finished" if t.state.is_terminal() else None
        values = self.public()
        if status is not None:
            values["status"] = status
        now = time.time()
        clocks = self._charged(seat, own, now)
        # Every game keeps when the seat to move got the move (a clock runs from it; a
        # player's list of games puts the longest waiting first by it).
        values["turn_since"] = now
        if clocks:
            values[SEAT_CLOCKS] = clocks
        st = self.hub.storage
        hooks = self.hub.hooks
        if hooks is not None and hooks.ack_before_commit:
            self._write_later(rows, values)
            self._moved(start + 1, seat, own, stand_in, now, clocks)
            return rows[0]
        try:
            await st.append(self.id, rows, values)
        except Conflict:
            while m.seq > start:
                m.undo()
            if rng is not None:
                m.rng.setstate(rng)
            # Another process wrote this game first: catch up, so the refused client's
            # next view (and the next try) starts from the stored game.
            try:
                await self.sync()
            except Exception:
                log.exception("game %s: could not catch up with the database", self.id)
            return None
        except BaseException:
            while m.seq > start:
                m.undo()
            if rng is not None:
                m.rng.setstate(rng)
            raise
        self._moved(start + 1, seat, own, stand_in, now, clocks)
        if status == "finished":
            self.hub.lobby.changed()
            if not self.hub.leases.implicit:
                # Rated once, by the lease's holder: this process if it holds it or can
                # take it, else the holder when it sees the end (`kick`).
                if await self.hub.leases.take(self.id):
                    self._finish_soon()
                return rows[0]
            try:
                await self._rate()
            except Exception:
                # The game is committed: ratings that could not be written must not
                # turn its last move into a refusal.
                log.exception("game %s: its ratings were not written", self.id)
        return rows[0]

    def _charged(self, seat: int, own: bool, now: float) -> dict[int, dict[str, Any]]:
        """The mover's clock after its own decision (the table has applied it): the
        time since it got the move spent, bank first, then vacation, and `increment`
        added when the decision ends its turn (every turn, the first too); empty for
        anyone else's move, whose clock does not run."""
        clock = self.clock
        if clock is None or not own:
            return {}
        s = self.seats[seat]
        since = self.row.get("turn_since")
        bank, vacation = spend(
            clock.bank_of(s), clock.vacation_of(s), 0.0 if since is None else now - float(since)
        )
        if self.table.to_move() != seat:
            bank += clock.increment
        return {seat: {"bank": bank, "vacation_left": vacation, "stand_in_since": None}}

    def _moved(
        self,
        seq: int,
        seat: int,
        own: bool,
        stand_in: bool,
        now: float,
        clocks: dict[int, dict[str, Any]],
    ) -> None:
        """The memory after a decision is written: who made it, the clocks, the end of
        a skipped turn."""
        if own or stand_in:
            self.marks[seq] = (seat, stand_in)
        self.row["turn_since"] = now
        for who, values in clocks.items():
            self.seats[who].update(values)
        if seat in self.skipping and self.table.to_move() != seat:
            # The skipped turn is over: the seat's clock runs again at its next one.
            self.skipping.discard(seat)
            self.table.bots.pop(seat, None)

    def _write_later(self, rows: list[Row], values: dict[str, Any]) -> None:
        """The broken promise of a test hook: answer now, write a moment later."""

        async def later() -> None:
            await asyncio.sleep(0.05)
            await self.hub.storage.append(self.id, rows, values)

        task = asyncio.create_task(later())
        self.hub.background.add(task)
        task.add_done_callback(self.hub.background.discard)

    async def _rate(self) -> None:
        """Ratings of accounts and bots across games (`tianxia.server.ratings.ranking`):
        each seat ranked by its return, a seat given up last; bots one identity per
        strength (`bot:<strength>`, which may hold several seats of one game)."""
        st = self.hub.storage
        ids = [str(s["account_id"]) for s in self.seats if s.get("account_id")]
        names = await st.run(st.store.account_names, ids) if ids else {}
        rated = ranking(self.seats, self.table.state.returns(), self.marks, names)
        if rated is None:
            return
        try:
            changes = await st.run(st.store.rate, self.row["game"], rated.ranked, rated.fixed)
        except ImportError:
            log.warning("openskill is not installed: game %s is not rated", self.id)
            return
        rating_changes = [
            {"seat": seat, "before": changes[who][0], "after": changes[who][1]}
            for seat, (who, _, _) in enumerate(rated.ranked)
            if who in changes
        ]
        await st.run(st.store.mark_rated, self.id, rating_changes)
        self.rating_changes = rating_changes

    async def undo(self, conn: Connection, msg: P.Undo) -> dict[str, Any]:
        t = self.table
        if conn.seat is None:
            return self._refuse(msg.action_id, P.NO_SEAT, "SERVER-1", "a spectator takes no action")
        if msg.expected_seq != t.seq:
            return self._refuse(
                msg.action_id,
                P.STALE,
                "SERVER-3",
                f"the game is at seq {t.seq}, not {msg.expected_seq}",
            )
        if not t.can_undo(conn.seat):
            return self._refuse(
                msg.action_id,
                P.ILLEGAL,
                "TABLE-2",
                "nothing of yours to undo: undo stops at a chance event, at anything "
                "revealed, and at another seat's decision",
            )
        seq = t.seq
        st = self.hub.storage
        try:
            await st.run(st.store.undo, self.id, seq)
        except Conflict:
            # Another process moved or undid first: this copy catches up, and the
            # client is told its view was out of date, with the next view.
            await self.sync()
            return self._refuse(
                msg.action_id,
                P.STALE,
                "SERVER-3",
                f"the game is at seq {self.table.seq}, not {msg.expected_seq}",
            )
        except Exception as e:
            log.error("game %s: the undo of seat %s was not written: %s", self.id, conn.seat, e)
            return self._refuse(msg.action_id, P.UNAVAILABLE, "SERVER-6", UNAVAILABLE_SENTENCE)
        taken = t.undo(conn.seat)
        self.marks.pop(seq, None)
        for c in self.conns:
            c.sent_seq = min(c.sent_seq, t.seq)
        try:
            await st.run(st.store.set_values, self.id, self.public(), t.seq)
        except Exception as e:
            # The undo is written; only the lobby's summary lags until the next move.
            log.warning("game %s: the summary after an undo was not written: %s", self.id, e)
        return {"type": "undone", "action_id": msg.action_id, "seq": t.seq, "action": str(taken)}

    async def sync(self) -> LiveGame:
        """Bring this copy up to the database, where another process may have written
        the game since (several processes on one PostgreSQL: docs/server.md). The
        game's lock is held by the caller.

        The log's rows after this copy's seq are replayed, each stored state hash
        checked, and the seats and the game's row taken as stored. A log that no longer
        runs through the state held (an undo elsewhere, and another move at its seq)
        is not patched: the game is loaded anew and replaces this copy in the hub, its
        viewers moved over (`Hub.reload`). Viewers are owed a view when anything
        changed. Returns the game as the hub now holds it."""
        st = self.hub.storage
        found = await st.run(st.store.catch_up, self.id, self.table.seq)
        if found is None:
            # Deleted through another process (an open game nobody joined, expired):
            # it leaves memory here too, and its viewers are closed, as there.
            self.evicted = True
            if self.hub.games.get(self.id) is self:
                del self.hub.games[self.id]
            for conn in list(self.conns):
                self.detach(conn)
                await conn.close()
            return self
        row, seat_rows, rows = found
        before = self.table.seq
        if not self._replay(rows):
            return await self.hub.reload(self)
        changed = self.table.seq != before
        for s, stored in zip(self.seats, seat_rows, strict=True):
            if s != stored:
                changed = True
                if stored["resigned"] and not s["resigned"]:
                    self.table.bots[s["seat"]] = make_bot(
                        TAKEOVER_STRENGTH, self.game, s["seat"], s["seat"]
                    )
                s.update(stored)
        if self.row != row:
            self.row.update(row)
            self.rating_changes = _changes_of(row)
            self.rematch = row.get("rematch") or self.rematch
            changed = True
        if changed:
            self._seat_rows = None
            # Whoever learns of the change (a refused commit, a notification), the
            # viewers here are owed the game as stored.
            self.broadcast()
        return self

    def _replay(self, rows: list[Row]) -> bool:
        """Play the stored rows after this copy's seq (`rows` from that seq on); false
        where the stored log does not continue the state held."""
        m = self.table.match
        if m.seq > 0:
            if not rows or rows[0].seq != m.seq or rows[0].state_hash != state_hash(m.state):
                return False
            rows = rows[1:]
        for r in rows:
            if r.seq != m.seq + 1:
                return False
            chance = m.state.current_player() == CHANCE
            try:
                m.play(r.action)
            except (IllegalActionError, NotationError):
                return False
            if chance:
                # As `load`: choose_outcome draws once per chance outcome.
                m.rng.random()
            elif r.seat is not None and r.client_id is not None:
                self.marks[r.seq] = (r.seat, is_stand_in(r.client_id))
            if state_hash(m.state) != r.state_hash:
                return False
        return True

    def idle(self) -> bool:
        """Nothing holds the game in memory: no viewer, no bot thinking, no clock
        running, nobody inside its lock."""
        return (
            not self.conns
            and (self.bot_task is None or self.bot_task.done())
            and (self.clock_task is None or self.clock_task.done())
            and not self.lock.locked()
        )

    # --- bots and clocks -----------------------------------------------------------------
    def bot_priority(self) -> int:
        """A person waits for this game's bots (a seat of theirs, not given up, not
        left to a stand-in past the clock), or only bots do."""
        for s in self.seats:
            if s["kind"] == "human" and not s["resigned"] and s["seat"] not in self.takeover:
                return PERSON
        return BOTS_ONLY

    def kick(self) -> None:
        """Let bots move if one is to decide; start the clock of a person who is. Only
        where this process holds the game's lease (`tianxia.server.leases`): elsewhere
        it is taken if nobody holds it, and otherwise left to its holder."""
        leases = self.hub.leases
        if self.status != "running":
            if self.status == "finished" and not leases.implicit and leases.holds(self.id):
                self._finish_soon()
            return
        if not leases.holds(self.id):
            if self.needs_driver():
                leases.want(self)
            return
        to_move = self.table.to_move()
        if to_move in self.table.bots:
            if self.bot_task is None or self.bot_task.done():
                self.bot_task = asyncio.create_task(self._bots())
        else:
            self._wind()

    def needs_driver(self) -> bool:
        """Something here acts without anyone's message: a bot's seat, a seat given up
        or a clock (as `Store.to_resume` and the lease sweep pick games)."""
        return (
            self.clock is not None
            or bool(self.table.bots)
            or any(s["kind"] == "bot" or s["resigned"] for s in self.seats)
        )

    def _finish_soon(self) -> None:
        """The game ended while this process held its lease: rate it here (once) and
        give the lease back."""
        if self.finishing:
            return
        self.finishing = True

        async def finish() -> None:
            try:
                if not self.row.get("rated") and self.rating_changes is None:
                    await self._rate()
            except Exception:
                log.exception("game %s: its ratings were not written", self.id)
            finally:
                await self.hub.leases.release(self.id)

        task = asyncio.create_task(finish())
        self.hub.background.add(task)
        task.add_done_callback(self.hub.background.discard)

    # --- clocks ----------------------------------------------------------------------
    def running_seat(self) -> int | None:
        """The seat whose bank runs now: a person's seat to decide in a running game,
        not given up and not played by a stand-in; None when no clock runs."""
        if self.clock is None or self.status != "running":
            return None
        seat = self.table.to_move()
        if seat < 0 or seat in self.table.bots or seat in self.skipping:
            return None
        s = self.seats[seat]
        if s["kind"] != "human" or s["resigned"]:
            return None
        return seat

    def time_left(self, seat: int, now: float) -> tuple[float, float]:
        """`seat`'s bank and vacation left as of `now` (its stored ones, less the time
        since it got the move if its clock runs)."""
        clock = self.clock
        assert clock is not None
        s = self.seats[seat]
        bank, vacation = clock.bank_of(s), clock.vacation_of(s)
        since = self.row.get("turn_since")
        if since is not None and seat == self.running_seat():
            bank, vacation = spend(bank, vacation, now - float(since))
        return bank, vacation

    def clock_view(self, now: float) -> dict[str, Any]:
        """The view's `clock`: the game's clock, and each seat's bank and vacation as
        of `now` (a bot's seat has none)."""
        clock = self.clock
        assert clock is not None
        running = self.running_seat()
        seats: list[dict[str, Any]] = []
        deadline = None
        for s in self.seats:
            seat = int(s["seat"])
            if s["kind"] == "bot":
                seats.append(
                    {"bank": None, "vacation_left": None, "running": False, "stand_in": False}
                )
                continue
            bank, vacation = self.time_left(seat, now)
            seats.append(
                {
                    "bank": bank,
                    "vacation_left": vacation,
                    "running": seat == running,
                    "stand_in": seat in self.takeover or seat in self.skipping,
                }
            )
            if seat == running and self.row.get("turn_since") is not None:
                deadline = now + left(bank, vacation)
        return {
            "initial": clock.initial,
            "increment": clock.increment,
            "policy": clock.policy,
            "vacation": clock.vacation,
            "minimum": self.hub.min_clock,
            "now": now,
            "deadline": deadline,
            "seats": seats,
        }

    def _wind(self) -> None:
        """Start the clock of the seat to decide, unless it already runs for this turn
        (a page's hello, a chat line or a refused action must not give anyone more
        time), or stop it if no clock runs now."""
        if self.row.get("turn_since") is None and self.status == "running":
            # The game has just started (its last seat taken), or was stored before
            # games kept the turn's start: the first seat's turn (and clock) starts now.
            now = time.time()
            self.row["turn_since"] = now
            self._write_soon(self.hub.storage.store.set_values, self.id, {"turn_since": now})
        seat = self.running_seat()
        if seat is None:
            if self.clock_task is not None and not self.clock_task.done():
                self.clock_task.cancel()
            self.clock_for = None
            return
        key = (self.table.seq, seat)
        if self.clock_for == key and self.clock_task is not None and not self.clock_task.done():
            return
        if self.clock_task is not None:
            self.clock_task.cancel()
        self.clock_for = key
        self.clock_task = asyncio.create_task(self._clock(*key))

    def _write_soon(self, fn: Callable[..., Any], *args: Any) -> None:
        """A write of the clock's that no answer waits for, queued on the storage
        thread in order with the moves' (a failure is logged; the memory is right and
        the next move's write carries the seat's clock again)."""

        async def write() -> None:
            try:
                await self.hub.storage.run(fn, *args)
            except Exception as e:
                log.error("game %s: a clock's change was not written: %s", self.id, e)

        task = asyncio.create_task(write())
        self.hub.background.add(task)
        task.add_done_callback(self.hub.background.discard)

    async def _clock(self, seq: int, seat: int) -> None:
        while True:
            bank, vacation = self.time_left(seat, time.time())
            await asyncio.sleep(max(0.005, left(bank, vacation)))
            if not self.hub.leases.holds(self.id):
                return  # the lease went elsewhere: its holder's clock runs now
            if not self.hub.leases.implicit and await catch_up(self) is not self:
                return  # loaded anew from the database: that copy's clock runs
            async with self.lock:
                if self.table.seq != seq or self.running_seat() != seat:
                    return
                if left(*self.time_left(seat, time.time())) > 0:
                    continue  # the turn's start moved (the person came back): wait on
                try:
                    await self._time_out(seat)
                except Exception as e:
                    log.error("game %s: seat %s's time ran out, not written: %s", self.id, seat, e)
                    failed = True
                else:
                    failed = False
            if failed:
                await asyncio.sleep(1.0)
                continue
            break
        self.clock_for = None
        self.kick()

    async def _time_out(self, seat: int) -> None:
        """`seat` has spent its bank and vacation: the game's policy applies (the
        game's lock is held). Written first; the memory changes only once it is."""
        clock = self.clock
        assert clock is not None
        t = self.table
        st = self.hub.storage
        s = self.seats[seat]
        now = time.time()
        since = now if s["stand_in_since"] is None else s["stand_in_since"]
        if clock.policy == "lose":
            # As a resignation: ranked last, a bot plays the seat to the end.
            values = {"resigned": True, "bank": 0.0, "vacation_left": 0.0}
            await st.run(st.store.update_seat, self.id, seat, **values)
            s.update(values)
            t.bots[seat] = make_bot(TAKEOVER_STRENGTH, self.game, seat, seat)
        else:
            # `bot`: the bank is empty until the person returns (then it starts again
            # whole); `skip`: it starts again whole at the seat's next turn.
            bank = 0.0 if clock.policy == "bot" else clock.initial
            clocks = {seat: {"bank": bank, "vacation_left": 0.0, "stand_in_since": since}}
            await st.run(st.store.set_clocks, self.id, clocks, {})
            s.update(clocks[seat])
            t.bots[seat] = make_bot(TAKEOVER_STRENGTH, self.game, seat, t.seq)
            (self.takeover if clock.policy == "bot" else self.skipping).add(seat)
        log.info("game %s: seat %s ran out of time (%s)", self.id, seat, clock.policy)
        if s.get("account_id"):
            try:
                await st.run(queue_timeout_mail, st.store, self.id, t.seq, seat, s["account_id"])
            except Exception as e:
                log.error(
                    "game %s: the timeout mail of seat %s was not queued: %s", self.id, seat, e
                )
        self.hub.lobby.changed()
        self.broadcast()

    def _stand_in_run(self, seat: int) -> int:
        """The decisions a stand-in made for `seat` since its person's last own one."""
        n = 0
        for who, by_stand_in in reversed(self.marks.values()):
            if who != seat:
                continue
            if not by_stand_in:
                break
            n += 1
        return n

    async def _bots(self) -> None:
        retry = BOT_RETRY
        while self.status == "running" and self.hub.leases.holds(self.id):
            t = self.table
            seat = t.to_move()
            if seat not in t.bots:
                break
            seq = t.seq
            # The bot itself, not its seat: a person who returns meanwhile takes the seat
            # back and the table forgets this bot, which may still be thinking.
            bot = t.bots[seat]
            hooks = self.hub.hooks
            passing = (
                [a for a in t.state.legal_actions() if str(a) == "pass"]
                if seat in self.skipping
                else []
            )
            try:
                if hooks is not None and hooks.break_bots:
                    raise RuntimeError("test hook: this bot fails")
                st = t.state
                if passing:
                    # A skipped turn is passed where the rules allow a pass.
                    action, why, thought = passing[0], _skipped(st, passing[0]), bot
                else:
                    action, why, thought = await self.hub.bots.run(
                        self.bot_priority(), think, bot, st
                    )
                # The move came from another process: the rules, here, have the last word.
                st.check(action)
            except Exception:
                # A bot that fails must not stop the game: everyone would wait for ever.
                # The fault is logged and this one move is a seeded random one.
                log.exception("game %s: the bot of seat %s failed at seq %s", self.id, seat, seq)
                st = t.state
                stand_in = RandomBot(seq)
                action = stand_in.act(st)
                why = f"{stand_in.reason()}\nthe bot failed; {stand_in.explain()}"
                thought = bot
            async with self.lock:
                if (
                    t.seq != seq
                    or t.state is not st
                    or t.bots.get(seat) is not bot
                    or not self.hub.leases.holds(self.id)
                ):
                    continue
                # The thinker worked on a copy of the bot: the seat keeps the copy, whose
                # random stream moved on, as a bot thinking here would have.
                t.bots[seat] = thought
                try:
                    row = await self.commit(action, seat, None)
                except Exception as e:
                    row = None
                    failed: Exception | None = e
                else:
                    failed = None
                    if row is not None:
                        t.explanations[row.seq] = (seat, why)
                    else:
                        # Another writer took the seq: a lost race backs off like a
                        # failed write rather than thinking again at once, for ever.
                        failed = Conflict(f"seq {seq + 1} was taken")
                    self.broadcast()
            if failed is not None:
                # Nothing was written and the memory is as before: the bot thinks again
                # after a pause that doubles while the database keeps failing.
                log.warning(
                    "game %s: the bot's move at seq %s was not written (%s): again in %.2f s",
                    self.id,
                    seq,
                    failed,
                    retry,
                )
                await asyncio.sleep(retry)
                retry = min(retry * 2, BOT_RETRY_MAX)
                continue
            retry = BOT_RETRY
            await asyncio.sleep(self.hub.bot_pause)
        self.kick()

    def player_returns(self, seat: int | None) -> None:
        """A message from a person's seat: a stand-in playing it steps aside, and a
        person whose time ran out is told once (`away`), their bank whole again."""
        if seat is None or seat >= len(self.seats):
            return
        s = self.seats[seat]
        since = s.get("stand_in_since")
        if seat not in self.takeover and seat not in self.skipping and since is None:
            return
        self.takeover.discard(seat)
        self.skipping.discard(seat)
        if not s["resigned"]:
            self.table.bots.pop(seat, None)
        self.version += 1
        clock = self.clock
        if since is not None and clock is not None:
            self.away[seat] = {"moves": self._stand_in_run(seat), "since": since}
            bank = clock.initial
            s.update(bank=bank, stand_in_since=None)
            clocks = {
                seat: {
                    "bank": bank,
                    "vacation_left": clock.vacation_of(s),
                    "stand_in_since": None,
                }
            }
            values: dict[str, Any] = {}
            if self.table.to_move() == seat and self.status == "running":
                # Their turn, begun before the stand-in came: it starts now.
                values["turn_since"] = self.row["turn_since"] = time.time()
            self._write_soon(self.hub.storage.store.set_clocks, self.id, clocks, values)
        self.kick()


def _skipped(state: State, action: Any) -> str:
    """Why a stand-in passed: the seat's time ran out (in the catalogues' words)."""
    try:
        from tianxia.bots.base import in_words, move_in_words
    except ImportError:  # the sentences live with the bots
        return f"passed for the seat, whose time ran out: {action}"
    return in_words("skipped", move_in_words(state, action))


def seat_names(seats: list[dict[str, Any]]) -> list[str]:
    """Every seat's one name, distinct within the game: a person's as given, an empty
    seat's "P1".., a bot's by its strength ("bot (easy)"), with a letter in seat order
    where one strength holds several seats ("easy bot A", "easy bot B"), so two bots of
    one strength read as two players. (Their rating stays the strength's.)"""
    bots = [s["strength"] for s in seats if s["kind"] == "bot"]
    letters: dict[str, int] = {}
    out = []
    for s in seats:
        if s["kind"] == "bot" and s["name"] == f"bot ({s['strength']})":
            strength = str(s["strength"])
            if bots.count(strength) > 1:
                k = letters[strength] = letters.get(strength, -1) + 1
                out.append(f"{strength} bot {chr(ord('A') + k)}")
                continue
        out.append(seat_name(s["seat"]) if s["name"] is None else str(s["name"]))
    return out


def invited_ids(seats: Iterable[dict[str, Any]]) -> list[str]:
    """The accounts these seats are kept for (open seats with `invited`)."""
    return [str(s["invited"]) for s in seats if s["kind"] == "open" and s.get("invited")]


def kept_for(seat: dict[str, Any], names: dict[str, str]) -> str | None:
    """The name of the account an open seat is kept for, or None."""
    if seat["kind"] != "open" or not seat.get("invited"):
        return None
    return names.get(str(seat["invited"]))


def row_summary(
    hub: Hub,
    row: dict[str, Any],
    seats: list[dict[str, Any]],
    invited: dict[str, str] | None = None,
) -> dict[str, Any]:
    """`LiveGame.summary` of a game not in memory, from its row and seats alone (and the
    names of the accounts its open seats are kept for, `account_names`).

    Raises:
        Unloadable: the row was written by a newer release, or by one before the row
            kept its summary (then the game must be loaded for it).
    """
    cls = game_class(row["game"])
    if row["rules_version"] > cls.VERSION or row["seq"] is None or row["scores"] is None:
        raise Unloadable(f"game {row['id']} has no summary this release can read")
    options = json.loads(row["options"])
    game = hub.game(
        row["game"], row["players"], cls.options_of_version(row["rules_version"], options)
    )
    return {
        "id": row["id"],
        "game": row["game"],
        "title": game.info.title,
        "players": row["players"],
        "options": options,
        "rules_version": row["rules_version"],
        "status": row["status"],
        "seq": row["seq"],
        "to_move": row["to_move"],
        "clock": None if (clock := Clock.of(row)) is None else clock.public(),
        "created": row["created"],
        "seats": [
            {
                "seat": s["seat"],
                "name": name,
                "kind": s["kind"],
                "strength": s["strength"],
                "resigned": bool(s["resigned"]),
                "bot_playing": False,  # a bot stands in only while the game is in memory
                "account": s.get("account_id") is not None,
                "present": False,  # nobody's socket holds a game that is not in memory
                "invited": kept_for(s, invited or {}),
            }
            for s, name in zip(seats, seat_names(seats), strict=True)
        ],
        "scores": json.loads(row["scores"]),
        "rating_changes": _changes_of(row),
        "present": 0,
    }


def _changes_of(row: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The rating changes kept with a game's row (None: not rated, or not kept)."""
    text = row.get("rating_changes")
    if not text:
        return None
    changes: list[dict[str, Any]] = json.loads(text)
    return changes


def _in_words_of(msg: dict[str, Any], lang: str, game: str) -> None:
    """The moves' explanations and the seats' names of a view in `lang` (its log's
    sentences are translated per connection, `view_message`): translated from the texts
    the viewer may read, so a translation tells no more than they do."""
    from tianxia.web.i18n import seat_label
    from tianxia.web.sentences import translate_sentence

    msg["legal"] = [
        {**a, "explain": translate_sentence(a["explain"], lang, game)} for a in msg["legal"]
    ]
    msg["seats"] = [{**s, "name": seat_label(str(s["name"]), lang)} for s in msg["seats"]]


# Idle games kept in memory (`tianxia serve --games-in-memory`), and the seconds a game
# asked for is kept whatever the count.
GAMES_IN_MEMORY = 256
GRACE = 2.0
# Spellings of variants (title, count, options as asked) whose `Game` the hub keeps.
VARIANTS = 512


class Evicted(Exception):
    """A request held a game that left memory and was loaded again meanwhile."""


class Hub:
    """Every live game of one server process."""

    def __init__(
        self,
        store: Store,
        bot_pause: float = 0.0,
        hooks: Hooks | None = None,
        games_in_memory: int = GAMES_IN_MEMORY,
        lobby_cache: float = LOBBY_SECONDS,
        bot_processes: int = 2,
        min_clock: float = MIN_CLOCK,
    ) -> None:
        self.storage = Storage(store)
        # The smallest clock a game may be created with (`tianxia serve --min-clock`).
        self.min_clock = min_clock
        # The lobby's pages, shared for `lobby_cache` seconds; whatever changes the
        # lists says so (`lobby.changed`).
        self.lobby = LobbyPages(lobby_cache)
        # Test hooks (tianxia.server.testhooks): None unless a test turned them on.
        self.hooks = hooks
        self.background: set[asyncio.Task[None]] = set()
        # Least recently asked for first; at most `games_in_memory` of them idle.
        self.games: OrderedDict[str, LiveGame] = OrderedDict()
        self.games_in_memory = games_in_memory
        self.grace = GRACE
        # At least two workers, one of them for the bots of games where a person waits.
        self.bots = BotScheduler(
            workers=max(2, bot_processes), reserved=1, processes=bot_processes > 0
        )
        self.bot_pause = bot_pause
        # The mail of this server (tianxia.server.mail), None when it sends none.
        self.mail: Mail | None = None
        # The games whose bots, clock and rating this process drives (on SQLite: all).
        self.leases = Leases()
        self._loading: dict[str, asyncio.Lock] = {}
        self._games: dict[tuple[str, int | None, str], Game] = {}

    def game(self, name: str, players: int | None, options: dict[str, Any]) -> Game:
        """One `Game` per variant for every live game of it and every game asked for:
        its codec and data are built once, not held again by each of a thousand games
        nor built again for each new one. `players` None: the title's default count.

        Raises:
            TypeError, ValueError: as `load_game`, for options or a count the title
                has not (nothing is kept for them).
        """
        key = (name, players, json.dumps(options, sort_keys=True))
        game = self._games.get(key)
        if game is None:
            game = load_game(name, players=players, **options)
            # Kept under the variant's own spelling too (as its row stores it, which
            # loads ask by), and the same object whichever spelling came first.
            own = (name, game.players, json.dumps(dict(game.options), sort_keys=True))
            game = self._games.get(own, game)
            # Spellings come from requests: a bounded number of them is kept.
            for k in (own, key):
                if len(self._games) < VARIANTS:
                    self._games.setdefault(k, game)
        return game

    async def get(self, game_id: str) -> LiveGame | None:
        live = self.games.get(game_id)
        if live is not None:
            self.games.move_to_end(game_id)
            live.used = time.monotonic()
            return live
        if game_id not in self._loading and not await self.storage.read(
            self.storage.store.exists, game_id
        ):
            # An id nobody stored (a typo, a guess, a flood of them): answered from one
            # look-up by key on a reader, without a lock or a job on the writer's thread.
            return None
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                live = self.games.get(game_id)
                if live is None:
                    live = await LiveGame.load(self, game_id)
                    if live is None:
                        return None
                    self.games[game_id] = live
                    live.kick()
                    self.trim()
        finally:
            # One lock per game being loaded, not one per id ever asked for.
            if not lock.locked() and self._loading.get(game_id) is lock:
                del self._loading[game_id]
        return live

    def trim(self, now: float | None = None) -> int:
        """Let idle games leave memory, least recently asked for first, until at most
        `games_in_memory` are held, and every idle finished game; a game is loaded again
        from its log when next asked for. A game asked for in the last `grace` seconds
        stays: whoever asked may be about to take its lock. Returns how many left."""
        now = time.monotonic() if now is None else now
        over = len(self.games) - self.games_in_memory
        gone = []
        for game_id, live in self.games.items():
            if now - live.used < self.grace or not live.idle():
                continue
            if over > 0 or live.status == "finished":
                gone.append(game_id)
                over -= 1
        for game_id in gone:
            self.games.pop(game_id).evicted = True
            self.leases.release_soon(game_id)
        return len(gone)

    def adopt(self, live: LiveGame) -> None:
        """A game that left memory while a request still held it is taken back, unless
        it was loaded again meanwhile (then the request works on a stale copy: a
        viewer attached to it would see nothing more, so it is closed and reconnects)."""
        if not live.evicted:
            return
        if live.id not in self.games:
            live.evicted = False
            self.games[live.id] = live
            return
        raise Evicted(f"game {live.id} was reloaded: ask again")

    async def reload(self, old: LiveGame) -> LiveGame:
        """Load a game anew from the database in place of `old` (whose log another
        process rewrote below its seq): `old` leaves the hub, its bots and clock stop,
        and its viewers are moved to the new copy and sent its view from the start."""
        held = self.games.get(old.id)
        if held is not None and held is not old:
            # Replaced already (a request waited on the old copy's lock meanwhile).
            return held
        new = await LiveGame.load(self, old.id)
        if new is None:
            return old
        old.evicted = True
        for task in (old.bot_task, old.clock_task):
            if task is not None:
                task.cancel()
        self.games[old.id] = new
        for conn in list(old.conns):
            old.conns.discard(conn)
            if conn.sender is not None:
                conn.sender.cancel()
                conn.sender = None
            conn.sent_seq, conn.sent_final = 0, False
            new.attach(conn)
        new.kick()
        return new

    def current(self, live: LiveGame) -> LiveGame:
        """The copy of `live`'s game the hub holds now, if it replaced `live`
        (`reload`); else `live`."""
        if not live.evicted:
            return live
        return self.games.get(live.id, live)

    def close(self) -> None:
        for live in self.games.values():
            for task in (live.bot_task, live.clock_task):
                if task is not None:
                    task.cancel()
        self.bots.close()
        self.storage.pool.shutdown(wait=True)
        self.storage.readers.shutdown(wait=True)
        self.storage.store.close()


def new_seed() -> int:
    return random.SystemRandom().randrange(1, 2**62)
