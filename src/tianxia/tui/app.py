"""The Tianxia terminal player: a textual app over the engine contract."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from textual.app import App

from tianxia.tui.screens import SetupScreen


@dataclass(frozen=True)
class Preset:
    """What the set-up screen shows first (from the command line or a test)."""

    game: str = "china"
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    seats: tuple[str, ...] = ()
    seed: int = 0


class TianxiaApp(App[None]):
    """Choose a game and seats, then play it against bots or hotseat.

    Args:
        game, players, options, seats, seed: the set-up screen's first values; seats are
            ``human`` or a bot strength (``random``, ``easy``, ``medium``, ``hard``).
        bot_delay: seconds a bot waits before moving, so people can follow the play.
    """

    CSS_PATH = "styles.tcss"
    TITLE = "Tianxia"

    def __init__(
        self,
        game: str = "china",
        players: int | None = None,
        options: dict[str, Any] | None = None,
        seats: Sequence[str] = (),
        seed: int = 0,
        bot_delay: float = 0.3,
    ) -> None:
        super().__init__()
        self.preset = Preset(game, players, dict(options or {}), tuple(seats), seed)
        self.bot_delay = bot_delay

    def on_mount(self) -> None:
        self.push_screen(SetupScreen())
