"""The Silk Road: the track from Xi'an to Venice with its trade cities and the merchants
on it, the wind rose, the cards lying before each player, and the viewer's hand.

Reads the observation of `docs/rules/silkroad.md` (`merchants`, `silver`, `hand`,
`displays`, `wind_rose`, `milestone`, `bazaar_*`, `pile`, `discard`, `pending`). Where
the cities lie, what each card kind says and the bazaar track's rows are printed on the
board and the cards, not part of a position: it comes from the game's layout (`Game.layout()`, in
`Context.layout`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tianxia.tui.render import Context
from tianxia.tui.render.common import Canvas, colour, seat_chip, seat_style

PER_ROW = 20
CELL = 4
ROW_HEIGHT = 6
START = ("A", "B", "C")
MERCHANT_COLOURS = {"white": "white", "purple": "medium_purple", "blue": "dodger_blue1"}


def cities(layout: Mapping[str, Any]) -> dict[int, Mapping[str, Any]]:
    return {c["field"]: c for c in layout.get("cities", [])}


def card_title(layout: Mapping[str, Any], kind: int) -> str:
    cards = layout.get("cards", [])
    if 0 <= kind < len(cards):
        return str(cards[kind].get("title", ""))
    return ""


def bazaar_row(obs: Mapping[str, Any], layout: Mapping[str, Any]) -> str:
    """The row under the bazaar marker, or why no bazaar can be called any more.

    The printed track may have fewer rows than there are bazaar cards; the marker then
    leaves it while cards are still held (SR-6.5).
    """
    rows = list(layout.get("bazaar", []))
    marker = int(obs["bazaar_marker"])
    if not rows:
        return str(marker)
    if marker > len(rows):
        cards = int(layout.get("bazaar_cards", len(rows)))
        why = "all bazaars held" if marker > cards else "the bazaar track has run out"
        return f"past the last of {len(rows)} rows: {why}"
    row = rows[marker - 1]
    ounces = "/".join(str(v) for v in row["ounces"])
    return f"{marker} of {len(rows)}: {ounces} ounces, {row['miles']:+d} miles"


def merchant_mark(colour_name: str) -> str:
    return MERCHANT_COLOURS.get(colour_name, colour(colour_name))


def cell_of(field: int, length: int) -> tuple[int, int]:
    """Canvas column and row of `field`: the track snakes in rows of twenty fields."""
    if field <= 0:
        return (field + 2) * CELL, 1
    row, k = (field - 1) // PER_ROW, (field - 1) % PER_ROW
    if row % 2 == 1:
        k = PER_ROW - 1 - k
    return (len(START) + k) * CELL, 1 + row * ROW_HEIGHT


def track(obs: dict[str, Any], ctx: Context) -> Text:
    length = int(ctx.layout.get("length", 80))
    rows = (length + PER_ROW - 1) // PER_ROW
    c = Canvas((len(START) + PER_ROW) * CELL + 2, rows * ROW_HEIGHT + 1)
    towns = cities(ctx.layout)
    milestone = obs.get("milestone")
    for f in range(-2, length + 1):
        x, y = cell_of(f, length)
        if f <= 0:
            c.write(x, y, f"[{START[f + 2]}]", "grey62")
        elif f in towns:
            name = towns[f]["name"]
            style = "bold black on dark_orange" if name == milestone else "bold dark_orange"
            c.write(x, y, f"{f:>3}", style)
            c.write(max(0, x - len(name) // 2 + 1), y - 1, name, "bold dark_orange")
        else:
            c.write(x, y, f"{f:>3}" if f % 5 == 0 else "  ·", "grey50" if f % 5 else "grey62")
    stacks: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for m in obs["merchants"]:
        if m.get("field") is not None:
            stacks[m["field"]].append(m)
    for f, here in stacks.items():
        x, y = cell_of(f, length)
        for depth, m in enumerate(here):
            chip = seat_chip(m["owner"])
            c.put(x + 1, y + 1 + depth, "■", merchant_mark(m["colour"]))
            c.put(x + 2, y + 1 + depth, chip.plain, chip.style)
    return c.to_text()


def wind_rose(obs: dict[str, Any]) -> Text:
    t = Text("✣ wind rose: ", style="bold")
    for name in obs.get("wind_rose") or []:
        t.append("■ ", style=merchant_mark(name))
        t.append(f"{name}  ")
    return t


def merchants_line(obs: dict[str, Any], ctx: Context) -> Text:
    t = Text()
    for m in obs["merchants"]:
        t.append("■", style=merchant_mark(m["colour"]))
        t.append(f" {m['colour']} ")
        t.append(ctx.name(m["owner"]), style=seat_style(m["owner"]))
        field = m.get("field")
        t.append(f" @{field if field is not None else '-'}   ")
    return t


def cards_text(kinds: list[int], layout: Mapping[str, Any]) -> Text:
    t = Text()
    for k in kinds:
        t.append(f"#{k + 1}", style="bold")
        title = card_title(layout, k)
        if title:
            t.append(f" {title}", style="italic")
        t.append("   ")
    return t if kinds else Text("none", style="dim")


def seats_table(obs: dict[str, Any], ctx: Context) -> Table:
    t = Table(title="Seats", box=box.SIMPLE_HEAD, title_justify="left", title_style="bold")
    for col in ("seat", "silver", "hand", "bazaars", "cards before him", "would cost"):
        t.add_column(col)
    for seat in range(ctx.players):
        name = Text(ctx.name(seat), style=seat_style(seat))
        if seat == obs.get("turn_player"):
            name.append(" ◀ turn", style="dim")
        if seat == ctx.viewer:
            name.append(" you", style="italic")
        bazaar = str(obs["bazaar_cards"][seat])
        if obs.get("bazaar_allowed") and obs["bazaar_allowed"][seat]:
            bazaar += " (may call)"
        t.add_row(
            name,
            Text(str(obs["silver"][seat]), style="bold"),
            str(obs["hand_sizes"][seat]),
            bazaar,
            cards_text(obs["displays"][seat], ctx.layout),
            str(obs["penalties_due"][seat]),
        )
    return t


def render(obs: Any, ctx: Context) -> RenderableType:
    head = Text.assemble(
        ("The Silk Road", "bold"),
        f"   round {obs['round']}, turn {obs['turn']}, phase {obs['phase']}",
    )
    if obs.get("ended"):
        head.append(f"   ended at {obs['ended']}", style="bold red")
    parts: list[RenderableType] = [head, Text(obs.get("decision", ""), style="italic")]
    parts += [track(obs, ctx), merchants_line(obs, ctx), wind_rose(obs)]
    info = Table.grid(padding=(0, 2))
    info.add_column(style="bold")
    info.add_column()
    if ctx.viewer is not None:
        info.add_row("Your hand", cards_text(obs.get("hand") or [], ctx.layout))
    pending = obs.get("pending") or {}
    if pending.get("card") is not None:
        what = f"#{pending['card'] + 1} {card_title(ctx.layout, pending['card'])}"
        if pending.get("merchant"):
            what += f" for {pending['merchant']}"
        info.add_row("Carrying out", what)
    info.add_row(
        "Pile",
        f"{obs['pile']} cards ({obs['pile_bazaars']} bazaars), reshuffled {obs['reshuffles']}×",
    )
    discard = obs.get("discard") or []
    info.add_row(
        "Discard", f"{len(discard)} cards" + (f", top #{discard[-1] + 1}" if discard else "")
    )
    info.add_row("Bazaar row", bazaar_row(obs, ctx.layout))
    info.add_row("Next city to pay", str(obs.get("milestone") or "all paid"))
    parts += [info, seats_table(obs, ctx)]
    if obs.get("log"):
        parts.append(Text("Recent: " + " · ".join(obs["log"][-4:]), style="dim"))
    return Group(*parts)
