"""The bots' processes (tianxia.server.bots): a bot thinks outside the server's process,
below its priority, so a long search never holds a person's request; a process lost
mid-think is reported to the game and replaced."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from tianxia.server.bots import BOTS_ONLY, NICENESS, PERSON, BotScheduler, ThinkerLost


def test_a_bot_thinks_in_a_process_of_its_own_below_the_server_s_priority() -> None:
    async def run() -> tuple[set[int], int, int, set[int | None]]:
        bots = BotScheduler(workers=2, reserved=1)
        try:
            persons = {await bots.run(PERSON, os.getpid) for _ in range(10)}
            only_bots = await bots.run(BOTS_ONLY, os.getpid)
            niceness = await bots.run(PERSON, os.nice, 0)
            return persons, only_bots, niceness, {t.pid for t in bots.thinkers}
        finally:
            bots.close()

    persons, only_bots, niceness, thinkers = asyncio.run(run())
    # On a thread of the server (before), every pid here was the server's own.
    assert os.getpid() not in persons | {only_bots}
    # One process a worker, kept between moves: nothing is started per move.
    assert persons | {only_bots} <= thinkers and len(thinkers) == 2
    assert niceness >= os.nice(0) + NICENESS or niceness == 19


def test_a_bot_s_error_comes_back_to_the_game_and_the_process_goes_on() -> None:
    async def run() -> int:
        bots = BotScheduler(workers=2, reserved=1)
        try:
            with pytest.raises(ValueError, match="invalid literal"):
                await bots.run(PERSON, int, "not a number")
            return await bots.run(PERSON, int, "7")
        finally:
            bots.close()

    assert asyncio.run(run()) == 7


def test_a_thinker_killed_mid_think_is_reported_and_replaced() -> None:
    async def run() -> tuple[int, int]:
        bots = BotScheduler(workers=2, reserved=1)
        try:
            # Bots alone are thought about by the worker not kept for persons only.
            thinker = bots.thinkers[1]
            assert thinker.pid is None  # started by the first job, not before
            first = await bots.run(BOTS_ONLY, os.getpid)
            assert first == thinker.pid
            long_think = asyncio.ensure_future(bots.run(BOTS_ONLY, time.sleep, 60))
            await asyncio.sleep(0.5)
            os.kill(first, signal.SIGKILL)
            with pytest.raises(ThinkerLost):
                await asyncio.wait_for(long_think, 30)
            # The next move is thought about by a new process.
            return first, await bots.run(BOTS_ONLY, os.getpid)
        finally:
            bots.close()

    first, second = asyncio.run(run())
    assert second != first


def test_closing_stops_a_long_think_at_once() -> None:
    async def run() -> tuple[float, int]:
        bots = BotScheduler(workers=2, reserved=1)
        pid = await bots.run(BOTS_ONLY, os.getpid)
        long_think = asyncio.ensure_future(bots.run(BOTS_ONLY, time.sleep, 60))
        await asyncio.sleep(0.3)
        started = time.monotonic()
        bots.close()
        took = time.monotonic() - started
        # The game waiting for it hears of it (and the server is closing anyway).
        with pytest.raises(ThinkerLost):
            await asyncio.wait_for(long_think, 10)
        return took, pid

    took, pid = asyncio.run(run())
    assert took < 10
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_on_threads_when_asked_for_no_processes() -> None:
    async def run() -> int:
        bots = BotScheduler(workers=2, reserved=1, processes=False)
        try:
            return await bots.run(PERSON, os.getpid)
        finally:
            bots.close()

    assert asyncio.run(run()) == os.getpid()
