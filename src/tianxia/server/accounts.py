"""Accounts: sign-up, sign-in, the session cookie, protection against forged requests,
the account's games on every device, claims, invitations by name, export and deletion.

`account_routes()` is the router `create_app` includes; `SessionGuard` the middleware
that finds the session a request carries and refuses forged ones; the functions taking
a `Store` are the account's storage (writes on the storage thread, reads on a reader).
docs/server.md, "Accounts", says what each route does and why.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import math
import os
import re
import secrets
import threading
import time
import unicodedata
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable, Coroutine, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from tianxia.server.limits import creator_key, origin_allowed
from tianxia.server.live import UNAVAILABLE_SENTENCE, seat_names
from tianxia.server.storage import (
    Store,
    accounts,
    games,
    outbox,
    ratings,
    seats,
    sessions,
    tokens,
)

if TYPE_CHECKING:
    from tianxia.server.live import Hub

log = logging.getLogger("tianxia.server")
_T = TypeVar("_T")

COOKIE = "tianxia_session"
# Where a request's session (or None) is kept in its ASGI scope by `SessionGuard`.
SCOPE_KEY = "tianxia.session"
# A session ends this long after it was last used; the cookie itself lives as long as a
# browser keeps one (400 days in Chromium), so that the session's sliding end decides.
SESSION_SECONDS = 30 * 24 * 3600.0
COOKIE_SECONDS = 400 * 24 * 3600
# An account's activity (and its session's `seen`) is written at most this often.
TOUCH_SECONDS = 10.0
# Sessions kept in memory (the others are read again when they come back), and for how
# long one is believed before it is read again: the bound on how long a session ended by
# another server process goes on being honoured by this one.
SESSIONS_IN_MEMORY = 10_000
SESSION_RECHECK = 5.0
# Ended sessions and tokens are deleted at most this often (on a sign-in).
SWEEP_SECONDS = 3600.0
NAME_MAX = 40
PASSWORD_MIN = 8
PASSWORD_MAX = 1000
EMAIL_MAX = 254
# Games and invitations in `/api/me`, and games a claim may name.
MY_GAMES = 200
CLAIM_MAX = 500
VERIFY_SECONDS = 7 * 24 * 3600.0
RESET_SECONDS = 3600.0

# The password hash: argon2id at OWASP's first recommended setting (19 MiB, 2 passes,
# one lane): about 40 ms on a core of the test machine. One lane keeps a hash on one
# core; at most `HASH_WORKERS` are computed at once (2, but 1 where the process may run
# on 2 cores or fewer: the event loop keeps a core), on threads niced `HASH_NICENESS`
# below the event loop's, and `HASH_WAITING` wait (`HASHES_PER_ADDRESS` of them for one
# client address), so sign-in traffic takes at most that much of the machine from play,
# and more is refused at once.
HASH_WORKERS = min(
    2,
    max(1, (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 2) - 1),
)
HASH_NICENESS = 10
HASH_WAITING = 16
HASHES_PER_ADDRESS = 4
HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)

# Failed sign-ins: after `FAILURES_FREE` in `FAILURE_WINDOW` seconds from one address or
# for one name, each further failure shuts that key out for a delay that doubles
# (1, 2, 4 ... `FAILURE_DELAY_MAX` s).
FAILURES_FREE = 5
FAILURE_WINDOW = 15 * 60.0
FAILURE_DELAY_MAX = 300.0
# Accounts one address may create in an hour, and password-reset mails asked for by one
# address, and sent to one account, in an hour.
SIGNUPS_PER_HOUR = 20
RESETS_PER_HOUR = 10
RESETS_PER_ACCOUNT_HOUR = 3
# Verification mails one account may have sent in an hour (each new address sends one).
VERIFY_PER_ACCOUNT_HOUR = 5
# Sessions one account holds at once (devices signed in); a new one ends the least
# recently used beyond.
SESSIONS_PER_ACCOUNT = 50
# Keys each of those counters remembers at once (an attacker's many addresses and names
# cost it at most this much memory).
COUNTER_KEYS = 100_000

WRONG = "the name or the password is wrong"
BUSY = "the server is checking many passwords just now: try again in a second"
NOT_SIGNED_IN = "not signed in"

STRENGTH_NAMES: tuple[str, ...] = ()  # filled on first use (tianxia.play.table)
# Besides letters and digits; and the marks that combine with a letter (the vowel signs
# of Devanagari, say), which are not letters by themselves.
_NAME_PUNCTUATION = frozenset(" -_.")
_MARKS = frozenset(("Mn", "Mc"))
_EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s.]+(\.[^@\s.]+)+$")
_SEAT_LABEL = re.compile(r"^p\d+$")


# --- names, passwords, addresses ---------------------------------------------------------
def name_of(text: str) -> str:
    """A name as it is kept: NFKC, without leading or trailing space, and one space
    where it had several (two names that differ in spaces alone read as one)."""
    kept = unicodedata.normalize("NFKC", text).strip()
    return " ".join(part for part in kept.split(" ") if part)


def name_key(text: str) -> str:
    """A name as names are compared: two names with the same key are one name."""
    return unicodedata.normalize("NFKC", name_of(text).casefold())


def _strengths() -> tuple[str, ...]:
    global STRENGTH_NAMES
    if not STRENGTH_NAMES:
        from tianxia.play.table import STRENGTHS

        STRENGTH_NAMES = tuple(s.casefold() for s in STRENGTHS)
    return STRENGTH_NAMES


def name_problem(name: str) -> str | None:
    """Why `name` (as kept) may not be an account's, or None."""
    if not 1 <= len(name) <= NAME_MAX:
        return f"a name has 1 to {NAME_MAX} characters"
    if not all(
        ch.isalnum() or ch in _NAME_PUNCTUATION or unicodedata.category(ch) in _MARKS for ch in name
    ):
        return "a name has letters, digits, spaces, '-', '_' and '.' only"
    if not any(ch.isalnum() for ch in name):
        return "a name has at least one letter or digit"
    key = name_key(name)
    words = key.split()
    strengths = _strengths()
    if key.startswith("bot") or key in strengths:
        return "a name may not pose as a bot"
    if len(words) == 3 and words[0] in strengths and words[1] == "bot":
        return "a name may not pose as a bot"  # "easy bot B", as a table names a bot
    if (words and (words[0] == "guest" or key.endswith("guest"))) or _SEAT_LABEL.match(key):
        return "a name may not pose as a guest or an empty seat"
    return None


def email_problem(email: str) -> str | None:
    if len(email) > EMAIL_MAX or not _EMAIL.fullmatch(email):
        return "that is not an e-mail address"
    return None


def _token() -> str:
    """256 bits from `secrets`, as URL-safe text."""
    return secrets.token_urlsafe(32)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# --- settings ------------------------------------------------------------------------------
class Notify(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    turn: bool | None = None
    start: bool | None = None
    end: bool | None = None
    invite: bool | None = None


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    language: Literal["en", "nl", "de"] | None = None
    notify: Notify | None = None
    digest: bool | None = None


DEFAULT_SETTINGS: dict[str, Any] = {
    "language": "en",
    "notify": {"turn": False, "start": False, "end": False, "invite": False},
    "digest": False,
}


def settings_of(text: str | None) -> dict[str, Any]:
    """An account's stored settings with every key filled (the defaults: opt-in mail)."""
    stored = json.loads(text or "{}")
    out = {**DEFAULT_SETTINGS, **{k: v for k, v in stored.items() if k != "notify"}}
    out["notify"] = {**DEFAULT_SETTINGS["notify"], **stored.get("notify", {})}
    return out


def merged_settings(text: str | None, change: Settings) -> str:
    stored: dict[str, Any] = json.loads(text or "{}")
    given = change.model_dump(exclude_none=True)
    if "notify" in given:
        stored["notify"] = {**stored.get("notify", {}), **given.pop("notify")}
    stored.update(given)
    return json.dumps(stored, sort_keys=True)


# --- storage -----------------------------------------------------------------------------
def _queue(
    c: Connection,
    key: str,
    kind: str,
    now: float,
    account_id: str | None = None,
    game_id: str | None = None,
    address: str | None = None,
    subject: str | None = None,
    body: str | None = None,
) -> None:
    """Queue a mail unless one of this key is queued or sent (the same news goes once),
    in the transaction of `c`, as the mail's own queue does."""
    from tianxia.server.mail import queue_in

    queue_in(c, key, kind, account_id, game_id, address, subject, body, now, now)


@dataclass(frozen=True)
class Mail:
    """A mail with its text written here (verification, reset): the link's token and
    where the link leads."""

    kind: str
    token: str
    address: str
    subject: str
    body: str


def _token_and_mail(c: Connection, account_id: str, mail: Mail, now: float) -> None:
    seconds = VERIFY_SECONDS if mail.kind == "verify" else RESET_SECONDS
    h = _sha(mail.token)
    c.execute(
        tokens.insert().values(
            hash=h,
            account_id=account_id,
            purpose=mail.kind,
            email=mail.address,
            created=now,
            expires=now + seconds,
            used=None,
        )
    )
    _queue(
        c,
        f"{mail.kind}:{h}",
        mail.kind,
        now,
        account_id=account_id,
        address=mail.address,
        subject=mail.subject,
        body=mail.body,
    )


def create_account(
    store: Store, row: dict[str, Any], session: dict[str, Any], mail: Mail | None
) -> bool:
    """Insert an account and its first session (and its address's verification mail);
    False if the name is taken."""
    try:
        with store.write() as c:
            taken = c.execute(
                sa.select(accounts.c.id).where(accounts.c.name_key == row["name_key"])
            ).first()
            if taken is not None:
                return False
            c.execute(accounts.insert().values(**row))
            c.execute(sessions.insert().values(**session))
            if mail is not None:
                _token_and_mail(c, row["id"], mail, row["created"])
    except IntegrityError:
        return False
    return True


def account_by_key(store: Store, key: str) -> dict[str, Any] | None:
    with store.snapshot() as c:
        row = c.execute(sa.select(accounts).where(accounts.c.name_key == key)).mappings().first()
        return dict(row) if row else None


def account_by_id(store: Store, account_id: str) -> dict[str, Any] | None:
    with store.snapshot() as c:
        row = c.execute(sa.select(accounts).where(accounts.c.id == account_id)).mappings().first()
        return dict(row) if row else None


def accounts_by_email(store: Store, email: str) -> list[dict[str, Any]]:
    """Accounts whose verified address is `email` (compared without case)."""
    with store.snapshot() as c:
        rows = c.execute(
            sa.select(accounts)
            .where(
                sa.func.lower(accounts.c.email) == email.lower(),
                accounts.c.email_verified == sa.true(),
            )
            .limit(5)
        ).mappings()
        return [dict(r) for r in rows]


def add_session(store: Store, session: dict[str, Any], replaces: str | None = None) -> None:
    """A new session of an account, in place of the browser's session `replaces` (if
    any); the account's ended sessions are deleted, and beyond `SESSIONS_PER_ACCOUNT`
    the least recently used end (a stranger who knows one password cannot fill the
    table by signing in again and again)."""
    account_id = session["account_id"]
    with store.write() as c:
        if replaces is not None:
            c.execute(sessions.delete().where(sessions.c.id_hash == replaces))
        c.execute(
            sessions.delete().where(
                sessions.c.account_id == account_id, sessions.c.expires <= session["created"]
            )
        )
        kept = c.execute(
            sa.select(sessions.c.id_hash)
            .where(sessions.c.account_id == account_id)
            .order_by(sessions.c.seen.desc(), sessions.c.id_hash)
            .offset(SESSIONS_PER_ACCOUNT - 1)
        ).all()
        if kept:
            c.execute(sessions.delete().where(sessions.c.id_hash.in_([r[0] for r in kept])))
        c.execute(sessions.insert().values(**session))


def session_row(store: Store, id_hash: str, now: float) -> dict[str, Any] | None:
    """A live session and its account's name, or None."""
    with store.snapshot() as c:
        row = (
            c.execute(
                sa.select(sessions, accounts.c.name)
                .join(accounts, accounts.c.id == sessions.c.account_id)
                .where(sessions.c.id_hash == id_hash, sessions.c.expires > now)
            )
            .mappings()
            .first()
        )
        return dict(row) if row else None


def sweep_ended(store: Store, now: float) -> int:
    """Delete every ended session, and the mailed tokens a day past their end; the
    sessions deleted."""
    with store.write() as c:
        gone = c.execute(sessions.delete().where(sessions.c.expires <= now)).rowcount
        c.execute(tokens.delete().where(tokens.c.expires <= now - 24 * 3600))
        return int(gone or 0)


def drop_session(store: Store, id_hash: str) -> None:
    with store.write() as c:
        c.execute(sessions.delete().where(sessions.c.id_hash == id_hash))


def touch(store: Store, account_id: str, id_hash: str, now: float) -> None:
    """The account was active now; its session lasts `SESSION_SECONDS` from now."""
    with store.write() as c:
        c.execute(accounts.update().where(accounts.c.id == account_id).values(active=now))
        c.execute(
            sessions.update()
            .where(sessions.c.id_hash == id_hash)
            .values(seen=now, expires=now + SESSION_SECONDS)
        )


def update_account(
    store: Store, account_id: str, values: dict[str, Any], mail: Mail | None = None
) -> None:
    with store.write() as c:
        c.execute(accounts.update().where(accounts.c.id == account_id).values(**values))
        if mail is not None:
            _token_and_mail(c, account_id, mail, time.time())


def set_password(
    store: Store, account_id: str, password_hash: str, keep_session: str | None
) -> None:
    """A new password: every session of the account but `keep_session` ends."""
    with store.write() as c:
        c.execute(
            accounts.update().where(accounts.c.id == account_id).values(password_hash=password_hash)
        )
        gone = sessions.delete().where(sessions.c.account_id == account_id)
        if keep_session is not None:
            gone = gone.where(sessions.c.id_hash != keep_session)
        c.execute(gone)


def queue_verification(store: Store, account_id: str, mail: Mail) -> None:
    """A new link for the account's address, not yet verified (the earlier links stay
    good until they expire: each names the same address)."""
    with store.write() as c:
        _token_and_mail(c, account_id, mail, time.time())


def queue_reset(store: Store, account_id: str, mail: Mail) -> None:
    with store.write() as c:
        _token_and_mail(c, account_id, mail, time.time())


def use_token(store: Store, token: str, purpose: str, now: float) -> dict[str, Any] | None:
    """Spend a mailed token: its row if it was this purpose's, unused and not expired
    (and is now used), else None."""
    with store.write() as c:
        return _spend(c, token, purpose, now)


def _spend(c: Connection, token: str, purpose: str, now: float) -> dict[str, Any] | None:
    """`use_token` in the transaction of `c`."""
    h = _sha(token)
    row = (
        c.execute(
            sa.select(tokens).where(
                tokens.c.hash == h,
                tokens.c.purpose == purpose,
                tokens.c.used.is_(None),
                tokens.c.expires > now,
            )
        )
        .mappings()
        .first()
    )
    if row is None:
        return None
    c.execute(tokens.update().where(tokens.c.hash == h).values(used=now))
    return dict(row)


def verify_email(store: Store, token: str, now: float) -> bool:
    """Mark the address a verification token was sent to verified, if it is still the
    account's address."""
    with store.write() as c:
        row = _spend(c, token, "verify", now)
        if row is None:
            return False
        done = c.execute(
            accounts.update()
            .where(accounts.c.id == row["account_id"], accounts.c.email == row["email"])
            .values(email_verified=True)
        )
        return bool(done.rowcount)


def reset_password(store: Store, token: str, password_hash: str, now: float) -> str | None:
    """Set the password of a reset token's account and end all its sessions; the
    account's id, or None for a token that is not (or no longer) good."""
    found = use_token(store, token, "reset", now)
    if found is None:
        return None
    set_password(store, found["account_id"], password_hash, None)
    return str(found["account_id"])


def _your_turn() -> sa.ColumnElement[bool]:
    return sa.and_(
        games.c.status == "running",
        games.c.to_move == seats.c.seat,
        seats.c.resigned == sa.false(),
    )


def _names_of(c: Connection, ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    if ids:
        found = c.execute(
            sa.select(seats).where(seats.c.game_id.in_(ids)).order_by(seats.c.game_id, seats.c.seat)
        ).mappings()
        for r in found:
            out.setdefault(r["game_id"], []).append(dict(r))
    return out


def me_of(
    store: Store, account_id: str
) -> tuple[dict[str, Any] | None, list[dict[str, Any]], list[dict[str, Any]]]:
    """The account, its games and its invitations, read in one snapshot."""
    with store.snapshot() as c:
        row = c.execute(sa.select(accounts).where(accounts.c.id == account_id)).mappings().first()
        if row is None:
            return None, [], []
        return dict(row), _games(c, account_id, MY_GAMES), _invitations(c, account_id, MY_GAMES)


def games_of(store: Store, account_id: str, limit: int = MY_GAMES) -> list[dict[str, Any]]:
    """The account's seats: its turn first (longest waiting first), then running, open,
    finished games (the last changed first), at most `limit`."""
    with store.snapshot() as c:
        return _games(c, account_id, limit)


def _games(c: Connection, account_id: str, limit: int) -> list[dict[str, Any]]:
    turn = _your_turn()
    group = sa.case(
        (turn, 0), (games.c.status == "running", 1), (games.c.status == "open", 2), else_=3
    )
    since = sa.func.coalesce(games.c.turn_since, games.c.updated)
    order = sa.case((turn, since), else_=-games.c.updated)
    query = (
        sa.select(
            seats.c.game_id,
            seats.c.seat,
            games.c.game,
            games.c.status,
            games.c.players,
            games.c.updated,
            games.c.turn_since,
            sa.case((turn, 1), else_=0).label("your_turn"),
        )
        .join(games, games.c.id == seats.c.game_id)
        .where(seats.c.account_id == account_id)
        .order_by(group, order, games.c.id, seats.c.seat)
        .limit(limit)
    )
    rows = [dict(r) for r in c.execute(query).mappings()]
    names = _names_of(c, sorted({r["game_id"] for r in rows}))
    return [
        {
            "game": r["game_id"],
            "title": r["game"],
            "seat": r["seat"],
            "status": r["status"],
            "your_turn": bool(r["your_turn"]),
            "since": r["turn_since"],
            "players": r["players"],
            "names": seat_names(names.get(r["game_id"], [])),
            "updated": r["updated"],
        }
        for r in rows
    ]


def invitations_of(store: Store, account_id: str, limit: int = MY_GAMES) -> list[dict[str, Any]]:
    """Open seats kept for the account, the newest game first; `by` names the first
    other account seated at the game (its creator, as a rule), if any."""
    with store.snapshot() as c:
        return _invitations(c, account_id, limit)


def _invitations(c: Connection, account_id: str, limit: int) -> list[dict[str, Any]]:
    query = (
        sa.select(seats.c.game_id, seats.c.seat, games.c.game, games.c.created)
        .join(games, games.c.id == seats.c.game_id)
        .where(seats.c.invited == account_id, seats.c.kind == "open", games.c.status == "open")
        .order_by(games.c.created.desc(), games.c.id, seats.c.seat)
        .limit(limit)
    )
    rows = [dict(r) for r in c.execute(query).mappings()]
    others = _names_of(c, sorted({r["game_id"] for r in rows}))
    out = []
    for r in rows:
        by = next(
            (
                s["name"]
                for s in others.get(r["game_id"], [])
                if s["account_id"] is not None and s["account_id"] != account_id
            ),
            None,
        )
        out.append(
            {
                "game": r["game_id"],
                "title": r["game"],
                "seat": r["seat"],
                "by": by,
                "created": r["created"],
            }
        )
    return out


def claim(
    store: Store, account_id: str, pairs: Sequence[tuple[str, str]]
) -> list[tuple[str, int, str | None]]:
    """Give the account each person's seat whose secret matches and that has no account
    yet; the seats it took, each with the name it now has at its table: the account's
    in a game not yet finished (the table shows who plays), None in a finished game,
    whose seat keeps the name its log and results were recorded under."""
    from tianxia.server.storage import hash_secret

    taken: list[tuple[str, int, str | None]] = []
    with store.write() as c:
        name = c.execute(sa.select(accounts.c.name).where(accounts.c.id == account_id)).scalar()
        for game_id, secret in pairs:
            found = c.execute(
                sa.select(seats.c.seat, games.c.status)
                .join(games, games.c.id == seats.c.game_id)
                .where(
                    seats.c.game_id == game_id,
                    seats.c.secret_hash == hash_secret(secret),
                    seats.c.kind == "human",
                    seats.c.account_id.is_(None),
                )
            ).first()
            if found is None:
                continue
            renamed = None if found[1] == "finished" or name is None else str(name)
            # Only while still nobody's: two processes claiming one seat at once for
            # two accounts give it to one.
            done = c.execute(
                seats.update()
                .where(
                    seats.c.game_id == game_id,
                    seats.c.seat == found[0],
                    seats.c.account_id.is_(None),
                )
                .values(account_id=account_id, **({} if renamed is None else {"name": renamed}))
            )
            if done.rowcount:
                taken.append((game_id, int(found[0]), renamed))
    return taken


def delete_account(store: Store, account_id: str) -> None:
    """Delete the account, its sessions, tokens, ratings and mail; its seats stay in
    their games as guests' seats (their names stay on the table)."""
    with store.write() as c:
        c.execute(seats.update().where(seats.c.account_id == account_id).values(account_id=None))
        c.execute(seats.update().where(seats.c.invited == account_id).values(invited=None))
        c.execute(sessions.delete().where(sessions.c.account_id == account_id))
        c.execute(tokens.delete().where(tokens.c.account_id == account_id))
        c.execute(ratings.delete().where(ratings.c.player == f"account:{account_id}"))
        c.execute(outbox.delete().where(outbox.c.account_id == account_id))
        c.execute(accounts.delete().where(accounts.c.id == account_id))


def export_of(store: Store, account_id: str) -> dict[str, Any]:
    """Everything kept of the account that is its own: the account, its settings, its
    games (every seat's public part and the results) and its ratings."""
    with store.snapshot() as c:
        acc = c.execute(sa.select(accounts).where(accounts.c.id == account_id)).mappings().first()
        if acc is None:
            return {}
        mine = c.execute(
            sa.select(seats.c.game_id, seats.c.seat).where(seats.c.account_id == account_id)
        ).all()
        ids = sorted({r[0] for r in mine})
        rows = {
            r["id"]: dict(r)
            for r in c.execute(sa.select(games).where(games.c.id.in_(ids))).mappings()
        }
        all_seats = _names_of(c, ids)
        rated = c.execute(
            sa.select(ratings).where(ratings.c.player == f"account:{account_id}")
        ).mappings()
        out_ratings = [
            {
                "game": r["game"],
                "rating": r["mu"] - 3 * r["sigma"],
                "mu": r["mu"],
                "sigma": r["sigma"],
                "games": r["games"],
            }
            for r in rated
        ]
    yours: dict[str, list[int]] = {}
    for game_id, seat in mine:
        yours.setdefault(game_id, []).append(int(seat))
    out_games = []
    for game_id in ids:
        g = rows.get(game_id)
        if g is None:
            continue
        held = all_seats.get(game_id, [])
        out_games.append(
            {
                "game": game_id,
                "title": g["game"],
                "options": json.loads(g["options"]),
                "status": g["status"],
                "created": g["created"],
                "updated": g["updated"],
                "moves": g["seq"],
                "your_seats": sorted(yours[game_id]),
                "seats": [
                    {
                        "seat": s["seat"],
                        "name": name,
                        "kind": s["kind"],
                        "account": s["account_id"] is not None,
                        "resigned": bool(s["resigned"]),
                    }
                    for s, name in zip(held, seat_names(held), strict=True)
                ],
                "scores": json.loads(g["scores"]) if g["scores"] else None,
                "rating_changes": json.loads(g["rating_changes"]) if g["rating_changes"] else None,
            }
        )
    return {
        "account": {
            "id": acc["id"],
            "name": acc["name"],
            "email": acc["email"],
            "email_verified": bool(acc["email_verified"]),
            "created": acc["created"],
        },
        "settings": settings_of(acc["settings"]),
        "games": out_games,
        "ratings": out_ratings,
        "exported": time.time(),
    }


def account_names(store: Store, ids: Iterable[str]) -> dict[str, str]:
    """These accounts' names by id (an id of no account any more is left out): the
    names open seats are kept for."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    with store.read() as c:
        found = c.execute(
            sa.select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(wanted))
        )
        return {str(r.id): str(r.name) for r in found}


def invite_targets(store: Store, names: Sequence[str]) -> dict[str, dict[str, Any] | None]:
    """The accounts of these names (by their keys), None for a name nobody holds."""
    out: dict[str, dict[str, Any] | None] = {}
    for name in names:
        out[name] = account_by_key(store, name_key(name))
    return out


def queue_invitations(store: Store, game_id: str, invited: dict[int, str]) -> None:
    """An invitation mail per seat kept for an account (sent if the account wants it)."""
    now = time.time()
    with store.write() as c:
        for seat, account_id in sorted(invited.items()):
            _queue(
                c, f"invite:{game_id}:{seat}", "invite", now, account_id=account_id, game_id=game_id
            )


# --- the bounded hasher, the counters of attempts --------------------------------------
class Busy(Exception):
    """As many passwords are being hashed and waiting as may be."""


def _nice() -> None:
    """A hashing thread yields to the event loop (and the storage thread) when cores are
    scarce: Linux gives each thread a niceness of its own."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASH_NICENESS)


class Hasher:
    """Password hashes on threads of their own: at most `workers` at once, at most
    `waiting` more queued, and at most `per_address` of those for one client address (one
    stranger cannot take every place in the queue); past that, `Busy` at once (the route
    answers 503)."""

    def __init__(
        self,
        workers: int = HASH_WORKERS,
        waiting: int = HASH_WAITING,
        per_address: int = HASHES_PER_ADDRESS,
    ) -> None:
        self.pool = ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="tianxia-hash", initializer=_nice
        )
        self.bound = workers + waiting
        self.per_address = per_address
        self.busy = 0
        self.by: dict[str, int] = {}
        # A hash to check a password against when the name has no account, so that a
        # wrong name takes as long as a wrong password.
        self._decoy: str | None = None

    async def run(self, who: str, fn: Callable[..., _T], *args: Any) -> _T:
        """`fn(*args)` on a hashing thread, for the client address `who`."""
        if self.busy >= self.bound or self.by.get(who, 0) >= self.per_address:
            raise Busy
        self.busy += 1
        self.by[who] = self.by.get(who, 0) + 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self.pool, lambda: fn(*args))
        finally:
            self.busy -= 1
            self.by[who] -= 1
            if not self.by[who]:
                del self.by[who]

    async def hash(self, who: str, password: str) -> str:
        return await self.run(who, HASHER.hash, password)

    async def verify(self, who: str, password_hash: str | None, password: str) -> bool:
        if password_hash is None:
            if self._decoy is None:
                self._decoy = await self.run(who, HASHER.hash, secrets.token_hex(16))
            password_hash = self._decoy

        def check() -> bool:
            try:
                return HASHER.verify(password_hash, password)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False

        ok = await self.run(who, check)
        return ok and password_hash is not self._decoy

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


class Failures:
    """Failed sign-ins per key (an address, a name): past `FAILURES_FREE` in the window,
    each failure shuts the key out for twice as long as the last."""

    def __init__(self) -> None:
        self.failed: OrderedDict[str, deque[float]] = OrderedDict()
        self.until: dict[str, float] = {}

    def wait(self, key: str, now: float) -> float | None:
        end = self.until.get(key)
        if end is None or end <= now:
            return None
        return end - now

    def fail(self, key: str, now: float) -> None:
        times = self.failed.pop(key, None) or deque()
        while times and times[0] <= now - FAILURE_WINDOW:
            times.popleft()
        times.append(now)
        self.failed[key] = times  # the most recent last
        over = len(times) - FAILURES_FREE
        if over >= 0:
            self.until[key] = now + min(FAILURE_DELAY_MAX, 2.0**over)
        while len(self.failed) > COUNTER_KEYS:
            old, _ = self.failed.popitem(last=False)
            self.until.pop(old, None)

    def forget(self, key: str) -> None:
        self.failed.pop(key, None)
        self.until.pop(key, None)


class Hourly:
    """How often each key did something in the last hour, up to `limit`."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.done: OrderedDict[str, deque[float]] = OrderedDict()

    def take(self, key: str, now: float) -> float | None:
        """Count one for `key`; or, over the limit, count nothing and return the
        seconds until it may."""
        times = self.done.pop(key, None) or deque()
        while times and times[0] <= now - 3600.0:
            times.popleft()
        self.done[key] = times
        if len(times) >= self.limit:
            return times[0] + 3600.0 - now
        times.append(now)
        while len(self.done) > COUNTER_KEYS:
            self.done.popitem(last=False)
        return None

    def give_back(self, key: str) -> None:
        """Undo the last `take` of `key` (what it counted did not happen after all)."""
        times = self.done.get(key)
        if times:
            times.pop()


# --- sessions --------------------------------------------------------------------------
@dataclass
class Session:
    id_hash: str
    account_id: str
    name: str
    csrf: str
    expires: float
    touched: float = 0.0
    # When this process last read the row (monotonic): past `SESSION_RECHECK` it is read
    # again, so a sign-out, a password change or a deletion served by another process
    # ends this session here too.
    read: float = field(default_factory=lambda: time.monotonic())


@dataclass
class Accounts:
    """What the account routes and `SessionGuard` share in one server process."""

    origins: tuple[str, ...] = ()
    hasher: Hasher = field(default_factory=Hasher)
    failures: Failures = field(default_factory=Failures)
    signups: Hourly = field(default_factory=lambda: Hourly(SIGNUPS_PER_HOUR))
    resets: Hourly = field(default_factory=lambda: Hourly(RESETS_PER_HOUR))
    resets_per_account: Hourly = field(default_factory=lambda: Hourly(RESETS_PER_ACCOUNT_HOUR))
    verifications: Hourly = field(default_factory=lambda: Hourly(VERIFY_PER_ACCOUNT_HOUR))
    cache: OrderedDict[str, Session] = field(default_factory=OrderedDict)
    background: set[asyncio.Task[None]] = field(default_factory=set)
    # When ended sessions and tokens were last deleted (`sweep`).
    swept: float = field(default_factory=time.monotonic)

    def sweep(self, hub: Hub) -> None:
        """At most once an hour (on a sign-in), delete ended sessions and tokens: the
        accounts that never come back leave nothing that grows."""
        if time.monotonic() - self.swept < SWEEP_SECONDS:
            return
        self.swept = time.monotonic()

        async def write() -> None:
            try:
                await hub.storage.run(sweep_ended, hub.storage.store, time.time())
            except sa.exc.SQLAlchemyError as e:
                log.warning("ended sessions could not be deleted: %s", e)

        self._later(write())

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def session(self, hub: Hub, cookie: str) -> Session | None:
        """The live session whose cookie this is, or None."""
        if not 0 < len(cookie) <= 64:
            return None
        h = _sha(cookie)
        now = time.time()
        s = self.cache.get(h)
        touched = 0.0
        if s is not None and time.monotonic() - s.read > SESSION_RECHECK:
            touched = s.touched
            self.cache.pop(h, None)
            s = None
        if s is None:
            row = await hub.storage.read(session_row, hub.storage.store, h, now)
            if row is None:
                return None
            s = Session(h, row["account_id"], row["name"], row["csrf"], row["expires"], touched)
            self.cache[h] = s
            while len(self.cache) > SESSIONS_IN_MEMORY:
                self.cache.popitem(last=False)
        if s.expires <= now:
            self.cache.pop(h, None)
            return None
        self.cache.move_to_end(h)
        return s

    def touch(self, hub: Hub, s: Session) -> None:
        """The account is active: written at most every `TOUCH_SECONDS`."""
        now = time.time()
        if now - s.touched < TOUCH_SECONDS:
            return
        s.touched = now
        s.expires = now + SESSION_SECONDS

        async def write() -> None:
            try:
                await hub.storage.run(touch, hub.storage.store, s.account_id, s.id_hash, now)
            except sa.exc.SQLAlchemyError as e:
                log.warning("an account's activity could not be written: %s", e)

        self._later(write())

    def forget(self, account_id: str, keep: str | None = None) -> None:
        """The account's sessions (but `keep`) ended: none is served from memory."""
        for h in [h for h, s in self.cache.items() if s.account_id == account_id and h != keep]:
            del self.cache[h]


def cookie_of(headers: Sequence[tuple[bytes, bytes]]) -> str | None:
    for key, value in headers:
        if key == b"cookie":
            found = cookie_parser(value.decode("latin-1")).get(COOKIE)
            if found:
                return found
    return None


# Requests that sign in or up carry no token (the page has none yet) but must not come
# from another site's page either (it would sign its victim in as someone else).
SIGNING = ("/api/session", "/api/accounts")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
CSRF_SENTENCE = (
    "a request signed in by the cookie must carry the session's X-CSRF-Token from this "
    "site's own pages"
)


class SessionGuard:
    """Finds the session a request or a websocket carries (into the scope, `SCOPE_KEY`),
    counts the account active, and refuses, 403 with a sentence, any request that changes
    something on a session's authority without the session's CSRF token or from another
    site's page (Origin). Requests without a session's cookie go on as guests'. A session
    the database cannot be asked for is answered 503, as any failed read."""

    def __init__(self, app: ASGIApp, accounts: Accounts) -> None:
        self.app = app
        self.accounts = accounts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        hub = getattr(scope["app"].state, "hub", None) if "app" in scope else None
        cookie = cookie_of(scope["headers"])
        session = None
        if cookie is not None and hub is not None:
            try:
                session = await self.accounts.session(hub, cookie)
            except sa.exc.SQLAlchemyError as e:
                log.error("a session could not be read: %s", e)
                if scope["type"] == "http":
                    await _refuse(send, 503, UNAVAILABLE_SENTENCE, [(b"retry-after", b"5")])
                else:
                    await send({"type": "websocket.close", "code": 1011})
                return
        scope[SCOPE_KEY] = session
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            signing = scope["path"] in SIGNING and scope["method"] == "POST"
            if (session is not None or signing) and not origin_allowed(
                headers, self.accounts.origins
            ):
                await _refuse(send, 403, "a page of another site may not do this")
                return
            if session is not None and not signing:
                token = headers.get("x-csrf-token", "")
                if not secrets.compare_digest(token.encode(), session.csrf.encode()):
                    await _refuse(send, 403, CSRF_SENTENCE)
                    return
        if session is not None and hub is not None:
            self.accounts.touch(hub, session)
        await self.app(scope, receive, send)


async def _refuse(
    send: Send, status: int, sentence: str, more: Sequence[tuple[bytes, bytes]] = ()
) -> None:
    body = json.dumps({"detail": sentence}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", b"%d" % len(body)),
                *more,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def session_of(request: Request) -> Session | None:
    s: Session | None = request.scope.get(SCOPE_KEY)
    return s


def signed_in(request: Request) -> Session:
    s = session_of(request)
    if s is None:
        raise HTTPException(401, NOT_SIGNED_IN)
    return s


# --- the routes ------------------------------------------------------------------------------
class SignUp(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(max_length=200)]
    password: Annotated[str, Field(max_length=PASSWORD_MAX)]
    email: Annotated[str, Field(max_length=EMAIL_MAX)] | None = None


class SignIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=200)]
    password: Annotated[str, Field(min_length=1, max_length=PASSWORD_MAX)]


class Change(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: Annotated[str, Field(max_length=EMAIL_MAX)] | None = None
    settings: Settings | None = None


class NewPassword(BaseModel):
    model_config = ConfigDict(extra="forbid")
    old: Annotated[str, Field(min_length=1, max_length=PASSWORD_MAX)]
    new: Annotated[str, Field(max_length=PASSWORD_MAX)]


class ResetAsk(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    email: Annotated[str, Field(min_length=1, max_length=EMAIL_MAX)] | None = None


class ResetDo(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: Annotated[str, Field(min_length=1, max_length=128)]
    password: Annotated[str, Field(max_length=PASSWORD_MAX)]


class Password(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: Annotated[str, Field(min_length=1, max_length=PASSWORD_MAX)]


class SeatKey(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: Annotated[str, Field(min_length=1, max_length=32)]
    secret: Annotated[str, Field(min_length=1, max_length=64)]


class Claim(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seats: Annotated[list[SeatKey], Field(max_length=CLAIM_MAX)]


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _state(request: Request) -> Accounts:
    acc: Accounts = request.app.state.accounts
    return acc


def _password_problem(password: str) -> str | None:
    if len(password) < PASSWORD_MIN:
        return f"a password has at least {PASSWORD_MIN} characters"
    return None


def _base(request: Request, acc: Accounts) -> str:
    """Where the links in mails lead: the first origin the operator names (`--origin`),
    else the address this request came to (behind a proxy, as the proxy forwards it)."""
    if acc.origins:
        return acc.origins[0].rstrip("/")
    return str(request.base_url).rstrip("/")


def _link_mail(
    kind: str, request: Request, acc: Accounts, name: str, email: str, settings: str
) -> Mail:
    """A verification (`verify`) or reset (`reset`) mail with its link's new token, in
    the account's language."""
    from tianxia.web.account_mails import account_mail

    token = _token()
    page = "verify" if kind == "verify" else "reset"
    link = f"{_base(request, acc)}/account/{page}?token={token}"
    subject, body = account_mail(kind, settings_of(settings)["language"], name, link)
    return Mail(kind, token, email, subject, body)


def _busy() -> HTTPException:
    return HTTPException(503, BUSY, headers={"Retry-After": "1"})


def _signed_in_response(
    request: Request, content: dict[str, Any], status: int, cookie: str
) -> JSONResponse:
    response = JSONResponse(content, status_code=status)
    response.set_cookie(
        COOKIE,
        cookie,
        max_age=COOKIE_SECONDS,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


def _new_session(account_id: str, now: float) -> tuple[str, dict[str, Any]]:
    cookie = _token()
    return cookie, {
        "id_hash": _sha(cookie),
        "account_id": account_id,
        "csrf": _token(),
        "created": now,
        "seen": now,
        "expires": now + SESSION_SECONDS,
    }


def _address(request: Request) -> str:
    return creator_key(request.client.host if request.client else "")


def _first_settings(request: Request) -> str:
    """A new account's settings: the language its pages were shown in (the switch's
    cookie, else the browser's list), so its first mails are in it too."""
    try:
        from tianxia.web.i18n import negotiate
    except ImportError:  # the pages need Babel (extra `server`): no language to follow
        return "{}"
    lang = negotiate(None, request.cookies.get("lang"), request.headers.get("accept-language"))
    return json.dumps({"language": lang}) if lang in ("nl", "de") else "{}"


def account_routes() -> APIRouter:
    router = APIRouter()

    @router.post("/api/accounts", status_code=201)
    async def sign_up(body: SignUp, request: Request) -> JSONResponse:
        """Create an account and sign it in (the session cookie). 409: the name is taken
        (without regard to case); 422: a name that breaks the rules or poses as a bot, a
        password under 8 characters, a malformed address. At most 20 an hour from one
        address (429)."""
        hub, acc = _hub(request), _state(request)
        name = name_of(body.name)
        problem = name_problem(name) or _password_problem(body.password)
        email = body.email.strip() if body.email else None
        if problem is None and email:
            problem = email_problem(email)
        if problem is not None:
            raise HTTPException(422, problem)
        key = name_key(name)
        if await hub.storage.read(account_by_key, hub.storage.store, key) is not None:
            raise HTTPException(409, f"the name {name!r} is taken")
        now = time.time()
        wait = acc.signups.take(_address(request), time.monotonic())
        if wait is not None:
            raise HTTPException(
                429,
                f"this address has created {SIGNUPS_PER_HOUR} accounts in the last hour: "
                f"try again in {math.ceil(wait)} s",
                headers={"Retry-After": str(math.ceil(wait))},
            )
        try:
            password_hash = await acc.hasher.hash(_address(request), body.password)
        except Busy:
            acc.signups.give_back(_address(request))
            raise _busy() from None
        account_id = uuid.uuid4().hex
        settings = _first_settings(request)
        row: dict[str, Any] = {
            "id": account_id,
            "name": name,
            "name_key": key,
            "password_hash": password_hash,
            "email": email or None,
            "email_verified": False,
            "settings": settings,
            "created": now,
            "active": now,
        }
        cookie, session = _new_session(account_id, now)
        mail = _link_mail("verify", request, acc, name, email, settings) if email else None
        if not await hub.storage.run(create_account, hub.storage.store, row, session, mail):
            acc.signups.give_back(_address(request))
            raise HTTPException(409, f"the name {name!r} is taken")
        content = {
            "id": account_id,
            "name": name,
            "email": email or None,
            "email_verified": False,
            "csrf": session["csrf"],
        }
        return _signed_in_response(request, content, 201, cookie)

    @router.post("/api/session")
    async def sign_in(body: SignIn, request: Request) -> JSONResponse:
        """Sign in: sets the session cookie. 401 with one sentence whether the name or the
        password is wrong; after 5 failures in 15 minutes from an address or for a name,
        each further one shuts it out for twice as long (429 with Retry-After)."""
        hub, acc = _hub(request), _state(request)
        key = name_key(body.name)
        keys = (_address(request), "name:" + _sha(key))
        now = time.monotonic()
        waits = [w for k in keys if (w := acc.failures.wait(k, now)) is not None]
        if waits:
            wait = math.ceil(max(waits))
            raise HTTPException(
                429,
                f"too many wrong passwords: try again in {wait} s",
                headers={"Retry-After": str(wait)},
            )
        found = await hub.storage.read(account_by_key, hub.storage.store, key)
        try:
            ok = await acc.hasher.verify(
                _address(request), found["password_hash"] if found else None, body.password
            )
        except Busy:
            raise _busy() from None
        if not ok or found is None:
            for k in keys:
                acc.failures.fail(k, time.monotonic())
            raise HTTPException(401, WRONG)
        acc.failures.forget(keys[1])
        cookie, session = _new_session(found["id"], time.time())
        # The browser's session before, if any, ends: one browser, one session.
        before = session_of(request)
        replaces = before.id_hash if before is not None else None
        await hub.storage.run(add_session, hub.storage.store, session, replaces)
        if replaces is not None:
            acc.cache.pop(replaces, None)
        acc.sweep(hub)
        content = {"id": found["id"], "name": found["name"], "csrf": session["csrf"]}
        return _signed_in_response(request, content, 200, cookie)

    @router.delete("/api/session")
    async def sign_out(request: Request) -> JSONResponse:
        """Sign out: the session ends and the cookie is cleared."""
        hub, acc = _hub(request), _state(request)
        s = session_of(request)
        if s is not None:
            await hub.storage.run(drop_session, hub.storage.store, s.id_hash)
            acc.cache.pop(s.id_hash, None)
        response = JSONResponse({"signed_out": s is not None})
        response.delete_cookie(
            COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
        )
        return response

    @router.get("/api/me")
    async def me(request: Request) -> dict[str, Any]:
        """The account, its games (its turn first, longest waiting first; then running,
        open, finished games, the last changed first; at most 200) and its invitations."""
        hub, s = _hub(request), signed_in(request)
        st = hub.storage
        found, mine, invited = await st.read(me_of, st.store, s.account_id)
        if found is None:
            raise HTTPException(401, NOT_SIGNED_IN)
        return {
            "id": found["id"],
            "name": found["name"],
            "email": found["email"],
            "email_verified": bool(found["email_verified"]),
            "settings": settings_of(found["settings"]),
            "csrf": s.csrf,
            "games": mine,
            "invitations": invited,
        }

    @router.patch("/api/me")
    async def change(body: Change, request: Request) -> dict[str, Any]:
        """Change the address (it is unverified until its link is opened: a mail with
        the link is queued) or the settings (each key optional)."""
        hub, acc, s = _hub(request), _state(request), signed_in(request)
        st = hub.storage
        found = await st.read(account_by_id, st.store, s.account_id)
        if found is None:
            raise HTTPException(401, NOT_SIGNED_IN)
        values: dict[str, Any] = {}
        mail = None
        if "email" in body.model_fields_set:
            # `null` or "" removes the address.
            email = (body.email or "").strip()
            if email and (problem := email_problem(email)) is not None:
                raise HTTPException(422, problem)
            if (email or None) != found["email"]:
                values.update(email=email or None, email_verified=False)
                if email:
                    wait = acc.verifications.take(s.account_id, time.monotonic())
                    if wait is not None:
                        raise HTTPException(
                            429,
                            f"this account has been sent {VERIFY_PER_ACCOUNT_HOUR} verification "
                            f"mails in the last hour: try again in {math.ceil(wait)} s",
                            headers={"Retry-After": str(math.ceil(wait))},
                        )
                    # In the language the request may be changing too.
                    said = merged_settings(found["settings"], body.settings or Settings())
                    mail = _link_mail("verify", request, acc, found["name"], email, said)
        if body.settings is not None:
            values["settings"] = merged_settings(found["settings"], body.settings)
        if values:
            await st.run(update_account, st.store, s.account_id, values, mail)
        after = {**found, **values}
        return {
            "id": after["id"],
            "name": after["name"],
            "email": after["email"],
            "email_verified": bool(after["email_verified"]),
            "settings": settings_of(after["settings"]),
        }

    @router.post("/api/me/verify", status_code=202)
    async def verify_again(request: Request) -> dict[str, Any]:
        """Mail a new verification link to the account's address, not yet verified
        (counted with the other verification mails of the hour)."""
        hub, acc, s = _hub(request), _state(request), signed_in(request)
        st = hub.storage
        found = await st.read(account_by_id, st.store, s.account_id)
        if found is None:
            raise HTTPException(401, NOT_SIGNED_IN)
        if not found["email"]:
            raise HTTPException(409, "this account has no address to verify: give one first")
        if found["email_verified"]:
            raise HTTPException(409, "this address is verified already")
        wait = acc.verifications.take(s.account_id, time.monotonic())
        if wait is not None:
            raise HTTPException(
                429,
                f"this account has been sent {VERIFY_PER_ACCOUNT_HOUR} verification "
                f"mails in the last hour: try again in {math.ceil(wait)} s",
                headers={"Retry-After": str(math.ceil(wait))},
            )
        mail = _link_mail("verify", request, acc, found["name"], found["email"], found["settings"])
        await st.run(queue_verification, st.store, s.account_id, mail)
        return {"email": found["email"], "queued": True}

    @router.post("/api/me/password")
    async def change_password(body: NewPassword, request: Request) -> dict[str, Any]:
        """A new password, given the old one; the account's other sessions end."""
        hub, acc, s = _hub(request), _state(request), signed_in(request)
        st = hub.storage
        problem = _password_problem(body.new)
        if problem is not None:
            raise HTTPException(422, problem)
        found = await st.read(account_by_id, st.store, s.account_id)
        if found is None:
            raise HTTPException(401, NOT_SIGNED_IN)
        try:
            if not await acc.hasher.verify(_address(request), found["password_hash"], body.old):
                raise HTTPException(403, "the old password is wrong")
            new_hash = await acc.hasher.hash(_address(request), body.new)
        except Busy:
            raise _busy() from None
        await st.run(set_password, st.store, s.account_id, new_hash, s.id_hash)
        acc.forget(s.account_id, keep=s.id_hash)
        return {"changed": True}

    @router.post("/api/password-reset", status_code=202)
    async def ask_reset(body: ResetAsk, request: Request) -> dict[str, Any]:
        """Mail a link to choose a new password (valid an hour) to the verified address
        of the account of this name, or of the accounts of this address. Says nothing of
        whether there is one."""
        hub, acc = _hub(request), _state(request)
        st = hub.storage
        if (body.name is None) == (body.email is None):
            raise HTTPException(422, "give the account's name or its e-mail address")
        wait = acc.resets.take(_address(request), time.monotonic())
        if wait is not None:
            raise HTTPException(
                429,
                f"this address has asked for {RESETS_PER_HOUR} password resets in the last "
                f"hour: try again in {math.ceil(wait)} s",
                headers={"Retry-After": str(math.ceil(wait))},
            )
        if body.name is not None:
            one = await st.read(account_by_key, st.store, name_key(body.name))
            found = [one] if one is not None and one["email_verified"] else []
        else:
            found = await st.read(accounts_by_email, st.store, (body.email or "").strip())
        for a in found:
            if a["email"] and acc.resets_per_account.take(a["id"], time.monotonic()) is None:
                mail = _link_mail("reset", request, acc, a["name"], a["email"], a["settings"])
                await st.run(queue_reset, st.store, a["id"], mail)
        return {
            "detail": "if an account with a verified address matches, a link to choose a new "
            "password is on its way"
        }

    @router.post("/api/password-reset/confirm")
    async def confirm_reset(body: ResetDo, request: Request) -> dict[str, Any]:
        """Choose a new password with a reset link's token: every session of the account
        ends (sign in with the new password)."""
        hub, acc = _hub(request), _state(request)
        problem = _password_problem(body.password)
        if problem is not None:
            raise HTTPException(422, problem)
        try:
            new_hash = await acc.hasher.hash(_address(request), body.password)
        except Busy:
            raise _busy() from None
        done = await hub.storage.run(
            reset_password, hub.storage.store, body.token, new_hash, time.time()
        )
        if done is None:
            raise HTTPException(410, "this link is used, or older than an hour: ask for a new one")
        acc.forget(done)
        return {"reset": True}

    @router.get("/account/verify")
    async def verify(
        request: Request, token: Annotated[str, Query(min_length=1, max_length=128)]
    ) -> Response:
        """The link in a verification mail: the address is verified, then the account
        page says so (`verified=1`; `verified=0` for a link used, expired or of an address
        the account no longer has)."""
        hub = _hub(request)
        ok = await hub.storage.run(verify_email, hub.storage.store, token, time.time())
        return RedirectResponse(f"/account?verified={int(ok)}", status_code=303)

    @router.delete("/api/me")
    async def delete_me(body: Password, request: Request) -> JSONResponse:
        """Delete the account, given its password: its sessions, tokens, ratings and mail
        go; its seats stay in their games as guests' seats, under the same names."""
        hub, acc, s = _hub(request), _state(request), signed_in(request)
        st = hub.storage
        found = await st.read(account_by_id, st.store, s.account_id)
        if found is None:
            raise HTTPException(401, NOT_SIGNED_IN)
        try:
            if not await acc.hasher.verify(
                _address(request), found["password_hash"], body.password
            ):
                raise HTTPException(403, "the password is wrong")
        except Busy:
            raise _busy() from None
        await st.run(delete_account, st.store, s.account_id)
        acc.forget(s.account_id)
        for live in list(hub.games.values()):
            for seat in live.seats:
                if seat.get("account_id") == s.account_id:
                    seat["account_id"] = None
                if seat.get("invited") == s.account_id:
                    seat["invited"] = None
        hub.lobby.changed()
        response = JSONResponse({"deleted": True})
        response.delete_cookie(
            COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
        )
        return response

    @router.get("/api/me/export")
    async def export(request: Request) -> JSONResponse:
        """Everything of the account as one JSON file: the account, its settings, its
        games with their seats and results, its ratings."""
        hub, s = _hub(request), signed_in(request)
        data = await hub.storage.read(export_of, hub.storage.store, s.account_id)
        if not data:
            raise HTTPException(401, NOT_SIGNED_IN)
        return JSONResponse(
            data,
            headers={"content-disposition": 'attachment; filename="tianxia-account.json"'},
        )

    @router.post("/api/me/claim")
    async def claim_seats(body: Claim, request: Request) -> dict[str, Any]:
        """The seats this browser holds as a guest (each game's id and seat secret)
        become the account's: those whose secret matches and that have no account. In
        a game not yet finished the seat takes the account's name."""
        hub, s = _hub(request), signed_in(request)
        pairs = [(k.game, k.secret) for k in body.seats]
        taken = await hub.storage.run(claim, hub.storage.store, s.account_id, pairs)
        for game_id, seat, renamed in taken:
            live = hub.games.get(game_id)
            if live is not None and seat < len(live.seats):
                live.seats[seat]["account_id"] = s.account_id
                if renamed is not None:
                    live.seats[seat]["name"] = renamed
                live.broadcast()
        if taken:
            hub.lobby.changed()
        return {"claimed": len(taken)}

    return router
