"""The Tianxia terminal player: a textual app over the engine contract."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
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
        self.watch_terminal()

    async def action_quit(self) -> None:
        """Ctrl-Q: the game in progress is saved before Tianxia closes."""
        self.autosave()
        self.exit()

    def autosave(self) -> None:
        from tianxia.tui.screens import GameScreen

        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                screen.autosave()

    # --- no process outlives its terminal ------------------------------------------
    def watch_terminal(self) -> None:
        """Leave when the terminal goes away: on SIGHUP, and when the controlling terminal
        is gone without one (a killed tmux session under `make run` sends SIGHUP only to
        the shell, and reading the dead terminal would spin at full speed)."""
        if self.is_headless:
            return
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError, AttributeError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self.terminal_lost)
        if terminal_alive():
            self.set_interval(1.0, self.check_terminal)

    def check_terminal(self) -> None:
        if not terminal_alive():
            self.terminal_lost()

    def terminal_lost(self) -> None:
        """Keep the game in progress (autosave) and exit; never wait on the dead terminal."""
        self.autosave()
        # Shutting down writes to the terminal; if that blocks, leave anyway.
        stop = threading.Timer(3.0, os._exit, (129,))
        stop.daemon = True
        stop.start()
        self.exit(return_code=129)


def terminal_alive() -> bool:
    """Whether this process still has its controlling terminal."""
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return False
    os.close(fd)
    return True
