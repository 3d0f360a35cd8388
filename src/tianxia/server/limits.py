"""What one client may make the server spend, and the middleware that holds a request
body to its bound.

Every bound is an option of `tianxia serve` (docs/server.md lists them with their
defaults); `Limits()` holds the defaults.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send


@dataclass(frozen=True)
class Limits:
    # Bytes of one HTTP request body: the largest request of the lobby is a few hundred.
    max_body: int = 64 * 1024


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
