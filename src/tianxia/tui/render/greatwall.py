"""The Great Wall: the wall's sections side by side, each with its face-up fame tiles,
the cards played at it stacked place by place, and each seat's total; then the seats.

Reads the observation of `docs/rules/greatwall.md`: `sections` (`name`, `open`, `tiles`,
`placed`, `cards` as places of stacks of `[seat, kind]`, `totals`), `bag`, `boxed`,
`players`, `hand`, `deck`, `scores`, `pending`.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tianxia.tui.render import Context
from tianxia.tui.render.common import SEAT_BG, Stacked, seat_style

# Short marks for the card kinds, so a stack stays narrow.
KIND_MARK = {
    "wall": "Wal",
    "gate": "Gat",
    "tower": "Tow",
    "warrior": "War",
    "horseman": "Hrs",
    "dragon": "Drg",
    "noble": "Nob",
    "general": "Gen",
}


def tile(value: Any, style: str = "bold black on gold1") -> Text:
    return Text(f" {value} ", style=style)


def card(seat: int, kind: str) -> Text:
    mark = KIND_MARK.get(kind, kind[:3].title())
    return Text(f"{mark}", style=f"bold white on {SEAT_BG[seat % len(SEAT_BG)]}")


def counts(by_kind: dict[str, int] | None) -> Text:
    if by_kind is None:
        return Text("hidden", style="dim")
    parts = [f"{n} {k}" for k, n in by_kind.items() if n]
    return Text(", ".join(parts) if parts else "none", style="" if parts else "dim")


def section_panel(sec: dict[str, Any], ctx: Context) -> Panel:
    rows: list[RenderableType] = []
    tiles = Text()
    for v in sec["tiles"]:
        tiles.append_text(tile(v))
        tiles.append(" ")
    rows.append(tiles if sec["tiles"] else Text("no tiles", style="dim"))
    if sec.get("placed"):
        p = sec["placed"]
        rows.append(Text.assemble("on a card: ", tile(p.get("value"), "bold black on khaki1")))
    places = sec["cards"]
    if places:
        height = max(len(stack) for stack in places)
        grid = Table.grid(padding=(0, 1))
        for _ in places:
            grid.add_column()
        # The top of each stack is drawn first, so cards lie on the ones beneath.
        for level in range(height - 1, -1, -1):
            cells: list[RenderableType] = []
            for stack in places:
                if level < len(stack):
                    seat, kind = stack[level]
                    cells.append(card(seat, kind))
                else:
                    cells.append(Text("   "))
            grid.add_row(*cells)
        rows.append(grid)
    else:
        rows.append(Text("no cards", style="dim"))
    totals = Text()
    best = max(sec["totals"]) if sec["totals"] else 0
    for seat, total in enumerate(sec["totals"]):
        style = seat_style(seat) + (" underline" if total == best and total > 0 else "")
        totals.append(f"{ctx.name(seat)}:{total} ", style=style)
    rows.append(totals)
    title = Text(sec["name"], style="bold")
    target = any(t.endswith(f" {sec['name']}") for t in ctx.highlight)
    return Panel(
        Group(*rows),
        title=title,
        subtitle=None if sec["open"] else "closed",
        box=box.HEAVY if target else box.ROUNDED,
        border_style="bold yellow" if target else ("grey50" if sec["open"] else "grey23"),
        width=max(16, 4 * max(1, len(places)) + 4),
    )


def seats_table(obs: dict[str, Any], ctx: Context) -> Table:
    t = Table(title="Seats", box=box.SIMPLE_HEAD, title_justify="left", title_style="bold")
    for col in ("seat", "fame", "tiles won", "hand", "deck", "cards gone"):
        t.add_column(col)
    for seat, p in enumerate(obs["players"]):
        name = Text(ctx.name(seat), style=seat_style(seat))
        if seat == obs.get("turn_of") and not ctx.over:
            name.append(" ◀ turn", style="dim")
        if seat == ctx.viewer:
            name.append(" you", style="italic")
        won = Text()
        for v in p["won"]:
            won.append_text(tile(v))
            won.append(" ")
        t.add_row(
            name,
            Text(str(p["fame"]), style="bold"),
            won if p["won"] else Text("-", style="dim"),
            str(p["hand_size"]),
            str(p["deck_size"]),
            counts(p.get("gone")),
        )
    return t


def render(obs: Any, ctx: Context) -> RenderableType:
    head = Text.assemble(("The Great Wall", "bold"), f"   phase {obs['phase']}")
    if obs.get("final_round"):
        head.append(f"   final round ({ctx.name(obs['emptied_by'])} played out)", "bold red")
    if obs.get("cards_stopped"):
        head.append("   no more cards are played", "bold red")
    parts: list[RenderableType] = [head, Text(obs.get("pending", ""), style="italic")]
    parts.append(Columns([section_panel(s, ctx) for s in obs["sections"]], padding=(0, 0)))
    mine = Table.grid(padding=(0, 2))
    mine.add_column(style="bold")
    mine.add_column()
    if ctx.viewer is not None:
        mine.add_row("Your hand", counts(obs.get("hand")))
        mine.add_row("Your deck", counts(obs.get("deck")))
    bag = Text(f"{obs['bag_size']} tiles: ")
    for v, n in sorted(obs["bag"].items(), key=lambda kv: int(kv[0])):
        bag.append(f"{v}×{n} ")
    mine.add_row("Bag", bag)
    if obs.get("boxed"):
        mine.add_row("Boxed", Text(" ".join(f"{v}×{n}" for v, n in obs["boxed"].items())))
    parts += [mine, Stacked(seats_table(obs, ctx))]
    if obs.get("log"):
        parts.append(Text("Recent: " + " · ".join(obs["log"][-4:]), style="dim"))
    return Group(*parts)
