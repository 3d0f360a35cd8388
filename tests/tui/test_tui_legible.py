"""The table is legible at 80x24 and at 160x50: maps and the Silk Road's track are drawn
for the width at hand (never wrapped), the seats stay in view, China's fields carry
their numbers and a legend, the end shows no raw values and no turn marker, and the
Silk Road reads in English with its merchants' start spaces by letter."""

from __future__ import annotations

import asyncio
import functools
import io
import random
import re
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text

import tianxia
from tianxia.core import Match, State
from tianxia.play.table import SeatPlan, Table
from tianxia.tui import TianxiaApp
from tianxia.tui.render import Context, china, context, emperor, mandarin, render, silkroad
from tianxia.tui.render.common import scale
from tianxia.tui.screens import GameScreen, MessageScreen, ReplayScreen, final_scores
from tianxia.tui.screenshots import SIZES, middle_position, screen_text

GAMES = ["china", "greatwall", "emperor", "mandarin", "silkroad"]


def sync(fn: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async test under plain pytest (no asyncio plugin is installed)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(fn(*args, **kwargs))

    return wrapper


def drawn(name: str, state: State, ctx: Context, width: int) -> list[str]:
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(render(name, state.observation(ctx.viewer), ctx))
    return [line.rstrip() for line in console.export_text().splitlines()]


def finished(name: str, seed: int = 3) -> Match:
    match = Match(tianxia.load_game(name), seed=seed)
    rng = random.Random(seed)
    while True:
        match.resolve_chance()
        if match.state.is_terminal():
            return match
        match.play(rng.choice(match.state.legal_actions()))


async def board_width(name: str, size: tuple[int, int]) -> tuple[list[str], int]:
    """The screen at `size` with the middle position of `name`, and the board's width."""
    match = middle_position(name)
    seats = [SeatPlan("human")] + [SeatPlan("bot", "random")] * (match.game.players - 1)
    app = TianxiaApp(game=name, bot_delay=3600)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await app.push_screen(GameScreen(Table(match, seats, bot_seed=7), bot_delay=3600))
        # The breakpoints' classes follow a resize event: let the layout settle.
        for _ in range(3):
            await pilot.pause()
        lines = screen_text(app).splitlines()
        width = app.screen.query_one("#board").content_region.width
        app.workers.cancel_all()
    return lines, width


def track_rows(lines: list[str]) -> list[list[str]]:
    """The track's rows of field marks (`[A]`, `·`, numbers), top to bottom."""
    rows = []
    for line in lines:
        tokens = line.split()
        if tokens and all(re.fullmatch(r"·|\d+|\[[ABC]\]", t) for t in tokens):
            rows.append([t for t in tokens if not t.startswith("[")])
    return rows


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_the_silk_road_track_snakes_in_whole_rows_at_both_sizes(
    size: tuple[int, int],
) -> None:
    lines, width = await board_width("silkroad", size)
    match = middle_position("silkroad")
    ctx = context(match.game, 0)
    rows = track_rows(drawn("silkroad", match.state, ctx, width))
    n = silkroad.per_row(width)
    assert len(rows) == -(-80 // n), "one printed row per row of the track"
    for r, row in enumerate(rows):
        assert len(row) == min(n, 80 - r * n)
        for k, mark in enumerate(row):
            field = r * n + (k + 1 if r % 2 == 0 else len(row) - k)
            # Every number stands where the snake puts that field.
            assert mark == "·" or int(mark) == field, (r, k, mark, field)
    # The first row of the track is on the screen as drawn, start spaces first.
    first = next(line for line in lines if "[A] [B] [C]" in line)
    assert first.split("[C]")[1].split()[: len(rows[0])] == rows[0]


@pytest.mark.parametrize("name", ["china", "emperor", "mandarin", "silkroad"])
@pytest.mark.parametrize("size", SIZES)
@sync
async def test_maps_are_drawn_for_the_boards_width_not_wrapped(
    name: str, size: tuple[int, int]
) -> None:
    _, pane = await board_width(name, size)
    widest = {"china": china.WIDTH, "emperor": emperor.WIDTH, "mandarin": mandarin.WIDTH}
    width = min(pane, widest.get(name, pane))
    match = middle_position(name)
    ctx = context(match.game, 0)
    obs = match.state.observation(0)
    board = {
        "china": lambda: china.board_map(obs, ctx, width),
        "emperor": lambda: emperor.board_map(obs, ctx, width),
        "mandarin": lambda: mandarin.ring(obs, ctx, width),
        "silkroad": lambda: silkroad.track(obs, ctx, width),
    }[name]()
    assert isinstance(board, Text)
    drawing = [line.rstrip() for line in board.plain.splitlines() if line.strip()]
    assert max(len(line) for line in drawing) <= width
    shown = drawn(name, match.state, ctx, pane)
    # Each line of the drawing is a whole line of the board: nothing wrapped into two.
    for line in drawing:
        assert line in shown, f"{line!r} is not drawn whole at {width} columns"


@pytest.mark.parametrize("name", ["china", "silkroad"])
@pytest.mark.parametrize("size", SIZES)
@sync
async def test_the_seats_with_points_or_silver_are_in_view(
    name: str, size: tuple[int, int]
) -> None:
    lines, _ = await board_width(name, size)
    obs = middle_position(name).state.observation(0)
    key, values = ("silver", obs["silver"]) if name == "silkroad" else ("points", obs["scores"])
    assert any(key in line for line in lines)
    for seat, value in enumerate(values):
        row = [line for line in lines if f"P{seat + 1} " in line and f" {value} " in line]
        assert row, f"P{seat + 1}'s {key} ({value}) is not on the {size} screen"


def test_china_labels_every_free_field_with_its_number_and_has_a_legend() -> None:
    game = tianxia.load_game("china")
    match = Match(game, seed=1)
    match.resolve_chance()
    ctx = context(game, 0)
    obs = match.state.observation(0)
    width = china.WIDTH
    rows = china.board_map(obs, ctx, width).plain.splitlines()
    layout = game.layout()
    labels = set()
    for p, (dx, dy) in enumerate(layout["dragons"]):
        x, y = scale(dx, width), scale(dy, china.HEIGHT)
        name = obs["provinces"][p]["name"]
        labels |= {(x - len(name) // 2 + i, y) for i in range(len(name))}
    for f in layout["fields"]:
        x, y = scale(f["xy"][0], width), scale(f["xy"][1], china.HEIGHT)
        if (x, y) not in labels:
            assert rows[y][x] == f["name"].split(".")[1], f"{f['name']} is not labelled"
    text = "\n".join(drawn("china", match.state, ctx, 160))
    assert "the 3 by Qin is Qin.3" in text and "a fortification" in text


@pytest.mark.parametrize("name", GAMES)
def test_the_end_shows_no_turn_marker_and_no_raw_values(name: str) -> None:
    match = finished(name)
    ctx = context(match.game, None, over=True)
    assert "◀ turn" not in "\n".join(drawn(name, match.state, ctx, 160))
    console = Console(width=100, record=True, file=io.StringIO(), color_system=None)
    console.print(final_scores(match.state, ctx))
    for line in console.export_text().splitlines():
        bare = line.strip()
        # A value outside the table stands after its name; nothing is a bare value.
        assert not re.fullmatch(r"[\w.,\- ]+", bare) or ":" in bare or bare == "Final scores"


@sync
async def test_the_game_over_dialog_names_every_value() -> None:
    match = finished("mandarin")
    app = TianxiaApp(game="mandarin", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.push_screen(GameScreen(Table(match, [SeatPlan("human")] * 2)))
        await pilot.pause()
        assert isinstance(app.screen, MessageScreen)
        text = screen_text(app)
        assert "winners: P" in text and "how it ended: " in text and "all money" in text
        assert "◀ turn" not in text


def test_the_silk_road_names_its_cities_in_english_and_start_spaces_by_letter() -> None:
    game = tianxia.load_game("silkroad")
    match = Match(game, seed=2)
    rng = random.Random(1)
    while not any((m["field"] or 0) < 0 for m in match.state.observation(None)["merchants"]):
        match.resolve_chance()
        match.play(rng.choice(match.state.legal_actions()))
    ctx = context(game, None)
    text = "\n".join(drawn("silkroad", match.state, ctx, 160))
    for english in ("Samarkand", "Bukhara", "Baghdad", "Byzantium", "Venice"):
        assert english in text
    for german in ("Buchara", "Bagdad", "Byzanz", "Venedig"):
        assert german not in text
    assert silkroad.where(-2) == "start A" and silkroad.where(0) == "start C"
    assert silkroad.where(17) == "@17" and silkroad.where(None) == "not placed yet"
    assert "@-" not in text


def test_a_seat_table_where_narrow_reads_one_line_per_seat_coloured_by_its_name() -> None:
    from rich.table import Table as Grid

    from tianxia.tui.render.common import NARROW, Stacked

    t = Grid(title="Seats")
    t.add_column("seat")
    t.add_column("silver")
    t.add_row(Text("P1", style="bold red"), "24")
    console = Console(width=NARROW - 1, file=io.StringIO())
    heading, line = list(Stacked(t).__rich_console__(console, console.options))
    assert isinstance(heading, Text) and heading.plain == "Seats"
    assert isinstance(line, Text) and line.plain == "P1  silver 24"
    assert not line.style and [(s.start, s.end) for s in line.spans if s.style == "bold red"] == [
        (0, 2)
    ]
    wide = Console(width=NARROW, file=io.StringIO())
    assert list(Stacked(t).__rich_console__(wide, wide.options)) == [t]


@sync
async def test_home_and_end_step_a_replay_whose_board_scrolls() -> None:
    match = finished("china")
    app = TianxiaApp(game="china", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = ReplayScreen(match)
        await app.push_screen(screen)
        await pilot.pause()
        await pilot.click("#board-pane")
        await pilot.press("end")
        assert screen.step == len(match.log)
        assert "Final scores" in screen_text(app)
        await pilot.press("home")
        assert screen.step == 0


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("size", SIZES)
@sync
async def test_every_table_shows_the_board_the_decision_and_the_keys(
    name: str, size: tuple[int, int]
) -> None:
    lines, width = await board_width(name, size)
    screen = "\n".join(lines)
    # The board keeps most of a small terminal: the side pane narrows below 110 columns.
    assert width >= (48 if size[0] == 80 else 100)
    assert "P1 to decide" in screen.replace("\n", " ")
    # The first legal action is listed (a long one wraps in the narrow pane).
    first = str(middle_position(name).state.legal_actions()[0])
    assert " ".join(first.split()[:2]) in screen
    assert "Undo" in lines[-1] and "Help" in lines[-1] and "Rules" in lines[-1]
