"""Bot thinking, shared fairly: bots that answer a person before bots playing bots, and
all of it in processes of its own, below the server's priority.

Each game has at most one bot thinking at a time (`LiveGame._bots` asks for its moves
one after another), so taking jobs in the order they came, within a priority, gives the
games of one priority turns in rotation: no game gets a second move thought about before
every other waiting game has had one. Of the workers, `reserved` take only the jobs of
games where a person waits: a person's bot never waits behind a long think of a game of
bots alone, only behind other persons' bots.

A search holds the interpreter's lock for as long as it thinks, so a bot thinking on a
thread of the server made every request wait behind it. Each worker thread hands its
job to a process of its own instead (the bot and the state go over a pipe, the move and
the bot after it come back), started on first use and niced by `NICENESS`: the server's
own process answers people first, whatever the bots are doing.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from tianxia.core import State

_T = TypeVar("_T")

log = logging.getLogger(__name__)

# Priorities: a person waits for the move, or only bots do.
PERSON = 0
BOTS_ONLY = 1

# How much lower than the server the bots' processes run (`nice`): under Linux's
# scheduler a process 10 below gets about a tenth of a core it has to share.
NICENESS = 10


class ThinkerLost(RuntimeError):
    """The process thinking for a bot ended before it answered (killed, out of memory)."""


class Thinker:
    """One process that runs the jobs of one worker thread, one at a time.

    A fresh interpreter (`python -m tianxia.server.bots`), not a fork: the server has
    threads (storage, readers) that a forked child would inherit mid-lock, and
    multiprocessing's own ways of starting a process run the server's main script again
    in the child (a script that starts a server at its top level would start another).
    The jobs go over a socket pair, pickled (`multiprocessing.connection`)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._process: subprocess.Popen[bytes] | None = None
        self._conn: Connection | None = None
        # The server's closing stops a thinker while its thread may be waiting on it.
        self._lock = threading.Lock()
        self._closed = False

    @property
    def pid(self) -> int | None:
        process = self._process
        return None if process is None else process.pid

    def ready(self) -> Connection:
        """The connection to a running process: started now if it is not (or no more)."""
        with self._lock:
            if self._closed:
                raise ThinkerLost("the bots have stopped")
            if self._conn is None or self._process is None or self._process.poll() is not None:
                self._stop()
                self._start()
            assert self._conn is not None
            return self._conn

    def call(self, fn: Callable[..., _T], *args: Any) -> _T:
        conn = self.ready()
        try:
            conn.send((fn, args))
            ok, value = conn.recv()
        except (EOFError, OSError) as e:
            self.stop()
            raise ThinkerLost(f"the bot's process ended while thinking ({e!r})") from e
        if not ok:
            raise value
        result: _T = value
        return result

    def _start(self) -> None:
        ours, theirs = socket.socketpair()
        with theirs:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "tianxia.server.bots", str(theirs.fileno()), self.name],
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
            )
        self._conn = Connection(ours.detach())

    def stop(self, for_good: bool = False) -> None:
        with self._lock:
            self._closed = self._closed or for_good
            self._stop()

    def _stop(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        process, self._process = self._process, None
        if process is not None:
            process.terminate()
            try:
                process.wait(2)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def think(bot: Any, state: State) -> tuple[Any, str, Any]:
    """A bot's move in `state`, its explanation, and the bot after it (in a thinking
    process, a copy of the one sent, its random stream moved on)."""
    from tianxia.play.table import explanation_of

    return bot.act(state), explanation_of(bot), bot


def _serve(conn: Connection) -> None:
    """A thinking process's life: jobs in, answers out, until the server is gone."""
    # A system that refuses it still thinks, at the server's priority.
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):  # the server is gone: so is its thinker
            return
        try:
            answer: tuple[bool, Any] = (True, fn(*args))
        except Exception as e:
            answer = (False, e)
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return
        except Exception as e:  # an answer or an error that does not pickle
            conn.send((False, RuntimeError(f"the bot's answer could not be sent: {e!r}")))


class BotScheduler:
    """`workers` threads taking bot jobs by priority; with `processes`, each runs its
    jobs in a `Thinker` process, otherwise on the thread itself."""

    def __init__(self, workers: int = 2, reserved: int = 1, processes: bool = True) -> None:
        self._jobs: list[
            tuple[int, int, tuple[Callable[..., Any], tuple[Any, ...]], asyncio.Future[Any]]
        ] = []
        self._order = itertools.count()
        self._ready = threading.Condition()
        self._closed = False
        self._thinkers = [
            Thinker(f"tianxia-bot-{i}") if processes else None for i in range(workers)
        ]
        self._threads = [
            threading.Thread(
                target=self._work,
                args=(i < reserved, self._thinkers[i]),
                name=f"tianxia-bot-{i}",
                daemon=True,
            )
            for i in range(workers)
        ]
        for t in self._threads:
            t.start()

    @property
    def waiting(self) -> int:
        return len(self._jobs)

    @property
    def thinkers(self) -> list[Thinker]:
        return [t for t in self._thinkers if t is not None]

    async def run(self, priority: int, fn: Callable[..., _T], *args: Any) -> _T:
        """`fn(*args)` by a worker, after the jobs of a higher priority (lower number) and
        those of the same priority that came before. With processes, `fn`, `args` and
        the result go over a pipe: they must pickle, and `fn` works on copies."""
        fut: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        with self._ready:
            if self._closed:
                raise RuntimeError("the bots have stopped")
            heapq.heappush(self._jobs, (priority, next(self._order), (fn, args), fut))
            self._ready.notify_all()
        return await fut

    def _work(self, persons_only: bool, thinker: Thinker | None) -> None:
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
            fn, args = job
            try:
                result = fn(*args) if thinker is None else thinker.call(fn, *args)
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
        # A thinker in the middle of a long search is stopped, not waited for.
        for thinker in self._thinkers:
            if thinker is not None:
                thinker.stop(for_good=True)


def _done(fut: asyncio.Future[Any], result: Any) -> None:
    if not fut.done():
        fut.set_result(result)


def _fail(fut: asyncio.Future[Any], e: BaseException) -> None:
    if not fut.done():
        fut.set_exception(e)


if __name__ == "__main__":
    # `python -m tianxia.server.bots FD NAME`: a thinking process (`Thinker`).
    _serve(Connection(int(sys.argv[1])))
