"""What one client may make the server spend, and the middleware that holds a request
body to its bound.

Every bound is an option of `tianxia serve` (docs/server.md lists them with their
defaults); `Limits()` holds the defaults.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
import time
from collections import deque
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from fastapi.openapi.docs import get_swagger_ui_html
from starlette.exceptions import HTTPException
from starlette.responses import HTMLResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send


@dataclass(frozen=True)
class Limits:
    # Bytes of one HTTP request body: the largest request of the lobby is a few hundred.
    max_body: int = 64 * 1024
    # Per client address, in units of game cost (`game_cost`; 0: no limit): created in
    # any 60 seconds, and held at once by games not yet finished.
    games_per_minute: int = 60
    open_games: int = 200
    # Idle games kept in memory (the others are loaded from their log when asked for).
    games_in_memory: int = 256
    # Seconds after which an open game nobody has joined (or left) is deleted; 0: never.
    open_game_expiry: float = 7 * 24 * 3600.0
    # Seconds a page of the lobby is shared by everyone who asks for it (`LobbyPages`).
    lobby_cache: float = 1.0
    # Origins (scheme://host[:port]) whose pages may open a websocket besides the
    # server's own host.
    origins: tuple[str, ...] = ()
    # Websockets one client address may hold open at once (0: no limit).
    connections_per_address: int = 64
    # Processes thinking for bots, one of them kept for games where a person waits
    # (`tianxia.server.bots`); 0: two threads of the server's own process instead.
    bot_processes: int = 2
    # Seconds: the smallest clock a game may have (below it a stand-in would play before
    # a person could answer).
    min_clock: float = 60.0
    # Seconds between sweeps for running games whose bots or clock nobody drives (on
    # PostgreSQL, where several processes serve: `tianxia.server.leases`).
    lease_sweep: float = 2.0


def origin_allowed(headers: Mapping[str, str], allowed: Sequence[str]) -> bool:
    """A websocket's Origin is the served host itself or one of `allowed`; a client
    that sends none (a bot, a terminal) is not a browser page and may connect."""
    origin = headers.get("origin")
    if origin is None:
        return True
    if origin in allowed:
        return True
    host = headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower() != ""


# The pages run scripts and styles from /static only: their data comes in JSON data
# blocks, their boards' looks in classes, so an injected script or style (a name, a chat
# line that slipped through escaping) does nothing. Pictures may be `data:` URLs; the
# websocket goes to the same host (`'self'` covers ws: only in newer browsers).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; object-src 'none'; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'self'"
)

# On every HTTP response (one that sets its own policy keeps it: the API's /docs).
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"x-content-type-options", b"nosniff"),
    # A seat's link carries its secret: no other site learns it from a Referer.
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
]


def api_docs_page(openapi_url: str, title: str) -> HTMLResponse:
    """FastAPI's page of the API (Swagger UI) under a policy of its own: Swagger UI comes
    from its CDN and is started by one inline script, allowed by its hash alone (no
    other inline script runs); its widgets set style attributes, allowed on this page
    only."""
    page = get_swagger_ui_html(openapi_url=openapi_url, title=title)
    body = bytes(page.body).decode()
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"
        for script in re.findall(r"<script>(.*?)</script>", body, re.S)
    )
    policy = (
        f"default-src 'self'; script-src {SWAGGER_CDN} {hashes}; "
        f"style-src {SWAGGER_CDN} 'unsafe-inline'; img-src 'self' data: {FASTAPI_ICON}; "
        "connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; "
        "form-action 'self'"
    )
    return HTMLResponse(body, headers={"content-security-policy": policy})


SWAGGER_CDN = "https://cdn.jsdelivr.net"
FASTAPI_ICON = "https://fastapi.tiangolo.com"


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in have]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


def game_cost(plans: Sequence[tuple[str, str | None]]) -> int:
    """What a game costs against its creator's quotas: 1, plus 1 per bot seat (bots
    are what the server spends its thinking on), doubled when no person can sit at it
    (a game of bots alone plays to its end with nobody watching)."""
    bots = sum(1 for kind, _ in plans if kind == "bot")
    cost = 1 + bots
    return cost * 2 if bots == len(plans) else cost


def creator_key(address: str) -> str:
    """The key a client address is counted under: hashed, so the database keeps no
    address as it is."""
    return "ip:" + hashlib.sha256(address.encode()).hexdigest()[:32]


WINDOW = 60.0


class Window:
    """What each key spent in the last `WINDOW` seconds. Memory holds only keys that
    spent within the window: the stale ones are swept as new ones come."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.spent: dict[str, deque[tuple[float, int]]] = {}
        self._swept = 0.0

    def take(self, key: str, cost: int, now: float | None = None) -> float | None:
        """Spend `cost` for `key`; or, over the limit, spend nothing and return the
        seconds until enough of the window has passed (for Retry-After)."""
        now = time.monotonic() if now is None else now
        wait = self.wait(key, cost, now)
        if wait is None and self.limit:
            self.spent.setdefault(key, deque()).append((now, cost))
        return wait

    def wait(self, key: str, cost: int = 1, now: float | None = None) -> float | None:
        """The seconds until `key` may spend `cost` (for Retry-After), or None if it may
        now; spends nothing."""
        if not self.limit:
            return None
        now = time.monotonic() if now is None else now
        if now - self._swept > WINDOW:
            self._sweep(now)
        spent = self.spent.get(key)
        if not spent:
            return None if cost <= self.limit else WINDOW
        while spent and spent[0][0] <= now - WINDOW:
            spent.popleft()
        total = sum(c for _, c in spent)
        if total + cost <= self.limit:
            return None
        # The oldest spends leave the window one by one: wait for enough of them.
        need = total + cost - self.limit
        freed = 0
        for t, c in spent:
            freed += c
            if freed >= need:
                return max(1.0, t + WINDOW - now)
        return WINDOW  # `cost` alone is over the limit: never within one window

    def give_back(self, key: str, cost: int) -> None:
        """Undo the last `take` of `key` (the game was not created after all)."""
        spent = self.spent.get(key)
        if spent and spent[-1][1] == cost:
            spent.pop()

    def _sweep(self, now: float) -> None:
        self._swept = now
        for key in [k for k, v in self.spent.items() if not v or v[-1][0] <= now - WINDOW]:
            del self.spent[key]


def per_minute_sentence(limit: int, wait: float, cost: int | None = None) -> str:
    """Why a creation over the quota of the minute is refused, in one sentence."""
    this = f"this one costs {cost}; " if cost is not None else "a game costs 1, "
    return (
        f"this address has created games worth {limit} in the last minute ({this}a bot "
        f"seat costs 1 more, a game of bots alone twice): try again in {math.ceil(wait)} s"
    )


class QuickAnswers:
    """Answers that need none of the framework, given before it: a creation from an
    address whose quota of the minute is spent (whatever it would cost), and a page of
    the lobby that is kept (`LobbyPages`), as the routes would give them.

    A flood of such requests (one client polls the lobby and creates games as fast as
    it is answered) cost about a millisecond of the server's CPU each through routing,
    validation and the dependency's worker thread, on the event loop a person's moves
    share; here a few tens of microseconds. Anything else, or anything these cannot
    read exactly as the route would, goes on to the framework."""

    def __init__(
        self,
        app: ASGIApp,
        per_minute: Window,
        key_of: Callable[[str], str],
        lobby_key: Callable[[bytes], Hashable | None],
    ) -> None:
        self.app = app
        self.per_minute = per_minute
        self.key_of = key_of
        self.lobby_key = lobby_key

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/api/games":
            method = scope["method"]
            if method == "POST":
                client = scope.get("client")
                wait = self.per_minute.wait(self.key_of(client[0] if client else ""))
                if wait is not None:
                    body = json.dumps(
                        {"detail": per_minute_sentence(self.per_minute.limit, wait)}
                    ).encode()
                    await _answer(send, 429, body, [(b"retry-after", b"%d" % math.ceil(wait))])
                    return
            elif method == "GET":
                key = self.lobby_key(scope["query_string"])
                hub = getattr(scope["app"].state, "hub", None) if "app" in scope else None
                kept = hub.lobby.kept(key) if hub is not None and key is not None else None
                if kept is not None:
                    await _answer(send, 200, kept, [])
                    return
        await self.app(scope, receive, send)


async def _answer(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-length", b"%d" % len(body)),
                (b"content-type", b"application/json"),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """Holds a request body to `limit` bytes: one that declares more (Content-Length)
    is answered 413 with a sentence before anything of it is read; one sent without a
    length is cut off at the limit with the same answer (raised from `receive`, so the
    app's own error handling answers it)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope["headers"]:
            if key == b"content-length" and _over(value, self.limit):
                await _refuse(send, self.limit)
                return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise HTTPException(413, _sentence(self.limit))
            return message

        await self.app(scope, counted, send)


def _sentence(limit: int) -> str:
    return f"a request body holds at most {limit} bytes"


def _over(value: bytes, limit: int) -> bool:
    try:
        return int(value) > limit
    except ValueError:
        return True


async def _refuse(send: Send, limit: int) -> None:
    body = json.dumps({"detail": _sentence(limit)}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
