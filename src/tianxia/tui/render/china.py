"""China: the map of the nine provinces with their fields, houses, roads and emissaries,
then the provinces' standings, the cards and the supplies.

Reads the game's layout (`Game.layout()`, in `Context.layout`: the static board, coordinates
0..100), `fields` (owner per field, -1 free), `forts`, `provinces`, `hand`, `display`,
`known`, `hand_sizes`, `supply`, `scores`, `final`.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tianxia.tui.render import Context
from tianxia.tui.render.common import (
    Canvas,
    Fitted,
    Stacked,
    colour,
    plural,
    scale,
    seat_chip,
    seat_style,
)

WIDTH, HEIGHT = 78, 27
FREE = "○"
FORT = "▲"


def _cards(counts: dict[str, int] | None) -> Text:
    if counts is None:
        return Text("hidden", style="dim")
    out = Text()
    for name, n in counts.items():
        if n:
            out.append("▮" * n, style=colour(name))
            out.append(f"{n} {name}  ", style="")
    return out if out.plain else Text("none", style="dim")


def field_number(name: str) -> str:
    """The number of field `Qin.3` within its province, drawn on the map: `3`."""
    return name.rpartition(".")[2] or FREE


def board_map(obs: dict[str, Any], ctx: Context, width: int = WIDTH) -> Text:
    """The map drawn `width` columns wide: each free field shows its number in its
    province (the `3` beside Qin is `Qin.3`), a house its owner's chip."""
    layout = ctx.layout
    fields: list[dict[str, Any]] = layout["fields"]
    owners: list[int] = obs["fields"]
    forts = set(obs.get("forts") or ())
    provinces: list[dict[str, Any]] = obs["provinces"]
    targets = {t.split()[1] for t in ctx.highlight if t.startswith(("house ", "fortify "))}
    emissary_targets = {t.split()[1] for t in ctx.highlight if t.startswith("emissary ")}
    c = Canvas(width, HEIGHT)
    at = [(scale(f["xy"][0], width), scale(f["xy"][1], HEIGHT)) for f in fields]
    for a, b in layout["roads"]:
        (x0, y0), (x1, y1) = at[a], at[b]
        c.line(x0, y0, x1, y1, "·", "grey42")
    for i, f in enumerate(fields):
        x, y = at[i]
        province = provinces[f["province"]]
        owner = owners[i]
        if owner >= 0:
            chip = seat_chip(owner)
            c.put(x, y, chip.plain, chip.style)
        elif f["name"] in targets:
            # Underlined, not reversed: a block of colour is a house.
            c.put(x, y, field_number(f["name"]), f"bold underline {colour(province['colour'])}")
        else:
            c.put(x, y, field_number(f["name"]), f"bold {colour(province['colour'])}")
        if f["name"] in forts:
            c.put(x + 1, y, FORT, "bold white")
    for p, (dx, dy) in enumerate(layout["dragons"]):
        province = provinces[p]
        x, y = scale(dx, width), scale(dy, HEIGHT)
        name = province["name"]
        style = f"bold {colour(province['colour'])}"
        if province.get("scored"):
            style += " strike"
        if name in emissary_targets:
            style += " reverse"
        c.write_centred(x, y, name, style)
        envoys = Text()
        for seat, n in enumerate(province["emissaries"]):
            if n:
                envoys.append("✦" * n, style=seat_style(seat))
        if envoys.plain:
            c.write(x - len(envoys.plain) // 2, y + 1, envoys)
    return c.to_text()


def legend(ctx: Context) -> Text:
    """What the marks on the map mean."""
    t = Text("Map: ", style="bold")
    t.append("3", style="bold")
    t.append(" a free field, numbered in its province (the 3 by Qin is Qin.3)  ")
    t.append_text(seat_chip(0))
    t.append(f" a house of {ctx.name(0)}  ")
    t.append(FORT, style="bold white")
    t.append(" a fortification  ")
    t.append("✦", style=seat_style(0))
    t.append(" an emissary  ")
    t.append("·", style="grey42")
    t.append(" a road  ")
    t.append("3", style="bold underline")
    t.append(" underlined: open to you now")
    return t


def provinces_table(obs: dict[str, Any], ctx: Context) -> Table:
    t = Table(
        title="Provinces (houses / emissaries per seat)",
        box=box.SIMPLE_HEAD,
        title_justify="left",
        title_style="bold",
    )
    t.add_column("province")
    for seat in range(ctx.players):
        t.add_column(Text(ctx.name(seat), style=seat_style(seat)), justify="center")
    t.add_column("free", justify="right")
    t.add_column("envoy limit", justify="right")
    for p in obs["provinces"]:
        name = Text(p["name"], style=colour(p["colour"]))
        if p.get("scored"):
            name.append(" scored", style="dim italic")
        cells = [name]
        for seat in range(ctx.players):
            houses, envoys = p["houses"][seat], p["emissaries"][seat]
            cells.append(
                Text(f"{houses or '-'} / {envoys or '-'}", style="dim" if not houses else "")
            )
        cells += [Text(str(p["free_fields"])), Text(str(p["emissary_limit"]))]
        t.add_row(*cells)
    return t


def seats_table(obs: dict[str, Any], ctx: Context) -> Table:
    t = Table(box=box.SIMPLE_HEAD, title="Seats", title_justify="left", title_style="bold")
    for col in ("seat", "points", "cards", "known cards", "houses", "envoys", "forts"):
        t.add_column(col)
    final = obs.get("final") or []
    for seat in range(ctx.players):
        supply = obs["supply"][seat]
        known = obs["known"][seat] if obs.get("known") else None
        name = Text(ctx.name(seat), style=seat_style(seat))
        if seat == obs.get("emperor"):
            name.append(" (starts)", style="dim")
        if seat == ctx.viewer:
            name.append(" you", style="italic")
        points = Text(str(obs["scores"][seat]))
        if final:
            f = final[seat]
            points.append(
                f"  = {f['provinces']} prov + {f['alliances']} alliances + {f['roads']} roads",
                style="dim",
            )
        t.add_row(
            name,
            points,
            str(obs["hand_sizes"][seat]),
            _cards(known) if known and any(known.values()) else Text("-", style="dim"),
            str(supply["houses"]),
            str(supply["emissaries"]),
            str(supply["fortifications"]),
        )
    return t


def render(obs: Any, ctx: Context) -> RenderableType:
    side = ctx.layout.get("side", "")
    head = Text.assemble(
        ("China", "bold"),
        f"  board {side}",
        ("  (reconstructed map)" if ctx.layout.get("reconstructed") else "", "dim"),
    )
    if obs.get("last_round"):
        head.append("  LAST ROUND", style="bold red")
    pending = Text(obs.get("pending", ""), style="italic")
    cards = Table.grid(padding=(0, 2))
    cards.add_column(style="bold")
    cards.add_column()
    if ctx.viewer is not None:
        cards.add_row("Your hand", _cards(obs.get("hand")))
    cards.add_row("Display", _cards(obs.get("display")))
    cards.add_row(
        "Deck",
        Text(f"{plural(obs['deck'], 'card')}, run out {plural(obs.get('exhaustions', 0), 'time')}"),
    )
    cards.add_row("Discards", _cards(obs.get("discards")))
    parts: list[RenderableType] = [head, pending, Stacked(seats_table(obs, ctx))]
    parts += [Fitted(lambda w: board_map(obs, ctx, w), WIDTH), legend(ctx), cards]
    parts.append(provinces_table(obs, ctx))
    if obs.get("winners"):
        winners = ", ".join(ctx.name(w) for w in obs["winners"])
        parts.append(Text(f"Winner: {winners}", style="bold green"))
    return Group(*parts)
