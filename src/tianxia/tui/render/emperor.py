"""Emperor of China: the map of the provinces with owners, units, economy markers and
influence, the borders drawn by their obstacles; then the seats, cards and the battle.

Reads the observation of `docs/rules/emperor.md` (`provinces`, `players`, `my_cards`,
`yang_*`, `yin_*`, `battle`, ...). Where each province lies and which borders carry
water, mountains or the Great Wall is the printed map, not the position: it comes from
the game's layout (`Game.layout()`, in `Context.layout`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tianxia.tui.render import Context
from tianxia.tui.render.common import Canvas, Fitted, Stacked, seat_chip, seat_style

WIDTH, HEIGHT = 100, 34
MARKER_MARK = {
    "city": ("C", "bold white"),
    "mine": ("M", "bold grey70"),
    "agriculture": ("A", "bold green"),
}
# How a border looks, by its strongest obstacle (the one an attack must overcome).
BORDER_MARK = {
    "great_wall": ("#", "bold tan"),
    "mountains": ("^", "dark_orange3"),
    "water": ("~", "dodger_blue2"),
    "": ("·", "grey42"),
}
_STRENGTH = ("great_wall", "mountains", "water")


def printed_map(
    layout: Mapping[str, Any],
) -> tuple[dict[str, dict[str, Any]], list[tuple[str, str, str]]] | None:
    """Provinces by id (name, x, y) and borders `(a, b, strongest obstacle)` from the layout."""
    if not layout.get("provinces"):
        return None
    provinces = {p["id"]: p for p in layout["provinces"]}
    borders = [
        (b["a"], b["b"], b["strongest"] if b["strongest"] in BORDER_MARK else "")
        for b in layout.get("borders", [])
    ]
    return provinces, borders


def province_label(p: dict[str, Any], name: str) -> tuple[Text, Text]:
    top = Text(name[:8], style="bold" if p["owner"] is not None else "")
    bottom = Text()
    if p["owner"] is not None:
        bottom.append_text(seat_chip(p["owner"]))
        bottom.append(f"×{p['units']}", style=seat_style(p["owner"]))
    elif p.get("influence") is not None:
        bottom.append("◇", style=seat_style(p["influence"]))
    else:
        bottom.append("·", style="dim")
    for kind, n in p.get("markers", {}).items():
        mark, style = MARKER_MARK.get(kind, (kind[:1].upper(), "bold"))
        if n:
            bottom.append(mark * n, style=style)
    return top, bottom


def board_map(obs: dict[str, Any], ctx: Context, width: int = WIDTH) -> Text | None:
    """The provinces drawn `width` columns wide, borders between them; None without a map."""
    printed = printed_map(ctx.layout)
    if printed is None:
        return None
    places, borders = printed
    provinces = {p["id"]: p for p in obs["provinces"]}
    if not set(provinces) <= set(places):
        return None
    xs = [places[i]["x"] for i in provinces]
    ys = [places[i]["y"] for i in provinces]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    c = Canvas(width, HEIGHT)
    anchor: dict[str, tuple[int, int]] = {}
    targets = {t.split()[-1] for t in ctx.highlight}
    # Labels first, nudged off each other; borders then run through the gaps.
    for pid, p in provinces.items():
        px = round(4 + (places[pid]["x"] - x0) / max(1e-9, x1 - x0) * (width - 12))
        py = round(1 + (y1 - places[pid]["y"]) / max(1e-9, y1 - y0) * (HEIGHT - 4))
        top, bottom = province_label(p, places[pid].get("name", pid))
        if pid in targets or any(t.split()[-1].endswith(pid) for t in ctx.highlight):
            top.stylize("reverse")
        w = max(len(top.plain), len(bottom.plain))
        for dx, dy in ((0, 0), (0, -1), (0, 1), (-3, 0), (3, 0), (0, -2), (0, 2), (-6, 0), (6, 0)):
            lx, ly = px + dx - w // 2, py + dy
            if all(c.blank(lx + i, ly + j) for i in range(-1, w + 1) for j in (0, 1)):
                break
        c.write(lx, ly, top)
        c.write(lx, ly + 1, bottom)
        anchor[pid] = (lx + w // 2, ly)
    for a, b, obstacle in borders:
        if a in anchor and b in anchor:
            mark, style = BORDER_MARK[obstacle]
            (ax, ay), (bx, by) = anchor[a], anchor[b]
            c.line(ax, ay, bx, by, mark, style)
    return c.to_text()


def legend() -> Text:
    t = Text("borders: ", style="dim")
    for key, label in (("", "open"), ("water", "water"), ("mountains", "mountains")):
        mark, style = BORDER_MARK[key]
        t.append(mark * 2, style=style)
        t.append(f" {label}  ", style="dim")
    mark, style = BORDER_MARK["great_wall"]
    t.append(mark * 2, style=style)
    t.append(" Great Wall   markers: C city, M mine, A agriculture   ◇ influence", style="dim")
    return t


def seats_table(obs: dict[str, Any], ctx: Context) -> Table:
    t = Table(title="Seats", box=box.SIMPLE_HEAD, title_justify="left", title_style="bold")
    for col in ("seat", "status", "score", "provinces", "units", "supply", "yang cards", "shown"):
        t.add_column(col)
    for p in obs["players"]:
        seat = p["seat"]
        name = Text(ctx.name(seat), style=seat_style(seat))
        if seat == obs.get("turn_player") and not ctx.over:
            name.append(" ◀ turn", style="dim")
        if seat == ctx.viewer:
            name.append(" you", style="italic")
        status = p["status"] + (f" of {ctx.name(p['senior'])}" if p["senior"] != seat else "")
        if p.get("claim"):
            status += ", claims the throne"
        shown = ", ".join(f"{n} {k}" for k, n in (p.get("shown_cards") or {}).items() if n)
        t.add_row(
            name,
            status,
            Text(str(p["score"]), style="bold"),
            str(p["provinces"]),
            str(p["units"]),
            str(p["supply"]),
            str(p["yang_cards"]),
            shown or "-",
        )
    return t


def cards(obs: dict[str, Any], ctx: Context) -> Table:
    g = Table.grid(padding=(0, 2))
    g.add_column(style="bold")
    g.add_column()

    def kinds(d: dict[str, int] | None) -> str:
        if not d:
            return "none"
        return ", ".join(f"{n} {k}" for k, n in d.items() if n) or "none"

    if ctx.viewer is not None:
        mine = kinds(obs.get("my_cards"))
        if obs.get("my_fresh_yang"):
            mine += f"   (just drawn: {obs['my_fresh_yang']})"
        g.add_row("Your yang cards", mine)
    g.add_row("Yang deck", f"{obs['yang_deck']} left; out of play: {kinds(obs.get('yang_out'))}")
    g.add_row("Yin deck", kinds(obs.get("yin_deck")))
    g.add_row("Markers left", kinds(obs.get("markers_left")))
    turn = []
    if obs.get("yang_at"):
        turn.append(f"yang at {obs['yang_at']}")
    if obs.get("yin_at"):
        turn.append(f"yin at {obs['yin_at']}")
    if obs.get("yin_card"):
        turn.append(f"yin card {obs['yin_card']}")
    if turn:
        g.add_row("This turn", ", ".join(turn))
    battle = obs.get("battle")
    if battle:
        g.add_row(
            "Battle",
            Text.assemble(
                (ctx.name(battle["attacker"]), seat_style(battle["attacker"])),
                f" attacks {battle['to']} from {battle['from']}, defended by ",
                (ctx.name(battle["defender"]), seat_style(battle["defender"])),
            ),
        )
    merge = obs.get("merge_pending")
    if merge:
        g.add_row("Merger", f"{ctx.name(merge['junior'])} offered to {ctx.name(merge['senior'])}")
    return g


def provinces_table(obs: dict[str, Any], ctx: Context) -> Table:
    t = Table(title="Provinces", box=box.SIMPLE_HEAD, title_justify="left", title_style="bold")
    for col in ("province", "owner", "units", "markers", "influence"):
        t.add_column(col)
    for p in obs["provinces"]:
        owner = p["owner"]
        markers = " ".join(f"{k}×{n}" for k, n in p.get("markers", {}).items() if n)
        t.add_row(
            p["id"],
            Text(ctx.name(owner), style=seat_style(owner)) if owner is not None else Text("-"),
            str(p["units"] or "-"),
            markers or "-",
            Text(ctx.name(p["influence"]), style=seat_style(p["influence"]))
            if p.get("influence") is not None
            else Text("-"),
        )
    return t


def render(obs: Any, ctx: Context) -> RenderableType:
    head = Text.assemble(
        ("Emperor of China", "bold"),
        f"   turn {obs['turn']} of {obs['turns']}, phase {obs['phase']}",
    )
    parts: list[RenderableType] = [head, Text(obs.get("pending", ""), style="italic")]
    parts.append(Stacked(seats_table(obs, ctx)))
    if board_map(obs, ctx) is not None:
        parts += [Fitted(lambda w: board_map(obs, ctx, w) or Text(), WIDTH), legend()]
    else:
        parts.append(provinces_table(obs, ctx))
    parts.append(cards(obs, ctx))
    if obs.get("log"):
        parts.append(Text("Recent: " + " · ".join(obs["log"][-4:]), style="dim"))
    if obs.get("returns"):
        results = ", ".join(f"{ctx.name(i)} {r:+.2f}" for i, r in enumerate(obs["returns"]))
        parts.append(Text(f"Results: {results}", style="bold"))
    return Group(*parts)
