"""The lobby's pages, each computed once and shared by everyone who asks for it soon after.

A page of the lobby is one read of the database and one encoding of a few hundred
summaries; pollers ask for the same pages many times a second. Each page is kept, as the
bytes sent, for `seconds` after the read that made it began; requests that come while it
is being made wait for that one read rather than start their own. A change to what the
lists hold (a game created, a seat taken or given back, a resignation, a game finished,
open games expired) makes every kept page stale at once, so those show on the next
request; only a running game's seq, turn and scores may be up to `seconds` old.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable

# Seconds a page is shared (`tianxia serve --lobby-cache`), and what the kept pages
# may hold at most: bytes, and pages.
SECONDS = 1.0
MAX_BYTES = 8 * 1024 * 1024
MAX_PAGES = 1024


class LobbyPages:
    """The kept pages, least recently used first, within `MAX_BYTES` and `MAX_PAGES`."""

    def __init__(
        self, seconds: float = SECONDS, max_bytes: int = MAX_BYTES, max_pages: int = MAX_PAGES
    ) -> None:
        self.seconds = seconds
        self.max_bytes = max_bytes
        self.max_pages = max_pages
        # Bumped by every change to the lists: a page read before it is not served after.
        self.generation = 0
        self.pages: OrderedDict[Hashable, tuple[float, int, bytes]] = OrderedDict()
        self.bytes = 0
        self._making: dict[Hashable, tuple[int, asyncio.Task[bytes]]] = {}

    def changed(self) -> None:
        """The lists changed: no page kept or being made before now is served after."""
        self.generation += 1
        self.pages.clear()
        self.bytes = 0

    def kept(self, key: Hashable) -> bytes | None:
        """The page `key` if it is kept and fresh."""
        kept = self.pages.get(key)
        if kept is not None:
            began, generation, body = kept
            if generation == self.generation and time.monotonic() - began < self.seconds:
                self.pages.move_to_end(key)
                return body
        return None

    async def page(self, key: Hashable, make: Callable[[], Awaitable[bytes]]) -> bytes:
        """The page `key`: as kept, as being made, or made now by `make`."""
        body = self.kept(key)
        if body is not None:
            return body
        making = self._making.get(key)
        if making is None or making[0] != self.generation:
            # Its own task: a request that goes away does not take the read with it from
            # the others waiting for it.
            task = asyncio.create_task(self._make(key, make, self.generation))
            task.add_done_callback(_retrieved)
            making = self._making[key] = (self.generation, task)
        return await asyncio.shield(making[1])

    async def _make(
        self, key: Hashable, make: Callable[[], Awaitable[bytes]], generation: int
    ) -> bytes:
        began = time.monotonic()
        try:
            body = await make()
        finally:
            if self._making.get(key, (None, None))[0] == generation:
                del self._making[key]
        if self.seconds > 0 and generation == self.generation and len(body) <= self.max_bytes:
            self._keep(key, (began, generation, body))
        return body

    def _keep(self, key: Hashable, entry: tuple[float, int, bytes]) -> None:
        old = self.pages.pop(key, None)
        if old is not None:
            self.bytes -= len(old[2])
        self.pages[key] = entry
        self.bytes += len(entry[2])
        while self.bytes > self.max_bytes or len(self.pages) > self.max_pages:
            _, (_, _, body) = self.pages.popitem(last=False)
            self.bytes -= len(body)


def _retrieved(task: asyncio.Task[bytes]) -> None:
    # Its waiters were told of a failure; with none left (all went away) it is not
    # a fault to log as "never retrieved".
    if not task.cancelled():
        task.exception()
