"""Positions built directly, for tests and examples: every merchant placed, a turn pending."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tianxia.games.silkroad.game import SilkroadGame
from tianxia.games.silkroad.state import TURN, SilkroadState


def position(
    game: SilkroadGame,
    pos: Sequence[int],
    hands: Sequence[Sequence[int]] | None = None,
    displays: Sequence[Sequence[int]] | None = None,
    discard: Sequence[int] = (),
    turn: int | None = None,
    **fields: Any,
) -> SilkroadState:
    """A state at the start of a turn with merchants on `pos` and the given cards.

    The draw pile holds every movement card not in a hand, before a player or in
    `discard` (a list of card kinds); unused bazaar cards stay in the pile. `turn`
    defaults to the first turn of the second round; any other field may be overridden.
    """
    n = game.players
    if len(pos) != game.merchants:
        raise ValueError(f"{game.merchants} merchants need a field each, got {len(pos)}")
    hands_t = tuple(tuple(sorted(h)) for h in (hands or [()] * n))
    displays_t = tuple(tuple(sorted(d)) for d in (displays or [()] * n))
    deck = [c.copies for c in game.data.cards]
    discard_counts = [0] * len(deck)
    for k in discard:
        discard_counts[k] += 1
    for group in (*hands_t, *displays_t, discard):
        for k in group:
            deck[k] -= 1
    if min(deck) < 0:
        raise ValueError("more copies of a card are placed than the deck has")
    base = game.new_initial_state().replace(
        pos=tuple(pos),
        hands=hands_t,
        displays=displays_t,
        deck=tuple(deck),
        discard=tuple(discard_counts),
        deck_bazaars=game.spare_bazaars,
        phase=TURN,
        turn=n if turn is None else turn,
    )
    return base.replace(**fields) if fields else base


def card(game: SilkroadGame, key: str) -> int:
    """The card kind with this key in `data/cards.toml`."""
    for c in game.data.cards:
        if c.key == key:
            return c.index
    raise KeyError(key)
