"""A building section of the wall: its cards, its fame tiles, and the totals they give.

A card is one integer, ``owner * 8 + kind``. A section is a row of places, each a stack
of cards: a dragon laid on a card goes on top of that card's stack, and only the top card
of a stack counts (GW-3.5).
"""

from __future__ import annotations

from dataclasses import dataclass, field


def card(owner: int, kind: int) -> int:
    return owner * 8 + kind


@dataclass(frozen=True, slots=True)
class Section:
    """One section, immutable once built; totals are computed once and cached.

    Attributes:
        stacks: the places from left to right; each a tuple of cards, the last on top.
        tiles: the face-up fame tiles not yet claimed, in the order they were revealed.
        placed: ``(value, position)`` of the first tile, lying on a card, or None.
        open: False once the section has closed for lack of tiles (GW-4.3).
    """

    stacks: tuple[tuple[int, ...], ...] = ()
    tiles: tuple[int, ...] = ()
    placed: tuple[int, int] | None = None
    open: bool = True
    # Caches: computed from the fields above on first use, never saved or compared
    # (by `rules.section_totals` and `rules.section_present`, which run compiled).
    _totals: list[int] | None = field(default=None, init=False, compare=False, repr=False)
    _present: int = field(default=-1, init=False, compare=False, repr=False)
