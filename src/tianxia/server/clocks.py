"""Time banks: what a seat has left, what a move costs and adds, when time runs out.

A game's clock (docs/server.md, Clocks) gives each seat a bank of `initial` seconds;
while the seat decides, its bank runs; each turn it ends by its own move adds
`increment` (Fischer). Past the bank, the seat's vacation runs (`vacation` seconds per
seat for the whole game, spent like the bank but never given back); past both, the
game's policy applies: a stand-in bot (`bot`), the turn skipped (`skip`), or the seat
resigned (`lose`).

The banks are arithmetic on the stored values (`seats.bank`, `seats.vacation_left` as
of `games.turn_since`), so a restart continues each bank where it stood; the live game
(`tianxia.server.live`) runs the clock and applies the policy, and a timeout's mail is
queued here for the mail sender.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from tianxia.server.protocol import STAND_IN_PREFIX
from tianxia.server.storage import Store, outbox

# `tianxia serve --min-clock`: below it, a stand-in plays before anyone could reply.
MIN_CLOCK = 60.0
# The largest increment and vacation a game may ask for (POST /api/games).
MAX_INCREMENT = 7 * 24 * 3600.0
MAX_VACATION_DAYS = 30
DAY = 24 * 3600.0


def stand_in_id(seq: int) -> str:
    """The client id a stand-in's move at `seq` is written with: unique per seat."""
    return f"{STAND_IN_PREFIX}{seq}"


def is_stand_in(client_id: str | None) -> bool:
    return client_id is not None and client_id.startswith(STAND_IN_PREFIX)


@dataclass(frozen=True)
class Clock:
    """A game's clock as it was created: seconds, and the policy past the bank."""

    initial: float
    increment: float
    policy: str
    vacation: float

    @classmethod
    def of(cls, row: dict[str, Any]) -> Clock | None:
        """The clock of a game's row; None for a game without one. A row written before
        banks existed has none of the new columns: its per-move clock is a bank that
        each move fills by as much, with a stand-in past it (as migration 0007 says)."""
        if not row.get("clock"):
            return None
        initial = float(row["clock"])
        increment = row.get("increment")
        return cls(
            initial=initial,
            increment=initial if increment is None else float(increment),
            policy=row.get("clock_policy") or "bot",
            vacation=float(row.get("vacation") or 0.0),
        )

    def bank_of(self, seat: dict[str, Any]) -> float:
        bank = seat.get("bank")
        return self.initial if bank is None else float(bank)

    def vacation_of(self, seat: dict[str, Any]) -> float:
        left = seat.get("vacation_left")
        return self.vacation if left is None else float(left)

    def public(self) -> dict[str, Any]:
        """The clock's shape, as the lobby's summaries carry it."""
        return {"initial": self.initial, "increment": self.increment, "policy": self.policy}


def spend(bank: float, vacation: float, elapsed: float) -> tuple[float, float]:
    """Bank and vacation left after `elapsed` seconds of a seat's decision: the bank
    first, then the vacation; neither below zero.

    >>> spend(60.0, 100.0, 70.0)
    (0.0, 90.0)
    """
    elapsed = max(0.0, elapsed)
    if elapsed <= bank:
        return bank - elapsed, vacation
    return 0.0, max(0.0, vacation - (elapsed - bank))


def left(bank: float, vacation: float) -> float:
    """Seconds until a seat with this bank and vacation runs out."""
    return max(0.0, bank) + max(0.0, vacation)


def queue_timeout_mail(
    store: Store, game_id: str, seq: int, seat: int, account_id: str, now: float | None = None
) -> bool:
    """Queue the mail that tells an account its seat ran out of time (kind `timeout`,
    rendered and sent by the mail sender). The key makes it once per game, seq and seat:
    a second call for the same news queues nothing. Returns whether a row was queued."""
    now = time.time() if now is None else now
    key = f"timeout:{game_id}:{seq}:{seat}"
    with store.write() as c:
        found = c.execute(sa.select(outbox.c.id).where(outbox.c.key == key)).first()
        if found is not None:
            return False
        c.execute(
            outbox.insert().values(
                key=key,
                account_id=account_id,
                kind="timeout",
                game_id=game_id,
                created=now,
                send_after=now,
                attempts=0,
            )
        )
    return True
