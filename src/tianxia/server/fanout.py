"""Fan-out between server processes that share one PostgreSQL database.

Every commit that changes what a game's viewers see (a move, an undo, a seat taken,
left or given up, a clock's change) sends `NOTIFY tianxia_games, '<game id> <seq>
<origin>'` in its own transaction (`Store.notify`): the notification exists only if
the commit does. Each process keeps one connection of its own that `LISTEN`s; a
notification from another process for a game this process holds in memory brings
that game up to the database (`LiveGame.sync`) and owes its viewers a view. A process
skips its own notifications by their origin.

A notification is a hint, never the event itself: the rows are read from the
database. One that is lost (the connection dropped, the process busy) delays a view
and loses nothing: the listener reconnects (backing off up to 2 s) and catches up
every game it holds, and every `CHECK` seconds it asks its connection for the stored
seqs of those games, which also finds a connection that died without a word.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tianxia.server.live import Hub

log = logging.getLogger("tianxia.server.fanout")

CHANNEL = "tianxia_games"
# Seconds between the listener's checks of its connection and of the games it holds.
CHECK = 5.0
# The listener's first pause after losing its connection, and its longest.
BACKOFF = 0.1
BACKOFF_MAX = 2.0
# The name the listener's connection shows in pg_stat_activity.
APPLICATION = "tianxia-listener"


def payload(game_id: str, seq: int, origin: str) -> str:
    """A notification's text: far under PostgreSQL's 8,000 bytes (ids are at most 32)."""
    return f"{game_id} {seq} {origin}"


def parse(text: str) -> tuple[str, int, str] | None:
    """A notification's game id, seq and origin; None for anything else."""
    parts = text.split(" ")
    if len(parts) != 3 or not parts[1].lstrip("-").isdigit():
        return None
    return parts[0], int(parts[1]), parts[2]


def conninfo(url: str) -> str:
    """The libpq address of a SQLAlchemy PostgreSQL URL."""
    import sqlalchemy as sa

    made = sa.engine.make_url(url).set(drivername="postgresql")
    return made.render_as_string(hide_password=False)


class Fanout:
    """The listener of one process, and the catching up it schedules."""

    def __init__(self, hub: Hub, url: str, check: float = CHECK) -> None:
        self.hub = hub
        self.url = url
        self.check = check
        self.origin = hub.storage.store.origin
        # Games being caught up, and those to catch up again once that is done (a
        # notification came meanwhile, perhaps after the catch-up read the database).
        self._running: set[str] = set()
        self._again: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        # Connections made (the first and each reconnection): tests and logs read it.
        self.connections = 0

    # --- catching up -----------------------------------------------------------------
    def catch_up(self, game_id: str) -> None:
        """Bring a game this process holds up to the database, soon, once at a time; a
        game nobody here uses (no viewer, no bot or clock of this process's lease at
        work) leaves memory instead, to be loaded as stored when next asked for: a
        process that only created a game (the lobby's requests go to any process) would
        otherwise replay every move other processes make in it."""
        live = self.hub.games.get(game_id)
        if live is None:
            return
        recent = time.monotonic() - live.used < self.hub.grace  # its asker may be about to act
        if live.idle() and not recent and not self.hub.leases.holds(game_id):
            self.hub.games.pop(game_id)
            live.evicted = True
            return
        if game_id in self._running:
            self._again.add(game_id)
            return
        self._running.add(game_id)
        task = asyncio.create_task(self._catch_up(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _catch_up(self, game_id: str) -> None:
        try:
            while True:
                self._again.discard(game_id)
                live = self.hub.games.get(game_id)
                if live is None:
                    return
                async with live.lock:
                    if live.evicted:
                        return
                    try:
                        now = await live.sync()
                    except Exception:
                        log.exception("game %s: could not catch up with the database", game_id)
                        return
                    if now is live and not live.evicted:
                        live.kick()
                if game_id not in self._again:
                    return
        finally:
            self._running.discard(game_id)

    def catch_up_all(self) -> None:
        for game_id in list(self.hub.games):
            self.catch_up(game_id)

    # --- the listener ----------------------------------------------------------------
    async def run(self) -> None:
        import psycopg

        pause = BACKOFF
        first = True
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    conninfo(self.url), autocommit=True, application_name=APPLICATION
                )
            except (psycopg.Error, OSError) as e:
                log.warning("the listener could not connect (%s): again in %.1f s", e, pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, BACKOFF_MAX)
                continue
            try:
                await conn.execute(f"LISTEN {CHANNEL}")
                self.connections += 1
                pause = BACKOFF
                if not first:
                    # Whatever was notified while it was away: every game held is read.
                    log.warning("the listener is back: catching up every game held")
                    self.catch_up_all()
                first = False
                await self._listen(conn)
            except (psycopg.Error, OSError) as e:
                log.warning("the listener lost its connection (%s): reconnecting", e)
            finally:
                with contextlib.suppress(Exception):
                    await conn.close()
            await asyncio.sleep(pause)
            pause = min(pause * 2, BACKOFF_MAX)

    async def _listen(self, conn: Any) -> None:
        while True:
            async for note in conn.notifies(timeout=self.check):
                found = parse(note.payload)
                if found is None or found[2] == self.origin:
                    continue
                self.catch_up(found[0])
            await self._check(conn)

    async def _check(self, conn: Any) -> None:
        """A query on the listener's connection (a dead one raises here), comparing
        each held game's stored seq with the one in memory."""
        held = {game_id: live.table.seq for game_id, live in self.hub.games.items()}
        cur = await asyncio.wait_for(
            conn.execute("SELECT id, seq FROM games WHERE id = ANY(%s)", (list(held) or [""],)),
            timeout=self.check,
        )
        for game_id, seq in await cur.fetchall():
            if seq is not None and seq != held.get(game_id):
                self.catch_up(game_id)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
