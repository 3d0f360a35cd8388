"""China: the map of the nine provinces, the province cards and the seats.

The map comes from `layout` (fields with their province and place, the dragon fields,
roads, alliances; coordinates 0..100), everything on it from the viewer's observation:
houses on fields, fortifications, emissaries at the dragons, scored provinces. Below it
the seats (points, hand sizes with the cards known to be in them, supplies, the
Emperor), then the display, the deck, the discards and the viewer's own hand.

Placed on the board: `house`/`fortify` on their field, `emissary` on its province's
dragon, `exchange` on the hand card of that colour, `take` on the display card, `draw`
on the deck. `done` and `pass` have no place and are listed by the page.
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
# Colour is never the only clue: every card also carries its initial or its name.
INITIALS = {c: c[0].upper() for c in COLOURS}

WIDTH = 520.0
MAP_TOP = 52.0
SCALE = 5.6  # layout units to SVG units
FIELD_R = 12.0
HOUSE_R = 11.5
ENVOY_R = 5.5
CARD_W, CARD_H = 66.0, 84.0
ROW_H = 30.0
GREY = "#8a8170"


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
    return 14.0 + (p[0] - 4.0) * SCALE, MAP_TOP + (p[1] - 2.0) * SCALE


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
            room = min(math.hypot(x - fx, y - fy) for fx, fy in at) - (FIELD_R + 12)
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
    if kind == "exchange" and len(words) == 2:
        return "hand", words[1]
    if kind == "take" and len(words) == 2:
        return "display", words[1]
    if kind == "draw":
        return "deck", ""
    return None


class _Places:
    """The legal actions grouped by the place they belong to, and those put on spots."""

    def __init__(self, legal: Sequence[str], gettext: Callable[[str], str]) -> None:
        self._ = gettext
        self.by_place: dict[tuple[str, str], list[str]] = {}
        for a in legal:
            where = _where(a)
            if where is not None:
                self.by_place.setdefault(where, []).append(a)
        self.placed: set[str] = set()

    def actions(self, kind: str, name: str) -> list[str]:
        return self.by_place.get((kind, name), [])

    def spot(self, kind: str, name: str, inner: str, label: str) -> str:
        actions = self.actions(kind, name)
        if not actions:
            return inner
        self.placed.update(actions)
        return s.spot(actions, inner, label)

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


def _card(
    x: float, y: float, colour: str, word: str, names: Sequence[str], count: int, title: str
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
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{CARD_W:.1f}" height="20" rx="6" '
        f'fill="{INKS[colour]}"/>'
    )
    parts.append(_text(x + CARD_W / 2, y + 14, word, 12, fill=ON_INK[colour], bold=True))
    for k, name in enumerate(names):
        parts.append(_text(x + CARD_W / 2, y + 42 + 18 * k, name, 15, bold=True))
    if count > 1:
        parts.append(
            f'<circle cx="{x + CARD_W - 6:.1f}" cy="{y + CARD_H - 6:.1f}" r="11" '
            f'fill="{s.INK}"/>'
            + _text(x + CARD_W - 6, y + CARD_H - 1.5, f"×{count}", 13, fill="#fff", bold=True)
        )
    return f'<g class="card" data-colour="{colour}">{"".join(parts)}</g>'


def _mini(x: float, y: float, colour: str | None) -> str:
    """A small card in a seat's row: face down, or face up when the table knows it."""
    if colour is None:
        return (
            f'<rect x="{x:.1f}" y="{y:.1f}" width="14" height="20" rx="2" fill="#5b4a3a" '
            f'stroke="{s.INK}" stroke-width="0.8"/>'
        )
    return (
        f'<g class="mini" data-colour="{colour}"><title>{s.esc(colour)}</title>'
        f'<rect x="{x:.1f}" y="{y:.1f}" width="14" height="20" rx="2" fill="{INKS[colour]}" '
        f'stroke="{s.INK}" stroke-width="0.8"/>'
        + _text(x + 7, y + 14.5, INITIALS[colour], 12, fill=ON_INK[colour], bold=True)
        + "</g>"
    )


def _leaders(emissaries: Sequence[int]) -> set[int]:
    """Seats with the emissary majority (ties included) in a province."""
    top = max(emissaries, default=0)
    return {seat for seat, n in enumerate(emissaries) if top and n == top}


def _map(
    body: Mapping[str, Any],
    layout: Mapping[str, Any],
    places: _Places,
    _: Callable[[str], str],
) -> list[str]:
    fields: list[dict[str, Any]] = layout["fields"]
    provinces: list[dict[str, Any]] = body["provinces"]
    owners: list[int] = body["fields"]
    forts = set(body.get("forts") or ())
    at = [_xy(f["xy"]) for f in fields]
    dragons = [_xy(d) for d in layout["dragons"]]
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
                seats=", ".join(s.seat_label(x) for x in both)
            )
        group = [
            f"<title>{s.esc(title)}</title>",
            f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="8.5" fill="#fff" stroke="{GREY}"/>',
            _text(mx, my + 3.6, k + 1, 10, fill=GREY, bold=True),
        ]
        for n, seat in enumerate(both):
            group.append(s.seat_marker(seat, mx + 15 + 12 * n, my, 5.5, label=False))
        out.append(f'<g class="alliance">{"".join(group)}</g>')

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
                f'<rect class="fort" x="{x - 14:.1f}" y="{y - 14:.1f}" width="28" height="28" '
                f'rx="3" fill="#9c9486" stroke="{s.INK}" stroke-width="1.5"/>'
            )
        if owner >= 0:
            what += " · " + _("house of {seat}").format(seat=s.seat_label(owner))
            parts.append(s.seat_marker(owner, x, y, HOUSE_R))
        else:
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{FIELD_R:.1f}" fill="#fff" '
                f'stroke="{INKS[colour]}" stroke-width="2"/>'
            )
            parts.append(_text(x, y + 4.5, name.rpartition(".")[2], 12, fill=GREY))
        actions = places.actions("field", name)
        if actions:
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{FIELD_R + 4:.1f}" fill="none" '
                f'stroke="{s.INK}" stroke-width="2.2" stroke-dasharray="4 2.5"/>'
            )
            label = f"{what}: " + "; ".join(places.describe(a) for a in actions)
            inner = f'<g class="field" data-field="{s.esc(name)}">{"".join(parts)}</g>'
            out.append(places.spot("field", name, inner, label))
        else:
            out.append(
                f'<g class="field" data-field="{s.esc(name)}"><title>{s.esc(what)}</title>'
                f"{''.join(parts)}</g>"
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
        box_h = 22 + (12 * rows if envoys else 0)
        actions = places.actions("province", name)
        stroke = (
            f'stroke="{s.INK}" stroke-width="2.2" stroke-dasharray="4 2.5"'
            if actions
            else f'stroke="{INKS[colour]}" stroke-width="1.5"'
        )
        parts = [
            f'<rect x="{x - 28:.1f}" y="{y - 12:.1f}" width="56" height="{box_h:.1f}" rx="8" '
            f'fill="#fff" fill-opacity="0.92" {stroke}/>',
            _text(x, y + 5, name, 15, bold=True),
        ]
        if prov["scored"]:
            parts.append(
                f'<circle cx="{x + 28:.1f}" cy="{y - 12:.1f}" r="7" fill="{s.INK}"/>'
                + _text(x + 28, y - 8.5, "✓", 10, fill="#fff")
            )
        for n, seat in enumerate(envoys):
            row, col = divmod(n, 4)
            count = min(4, len(envoys) - 4 * row)
            ex = x + (col - (count - 1) / 2) * 12
            parts.append(s.seat_marker(seat, ex, y + 15 + 12 * row, ENVOY_R, label=False))
        desc = _("{name} ({colour}): {placed} of {limit} emissaries").format(
            name=name, colour=_(colour), placed=placed, limit=limit
        )
        if envoys:
            desc += " · " + ", ".join(
                f"{s.seat_label(seat)} {n}" for seat, n in enumerate(prov["emissaries"]) if n
            )
        if prov["scored"]:
            desc += " · " + _("houses scored")
        if actions:
            label = f"{desc}: " + "; ".join(places.describe(a) for a in actions)
            inner = f'<g class="dragon" data-province="{s.esc(name)}">{"".join(parts)}</g>'
            out.append(places.spot("province", name, inner, label))
        else:
            out.append(
                f'<g class="dragon" data-province="{s.esc(name)}"><title>{s.esc(desc)}</title>'
                f"{''.join(parts)}</g>"
            )
    return out


def _status(body: Mapping[str, Any], _: Callable[[str], str]) -> str:
    """The decision awaited, with seats named as the board names them."""
    turn = body.get("turn") or {}
    who = s.seat_label(turn.get("seat", 0))
    phase = body.get("phase")
    if phase == "turn":
        return _("{seat}: place pieces in one province, or exchange a card").format(seat=who)
    if phase == "place":
        return _("{seat}: a second piece in {province}, or done").format(
            seat=who, province=turn.get("province")
        )
    if phase == "refill":
        return _("{seat}: take {n} more card(s) from the display or the deck").format(
            seat=who, n=turn.get("to_take")
        )
    if phase == "over":
        winners = body.get("winners") or []
        return _("Game over: {seats} won").format(seats=", ".join(s.seat_label(w) for w in winners))
    if phase == "deal":
        return _("Dealing the cards")
    return _("Cards come off the deck")


def _seats(
    body: Mapping[str, Any], viewer: int | None, top: float, _: Callable[[str], str]
) -> list[str]:
    n: int = body["players"]
    current = body.get("current_player")
    emperor = body.get("emperor")
    final = body.get("final")
    winners = set(body.get("winners") or ())
    last = (
        _("points: provinces + alliances + roads")
        if final
        else _("left: houses · emissaries · forts")
    )
    out = [
        _text(14, top + 14, _("Seats"), 15, anchor="start", bold=True),
        _text(178, top + 14, _("points"), 12, anchor="start", fill=GREY),
        _text(228, top + 14, _("hand"), 12, anchor="start", fill=GREY),
        _text(312, top + 14, last, 12, anchor="start", fill=GREY),
    ]
    for seat in range(n):
        y = top + 22 + ROW_H * seat
        cy = y + ROW_H / 2
        row: list[str] = []
        if seat == current:
            row.append(
                f'<rect x="4" y="{y + 1:.1f}" width="{WIDTH - 8:.1f}" height="{ROW_H - 2:.1f}" '
                f'rx="5" fill="#fff3c4" stroke="{s.INK}" stroke-width="1.2"/>'
                + _text(13, cy + 5, "▶", 14, bold=True)
            )
        row.append(s.seat_marker(seat, 34, cy, 10))
        name = s.seat_label(seat)
        if seat == viewer:
            name += " (" + _("you") + ")"
        row.append(_text(50, cy + 5, name, 15, anchor="start", bold=True))
        if seat == emperor:
            row.append(
                f'<g class="emperor"><title>{s.esc(_("the Emperor: start player"))}</title>'
                f'<rect x="118" y="{cy - 9:.1f}" width="52" height="18" rx="3" fill="#8b6508"/>'
                + _text(144, cy + 4, _("Emperor"), 11, fill="#fff", bold=True)
                + "</g>"
            )
        points = str(body["scores"][seat])
        if seat in winners:
            points += " ★"
        row.append(_text(178, cy + 5, points, 15, anchor="start", bold=True))
        # Others' hands face down, except the cards the table saw them take.
        size: int = body["hand_sizes"][seat]
        if seat == viewer and body.get("hand") is not None:
            faces: list[str | None] = [c for c in COLOURS for _k in range(body["hand"][c])]
        else:
            known = body["known"][seat]
            faces = [c for c in COLOURS for _k in range(known.get(c, 0))]
        faces = (faces + [None] * size)[:size]
        for k, colour in enumerate(faces):
            row.append(_mini(228 + 17 * k, cy - 10, colour))
        row.append(_text(228 + 17 * len(faces) + 3, cy + 5, size, 13, anchor="start", fill=GREY))
        if final:
            f = final[seat]
            detail = f"{f['provinces']} + {f['alliances']} + {f['roads']}"
        else:
            supply = body["supply"][seat]
            detail = f"{supply['houses']} · {supply['emissaries']} · {supply['fortifications']}"
        row.append(_text(312, cy + 5, detail, 14, anchor="start"))
        out.append(f'<g class="seat-row" data-seat="{seat}">{"".join(row)}</g>')
    return out


def _cards(
    body: Mapping[str, Any],
    viewer: int | None,
    top: float,
    places: _Places,
    _: Callable[[str], str],
) -> list[str]:
    names: dict[str, list[str]] = {c: [] for c in COLOURS}
    for prov in body["provinces"]:
        names[prov["colour"]].append(prov["name"])
    out: list[str] = []

    # Display and deck side by side, the discards beside them.
    out.append(_text(14, top + 14, _("Display"), 15, anchor="start", bold=True))
    display: Mapping[str, int] = body["display"]
    x = 14.0
    y = top + 24
    for colour in COLOURS:
        n = display.get(colour, 0)
        if not n:
            continue
        title = _("{n} {colour} on display ({provinces})").format(
            n=n, colour=_(colour), provinces=", ".join(names[colour])
        )
        card = _card(x, y, colour, _(colour), names[colour], n, title)
        label = _("take a {colour} card").format(colour=_(colour))
        out.append(places.spot("display", colour, card, label))
        x += CARD_W + 10
    if not any(display.values()):
        out.append(_text(14, y + 40, _("empty"), 13, anchor="start", fill=GREY))
    dx = 14 + 4 * (CARD_W + 10)
    deck_n: int = body["deck"]
    deck = (
        f'<g class="deck"><title>{s.esc(_("deck: {n} cards").format(n=deck_n))}</title>'
        f'<rect x="{dx:.1f}" y="{y:.1f}" width="{CARD_W:.1f}" height="{CARD_H:.1f}" rx="6" '
        f'fill="#5b4a3a" stroke="{s.INK}" stroke-width="1.2"/>'
        f'<rect x="{dx + 5:.1f}" y="{y + 5:.1f}" width="{CARD_W - 10:.1f}" '
        f'height="{CARD_H - 10:.1f}" rx="4" fill="none" stroke="#c9a96e" stroke-width="1"/>'
        + _text(dx + CARD_W / 2, y + 40, deck_n, 20, fill="#fff", bold=True)
        + _text(dx + CARD_W / 2, y + 60, _("deck"), 13, fill="#fff")
        + "</g>"
    )
    out.append(places.spot("deck", "", deck, _("draw the top card of the deck")))
    exhausted: int = body.get("exhaustions", 0)
    if exhausted:
        out.append(
            _text(
                dx + CARD_W / 2,
                y + CARD_H + 15,
                _("ran out {n}×").format(n=exhausted),
                12,
                fill=GREY,
            )
        )
    px = dx + CARD_W + 12
    out.append(_text(px, top + 14, _("Discards"), 15, anchor="start", bold=True))
    discards: Mapping[str, int] = body["discards"]
    for k, colour in enumerate(COLOURS):
        cy = y + 17 * k
        out.append(
            f'<rect x="{px:.1f}" y="{cy:.1f}" width="14" height="15" rx="2" '
            f'fill="{INKS[colour]}" stroke="{s.INK}" stroke-width="0.6"/>'
            + _text(px + 7, cy + 11.5, INITIALS[colour], 11, fill=ON_INK[colour], bold=True)
            + _text(px + 19, cy + 12, f"{discards.get(colour, 0)}", 13, anchor="start")
        )

    # The viewer's own hand, face up; others' hands are only counts in the seat rows.
    hand: Mapping[str, int] | None = body.get("hand")
    top2 = y + CARD_H + 24
    if viewer is None or hand is None:
        out.append(_text(14, top2 + 14, _("Spectating: hands are hidden"), 14, anchor="start"))
        return out
    out.append(_text(14, top2 + 14, _("Your hand"), 15, anchor="start", bold=True))
    x = 14.0
    y2 = top2 + 24
    cards: list[str] = []
    for colour in COLOURS:
        n = hand.get(colour, 0)
        if not n:
            continue
        title = _("{n} {colour} in your hand ({provinces})").format(
            n=n, colour=_(colour), provinces=", ".join(names[colour])
        )
        card = _card(x, y2, colour, _(colour), names[colour], n, title)
        label = _("exchange a {colour} card").format(colour=_(colour))
        cards.append(places.spot("hand", colour, card, label))
        x += CARD_W + 10
    if not cards:
        cards.append(_text(14, y2 + 40, _("empty"), 13, anchor="start", fill=GREY))
    out.append(f'<g class="hand" data-seat="{viewer}">{"".join(cards)}</g>')
    return out


def render(board: BoardInput) -> Board:
    _ = board.gettext
    body = board.body
    layout = board.layout
    viewer = board.seat
    places = _Places(board.legal, _)
    parts: list[str] = []

    head = "China · " + _("board {side}").format(side=layout.get("side", ""))
    if layout.get("reconstructed"):
        head += " · " + _("reconstructed map")
    parts.append(_text(14, 20, head, 15, anchor="start", bold=True))
    if body.get("last_round"):
        parts.append(
            _text(WIDTH - 14, 20, _("LAST ROUND"), 14, anchor="end", fill="#b00020", bold=True)
        )
    parts.append(_text(14, 41, _status(body, _), 14, anchor="start"))

    parts += _map(body, layout, places, _)
    map_bottom = MAP_TOP + 84 * SCALE
    parts += _seats(body, viewer, map_bottom, _)
    seats_bottom = map_bottom + 30 + ROW_H * body["players"]
    parts += _cards(body, viewer, seats_bottom, places, _)
    height = seats_bottom + 24 + CARD_H + 24 + (24 + CARD_H + 14 if viewer is not None else 24)
    title = "China: " + _status(body, _)
    return Board(s.document(WIDTH, height, parts, title), places.placed)
