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
    initials,
    readable,
    seat_colour,
    seat_marker,
    seat_name,
    spot,
    tappable,
    text_width,
    wrap,
)
from tianxia.web.i18n import N_, ngettext_of

# As wide as a phone shows it, one unit a CSS pixel there: text of 12 or more reads and a
# tap target of 44 or more takes a finger (a desk shows it larger, never smaller).
WIDTH = 390.0
FONT = readable(WIDTH)
TAP = tappable(WIDTH)
DESK_WIDTH = 580.0  # CSS px: the widest the board is shown
MARGIN = 6.0
PROMPT_LINES = 3
MAP_TOP = 30.0 + 17.0 * PROMPT_LINES
NODE_W = 82.0
NODE_H = 50.0
TAG_H = 8.0  # room over a province for the yang or yin card lying there
YANG_FILL = "#e8c170"
YIN_FILL = "#5b2a86"
GAP = 12.0  # the least room between two provinces, so a border stays visible between them
STRETCH = 2.0  # the map taller than the land: a phone scrolls down, not sideways
ROW_H = 50.0
BORDER_SEEN = 26.0  # the least length of a border left visible between two neighbours

# Line styles by the strongest obstacle: each has its own dash as well as its colour.
BORDER_STYLE = {
    "normal": 'stroke="#8d8d8d" stroke-width="2"',
    "water": 'stroke="#5fa8d3" stroke-width="3.5" stroke-dasharray="8 4"',
    "mountains": 'stroke="#8c5a2b" stroke-width="3.5" stroke-dasharray="2 3"',
    "great_wall": 'stroke="#6b2a1a" stroke-width="6" stroke-dasharray="5 2"',
}
OBSTACLE_NAME = {
    "normal": N_("open border"),
    "water": N_("water"),
    "mountains": N_("mountains"),
    "great_wall": N_("Great Wall"),
}
# The kinds of yang and yin cards the rules write as identifiers, in words.
KIND_NAME = {"great_wall": N_("Great Wall")}
STATUS = {
    "active": N_("active"),
    "waiting": N_("waiting"),
    "junior": N_("junior"),
    "eliminated": N_("eliminated"),
}
MARKER_NAME = {
    "city": N_("city marker"),
    "mine": N_("mine marker"),
    "agriculture": N_("agriculture marker"),
}
LEGEND_BORDER = {
    "normal": N_("open border"),
    "water": N_("water border"),
    "mountains": N_("mountains border"),
    "great_wall": N_("Great Wall"),
}
VERB = {"colonise": N_("colonise"), "attack": N_("attack")}
CARD_W = 88.0
CARD_H = 44.0
MARKER = {  # English letter (the reader's comes from the marker's name), fill
    "city": ("C", "#c0392b"),
    "mine": ("M", "#6d6d6d"),
    "agriculture": ("A", "#2e8b3a"),
}
CARD_GROUP = {
    "city": N_("economy"),
    "mine": N_("economy"),
    "agriculture": N_("economy"),
    "water": N_("attack"),
    "mountains": N_("attack"),
    "great_wall": N_("attack"),
    "hunger": N_("defence"),
    "flood": N_("defence"),
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

    The board is as narrow as a phone, so the map keeps its width and grows downwards:
    boxes that overlap are parted, sideways while the frame has room, else up and down,
    always the same way; neighbours also keep enough of their border in sight to show its
    obstacles.
    """
    lat0 = sum(p[3] for p in printed) / len(printed)
    squeeze = math.cos(math.radians(lat0))
    raw = {pid: (lon * squeeze, -lat) for pid, _, lon, lat in printed}
    x0 = min(x for x, _ in raw.values())
    x1 = max(x for x, _ in raw.values())
    y0 = min(y for _, y in raw.values())
    inner_w = WIDTH - 2 * MARGIN - NODE_W
    scale = inner_w / max(1e-9, x1 - x0)
    pos = {pid: [(x - x0) * scale, (y - y0) * scale * STRETCH] for pid, (x, y) in raw.items()}
    ids = [p[0] for p in printed]
    need_x, need_y = NODE_W + GAP, NODE_H + GAP

    def clamp(p: list[float]) -> None:
        p[0] = min(inner_w, max(0.0, p[0]))

    for _ in range(200):
        moved = False
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                pa, pb = pos[a], pos[b]
                dx, dy = pb[0] - pa[0], pb[1] - pa[1]
                over_x, over_y = need_x - abs(dx), need_y - abs(dy)
                if over_x <= 0 or over_y <= 0:
                    continue
                moved = True
                sign_x = 1.0 if dx > 0 or (dx == 0 and a < b) else -1.0
                step_x = over_x / 2 + 0.5
                room = all(
                    0.0 <= p[0] + k * sign_x * step_x <= inner_w for p, k in ((pa, -1), (pb, 1))
                )
                # Part along the axis that needs the shorter push, if the frame allows.
                if room and over_x * need_y < over_y * need_x:
                    pa[0] -= sign_x * step_x
                    pb[0] += sign_x * step_x
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
                clamp(pa)
                clamp(pb)
        if not moved:
            break
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    ox = MARGIN + NODE_W / 2 + (inner_w - (max(xs) - min(xs))) / 2 - min(xs)
    oy = MAP_TOP + MARGIN + NODE_H / 2 + TAG_H - min(ys)
    return {
        pid: Place(pid, name, ox + pos[pid][0], oy + pos[pid][1]) for pid, name, _, _ in printed
    }


def map_height(where: Mapping[str, Place]) -> float:
    """From the map's top to below its lowest province."""
    return max(p.y for p in where.values()) + NODE_H / 2 + MARGIN - MAP_TOP if where else 0.0


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
def _border_layer(printed: Printed, borders: Borders, _: Callable[[str], str]) -> str:
    where = _where(printed, borders)
    return "".join(
        _border(where[a], where[b], obstacles, strongest, _)
        for a, b, obstacles, strongest in borders
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
    viewer: int | None = None,
) -> str:
    """The decision awaited, in the viewer's language, naming seats as the board does.

    The observation's `pending` is the engine's English; this says the same from the
    observation's fields, so it can be translated and names the players by name. Only the
    seat that decides is told "your": everyone else reads whose provinces they are.
    """
    phase = str(body.get("phase", ""))
    mover = body.get("current_player")
    deciding = isinstance(mover, int) and mover >= 0 and mover == viewer
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
            if not deciding:
                return _("{seat} places the new units in one of their provinces").format(seat=who)
            return _("{seat}: place the new units in one of your provinces").format(seat=who)
        return _("{seat}: place a unit from the marker in {province} or a neighbour").format(
            seat=who, province=name_of(str(due))
        )
    if phase == "colonisation":
        return _("{seat}: colonise empty neighbours with 3 units each, or be done").format(seat=who)
    if phase == "movement":
        if not deciding:
            return _("{seat} moves units one border into their own provinces, or is done").format(
                seat=who
            )
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
        if not deciding:
            return _("{seat} puts their face-down yang card on a province").format(seat=who)
        return _("{seat}: put your face-down yang card on a province").format(seat=who)
    if phase == "assign yin":
        if not deciding:
            return _("{seat} puts their face-down yin card on one of their provinces").format(
                seat=who
            )
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


def _border(
    a: Place, b: Place, obstacles: Sequence[str], strongest: str, _: Callable[[str], str]
) -> str:
    style = BORDER_STYLE.get(strongest, BORDER_STYLE["normal"])
    what = ", ".join(_(OBSTACLE_NAME.get(o, o)) for o in obstacles) or _(OBSTACLE_NAME["normal"])
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


def _marker_labels(markers: Mapping[str, int], _: Callable[[str], str]) -> list[tuple[str, str]]:
    """(kind, label) of each marker lying on a province, right to left: its letter in the
    reader's language (stad S, mijn M, landbouw L) and, for more than one, the count."""
    letters = initials({k: _(MARKER_NAME[k]) for k in MARKER})
    out = []
    for kind in reversed(list(markers)):
        n = int(markers[kind])
        if n:
            letter = letters.get(kind, kind[:1].upper())
            out.append((kind, letter if n == 1 else f"{letter}{n}"))
    return out


def _marker_w(label: str) -> float:
    return 13.0 + 7.0 * (len(label) - 1)


def _markers(markers: Mapping[str, int], right: float, y: float, _: Callable[[str], str]) -> str:
    out = []
    x = right
    for kind, label in _marker_labels(markers, _):
        n = int(markers[kind])
        fill = MARKER[kind][1] if kind in MARKER else "#555"
        w = _marker_w(label)
        x -= w + 2
        out.append(
            f'<g class="marker {esc(kind)}"><title>{esc(_(MARKER_NAME.get(kind, kind)))} × {n}'
            f'</title><rect x="{x:.1f}" y="{y - 8:.1f}" width="{w:.1f}" height="15" rx="2" '
            f'fill="{fill}"/>'
            + text(x + w / 2, y + 4, label, FONT, fill="#fff", font_weight="bold")
            + "</g>"
        )
    return "".join(out)


def _province(
    place: Place,
    prov: Mapping[str, Any],
    tags: Sequence[str],
    targeted: bool,
    names: Sequence[str],
    recent: bool,
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
    cls = "province recent" if recent else "province"
    out = [
        f'<g class="{cls}" id="em-province-{esc(place.pid)}">',
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{NODE_W:.1f}" height="{NODE_H:.1f}" rx="7" '
        f'fill="#fff" stroke="none"/>',
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{NODE_W:.1f}" height="{NODE_H:.1f}" rx="7" '
        f'fill="{fill}" fill-opacity="{opacity}" stroke="{INK}" stroke-width="1.2"{dash}/>',
    ]
    if targeted:
        out.append(
            f'<rect class="target" x="{x - 2:.1f}" y="{y - 2:.1f}" width="{NODE_W + 4:.1f}" '
            f'height="{NODE_H + 4:.1f}" rx="9" fill="none" stroke="{TARGET}" stroke-width="3"/>'
        )
    # A long name ("Kwangtung") a little smaller, inside its box (bold letters take
    # about 0.68 em); never under the 12 px a phone can read.
    name_size = max(12.0, min(13.5, (NODE_W - 8) / (0.68 * len(place.name))))
    out.append(text(place.x, y + 17, place.name, round(name_size, 1), font_weight="bold"))
    row = y + 38
    markers: Mapping[str, int] = prov.get("markers") or {}
    marker_row = row - 3
    if owner is not None:
        # The count and the markers share the row: the count gives way (down to 12 px,
        # as the fonts set "×" and digits: 0.84 and 0.70 em in bold), and where even that
        # is too wide the markers sit on the box's lower edge instead.
        room = NODE_W - 3 - sum(_marker_w(lb) + 2 for _k, lb in _marker_labels(markers, _))
        room -= 25 + 3
        em = 0.84 + 0.70 * len(str(units))
        size = min(17.0, room / em)
        if size < 12:
            size, marker_row = 17.0, y + NODE_H + 2
        out.append(seat_marker(owner, x + 13, row - 4, 9, size=FONT))
        out.append(
            f'<text class="units" x="{x + 25:.1f}" y="{row + 2:.1f}" font-size="{size:.3g}" '
            f'text-anchor="start" fill="{INK}" font-weight="bold">×{units}</text>'
        )
    elif influence is not None:
        out.append(
            f'<g opacity="0.75">{seat_marker(influence, x + 12, row - 4, 8, size=FONT)}</g>'
            + text(x + 23, row + 1, _("infl."), FONT, anchor="start", font_style="italic")
        )
    else:
        out.append(text(x + 7, row + 1, _("empty"), FONT, anchor="start", fill="#666"))
    out.append(_markers(markers, x + NODE_W - 3, marker_row, _))
    # The yang and yin cards lying there: small cards on the box's corners (no words on
    # the map, where a label would run into the neighbours; the lines below name them).
    if "yang" in tags:
        out.append(_lying_card(x - 4, y - 7, YANG_FILL))
    if "yin" in tags:
        out.append(_lying_card(x + NODE_W - 8, y - 7, YIN_FILL))
    out.append("</g>")
    return "".join(out)


def _lying_card(x: float, y: float, fill: str) -> str:
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="12" height="16" rx="2" fill="{fill}" '
        f'stroke="{INK}" stroke-width="1"/>'
    )


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


def _legend(y: float, _: Callable[[str], str]) -> tuple[str, float]:
    """The borders by obstacle, the markers and the influence box, in words, as many to a
    row as the width allows."""
    items: list[tuple[float, str, str]] = []  # (width of the symbol, symbol at 0,0, words)
    for key in ("normal", "water", "mountains", "great_wall"):
        sign = f'<line x1="0" y1="-4" x2="30" y2="-4" {BORDER_STYLE[key]}/>' + (
            "" if key == "normal" else _obstacle_sign(key, 15, -4)
        )
        items.append((30, sign, _(LEGEND_BORDER[key])))
    letters = initials({k: _(MARKER_NAME[k]) for k in MARKER})
    for kind, (_letter, fill) in MARKER.items():
        sign = f'<rect x="0" y="-11" width="14" height="15" rx="2" fill="{fill}"/>' + text(
            7, 1, letters[kind], FONT, fill="#fff", font_weight="bold"
        )
        items.append((14, sign, _(MARKER_NAME[kind])))
    sign = (
        f'<rect x="0" y="-11" width="22" height="14" rx="3" fill="#fff" stroke="{INK}" '
        'stroke-dasharray="4 3"/>'
    )
    items.append((22, sign, _("dashed: influenced, not held")))
    items.append((12, _lying_card(0, -12, YANG_FILL), _("the yang card lies here")))
    items.append((12, _lying_card(0, -12, YIN_FILL), _("the yin card lies here")))
    arrow = (
        f'<line x1="0" y1="-4" x2="20" y2="-4" stroke="{INK}" stroke-width="5"/>'
        f'<polygon points="28,-4 19,-9 19,1" fill="{INK}"/>'
    )
    items.append((28, arrow, _("an attack under way")))
    out = [
        '<g class="legend" id="em-legend">',
        text(MARGIN, y, _("Legend"), FONT, "start", font_weight="bold"),
    ]
    y += 20
    x = MARGIN
    for w, sign, words in items:
        need = w + 6 + text_width(words, FONT)
        if x > MARGIN and x + need > WIDTH - MARGIN:
            x = MARGIN
            y += 20
        out.append(f'<g transform="translate({x:.1f},{y:.1f})">{sign}</g>')
        out.append(text(x + w + 5, y, words, FONT, anchor="start"))
        x += need + 14
    out.append("</g>")
    return "".join(out), y + 10


def _card(
    x: float, y: float, face: str | None, sub: str, w: float = CARD_W, h: float = CARD_H
) -> str:
    """A yang card: its kind face up, or its back (a count only) when `face` is None."""
    if face is None:
        return (
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="4" '
            f'fill="#7a1f1f" stroke="{INK}"/>'
            f'<rect x="{x + 3:.1f}" y="{y + 3:.1f}" width="{w - 6:.1f}" height="{h - 6:.1f}" '
            'rx="3" fill="none" stroke="#e8c170" stroke-width="1"/>'
            + text(x + w / 2, y + h / 2 + 5, sub, 13, fill="#fff", font_weight="bold")
        )
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="4" fill="#fff" '
        f'stroke="#c89b2c" stroke-width="1.5"/>'
        + text(x + w / 2, y + 17, face, 13, font_weight="bold")
        + text(x + w / 2, y + 34, sub, FONT, fill="#555")
    )


def _kinds(d: Mapping[str, int] | None, _: Callable[[str], str]) -> str:
    items = [f"{_(KIND_NAME.get(k, k))} {n}" for k, n in (d or {}).items() if n]
    return ", ".join(items) if items else _("none")


def _seat_rows(
    body: Mapping[str, Any],
    viewer: int | None,
    to_move: object,
    on_seat: Mapping[int, list[str]],
    y: float,
    names: Sequence[str],
    recent: set[int],
    _: Callable[[str], str],
) -> tuple[list[str], set[str], float]:
    """Two lines a seat: its piece, name, whose turn and status; then score, provinces,
    units, supply and yang cards (backs for others, a count for the viewer, whose cards
    are shown below). A merger offer to a seat is made by clicking its row."""
    parts: list[str] = []
    placed: set[str] = set()
    turn_player = body.get("turn_player")
    for p in body.get("players", []):
        seat = int(p["seat"])
        row: list[str] = []
        colour = seat_colour(seat)
        if seat == viewer:
            back = f'fill="{colour}" fill-opacity="0.12" stroke="{colour}"'
        else:
            back = 'fill="#fff" fill-opacity="0.6" stroke="#ccc"'
        row.append(
            f'<rect x="{MARGIN:.1f}" y="{y:.1f}" width="{WIDTH - 2 * MARGIN:.1f}" '
            f'height="{ROW_H - 4:.1f}" rx="5" {back}/>'
        )
        top = y + 18
        row.append(seat_marker(seat, MARGIN + 14, top - 5, 9, size=FONT))
        who = seat_name(names, seat)
        flags = []
        if seat == viewer:
            flags.append(_("you"))
        if seat == turn_player and body.get("phase") != "end":
            flags.append(_("on turn"))
        if to_move == seat and seat != turn_player:
            flags.append(_("to decide"))
        status = _(STATUS.get(str(p.get("status", "")), str(p.get("status", ""))))
        if p.get("senior") is not None and p.get("senior") != seat:
            status = _("junior partner of {seat}").format(seat=seat_name(names, int(p["senior"])))
        if p.get("claim"):
            status += " · " + _("claims 15")
        line = " · ".join([who, *flags, status])
        row.append(text(MARGIN + 28, top, line, 13, anchor="start", font_weight="bold"))
        count = int(p.get("yang_cards") or 0)
        shown = {k: int(v) for k, v in (p.get("shown_cards") or {}).items() if v}
        hidden = count - sum(shown.values())
        ngettext = ngettext_of(_)
        score, units = int(p.get("score", 0)), int(p.get("units", 0))
        facts = " · ".join(
            [
                ngettext("{n} point", "{n} points", score).format(n=score),
                _("{provinces} prov.").format(provinces=p.get("provinces", 0)),
                ngettext("{n} unit", "{n} units", units).format(n=units),
                _("supply {supply}").format(supply=p.get("supply", 0)),
            ]
        )
        lines = [facts]
        if seat != viewer and shown:
            cards = ", ".join(f"{_(KIND_NAME.get(k, k))} {n}" for k, n in shown.items())
            lines.append(_("shown yang cards: {cards}").format(cards=cards))
        for k, line in enumerate(lines):
            row.append(text(MARGIN + 28, top + 19 + 17 * k, line, FONT, anchor="start"))
        if seat != viewer and hidden > 0:
            row.append(_card(WIDTH - MARGIN - 40, y + 5, None, f"×{hidden}", 34, ROW_H - 14))
        height = ROW_H + 17 * (len(lines) - 1)
        row[0] = (
            f'<rect x="{MARGIN:.1f}" y="{y:.1f}" width="{WIDTH - 2 * MARGIN:.1f}" '
            f'height="{height - 4:.1f}" rx="5" {back}/>'
        )
        drawn = "".join(row)
        offers = on_seat.get(seat, [])
        if offers:
            drawn = spot(offers, drawn, _("{seat}: offer a merger").format(seat=who))
            placed.update(offers)
        cls = f"seat-row seat{seat}" + (" recent" if seat in recent else "")
        parts.append(f'<g class="{cls}" id="em-seat-{seat}">{drawn}</g>')
        y += height
    return parts, placed, y


def _hand(body: Mapping[str, Any], y: float, _: Callable[[str], str]) -> tuple[str, float]:
    """The viewer's own yang cards face up, the one just drawn among them."""
    parts = [
        text(MARGIN, y + 14, _("Your yang cards"), 13, anchor="start", font_weight="bold"),
        '<g class="hand" id="em-hand">',
    ]
    y += 22
    hand = {k: int(v) for k, v in (body.get("my_cards") or {}).items() if v}
    fresh = body.get("my_fresh_yang")
    cards = [
        (k, _(KIND_NAME.get(k, k)), _(CARD_GROUP.get(k, "yang")) + (f" ×{n}" if n > 1 else ""))
        for k, n in hand.items()
    ]
    if fresh:
        cards.append((f"{fresh}-drawn", _(KIND_NAME.get(fresh, fresh)), _("just drawn")))
    cx = MARGIN
    for key, face, sub in cards:
        # A card as wide as its word ("overstroming", "Überschwemmung"; bold letters
        # take about 0.68 em), so the word stays on it.
        w = max(CARD_W, 0.68 * 13 * len(face) + 12, 0.6 * FONT * len(sub) + 12)
        if cx + w > WIDTH - MARGIN:
            cx = MARGIN
            y += CARD_H + 6
        parts.append(f'<g id="em-card-{esc(key)}">{_card(cx, y, face, sub, w)}</g>')
        cx += w + 6
    if not cards:
        parts.append(text(MARGIN, y + 14, _("none"), FONT, anchor="start"))
        y -= CARD_H - 20
    parts.append("</g>")
    return "".join(parts), y + CARD_H + 6


def _touched(recent: Sequence[tuple[int | None, str]]) -> tuple[set[str], set[int]]:
    """The provinces and seats the other seats' last moves changed."""
    provinces: set[str] = set()
    seats: set[int] = set()
    for seat, notation in recent:
        p = parse(notation)
        if p.target is not None:
            provinces.add(p.target)
        if p.source is not None:
            provinces.add(p.source)
        if p.seat is not None:
            seats.add(p.seat)
        if seat is not None and p.kind in ("merge", "accept", "refuse", "offer"):
            seats.add(seat)
    return provinces, seats


def confirm(notation: str, board: BoardInput) -> str | None:
    """What accepting a merger does, asked before it is done: it cannot be taken back, and
    where no other state is left it ends the game."""
    if notation != "accept":
        return None
    _ = board.gettext
    players = board.body.get("players", [])
    alive = [p for p in players if p.get("status") in ("active", "waiting")]
    waiting = any(p.get("status") == "waiting" for p in players)
    if len(alive) <= 2 and not waiting:
        return _(
            "Accept the merger? The two states become one, no other state is left, and the "
            "game ends with it."
        )
    return _(
        "Accept the merger? The two states become one for the rest of the game; the junior "
        "partner's yang cards are lost. This cannot be undone."
    )


def score_parts(
    body: Mapping[str, Any], scores: Sequence[Any]
) -> tuple[list[dict[str, Any]] | None, str]:
    """The end's score of each seat as the rules count it (EM-9.1): two points a province
    held or influenced, a point a unit and a yang card in hand, and the markers' points
    (what remains); a junior partner shows his senior's parts where he shares his
    senior's result, else nothing (EM-9.3)."""
    players = body.get("players")
    if not isinstance(players, list) or len(players) != len(scores):
        return None, ""
    own: list[dict[str, Any]] = []
    for p, score in zip(players, scores, strict=True):
        provinces, units, cards = 2 * int(p["provinces"]), int(p["units"]), int(p["yang_cards"])
        own.append(
            {
                N_("provinces, 2 each"): provinces,
                N_("units"): units,
                N_("yang cards"): cards,
                N_("markers"): int(score) - provinces - units - cards,
            }
        )
    parts = []
    for seat, p in enumerate(players):
        senior = int(p.get("senior", seat))
        shares = senior != seat and scores[seat] == scores[senior] and scores[seat]
        parts.append(dict(own[senior]) if shares else own[seat])
        if senior != seat and not shares:
            parts[-1] = {k: 0 for k in own[seat]}
    return parts, ""


def render(board: BoardInput) -> Board:
    _ = board.gettext
    body = board.body
    viewer = board.seat
    names = board.names
    printed, borders = printed_map(board.layout)
    where = _where(printed, borders)
    provinces = {p["id"]: p for p in body.get("provinces", [])}

    def name_of(pid: str) -> str:
        return where[pid].name if pid in where else pid

    # Each action goes to the province it leads into, or to the row of a seat; an action
    # that leaves a province (colonise, attack) is also picked up there first, unless the
    # province is a target itself. Moves of units are picked on the province they leave and
    # placed on the one they enter; both are the player's own, so a province may be both.
    on_province: dict[str, list[str]] = {}
    parsed_on: dict[str, list[Parsed]] = {}
    from_province: dict[str, list[str]] = {}
    moves_out: dict[str, list[str]] = {}
    moves_in: dict[str, list[str]] = {}
    on_seat: dict[int, list[str]] = {}
    n_seats = len(body.get("players", []))
    for action in board.legal:
        p = parse(action)
        if p.target is not None and p.target in where and p.target in provinces:
            if p.source is not None and p.source not in where:
                continue
            if p.kind == "move" and p.source is not None:
                moves_out.setdefault(p.source, []).append(action)
                moves_in.setdefault(p.target, []).append(action)
                parsed_on.setdefault(p.target, []).append(p)
                continue
            on_province.setdefault(p.target, []).append(action)
            parsed_on.setdefault(p.target, []).append(p)
            if p.source is not None and p.kind in ("colonise", "attack"):
                from_province.setdefault(p.source, []).append(action)
        elif p.kind == "merge" and p.seat is not None and 0 <= p.seat < n_seats:
            on_seat.setdefault(p.seat, []).append(action)
    for pid in [pid for pid in from_province if pid in on_province]:
        del from_province[pid]
    placed: set[str] = set()
    touched, touched_seats = _touched(board.recent)

    parts: list[str] = []
    head = _("Emperor of China · turn {turn} of {turns}").format(
        turn=body.get("turn"), turns=body.get("turns")
    )
    parts.append(text(MARGIN, 20, head, 15, anchor="start", font_weight="bold"))
    if viewer is not None:
        parts.append(
            f'<g class="you">{seat_marker(viewer, WIDTH - MARGIN - 8, 15, 8, size=FONT)}'
            + text(WIDTH - MARGIN - 20, 20, seat_name(names, viewer), 13, anchor="end")
            + "</g>"
        )
    else:
        parts.append(text(WIDTH - MARGIN, 20, _("spectator"), FONT, anchor="end"))
    asked = wrap(prompt(body, names, name_of, _, viewer), 13, WIDTH - 2 * MARGIN)
    parts.append(
        '<g class="prompt">'
        + "".join(
            text(MARGIN, 40 + 17 * k, line, 13, anchor="start", font_style="italic")
            for k, line in enumerate(asked[:PROMPT_LINES])
        )
        + "</g>"
    )

    # Map frame, borders under the provinces; the map moves up under a short prompt.
    height = map_height(where)
    lift = 17.0 * (PROMPT_LINES - min(PROMPT_LINES, len(asked)))
    parts.append(f'<g class="map" id="em-map" transform="translate(0,{-lift:.1f})">')
    parts.append(
        f'<rect x="2" y="{MAP_TOP:.1f}" width="{WIDTH - 4:.1f}" height="{height:.1f}" '
        'rx="8" fill="#eef3f7" stroke="#c9d3da"/>'
    )
    if printed:
        parts.append(_border_layer(printed, borders, _))
    battle = body.get("battle")
    if battle and battle.get("from") in where and battle.get("to") in where:
        parts.append(
            _battle_arrow(where[battle["from"]], where[battle["to"]], battle.get("attacker"))
        )

    moved = body.get("moved") or []
    moved_in: list[str] = []
    order = list(provinces)
    for pid in (pid for pid in where if pid in provinces):
        prov = provinces[pid]
        tags: list[str] = []
        if body.get("yang_at") == pid:
            tags.append("yang")
        if body.get("yin_at") == pid:
            tags.append("yin")
        i = order.index(pid)
        if i < len(moved) and moved[i] and body.get("phase") == "movement":
            moved_in.append(f"{where[pid].name} {moved[i]}")
        outgoing = moves_out.get(pid, [])
        incoming = moves_in.get(pid, [])
        actions = on_province.get(pid, []) + ([] if outgoing else incoming)
        owned = from_province.get(pid, [])
        clickable = bool(actions or owned or outgoing)
        inner = _province(where[pid], prov, tags, clickable, names, pid in touched, _)
        owner = prov.get("owner")
        state = (
            f"{seat_name(names, owner)} ×{prov.get('units')}" if owner is not None else _("empty")
        )
        if outgoing:
            label = _("{province} ({state}): move units from here").format(
                province=where[pid].name, state=state
            )
            if incoming:
                label += "; " + describe(parsed_on[pid], name_of, body, _)
            parts.append(spot(outgoing, inner, label, pick=f"em-move-{pid}", into=incoming))
            placed.update(outgoing)
            placed.update(incoming)
        elif actions:
            label = f"{where[pid].name} ({state}): " + describe(parsed_on[pid], name_of, body, _)
            parts.append(spot(actions, inner, label))
            placed.update(actions)
        elif owned:
            verbs = {parse(a).kind for a in owned}
            what = " / ".join(_(VERB[v]) for v in sorted(verbs))
            label = _("{province} ({state}): {what} from here").format(
                province=where[pid].name, state=state, what=what
            )
            parts.append(spot(owned, inner, label, pick=f"em-from-{pid}"))
            placed.update(owned)
        else:
            parts.append(inner)
    parts.append("</g>")

    y = MAP_TOP + height + 12 - lift
    rows, offered, y = _seat_rows(
        body, viewer, board.view.get("to_move"), on_seat, y, names, touched_seats, _
    )
    parts += rows
    placed |= offered
    if viewer is not None:
        drawn, y = _hand(body, y + 4, _)
        parts.append(drawn)

    # Public matters: decks, this turn's cards, the battle and a merger awaiting its answer.
    lines: list[str] = []
    fresh_line = ""
    if body.get("yang_drawn") and not body.get("my_fresh_yang"):
        fresh_line = " · " + _("a yang card is drawn, face down")
    lines.append(
        _("Yang deck: {n} left · out of play: {cards}").format(
            n=body.get("yang_deck", 0), cards=_kinds(body.get("yang_out"), _)
        )
        + fresh_line
    )
    lines.append(_("Yin deck: {cards}").format(cards=_kinds(body.get("yin_deck"), _)))
    lines.append(_("Markers left: {markers}").format(markers=_kinds(body.get("markers_left"), _)))
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
    if body.get("yang_at") in where:
        lines.append(
            _("The yang card lies on {province}").format(province=name_of(body["yang_at"]))
        )
    if body.get("yin_at") in where:
        card = body.get("yin_card")
        lines.append(
            _("The yin card lies on {province}").format(province=name_of(body["yin_at"]))
            + (f" ({_(str(card))})" if card else "")
        )
    if moved_in:
        lines.append(_("Moved in this turn: {moves}").format(moves=", ".join(moved_in)))
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
        # Who won, in words: the returns themselves (+1, -1) are for bots and learning.
        best = max(float(r) for r in returns)
        lines.append(
            _("Game over: {seats} won").format(
                seats=", ".join(
                    seat_name(names, i) for i, r in enumerate(returns) if float(r) == best
                )
            )
        )
    parts.append('<g class="public" id="em-public">')
    y += 4
    for line in lines:
        for part in wrap(line, FONT, WIDTH - 2 * MARGIN):
            parts.append(text(MARGIN, y + 12, part, FONT, anchor="start"))
            y += 17
    parts.append("</g>")
    legend, y = _legend(y + 16, _)
    parts.append(legend)
    # Drawn for a phone's width: on a desk it reads best at about one and a half times that.
    svg = document(WIDTH, y + 6, parts, _("Emperor of China"), max_width=DESK_WIDTH)
    return Board(svg, placed)
