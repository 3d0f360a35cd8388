"""Which process drives a game's bots, clock and end-of-game rating.

Any number of processes may serve one PostgreSQL database and accept any game's moves
(each commit is checked against the stored seq), but a bot must move once, a clock
must run out once and a game must be rated once. So each of those runs only in the
process holding the game's lease: a session advisory lock on a connection of that
process's own. A process that is killed loses its connection, and PostgreSQL frees its
locks at once; the others' sweep (every `--lease-sweep` seconds) finds the running
games nobody drives, takes their leases and goes on with them. The stated time: a dead
holder's games go on within `STATED` seconds.

On SQLite one process serves the database (its one-writer lease): it holds every
game's lease, without a connection.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tianxia.server.live import Hub, LiveGame

log = logging.getLogger("tianxia.server")

# The leases' connection as `pg_stat_activity` names it.
APPLICATION = "tianxia-leases"
# Seconds between sweeps, and the leases one sweep takes at most (each loads a game).
SWEEP = 2.0
PER_SWEEP = 64
# Seconds within which a dead holder's games go on: a sweep, a load, and the database's
# noticing the closed connection, with room for a loaded machine.
STATED = 5.0
# The seed of the lease's 64-bit key of a game id (`hashtextextended`): another seed
# than the commits' own keys, so a held lease never makes a commit of its game wait.
SEED = 4545
# Running games that need a driver (a bot's seat, a seat given up, a clock) and whose
# lease nobody holds: the key's two halves are how `pg_locks` shows it.
_ORPHANS = """
SELECT g.id FROM games g
WHERE g.status = 'running'
  AND (g.clock IS NOT NULL OR EXISTS (
        SELECT 1 FROM seats s WHERE s.game_id = g.id AND (s.kind = 'bot' OR s.resigned)))
  AND NOT EXISTS (
        SELECT 1 FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.objsubid = 1
          AND l.classid::bigint = (hashtextextended(g.id, %(seed)s) >> 32) & 4294967295
          AND l.objid::bigint = hashtextextended(g.id, %(seed)s) & 4294967295)
ORDER BY g.turn_since NULLS FIRST
LIMIT %(limit)s
"""


def conninfo(url: str) -> str | None:
    """The libpq address of a PostgreSQL database URL; None for SQLite."""
    if not url.startswith("postgresql"):
        return None
    from sqlalchemy.engine import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Leases:
    """The games whose bots, clock and rating this process drives (`holds`)."""

    def __init__(self, url: str | None = None, every: float = SWEEP, per_sweep: int = PER_SWEEP):
        # None: SQLite, every lease is this process's.
        self.address = None if url is None else conninfo(url)
        self.every = every
        self.per_sweep = per_sweep
        self.held: set[str] = set()
        self.conn: Any = None
        # One statement at a time on the one connection.
        self._lock = asyncio.Lock()
        # Games whose lease another process held when last asked (monotonic), so a
        # page's every message does not ask again.
        self._refused: dict[str, float] = {}
        self._wanted: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.stopping = False
        # Leases taken by sweeps since start (for the operator's figures).
        self.taken_by_sweep = 0

    @property
    def implicit(self) -> bool:
        """One process serves the database: it holds every lease."""
        return self.address is None

    def holds(self, game_id: str) -> bool:
        return self.address is None or (game_id in self.held and not self.stopping)

    # --- the connection ---------------------------------------------------------------
    async def _connection(self) -> Any:
        if self.conn is None or self.conn.closed:
            import psycopg

            assert self.address is not None  # SQLite asks nothing

            self.conn = await psycopg.AsyncConnection.connect(
                self.address, autocommit=True, connect_timeout=5, application_name=APPLICATION
            )
        return self.conn

    def _lost(self, why: object) -> None:
        """The connection is gone and with it every lock: nothing of ours acts any
        more (the loops check `holds` before each act); leases are taken anew."""
        if self.held:
            log.error(
                "the lease connection was lost (%s): the bots and clocks of %d games stop "
                "here and go on where their leases are taken",
                why,
                len(self.held),
            )
        self.held.clear()
        conn, self.conn = self.conn, None
        if conn is not None and not conn.closed:
            task = asyncio.create_task(conn.close())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _query(self, sql: str, params: dict[str, Any]) -> list[tuple[Any, ...]]:
        import psycopg

        async with self._lock:
            try:
                conn = await self._connection()
                cur = await conn.execute(sql, params)
                return list(await cur.fetchall()) if cur.description else []
            except (psycopg.OperationalError, psycopg.InterfaceError) as e:
                self._lost(e)
                raise

    # --- taking and giving back -------------------------------------------------------
    async def take(self, game_id: str) -> bool:
        """This process drives `game_id` from now on, unless another does (False)."""
        if self.holds(game_id):
            return True
        if self.stopping:
            return False
        import psycopg

        try:
            rows = await self._query(
                "SELECT pg_try_advisory_lock(hashtextextended(%(id)s, %(seed)s))",
                {"id": game_id, "seed": SEED},
            )
        except psycopg.Error as e:
            log.warning("game %s: its lease could not be asked for: %s", game_id, e)
            return False
        if rows and rows[0][0]:
            if self.stopping:  # stopped while asking: given back at once
                await self._unlock(game_id)
                return False
            self.held.add(game_id)
            self._refused.pop(game_id, None)
            return True
        self._refused[game_id] = time.monotonic()
        return False

    async def _unlock(self, game_id: str) -> None:
        import psycopg

        try:
            await self._query(
                "SELECT pg_advisory_unlock(hashtextextended(%(id)s, %(seed)s))",
                {"id": game_id, "seed": SEED},
            )
        except psycopg.Error as e:
            log.warning("game %s: its lease could not be given back: %s", game_id, e)

    async def release(self, game_id: str) -> None:
        """The game needs no driver here any more (over, or left memory)."""
        if self.address is None or game_id not in self.held:
            return
        self.held.discard(game_id)
        await self._unlock(game_id)

    def release_soon(self, game_id: str) -> None:
        if self.address is None or game_id not in self.held:
            return
        self._spawn(self.release(game_id))

    def want(self, live: LiveGame) -> None:
        """`live` has a bot or a clock to run and this process does not hold its lease:
        take it (in the background) and, if taken, catch up and kick. Asked at most once
        a sweep's time while another process holds it."""
        if self.address is None or self.stopping or live.id in self._wanted:
            return
        refused = self._refused.get(live.id)
        if refused is not None and time.monotonic() - refused < self.every:
            return
        self._wanted.add(live.id)

        async def take() -> None:
            try:
                if await self.take(live.id):
                    (await catch_up(live)).kick()
            finally:
                self._wanted.discard(live.id)

        self._spawn(take())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def release_all(self) -> None:
        """Give every lease back (a stop): the other processes' sweeps take them."""
        self.stopping = True
        if self.address is None:
            return
        held, self.held = self.held, set()
        if self.conn is None:
            return
        import psycopg

        async with self._lock:
            try:
                await self.conn.execute("SELECT pg_advisory_unlock_all()")
            except psycopg.Error as e:
                log.warning("the leases could not be given back (%s): they free on close", e)
        log.info("%d leases given back", len(held))

    async def close(self) -> None:
        await self.release_all()
        for task in list(self._tasks):
            task.cancel()
        if self.conn is not None and not self.conn.closed:
            await self.conn.close()
        self.conn = None

    # --- the sweep ----------------------------------------------------------------------
    async def sweep(self, hub: Hub) -> int:
        """Take the leases of running games that need a driver and have none (at most
        `per_sweep`), load them and set them going; check the held ones are in step
        with the database. Returns how many were taken."""
        if self.address is None or self.stopping:
            return 0
        import psycopg

        try:
            orphans = await self._query(_ORPHANS, {"seed": SEED, "limit": self.per_sweep})
            stored = (
                await self._query(
                    "SELECT id, seq FROM games WHERE id = ANY(%(ids)s)",
                    {"ids": sorted(self.held)},
                )
                if self.held
                else []
            )
        except psycopg.Error as e:
            log.warning("the lease sweep could not read the database: %s", e)
            return 0
        # A held game behind the database (a move committed by another process that
        # no notification brought here): caught up, so its clock and bots act on it.
        for game_id, seq in stored:
            live = hub.games.get(game_id)
            if live is not None and seq is not None and live.table.seq != seq:
                (await catch_up(live)).kick()
        taken = 0
        for (game_id,) in orphans:
            if self.stopping:
                break
            if not await self.take(game_id):
                continue
            taken += 1
            try:
                live = hub.games.get(game_id)
                if live is not None:
                    (await catch_up(live)).kick()
                else:
                    live = await hub.get(game_id)  # loading kicks it
                if live is None:
                    await self.release(game_id)
            except Exception as e:
                log.warning("game %s: taken over but not loaded: %s", game_id, e)
                await self.release(game_id)
        if taken:
            self.taken_by_sweep += taken
            log.info("%d games with nobody to drive their bots or clocks taken over", taken)
        return taken

    async def run(self, hub: Hub) -> None:
        while not self.stopping:
            await asyncio.sleep(self.every)
            try:
                await self.sweep(hub)
            except Exception:
                log.exception("the lease sweep failed")


async def catch_up(live: LiveGame) -> LiveGame:
    """Bring `live` up to the database before it acts on its own, where the server can
    (`LiveGame.sync`, which reads what other processes committed); returns the game as
    the hub now holds it (a sync may load it anew)."""
    sync = getattr(live, "sync", None)
    if sync is None:
        return live
    async with live.lock:
        if live.evicted:
            return live.hub.games.get(live.id, live)
        version = live.version
        try:
            now: LiveGame = await sync()
        except Exception as e:
            log.warning("game %s: could not catch up with the database: %s", live.id, e)
            return live
        if now is live and live.version != version:
            live.broadcast()
    return now
