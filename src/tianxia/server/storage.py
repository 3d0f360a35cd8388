"""Storage: games, seats, the action log and ratings, through SQLAlchemy.

SQLite is the embedded default: WAL, ``synchronous=FULL``, foreign keys, a busy timeout,
and every write in ``BEGIN IMMEDIATE`` on the one connection this process keeps (the
SQLite here must not have two writers: see docs/server.md). PostgreSQL is used when the
URL names it. Every method is synchronous. Writes, and the reads that load a game, are
called from the server's single storage thread, so writes are serialised in the order
the game locks release them. The reads anyone may ask for at any rate (the lobby, a
game's summary, the leaderboard) go through a small pool of read-only connections of
their own (`Store.snapshot`): under WAL a reader neither waits for the writer nor makes
it wait, so a flood of lobby polls never queues in front of a move's commit.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import StaticPool

from tianxia.server import fanout

metadata = sa.MetaData()

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("rules_version", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    # The chance stream's seed: a server secret, never sent to anyone.
    sa.Column("seed", sa.BigInteger, nullable=False),
    # The time bank each seat starts with, in seconds (null: no clock), what each of its
    # own moves adds to it, what happens when it runs out ("bot", "skip", "lose"), and
    # the vacation each seat may use after it (docs/server.md, Clocks).
    sa.Column("clock", sa.Float, nullable=True),
    sa.Column("increment", sa.Float, nullable=True),
    sa.Column("clock_policy", sa.String(8), nullable=True),
    sa.Column("vacation", sa.Float, nullable=True),
    # When the seat now to move was given the move: its clock runs from here, across a
    # restart too.
    sa.Column("turn_since", sa.Float, nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False, default=False),
    # Whose quota the game counts against (a hash of the client's address), and
    # how much of it: a game with bots costs more (docs/server.md, Limits).
    sa.Column("creator", sa.String(64), nullable=True),
    sa.Column("cost", sa.Integer, nullable=False, server_default="1"),
    # The public summary as of the last write (null until a game stored before them is
    # loaded again): the lobby reads it without loading the game.
    sa.Column("seq", sa.Integer, nullable=True),
    sa.Column("to_move", sa.Integer, nullable=True),
    sa.Column("scores", sa.Text, nullable=True),
    # Each rated seat's rating before and after the game (JSON), once it is rated.
    sa.Column("rating_changes", sa.Text, nullable=True),
    # The game its players play next, once one of them asked (one per game).
    sa.Column("rematch", sa.String(32), nullable=True),
)
sa.Index("ix_games_creator_status", games.c.creator, games.c.status)
sa.Index("ix_games_status_created", games.c.status, games.c.created)
sa.Index("ix_games_created", games.c.created)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),  # open, human, bot
    sa.Column("strength", sa.String(16), nullable=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("player", sa.String(64), nullable=True),
    sa.Column("secret_hash", sa.String(64), nullable=True, unique=True),
    sa.Column("resigned", sa.Boolean, nullable=False, default=False),
    # The account whose seat this is (a seat taken while signed in, or claimed later);
    # null for a guest's or a bot's.
    sa.Column("account_id", sa.String(32), nullable=True),
    # An open seat kept for one account (invited by name): nobody else may take it.
    sa.Column("invited", sa.String(32), nullable=True),
    # The seat's time bank and vacation left, in seconds, as of `games.turn_since`
    # (null: the game's full clock and vacation), and since when a stand-in has played
    # for it because the bank ran out (null: the player plays).
    sa.Column("bank", sa.Float, nullable=True),
    sa.Column("vacation_left", sa.Float, nullable=True),
    sa.Column("stand_in_since", sa.Float, nullable=True),
)
sa.Index("ix_seats_player", seats.c.player)
sa.Index("ix_seats_account", seats.c.account_id)
sa.Index("ix_seats_invited", seats.c.invited)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("client_id", sa.String(64), nullable=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("action", sa.String(64), nullable=False),
    sa.Column("state_hash", sa.String(64), nullable=False),
    sa.Column("undone", sa.Boolean, nullable=False, default=False),
    sa.Column("created", sa.Float, nullable=False),
    # An action id is a seat's own: two seats (or a spectator) cannot collide.
    sa.UniqueConstraint("game_id", "seat", "client_id", name="uq_actions_seat_client_id"),
)
# One live action per seq, enforced by the database: the last line of defence.
sa.Index(
    "uq_actions_live_seq",
    actions.c.game_id,
    actions.c.seq,
    unique=True,
    sqlite_where=actions.c.undone == sa.false(),
    postgresql_where=actions.c.undone == sa.false(),
)

# One row: the server process that writes to this database, and when it last said so.
lease = sa.Table(
    "lease",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("holder", sa.String(200), nullable=False),
    sa.Column("heartbeat", sa.Float, nullable=False),
)

# A person's account. `name_key` is the name as it is compared (NFKC, case-folded), so
# two names that differ only in case, or in how a character is composed, are one name.
accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("name_key", sa.String(40), nullable=False, unique=True),
    # argon2id, with its parameters in the hash's own text.
    sa.Column("password_hash", sa.String(200), nullable=False),
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("email_verified", sa.Boolean, nullable=False, default=False),
    # JSON: language and which mails the player wants (docs/server.md, Accounts).
    sa.Column("settings", sa.Text, nullable=False, server_default="{}"),
    sa.Column("created", sa.Float, nullable=False),
    # When the player last did anything while signed in (a request, a message on a
    # table): a turn mail is not sent to someone active in the last minute.
    sa.Column("active", sa.Float, nullable=False),
)

# A signed-in browser: the cookie's value is known only to it (the row keeps its hash),
# and the token that its requests which change something must carry (against requests
# forged by other sites).
sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("csrf", sa.String(64), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("seen", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
)
sa.Index("ix_sessions_account", sessions.c.account_id)

# One-use or standing keys sent by mail: an address's verification, a password's
# reset, the unsubscribe link. Only their hashes are kept.
tokens = sa.Table(
    "tokens",
    metadata,
    sa.Column("hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("purpose", sa.String(16), nullable=False),  # verify, reset, unsubscribe
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=True),
    sa.Column("used", sa.Float, nullable=True),
)
sa.Index("ix_tokens_account", tokens.c.account_id)

# Mail waiting to be sent, and sent: queued in the same database as the games, so a
# restart loses none, and `key` (what the mail is about: kind, game, seq, account) is
# unique, so the same news is never queued twice. A sender claims a row until
# `claimed_until`, sends it, and marks it `sent`; a row given up has `dropped` (why).
outbox = sa.Table(
    "outbox",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(160), nullable=False, unique=True),
    sa.Column("account_id", sa.String(32), nullable=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("game_id", sa.String(32), nullable=True),
    sa.Column("address", sa.String(254), nullable=True),
    sa.Column("subject", sa.Text, nullable=True),
    sa.Column("body", sa.Text, nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("send_after", sa.Float, nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
    sa.Column("claimed", sa.String(200), nullable=True),
    sa.Column("claimed_until", sa.Float, nullable=True),
    sa.Column("sent", sa.Float, nullable=True),
    sa.Column("dropped", sa.String(32), nullable=True),
    sa.Column("error", sa.Text, nullable=True),
)
sa.Index("ix_outbox_due", outbox.c.sent, outbox.c.send_after)
sa.Index("ix_outbox_account", outbox.c.account_id)

# Ratings of accounts (`player` is "account:<id>") and of the bots ("bot:<strength>").
ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("player", sa.String(64), primary_key=True),
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
)


class Conflict(Exception):
    """A write the database refused: another action already holds the seq."""


def game_key(game_id: str, purpose: str = "commit") -> int:
    """The 64-bit PostgreSQL advisory lock key of one game for one `purpose`: "commit"
    is the transaction lock every append and undo of the game takes; another purpose
    (a process's lease on the game's bots and clocks) gets keys of its own, so holding
    one never waits on the other."""
    digest = hashlib.sha256(f"tianxia:{purpose}:{game_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


# Locks taken in one statement, in the keys' order: every process locks a batch's games
# in that one order, so two processes' batches cannot wait on each other.
# The other processes' listeners hear of a commit from its own transaction
# (tianxia.server.fanout): a notification for each game it changed.
_NOTIFY = sa.text(
    f"SELECT count(pg_notify('{fanout.CHANNEL}', p)) FROM unnest(CAST(:p AS text[])) AS p"
)
_LOCK_GAMES = sa.text(
    "SELECT count(pg_advisory_xact_lock(k)) FROM "
    "(SELECT k FROM unnest(CAST(:keys AS bigint[])) AS k ORDER BY k) AS ordered"
)


class LeaseHeld(Exception):
    """Another server process holds the database's lease: this one must not serve."""


# Seconds a lease lasts without a heartbeat; the holder renews it every third of that.
LEASE_SECONDS = 15.0


def lease_holder() -> str:
    """This process, as the lease names it: host, pid and a token of this start."""
    import os
    import socket

    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def holder_gone(holder: str) -> bool:
    """The holder ran on this host and its process is no more (killed, crashed): its
    lease may be taken at once rather than after it runs out."""
    import os
    import socket

    host, _, rest = holder.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    if int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:  # a process killed but not yet reaped by its parent is gone too
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return False
    return state in ("Z", "X")


class OverQuota(Exception):
    """A game not created: its creator's games not yet finished would cost more than
    they may hold at once."""

    def __init__(self, used: int, cost: int, limit: int) -> None:
        super().__init__(used, cost, limit)
        self.used, self.cost, self.limit = used, cost, limit


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_secret() -> str:
    """128 bits from `secrets`, as URL-safe text."""
    return secrets.token_urlsafe(16)


@dataclass
class Row:
    seq: int
    client_id: str | None
    seat: int | None
    action: str
    state_hash: str
    undone: bool


def default_url(root: Path | None = None) -> str:
    folder = (root or Path.cwd()) / "var"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'tianxia.sqlite3'}"


def _sqlite_engine(url: str, pragmas: tuple[str, ...], begin: str, **pool: Any) -> Engine:
    """An SQLite engine whose connections run `pragmas` when opened and start each
    transaction with `begin` (the driver's own would not say how)."""
    engine = sa.create_engine(
        url, connect_args={"check_same_thread": False, "isolation_level": None}, **pool
    )

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        for pragma in pragmas:
            cur.execute(pragma)
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql(begin)

    return engine


def _postgresql(url: str) -> str:
    """The URL with the psycopg (3) driver where it names none."""
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


def make_engine(url: str) -> Engine:
    """An engine with the pragmas and single writer connection SQLite needs."""
    if url.startswith("sqlite"):
        return _sqlite_engine(
            url,
            (
                "PRAGMA journal_mode=WAL",
                "PRAGMA synchronous=FULL",
                "PRAGMA foreign_keys=ON",
                "PRAGMA busy_timeout=5000",
            ),
            "BEGIN IMMEDIATE",
            poolclass=StaticPool,
        )
    return sa.create_engine(_postgresql(url), pool_size=4, pool_pre_ping=True)


# Read-only connections for the reads anyone may ask for (`Store.snapshot`).
READERS = 2


def _in_memory(url: str) -> bool:
    if not url.startswith("sqlite"):
        return False
    name = sa.engine.make_url(url).database
    return not name or name == ":memory:"


def make_read_engine(url: str, size: int = READERS) -> Engine | None:
    """Connections that only read, apart from the writer's (None for an in-memory SQLite
    database, which another connection would not see).

    SQLite: `query_only`, so none of them ever writes or checkpoints (the SQLite here
    must keep one writer, docs/server.md), each read one deferred transaction: one
    snapshot of the WAL, taken without waiting for the writer. PostgreSQL: a pool of its
    own, each read one `REPEATABLE READ` transaction."""
    if _in_memory(url):
        return None
    if url.startswith("sqlite"):
        return _sqlite_engine(
            url,
            ("PRAGMA query_only=ON", "PRAGMA busy_timeout=5000"),
            "BEGIN",
            pool_size=size,
            max_overflow=0,
        )
    return sa.create_engine(
        _postgresql(url),
        pool_size=size,
        max_overflow=0,
        pool_pre_ping=True,
        isolation_level="REPEATABLE READ",
    )


def migrate(url: str) -> None:
    """Bring the database to the newest schema with alembic (creating it if new)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    cfg.attributes["configure_logger"] = False
    command.upgrade(cfg, "head")


# The columns of an action's row, in the order the append writes them.
_APPEND_COLUMNS = (
    "game_id",
    "seq",
    "client_id",
    "seat",
    "action",
    "state_hash",
    "undone",
    "created",
)


# An append's `values` may carry, under this key, seats' clocks to write in the same
# transaction: {seat: {"bank", "vacation_left", "stand_in_since"}} (a move's cost to the
# mover's bank is durable with the move itself).
SEAT_CLOCKS = "seat_clocks"
_SEAT_CLOCK_UPDATE = (
    seats.update()
    .where(seats.c.game_id == sa.bindparam("gid"), seats.c.seat == sa.bindparam("sid"))
    .values(
        bank=sa.bindparam("bank"),
        vacation_left=sa.bindparam("vacation_left"),
        stand_in_since=sa.bindparam("stand_in_since"),
    )
)


def _seat_clocks(game_id: str, values: dict[str, Any]) -> list[dict[str, Any]]:
    """Take the seats' clocks out of an append's `values`, as parameters of
    `_SEAT_CLOCK_UPDATE`."""
    found: dict[int, dict[str, Any]] = values.pop(SEAT_CLOCKS, None) or {}
    return [
        {
            "gid": game_id,
            "sid": seat,
            "bank": v["bank"],
            "vacation_left": v["vacation_left"],
            "stand_in_since": v["stand_in_since"],
        }
        for seat, v in found.items()
    ]


def _action_row(game_id: str, r: Row, now: float) -> dict[str, Any]:
    """An action's row in the log, as `_APPEND_COLUMNS` name its columns."""
    return {
        "game_id": game_id,
        "seq": r.seq,
        "client_id": r.client_id,
        "seat": r.seat,
        "action": r.action,
        "state_hash": r.state_hash,
        "undone": False,
        "created": now,
    }


def new_game_rows(
    game_id: str,
    name: str,
    players: int,
    options: dict[str, Any],
    rules_version: int,
    seed: int,
    seat_plans: Sequence[tuple[str, str | None]],
    clock: float | None,
    creator: str | None = None,
    cost: int = 1,
    now: float | None = None,
    increment: float = 0.0,
    clock_policy: str = "bot",
    vacation: float = 0.0,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A new game's row and its seats' rows, every column as `Store.game` and
    `Store.seats` read them back: what a live game is built from without reading it.
    `clock`, `increment` and `vacation` in seconds (docs/server.md, Clocks)."""
    now = time.time() if now is None else now
    status = "open" if any(kind == "open" for kind, _ in seat_plans) else "running"
    timed = clock is not None
    row: dict[str, Any] = {
        "id": game_id,
        "game": name,
        "players": players,
        "options": json.dumps(options, sort_keys=True),
        "rules_version": rules_version,
        "status": status,
        "seed": seed,
        "clock": clock,
        "increment": increment if timed else None,
        "clock_policy": clock_policy if timed else None,
        "vacation": vacation if timed else None,
        # A game that starts at once starts its first seat's turn (and clock) now; one
        # with open seats when the last is taken.
        "turn_since": now if status == "running" else None,
        "created": now,
        "updated": now,
        "rated": False,
        "creator": creator,
        "cost": cost,
        "seq": None,
        "to_move": None,
        "scores": None,
        "rating_changes": None,
        "rematch": None,
    }
    seat_rows = [
        {
            "game_id": game_id,
            "seat": i,
            "kind": kind,
            "strength": strength,
            "name": f"bot ({strength})" if kind == "bot" else None,
            "player": None,
            "secret_hash": None,
            "resigned": False,
            "account_id": None,
            "invited": None,
            "bank": None,
            "vacation_left": None,
            "stand_in_since": None,
        }
        for i, (kind, strength) in enumerate(seat_plans)
    ]
    return row, seat_rows


class Store:
    """The database of one server. Not thread-safe by itself: the server calls it from
    one storage thread (the lock makes direct use from tests safe too)."""

    def __init__(self, url: str, readers: int = READERS) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.readers = make_read_engine(url, readers)
        self.reader_count = readers if self.readers is not None else 1
        self._lock = threading.Lock()
        # A test hook: a function called with a fault point's name; it may kill the process.
        self.fault: Any = None
        # The append's statements as compiled for this database (`_compiled`).
        self._statements: dict[tuple[str, ...], tuple[str, tuple[str, ...] | None]] = {}
        # Several processes may write to one PostgreSQL database: each append and undo
        # then runs under its game's lock and checks the stored seq (`_check_seqs`).
        # One SQLite database is written by one process, whose games' own locks order
        # every write already.
        self.shared = not url.startswith("sqlite")
        # Seconds spent waiting for games' commit locks, and how many were taken.
        self.lock_wait = 0.0
        self.locks = 0
        # This process, as its notifications name it: its listener skips its own.
        self.origin = secrets.token_hex(4)

    @contextmanager
    def write(self) -> Iterator[Connection]:
        if self.fault is not None:
            self.fault("write")
        with self._lock, self.engine.begin() as conn:
            yield conn

    @contextmanager
    def read(self) -> Iterator[Connection]:
        with self._lock, self.engine.connect() as conn:
            yield conn

    @contextmanager
    def snapshot(self) -> Iterator[Connection]:
        """A read on a reader connection: one consistent snapshot, safe from any thread,
        neither waiting for the writer nor holding it up."""
        if self.readers is None:
            with self.read() as c:
                yield c
            return
        with self.readers.begin() as conn:
            yield conn

    def close(self) -> None:
        # The readers first: the last SQLite connection to close checkpoints the WAL,
        # and that must be the writer's.
        if self.readers is not None:
            self.readers.dispose()
        self.engine.dispose()

    # --- games -------------------------------------------------------------------
    def create_game(
        self,
        game_id: str,
        name: str,
        players: int,
        options: dict[str, Any],
        rules_version: int,
        seed: int,
        seat_plans: Sequence[tuple[str, str | None]],
        clock: float | None,
        creator: str | None = None,
        cost: int = 1,
        max_open: int = 0,
    ) -> None:
        """Write a new game and its seats (`new_game_rows`, `insert_game`).

        Raises:
            OverQuota: as `insert_game`; nothing was written.
        """
        row, seat_rows = new_game_rows(
            game_id, name, players, options, rules_version, seed, seat_plans, clock, creator, cost
        )
        self.insert_game(row, seat_rows, (), max_open)

    def insert_game(
        self,
        row: dict[str, Any],
        seat_rows: Sequence[dict[str, Any]],
        log: Sequence[Row],
        max_open: int = 0,
    ) -> None:
        """Write a new game as it is in memory: its row, its seats and the first rows of
        its log (the opening's chance draws), in one transaction. The server builds the
        live game first and writes what it built, so nothing is read back.

        Raises:
            OverQuota: `max_open` (0: none) is set and the creator's open and running
                games with this one would cost more; nothing was written. Counted and
                written in one transaction, so requests at once cannot pass it together.
        """
        creator, cost = row["creator"], row["cost"]
        with self.write() as c:
            if max_open and creator is not None:
                used = c.execute(
                    sa.select(sa.func.coalesce(sa.func.sum(games.c.cost), 0)).where(
                        games.c.creator == creator, games.c.status.in_(("open", "running"))
                    )
                ).scalar_one()
                if used + cost > max_open:
                    raise OverQuota(int(used), cost, max_open)
            c.execute(games.insert().values(**row))
            c.execute(seats.insert(), list(seat_rows))
            if log:
                c.execute(
                    actions.insert(), [_action_row(row["id"], r, row["created"]) for r in log]
                )

    def exists(self, game_id: str) -> bool:
        """Whether a game of this id is stored: one look-up by primary key on a reader
        connection (`snapshot`), never on the writer's thread."""
        with self.snapshot() as c:
            found = c.execute(sa.select(games.c.id).where(games.c.id == game_id)).first()
            return found is not None

    def game(self, game_id: str) -> dict[str, Any] | None:
        with self.read() as c:
            row = c.execute(sa.select(games).where(games.c.id == game_id)).mappings().first()
            return dict(row) if row else None

    def list_games(self) -> list[dict[str, Any]]:
        with self.read() as c:
            rows = c.execute(sa.select(games).order_by(games.c.created.desc())).mappings()
            return [dict(r) for r in rows]

    def all_seats(self) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        with self.read() as c:
            for r in c.execute(sa.select(seats).order_by(seats.c.game_id, seats.c.seat)).mappings():
                out.setdefault(r["game_id"], []).append(dict(r))
        return out

    def summary_rows(self, game_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """A game's row and its seats, read in one snapshot (`snapshot`), or None."""
        with self.snapshot() as c:
            row = c.execute(sa.select(games).where(games.c.id == game_id)).mappings().first()
            if row is None:
                return None
            found = c.execute(
                sa.select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat)
            ).mappings()
            return dict(row), [dict(r) for r in found]

    def seats(self, game_id: str) -> list[dict[str, Any]]:
        with self.read() as c:
            rows = c.execute(
                sa.select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat)
            ).mappings()
            return [dict(r) for r in rows]

    def seat_by_secret(self, secret: str) -> tuple[str, int] | None:
        with self.read() as c:
            row = c.execute(
                sa.select(seats.c.game_id, seats.c.seat).where(
                    seats.c.secret_hash == hash_secret(secret)
                )
            ).first()
            return (row[0], row[1]) if row else None

    def set_status(self, game_id: str, status: str) -> None:
        with self.write() as c:
            c.execute(
                games.update()
                .where(games.c.id == game_id)
                .values(status=status, updated=time.time())
            )
            self.notify(c, [(game_id, -1)])

    def update_seat(
        self,
        game_id: str,
        seat: int,
        only_if: dict[str, Any] | None = None,
        while_open: bool = False,
        **values: Any,
    ) -> bool:
        """Write `values` into a seat, and the game's status (open until every seat is
        taken); with `only_if`, only while the seat's columns hold those values (None:
        null), and with `while_open` only while the game is open, so of two processes
        changing one seat at once one does, and the other is told false and writes
        nothing. On PostgreSQL under the game's commit lock: two seats taken at once
        through two processes count each other's."""
        query = seats.update().where(seats.c.game_id == game_id, seats.c.seat == seat)
        for column, value in (only_if or {}).items():
            col = seats.c[column]
            query = query.where(col.is_(None) if value is None else col == value)
        with self.write() as c:
            if self.shared:
                self._lock_games(c, [game_id])
            if while_open:
                now = c.execute(sa.select(games.c.status).where(games.c.id == game_id))
                if now.scalar() != "open":
                    return False
            if not c.execute(query.values(**values)).rowcount:
                return False
            remaining = c.execute(
                sa.select(sa.func.count())
                .select_from(seats)
                .where(seats.c.game_id == game_id, seats.c.kind == "open")
            ).scalar_one()
            status = c.execute(sa.select(games.c.status).where(games.c.id == game_id)).scalar_one()
            if status in ("open", "running"):
                c.execute(
                    games.update()
                    .where(games.c.id == game_id)
                    .values(status="open" if remaining else "running", updated=time.time())
                )
            self.notify(c, [(game_id, -1)])
        return True

    def set_rematch(self, game_id: str, rematch: str) -> str:
        """Make `rematch` the game's rematch unless it has one (asked through another
        process at the same time): returns the one it has now."""
        with self.write() as c:
            if self.shared:
                self._lock_games(c, [game_id])
            done = c.execute(
                games.update()
                .where(games.c.id == game_id, games.c.rematch.is_(None))
                .values(rematch=rematch)
            )
            if not done.rowcount:
                found = c.execute(sa.select(games.c.rematch).where(games.c.id == game_id))
                return str(found.scalar_one())
            self.notify(c, [(game_id, -1)])
            return rematch

    def forget_game(self, game_id: str) -> None:
        """Delete a game nobody has seen (a rematch made twice at once: the one that
        lost), its seats and its log."""
        with self.write() as c:
            c.execute(actions.delete().where(actions.c.game_id == game_id))
            c.execute(seats.delete().where(seats.c.game_id == game_id))
            c.execute(games.delete().where(games.c.id == game_id))

    def set_clocks(
        self, game_id: str, clocks: dict[int, dict[str, Any]], values: dict[str, Any]
    ) -> None:
        """Write seats' clocks (as an append's `SEAT_CLOCKS`) and `values` into the
        game's row, in one transaction: a clock's change without a move."""
        with self.write() as c:
            rows = _seat_clocks(game_id, {SEAT_CLOCKS: clocks})
            if rows:
                c.execute(_SEAT_CLOCK_UPDATE, rows)
            if values:
                c.execute(games.update().where(games.c.id == game_id).values(**values))
            self.notify(c, [(game_id, -1)])

    # --- the action log ------------------------------------------------------------
    def log(self, game_id: str) -> list[Row]:
        with self.read() as c:
            rows = c.execute(
                sa.select(
                    actions.c.seq,
                    actions.c.client_id,
                    actions.c.seat,
                    actions.c.action,
                    actions.c.state_hash,
                    actions.c.undone,
                )
                .where(actions.c.game_id == game_id, actions.c.undone == sa.false())
                .order_by(actions.c.seq)
            ).all()
            return [Row(*r) for r in rows]

    def catch_up(
        self, game_id: str, seq: int
    ) -> tuple[dict[str, Any], list[dict[str, Any]], list[Row]] | None:
        """What a process holding a game at `seq` lacks: the game's row, its seats and
        its live log from `seq` on (the row at `seq` itself, to tell whether the log
        still runs through the state held), read in one transaction; None if the game
        is gone."""
        with self.read() as c, c.begin():
            row = c.execute(sa.select(games).where(games.c.id == game_id)).mappings().first()
            if row is None:
                return None
            found = c.execute(
                sa.select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat)
            ).mappings()
            seat_rows = [dict(r) for r in found]
            rows = c.execute(
                sa.select(
                    actions.c.seq,
                    actions.c.client_id,
                    actions.c.seat,
                    actions.c.action,
                    actions.c.state_hash,
                    actions.c.undone,
                )
                .where(
                    actions.c.game_id == game_id,
                    actions.c.seq >= seq,
                    actions.c.undone == sa.false(),
                )
                .order_by(actions.c.seq)
            ).all()
            return dict(row), seat_rows, [Row(*r) for r in rows]

    def by_client_id(self, game_id: str, seat: int, client_id: str) -> Row | None:
        with self.read() as c:
            r = c.execute(
                sa.select(
                    actions.c.seq,
                    actions.c.client_id,
                    actions.c.seat,
                    actions.c.action,
                    actions.c.state_hash,
                    actions.c.undone,
                ).where(
                    actions.c.game_id == game_id,
                    actions.c.seat == seat,
                    actions.c.client_id == client_id,
                )
            ).first()
            return Row(*r) if r else None

    def append(
        self, game_id: str, rows: Sequence[Row], values: dict[str, Any] | None = None
    ) -> None:
        """Write `rows` in one transaction (the action and the chance outcomes after it),
        and `values` (status, the public summary) into the game's row.

        Raises:
            Conflict: a row's seq or client id is taken; nothing was written.
        """
        (failure,) = self.append_many([(game_id, rows, values)])
        if failure is not None:
            raise failure

    def append_many(
        self, batch: Sequence[tuple[str, Sequence[Row], dict[str, Any] | None]]
    ) -> list[Conflict | None]:
        """Write several games' appends in one transaction, each in its own savepoint.

        One commit (one fsync) serves the whole batch: that is the group commit. An
        append whose seq or client id is taken is rolled back alone and reported as a
        `Conflict` in its place; the others commit. Nothing is reported before the commit
        returns, so no caller can acknowledge an action that is not durable.
        """
        now = time.time()
        try:
            return self._append_all(batch, now)
        except sa.exc.IntegrityError:
            pass  # someone's seq or id is taken: find whose, one savepoint each
        results: list[Conflict | None] = []
        written: list[tuple[str, int]] = []
        with self.write() as c:
            stale = self._check_seqs(c, batch)
            for (game_id, rows, changes), refused in zip(batch, stale, strict=True):
                if refused is not None:
                    results.append(refused)
                    continue
                try:
                    with c.begin_nested():
                        c.execute(
                            actions.insert(),
                            [
                                {
                                    "game_id": game_id,
                                    "seq": r.seq,
                                    "client_id": r.client_id,
                                    "seat": r.seat,
                                    "action": r.action,
                                    "state_hash": r.state_hash,
                                    "undone": False,
                                    "created": now,
                                }
                                for r in rows
                            ],
                        )
                        values = dict(changes or {})
                        clocks = _seat_clocks(game_id, values)
                        c.execute(
                            games.update()
                            .where(games.c.id == game_id)
                            .values(updated=now, **values)
                        )
                        if clocks:
                            c.execute(_SEAT_CLOCK_UPDATE, clocks)
                    results.append(None)
                    if rows:
                        written.append((game_id, rows[-1].seq))
                except sa.exc.IntegrityError as e:
                    results.append(Conflict(str(e.orig)))
            self.notify(c, written)
            if self.fault is not None:
                self.fault("before_commit")
        if self.fault is not None:
            self.fault("after_commit")
        return results

    def notify(self, c: Connection, news: Sequence[tuple[str, int]]) -> None:
        """Tell the other processes, in the transaction of `c`, that these games
        changed (each with its seq as written; -1 where no seq moved)."""
        if self.shared and news:
            c.execute(_NOTIFY, {"p": [fanout.payload(g, s, self.origin) for g, s in news]})

    def _lock_games(self, c: Connection, game_ids: Sequence[str]) -> None:
        """Take the commit locks of these games (PostgreSQL), held to the transaction's
        end, and count the time spent waiting for them."""
        keys = sorted({game_key(g) for g in game_ids})
        began = time.perf_counter()
        c.execute(_LOCK_GAMES, {"keys": keys})
        self.lock_wait += time.perf_counter() - began
        self.locks += len(keys)

    def _check_seqs(
        self, c: Connection, batch: Sequence[tuple[str, Sequence[Row], dict[str, Any] | None]]
    ) -> list[Conflict | None]:
        """Under the games' commit locks, a `Conflict` for each append not built on the
        game's last stored seq (another process wrote or undid since this one read the
        game), None for the others; nothing to check where one process writes. The
        stored seq is the last live row of the log: what a replay of it reaches."""
        if not self.shared or not batch:
            return [None] * len(batch)
        ids = sorted({game_id for game_id, _, _ in batch})
        self._lock_games(c, ids)
        found = c.execute(
            sa.select(actions.c.game_id, sa.func.max(actions.c.seq))
            .where(actions.c.game_id.in_(ids), actions.c.undone == sa.false())
            .group_by(actions.c.game_id)
        ).all()
        last: dict[str, int] = {r[0]: int(r[1]) for r in found}
        out: list[Conflict | None] = []
        for game_id, rows, _ in batch:
            if not rows:
                out.append(None)
                continue
            at = last.get(game_id)
            # An empty log is at seq 0: its first row is seq 1 (0 in older tests' logs).
            if (rows[0].seq > 1) if at is None else (rows[0].seq != at + 1):
                out.append(
                    Conflict(
                        f"game {game_id} is at seq {at or 0} in the database, "
                        f"not {rows[0].seq - 1}: another process wrote it"
                    )
                )
                continue
            last[game_id] = rows[-1].seq  # a second append of one game in the batch
            out.append(None)
        return out

    def _append_all(
        self, batch: Sequence[tuple[str, Sequence[Row], dict[str, Any] | None]], now: float
    ) -> list[Conflict | None]:
        """The usual case, with no conflict: two statements and one commit for the batch
        (on PostgreSQL, after its games' locks and seq check: a stale append is left
        out and reported in its place).

        Every accepted action passes here, so the statements are compiled once and run
        by the driver's own `executemany` (SQLAlchemy's execution of a Core statement
        cost about as much again as the rest of the batch's work); a driver's error is
        raised as SQLAlchemy's, as from any other statement."""
        with self.write() as c:
            results = self._check_seqs(c, batch)
            if any(r is not None for r in results):
                batch = [b for b, r in zip(batch, results, strict=True) if r is None]
            if not batch:
                return results
            cursor = c.connection.cursor()
            try:
                sql, order = self._compiled(_APPEND_COLUMNS)
                self._run_many(
                    cursor,
                    sql,
                    order,
                    [_action_row(game_id, r, now) for game_id, rows, _ in batch for r in rows],
                )
                # One statement per set of columns written, run for all its games at
                # once: the usual batch, every game writing its public summary, is one
                # statement, not one per game.
                by_columns: dict[tuple[str, ...], list[dict[str, Any]]] = {}
                clocks: list[dict[str, Any]] = []
                for game_id, _, changes in batch:
                    values = {**(changes or {}), "updated": now}
                    clocks += _seat_clocks(game_id, values)
                    by_columns.setdefault(tuple(sorted(values)), []).append(
                        {**values, "gid": game_id}
                    )
                for columns, params in by_columns.items():
                    sql, order = self._compiled(columns)
                    self._run_many(cursor, sql, order, params)
            finally:
                cursor.close()
            if clocks:
                c.execute(_SEAT_CLOCK_UPDATE, clocks)
            self.notify(c, [(g, rows[-1].seq) for g, rows, _ in batch if rows])
            if self.fault is not None:
                self.fault("before_commit")
        if self.fault is not None:
            self.fault("after_commit")
        return results

    def _compiled(self, columns: tuple[str, ...]) -> tuple[str, tuple[str, ...] | None]:
        """The append's statements in this database's SQL, compiled once: the insert of
        action rows (`_APPEND_COLUMNS`) or the update of a game's row (`columns`, by
        `gid`). With the names of its parameters in order where the driver takes them
        by position (SQLite), None where it takes them by name (psycopg)."""
        found = self._statements.get(columns)
        if found is None:
            if columns is _APPEND_COLUMNS:
                # Inline: no RETURNING of the new ids (nobody reads them).
                stmt: Any = actions.insert().inline()
            else:
                stmt = games.update().where(games.c.id == sa.bindparam("gid"))
            compiled = stmt.compile(dialect=self.engine.dialect, column_keys=list(columns))
            order = tuple(compiled.positiontup or ()) if compiled.positional else None
            found = self._statements[columns] = (compiled.string, order)
        return found

    def _run_many(
        self, cursor: Any, sql: str, order: tuple[str, ...] | None, params: list[dict[str, Any]]
    ) -> None:
        dbapi = self.engine.dialect.loaded_dbapi
        rows = params if order is None else [tuple(p[k] for k in order) for p in params]
        try:
            cursor.executemany(sql, rows)
        except dbapi.Error as e:
            raise sa.exc.DBAPIError.instance(sql, None, e, dbapi.Error) from e

    def set_values(self, game_id: str, values: dict[str, Any], at_seq: int | None = None) -> None:
        """Write `values` (the public summary) into a game's row; with `at_seq`, only
        while the row's stored seq is that (another process's later move wrote a newer
        summary: it stays)."""
        query = games.update().where(games.c.id == game_id)
        if at_seq is not None:
            query = query.where(games.c.seq == at_seq)
        with self.write() as c:
            c.execute(query.values(**values))
            self.notify(c, [(game_id, -1)])

    def lobby(
        self, status: str | None, player: str | None, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
        """A page of games, newest first, and the seats of those games only: indexed
        queries whose cost grows with the page, not with the number of games, read in
        one snapshot (`snapshot`)."""
        query = sa.select(games).order_by(games.c.created.desc(), games.c.id)
        if status is not None:
            query = query.where(games.c.status == status)
        if player is not None:
            query = query.where(
                games.c.id.in_(sa.select(seats.c.game_id).where(seats.c.player == player))
            )
        with self.snapshot() as c:
            rows = [dict(r) for r in c.execute(query.limit(limit).offset(offset)).mappings()]
            out: dict[str, list[dict[str, Any]]] = {}
            if rows:
                found = c.execute(
                    sa.select(seats)
                    .where(seats.c.game_id.in_([r["id"] for r in rows]))
                    .order_by(seats.c.game_id, seats.c.seat)
                ).mappings()
                for r in found:
                    out.setdefault(r["game_id"], []).append(dict(r))
        return rows, out

    def to_resume(self) -> list[str]:
        """Running games that move without anyone's message: a bot seat (a resigned
        seat is played by one) or a move clock."""
        with self.read() as c:
            bots = sa.select(seats.c.game_id).where(
                sa.or_(seats.c.kind == "bot", seats.c.resigned == sa.true())
            )
            rows = c.execute(
                sa.select(games.c.id).where(
                    games.c.status == "running",
                    sa.or_(games.c.clock.is_not(None), games.c.id.in_(bots)),
                )
            ).all()
            return [r[0] for r in rows]

    def expire_open(self, before: float) -> list[str]:
        """Delete open games not changed since `before` (nobody joined them since):
        their seats, their log and themselves, at most 500 at a time. Returns their ids."""
        with self.write() as c:
            ids = [
                r[0]
                for r in c.execute(
                    sa.select(games.c.id)
                    .where(games.c.status == "open", games.c.updated < before)
                    .limit(500)
                ).all()
            ]
            if ids:
                c.execute(actions.delete().where(actions.c.game_id.in_(ids)))
                c.execute(seats.delete().where(seats.c.game_id.in_(ids)))
                c.execute(games.delete().where(games.c.id.in_(ids)))
                self.notify(c, [(game_id, -1) for game_id in ids])
            return ids

    def undo(self, game_id: str, seq: int) -> None:
        """Mark the live action at `seq` taken back (its client id stays used), and the
        game's stored seq one less.

        Raises:
            Conflict: `seq` is not the game's last stored action (another process moved
                or undid since this one read it); nothing was written.
        """
        with self.write() as c:
            if self.shared:
                self._lock_games(c, [game_id])
                at = c.execute(
                    sa.select(sa.func.max(actions.c.seq)).where(
                        actions.c.game_id == game_id, actions.c.undone == sa.false()
                    )
                ).scalar()
                if at != seq:
                    raise Conflict(
                        f"game {game_id} is at seq {at or 0} in the database, not {seq}: "
                        f"another process wrote it"
                    )
            c.execute(games.update().where(games.c.id == game_id).values(seq=seq - 1))
            self.notify(c, [(game_id, seq - 1)])
            c.execute(
                actions.update()
                .where(
                    actions.c.game_id == game_id,
                    actions.c.seq == seq,
                    actions.c.undone == sa.false(),
                )
                .values(undone=True)
            )

    # --- ratings -----------------------------------------------------------------------
    def rate(
        self,
        game: str,
        ranked: Sequence[tuple[str, str | None, float]],
        fixed: frozenset[str] = frozenset(),
    ) -> dict[str, tuple[float, float]]:
        """Update ratings of `(player, name, return)` for one finished game (openskill).

        Every seat is its own team. A bot strength may hold several seats (a quick game
        seats two easy bots): each of its seats is rated from the strength's rating
        before the game, and the strength takes the mean of its seats' new ratings, so
        one game counts once for it however many seats it held. The identities in
        `fixed` (a guest's seat) play at the default rating and are neither read nor
        written.

        Returns each updated identity's rating (mu - 3 sigma) before and after the game.
        """
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        with self.write() as c:
            current: dict[str, Any] = {}
            played: dict[str, int] = {}
            for player, _name, _ in ranked:
                if player in current:
                    continue
                if player in fixed:
                    current[player] = model.rating(name=player)
                    continue
                row = (
                    c.execute(
                        sa.select(ratings).where(ratings.c.player == player, ratings.c.game == game)
                    )
                    .mappings()
                    .first()
                )
                current[player] = (
                    model.rating(mu=row["mu"], sigma=row["sigma"], name=player)
                    if row
                    else model.rating(name=player)
                )
                if row:
                    played[player] = row["games"]
            teams = [[current[p]] for p, _, _ in ranked]
            scores = [r for _, _, r in ranked]
            new = model.rate(teams, scores=scores)
            seats: dict[str, tuple[str | None, list[tuple[float, float]]]] = {}
            for (player, name, _), team in zip(ranked, new, strict=True):
                seats.setdefault(player, (name, []))[1].append((team[0].mu, team[0].sigma))
            changes: dict[str, tuple[float, float]] = {}
            for player, (name, updates) in seats.items():
                if player in fixed:
                    continue
                mu = sum(u[0] for u in updates) / len(updates)
                sigma = sum(u[1] for u in updates) / len(updates)
                was = current[player]
                changes[player] = (was.mu - 3 * was.sigma, mu - 3 * sigma)
                if player not in played:
                    c.execute(
                        ratings.insert().values(
                            player=player, game=game, name=name, mu=mu, sigma=sigma, games=1
                        )
                    )
                else:
                    c.execute(
                        ratings.update()
                        .where(ratings.c.player == player, ratings.c.game == game)
                        .values(name=name, mu=mu, sigma=sigma, games=played[player] + 1)
                    )
        return changes

    def account_names(self, ids: Sequence[str]) -> dict[str, str]:
        """The names of these accounts now (an id with no account is left out)."""
        if not ids:
            return {}
        with self.read() as c:
            rows = c.execute(
                sa.select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(list(ids)))
            ).all()
            return {r[0]: r[1] for r in rows}

    def mark_rated(self, game_id: str, changes: list[dict[str, Any]] | None = None) -> None:
        """The game is rated; `changes` (each seat's rating before and after it) are
        kept with it for its summary."""
        values: dict[str, Any] = {"rated": True}
        if changes is not None:
            values["rating_changes"] = json.dumps(changes)
        with self.write() as c:
            c.execute(games.update().where(games.c.id == game_id).values(**values))
            self.notify(c, [(game_id, -1)])

    def leaderboard(self, game: str, limit: int = 100) -> list[dict[str, Any]]:
        """The best `limit` ratings of a title, best first (rating = mu - 3 sigma)."""
        rating = ratings.c.mu - 3 * ratings.c.sigma
        with self.snapshot() as c:
            rows = c.execute(
                sa.select(ratings)
                .where(ratings.c.game == game)
                .order_by(rating.desc(), ratings.c.name)
                .limit(limit)
            ).mappings()
            out = [
                {
                    "player_name": r["name"],
                    # A bot's strength, so a page can name it in its own language.
                    "bot": r["player"].removeprefix("bot:")
                    if r["player"].startswith("bot:")
                    else None,
                    "rating": r["mu"] - 3 * r["sigma"],
                    "mu": r["mu"],
                    "sigma": r["sigma"],
                    "games": r["games"],
                }
                for r in rows
            ]
        return sorted(out, key=lambda r: -r["rating"])

    # --- the lease -----------------------------------------------------------------------
    def take_lease(self, holder: str, seconds: float = LEASE_SECONDS) -> None:
        """Become the one process that writes to this SQLite database. A PostgreSQL
        database is shared by any number of processes (each commit under its game's
        lock): there is no lease to take.

        Raises:
            LeaseHeld: another process holds it, renewed within `seconds` and (when it
                runs on this host) still alive; the message says who and what to do.
        """
        if self.shared:
            return
        now = time.time()
        with self.write() as c:
            row = c.execute(sa.select(lease).where(lease.c.id == 1)).first()
            if row is not None and row.holder != holder:
                age = now - row.heartbeat
                if age < seconds and not holder_gone(row.holder):
                    host, _, rest = row.holder.partition(":")
                    raise LeaseHeld(
                        f"this SQLite database is served by another tianxia serve "
                        f"(pid {rest.partition(':')[0]} on {host}, its last heartbeat "
                        f"{age:.1f} s ago); SQLite serves one process: use PostgreSQL to "
                        f"run several. To move this one, stop the other first, or if it "
                        f"is gone without a word, start again in {seconds - age:.0f} s"
                    )
            if row is None:
                c.execute(lease.insert().values(id=1, holder=holder, heartbeat=now))
            else:
                c.execute(
                    lease.update().where(lease.c.id == 1).values(holder=holder, heartbeat=now)
                )

    def renew_lease(self, holder: str) -> bool:
        """Say this process still holds the lease; false if another took it over."""
        if self.shared:
            return True
        with self.write() as c:
            done = c.execute(
                lease.update()
                .where(lease.c.id == 1, lease.c.holder == holder)
                .values(heartbeat=time.time())
            )
            return bool(done.rowcount)

    def release_lease(self, holder: str) -> None:
        if self.shared:
            return
        with self.write() as c:
            c.execute(lease.delete().where(lease.c.id == 1, lease.c.holder == holder))

    def integrity_ok(self) -> bool:
        """SQLite's own integrity check (always true on other databases)."""
        if not self.url.startswith("sqlite"):
            return True
        with self.read() as c:
            return c.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"


class Damaged(Exception):
    """A database file SQLite's own check finds damaged: the server does not start on it."""


# Below this size the full `integrity_check` runs at start; above it the quicker
# `quick_check` (it skips the indexes' agreement with their tables).
FULL_CHECK_BYTES = 64 * 1024 * 1024


def check_database(url: str) -> None:
    """Refuse to serve from a damaged SQLite file, before anything is written to it.

    Raises:
        Damaged: the file is not a database, or SQLite's check finds it damaged; the
            message names the file and SQLite's first complaint.
    """
    if not url.startswith("sqlite"):
        return
    name = sa.engine.make_url(url).database
    if not name or name == ":memory:" or not Path(name).exists():
        return
    import sqlite3

    path = Path(name)
    pragma = "integrity_check" if path.stat().st_size <= FULL_CHECK_BYTES else "quick_check"
    try:
        # Opened as the server opens it: a WAL left by a crash is replayed and checked
        # too (a read-only open cannot do that).
        conn = sqlite3.connect(path)
        try:
            rows = conn.execute(f"PRAGMA {pragma}(5)").fetchall()
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        raise Damaged(
            f"the database {path} cannot be read ({e}): restore it from a backup "
            f"before serving from it"
        ) from None
    complaints = [str(r[0]) for r in rows]
    if complaints != ["ok"]:
        raise Damaged(
            f"the database {path} is damaged (SQLite's {pragma}: {complaints[0]}): "
            f"nothing was written to it; restore it from a backup, or recover what it "
            f"holds with `sqlite3 {path.name} .recover`, before serving from it"
        )
