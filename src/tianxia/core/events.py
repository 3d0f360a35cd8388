"""Events: what each applied action or chance outcome tells each seat.

The rules decide visibility, never a face: a game's `State.event(action, after)` says
which seats read the whole sentence and what everyone else reads instead. `Match`
keeps one event per log entry; `Match.events_for(seat)` is a seat's view of the log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tianxia.core.constants import CHANCE, TERMINAL


def seat_name(seat: int | None) -> str:
    """The one name of a seat on every face and in every sentence: P1, P2, ...

    >>> seat_name(0), seat_name(None)
    ('P1', 'spectator')
    """
    if seat is None:
        return "spectator"
    if seat == CHANCE:
        return "chance"
    if seat == TERMINAL:
        return "end"
    return f"P{seat + 1}"


@dataclass(frozen=True, slots=True)
class Event:
    """The sentence one action or chance outcome tells the table.

    Args:
        text: the whole sentence, naming what was chosen or drawn.
        seen_by: the seats that read `text`; None when every viewer does.
        others: what the other viewers (spectators included) read instead; it must not
            tell anything `text` tells that they may not know.
        reveals: the action showed someone something hidden before (a card turned, a
            tile looked at), so it cannot be taken back.
    """

    text: str
    seen_by: frozenset[int] | None = None
    others: str = ""
    reveals: bool = False

    @classmethod
    def public(cls, text: str, reveals: bool = False) -> Event:
        return cls(text, None, "", reveals)

    @classmethod
    def private(cls, text: str, seen_by: frozenset[int] | set[int], others: str) -> Event:
        return cls(text, frozenset(seen_by), others, True)

    def visible_to(self, viewer: int | None) -> bool:
        """Whether `viewer` (None: a spectator) reads the whole sentence."""
        return self.seen_by is None or (viewer is not None and viewer in self.seen_by)

    def text_for(self, viewer: int | None) -> str:
        return self.text if self.visible_to(viewer) else self.others

    def to_json(
        self, seq: int, seat: int | None, action: str, viewer: int | None
    ) -> dict[str, Any]:
        """The event as `viewer` may read it: the action's notation only when visible."""
        shown = self.visible_to(viewer)
        return {
            "seq": seq,
            "seat": seat,
            "text": self.text if shown else self.others,
            "action": action if shown else None,
        }
