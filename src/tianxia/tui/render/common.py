"""Drawing helpers shared by the board renderers: seat colours and a character canvas."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from rich.console import Console, ConsoleOptions, RenderableType
from rich.measure import Measurement
from rich.style import Style
from rich.table import Table
from rich.text import Text

# Below this many columns a table of seats reads better as one paragraph per seat.
NARROW = 64

SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold yellow", "bold magenta", "bold cyan")
SEAT_BG = ("red", "blue", "green", "yellow", "magenta", "cyan")

# The games name their colours in words; these are the terminal colours drawn for them.
COLOURS = {
    "violet": "medium_purple",
    "purple": "medium_purple",
    "yellow": "yellow",
    "orange": "dark_orange",
    "red": "red",
    "green": "green",
    "blue": "dodger_blue1",
    "white": "white",
    "black": "grey50",
    "brown": "tan",
    "grey": "grey62",
    "gray": "grey62",
}


def seat_style(seat: int) -> str:
    """The colour of seat `seat` everywhere on screen (chance and others in magenta)."""
    return SEAT_STYLES[seat % len(SEAT_STYLES)] if seat >= 0 else "magenta"


def seat_chip(seat: int) -> Text:
    """A seat's piece on a board: its number, white on its colour."""
    if seat < 0:
        return Text("?", style="bold white on grey30")
    bg = SEAT_BG[seat % len(SEAT_BG)]
    # White on the light colours cannot be read; black can.
    ink = "black" if bg in ("green", "yellow", "cyan") else "white"
    return Text(str(seat + 1), style=f"bold {ink} on {bg}")


def plural(n: int, noun: str) -> str:
    """`1 card`, `3 cards`."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def colour(name: str) -> str:
    return COLOURS.get(str(name).lower(), "white")


class Canvas:
    """A grid of styled characters onto which a board is drawn by coordinates."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles: list[list[Style | str]] = [[""] * width for _ in range(height)]

    def put(self, x: int, y: int, ch: str, style: Style | str = "") -> None:
        if 0 <= x < self.width and 0 <= y < self.height:
            self.chars[y][x] = ch
            self.styles[y][x] = style

    def blank(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height and self.chars[y][x] == " "

    def write(self, x: int, y: int, text: str | Text, style: Style | str = "") -> None:
        """Text from column `x` of row `y`; clipped at the edges."""
        if isinstance(text, Text):
            for i, ch in enumerate(text.plain):
                spans = [s.style for s in text.spans if s.start <= i < s.end]
                self.put(x + i, y, ch, spans[-1] if spans else text.style)
            return
        for i, ch in enumerate(text):
            self.put(x + i, y, ch, style)

    def write_centred(self, x: int, y: int, text: str, style: Style | str = "") -> None:
        self.write(x - len(text) // 2, y, text, style)

    def line(
        self, x0: int, y0: int, x1: int, y1: int, ch: str = "·", style: Style | str = "dim"
    ) -> None:
        """A straight line between two cells, drawn only on blank cells (Bresenham)."""
        dx, dy = abs(x1 - x0), -abs(y1 - y0)
        sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
        err = dx + dy
        x, y = x0, y0
        while True:
            if (x, y) not in ((x0, y0), (x1, y1)) and self.blank(x, y):
                self.put(x, y, ch, style)
            if x == x1 and y == y1:
                return
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x += sx
            if e2 <= dx:
                err += dx
                y += sy

    def to_text(self) -> Text:
        out = Text()
        for y in range(self.height):
            row = self.chars[y]
            last = len(row)
            while last > 0 and row[last - 1] == " ":
                last -= 1
            x = 0
            while x < last:
                # One span per run of equal style keeps the segments few, so redraws are cheap.
                style = self.styles[y][x]
                end = x + 1
                while end < last and self.styles[y][end] == style:
                    end += 1
                out.append("".join(row[x:end]), style or None)
                x = end
            if y < self.height - 1:
                out.append("\n")
        return out


def scale(value: float, size: int, span: float = 100.0) -> int:
    """A coordinate in 0..span mapped to a cell in 0..size-1."""
    return max(0, min(size - 1, round(value * (size - 1) / span)))


class Fitted:
    """A drawing made for the width it is given, never wrapped.

    Rich wraps a long line of a board at the pane's edge, which scrambles a map drawn by
    coordinates; this draws the board anew for the width at hand instead.
    """

    def __init__(self, draw: Callable[[int], Text], widest: int) -> None:
        self.draw = draw
        self.widest = widest

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        text = self.draw(min(options.max_width, self.widest))
        text.no_wrap = True
        text.overflow = "crop"
        yield text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, min(options.max_width, self.widest))


class Stacked:
    """A table drawn as a table where there is room, else one paragraph per row: the
    first cell, then each other cell after its column's heading (`silver 24`)."""

    def __init__(self, table: Table, narrow: int = NARROW) -> None:
        self.table = table
        self.narrow = narrow

    def __rich_console__(
        self, console: Console, options: ConsoleOptions
    ) -> Iterator[RenderableType]:
        if options.max_width >= self.narrow:
            yield self.table
            return
        if self.table.title:
            yield Text(str(self.table.title), style="bold")
        columns = [list(c.cells) for c in self.table.columns]
        headers = [as_text(c.header) for c in self.table.columns]
        for row in range(self.table.row_count):
            # Appended, not copied: the seat's colour stays on its name alone.
            line = Text()
            line.append_text(as_text(columns[0][row]))
            for header, cells in zip(headers[1:], columns[1:], strict=True):
                value = as_text(cells[row])
                if not value.plain.strip():
                    continue
                line.append("  ")
                line.append(header.plain, style="dim")
                line.append(" ")
                line.append_text(value)
            yield line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, options.max_width)


def as_text(cell: object) -> Text:
    """A table cell as text (cells hold text or plain strings)."""
    if isinstance(cell, Text):
        return cell
    return Text(str(cell))
