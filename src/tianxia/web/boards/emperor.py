"""Emperor of China: the 21 provinces at their places on the map, joined by their borders
(normal, water, mountains, the Great Wall), each with its owner, units, economy markers and
influence; below, the seats with their supply and scores, the viewer's yang cards face up
and everyone else's as card backs, the decks and the battle under way.

Where a province lies and which borders carry obstacles is the printed map (the layout);
everything else is the viewer's observation. An action lands on the province it leads
into (`grow hopeh`, `colonise hopeh>honan`, `move 2 hopeh>honan`, `attack a>b`,
`retreat a`, `yang a`, `yin a`), a merger offer on the row of the seat it is made to;
answers, dice, cards and `done` are left to the page's list.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tianxia.web.boards import Board, BoardInput
from tianxia.web.boards.svg import (
    INK,
    document,
    esc,
    seat_colour,
    seat_marker,
    seat_name,
    spot,
)
from tianxia.web.i18n import ngettext_of

WIDTH = 640.0
MAP_TOP = 64.0
MAP_HEIGHT = 560.0
MARGIN = 12.0
NODE_W = 92.0
NODE_H = 52.0
GAP = 10.0  # the least room between two provinces, so a border stays visible between them
ROW_H = 34.0
BORDER_SEEN = 30.0  # the least length of a border left visible between two neighbours

# Line styles by the strongest obstacle: each has its own dash as well as its colour.
BORDER_STYLE = {
    "normal": 'stroke="#8d8d8d" stroke-width="2"',
    "water": 'stroke="#5fa8d3" stroke-width="3.5" stroke-dasharray="8 4"',
    "mountains": 'stroke="#8c5a2b" stroke-width="3.5" stroke-dasharray="2 3"',
    "great_wall": 'stroke="#6b2a1a" stroke-width="6" stroke-dasharray="5 2"',
}
OBSTACLE_NAME = {
    "normal": "open border",
    "water": "water",
    "mountains": "mountains",
    "great_wall": "Great Wall",
}
MARKER = {  # letter, fill
    "city": ("C", "#c0392b"),
    "mine": ("M", "#6d6d6d"),
    "agriculture": ("A", "#2e8b3a"),
}
CARD_GROUP = {
    "city": "economy",
    "mine": "economy",
    "agriculture": "economy",
    "water": "attack",
    "mountains": "attack",
    "great_wall": "attack",
    "hunger": "defence",
    "flood": "defence",
}
TARGET = "#e0a100"


@dataclass(frozen=True)
class Place:
    pid: str
    name: str
    x: float
    y: float


@lru_cache(maxsize=8)
def _places(
    printed: tuple[tuple[str, str, float, float], ...], links: tuple[tuple[str, str], ...]
) -> dict[str, Place]:
    """Map positions as longitude/latitude, projected and spread so no two boxes touch.

    The capitals of the dense east (Anhwei, Kiangsu, Chekiang) lie closer than a label is
    wide, so the boxes are pushed apart a little, always the same way; neighbours also
    keep enough of their border in sight to show its obstacles.
    """
    lat0 = sum(p[3] for p in printed) / len(printed)
    squeeze = math.cos(math.radians(lat0))
    raw = {pid: (lon * squeeze, -lat) for pid, _, lon, lat in printed}
    x0 = min(x for x, _ in raw.values())
    x1 = max(x for x, _ in raw.values())
    y0 = min(y for _, y in raw.values())
    y1 = max(y for _, y in raw.values())
    inner_w = WIDTH - 2 * MARGIN - NODE_W
    inner_h = MAP_HEIGHT - 2 * MARGIN - NODE_H
    scale = min(inner_w / max(1e-9, x1 - x0), inner_h / max(1e-9, y1 - y0))
    pos = {pid: [(x - x0) * scale, (y - y0) * scale] for pid, (x, y) in raw.items()}
    ids = [p[0] for p in printed]
    need_x, need_y = NODE_W + GAP, NODE_H + GAP
    for _ in range(120):
        moved = False
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                pa, pb = pos[a], pos[b]
                dx, dy = pb[0] - pa[0], pb[1] - pa[1]
                over_x, over_y = need_x - abs(dx), need_y - abs(dy)
                if over_x <= 0 or over_y <= 0:
                    continue
                moved = True
                # Part along the axis that needs the shorter push, the way they already lean.
                if over_x * need_y < over_y * need_x:
                    step = over_x / 2 + 0.5
                    sign = 1.0 if dx > 0 or (dx == 0 and a < b) else -1.0
                    pa[0] -= sign * step
                    pb[0] += sign * step
                else:
                    step = over_y / 2 + 0.5
                    sign = 1.0 if dy > 0 or (dy == 0 and a < b) else -1.0
                    pa[1] -= sign * step
                    pb[1] += sign * step
        for a, b in links:
            pa, pb = pos[a], pos[b]
            dx, dy = pb[0] - pa[0], pb[1] - pa[1]
            d = math.hypot(dx, dy) or 1.0
            short = BORDER_SEEN - (d - 2 * _to_edge(dx / d, dy / d))
            if short > 0.5:
                moved = True
                step = short / 2 + 0.5
                pa[0] -= dx / d * step
                pa[1] -= dy / d * step
                pb[0] += dx / d * step
                pb[1] += dy / d * step
        if not moved:
            break
    # Fit the spread map back into its frame.
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    fx = inner_w / max(1e-9, max(xs) - min(xs))
    fy = inner_h / max(1e-9, max(ys) - min(ys))
    f = min(1.0, fx, fy)
    ox = MARGIN + NODE_W / 2 + (inner_w - (max(xs) - min(xs)) * f) / 2
    oy = MAP_TOP + MARGIN + NODE_H / 2
    return {
        pid: Place(pid, name, ox + (pos[pid][0] - min(xs)) * f, oy + (pos[pid][1] - min(ys)) * f)
        for pid, name, _, _ in printed
    }


Printed = tuple[tuple[str, str, float, float], ...]
Borders = tuple[tuple[str, str, tuple[str, ...], str], ...]


def printed_map(layout: Mapping[str, Any]) -> tuple[Printed, Borders]:
    """The layout as hashable tuples, so what follows from it alone is drawn once."""
    printed = tuple(
        (str(p["id"]), str(p.get("name", p["id"])), float(p["x"]), float(p["y"]))
        for p in layout.get("provinces", [])
    )
    known = {p[0] for p in printed}
    borders = tuple(
        (str(b["a"]), str(b["b"]), tuple(b.get("obstacles") or ()), str(b.get("strongest", "")))
        for b in layout.get("borders", [])
        if b["a"] in known and b["b"] in known
    )
    return printed, borders


def _where(printed: Printed, borders: Borders) -> dict[str, Place]:
    return _places(printed, tuple((a, b) for a, b, _, _ in borders)) if printed else {}


@lru_cache(maxsize=8)
def _border_layer(printed: Printed, borders: Borders) -> str:
    where = _where(printed, borders)
    return "".join(
        _border(where[a], where[b], obstacles, strongest) for a, b, obstacles, strongest in borders
    )


# --- the actions -------------------------------------------------------------------------


@dataclass(frozen=True)
class Parsed:
    kind: str
    target: str | None  # the province the action leads into
    source: str | None = None
    n: int | None = None
    seat: int | None = None


def parse(action: str) -> Parsed:
    """An action's province (or seat) from its notation (docs/rules/emperor.md)."""
    words = action.split()
    kind = words[0] if words else ""
    if kind in ("start", "grow", "retreat", "yang", "yin") and len(words) == 2:
        return Parsed(kind, words[1])
    if kind in ("colonise", "attack") and len(words) == 2 and ">" in words[1]:
        src, dst = words[1].split(">", 1)
        return Parsed(kind, dst, src)
    if kind == "move" and len(words) == 3 and ">" in words[2] and words[1].isdigit():
        src, dst = words[2].split(">", 1)
        return Parsed(kind, dst, src, int(words[1]))
    if kind == "merge" and len(words) == 2 and words[1].isdigit():
        return Parsed(kind, None, seat=int(words[1]))
    return Parsed(kind, None)


def _spread(ns: Sequence[int]) -> str:
    lo, hi = min(ns), max(ns)
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def describe(
    actions: Sequence[Parsed],
    name_of: Callable[[str], str],
    body: Mapping[str, Any],
    _: Callable[[str], str],
) -> str:
    """What clicking a province offers, in words: one phrase per kind of action."""
    by_kind: dict[str, list[Parsed]] = {}
    for a in actions:
        by_kind.setdefault(a.kind, []).append(a)
    phrases: list[str] = []
    for kind, group in by_kind.items():
        sources = list(dict.fromkeys(name_of(a.source) for a in group if a.source))
        if kind == "start":
            phrases.append(_("occupy as a start province"))
        elif kind == "grow":
            due = body.get("growth_due") or [None]
            if due[0] is None:
                phrases.append(_("place the new units"))
            else:
                phrases.append(_("place a unit from the marker in") + f" {name_of(due[0])}")
        elif kind == "colonise":
            phrases.append(_("colonise from") + " " + ", ".join(sources))
        elif kind == "attack":
            phrases.append(_("attack from") + " " + ", ".join(sources))
        elif kind == "move":
            parts = []
            ngettext = ngettext_of(_)
            for src in dict.fromkeys(a.source for a in group if a.source):
                ns = [a.n for a in group if a.source == src and a.n is not None]
                parts.append(
                    ngettext(
                        "{source} ({n} unit)", "{source} ({n} units)", max(ns, default=0)
                    ).format(source=name_of(src), n=_spread(ns))
                )
            phrases.append(_("move in from") + " " + ", ".join(parts))
        elif kind == "retreat":
            phrases.append(_("retreat here"))
        elif kind == "yang":
            phrases.append(_("assign the yang card here"))
        elif kind == "yin":
            phrases.append(_("assign the yin card here"))
    return "; ".join(phrases)


# --- drawing -----------------------------------------------------------------------------


def text(
    x: float,
    y: float,
    content: object,
    size: float = 12,
    anchor: str = "middle",
    fill: str = INK,
    **attrs: str,
) -> str:
    """`svg.text`, with a colour of its own for lettering on dark pieces and for asides."""
    extra = "".join(f' {k.replace("_", "-")}="{esc(v)}"' for k, v in attrs.items())
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" text-anchor="{anchor}"'
        f' fill="{esc(fill)}"{extra}>{esc(content)}</text>'
    )


def prompt(
    body: Mapping[str, Any],
    names: Sequence[str],
    name_of: Callable[[str], str],
    _: Callable[[str], str],
) -> str:
    """The decision awaited, in the viewer's language, naming seats as the board does.

    The observation's `pending` is the engine's English; this says the same from the
    observation's fields, so it can be translated and names the players by name.
    """
    phase = str(body.get("phase", ""))
    mover = body.get("current_player")
    turn_player = body.get("turn_player")
    who = seat_name(names, int(mover)) if isinstance(mover, int) and mover >= 0 else ""
    turn_name = seat_name(names, int(turn_player)) if isinstance(turn_player, int) else ""
    battle = body.get("battle") or {}
    src = name_of(str(battle.get("from", "")))
    dst = name_of(str(battle.get("to", "")))
    if phase == "end":
        return _("The game is over")
    if phase == "start":
        count = re.search(r"of (\d+)$", str(body.get("pending") or ""))
        return _("{seat}: choose start province {n} of {count}").format(
            seat=who, n=len(body.get("start_chosen") or []) + 1, count=count[1] if count else "?"
        )
    if phase == "growth":
        due = (body.get("growth_due") or [None])[0]
        if due is None:
            return _("{seat}: place the new units in one of your provinces").format(seat=who)
        return _("{seat}: place a unit from the marker in {province} or a neighbour").format(
            seat=who, province=name_of(str(due))
        )
    if phase == "colonisation":
        return _("{seat}: colonise empty neighbours with 3 units each, or be done").format(seat=who)
    if phase == "movement":
        return _("{seat}: move units one border into your own provinces, or be done").format(
            seat=who
        )
    if phase == "expansion":
        return _("{seat}: attack, offer a merger, or be done").format(seat=who)
    if phase == "merger reply":
        if battle:
            return _("{seat}: answer the defender's merger offer").format(seat=who)
        return _("{seat}: answer the merger offer of {other}").format(seat=who, other=turn_name)
    if phase == "defender":
        return _(
            "{seat}: defend {province} against the attack from {source}: stand, "
            "retreat or offer a merger"
        ).format(seat=who, province=dst, source=src)
    if phase == "attacker":
        return _("{seat}: attack {province} from {source}: roll the die or withdraw").format(
            seat=who, province=dst, source=src
        )
    if phase == "die":
        return _("The die is rolled for the attack on {province}").format(province=dst)
    if phase == "advance":
        return _("{seat}: move units from {source} into the conquered {province}").format(
            seat=who, province=dst, source=src
        )
    if phase == "assign yang":
        return _("{seat}: put your face-down yang card on a province").format(seat=who)
    if phase == "assign yin":
        return _("{seat}: put your face-down yin card on one of your provinces").format(seat=who)
    if phase == "draw yin":
        return _("The yin card is turned over")
    if phase == "draw yang":
        return _("{seat} looks at the yang card drawn").format(seat=turn_name)
    if phase == "defence":
        return _("{seat}: play a {card} defence card for {province}, or endure").format(
            seat=who,
            card=_(str(body.get("yin_card") or "")),
            province=name_of(str(body.get("yin_at") or "")),
        )
    return _(phase)


def _border(a: Place, b: Place, obstacles: Sequence[str], strongest: str) -> str:
    style = BORDER_STYLE.get(strongest, BORDER_STYLE["normal"])
    what = ", ".join(OBSTACLE_NAME.get(o, o) for o in obstacles) or OBSTACLE_NAME["normal"]
    out = [
        f'<g class="border {esc(strongest)}"><title>{esc(a.name)}–{esc(b.name)}: {esc(what)}'
        "</title>",
        f'<line x1="{a.x:.1f}" y1="{a.y:.1f}" x2="{b.x:.1f}" y2="{b.y:.1f}" {style} '
        'stroke-linecap="round"/>',
    ]
    # Every obstacle of a double border gets its sign, in the stretch between the boxes.
    dx, dy = b.x - a.x, b.y - a.y
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    inside = _to_edge(ux, uy)
    mid = (inside + d - inside) / 2 if d > 2 * inside else d / 2
    signs = list(obstacles)
    for k, obstacle in enumerate(signs):
        t = mid + (k - (len(signs) - 1) / 2) * 14
        out.append(_obstacle_sign(obstacle, a.x + ux * t, a.y + uy * t))
    out.append("</g>")
    return "".join(out)


def _to_edge(ux: float, uy: float, pad: float = 0.0) -> float:
    """How far a line leaving a province's centre along (ux, uy) runs inside its box."""
    return min(
        (NODE_W / 2 + pad) / abs(ux) if ux else math.inf,
        (NODE_H / 2 + pad) / abs(uy) if uy else math.inf,
    )


def _obstacle_sign(obstacle: str, cx: float, cy: float) -> str:
    back = f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="6.5" fill="#fff" stroke="#999" stroke-width="0.6"/>'
    if obstacle == "mountains":
        return back + (
            f'<polygon points="{cx - 4.5:.1f},{cy + 3:.1f} {cx:.1f},{cy - 4:.1f} '
            f'{cx + 4.5:.1f},{cy + 3:.1f}" fill="#8c5a2b"/>'
        )
    if obstacle == "water":
        return back + (
            f'<path d="M{cx - 4.5:.1f},{cy - 1:.1f} q2.25,-2.5 4.5,0 t4.5,0 '
            f'M{cx - 4.5:.1f},{cy + 2.5:.1f} q2.25,-2.5 4.5,0 t4.5,0" fill="none" '
            'stroke="#2f7fb5" stroke-width="1.3"/>'
        )
    if obstacle == "great_wall":
        x, y = cx - 4.5, cy - 1
        return back + (
            f'<path d="M{x:.1f},{cy + 3.5:.1f} V{y:.1f} h1.5 v-2.5 h1.5 v2.5 h1.5 v-2.5 '
            f'h1.5 v2.5 h1.5 v-2.5 h1.5 V{cy + 3.5:.1f} Z" fill="#6b2a1a"/>'
        )
    return ""


def _markers(markers: Mapping[str, int], right: float, y: float) -> str:
    out = []
    x = right
    for kind in reversed(list(markers)):
        n = int(markers[kind])
        if not n:
            continue
        letter, fill = MARKER.get(kind, (kind[:1].upper(), "#555"))
        label = letter if n == 1 else f"{letter}{n}"
        w = 11.0 + 6.0 * (len(label) - 1)
        x -= w + 2
        out.append(
            f'<g class="marker {esc(kind)}"><title>{esc(kind)} × {n}</title>'
            f'<rect x="{x:.1f}" y="{y - 6:.1f}" width="{w:.1f}" height="12" rx="2" '
            f'fill="{fill}"/>'
            + text(x + w / 2, y + 3.5, label, 10, fill="#fff", font_weight="bold")
            + "</g>"
        )
    return "".join(out)


def _province(
    place: Place,
    prov: Mapping[str, Any],
    tags: Sequence[str],
    targeted: bool,
    _: Callable[[str], str],
) -> str:
    x, y = place.x - NODE_W / 2, place.y - NODE_H / 2
    owner = prov.get("owner")
    influence = prov.get("influence")
    units = int(prov.get("units") or 0)
    if owner is not None:
        fill, opacity, dash = seat_colour(owner), "0.22", ""
    elif influence is not None:
        fill, opacity, dash = seat_colour(influence), "0.08", ' stroke-dasharray="4 3"'
    else:
        fill, opacity, dash = "#ffffff", "1", ""
    out = [
        f'<g class="province" id="province-{esc(place.pid)}">',
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{NODE_W:.1f}" height="{NODE_H:.1f}" rx="7" '
        f'fill="#fff" stroke="none"/>',
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{NODE_W:.1f}" height="{NODE_H:.1f}" rx="7" '
        f'fill="{fill}" fill-opacity="{opacity}" stroke="{INK}" stroke-width="1.2"{dash}/>',
    ]
    if targeted:
        out.append(
            f'<rect class="target" x="{x - 3:.1f}" y="{y - 3:.1f}" width="{NODE_W + 6:.1f}" '
            f'height="{NODE_H + 6:.1f}" rx="9" fill="none" stroke="{TARGET}" stroke-width="3"/>'
        )
    out.append(text(place.x, y + 15, place.name, 14, font_weight="bold"))
    row = y + 38
    if owner is not None:
        out.append(seat_marker(owner, x + 16, row - 5, 11))
        out.append(
            f'<text class="units" x="{x + 31:.1f}" y="{row + 1:.1f}" font-size="18" '
            f'text-anchor="start" fill="{INK}" font-weight="bold">×{units}</text>'
        )
    elif influence is not None:
        out.append(
            f'<g opacity="0.75">{seat_marker(influence, x + 14, row - 4, 8)}</g>'
            + text(x + 26, row, _("infl."), 12, anchor="start", font_style="italic")
        )
    else:
        out.append(text(x + 8, row, _("empty"), 12, anchor="start", fill="#777"))
    out.append(_markers(prov.get("markers") or {}, x + NODE_W - 4, row - 4))
    for k, tag in enumerate(tags):
        tw = 7.0 * len(tag) + 8
        tx = x + NODE_W - tw + 4
        ty = y - 11 - k * 14
        out.append(
            f'<rect x="{tx:.1f}" y="{ty:.1f}" width="{tw:.1f}" height="13" rx="3" '
            f'fill="{INK}"/>' + text(tx + tw / 2, ty + 10, tag, 10, fill="#fff")
        )
    out.append("</g>")
    return "".join(out)


def _battle_arrow(a: Place, b: Place, attacker: int | None) -> str:
    colour = seat_colour(attacker) if attacker is not None else INK
    dx, dy = b.x - a.x, b.y - a.y
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d

    # From box edge to box edge, so the head is not hidden under the province.
    reach = _to_edge(ux, uy, 4)
    sx, sy = a.x + ux * reach, a.y + uy * reach
    ex, ey = b.x - ux * reach, b.y - uy * reach
    hx, hy = ex - ux * 10, ey - uy * 10
    px, py = -uy * 6, ux * 6
    return (
        '<g class="battle">'
        f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{hx:.1f}" y2="{hy:.1f}" stroke="{INK}" '
        'stroke-width="7" stroke-linecap="round"/>'
        f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{hx:.1f}" y2="{hy:.1f}" stroke="{colour}" '
        'stroke-width="4" stroke-linecap="round"/>'
        f'<polygon points="{ex:.1f},{ey:.1f} {hx + px:.1f},{hy + py:.1f} '
        f'{hx - px:.1f},{hy - py:.1f}" fill="{colour}" stroke="{INK}" stroke-width="1"/>'
        "</g>"
    )


def _legend(y: float, _: Callable[[str], str]) -> str:
    """Two rows: the borders by obstacle, then the markers and the influence box."""
    out = ['<g class="legend">']
    x = MARGIN
    for key in ("normal", "water", "mountains", "great_wall"):
        out.append(
            f'<line x1="{x:.1f}" y1="{y - 4:.1f}" x2="{x + 30:.1f}" y2="{y - 4:.1f}" '
            f"{BORDER_STYLE[key]}/>"
        )
        if key != "normal":
            out.append(_obstacle_sign(key, x + 15, y - 4))
        label = _(OBSTACLE_NAME[key] + ("" if key in ("normal", "great_wall") else " border"))
        out.append(text(x + 35, y, label, 12, anchor="start"))
        x += 48 + 6.6 * len(label)
    y += 20
    x = MARGIN
    for kind, (letter, fill) in MARKER.items():
        label = _(kind) + " " + _("marker")
        out.append(
            f'<rect x="{x:.1f}" y="{y - 10:.1f}" width="12" height="13" rx="2" fill="{fill}"/>'
            + text(x + 6, y, letter, 10.5, fill="#fff", font_weight="bold")
            + text(x + 16, y, label, 12, anchor="start")
        )
        x += 30 + 6.6 * len(label)
    out.append(
        f'<rect x="{x:.1f}" y="{y - 11:.1f}" width="22" height="14" rx="3" fill="#fff" '
        f'stroke="{INK}" stroke-dasharray="4 3"/>'
        + text(x + 27, y, _("dashed: influenced"), 12, anchor="start")
    )
    out.append("</g>")
    return "".join(out)


def _card(x: float, y: float, face: str | None, sub: str, w: float = 74, h: float = 34) -> str:
    """A yang card: its kind face up, or its back (a count only) when `face` is None."""
    if face is None:
        return (
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="4" '
            f'fill="#7a1f1f" stroke="{INK}"/>'
            f'<rect x="{x + 3:.1f}" y="{y + 3:.1f}" width="{w - 6:.1f}" height="{h - 6:.1f}" '
            'rx="3" fill="none" stroke="#e8c170" stroke-width="1"/>'
            + text(x + w / 2, y + h / 2 + 5, sub, 14, fill="#fff", font_weight="bold")
        )
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="4" fill="#fff" '
        f'stroke="#c89b2c" stroke-width="1.5"/>'
        + text(x + w / 2, y + 14, face, 11.5, font_weight="bold")
        + text(x + w / 2, y + 28, sub, 10, fill="#555")
    )


def _kinds(d: Mapping[str, int] | None) -> str:
    items = [f"{k} {n}" for k, n in (d or {}).items() if n]
    return ", ".join(items) if items else "none"


def _seat_rows(
    body: Mapping[str, Any],
    viewer: int | None,
    to_move: object,
    on_seat: Mapping[int, list[str]],
    y: float,
    names: Sequence[str],
    _: Callable[[str], str],
) -> tuple[list[str], set[str], float]:
    """A row a seat: its piece, whose turn, status, score, provinces, units, supply and
    yang cards (backs for others, a count for the viewer, whose cards are shown below);
    a merger offer to a seat is made by clicking its row."""
    parts: list[str] = []
    placed: set[str] = set()
    turn_player = body.get("turn_player")
    cols = (
        (MARGIN + 4, _("seat"), "start"),
        (200, _("status"), "start"),
        (318, _("score"), "end"),
        (376, _("prov."), "end"),
        (430, _("units"), "end"),
        (490, _("supply"), "end"),
        (500, _("yang cards"), "start"),
    )
    for cx, title, anchor in cols:
        parts.append(text(cx, y + 12, title, 11, anchor=anchor, fill="#555"))
    y += 18
    for p in body.get("players", []):
        seat = int(p["seat"])
        row: list[str] = []
        if seat == viewer:
            row.append(
                f'<rect x="4" y="{y:.1f}" width="{WIDTH - 8:.1f}" height="{ROW_H - 2:.1f}" rx="5" '
                f'fill="{seat_colour(seat)}" fill-opacity="0.12" stroke="{seat_colour(seat)}"/>'
            )
        else:
            row.append(
                f'<rect x="4" y="{y:.1f}" width="{WIDTH - 8:.1f}" height="{ROW_H - 2:.1f}" rx="5" '
                'fill="#fff" fill-opacity="0.6" stroke="#ddd"/>'
            )
        mid = y + ROW_H / 2
        row.append(seat_marker(seat, MARGIN + 14, mid - 1, 9))
        who = seat_name(names, seat)
        flags = []
        if seat == viewer:
            flags.append(_("you"))
        if seat == turn_player and body.get("phase") != "end":
            flags.append("▶ " + _("turn"))
        if to_move == seat and seat != turn_player:
            flags.append(_("to move"))
        row.append(text(MARGIN + 30, mid + 4, who, 14, anchor="start", font_weight="bold"))
        if flags:
            row.append(text(MARGIN + 56, mid + 4, " · ".join(flags), 11.5, anchor="start"))
        status = _(str(p.get("status", "")))
        if p.get("senior") is not None and p.get("senior") != seat:
            status += f" {_('of')} {seat_name(names, int(p['senior']))}"
        if p.get("claim"):
            status += " · " + _("claims 15")
        row.append(text(200, mid + 4, status, 11.5, anchor="start"))
        row.append(text(318, mid + 5, p.get("score", 0), 15, anchor="end", font_weight="bold"))
        row.append(text(376, mid + 4, p.get("provinces", 0), 13, anchor="end"))
        row.append(text(430, mid + 4, p.get("units", 0), 13, anchor="end"))
        row.append(text(490, mid + 4, p.get("supply", 0), 13, anchor="end"))
        count = int(p.get("yang_cards") or 0)
        shown = {k: int(v) for k, v in (p.get("shown_cards") or {}).items() if v}
        hidden = count - sum(shown.values())
        cx = 500.0
        if seat != viewer and hidden > 0:
            row.append(_card(cx, y + 3, None, f"×{hidden}", 34, ROW_H - 8))
            cx += 38
        elif seat != viewer and not shown:
            row.append(text(cx, mid + 4, "–", 13, anchor="start"))
        elif seat == viewer:
            row.append(text(cx, mid + 4, f"{count} " + _("(below)"), 11.5, anchor="start"))
            cx = WIDTH
        for kind, n in shown.items():
            if seat == viewer or cx > WIDTH - 40:
                break
            row.append(text(cx, mid + 4, f"{kind} {n}", 10.5, anchor="start", fill="#444"))
            cx += 8 + 6 * len(f"{kind} {n}")
        drawn = "".join(row)
        offers = on_seat.get(seat, [])
        if offers:
            drawn = spot(offers, drawn, f"{who}: " + _("offer a merger"))
            placed.update(offers)
        parts.append(f'<g class="seat-row seat{seat}">{drawn}</g>')
        y += ROW_H

    return parts, placed, y


def _hand(body: Mapping[str, Any], y: float, _: Callable[[str], str]) -> tuple[str, float]:
    """The viewer's own yang cards face up, the one just drawn among them."""
    parts = [
        text(MARGIN, y + 12, _("Your yang cards"), 13, anchor="start", font_weight="bold"),
        '<g class="hand">',
    ]
    y += 20
    hand = {k: int(v) for k, v in (body.get("my_cards") or {}).items() if v}
    fresh = body.get("my_fresh_yang")
    cards = [
        (_(k), _(CARD_GROUP.get(k, "yang")) + (f" ×{n}" if n > 1 else "")) for k, n in hand.items()
    ]
    if fresh:
        cards.append((_(str(fresh)), _("just drawn")))
    cx = MARGIN
    for face, sub in cards:
        if cx > WIDTH - 80:
            cx = MARGIN
            y += 40
        parts.append(_card(cx, y, face, sub))
        cx += 80
    if not cards:
        parts.append(text(MARGIN, y + 20, _("none"), 12, anchor="start"))
    parts.append("</g>")
    return "".join(parts), y + 44


def render(board: BoardInput) -> Board:
    _ = board.gettext
    body = board.body
    viewer = board.seat
    printed, borders = printed_map(board.layout)
    where = _where(printed, borders)
    provinces = {p["id"]: p for p in body.get("provinces", [])}

    def name_of(pid: str) -> str:
        return where[pid].name if pid in where else pid

    # Each action goes to the one province it leads into, or to the row of a seat.
    on_province: dict[str, list[str]] = {}
    parsed_on: dict[str, list[Parsed]] = {}
    on_seat: dict[int, list[str]] = {}
    n_seats = len(body.get("players", []))
    for action in board.legal:
        p = parse(action)
        if p.target is not None and p.target in where and p.target in provinces:
            if p.source is not None and p.source not in where:
                continue
            on_province.setdefault(p.target, []).append(action)
            parsed_on.setdefault(p.target, []).append(p)
        elif p.kind == "merge" and p.seat is not None and 0 <= p.seat < n_seats:
            on_seat.setdefault(p.seat, []).append(action)
    placed: set[str] = set()

    parts: list[str] = []
    head = f"{_('Emperor of China')} · {_('turn')} {body.get('turn')} {_('of')} {body.get('turns')}"
    head += f" · {_(str(body.get('phase', '')))}"
    parts.append(text(MARGIN, 22, head, 16, anchor="start", font_weight="bold"))
    names = board.names
    asked = prompt(body, names, name_of, _)
    parts.append(
        text(MARGIN, 42, asked, 13, anchor="start", font_style="italic", **{"class": "prompt"})
    )
    if viewer is not None:
        parts.append(
            f'<g class="you">{seat_marker(viewer, WIDTH - 78, 17, 8)}'
            + text(
                WIDTH - 64,
                22,
                _("you are {seat}").format(seat=seat_name(names, viewer)),
                12,
                anchor="start",
            )
            + "</g>"
        )
    else:
        parts.append(text(WIDTH - MARGIN, 22, _("spectator"), 12, anchor="end"))

    # Map frame, borders under the provinces.
    parts.append(
        f'<rect x="4" y="{MAP_TOP - 4:.1f}" width="{WIDTH - 8:.1f}" height="{MAP_HEIGHT + 8:.1f}" '
        'rx="8" fill="#eef3f7" stroke="#c9d3da"/>'
    )
    if printed:
        parts.append(_border_layer(printed, borders))
    battle = body.get("battle")
    if battle and battle.get("from") in where and battle.get("to") in where:
        parts.append(
            _battle_arrow(where[battle["from"]], where[battle["to"]], battle.get("attacker"))
        )

    moved = body.get("moved") or []
    order = list(provinces)
    for pid in (pid for pid in where if pid in provinces):
        prov = provinces[pid]
        tags: list[str] = []
        if body.get("yang_at") == pid:
            tags.append(_("yang"))
        if body.get("yin_at") == pid:
            card = body.get("yin_card")
            tags.append(_("yin") + (f": {_(str(card))}" if card else ""))
        if battle and battle.get("to") == pid:
            tags.append(_("attacked"))
        if battle and battle.get("from") == pid:
            tags.append(_("attacking"))
        i = order.index(pid)
        if i < len(moved) and moved[i] and body.get("phase") == "movement":
            tags.append(f"{moved[i]} " + _("moved"))
        actions = on_province.get(pid, [])
        inner = _province(where[pid], prov, tags, bool(actions), _)
        if actions:
            owner = prov.get("owner")
            state = (
                f"{seat_name(names, owner)} ×{prov.get('units')}"
                if owner is not None
                else _("empty")
            )
            label = f"{where[pid].name} ({state}): " + describe(parsed_on[pid], name_of, body, _)
            parts.append(spot(actions, inner, label))
            placed.update(actions)
        else:
            parts.append(inner)

    y = MAP_TOP + MAP_HEIGHT + 22
    parts.append(_legend(y, _))

    y += 36
    rows, offered, y = _seat_rows(body, viewer, board.view.get("to_move"), on_seat, y, names, _)
    parts += rows
    placed |= offered
    if viewer is not None:
        drawn, y = _hand(body, y + 10, _)
        parts.append(drawn)
    y += 10

    # Public matters: decks, this turn's cards, the battle and a merger awaiting its answer.
    lines: list[str] = []
    fresh_line = ""
    if body.get("yang_drawn") and not body.get("my_fresh_yang"):
        fresh_line = " · " + _("a yang card is drawn, face down")
    lines.append(
        f"{_('Yang deck')}: {body.get('yang_deck', 0)} {_('left')} · {_('out of play')}: "
        f"{_kinds(body.get('yang_out'))}{fresh_line}"
    )
    lines.append(f"{_('Yin deck')}: {_kinds(body.get('yin_deck'))}")
    lines.append(f"{_('Markers left')}: {_kinds(body.get('markers_left'))}")
    if battle:
        defender = battle.get("defender")
        lines.append(
            _("Battle: {seat} attacks {province} from {source}").format(
                seat=seat_name(names, int(battle["attacker"])),
                province=name_of(battle["to"]),
                source=name_of(battle["from"]),
            )
            + (
                ", " + _("defended by {seat}").format(seat=seat_name(names, int(defender)))
                if defender is not None
                else ""
            )
        )
    merge = body.get("merge_pending")
    if merge:
        lines.append(
            _("Merger: {junior} joins the state of {senior} after this turn").format(
                junior=seat_name(names, int(merge["junior"])),
                senior=seat_name(names, int(merge["senior"])),
            )
        )
    returns = body.get("returns")
    if returns:
        lines.append(
            f"{_('Result')}: "
            + ", ".join(f"{seat_name(names, i)} {float(r):+g}" for i, r in enumerate(returns))
        )
    for line in lines:
        parts.append(text(MARGIN, y + 12, line, 12, anchor="start"))
        y += 18
    height = y + 10
    return Board(document(WIDTH, height, parts, _("Emperor of China")), placed)
