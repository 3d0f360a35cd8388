"""Mail: turn, start, end, invitation and timeout notices, queued in the database's outbox
and sent by SMTP (docs/server.md, Mail).

Queuing: a live game tells `Mail.news` each time it changes (`LiveGame.broadcast`); a
move that hands the turn to an account's seat, a game that starts or ends, queues a row
per account concerned, and only for accounts whose settings ask for that kind of news.
A game with no account in it costs one look at its seats and nothing else.

Sending: one task per server (`Mail.run`) claims the rows that are due, decides at send
time (the account moved already, was active, was mailed less than a minute ago, wants a
daily digest, has no verified address), renders the survivors in the account's language
(`tianxia.web.mails`), sends one mail per account with `aiosmtplib`, and marks the rows
sent. A failure is retried later with a growing delay; a claim a killed server left is
released by the next server to hold the SQLite database's lease, and on PostgreSQL
(several processes, none of them sure another is gone) taken by any sender once it
runs out.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html
import json
import logging
import math
import secrets
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formataddr, formatdate
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from tianxia.core.registry import game_class
from tianxia.server.storage import Store, accounts, games, holder_gone, outbox, seats, tokens

if TYPE_CHECKING:
    from tianxia.server.live import Hub, LiveGame

log = logging.getLogger("tianxia.server.mail")

# The news a game makes for an account, and the settings' flag each goes with.
FLAGS = {"turn": "turn", "timeout": "turn", "start": "start", "end": "end", "invite": "invite"}
# Seconds a turn mail waits (the player may be at the table), and between two mails to
# one account: `tianxia serve --mail-delay`.
DELAY = 60.0
# Seconds of one digest: its news go out together at the end of each (UTC days).
DIGEST = 86400.0
# Failed sends are tried again after a delay that doubles from a quarter of `DELAY`,
# up to an hour; after this many attempts a row is given up (`dropped='failed'`).
ATTEMPTS = 10
RETRY_MAX = 3600.0
# Rows claimed in one round of the sender.
BATCH = 50
# How long an unsubscribe link in a mail stays good.
UNSUBSCRIBE_DAYS = 365
# News that could have gone out this long ago and did not (a server without SMTP served
# the database meanwhile) is stale: dropped, not sent late.
STALE = 86400.0
# A server that starts looks this far back for news its predecessor committed but was
# killed before queuing (`recover`).
RECOVER = 3600.0
# Rows sent or given up are deleted this long after they were queued (their news will
# not come again), once an hour.
KEEP = 30 * 86400.0
PRUNE_EVERY = 3600.0
# Mail that waits for a digest or a retry is looked for at least this often (seconds);
# a row queued by this process wakes the sender at once.
POLL = 5.0


class MailConfigError(ValueError):
    """An SMTP URL or a sender address that cannot be used; the message says why."""


@dataclass(frozen=True)
class Smtp:
    """Where mail goes: `smtp://[user:password@]host[:port]` (STARTTLS when the server
    offers it; port 25), `smtp+starttls://` or `?starttls=1` (STARTTLS required; port
    587), `smtps://` (TLS from the first byte; port 465)."""

    hostname: str
    port: int
    username: str | None = None
    password: str | None = None
    use_tls: bool = False
    start_tls: bool | None = None

    @classmethod
    def parse(cls, url: str) -> Smtp:
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme not in ("smtp", "smtps", "smtp+starttls"):
            raise MailConfigError(
                f"an SMTP URL starts smtp://, smtp+starttls:// or smtps://, not {url.split(':')[0]!r}"
            )
        if not parts.hostname:
            raise MailConfigError("the SMTP URL names no host (smtp://host:port)")
        query = parse_qs(parts.query)
        starttls = scheme == "smtp+starttls" or query.get("starttls", ["0"])[0] in ("1", "true")
        try:
            port = parts.port
        except ValueError:
            raise MailConfigError("the SMTP URL's port is not a number from 1 to 65535") from None
        default = 465 if scheme == "smtps" else 587 if starttls else 25
        return cls(
            hostname=parts.hostname,
            port=port or default,
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            use_tls=scheme == "smtps",
            start_tls=True if starttls else (False if scheme == "smtps" else None),
        )


@dataclass(frozen=True)
class MailConfig:
    smtp: Smtp
    sender: str
    # The site's address as players reach it: the links in the mails start with it.
    site: str
    delay: float = DELAY
    digest: float = DIGEST

    @property
    def host(self) -> str:
        """The host the Message-IDs name: the site's."""
        return urlsplit(self.site).hostname or "tianxia"

    @property
    def claim(self) -> float:
        """Seconds a claimed row is this sender's: longer than a send may take."""
        return max(30.0, 2 * self.timeout)

    @property
    def timeout(self) -> float:
        return 30.0


# --- the outbox -------------------------------------------------------------------------


def _insert_ignoring_key(c: sa.Connection) -> Any:
    """An insert into the outbox that does nothing where the key is queued already."""
    if c.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(outbox).on_conflict_do_nothing(index_elements=["key"])
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(outbox).on_conflict_do_nothing(index_elements=["key"])


def queue(
    store: Store,
    key: str,
    kind: str,
    account_id: str | None = None,
    game_id: str | None = None,
    address: str | None = None,
    subject: str | None = None,
    body: str | None = None,
    send_after: float | None = None,
    now: float | None = None,
) -> bool:
    """Queue a mail; False if one with this `key` is queued (or sent) already: the same
    news is never queued twice, across restarts too. A row with `address`, `subject`
    and `body` is sent as it is; the others are rendered when they are sent."""
    now = time.time() if now is None else now
    with store.write() as c:
        return queue_in(
            c,
            key,
            kind,
            account_id,
            game_id,
            address,
            subject,
            body,
            now if send_after is None else send_after,
            now,
        )


def queue_in(
    c: sa.Connection,
    key: str,
    kind: str,
    account_id: str | None,
    game_id: str | None,
    address: str | None,
    subject: str | None,
    body: str | None,
    send_after: float,
    now: float,
) -> bool:
    """`queue` in the transaction of `c` (with other writes that must go with it)."""
    done = c.execute(
        _insert_ignoring_key(c).values(
            key=key,
            kind=kind,
            account_id=account_id,
            game_id=game_id,
            address=address,
            subject=subject,
            body=body,
            created=now,
            send_after=send_after,
            attempts=0,
        )
    )
    return bool(done.rowcount)


def settings_of(text: str | None) -> dict[str, Any]:
    """An account's stored settings (JSON), {} where unreadable."""
    try:
        found = json.loads(text or "{}")
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def wants(settings: dict[str, Any], kind: str) -> bool:
    """Whether the account asked for this kind of news (every flag is off until set)."""
    notify = settings.get("notify")
    return isinstance(notify, dict) and notify.get(FLAGS.get(kind, kind)) is True


def digest_due(now: float, period: float) -> tuple[str, float]:
    """The digest that news of `now` goes into: its name (the UTC day, or its start
    time where a digest is shorter than a day) and when it is sent (its end)."""
    start = math.floor(now / period) * period
    fmt = "%Y-%m-%d" if period >= DIGEST else "%Y-%m-%dT%H%M%S"
    return time.strftime(fmt, time.gmtime(start)), start + period


def queue_news(
    store: Store,
    game_id: str,
    news: Sequence[tuple[str, str, str]],
    config: MailConfig,
    now: float | None = None,
) -> int:
    """Queue `news` of one game, each `(kind, account, key)`, for the accounts that ask
    for that kind: in one transaction, reading their settings first. A turn waits
    `config.delay` (the player may be at the table); an account with a digest has its
    news wait for the digest, which is queued with them. Returns how many were queued."""
    now = time.time() if now is None else now
    wanted = sorted({a for _, a, _ in news})
    queued = 0
    with store.write() as c:
        found = {
            r.id: settings_of(r.settings)
            for r in c.execute(
                sa.select(accounts.c.id, accounts.c.settings).where(accounts.c.id.in_(wanted))
            )
        }
        for kind, account, key in news:
            settings = found.get(account)
            if settings is None or not wants(settings, kind):
                continue
            send_after = now + config.delay if kind in ("turn", "timeout") else now
            if settings.get("digest") is True:
                day, send_after = digest_due(now, config.digest)
                queue_in(
                    c,
                    f"digest:{account}:{day}",
                    "digest",
                    account,
                    None,
                    None,
                    None,
                    None,
                    send_after,
                    now,
                )
            queued += queue_in(c, key, kind, account, game_id, None, None, None, send_after, now)
    return queued


def recover(store: Store, config: MailConfig, now: float | None = None) -> int:
    """Queue the turn and end news of the last `RECOVER` seconds that a server killed
    between a move's commit and the queuing of its news left unqueued: a turn of an
    account's seat (no stand-in) with no turn row since the seat got the move, an end
    with no end row. Keys and settings as `Mail.news` would have queued them. Returns
    how many were queued."""
    now = time.time() if now is None else now
    with store.read() as c:
        found = c.execute(
            sa.select(
                games.c.id,
                games.c.status,
                games.c.seq,
                games.c.to_move,
                sa.func.coalesce(games.c.turn_since, games.c.updated).label("since"),
                seats.c.seat,
                seats.c.account_id,
                seats.c.stand_in_since,
            )
            .join(seats, seats.c.game_id == games.c.id)
            .where(
                games.c.updated > now - RECOVER,
                games.c.status.in_(("running", "finished")),
                seats.c.account_id.is_not(None),
            )
        ).all()
        news: dict[str, list[tuple[str, str, str]]] = {}
        for r in found:
            account = str(r.account_id)
            if r.status == "finished":
                news.setdefault(r.id, []).append(("end", account, f"end:{r.id}:{account}"))
                continue
            if r.seat != r.to_move or r.stand_in_since is not None:
                continue
            told = c.execute(
                sa.select(outbox.c.id).where(
                    outbox.c.game_id == r.id,
                    outbox.c.account_id == account,
                    outbox.c.kind == "turn",
                    outbox.c.created >= r.since - 1.0,
                )
            ).first()
            if told is None:
                news.setdefault(r.id, []).append(
                    ("turn", account, f"turn:{r.id}:{r.seq}:{account}")
                )
    return sum(queue_news(store, gid, found_news, config, now) for gid, found_news in news.items())


def claim(
    store: Store, me: str, now: float, seconds: float, limit: int = BATCH
) -> list[dict[str, Any]]:
    """Take up to `limit` rows that are due and nobody holds (or whose claim ran out),
    for `seconds`: they are this sender's until then."""
    with store.write() as c:
        rows = [
            dict(r)
            for r in c.execute(
                sa.select(outbox)
                .where(
                    outbox.c.sent.is_(None),
                    outbox.c.dropped.is_(None),
                    outbox.c.send_after <= now,
                    sa.or_(outbox.c.claimed_until.is_(None), outbox.c.claimed_until < now),
                )
                .order_by(outbox.c.send_after, outbox.c.id)
                .limit(limit)
                # Several processes' senders on PostgreSQL: a row another sender is
                # claiming in this instant is passed over, not claimed twice (SQLite's
                # one process has one sender, and its write transactions run one by one).
                .with_for_update(skip_locked=True)
            ).mappings()
        ]
        if rows:
            c.execute(
                outbox.update()
                .where(outbox.c.id.in_([r["id"] for r in rows]))
                .values(claimed=me, claimed_until=now + seconds)
            )
    return rows


def release_claims(store: Store, me: str) -> int:
    """Rows claimed by a sender before this one. On SQLite the database's lease says
    that sender's process is gone (killed, stopped), so its claims are taken back at
    once, and sent again if it had not marked them sent (docs/server.md, Mail: the
    window). On PostgreSQL other processes' senders may be at work: only claims that
    ran out, or whose sender ran on this host and is gone, are taken back (a live
    sender's are its own until they run out)."""
    query = outbox.update().where(
        outbox.c.sent.is_(None),
        outbox.c.claimed.is_not(None),
        outbox.c.claimed != me,
    )
    if store.shared:
        with store.read() as c:
            holders = c.execute(
                sa.select(outbox.c.claimed)
                .where(outbox.c.sent.is_(None), outbox.c.claimed.is_not(None))
                .distinct()
            ).scalars()
            gone = [h for h in holders if h != me and holder_gone(h)]
        query = query.where(
            sa.or_(outbox.c.claimed_until < time.time(), outbox.c.claimed.in_(gone))
        )
    with store.write() as c:
        done = c.execute(query.values(claimed=None, claimed_until=None))
        return int(done.rowcount or 0)


def prune(store: Store, before: float) -> int:
    """Delete the rows sent or given up that were queued before `before`, and the
    unsubscribe keys that ran out."""
    with store.write() as c:
        done = c.execute(
            outbox.delete().where(
                outbox.c.created < before,
                sa.or_(outbox.c.sent.is_not(None), outbox.c.dropped.is_not(None)),
            )
        )
        c.execute(
            tokens.delete().where(tokens.c.purpose == "unsubscribe", tokens.c.expires < time.time())
        )
        return int(done.rowcount or 0)


def mark(store: Store, done: Sequence[tuple[int, dict[str, Any]]]) -> None:
    """Write each row's outcome (`sent`, `dropped`, a new `send_after`...) and let go of
    its claim, in one transaction."""
    with store.write() as c:
        for row_id, values in done:
            c.execute(
                outbox.update()
                .where(outbox.c.id == row_id)
                .values(claimed=None, claimed_until=None, **values)
            )


@dataclass
class Context:
    """What the sender needs to decide on one account's rows."""

    account: dict[str, Any] | None
    last_sent: float | None
    games: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = field(default_factory=dict)
    # The account's other news not yet sent, for its digest (claimed with it).
    pending: list[dict[str, Any]] = field(default_factory=list)


def context(
    store: Store,
    account_id: str,
    game_ids: Sequence[str],
    me: str,
    now: float,
    seconds: float,
    digest: bool,
) -> Context:
    with store.write() as c:
        row = c.execute(sa.select(accounts).where(accounts.c.id == account_id)).mappings().first()
        last = c.execute(
            sa.select(sa.func.max(outbox.c.sent)).where(
                outbox.c.account_id == account_id, outbox.c.body.is_(None)
            )
        ).scalar()
        ctx = Context(account=dict(row) if row else None, last_sent=last)
        if digest:
            ctx.pending = [
                dict(r)
                for r in c.execute(
                    sa.select(outbox)
                    .where(
                        outbox.c.account_id == account_id,
                        outbox.c.kind.in_(tuple(FLAGS)),
                        outbox.c.body.is_(None),
                        outbox.c.sent.is_(None),
                        outbox.c.dropped.is_(None),
                        sa.or_(outbox.c.claimed_until.is_(None), outbox.c.claimed_until < now),
                    )
                    .order_by(outbox.c.id)
                ).mappings()
            ]
            if ctx.pending:
                c.execute(
                    outbox.update()
                    .where(outbox.c.id.in_([r["id"] for r in ctx.pending]))
                    .values(claimed=me, claimed_until=now + seconds)
                )
        wanted = set(game_ids) | {r["game_id"] for r in ctx.pending if r["game_id"]}
        for gid in sorted(wanted):
            g = c.execute(sa.select(games).where(games.c.id == gid)).mappings().first()
            if g is None:
                continue
            s = c.execute(
                sa.select(seats).where(seats.c.game_id == gid).order_by(seats.c.seat)
            ).mappings()
            ctx.games[gid] = (dict(g), [dict(x) for x in s])
    return ctx


def new_unsubscribe(store: Store, account_id: str, now: float) -> str:
    """A standing key for one mail's unsubscribe link (kept hashed, as every token), good
    for `UNSUBSCRIBE_DAYS` (`prune` deletes it after)."""
    token = secrets.token_urlsafe(24)
    with store.write() as c:
        c.execute(
            tokens.insert().values(
                hash=_hash(token),
                account_id=account_id,
                purpose="unsubscribe",
                email=None,
                created=now,
                expires=now + UNSUBSCRIBE_DAYS * 86400,
                used=None,
            )
        )
    return token


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def unsubscribe_account(
    store: Store, token: str, act: bool, now: float | None = None
) -> dict[str, Any] | None:
    """The account an unsubscribe key belongs to (None: no such key, or expired); with
    `act`, every notify flag and the digest of that account turned off."""
    now = time.time() if now is None else now
    if not 0 < len(token) <= 100:
        return None
    with store.write() as c:
        found = c.execute(
            sa.select(tokens.c.account_id).where(
                tokens.c.hash == _hash(token),
                tokens.c.purpose == "unsubscribe",
                sa.or_(tokens.c.expires.is_(None), tokens.c.expires >= now),
            )
        ).first()
        if found is None:
            return None
        row = c.execute(sa.select(accounts).where(accounts.c.id == found[0])).mappings().first()
        if row is None:
            return None
        account = dict(row)
        if act:
            settings = settings_of(account["settings"])
            given = settings.get("notify")
            notify: dict[str, Any] = given if isinstance(given, dict) else {}
            settings["notify"] = {k: False for k in {*FLAGS.values(), *notify}}
            settings["digest"] = False
            c.execute(
                accounts.update()
                .where(accounts.c.id == account["id"])
                .values(settings=json.dumps(settings, sort_keys=True))
            )
            c.execute(tokens.update().where(tokens.c.hash == _hash(token)).values(used=now))
            account["settings"] = json.dumps(settings, sort_keys=True)
        return account


# --- deciding and rendering ---------------------------------------------------------------


@dataclass
class Letter:
    """One mail to send, and the rows it answers for (the first names its Message-ID)."""

    to: str
    subject: str
    body: str
    ids: list[int]
    account_id: str | None = None
    unsubscribe: bool = True


@dataclass
class Decision:
    """What the rules at send time make of one account's claimed rows."""

    # Rows settled now without a mail of their own: dropped (why), or to wait longer.
    outcomes: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    # Rows whose news go out now, in one mail.
    send: list[dict[str, Any]] = field(default_factory=list)
    # The digest row this mail is (None: an ordinary mail).
    digest: dict[str, Any] | None = None
    # A digest to queue (its day and when it is due) for news that now wait for it.
    wait_for_digest: tuple[str, float] | None = None


def decide(rows: list[dict[str, Any]], ctx: Context, config: MailConfig, now: float) -> Decision:
    """The rules at send time, for one account's due rows (and, for its digest, the rest
    of its news not yet sent): which are dropped and why, which wait, and which go out
    now in one mail. Pure: the sender does the writing."""
    account = ctx.account
    claimed = sorted({r["id"]: r for r in rows + ctx.pending}.values(), key=lambda r: r["id"])
    if account is None:
        return Decision(outcomes=[(r["id"], {"dropped": "account"}) for r in claimed])
    if not account.get("email") or not account.get("email_verified"):
        return Decision(outcomes=[(r["id"], {"dropped": "unverified"}) for r in claimed])
    settings = settings_of(account["settings"])
    digest = next((r for r in claimed if r["kind"] == "digest"), None)
    if digest is None and settings.get("digest") is True:
        # The digest was asked for after these were queued: they wait for it.
        day, due = digest_due(now, config.digest)
        return Decision(
            outcomes=[(r["id"], {"send_after": due}) for r in claimed], wait_for_digest=(day, due)
        )
    decision = Decision(digest=digest)
    seen: set[tuple[str, str | None]] = set()
    for r in claimed:
        if r["kind"] == "digest":
            continue
        if now - r["send_after"] > STALE:
            decision.outcomes.append((r["id"], {"dropped": "stale"}))
            continue
        if not wants(settings, r["kind"]):
            decision.outcomes.append((r["id"], {"dropped": "off"}))
            continue
        game = ctx.games.get(r["game_id"] or "")
        if game is None:
            decision.outcomes.append((r["id"], {"dropped": "gone"}))
            continue
        grow, seat_rows = game
        if r["kind"] == "turn":
            mine = [s["seat"] for s in seat_rows if s.get("account_id") == account["id"]]
            if grow["status"] != "running" or grow["to_move"] not in mine:
                decision.outcomes.append((r["id"], {"dropped": "moved"}))
                continue
        if digest is None and r["kind"] != "invite":
            # Active after the news, or in the last spell: they know, or are at a table.
            active = float(account.get("active") or 0.0)
            if active >= r["created"] or now - active < config.delay:
                decision.outcomes.append((r["id"], {"dropped": "active"}))
                continue
        what = (r["kind"], r["game_id"])
        if what in seen:
            # The same news of one game twice (its turn came back to them): said once.
            decision.outcomes.append((r["id"], {"sent": now}))
            continue
        seen.add(what)
        decision.send.append(r)
    if digest is not None and not decision.send:
        decision.outcomes.append((digest["id"], {"dropped": "empty"}))
        decision.digest = None
    elif (
        digest is None
        and decision.send
        and ctx.last_sent is not None
        and now < ctx.last_sent + config.delay
    ):
        # At most one mail a spell: these wait, and then go out together.
        wait = ctx.last_sent + config.delay
        decision.outcomes.extend((r["id"], {"send_after": wait}) for r in decision.send)
        decision.send = []
    return decision


def game_names(seat_rows: list[dict[str, Any]]) -> list[str]:
    from tianxia.server.live import seat_names

    return seat_names(seat_rows)


def render(
    rows: list[dict[str, Any]],
    ctx: Context,
    config: MailConfig,
    unsubscribe: str,
    digest: bool,
) -> tuple[str, str]:
    """The subject and plain-text body of one mail in the account's language."""
    from tianxia.web.i18n import seat_label
    from tianxia.web.mails import Notice, compose

    assert ctx.account is not None
    lang = _language(ctx.account)
    notices = []
    for r in rows:
        grow, seat_rows = ctx.games[r["game_id"]]
        names = game_names(seat_rows)
        try:
            scores = json.loads(grow["scores"]) if grow.get("scores") else None
        except ValueError:
            scores = None
        result = None
        if r["kind"] == "end" and isinstance(scores, list) and len(scores) == len(names):
            result = list(zip(names, scores, strict=True))
        title = game_class(grow["game"]).TITLE
        notices.append(
            Notice(
                kind=r["kind"],
                game=r["game_id"],
                title=title,
                url=f"{config.site.rstrip('/')}/games/{r['game_id']}",
                # The others seated (an open seat is nobody yet), bots named in the
                # reader's language.
                opponents=[
                    seat_label(n, lang)
                    for n, s in zip(names, seat_rows, strict=True)
                    if s.get("account_id") != ctx.account["id"] and s.get("kind") != "open"
                ],
                result=result,
                policy=grow.get("clock_policy") or "bot",
            )
        )
    return compose(
        lang,
        str(ctx.account["name"]),
        notices,
        unsubscribe=unsubscribe_url(config, unsubscribe),
        settings=f"{config.site.rstrip('/')}/account",
        digest=digest,
    )


def unsubscribe_url(config: MailConfig, token: str) -> str:
    return f"{config.site.rstrip('/')}/mail/unsubscribe?token={quote(token)}"


def message(letter: Letter, config: MailConfig, unsubscribe: str | None) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = config.sender
    msg["To"] = letter.to
    msg["Subject"] = letter.subject
    msg["Date"] = formatdate(localtime=False, usegmt=True)
    # One per outbox row: a mail sent again after a crash is the same message, and a
    # mail program that sees it twice can tell.
    msg["Message-ID"] = f"<outbox-{letter.ids[0]}@{config.host}>"
    msg["Auto-Submitted"] = "auto-generated"
    if unsubscribe is not None:
        msg["List-Unsubscribe"] = f"<{unsubscribe}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg.set_content(letter.body)
    return msg


# --- the sender ---------------------------------------------------------------------------


class Mail:
    """The mail of one server: `news` queues, `run` sends."""

    def __init__(self, hub: Hub, config: MailConfig, holder: str) -> None:
        self.hub = hub
        self.config = config
        self.holder = holder
        # What each live game looked like when last told: (status, seq, seat to move).
        self._seen: weakref.WeakKeyDictionary[LiveGame, tuple[str, int, int]] = (
            weakref.WeakKeyDictionary()
        )
        self._wake = asyncio.Event()
        self.sent = 0

    # --- queuing ---------------------------------------------------------------------
    def news(self, live: LiveGame) -> None:
        """Called by a live game each time it broadcasts: queue what changed for the
        accounts in it. No account seat: nothing more than this look."""
        seat_rows = live.seats
        if not any(s.get("account_id") for s in seat_rows):
            return
        status = live.status
        t = live.table
        to_move = t.to_move() if status == "running" else -1
        if to_move in t.bots:
            to_move = -1  # a bot (or a stand-in) is to move: nobody to tell
        now = (status, t.seq, to_move)
        was = self._seen.get(live)
        if was is None:
            # First seen since it came into memory: as its row was when read.
            row = live.row
            stored = row.get("to_move")
            was = (
                str(row.get("status")),
                int(row.get("seq") or 0),
                stored if isinstance(stored, int) else -1,
            )
        self._seen[live] = now
        if now == was:
            return
        found: list[tuple[str, str, str]] = []
        people = sorted({str(s["account_id"]) for s in seat_rows if s.get("account_id")})
        if status == "running" and was[0] == "open":
            found.extend(("start", a, f"start:{live.id}:{a}") for a in people)
        if status == "finished" and was[0] != "finished":
            found.extend(("end", a, f"end:{live.id}:{a}") for a in people)
        if to_move >= 0 and (to_move != was[2] or was[0] != "running"):
            account = seat_rows[to_move].get("account_id")
            if account:
                found.append(("turn", str(account), f"turn:{live.id}:{t.seq}:{account}"))
        if found:
            self._spawn(self._queue(live.id, found))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.hub.background.add(task)
        task.add_done_callback(self.hub.background.discard)

    async def _queue(self, game_id: str, found: list[tuple[str, str, str]]) -> None:
        st = self.hub.storage
        try:
            if await st.run(queue_news, st.store, game_id, found, self.config):
                self._wake.set()
        except Exception:
            # The move is committed; its mail is not worth failing anything for.
            log.exception("game %s: its mail could not be queued", game_id)

    # --- sending ---------------------------------------------------------------------
    async def run(self) -> None:
        st = self.hub.storage
        try:
            released = await st.run(release_claims, st.store, self.holder)
            if released:
                log.warning("%d mails claimed by a server before this one are sent again", released)
        except Exception:
            log.exception("the claims of an earlier server could not be released")
        try:
            recovered = await st.run(recover, st.store, self.config)
            if recovered:
                log.warning("%d mails an earlier server left unqueued are queued", recovered)
        except Exception:
            log.exception("the news an earlier server left unqueued could not be queued")
        poll = min(POLL, max(0.05, self.config.delay / 4))
        pruned = 0.0
        while True:
            if time.monotonic() - pruned > PRUNE_EVERY:
                pruned = time.monotonic()
                try:
                    await st.run(prune, st.store, time.time() - KEEP)
                except Exception:
                    log.exception("old mail could not be deleted")
            try:
                busy = await self.round()
            except Exception:
                log.exception("the mail sender failed; it tries again")
                busy = False
            if busy:
                continue
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), poll)

    async def round(self) -> bool:
        """Claim what is due and send it; True if a whole batch was claimed (more may wait)."""
        st = self.hub.storage
        cfg = self.config
        now = time.time()
        rows = await st.run(claim, st.store, self.holder, now, cfg.claim)
        if not rows:
            return False
        by_account: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            if r["body"] is not None and r["address"]:
                await self._send_prepared(r)
            elif r["account_id"] is None:
                await st.run(mark, st.store, [(r["id"], {"dropped": "account"})])
            else:
                by_account.setdefault(str(r["account_id"]), []).append(r)
        for account_id, group in by_account.items():
            await self._send_account(account_id, group)
        return len(rows) >= BATCH

    async def _send_prepared(self, r: dict[str, Any]) -> None:
        letter = Letter(
            to=str(r["address"]),
            subject=str(r["subject"] or ""),
            body=str(r["body"]),
            ids=[r["id"]],
            unsubscribe=False,
        )
        await self._deliver(letter, [r], None)

    async def _send_account(self, account_id: str, group: list[dict[str, Any]]) -> None:
        st = self.hub.storage
        cfg = self.config
        now = time.time()
        ctx = await st.run(
            context,
            st.store,
            account_id,
            [r["game_id"] for r in group if r["game_id"]],
            self.holder,
            now,
            cfg.claim,
            any(r["kind"] == "digest" for r in group),
        )
        d = decide(group, ctx, cfg, now)
        if d.wait_for_digest is not None:
            day, due = d.wait_for_digest
            await st.run(
                queue,
                st.store,
                f"digest:{account_id}:{day}",
                "digest",
                account_id,
                send_after=due,
                now=now,
            )
        mailed = [*([d.digest] if d.digest is not None else []), *d.send]
        settled = {i for i, _ in d.outcomes} | {r["id"] for r in mailed}
        # Whatever was claimed and neither settled nor mailed is let go as it was.
        rest: list[tuple[int, dict[str, Any]]] = [
            (r["id"], {}) for r in group + ctx.pending if r["id"] not in settled
        ]
        if d.outcomes or rest:
            await st.run(mark, st.store, [*d.outcomes, *rest])
        if not d.send or ctx.account is None:
            return
        token = await st.run(new_unsubscribe, st.store, account_id, now)
        try:
            subject, body = render(d.send, ctx, cfg, token, d.digest is not None)
        except Exception as e:
            # A fault of ours (a title this release lacks...): logged, and these rows
            # given up rather than tried again for ever.
            log.exception("the mail to account %s could not be written", account_id)
            failed = {"dropped": "render", "error": str(e)[:500]}
            await st.run(mark, st.store, [(r["id"], failed) for r in mailed])
            return
        letter = Letter(
            to=formataddr((str(ctx.account["name"]), str(ctx.account["email"]))),
            subject=subject,
            body=body,
            ids=[r["id"] for r in mailed],
            account_id=account_id,
        )
        await self._deliver(letter, mailed, unsubscribe_url(cfg, token))

    async def _deliver(
        self, letter: Letter, rows: list[dict[str, Any]], unsubscribe: str | None
    ) -> None:
        import aiosmtplib

        st = self.hub.storage
        cfg = self.config
        s = cfg.smtp
        hooks = self.hub.hooks
        if hooks is not None:
            hooks.fault("mail_claimed")
        try:
            await aiosmtplib.send(
                message(letter, cfg, unsubscribe),
                hostname=s.hostname,
                port=s.port,
                username=s.username,
                password=s.password,
                use_tls=s.use_tls,
                start_tls=s.start_tls,
                timeout=cfg.timeout,
            )
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as e:
            now = time.time()
            outcomes: list[tuple[int, dict[str, Any]]] = []
            for r in rows:
                attempts = int(r["attempts"]) + 1
                values: dict[str, Any] = {"attempts": attempts, "error": str(e)[:500]}
                if attempts >= ATTEMPTS:
                    values["dropped"] = "failed"
                else:
                    wait = min(RETRY_MAX, cfg.delay / 4 * 2 ** (attempts - 1))
                    values["send_after"] = now + wait
                outcomes.append((r["id"], values))
            log.warning("a mail to %s was not sent (%s): tried again later", letter.to, e)
            await st.run(mark, st.store, outcomes)
            return
        if hooks is not None:
            hooks.fault("mail_sent")
        now = time.time()
        self.sent += 1
        await st.run(mark, st.store, [(r["id"], {"sent": now, "error": None}) for r in rows])


def mail_config(
    smtp: str | None, sender: str | None, site: str, delay: float = DELAY, digest: float = DIGEST
) -> MailConfig | None:
    """The mail configuration `tianxia serve` was given (None: no SMTP URL, no mail).

    Raises:
        MailConfigError: a URL that cannot be used, or an SMTP URL without a sender.
    """
    if not smtp:
        return None
    target = Smtp.parse(smtp)
    if not sender or "@" not in sender:
        raise MailConfigError("mail needs a sender address: --mail-from tianxia@example.org")
    if not urlsplit(site).scheme.startswith("http"):
        raise MailConfigError(f"the site's address is http(s)://host[:port], not {site!r}")
    return MailConfig(smtp=target, sender=sender, site=site, delay=delay, digest=digest)


# --- the routes -----------------------------------------------------------------------------


def router() -> APIRouter:
    """`GET /api/server` (whether this server sends mail) and the unsubscribe page."""
    r = APIRouter()

    @r.get("/api/server")
    async def server_info(request: Request) -> dict[str, Any]:
        """What this server offers that a page may ask about: `mail` (false: it sends no
        mail, whatever an account's settings say)."""
        return {"mail": mail_enabled(request)}

    @r.get("/mail/unsubscribe", include_in_schema=False)
    async def unsubscribe_page(request: Request, token: str = "") -> HTMLResponse:
        # A page with one button: mail scanners fetch links, and must not unsubscribe.
        from tianxia.web.mails import unsubscribe_page as page

        hub = request.app.state.hub
        st = hub.storage
        account = await st.run(unsubscribe_account, st.store, token, False)
        lang = _language(account)
        if account is None:
            return HTMLResponse(page(lang, "invalid", token=""), status_code=404)
        return HTMLResponse(page(lang, "ask", token=html.escape(token, quote=True)))

    @r.post("/mail/unsubscribe", include_in_schema=False)
    async def unsubscribe(request: Request, token: str = "") -> HTMLResponse:
        """RFC 8058: a mail program posts `List-Unsubscribe=One-Click` to the link itself;
        the page's button posts the token as a form field."""
        from tianxia.web.mails import unsubscribe_page as page

        if not token:
            # The form's one field, read without a form parser (the body is bounded by
            # `BodyLimit`).
            given = parse_qs((await request.body()).decode("utf-8", "replace")).get("token")
            token = given[0] if given else ""
        hub = request.app.state.hub
        st = hub.storage
        account = await st.run(unsubscribe_account, st.store, token, True)
        lang = _language(account)
        if account is None:
            return HTMLResponse(page(lang, "invalid", token=""), status_code=404)
        return HTMLResponse(page(lang, "done", token=""))

    return r


class TokenOnly:
    """`/mail/unsubscribe` is answered on its token's authority alone: the session cookie
    is taken off its requests before the session guard sees them, so the page's button
    works for a player signed in on that browser (a form cannot carry the CSRF header)
    and says nothing of any session."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == "/mail/unsubscribe":
            headers = [(k, v) for k, v in scope["headers"] if k.lower() != b"cookie"]
            scope = {**scope, "headers": headers}
        await self.app(scope, receive, send)


def _language(account: dict[str, Any] | None) -> str:
    if account is None:
        return "en"
    lang = settings_of(account["settings"]).get("language")
    return lang if lang in ("en", "nl", "de") else "en"


def mail_enabled(request: Request) -> bool:
    """Whether this server sends mail (`GET /api/me` and the settings page say so)."""
    return getattr(request.app.state, "mail", None) is not None
