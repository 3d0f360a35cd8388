"""Actions are small frozen values; each game defines its own as dataclasses.

`str(action)` is the action's notation and `Game.parse_action_text` its inverse.
`ActionCodec` gives every action a stable integer id: player actions take
``0 .. num_distinct_actions-1``, chance outcomes follow them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar, dataclass_transform

from tianxia.core.errors import NotationError, shown

_T = TypeVar("_T")


class Action:
    """Base of every action and chance outcome. Subclasses are frozen dataclasses."""

    __slots__ = ()


@dataclass_transform(frozen_default=True)
def action(cls: type[_T]) -> type[_T]:
    """Class decorator: a frozen, slotted, ordered dataclass usable as an action."""
    return dataclasses.dataclass(frozen=True, slots=True, order=True)(cls)


class ActionCodec:
    """A fixed bijection between actions and integers, built once per game variant.

    Args:
        actions: every player action the variant can ever offer, in a fixed order.
        chance_outcomes: every chance outcome, in a fixed order.
    """

    def __init__(self, actions: Iterable[Action], chance_outcomes: Iterable[Action] = ()) -> None:
        self.actions: tuple[Action, ...] = tuple(actions)
        self.outcomes: tuple[Action, ...] = tuple(chance_outcomes)
        self._all = self.actions + self.outcomes
        self._ids: dict[Action, int] = {a: i for i, a in enumerate(self._all)}
        if len(self._ids) != len(self._all):
            raise ValueError("the codec lists an action twice")
        self._by_text: dict[str, Action] | None = None

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    @property
    def num_outcomes(self) -> int:
        return len(self.outcomes)

    def encode(self, a: Action) -> int:
        try:
            return self._ids[a]
        except KeyError:
            raise ValueError(f"{a!r} has no id in this game variant") from None

    def knows(self, a: object) -> bool:
        """Whether `a` is one of this variant's actions or outcomes (exact fields and types)."""
        try:
            i = self._ids.get(a)  # type: ignore[call-overload]
        except TypeError:  # a field holding something unhashable
            return False
        # Equal-comparing values of another type (1.0 for 1, True for 1) are not ours.
        return i is not None and repr(self._all[i]) == repr(a)

    def decode(self, i: object) -> Action:
        """The action of id `i`; a `NotationError` for anything but a whole number in range."""
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(self._all):
            raise NotationError(shown(i), f"no action has this id; ids run 0..{len(self._all) - 1}")
        return self._all[i]

    def parse(self, text: str) -> Action:
        """The action whose notation is `text` (surrounding blanks ignored)."""
        if self._by_text is None:
            self._by_text = {str(a): a for a in self._all}
        found = self._by_text.get(text.strip())
        if found is None:
            raise NotationError(text, "no action of this game is written that way")
        return found


def enumerate_product(make: Callable[..., Action], *axes: Sequence[Any]) -> list[Action]:
    """All actions `make(*combo)` over the cartesian product of `axes`, in row-major order."""
    import itertools

    return [make(*combo) for combo in itertools.product(*axes)]
