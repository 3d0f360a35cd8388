"""Board renderers: one module per game, each reading only an observation.

`render(game, obs, ctx)` picks `tianxia.tui.render.<game>` when it exists and falls back
to `generic`, which lays out any observation as tables. A renderer never sees a state,
so it cannot show what the seat may not see.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.console import RenderableType

from tianxia.core import Game, seat_name
from tianxia.tui.render import generic


@dataclass(frozen=True)
class Context:
    """What a renderer may know besides the observation: who looks, and the seats' names.

    Attributes:
        viewer: the seat whose observation this is (None: a spectator).
        players: the number of seats.
        names: display names per seat.
        highlight: notation of actions open now (renderers may mark their targets).
        layout: the game's printed, unchanging parts (`Game.layout()`): map, track, cards.
        over: the game has ended (nobody's turn is marked any more).
    """

    viewer: int | None
    players: int
    names: tuple[str, ...] = ()
    highlight: tuple[str, ...] = field(default_factory=tuple)
    layout: Mapping[str, Any] = field(default_factory=dict, compare=False)
    over: bool = False

    def name(self, seat: Any) -> str:
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.names):
            return self.names[seat]
        return str(seat)


Renderer = Callable[[Any, Context], RenderableType]
_CACHE: dict[str, Renderer] = {}


def renderer_for(game: str) -> Renderer:
    if game not in _CACHE:
        try:
            module = importlib.import_module(f"tianxia.tui.render.{game}")
        except ModuleNotFoundError as e:
            if e.name != f"tianxia.tui.render.{game}":
                raise
            _CACHE[game] = generic.render
        else:
            _CACHE[game] = module.render
    return _CACHE[game]


@functools.lru_cache(maxsize=8)
def _layout(game: Game) -> Mapping[str, Any]:
    """`game.layout()` is the same in every state: built once per game, not per draw."""
    return game.layout()


def context(
    game: Game, viewer: int | None, highlight: tuple[str, ...] = (), over: bool = False
) -> Context:
    """The context every face draws `game` with: seats named P1, P2..., the game's layout."""
    n = game.players
    return Context(
        viewer=viewer,
        players=n,
        names=tuple(seat_name(i) for i in range(n)),
        highlight=highlight,
        layout=_layout(game),
        over=over,
    )


def render(game: str, obs: Any, ctx: Context) -> RenderableType:
    """The board of `game` as `ctx.viewer` sees it in `obs`."""
    return renderer_for(game)(obs, ctx)


__all__ = ["Context", "Renderer", "context", "render", "renderer_for"]
