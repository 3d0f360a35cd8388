"""Bot thinking, shared fairly: bots that answer a person before bots playing bots.

Each game has at most one bot thinking at a time (`LiveGame._bots` asks for its moves
one after another), so taking jobs in the order they came, within a priority, gives the
games of one priority turns in rotation: no game gets a second move thought about before
every other waiting game has had one. Of the worker threads, `reserved` take only the
jobs of games where a person waits: a person's bot never waits behind a long think of a
game of bots alone, only behind other persons' bots.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

_T = TypeVar("_T")

# Priorities: a person waits for the move, or only bots do.
PERSON = 0
BOTS_ONLY = 1


class BotScheduler:
    def __init__(self, workers: int = 2, reserved: int = 1) -> None:
        self._jobs: list[tuple[int, int, Callable[[], Any], asyncio.Future[Any]]] = []
        self._order = itertools.count()
        self._ready = threading.Condition()
        self._closed = False
        self._threads = [
            threading.Thread(
                target=self._work, args=(i < reserved,), name=f"tianxia-bot-{i}", daemon=True
            )
            for i in range(workers)
        ]
        for t in self._threads:
            t.start()

    @property
    def waiting(self) -> int:
        return len(self._jobs)

    async def run(self, priority: int, fn: Callable[..., _T], *args: Any) -> _T:
        """`fn(*args)` on a worker thread, after the jobs of a higher priority (lower
        number) and those of the same priority that came before."""
        fut: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        with self._ready:
            if self._closed:
                raise RuntimeError("the bots have stopped")
            heapq.heappush(self._jobs, (priority, next(self._order), lambda: fn(*args), fut))
            self._ready.notify_all()
        return await fut

    def _work(self, persons_only: bool) -> None:
        while True:
            with self._ready:
                while not self._closed and not (
                    self._jobs and (not persons_only or self._jobs[0][0] == PERSON)
                ):
                    self._ready.wait()
                if self._closed:
                    return
                _, _, job, fut = heapq.heappop(self._jobs)
            loop = fut.get_loop()
            if fut.cancelled():
                continue
            try:
                result = job()
            except BaseException as e:  # handed to the waiting coroutine, which logs it
                loop.call_soon_threadsafe(_fail, fut, e)
            else:
                loop.call_soon_threadsafe(_done, fut, result)

    def close(self) -> None:
        with self._ready:
            self._closed = True
            jobs, self._jobs = self._jobs, []
            self._ready.notify_all()
        for *_, fut in jobs:
            fut.get_loop().call_soon_threadsafe(fut.cancel)


def _done(fut: asyncio.Future[Any], result: Any) -> None:
    if not fut.done():
        fut.set_result(result)


def _fail(fut: asyncio.Future[Any], e: BaseException) -> None:
    if not fut.done():
        fut.set_exception(e)
