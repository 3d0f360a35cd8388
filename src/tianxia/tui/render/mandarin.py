"""Mandarin: the circular board of twelve animal sectors with the mandarins on it, the
lot and the auction in the middle, and each seat's collection of tiles.

Reads the observation of `docs/rules/mandarin.md`: `positions` (square 0-35, clockwise
from the rat, sectors in zodiac order by MA-1.1), `sector_holders`, `sector_claims`,
`collections` (tile names `<animal>-<colour>`), `lot`, `auction`, `dispenser`, `money`.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tianxia.tui.render import Context
from tianxia.tui.render.common import Canvas, Fitted, Stacked, colour, seat_chip, seat_style

ZODIAC = (
    "rat", "ox", "tiger", "rabbit", "dragon", "snake",
    "horse", "goat", "monkey", "rooster", "dog", "pig",
)  # fmt: skip
SQUARES = 36
WIDTH, HEIGHT = 78, 27
CX, CY, RX, RY = 39, 13, 27.0, 10.0
TILE_COLOURS = {"pink": "hot_pink", "purple": "medium_purple", "blue": "dodger_blue1"}


def tile_text(name: str) -> Text:
    hue = name.partition("-")[2]
    return Text("■", style=TILE_COLOURS.get(hue, colour(hue)))


def at(square: float, rx: float, ry: float, cx: int = CX) -> tuple[int, int]:
    # Square 0 sits at the top and the squares run clockwise, as on the printed ring.
    angle = -math.pi / 2 + (square + 0.5 - 1.5) * 2 * math.pi / SQUARES
    return round(cx + rx * math.cos(angle)), round(CY + ry * math.sin(angle))


def ring(obs: dict[str, Any], ctx: Context, width: int = WIDTH) -> Text:
    """The ring `width` columns wide; too narrow for the middle's text inside the ring,
    that text goes below it."""
    centre = middle(obs, ctx)
    inside = width >= WIDTH
    cx = CX if inside else width // 2
    scale = 1.0 if inside else max(0.3, (width - 20) / (2 * RX))
    rx = RX * scale
    c = Canvas(max(width, 1), HEIGHT + (0 if inside else len(centre) + 1))
    holders: list[int] = obs["sector_holders"]
    for k in range(SQUARES):
        sector = k // 3
        holder = holders[sector] if sector < len(holders) else -1
        style = seat_style(holder) if holder >= 0 else "grey50"
        x, y = at(k, rx, RY, cx)
        c.put(x, y, "◆" if k % 3 == 1 else "□", style)
    for sector, animal in enumerate(ZODIAC):
        x, y = at(sector * 3 + 1, rx + 9, RY + 2.6, cx)
        holder = holders[sector] if sector < len(holders) else -1
        c.write_centred(x, y, animal, seat_style(holder) if holder >= 0 else "")
    here: dict[int, int] = defaultdict(int)
    for seat, square in enumerate(obs["positions"]):
        if square is None or square < 0:
            continue
        depth = here[square]
        here[square] += 1
        x, y = at(square, rx - 3 * scale - 2 * depth, RY - 1.2 - 0.9 * depth, cx)
        chip = seat_chip(seat)
        c.put(x, y, chip.plain, chip.style)
    for i, line in enumerate(centre):
        if inside:
            c.write(CX - 17, CY - len(centre) // 2 + i, line)
        else:
            c.write(0, HEIGHT + 1 + i, line)
    return c.to_text()


def middle(obs: dict[str, Any], ctx: Context) -> list[Text]:
    lines = [Text(f"dispenser: {obs['dispenser']} tiles")]
    if obs.get("last_roll"):
        lines.append(Text(f"last roll: {obs['last_roll']}  (roll {obs.get('rolls', 0)})"))
    lot = obs.get("lot")
    if lot and (lot.get("face_up") or lot.get("face_down")):
        t = Text("lot: ")
        for name in lot.get("face_up", []):
            t.append_text(tile_text(name))
            t.append(f" {name} ")
        if lot.get("face_down"):
            t.append(f"+{lot['face_down']} face down", style="dim")
        lines.append(t)
    auction = obs.get("auction")
    if auction:
        seller = "the bank" if auction["seller"] < 0 else ctx.name(auction["seller"])
        t = Text(f"auction by {seller}: ", style="bold")
        if auction.get("high_bidder", -1) >= 0:
            t.append(f"{auction['high_bid']} yuan by ")
            t.append(ctx.name(auction["high_bidder"]), style=seat_style(auction["high_bidder"]))
        else:
            t.append(f"opens at {auction['high_bid']}")
        lines.append(t)
        if auction.get("out"):
            lines.append(Text("out: " + ", ".join(ctx.name(s) for s in auction["out"]), "dim"))
    return lines


def collections(obs: dict[str, Any], ctx: Context) -> Table:
    t = Table(title="Collections", box=box.SIMPLE_HEAD, title_justify="left", title_style="bold")
    t.add_column("seat")
    t.add_column("sign")
    t.add_column("money", justify="right")
    t.add_column("sectors")
    t.add_column("tiles by animal")
    all_money = obs.get("all_money")
    holders = obs["sector_holders"]
    for seat, tiles in enumerate(obs["collections"]):
        name = Text(ctx.name(seat), style=seat_style(seat))
        if seat == obs.get("turn_of") and not ctx.over:
            name.append(" ◀ turn", style="dim")
        if seat == ctx.viewer:
            name.append(" you", style="italic")
        if all_money is not None:
            money = str(all_money[seat])
        elif seat == ctx.viewer and obs.get("money") is not None:
            money = str(obs["money"])
        else:
            money = "?"
        by_animal: dict[str, list[str]] = defaultdict(list)
        for tile in tiles:
            by_animal[tile.partition("-")[0]].append(tile)
        shelf = Text()
        for animal in sorted(by_animal, key=lambda a: ZODIAC.index(a) if a in ZODIAC else 99):
            shelf.append(f"{animal} ", style="bold" if len(by_animal[animal]) >= 3 else "")
            for tile in by_animal[animal]:
                shelf.append_text(tile_text(tile))
            shelf.append("  ")
        owned = [ZODIAC[i] for i, h in enumerate(holders) if h == seat and i < len(ZODIAC)]
        t.add_row(
            name,
            str(obs["signs"][seat]),
            money,
            ", ".join(owned) or "-",
            shelf if tiles else Text("-", style="dim"),
        )
    return t


def render(obs: Any, ctx: Context) -> RenderableType:
    head = Text.assemble(
        ("Mandarin", "bold"),
        f"   turn {obs['turns'] + 1} (cap {obs['turn_cap']}), phase {obs['phase']}",
    )
    if obs.get("money_variant"):
        head.append("   money variant: the richest wins", style="dim")
    parts: list[RenderableType] = [head, Text(obs.get("prompt", ""), style="italic")]
    parts += [Fitted(lambda w: ring(obs, ctx, w), WIDTH), Stacked(collections(obs, ctx))]
    if obs.get("winners"):
        names = ", ".join(ctx.name(w) for w in obs["winners"])
        parts.append(Text(f"Winner: {names} (by {obs.get('end') or 'the end'})", "bold green"))
    return Group(*parts)
