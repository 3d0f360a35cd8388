"""Each game's board as an inline SVG, drawn on the server from what one viewer may see.

A renderer gets the viewer's envelope (its observation and nothing else), the game's
static `layout()` and the notation of the actions open to the viewer now. It returns
the SVG and the actions it placed on the board as things to click; the page lists the
rest. No rule lives here: which actions exist, and why, comes from the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Protocol

from tianxia.core import Game


def _same(text: str) -> str:
    return text


@dataclass(frozen=True)
class BoardInput:
    """What a renderer may read: nothing of the state beyond the viewer's envelope."""

    game: Game
    layout: Mapping[str, Any]
    view: Mapping[str, Any]  # the envelope: seat, to_move, terminal, scores, body
    legal: Sequence[str]  # notation, in the engine's order
    gettext: Callable[[str], str] = _same
    # The one display name of every seat (index = seat): boards name seats by it.
    names: Sequence[str] = ()
    # (seat, notation) of the moves other seats (None: chance) made since the viewer's
    # own last one, as far as the viewer may know them: a board rings what they changed
    # with the class `recent`.
    recent: Sequence[tuple[int | None, str]] = ()

    @property
    def body(self) -> Mapping[str, Any]:
        """The game's own observation for this viewer."""
        body: Mapping[str, Any] = self.view["body"]
        return body

    @property
    def seat(self) -> int | None:
        seat: int | None = self.view["seat"]
        return seat

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """A count's sentence in the viewer's language: `singular` where n is 1 in
        English ("1 unit", "3 units"); `make i18n` extracts both forms."""
        from tianxia.web.i18n import ngettext_of

        return ngettext_of(self.gettext)(singular, plural, n)

    def name(self, seat: int) -> str:
        """A seat's display name, "P1".. where none is known."""
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return f"P{seat + 1}"


@dataclass
class Board:
    svg: str
    placed: set[str] = field(default_factory=set)  # legal actions with a place on the board


class Renderer(Protocol):
    def __call__(self, board: BoardInput) -> Board: ...


def render(
    game: Game,
    view: Mapping[str, Any],
    legal: Sequence[str],
    gettext: Callable[[str], str] = _same,
    names: Sequence[str] = (),
    recent: Sequence[tuple[int | None, str]] = (),
) -> Board:
    """The board of `game` as the viewer of `view` sees it, with `legal` placed on it."""
    try:
        module = import_module(f"tianxia.web.boards.{game.NAME}")
    except ModuleNotFoundError as e:
        if e.name != f"tianxia.web.boards.{game.NAME}":
            raise
        # A game without a drawing of its own yet: its moves are all in the list.
        module = import_module("tianxia.web.boards.generic")
    renderer: Renderer = module.render
    board = renderer(BoardInput(game, game.layout(), view, legal, gettext, names, recent))
    unknown = board.placed - set(legal)
    if unknown:
        raise AssertionError(f"{game.NAME} board placed actions that are not legal: {unknown}")
    return board
