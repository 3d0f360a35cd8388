"""A session ended by another server process (a sign-out, a new password, a deleted
account: its row gone from the shared database) stops being honoured here within
`SESSION_RECHECK` seconds, although this process keeps sessions in memory."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from tianxia.server import accounts as A


class _Storage:
    store = None

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, Any]] = {}
        self.reads = 0

    async def read(self, fn: Any, store: Any, h: str, now: float) -> dict[str, Any] | None:
        assert fn is A.session_row
        self.reads += 1
        return self.rows.get(h)


class _Hub:
    def __init__(self) -> None:
        self.storage = _Storage()


def test_a_session_ended_elsewhere_ends_here_within_the_recheck(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hub: Any = _Hub()
    accounts = A.Accounts()
    cookie = "c" * 43
    row = {"account_id": "a1", "name": "Ada", "csrf": "t", "expires": time.time() + 3600}
    hub.storage.rows[A._sha(cookie)] = row
    clock = [1000.0]
    monkeypatch.setattr(A.time, "monotonic", lambda: clock[0])

    async def ask() -> A.Session | None:
        return await accounts.session(hub, cookie)

    first = asyncio.run(ask())
    assert first is not None and first.account_id == "a1"
    assert asyncio.run(ask()) is not None and hub.storage.reads == 1, "served from memory"
    del hub.storage.rows[A._sha(cookie)]  # another process signed it out
    clock[0] += A.SESSION_RECHECK / 2
    assert asyncio.run(ask()) is not None, "believed for a moment"
    clock[0] += A.SESSION_RECHECK
    assert asyncio.run(ask()) is None, "still honoured after the recheck"
