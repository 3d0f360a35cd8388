"""Screenshots (SVG) of each game's board in the terminal player, for `docs/screenshots/`.

    python -m tianxia.tui.screenshots docs/screenshots [game ...]

Each game is played at random from a fixed seed to a middle position where P1, a person,
is to decide; the table is then saved at each terminal size of `SIZES` as
`<game>-<columns>x<rows>.svg`.
"""

from __future__ import annotations

import asyncio
import io
import random
import sys
from pathlib import Path

from rich.console import Console

import tianxia
from tianxia.core import Match
from tianxia.play.table import SeatPlan, Table
from tianxia.tui.app import TianxiaApp
from tianxia.tui.screens import GameScreen, playable_games

# The smallest terminal the player is made for, and a large one.
SIZES = ((80, 24), (160, 50))


def middle_position(name: str, seed: int = 7, fraction: float = 0.4) -> Match:
    """A match played at random until `fraction` of a typical game, seat 0 then to move."""
    game = tianxia.load_game(name)
    rng = random.Random(seed)
    trial = Match(game, seed=seed)
    while not trial.state.is_terminal():
        trial.resolve_chance()
        if not trial.state.is_terminal():
            trial.play(rng.choice(trial.state.legal_actions()))
    target = int(len(trial.log) * fraction)
    match = Match(game, seed=seed)
    rng = random.Random(seed)
    while not match.state.is_terminal():
        match.resolve_chance()
        if match.state.is_terminal():
            break
        if len(match.log) >= target and match.state.current_player() == 0:
            break
        match.play(rng.choice(match.state.legal_actions()))
    return match


def screen_text(app: TianxiaApp) -> str:
    """What the app's screen shows now, as plain text, one line per terminal row."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        record=True,
        color_system=None,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text()


async def shoot(name: str, folder: Path, size: tuple[int, int], seed: int = 7) -> Path:
    match = middle_position(name, seed)
    seats = [SeatPlan("human")] + [SeatPlan("bot", "random")] * (match.game.players - 1)
    table = Table(match, seats, bot_seed=seed)
    app = TianxiaApp(game=name, bot_delay=3600)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await app.push_screen(GameScreen(table, bot_delay=3600))
        await pilot.pause()
        path = folder / f"{name}-{size[0]}x{size[1]}.svg"
        app.save_screenshot(filename=path.name, path=str(folder))
        # The bot (if any) waits an hour before it moves; end its wait with the app.
        app.workers.cancel_all()
    return path


def main(argv: list[str]) -> None:
    folder = Path(argv[0] if argv else "docs/screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    for name in argv[1:] or playable_games():
        for size in SIZES:
            print(asyncio.run(shoot(name, folder, size)))


if __name__ == "__main__":
    main(sys.argv[1:])
