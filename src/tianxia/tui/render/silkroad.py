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
from tianxia.tui.render.common import Canvas, Fitted, Stacked, colour, plural, seat_chip, seat_style

PER_ROW = 20
CELL = 4
START = ("A", "B", "C")
MERCHANT_COLOURS = {"white": "white", "purple": "medium_purple", "blue": "dodger_blue1"}
# The board is printed in German; this screen is in English, so the cities are too.
ENGLISH = {"Buchara": "Bukhara", "Bagdad": "Baghdad", "Byzanz": "Byzantium", "Venedig": "Venice"}


def english(city: str) -> str:
    """A city's English name (the data and the observation use the board's German)."""
    for german, name in ENGLISH.items():
        if city.lower() == german.lower():
            return name
    return city


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


def where(field: int | None) -> str:
    """A merchant's place in words: a start space by its letter, a field by its number."""
    if field is None:
        return "not placed yet"
    if field <= 0:
        return f"start {START[field + len(START) - 1]}"
    return f"@{field}"


def per_row(width: int) -> int:
    """How many fields a row of the track holds at `width` columns (the start spaces
    take the first three cells of the first row)."""
    return max(4, min(PER_ROW, width // CELL - len(START)))


def cell_of(field: int, row_len: int, row_height: int) -> tuple[int, int]:
    """Canvas column and row of `field`: the track snakes in rows of `row_len` fields."""
    if field <= 0:
        return (field + 2) * CELL, 1
    row, k = (field - 1) // row_len, (field - 1) % row_len
    if row % 2 == 1:
        k = row_len - 1 - k
    return (len(START) + k) * CELL, 1 + row * row_height


def track(obs: dict[str, Any], ctx: Context, width: int = (len(START) + PER_ROW) * CELL) -> Text:
    """The track as a snake, as many fields a row as `width` allows."""
    length = int(ctx.layout.get("length", 80))
    row_len = per_row(width)
    rows = (length + row_len - 1) // row_len
    stacks: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for m in obs["merchants"]:
        if m.get("field") is not None:
            stacks[m["field"]].append(m)
    # A row: the city names, the field numbers, then the deepest stack of merchants.
    row_height = 2 + max([len(here) for here in stacks.values()] or [0])
    c = Canvas(min(width, (len(START) + row_len) * CELL + 2), rows * row_height + 1)
    towns = cities(ctx.layout)
    milestone = english(str(obs.get("milestone") or ""))
    for f in range(-2, length + 1):
        x, y = cell_of(f, row_len, row_height)
        if f <= 0:
            c.write(x, y, f"[{START[f + 2]}]", "grey62")
        elif f in towns:
            name = english(towns[f]["name"])
            style = "bold black on dark_orange" if name == milestone else "bold dark_orange"
            c.write(x, y, f"{f:>3}", style)
            # The name centred over its field, pushed back inside the drawing at the edges.
            left = min(max(0, x - len(name) // 2 + 2), c.width - len(name))
            c.write(max(0, left), y - 1, name, "bold dark_orange")
        else:
            c.write(x, y, f"{f:>3}" if f % 5 == 0 else "  ·", "grey50" if f % 5 else "grey62")
    for f, here in stacks.items():
        x, y = cell_of(f, row_len, row_height)
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
        t.append(f" {where(m.get('field'))}   ")
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
    for col in ("seat", "silver", "hand", "bazaars", "cards laid out", "would cost"):
        t.add_column(col)
    for seat in range(ctx.players):
        name = Text(ctx.name(seat), style=seat_style(seat))
        if seat == obs.get("turn_player") and not ctx.over:
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
        head.append(f"   ended at {english(str(obs['ended']))}", style="bold red")
    parts: list[RenderableType] = [head, Text(obs.get("decision", ""), style="italic")]
    parts.append(Stacked(seats_table(obs, ctx)))
    widest = (len(START) + PER_ROW) * CELL + 2
    parts += [Fitted(lambda w: track(obs, ctx, w), widest), merchants_line(obs, ctx)]
    parts.append(wind_rose(obs))
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
        f"{plural(obs['pile'], 'card')} ({plural(obs['pile_bazaars'], 'bazaar')}), "
        f"reshuffled {obs['reshuffles']}×",
    )
    discard = obs.get("discard") or []
    info.add_row(
        "Discard", plural(len(discard), "card") + (f", top #{discard[-1] + 1}" if discard else "")
    )
    info.add_row("Bazaar row", bazaar_row(obs, ctx.layout))
    info.add_row("Next city to pay", english(str(obs.get("milestone") or "")) or "all paid")
    parts.append(info)
    if obs.get("log"):
        parts.append(Text("Recent: " + " · ".join(obs["log"][-4:]), style="dim"))
    return Group(*parts)
