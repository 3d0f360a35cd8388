"""China: the map of the nine provinces, the province cards and the seats.

The map comes from `layout` (fields with their province and place, the dragon fields,
roads, alliances; coordinates 0..100), everything on it from the viewer's observation:
houses on fields, fortifications, emissaries at the dragons, scored provinces. Below it
the seats (points, hand sizes with the cards known to be in them, supplies, the
Emperor), then the display, the deck, the discards and the viewer's own hand.

Pick then place: each card in the viewer's hand is a pick offering every move it pays
for (the placements paid with it, by its own province or as a joker pair, and its
exchange, which the page then shows as a button in words); the fields and dragons are the
targets of `house`/`fortify` and `emissary`, the display's cards of `take`, the deck of
`draw`. `done` and `pass` have no place and are listed by the page.

Every element that lasts from one view to the next has an id (`ch-field-Shu-4`,
`ch-hand-red`, ...), and what the other seats' last moves changed has the class `recent`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tianxia.web.boards import Board, BoardInput
from tianxia.web.boards import svg as s

COLOURS = ("violet", "yellow", "orange", "red", "green")
# Card faces: the printed colour, and a pale tint for the provinces and the card bodies.
INKS = {
    "violet": "#7b4fa8",
    "yellow": "#e2b90f",
    "orange": "#e9801a",
    "red": "#cc3325",
    "green": "#2e8b45",
}
TINTS = {
    "violet": "#e4d7f1",
    "yellow": "#f8eeb4",
    "orange": "#f9dcb8",
    "red": "#f5c6c0",
    "green": "#cce8d2",
}
# Lettering on the printed colours: ink where white would not stand out.
ON_INK = {"violet": "#fff", "yellow": s.INK, "orange": s.INK, "red": "#fff", "green": "#fff"}
# Colour is never the only clue: every card also carries its name or its initials in
# the reader's language (svg.initials: "Ge" and "Gr" where two colours share a letter).

WIDTH = 520.0
# On a phone the board spans 390 CSS px: no text below 12 px there, no tap target
# below 44 px (fields lie closer than that, so their tap circles overlap a little).
FONT = s.readable(WIDTH)
TAP = s.tappable(WIDTH)
DESK_WIDTH = 640.0  # CSS px on a wide screen: text some 20 px high, not stretched to the page
MAP_TOP = 78.0  # the title and two lines of the awaited decision above the map
SCALE = 5.5  # layout units to SVG units
DRAGON_R = 47.0  # a circle around a dragon's tap area (its box and the hit square)
DRAGON_DY = 5.0  # that circle's centre below the dragon's name
FIELD_R = 13.0
HOUSE_R = 12.5
ENVOY_R = 5.5
CARD_W, CARD_H = 72.0, 84.0
DISPLAY_H = 112.0  # the display's cards, or the five discard piles beside them
ROW_H = 52.0  # a seat: name, Emperor and points; then its hand and what it has left
MINI_W, MINI_H = 22.0, 24.0  # two letters wide
GREY = "#6f675a"  # muted, yet dark enough for small text on the paper


def _text(
    x: float,
    y: float,
    content: object,
    size: float,
    anchor: str = "middle",
    fill: str = s.INK,
    bold: bool = False,
) -> str:
    """`svg.text` with a colour of its own (that helper always inks its text)."""
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" text-anchor="{anchor}" '
        f'fill="{fill}"{weight}>{s.esc(content)}</text>'
    )


def _xy(p: Sequence[float]) -> tuple[float, float]:
    # The outermost fields' tap circles end at the board's edges, not beyond them.
    return 24.0 + (p[0] - 4.0) * SCALE, MAP_TOP + (p[1] - 2.0) * SCALE


Spread = tuple[list[tuple[float, float]], list[tuple[float, float]], float]
# The map's places, per map: spread once, as a map does not change.
_SPREAD: dict[str, Spread] = {}


def _spread(layout: Mapping[str, Any]) -> Spread:
    """The fields and dragons where the map draws them, and the map's bottom.

    The printed board puts fields closer than a finger on a phone: the places are pushed
    apart, each pair along the line between them, until no two tap areas meet (a field's
    is a circle of TAP across, a dragon's box lies inside a circle of DRAGON_R); sideways
    only within the board, so a crowded map grows downwards, never wider.
    """
    key = f"{layout.get('side')} {layout['dragons']} {[f['xy'] for f in layout['fields']]}"
    if key in _SPREAD:
        return _SPREAD[key]
    fields = [list(_xy(f["xy"])) for f in layout["fields"]]
    dragons = [list(_xy(d)) for d in layout["dragons"]]
    # A dragon's tap area is centred a little below its name.
    pts = fields + [[x, y + DRAGON_DY] for x, y in dragons]
    radius = [TAP / 2 + 0.5] * len(fields) + [DRAGON_R] * len(dragons)
    for _round in range(400):
        moved = False
        for i in range(len(pts)):
            for j in range(i + 1, len(pts)):
                a, b = pts[i], pts[j]
                dx, dy = b[0] - a[0], b[1] - a[1]
                d = math.hypot(dx, dy)
                short = radius[i] + radius[j] - d
                if short <= 0:
                    continue
                moved = True
                ux, uy = (dx / d, dy / d) if d > 1e-6 else (0.0, 1.0)
                step = short / 2 + 0.25
                a[0] -= ux * step
                a[1] -= uy * step
                b[0] += ux * step
                b[1] += uy * step
        for k, p in enumerate(pts):
            p[0] = min(WIDTH - radius[k] - 1, max(radius[k] + 1, p[0]))
        if not moved:
            break
    top = min(p[1] - r for p, r in zip(pts, radius, strict=True))
    lift = top - (MAP_TOP + 4)
    at = [(x, y - lift) for x, y in pts[: len(fields)]]
    drawn = [(x, y - lift - DRAGON_DY) for x, y in pts[len(fields) :]]
    bottom = max(p[1] + r for p, r in zip(pts, radius, strict=True)) - lift + 8
    _SPREAD[key] = (at, drawn, bottom)
    return _SPREAD[key]


def _hull(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Convex hull (monotone chain); a province's area is its hull drawn fat."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[float, float]] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


# Where each alliance's number sits, per map: the search below would otherwise cost as
# much as the rest of a render, and a map does not change.
_BADGES: dict[str, list[tuple[float, float]]] = {}


def _badges(
    layout: Mapping[str, Any], at: list[tuple[float, float]], dragons: list[tuple[float, float]]
) -> list[tuple[float, float]]:
    """A point on each alliance line clear of fields and dragon labels, nearest its middle."""
    key = f"{layout.get('side')} {layout['dragons']}"
    if key in _BADGES:
        return _BADGES[key]
    out = []
    for a, b in layout["alliances"]:
        (x0, y0), (x1, y1) = dragons[a], dragons[b]
        best, best_room = (0.0, 0.0), -math.inf
        for t in (0.5, 0.44, 0.56, 0.38, 0.62, 0.32, 0.68, 0.26, 0.74):
            x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            room = min(math.hypot(x - fx, y - fy) for fx, fy in at) - (FIELD_R + 15)
            for dx, dy in dragons:
                room = min(room, max(abs(x - dx) - 38, abs(y - dy) - 24))
            if room > best_room + 0.5:
                best, best_room = (x, y), room
            if room >= 0:
                break
        out.append(best)
    _BADGES[key] = out
    return out


def _where(action: str) -> tuple[str, str] | None:
    """The place on the board an action's notation names (see games/china/actions.py)."""
    words = action.split()
    kind = words[0]
    if kind in ("house", "fortify") and len(words) >= 2:
        return "field", words[1]
    if kind == "emissary" and len(words) >= 2:
        return "province", words[1]
    if kind == "take" and len(words) == 2:
        return "display", words[1]
    if kind == "draw":
        return "deck", ""
    return None


def _paid_with(action: str, colours: Mapping[str, str]) -> str | None:
    """The colour of the hand card(s) an action spends: the province's own colour, the
    joker's, or the exchanged card's; `colours` maps each province to its colour."""
    words = action.split()
    if words[0] == "exchange" and len(words) == 2:
        return words[1]
    if words[0] in ("house", "fortify", "emissary") and len(words) >= 2:
        if len(words) >= 4 and words[2] == "joker":
            return words[3]
        return colours.get(words[1].partition(".")[0])
    return None


def _slug(name: str) -> str:
    """A field's or province's name as a piece of an id (`Shu.4` -> `Shu-4`)."""
    return name.replace(".", "-").replace(" ", "-")


def _changed(recent: Sequence[tuple[int | None, str]]) -> set[tuple[str, str]]:
    """The places the moves in `recent` changed, as (kind, name) pairs like `_where`'s:
    a piece's field or dragon, the display card taken (and the taker's hand), the deck
    drawn from, the discards an exchange fed, the display a dealt card landed on."""
    out: set[tuple[str, str]] = set()
    for seat, action in recent:
        words = action.split()
        if not words:
            continue
        where = _where(action)
        if where is not None:
            out.add(where)
        if words[0] in ("take", "draw", "exchange") and seat is not None:
            out.add(("seat", str(seat)))
        if words[0] == "exchange" and len(words) == 2:
            out.add(("discard", words[1]))
        if words[0] == "card" and len(words) == 2:
            out.add(("display", words[1]))
    return out


class _Places:
    """The legal actions grouped by the place they belong to, and those put on spots."""

    def __init__(
        self, board: BoardInput, colours: Mapping[str, str], gettext: Callable[[str], str]
    ) -> None:
        self._ = gettext
        self.by_place: dict[tuple[str, str], list[str]] = {}
        self.by_card: dict[str, list[str]] = {}
        for a in board.legal:
            where = _where(a)
            if where is not None:
                self.by_place.setdefault(where, []).append(a)
            paid = _paid_with(a, colours)
            if paid is not None:
                self.by_card.setdefault(paid, []).append(a)
        self.placed: set[str] = set()
        self.recent = _changed(board.recent)

    def actions(self, kind: str, name: str) -> list[str]:
        return self.by_place.get((kind, name), [])

    def mark(self, kind: str, name: str) -> str:
        """ " recent" when the others' last moves changed this place."""
        return " recent" if (kind, name) in self.recent else ""

    def spot(self, kind: str, name: str, inner: str, label: str, ident: str) -> str:
        actions = self.actions(kind, name)
        if not actions:
            return inner
        self.placed.update(actions)
        return s.spot(actions, inner, label, ident=ident)

    def pick(self, colour: str, inner: str, label: str, ident: str) -> str:
        """A hand card: picking it offers every move it pays for."""
        actions = self.by_card.get(colour, [])
        if not actions:
            return inner
        self.placed.update(actions)
        return s.spot(actions, inner, label, pick=f"card-{colour}", ident=ident)

    def describe(self, action: str) -> str:
        """A short reading of a placing action: the piece and, for a joker, the pair paid."""
        words = action.split()
        _ = self._
        piece = {
            "house": _("house"),
            "fortify": _("fortification"),
            "emissary": _("emissary"),
        }.get(words[0], words[0])
        if len(words) >= 4 and words[2] == "joker":
            return _("{piece} for two {colour} cards").format(piece=piece, colour=_(words[3]))
        return piece


def _fit(name: str, size: float, width: float, bold: bool = True) -> str:
    """`name` cut short with an ellipsis where it would run wider than `width`."""
    if s.text_width(name, size, bold) <= width:
        return name
    while name and s.text_width(name + "…", size, bold) > width:
        name = name[:-1]
    return name + "…"


def _card(
    x: float,
    y: float,
    colour: str,
    word: str,
    names: Sequence[str],
    count: int,
    title: str,
    extra: str = "",
) -> str:
    """A face-up province card of `colour` (a stack of `count`), its provinces written on."""
    parts = [f"<title>{s.esc(title)}</title>"]
    if count > 1:
        parts.append(
            f'<rect x="{x + 4:.1f}" y="{y - 4:.1f}" width="{CARD_W:.1f}" height="{CARD_H:.1f}" '
            f'rx="6" fill="{TINTS[colour]}" stroke="{s.INK}" stroke-width="1"/>'
        )
    parts.append(
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{CARD_W:.1f}" height="{CARD_H:.1f}" rx="6" '
        f'fill="{TINTS[colour]}" stroke="{s.INK}" stroke-width="1.2"/>'
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{CARD_W:.1f}" height="22" rx="6" '
        f'fill="{INKS[colour]}"/>'
    )
    parts.append(_text(x + CARD_W / 2, y + 16.5, word, FONT, fill=ON_INK[colour], bold=True))
    for k, name in enumerate(names):
        parts.append(_text(x + CARD_W / 2, y + 44 + 19 * k, name, FONT, bold=True))
    if count > 1:
        parts.append(
            f'<circle cx="{x + CARD_W - 8:.1f}" cy="{y + CARD_H - 8:.1f}" r="13" '
            f'fill="{s.INK}"/>'
            + _text(x + CARD_W - 8, y + CARD_H - 2.5, f"×{count}", FONT, fill="#fff", bold=True)
        )
    return f'<g class="card{extra}" data-colour="{colour}">{"".join(parts)}</g>'


def _mini(x: float, y: float, colour: str | None, ident: str, mark: Mapping[str, str]) -> str:
    """A small card in a seat's row: face down, or face up when the table knows it."""
    if colour is None:
        return (
            f'<rect id="{ident}" x="{x:.1f}" y="{y:.1f}" width="{MINI_W:.1f}" '
            f'height="{MINI_H:.1f}" rx="2" fill="#5b4a3a" stroke="{s.INK}" stroke-width="0.8"/>'
        )
    return (
        f'<g id="{ident}" class="mini" data-colour="{colour}"><title>{s.esc(colour)}</title>'
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{MINI_W:.1f}" height="{MINI_H:.1f}" rx="2" '
        f'fill="{INKS[colour]}" stroke="{s.INK}" stroke-width="0.8"/>'
        + _text(x + MINI_W / 2, y + 17.5, mark[colour], FONT, fill=ON_INK[colour], bold=True)
        + "</g>"
    )


def _leaders(emissaries: Sequence[int]) -> set[int]:
    """Seats with the emissary majority (ties included) in a province."""
    top = max(emissaries, default=0)
    return {seat for seat, n in enumerate(emissaries) if top and n == top}


def _map(board: BoardInput, places: _Places, _: Callable[[str], str]) -> list[str]:
    body, layout = board.body, board.layout
    fields: list[dict[str, Any]] = layout["fields"]
    provinces: list[dict[str, Any]] = body["provinces"]
    owners: list[int] = body["fields"]
    forts = set(body.get("forts") or ())
    at, dragons, _bottom = _spread(layout)
    turn_province = (body.get("turn") or {}).get("province")
    out: list[str] = []

    # Provinces: each the fat hull of its fields and dragon in its colour's tint.
    members: list[list[tuple[float, float]]] = [[d] for d in dragons]
    for i, f in enumerate(fields):
        members[f["province"]].append(at[i])
    for p, pts in enumerate(members):
        colour = provinces[p]["colour"]
        hull = " ".join(f"{x:.1f},{y:.1f}" for x, y in _hull(pts))
        edge = s.INK if provinces[p]["name"] == turn_province else INKS[colour]
        out.append(
            f'<g class="province"><polygon points="{hull}" fill="{TINTS[colour]}" '
            f'stroke="{edge}" stroke-width="38" stroke-linejoin="round"/>'
            f'<polygon points="{hull}" fill="{TINTS[colour]}" stroke="{TINTS[colour]}" '
            f'stroke-width="34" stroke-linejoin="round"/></g>'
        )

    # Alliances: dragon to dragon, numbered in scoring order, with the seats that now
    # hold the emissary majority in both provinces.
    for a, b in layout["alliances"]:
        (x0, y0), (x1, y1) = dragons[a], dragons[b]
        out.append(
            f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="{GREY}" '
            f'stroke-width="1.5" stroke-dasharray="2 5" stroke-linecap="round"/>'
        )
    for i, j in layout["roads"]:
        (x0, y0), (x1, y1) = at[i], at[j]
        out.append(
            f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="#6b5a45" '
            f'stroke-width="3.5" stroke-linecap="round"/>'
        )
    badges = _badges(layout, at, dragons)
    for k, (a, b) in enumerate(layout["alliances"]):
        mx, my = badges[k]
        both = sorted(_leaders(provinces[a]["emissaries"]) & _leaders(provinces[b]["emissaries"]))
        title = _("alliance {n}: {a} and {b}").format(
            n=k + 1, a=provinces[a]["name"], b=provinces[b]["name"]
        )
        if both:
            title += " · " + _("majority in both: {seats}").format(
                seats=", ".join(board.name(x) for x in both)
            )
        group = [
            f"<title>{s.esc(title)}</title>",
            f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="11.5" fill="#fff" stroke="{GREY}"/>',
            _text(mx, my + 5.5, k + 1, FONT, fill=GREY, bold=True),
        ]
        for n, seat in enumerate(both):
            group.append(
                s.seat_marker(seat, mx + 18 + 12 * n, my, 5.5, label=False, name=board.name(seat))
            )
        out.append(f'<g class="alliance" id="ch-alliance-{k + 1}">{"".join(group)}</g>')

    # Fields: free ones numbered as the notation counts them, built ones with the house.
    for i, f in enumerate(fields):
        x, y = at[i]
        name: str = f["name"]
        colour = provinces[f["province"]]["colour"]
        owner = owners[i]
        parts: list[str] = []
        what = name
        if name in forts:
            what += " · " + _("fortified")
            parts.append(
                f'<rect class="fort" id="ch-fort-{_slug(name)}" x="{x - 15:.1f}" '
                f'y="{y - 15:.1f}" width="30" height="30" rx="3" fill="#9c9486" '
                f'stroke="{s.INK}" stroke-width="1.5"/>'
            )
        if owner >= 0:
            what += " · " + _("house of {seat}").format(seat=board.name(owner))
            parts.append(
                f'<g id="ch-house-{_slug(name)}">'
                + s.seat_marker(owner, x, y, HOUSE_R, size=FONT, name=board.name(owner))
                + "</g>"
            )
        else:
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{FIELD_R:.1f}" fill="#fff" '
                f'stroke="{INKS[colour]}" stroke-width="2"/>'
            )
            parts.append(_text(x, y + 5.5, name.rpartition(".")[2], FONT, fill=GREY))
        actions = places.actions("field", name)
        mark = places.mark("field", name)
        ident = f"ch-field-{_slug(name)}"
        if actions:
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{FIELD_R + 4:.1f}" fill="none" '
                f'stroke="{s.INK}" stroke-width="2.2" stroke-dasharray="4 2.5"/>'
                f'<circle class="hit" cx="{x:.1f}" cy="{y:.1f}" r="{TAP / 2:.1f}" '
                f'fill="transparent"/>'
            )
            label = f"{what}: " + "; ".join(places.describe(a) for a in actions)
            inner = f'<g class="field{mark}" data-field="{s.esc(name)}">{"".join(parts)}</g>'
            out.append(places.spot("field", name, inner, label, ident))
        else:
            out.append(
                f'<g class="field{mark}" id="{ident}" data-field="{s.esc(name)}">'
                f"<title>{s.esc(what)}</title>{''.join(parts)}</g>"
            )

    # Dragons: the province's name, its emissaries by seat, placed of the limit.
    for p, (x, y) in enumerate(dragons):
        prov = provinces[p]
        name = prov["name"]
        colour = prov["colour"]
        placed = sum(prov["emissaries"])
        limit = prov["emissary_limit"]
        envoys = [seat for seat, n in enumerate(prov["emissaries"]) for _k in range(n)]
        rows = max(1, math.ceil(len(envoys) / 4))
        box_h = 24 + (12 * rows if envoys else 0)
        actions = places.actions("province", name)
        stroke = (
            f'stroke="{s.INK}" stroke-width="2.2" stroke-dasharray="4 2.5"'
            if actions
            else f'stroke="{INKS[colour]}" stroke-width="1.5"'
        )
        parts = [
            f'<rect x="{x - 30:.1f}" y="{y - 13:.1f}" width="60" height="{box_h:.1f}" rx="8" '
            f'fill="#fff" fill-opacity="0.92" {stroke}/>',
            _text(x, y + 5.5, name, FONT, bold=True),
        ]
        if prov["scored"]:
            parts.append(
                f'<g class="scored"><circle cx="{x + 30:.1f}" cy="{y - 13:.1f}" r="10" '
                f'fill="{s.INK}"/>' + _text(x + 30, y - 7.5, "✓", FONT, fill="#fff") + "</g>"
            )
        for n, seat in enumerate(envoys):
            row, col = divmod(n, 4)
            count = min(4, len(envoys) - 4 * row)
            ex = x + (col - (count - 1) / 2) * 12
            parts.append(
                s.seat_marker(
                    seat, ex, y + 17 + 12 * row, ENVOY_R, label=False, name=board.name(seat)
                )
            )
        desc = _("{name} ({colour}): {placed} of {limit} emissaries").format(
            name=name, colour=_(colour), placed=placed, limit=limit
        )
        if envoys:
            desc += " · " + ", ".join(
                f"{board.name(seat)} {n}" for seat, n in enumerate(prov["emissaries"]) if n
            )
        if prov["scored"]:
            desc += " · " + _("houses scored")
        mark = places.mark("province", name)
        ident = f"ch-dragon-{_slug(name)}"
        if actions:
            cy = y - 13 + box_h / 2
            parts.append(s.hit(x - TAP / 2, cy - TAP / 2, TAP, TAP))
            label = f"{desc}: " + "; ".join(places.describe(a) for a in actions)
            inner = f'<g class="dragon{mark}" data-province="{s.esc(name)}">{"".join(parts)}</g>'
            out.append(places.spot("province", name, inner, label, ident))
        else:
            out.append(
                f'<g class="dragon{mark}" id="{ident}" data-province="{s.esc(name)}">'
                f"<title>{s.esc(desc)}</title>{''.join(parts)}</g>"
            )
    return out


def _status(board: BoardInput, _: Callable[[str], str]) -> str:
    """The decision awaited, with seats named as the board names them."""
    body = board.body
    turn = body.get("turn") or {}
    who = board.name(turn.get("seat", 0))
    phase = body.get("phase")
    if phase == "turn":
        return _("{seat}: place pieces in one province, or exchange a card").format(seat=who)
    if phase == "place":
        return _("{seat}: a second piece in {province}, or done").format(
            seat=who, province=turn.get("province")
        )
    if phase == "refill":
        n = int(turn.get("to_take") or 0)
        if n == 1:
            return _("{seat}: take one more card from the display or the deck").format(seat=who)
        return _("{seat}: take {n} more cards from the display or the deck").format(seat=who, n=n)
    if phase == "over":
        winners = body.get("winners") or []
        return _("Game over: {seats} won").format(seats=", ".join(board.name(w) for w in winners))
    if phase == "deal":
        return _("Dealing the cards")
    return _("Cards come off the deck")


def _seats(board: BoardInput, places: _Places, top: float, _: Callable[[str], str]) -> list[str]:
    body = board.body
    marks = s.initials({c: _(c) for c in COLOURS})
    viewer = board.seat
    n: int = body["players"]
    current = body.get("current_player")
    emperor = body.get("emperor")
    final = body.get("final")
    winners = set(body.get("winners") or ())
    # At the end each row adds up to its points, in the summary's order: the final
    # scoring's parts, then what was scored during play.
    last = (
        _("provinces + alliances + roads + during play")
        if final
        else _("left: houses · emissaries · forts")
    )
    out = [
        _text(14, top + 20, _("Seats"), FONT, anchor="start", bold=True),
        _text(WIDTH - 14, top + 20, last, FONT, anchor="end", fill=GREY),
    ]
    for seat in range(n):
        y = top + 28 + ROW_H * seat
        cy = y + 16  # the first line: name, Emperor and points
        cy2 = y + 38  # the second: the hand, and what is left (or what scored)
        row: list[str] = []
        if seat == current:
            row.append(
                f'<rect x="4" y="{y + 1:.1f}" width="{WIDTH - 8:.1f}" height="{ROW_H - 2:.1f}" '
                f'rx="5" fill="#fff3c4" stroke="{s.INK}" stroke-width="1.2"/>'
                + f'<polygon class="turn-mark" points="9,{cy - 7:.1f} 19,{cy:.1f} 9,{cy + 7:.1f}" '
                f'fill="{s.INK}"/>'
            )
        row.append(s.seat_marker(seat, 34, cy, 11, size=FONT, name=board.name(seat)))
        score = body["scores"][seat]
        points = board.ngettext("{n} point", "{n} points", int(score)).format(n=score)
        if seat in winners:
            points += " ★"
        # The name takes what the points and the Emperor's badge leave of the row, so a
        # bot's strength ("bot A (makkelijk)") is cut only where the row is truly full.
        you = " (" + _("you") + ")" if seat == viewer else ""
        room = WIDTH - 14 - s.text_width(points, FONT, bold=True) - 12 - 52
        room -= s.text_width(you, FONT, bold=True)
        if seat == emperor:
            room -= s.text_width(_("Emperor"), FONT, bold=True) + 20
        name = _fit(board.name(seat), FONT, room) + you
        row.append(_text(52, cy + 5.5, name, FONT, anchor="start", bold=True))
        if seat == emperor:
            word = _("Emperor")
            bx = 52 + s.text_width(name, FONT, bold=True) + 10
            bw = s.text_width(word, FONT, bold=True) + 10
            row.append(
                f'<g class="emperor" id="ch-emperor"><title>'
                f"{s.esc(_('the Emperor: start player'))}</title>"
                f'<rect x="{bx:.1f}" y="{cy - 11:.1f}" width="{bw:.1f}" height="22" rx="3" '
                f'fill="#8b6508"/>'
                + _text(bx + bw / 2, cy + 5.5, word, FONT, fill="#fff", bold=True)
                + "</g>"
            )
        row.append(_text(WIDTH - 14, cy + 5.5, points, FONT, anchor="end", bold=True))
        # Others' hands face down, except the cards the table saw them take.
        size: int = body["hand_sizes"][seat]
        if seat == viewer and body.get("hand") is not None:
            faces: list[str | None] = [c for c in COLOURS for _k in range(body["hand"][c])]
        else:
            known = body["known"][seat]
            faces = [c for c in COLOURS for _k in range(known.get(c, 0))]
        faces = (faces + [None] * size)[:size]
        for k, colour in enumerate(faces):
            row.append(_mini(52 + (MINI_W + 3) * k, cy2 - 12, colour, f"ch-mini-{seat}-{k}", marks))
        row.append(_text(52 + (MINI_W + 3) * len(faces) + 4, cy2 + 6, size, FONT, "start", GREY))
        if final:
            f = final[seat]
            during = int(score) - int(f["provinces"]) - int(f["alliances"]) - int(f["roads"])
            detail = f"{f['provinces']} + {f['alliances']} + {f['roads']} + {during}"
        else:
            supply = body["supply"][seat]
            detail = f"{supply['houses']} · {supply['emissaries']} · {supply['fortifications']}"
        row.append(_text(WIDTH - 14, cy2 + 6, detail, FONT, anchor="end"))
        mark = places.mark("seat", str(seat))
        out.append(
            f'<g class="seat-row{mark}" id="ch-seat-{seat}" data-seat="{seat}">{"".join(row)}</g>'
        )
    return out


def _cards(
    board: BoardInput, top: float, places: _Places, _: Callable[[str], str]
) -> tuple[list[str], float]:
    body = board.body
    marks = s.initials({c: _(c) for c in COLOURS})
    viewer = board.seat
    names: dict[str, list[str]] = {c: [] for c in COLOURS}
    for prov in body["provinces"]:
        names[prov["colour"]].append(prov["name"])
    out: list[str] = []

    # Display and deck side by side, the discards beside them.
    out.append(_text(14, top + 20, _("Display"), FONT, anchor="start", bold=True))
    display: Mapping[str, int] = body["display"]
    x = 14.0
    y = top + 32
    for colour in COLOURS:
        n = display.get(colour, 0)
        if not n:
            continue
        title = _("{n} {colour} on display ({provinces})").format(
            n=n, colour=_(colour), provinces=", ".join(names[colour])
        )
        mark = places.mark("display", colour)
        card = _card(x, y, colour, _(colour), names[colour], n, title, mark)
        label = _("take a {colour} card").format(colour=_(colour))
        ident = f"ch-display-{colour}"
        if places.actions("display", colour):
            out.append(places.spot("display", colour, card, label, ident))
        else:
            out.append(f'<g id="{ident}">{card}</g>')
        x += CARD_W + 8
    if not any(display.values()):
        out.append(_text(14, y + 40, _("empty"), FONT, anchor="start", fill=GREY))
    dx = 14 + 4 * (CARD_W + 8)
    deck_n: int = body["deck"]
    deck = (
        f'<g class="deck{places.mark("deck", "")}"><title>'
        f"{s.esc(_('deck: {n} cards').format(n=deck_n))}</title>"
        f'<rect x="{dx:.1f}" y="{y:.1f}" width="{CARD_W:.1f}" height="{CARD_H:.1f}" rx="6" '
        f'fill="#5b4a3a" stroke="{s.INK}" stroke-width="1.2"/>'
        f'<rect x="{dx + 5:.1f}" y="{y + 5:.1f}" width="{CARD_W - 10:.1f}" '
        f'height="{CARD_H - 10:.1f}" rx="4" fill="none" stroke="#c9a96e" stroke-width="1"/>'
        + _text(dx + CARD_W / 2, y + 40, deck_n, 22, fill="#fff", bold=True)
        + _text(dx + CARD_W / 2, y + 62, _("deck"), FONT, fill="#fff")
        + "</g>"
    )
    if places.actions("deck", ""):
        out.append(places.spot("deck", "", deck, _("draw the top card of the deck"), "ch-deck"))
    else:
        out.append(f'<g id="ch-deck">{deck}</g>')
    px = dx + CARD_W + 10
    exhausted: int = body.get("exhaustions", 0)
    if exhausted:
        # Ending where the discards begin, a longer translation ("2× opgebruikt") runs
        # left under the display's free space, not into the last discard pile.
        out.append(
            _text(
                px - 6,
                y + CARD_H + 20,
                _("ran out {n}×").format(n=exhausted),
                FONT,
                anchor="end",
                fill=GREY,
            )
        )
    # A long word (Aflegstapel, Ablagestapel) starts further left rather than run off.
    heading = _("Discards")
    hx = min(px, WIDTH - 6 - len(heading) * FONT * 0.6)
    out.append(_text(hx, top + 20, heading, FONT, anchor="start", bold=True))
    discards: Mapping[str, int] = body["discards"]
    for k, colour in enumerate(COLOURS):
        cy = y - 4 + 21 * k
        mark = places.mark("discard", colour)
        out.append(
            f'<g class="discard{mark}" id="ch-discard-{colour}">'
            f'<rect x="{px:.1f}" y="{cy:.1f}" width="22" height="19" rx="2" '
            f'fill="{INKS[colour]}" stroke="{s.INK}" stroke-width="0.6"/>'
            + _text(px + 11, cy + 15, marks[colour], FONT, fill=ON_INK[colour], bold=True)
            + _text(px + 27, cy + 15, f"{discards.get(colour, 0)}", FONT, anchor="start")
            + "</g>"
        )

    # The viewer's own hand, face up; others' hands are only counts in the seat rows.
    hand: Mapping[str, int] | None = body.get("hand")
    top2 = top + 32 + DISPLAY_H
    if viewer is None or hand is None:
        out.append(_text(14, top2 + 20, _("Spectating: hands are hidden"), FONT, anchor="start"))
        return out, top2 + 32
    out.append(_text(14, top2 + 20, _("Your hand"), FONT, anchor="start", bold=True))
    x = 14.0
    y2 = top2 + 36
    cards: list[str] = []
    for colour in COLOURS:
        n = hand.get(colour, 0)
        if not n:
            continue
        title = _("{n} {colour} in your hand ({provinces})").format(
            n=n, colour=_(colour), provinces=", ".join(names[colour])
        )
        card = _card(x, y2, colour, _(colour), names[colour], n, title)
        label = _("your {colour} cards: place with them, or exchange one").format(colour=_(colour))
        ident = f"ch-hand-{colour}"
        picked = places.pick(colour, card, label, ident)
        cards.append(picked if picked != card else f'<g id="{ident}">{card}</g>')
        x += CARD_W + 8
    if not cards:
        cards.append(_text(14, y2 + 40, _("empty"), FONT, anchor="start", fill=GREY))
    out.append(f'<g class="hand" data-seat="{viewer}">{"".join(cards)}</g>')
    return out, y2 + CARD_H + 14


def _legend(board: BoardInput, top: float, _: Callable[[str], str]) -> tuple[list[str], float]:
    """The map's symbols in words, each beside a small drawing of itself at height y."""

    def field(y: float) -> str:
        return (
            f'<circle cx="30" cy="{y:.1f}" r="{FIELD_R:.1f}" fill="#fff" stroke="{GREY}" '
            f'stroke-width="2"/>' + _text(30, y + 5.5, "3", FONT, fill=GREY)
        )

    def ring(y: float) -> str:
        return (
            f'<circle cx="30" cy="{y:.1f}" r="{FIELD_R + 4:.1f}" fill="none" '
            f'stroke="{s.INK}" stroke-width="2.2" stroke-dasharray="4 2.5"/>'
        )

    def road(y: float) -> str:
        return (
            f'<line x1="14" y1="{y:.1f}" x2="46" y2="{y:.1f}" stroke="#6b5a45" '
            f'stroke-width="3.5" stroke-linecap="round"/>'
        )

    def alliance(y: float) -> str:
        return (
            f'<line x1="8" y1="{y:.1f}" x2="52" y2="{y:.1f}" stroke="{GREY}" '
            f'stroke-width="1.5" stroke-dasharray="2 5" stroke-linecap="round"/>'
            f'<circle cx="30" cy="{y:.1f}" r="11.5" fill="#fff" stroke="{GREY}"/>'
            + _text(30, y + 5.5, "1", FONT, fill=GREY, bold=True)
        )

    def tick(y: float) -> str:
        return f'<circle cx="30" cy="{y:.1f}" r="10" fill="{s.INK}"/>' + _text(
            30, y + 5.5, "✓", FONT, fill="#fff"
        )

    def envoys(y: float) -> str:
        return s.seat_marker(0, 23, y, ENVOY_R, label=False, name=board.name(0)) + s.seat_marker(
            1, 37, y, ENVOY_R, label=False, name=board.name(1)
        )

    symbols: list[tuple[Callable[[float], str], str]] = [
        (field, _("a free house field, numbered as moves name it (Shu.3)")),
        (ring, _("dashed ring: you may place a piece here now")),
        (road, _("road: a chain of 4 or more of your houses along roads scores at the end")),
        (
            alliance,
            _(
                "dotted line with a number: an alliance of two provinces, scored in that "
                "order; beside it the seats with the emissary majority in both"
            ),
        ),
        (tick, _("tick on a province's name: its houses have been scored")),
        (envoys, _("small pieces under a province's name: its emissaries, by seat")),
    ]
    out = [_text(14, top + 20, _("Legend"), FONT, anchor="start", bold=True)]
    y = top + 34
    for drawing, words in symbols:
        lines = s.wrap(words, FONT, WIDTH - 80)
        out.append(drawing(y + 10 * len(lines)))
        for k, line in enumerate(lines):
            out.append(_text(64, y + 16 + 20 * k, line, FONT, anchor="start"))
        y += 20 * len(lines) + 12
    return [f'<g class="legend" id="ch-legend">{"".join(out)}</g>'], y


def confirm(notation: str, board: BoardInput) -> str | None:
    """What a move that spends the turn unexpectedly will do, to be confirmed first.

    Only the exchange: it ends the turn without a piece placed. `done` is the ordinary
    end of a placing turn, and `pass` exists only when nothing else is possible (CH-2.1).
    """
    _ = board.gettext
    words = notation.split()
    if words[:1] == ["exchange"] and len(words) == 2:
        return _(
            "Exchange a {colour} card: it goes to the discards, you take one card, and "
            "your turn ends without placing a piece."
        ).format(colour=_(words[1]))
    return None


def render(board: BoardInput) -> Board:
    _ = board.gettext
    body = board.body
    layout = board.layout
    colours = {p["name"]: p["colour"] for p in body["provinces"]}
    places = _Places(board, colours, _)
    parts: list[str] = []

    head = _("China") + " · " + _("board {side}").format(side=layout.get("side", ""))
    if layout.get("reconstructed"):
        head += " · " + _("reconstructed map")
    # A long title (Dutch, German) takes two lines; all below moves down by the second.
    heads = s.wrap(head, FONT + 1, WIDTH - 28, bold=True)
    for k, line in enumerate(heads):
        parts.append(_text(14, 24 + 22 * k, line, FONT + 1, anchor="start", bold=True))
    drop = 22.0 * (len(heads) - 1)
    status = _status(board, _)
    lines = s.wrap(status, FONT, WIDTH - 28)
    if body.get("last_round") and body.get("phase") != "over":
        flag = _("LAST ROUND")
        room = WIDTH - 28 - s.text_width(heads[-1], FONT + 1, bold=True) - 16
        if s.text_width(flag, FONT, bold=True) <= room:
            parts.append(
                _text(WIDTH - 14, 24 + drop, flag, FONT, anchor="end", fill="#b00020", bold=True)
            )
        else:
            lines = s.wrap(f"{flag} · {status}", FONT, WIDTH - 28)
    prompt = "".join(
        _text(14, 48 + drop + 21 * k, line, FONT, anchor="start")
        for k, line in enumerate(lines[:2])
    )
    parts.append(f'<g class="prompt">{prompt}</g>')

    if drop:
        parts.append(f'<g class="below-title" transform="translate(0,{drop:.0f})">')
    parts += _map(board, places, _)
    map_bottom = _spread(layout)[2]
    parts += _seats(board, places, map_bottom, _)
    seats_bottom = map_bottom + 34 + ROW_H * body["players"]
    cards, bottom = _cards(board, seats_bottom, places, _)
    parts += cards
    legend, bottom = _legend(board, bottom, _)
    parts += legend
    if drop:
        parts.append("</g>")
        bottom += drop
    title = _("China") + ": " + status
    return Board(s.document(WIDTH, bottom, parts, title, DESK_WIDTH), places.placed)
