"""The fallback renderer: any observation laid out as tables, for games without their own.

Scalars go into one key/value grid, lists of records become tables, mappings of records
become tables keyed by their names, and anything deeper nests the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from tianxia.tui.render import Context

# Keys whose whole-number values name a seat, so they are shown by the seat's name.
SEAT_KEYS = frozenset(
    {"seat", "to_move", "current", "current_player", "owner", "player", "leader", "winner"}
)
_MAX_DEPTH = 4


def is_scalar(v: Any) -> bool:
    return v is None or isinstance(v, str | int | float | bool)


def scalar_text(key: str, v: Any, ctx: Context) -> Text:
    if v is None:
        return Text("-", style="dim")
    if isinstance(v, bool):
        return Text("yes" if v else "no", style="green" if v else "red")
    if key in SEAT_KEYS and isinstance(v, int):
        if v == -1:
            return Text("chance", style="magenta")
        if v == -4:
            return Text("game over", style="bold")
        return Text(ctx.name(v), style="bold cyan")
    if isinstance(v, float):
        return Text(f"{v:g}")
    return Text(str(v))


def inline(key: str, v: Any, ctx: Context) -> Text:
    """A short value on one line: scalars and flat lists of scalars."""
    if is_scalar(v):
        return scalar_text(key, v, ctx)
    if isinstance(v, list | tuple) and all(is_scalar(x) for x in v):
        if not v:
            return Text("(none)", style="dim")
        return Text(", ").join(scalar_text(key, x, ctx) for x in v)
    return Text(str(v))


def is_inline(v: Any) -> bool:
    return is_scalar(v) or (isinstance(v, list | tuple) and all(is_scalar(x) for x in v))


def records_table(title: str, rows: list[tuple[str, dict[str, Any]]], ctx: Context) -> Table:
    columns: list[str] = []
    for _, r in rows:
        columns.extend(k for k in r if k not in columns)
    t = Table(title=title, box=box.SIMPLE_HEAVY, title_justify="left", title_style="bold")
    t.add_column("", style="bold")
    for c in columns:
        t.add_column(c)
    for label, r in rows:
        cells: list[RenderableType] = [Text(label)]
        for c in columns:
            v = r.get(c)
            cells.append(inline(c, v, ctx) if is_inline(v) else block(c, v, ctx, _MAX_DEPTH - 1))
        t.add_row(*cells)
    return t


def block(key: str, v: Any, ctx: Context, depth: int = 0) -> RenderableType:
    """One value as a renderable, titled `key`."""
    if is_inline(v):
        return inline(key, v, ctx)
    if depth >= _MAX_DEPTH:
        return Text(str(v))
    if isinstance(v, list | tuple):
        if all(isinstance(x, dict) for x in v):
            per_seat = len(v) == ctx.players
            rows = [(ctx.name(i) if per_seat else str(i), dict(x)) for i, x in enumerate(v)]
            return records_table(key, rows, ctx)
        if len(v) == ctx.players:
            grid = Table.grid(padding=(0, 2))
            for i, x in enumerate(v):
                grid.add_row(Text(ctx.name(i), style="bold"), block(key, x, ctx, depth + 1))
            return Panel(grid, title=key, title_align="left", box=box.ROUNDED)
        return Panel(
            Group(*(block(key, x, ctx, depth + 1) for x in v)),
            title=key,
            title_align="left",
            box=box.ROUNDED,
        )
    if isinstance(v, dict):
        if v and all(isinstance(x, dict) for x in v.values()):
            return records_table(key, [(str(k), dict(x)) for k, x in v.items()], ctx)
        return mapping(key, v, ctx, depth + 1)
    return Text(str(v))


def mapping(title: str, obs: dict[str, Any], ctx: Context, depth: int = 0) -> RenderableType:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    nested: list[RenderableType] = []
    for k, v in obs.items():
        if is_inline(v):
            grid.add_row(k, inline(k, v, ctx))
        else:
            nested.append(block(k, v, ctx, depth))
    parts: list[RenderableType] = [grid] if grid.row_count else []
    parts.extend(nested)
    if not title:
        return Group(*parts)
    return Panel(Group(*parts), title=title, title_align="left", box=box.ROUNDED)


def render(obs: Any, ctx: Context) -> RenderableType:
    """Any observation, laid out as tables."""
    if isinstance(obs, dict):
        return mapping("", obs, ctx)
    return block("observation", obs, ctx)
