"""A building section of the wall: its cards, its fame tiles, and the totals they give.

A card is one integer, ``owner * 8 + kind``. A section is a row of places, each a stack
of cards: a dragon laid on a card goes on top of that card's stack, and only the top card
of a stack counts (GW-3.5).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tianxia.games.greatwall.data import NOBLE, WARRIOR


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
    # Caches: computed from the fields above on first use, never saved or compared.
    _totals: list[int] | None = field(default=None, init=False, compare=False, repr=False)
    _present: int = field(default=-1, init=False, compare=False, repr=False)

    def totals(self, players: int, values: tuple[int, ...]) -> list[int]:
        """Each seat's points here: top cards only, the noble and warriors applied, the
        first tile's value taken from the seat whose card it lies on (GW-3, GW-3.6)."""
        if self._totals is not None:
            return self._totals
        t = [0] * players
        tops = [st[-1] for st in self.stacks]
        if any(c & 7 == NOBLE for c in tops):
            for c in tops:
                t[c >> 3] += 1
        else:
            warriors = [0] * players
            step = values[WARRIOR]
            for c in tops:
                owner, kind = c >> 3, c & 7
                if kind == WARRIOR:
                    warriors[owner] += 1
                    t[owner] += warriors[owner] * step
                else:
                    t[owner] += values[kind]
        if self.placed is not None:
            value, pos = self.placed
            t[self.stacks[pos][-1] >> 3] -= value
        object.__setattr__(self, "_totals", t)
        return t

    def present(self) -> int:
        """Bit mask of the seats with at least one card here, covered cards included."""
        if self._present < 0:
            mask = 0
            for st in self.stacks:
                for c in st:
                    mask |= 1 << (c >> 3)
            object.__setattr__(self, "_present", mask)
        return self._present

    def qualifies(self, seat: int, players: int, values: tuple[int, ...]) -> bool:
        """Whether `seat` wins a tile here at the start of its turn (GW-4.1, GW-4.4, GW-4.6).

        Every other seat is compared, those without a card here at 0 (ruling R12): with
        three or more players, a lead of 0 or less over the seats present is no lead.
        """
        if not self.open or not self.tiles:
            return False
        present = self.present()
        me = 1 << seat
        if not present & me:
            return False
        if not present & ~me:
            return True
        t = self.totals(players, values)
        mine = t[seat]
        return all(mine > v for q, v in enumerate(t) if q != seat)
