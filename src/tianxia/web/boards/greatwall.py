"""The Great Wall of China: the wall's sections, two side by side, then the viewer's hand,
the seats and the bag.

Each section shows its face-up fame tiles, the cards played at it place by place from
the top down (the printed wall's left to right; a dragon overlapping the card it covers)
and each seat's total there. Below: the viewer's hand by kind and its deck, every seat's
hand and deck sizes and the fame won, the bag, and a legend of the symbols in words.

The board is narrow (two sections a row) so that on a phone, where it spans 390 CSS px,
no text is under 12 px and nothing to tap under 44 px.

Pick then place: each kind of card in the viewer's hand is a pick offering every move
that plays it (`play ... X`, `horseman X`, `dragon on Xp`); the places are targets:
`take X` on the section's tiles, `lay V on Xp` and `dragon on Xp` on card place p (the
tile values for one card are one spot), `play ... X` and `horseman X` on the open slot at
the end of the section, `draw` on the viewer's deck. `pass` is left to the list.

Every element that lasts from one view to the next has an id (`gw-place-A3`,
`gw-hand-wall`, ...), and what the other seats' last moves changed has the class `recent`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from tianxia.games.greatwall.data import KINDS, components
from tianxia.web.boards import Board, BoardInput
from tianxia.web.boards.svg import (
    INK,
    document,
    esc,
    hit,
    readable,
    seat_colour,
    seat_marker,
    spot,
    tappable,
    text_width,
    wrap,
)
from tianxia.web.i18n import ngettext_of

WIDTH = 420.0
FONT = readable(WIDTH)  # the smallest text: 12 CSS px on a phone
TAP = tappable(WIDTH)  # the smallest tap target: 44 CSS px on a phone
DESK_WIDTH = 560.0  # CSS px on a wide screen: text some 17 px high, not stretched to the page
MARGIN = 8.0
GAP = 8.0
PER_ROW = 2  # sections side by side
HEAD = 88.0  # title, two lines of the awaited decision, the final-round flag
SECTION_HEAD = 28.0  # the section's letter
TILE = 36.0  # a face-up fame tile
TILE_BAND = 46.0
CARD_H = 28.0
COVER_STEP = 20.0  # a card on top shows this much of the one it covers
# Between two card places: a place's tap area (TAP high about a card CARD_H high) ends
# where the next one's begins, so a tap on a phone lands on one place.
PLACE_GAP = TAP - CARD_H
SEAT_ROW = 46.0  # name and fame; then hand, deck and the tiles won
HAND_W, HAND_H = 72.0, 54.0
HAND_PER_ROW = 5

TILE_FILL = "#f2c14e"
TILE_BACK = "#8c6a3a"
CARD_BACK = "#6b4f2a"
MUTED = "#6f695e"
SECTION_FILL = "#efe6d2"
TARGET = "#b03a2e"
CLOSED_FILL = "#dcd8cf"

TAKE = re.compile(r"take ([A-Z])")
LAY = re.compile(r"lay (\d+) on ([A-Z])(\d+)")
COVER = re.compile(r"dragon on ([A-Z])(\d+)")
PLAY = re.compile(r"play (?:(\d+) )?(\w+) ([A-Z])")
HORSEMAN = re.compile(r"horseman ([A-Z])")


def text(
    x: float,
    y: float,
    content: object,
    size: float = FONT,
    anchor: str = "middle",
    fill: str = INK,
    bold: bool = False,
) -> str:
    """Real `<text>` in `fill`: the common helper inks every text alike."""
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" text-anchor="{anchor}" '
        f'fill="{fill}"{weight}>{esc(content)}</text>'
    )


@cache
def _tint(colour: str, share: float) -> str:
    """`colour` mixed with white, `share` of the colour kept: a light card face."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(255 - (255 - c) * share) for c in rgb]
    return "#" + "".join(f"{c:02x}" for c in mixed)


def _card_values() -> dict[str, str]:
    """The printed value of each kind; a warrior's grows with the warriors before it."""
    values = components().card_values
    shown = {kind: str(values[k]) for k, kind in enumerate(KINDS)}
    shown["warrior"] += "+"
    return shown


def _fit(name: str, size: float, width: float, bold: bool = True) -> str:
    """`name` cut short with an ellipsis where it would run wider than `width`."""
    if text_width(name, size, bold) <= width:
        return name
    while name and text_width(name + "…", size, bold) > width:
        name = name[:-1]
    return name + "…"


def _kind_of(action: str) -> str | None:
    """The kind of hand card an action plays, if it plays one."""
    if m := PLAY.fullmatch(action):
        return m[2]
    if HORSEMAN.fullmatch(action):
        return "horseman"
    if COVER.fullmatch(action):
        return "dragon"
    return None


class _Actions:
    """The legal actions sorted by the place on the board they belong to, and by the
    hand card they play."""

    def __init__(self, legal: Sequence[str]) -> None:
        self.take: dict[str, list[str]] = {}
        self.card: dict[tuple[str, int], list[str]] = {}
        self.build: dict[str, list[str]] = {}
        self.draw: list[str] = []
        self.by_kind: dict[str, list[str]] = {}
        for action in legal:
            if m := TAKE.fullmatch(action):
                self.take.setdefault(m[1], []).append(action)
            elif m := LAY.fullmatch(action):
                self.card.setdefault((m[2], int(m[3])), []).append(action)
            elif m := COVER.fullmatch(action):
                self.card.setdefault((m[1], int(m[2])), []).append(action)
            elif m := PLAY.fullmatch(action):
                self.build.setdefault(m[3], []).append(action)
            elif m := HORSEMAN.fullmatch(action):
                self.build.setdefault(m[1], []).append(action)
            elif action == "draw":
                self.draw.append(action)
            kind = _kind_of(action)
            if kind is not None:
                self.by_kind.setdefault(kind, []).append(action)


def _changed(
    recent: Sequence[tuple[int | None, str]], cards: Mapping[str, int]
) -> set[tuple[str, str]]:
    """What the moves in `recent` changed: ("place", "A3"), ("tiles", "A"), ("seat", "2").
    `cards` holds how many places each section has now: a card played went to the end."""
    out: set[tuple[str, str]] = set()
    for seat, action in recent:
        if m := PLAY.fullmatch(action):
            n, section = int(m[1] or 1), m[3]
            for p in range(cards.get(section, 0) - n + 1, cards.get(section, 0) + 1):
                out.add(("place", f"{section}{p}"))
        elif m := HORSEMAN.fullmatch(action):
            out.add(("place", f"{m[1]}{cards.get(m[1], 0)}"))
        elif m := COVER.fullmatch(action):
            out.add(("place", f"{m[1]}{m[2]}"))
        elif m := LAY.fullmatch(action):
            out.add(("place", f"{m[2]}{m[3]}"))
        elif m := TAKE.fullmatch(action):
            out.add(("tiles", m[1]))
        if seat is not None and action != "pass":
            out.add(("seat", str(seat)))
    return out


def _tile(x: float, y: float, size: float, value: object, ident: str = "") -> str:
    attr = f' id="{ident}"' if ident else ""
    return (
        f'<g class="tile"{attr}><rect x="{x:.1f}" y="{y:.1f}" width="{size:.1f}" '
        f'height="{size:.1f}" rx="3" fill="{TILE_FILL}" stroke="{INK}" stroke-width="1"/>'
        + text(x + size / 2, y + size / 2 + max(FONT, size * 0.55) * 0.36, value, bold=True)
        + "</g>"
    )


def _place_height(stack: Sequence[Any]) -> float:
    return CARD_H + COVER_STEP * (len(stack) - 1)


class _Drawing:
    def __init__(self, board: BoardInput) -> None:
        self.board = board
        self.body = board.body
        self._: Callable[[str], str] = board.gettext
        self.actions = _Actions(board.legal)
        self.placed: set[str] = set()
        self.values = _card_values()
        self.players: list[Mapping[str, Any]] = list(self.body["players"])
        self.n = len(self.players)
        self.tile_on_card: dict[str, Mapping[str, int] | None] = {
            str(s["name"]): s.get("placed") for s in self.body["sections"]
        }
        places = {str(s["name"]): len(s["cards"]) for s in self.body["sections"]}
        self.recent = _changed(board.recent, places)

    def mark(self, kind: str, name: str) -> str:
        return " recent" if (kind, name) in self.recent else ""

    def _spot(
        self,
        actions: Sequence[str],
        inner: str,
        label: str,
        frame: tuple[float, float, float, float] | None = None,
        ident: str | None = None,
    ) -> str:
        """`inner` offering `actions`; `frame` (x, y, w, h) is outlined so the place
        reads as one to click even before the page's pointer styles apply, and widened
        to a phone's tap size by an invisible area."""
        if not actions:
            return inner
        self.placed.update(actions)
        if frame is not None:
            x, y, w, h = frame
            inner += (
                f'<rect class="target" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
                f'rx="5" fill="none" stroke="{TARGET}" stroke-width="2.5" stroke-dasharray="6 3"/>'
            )
            if w < TAP or h < TAP:
                hw, hh = max(w, TAP), max(h, TAP)
                inner += hit(x + w / 2 - hw / 2, y + h / 2 - hh / 2, hw, hh)
        return spot(actions, inner, label, ident=ident)

    # -- the prompt ------------------------------------------------------------

    def prompt(self) -> str:
        """The decision awaited, in words, naming the seat by its player's name."""
        _ = self._
        b = self.body
        phase = b["phase"]
        who = self.board.name(int(b.get("turn_of", 0)))
        if phase == "over":
            return _("The game is over")
        if phase == "setup":
            return _("Setting up: fame tiles are revealed and five cards dealt to each player")
        if phase == "drawing":
            return _("{seat} draws a card").format(seat=who)
        refill = any(
            s["open"] and s.get("placed") is None and len(s["tiles"]) < 2 for s in b["sections"]
        )
        if refill and int(b.get("bag_size", 0)) > 0 and int(b["current_player"]) < 0:
            return _("New fame tiles are being revealed")
        if phase == "scoring":
            return _("{seat} claims fame tiles in the scoring check").format(seat=who)
        if int(b.get("actions_done", 0)) == 0:
            return _("{seat} takes the second action: play a card or draw").format(seat=who)
        return _("{seat} takes the third action: play a card or draw").format(seat=who)

    # -- the wall --------------------------------------------------------------

    def _card(
        self, x: float, y: float, w: float, seat: int, kind: str, covered: bool, tile: object
    ) -> str:
        colour = seat_colour(seat)
        fill = "#d9d6d0" if covered else _tint(colour, 0.22)
        opacity = ' opacity="0.8"' if covered else ""
        parts = [
            f'<g class="card seat{seat} {kind}{" covered" if covered else ""}"{opacity}>',
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{CARD_H:.1f}" rx="3" '
            f'fill="{fill}" stroke="{colour}" stroke-width="2"/>',
            seat_marker(seat, x + 13, y + 14, 10, size=FONT, name=self.board.name(seat)),
            text(x + 27, y + 19, self._(kind), anchor="start"),
        ]
        right = x + w - 5
        if tile is not None:
            # The fame tile lies on the card: its value lowers the owner's total.
            parts.append(_tile(right - 22, y + 3, 22, tile))
            right -= 26
        parts.append(text(right, y + 19.5, self.values.get(kind, ""), anchor="end", bold=True))
        if covered:
            parts.append(
                f'<line x1="{x + 24:.1f}" y1="{y + 10:.1f}" x2="{x + w - 4:.1f}" '
                f'y2="{y + 10:.1f}" stroke="{INK}" stroke-width="1"/>'
            )
        parts.append("</g>")
        return "".join(parts)

    def _place(
        self, name: str, number: int, stack: Sequence[Any], x: float, y: float, w: float
    ) -> str:
        placed = self.tile_on_card.get(name)
        tile = placed["value"] if placed is not None and placed["card"] == number else None
        parts = [text(x + 9, y + 19, number, fill=MUTED)]
        cx, cw = x + 19, w - 22
        for level, (seat, kind) in enumerate(stack):
            top = level == len(stack) - 1
            # A card laid on another goes a little to the right, so both stay readable.
            indent = 6.0 * level
            parts.append(
                self._card(
                    cx + indent,
                    y + COVER_STEP * level,
                    cw - indent,
                    int(seat),
                    str(kind),
                    not top,
                    tile if top else None,
                )
            )
        top_seat, top_kind = stack[-1]
        owner = self.board.name(int(top_seat))
        mark = self.mark("place", f"{name}{number}")
        inner = f'<g class="place{mark}" data-place="{name}{number}">{"".join(parts)}</g>'
        ident = f"gw-place-{name}{number}"
        actions = self.actions.card.get((name, number), [])
        if not actions:
            return f'<g id="{ident}">{inner}</g>'
        what = f"{name}{number} ({owner}, {self._(top_kind)})"
        if all(a.startswith("lay") for a in actions):
            tiles = ", ".join(a.split()[1] for a in actions)
            label = self._("{place}: lay a fame tile here ({tiles})").format(
                place=what, tiles=tiles
            )
        else:
            label = self._("{place}: cover it with the dragon").format(place=what)
        frame = (x + 17, y - 2, w - 19, _place_height(stack) + 4)
        return self._spot(actions, inner, label, frame, ident)

    def _section_height(self, section: Mapping[str, Any]) -> float:
        places = section["cards"]
        h = SECTION_HEAD + TILE_BAND
        h += sum(_place_height(st) + PLACE_GAP for st in places)
        if self.actions.build.get(section["name"]):
            h += CARD_H + PLACE_GAP
        return h + 6

    def _totals_columns(self) -> int:
        # Rows as even as the section's width allows: 2, 3, 2+2, 3+2.
        return 2 if self.n in (2, 4) else 3

    def _totals_height(self) -> float:
        cols = self._totals_columns()
        return 26.0 * ((self.n + cols - 1) // cols) + 6

    def _section(
        self, section: Mapping[str, Any], x: float, y: float, w: float, h: float
    ) -> list[str]:
        name = str(section["name"])
        is_open = bool(section["open"])
        parts = [
            f'<rect class="section" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
            f'rx="5" fill="{SECTION_FILL if is_open else CLOSED_FILL}" stroke="{INK}" '
            f'stroke-width="1.2"/>',
            text(x + 8, y + 22, name, 20, anchor="start", bold=True),
        ]
        if not is_open:
            parts.append(text(x + 30, y + 21, self._("closed"), anchor="start", fill=MUTED))
        # The face-up fame tiles, the prize for leading here.
        tiles = list(section["tiles"])
        ty = y + SECTION_HEAD
        mark = self.mark("tiles", name)
        if tiles:
            inner = "".join(
                _tile(x + 8 + (TILE + 6) * i, ty + 4, TILE, v) for i, v in enumerate(tiles)
            )
            take = self.actions.take.get(name, [])
            label = self._("{section}: take the fame tiles {tiles}").format(
                section=name, tiles=", ".join(map(str, tiles))
            )
            frame = (x + 5, ty + 1, (TILE + 6) * len(tiles), TILE + 6)
            group = f'<g class="tiles{mark}">{inner}</g>'
            if take:
                parts.append(self._spot(take, group, label, frame, f"gw-tiles-{name}"))
            else:
                parts.append(f'<g id="gw-tiles-{name}">{group}</g>')
        elif is_open:
            parts.append(text(x + 8, ty + 28, self._("no tiles"), anchor="start", fill=MUTED))
        cy = ty + TILE_BAND
        for i, stack in enumerate(section["cards"]):
            if stack:
                parts.append(self._place(name, i + 1, stack, x, cy, w))
            cy += _place_height(stack) + PLACE_GAP
        build = self.actions.build.get(name, [])
        if build:
            slot = (
                f'<g class="slot"><rect x="{x + 19:.1f}" y="{cy:.1f}" width="{w - 22:.1f}" '
                f'height="{CARD_H:.1f}" rx="3" fill="#ffffff" fill-opacity="0.6" stroke="{INK}" '
                f'stroke-dasharray="4 3"/>'
                + text(x + 19 + (w - 22) / 2, cy + 19, "+ " + self._("play here"))
                + "</g>"
            )
            kinds = sorted({k for a in build if (k := _kind_of(a))})
            label = self._("{section}: play {kinds} here").format(
                section=name, kinds=", ".join(self._(k) for k in kinds)
            )
            frame = (x + 17, cy - 2, w - 19, CARD_H + 4)
            parts.append(self._spot(build, slot, label, frame, f"gw-slot-{name}"))
        # Each seat's total here, as it counts now.
        totals = [int(t) for t in section["totals"]]
        best = max(totals) if totals else 0
        leader = totals.index(best) if totals.count(best) == 1 else -1
        cols = self._totals_columns()
        cell = (w - 8) / cols
        base = y + h - self._totals_height()
        parts.append(
            f'<line x1="{x + 4:.1f}" y1="{base:.1f}" x2="{x + w - 4:.1f}" y2="{base:.1f}" '
            f'stroke="{MUTED}" stroke-width="0.8"/>'
        )
        for seat, total in enumerate(totals):
            tx = x + 4 + cell * (seat % cols)
            tyy = base + 4 + 26 * (seat // cols)
            if seat == leader and is_open:
                parts.append(
                    f'<rect x="{tx + 1:.1f}" y="{tyy:.1f}" width="{cell - 2:.1f}" height="23" '
                    f'rx="3" fill="{TILE_FILL}" fill-opacity="0.55"/>'
                )
            parts.append(
                seat_marker(seat, tx + 12, tyy + 11.5, 9.5, size=FONT, name=self.board.name(seat))
            )
            parts.append(text(tx + 25, tyy + 16.5, total, anchor="start", bold=True))
        return [
            f'<g class="wall-section" id="gw-section-{name}" data-section="{name}">',
            *parts,
            "</g>",
        ]

    # -- below the wall --------------------------------------------------------

    def _hand(self, y: float) -> tuple[list[str], float]:
        hand: Mapping[str, int] | None = self.body.get("hand")
        seat = self.board.seat
        if hand is None or seat is None:
            return [], y
        _ = self._
        parts = [text(MARGIN, y + 16, _("Your hand"), anchor="start", bold=True)]
        colour = seat_colour(seat)
        cells: list[str] = []
        top = y + 26
        step = HAND_W + 6

        def at(k: int) -> tuple[float, float]:
            row, col = divmod(k, HAND_PER_ROW)
            return MARGIN + step * col, top + (HAND_H + 8) * row

        for kind in KINDS:
            count = hand.get(kind, 0)
            if not count:
                continue
            x, cy = at(len(cells))
            card = (
                f'<g class="hand-card {kind}"><rect x="{x:.1f}" y="{cy:.1f}" width="{HAND_W:.1f}" '
                f'height="{HAND_H:.1f}" rx="4" fill="{_tint(colour, 0.22)}" stroke="{colour}" '
                f'stroke-width="2"/>'
                + text(x + HAND_W / 2, cy + 19, _(kind))
                + text(x + 6, cy + 43, self.values.get(kind, ""), anchor="start", bold=True)
                + text(x + HAND_W - 6, cy + 43, f"×{count}", anchor="end", bold=True)
                + "</g>"
            )
            ident = f"gw-hand-{kind}"
            actions = self.actions.by_kind.get(kind, [])
            if actions:
                self.placed.update(actions)
                label = _("your {kind} cards ({count}): pick one to play").format(
                    kind=_(kind), count=count
                )
                cells.append(spot(actions, card, label, pick=f"card-{kind}", ident=ident))
            else:
                cells.append(f'<g id="{ident}">{card}</g>')
        if not cells:
            parts.append(text(MARGIN, top + 30, _("empty"), anchor="start", fill=MUTED))
            cells.append("")
        # The deck: its size is public, its contents known to its owner but never its order.
        deck_size = int(self.players[seat]["deck_size"])
        dx, dy = at(len(cells))
        dx += 4
        pile = (
            f'<g class="deck"><rect x="{dx + 4:.1f}" y="{dy - 3:.1f}" width="{HAND_W - 8:.1f}" '
            f'height="{HAND_H:.1f}" rx="4" fill="{CARD_BACK}" stroke="{INK}"/>'
            f'<rect x="{dx:.1f}" y="{dy:.1f}" width="{HAND_W - 8:.1f}" height="{HAND_H:.1f}" '
            f'rx="4" fill="{CARD_BACK}" stroke="{INK}"/>'
            + text(dx + (HAND_W - 8) / 2, dy + 21, _("deck"), fill="#ffffff")
            + text(dx + (HAND_W - 8) / 2, dy + 43, deck_size, 16, fill="#ffffff", bold=True)
            + "</g>"
        )
        label = _("draw a card from your deck ({n} left)").format(n=deck_size)
        frame = (dx - 4, dy - 7, HAND_W + 4, HAND_H + 11)
        if self.actions.draw:
            cells.append(self._spot(self.actions.draw, pile, label, frame, "gw-deck"))
        else:
            cells.append(f'<g id="gw-deck">{pile}</g>')
        parts += cells
        bottom = at(len(cells) - 1)[1] + HAND_H + 12
        deck: Mapping[str, int] = self.body.get("deck") or {}
        inside = ", ".join(f"{c} {_(k)}" for k in KINDS if (c := deck.get(k, 0)))
        if inside:
            line = _("your deck holds: {cards}").format(cards=inside)
            for k, part in enumerate(wrap(line, FONT, WIDTH - 2 * MARGIN)):
                parts.append(text(MARGIN, bottom + 12 + 18 * k, part, anchor="start", fill=MUTED))
                last = bottom + 12 + 18 * k
            bottom = last + 10
        return parts, bottom

    def _seats(self, y: float) -> tuple[list[str], float]:
        # At the end nobody has a turn any more.
        _ = self._
        turn = -1 if self.body["phase"] == "over" else int(self.body["turn_of"])
        deciding = int(self.body["current_player"])
        me = self.board.seat
        won_x = MARGIN + 190
        per_line = int((WIDTH - MARGIN - won_x) // 26)
        ry = y
        parts: list[str] = []
        for seat, player in enumerate(self.players):
            won = [int(v) for v in player["won"]]
            # A seat that has won many tiles gets a taller row rather than tiles off the edge.
            height = SEAT_ROW + 26 * max(0, (len(won) - 1) // per_line)
            row = []
            if seat == me:
                row.append(
                    f'<rect x="{MARGIN:.1f}" y="{ry:.1f}" width="{WIDTH - 2 * MARGIN:.1f}" '
                    f'height="{height - 3:.1f}" rx="4" fill="{_tint(seat_colour(seat), 0.15)}" '
                    f'stroke="{seat_colour(seat)}" stroke-width="1.5"/>'
                )
            line1 = ry + 18
            if seat == turn:
                row.append(
                    f'<polygon class="turn-mark" points="{MARGIN + 4:.1f},{line1 - 12:.1f} '
                    f'{MARGIN + 14:.1f},{line1 - 5:.1f} {MARGIN + 4:.1f},{line1 + 2:.1f}" '
                    f'fill="{INK}"/>'
                )
            row.append(
                seat_marker(seat, MARGIN + 30, line1 - 5, 10, size=FONT, name=self.board.name(seat))
            )
            name = _fit(self.board.name(seat), FONT, 150)
            if seat == me:
                name += f" ({_('you')})"
            row.append(text(MARGIN + 45, line1, name, anchor="start", bold=True))
            if seat == turn:
                note = _("to decide") if seat == deciding else _("their turn")
                nx = MARGIN + 53 + text_width(name, FONT, bold=True)
                row.append(text(nx, line1, note, anchor="start", fill=MUTED))
            row.append(
                text(
                    WIDTH - MARGIN - 6,
                    line1,
                    _("{n} fame").format(n=player["fame"]),
                    anchor="end",
                    bold=True,
                )
            )
            sizes = _("hand {hand} · deck {deck}").format(
                hand=player["hand_size"], deck=player["deck_size"]
            )
            row.append(text(MARGIN + 45, ry + 38, sizes, anchor="start"))
            for i, v in enumerate(won):
                line, col = divmod(i, per_line)
                row.append(
                    _tile(won_x + 26 * col, ry + 23 + 26 * line, 23, v, f"gw-won-{seat}-{i}")
                )
            mark = self.mark("seat", str(seat))
            parts.append(f'<g class="seat seat{seat}{mark}" id="gw-seat-{seat}">{"".join(row)}</g>')
            ry += height
        return parts, ry

    def _bag(self, y: float) -> tuple[list[str], float]:
        _ = self._
        bag: Mapping[str, int] = self.body.get("bag") or {}
        size = int(self.body.get("bag_size", 0))
        ngettext = ngettext_of(_)
        parts = [
            f'<rect x="{MARGIN:.1f}" y="{y:.1f}" width="22" height="22" rx="3" '
            f'fill="{TILE_BACK}" stroke="{INK}"/>',
            text(
                MARGIN + 30,
                y + 16,
                ngettext("bag: {n} fame tile", "bag: {n} fame tiles", size).format(n=size),
                anchor="start",
            ),
        ]
        y += 24
        lines: list[str] = []
        known = "  ".join(f"{v}×{c}" for v, c in sorted(bag.items(), key=lambda kv: int(kv[0])))
        if known:
            lines += wrap(_("in the bag: {tiles}").format(tiles=known), FONT, WIDTH - 2 * MARGIN)
        boxed: Mapping[str, int] = self.body.get("boxed") or {}
        if boxed:
            out = "  ".join(f"{v}×{c}" for v, c in sorted(boxed.items(), key=lambda kv: int(kv[0])))
            lines += wrap(_("boxed: {tiles}").format(tiles=out), FONT, WIDTH - 2 * MARGIN)
        for line in lines:
            parts.append(text(MARGIN, y + 14, line, anchor="start", fill=MUTED))
            y += 18
        return [f'<g class="bag" id="gw-bag">{"".join(parts)}</g>'], y + 8

    def _legend(self, y: float) -> tuple[list[str], float]:
        """The wall's symbols in words, each beside a small drawing of itself."""
        _ = self._

        def tile(ty: float) -> str:
            return _tile(MARGIN + 4, ty - 13, 26, 5)

        def card(ty: float) -> str:
            return (
                f'<rect x="{MARGIN:.1f}" y="{ty - 12:.1f}" width="40" height="24" rx="3" '
                f'fill="{_tint(seat_colour(0), 0.22)}" stroke="{seat_colour(0)}" '
                f'stroke-width="2"/>'
                + seat_marker(0, MARGIN + 12, ty, 8, label=False, name=self.board.name(0))
            )

        def covered(ty: float) -> str:
            return (
                f'<rect x="{MARGIN:.1f}" y="{ty - 12:.1f}" width="40" height="24" rx="3" '
                f'fill="#d9d6d0" stroke="{MUTED}" stroke-width="2" opacity="0.6"/>'
                f'<line x1="{MARGIN + 4:.1f}" y1="{ty:.1f}" x2="{MARGIN + 36:.1f}" '
                f'y2="{ty:.1f}" stroke="{INK}"/>'
            )

        def total(ty: float) -> str:
            return (
                f'<rect x="{MARGIN:.1f}" y="{ty - 12:.1f}" width="40" height="24" rx="3" '
                f'fill="{TILE_FILL}" fill-opacity="0.55"/>'
                + seat_marker(1, MARGIN + 12, ty, 8, label=False, name=self.board.name(1))
            )

        def target(ty: float) -> str:
            return (
                f'<rect x="{MARGIN:.1f}" y="{ty - 12:.1f}" width="40" height="24" rx="5" '
                f'fill="none" stroke="{TARGET}" stroke-width="2.5" stroke-dasharray="6 3"/>'
            )

        symbols: list[tuple[Callable[[float], str], str]] = [
            (
                tile,
                _(
                    "fame tile: the prize for leading a section; on a card it lowers that card's total"
                ),
            ),
            (
                card,
                _(
                    "a card played, by seat: its kind and its value (a warrior counts more after other warriors)"
                ),
            ),
            (covered, _("greyed and struck through: a card covered by a dragon")),
            (total, _("bottom of a section: each seat's total there; the leader's is shaded")),
            (target, _("dashed red frame: you may play here now")),
        ]
        out = [text(MARGIN, y + 16, _("Legend"), anchor="start", bold=True)]
        y += 28
        for drawing, words in symbols:
            lines = wrap(words, FONT, WIDTH - MARGIN - 56)
            out.append(drawing(y + 9 * len(lines)))
            for k, line in enumerate(lines):
                out.append(text(MARGIN + 52, y + 14 + 18 * k, line, anchor="start"))
            y += 18 * len(lines) + 10
        return [f'<g class="legend" id="gw-legend">{"".join(out)}</g>'], y

    # -- the whole ---------------------------------------------------------------

    def draw(self) -> Board:
        body = self.body
        _ = self._
        sections: list[Mapping[str, Any]] = list(body["sections"])
        lines = wrap(self.prompt(), FONT, WIDTH - 2 * MARGIN)[:2]
        prompt = "".join(
            text(MARGIN, 44 + 18 * k, line, anchor="start") for k, line in enumerate(lines)
        )
        parts = [
            text(MARGIN, 22, _("The Great Wall"), 18, anchor="start", bold=True),
            f'<g class="prompt">{prompt}</g>',
        ]
        flag = ""
        if body.get("cards_stopped"):
            flag = _("No more cards are played")
        elif body.get("final_round"):
            flag = _("Final round: {seat} has played all cards").format(
                seat=self.board.name(int(body["emptied_by"]))
            )
        if flag:
            parts.append(text(MARGIN, 80, flag, anchor="start", fill="#b03a2e", bold=True))
        count = max(1, len(sections))
        per_row = min(PER_ROW, count)
        sw = (WIDTH - 2 * MARGIN - GAP * (per_row - 1)) / per_row
        y = HEAD
        for first in range(0, count, per_row):
            row = sections[first : first + per_row]
            sh = max(self._section_height(s) for s in row) + self._totals_height()
            for i, section in enumerate(row):
                parts += self._section(section, MARGIN + i * (sw + GAP), y, sw, sh)
            y += sh + GAP
        hand, y = self._hand(y + 4)
        seats, y = self._seats(y + 4)
        bag, y = self._bag(y + 6)
        legend, y = self._legend(y + 4)
        parts += hand + seats + bag + legend
        svg = document(WIDTH, y + MARGIN, parts, _("The Great Wall of China"), DESK_WIDTH)
        return Board(svg, self.placed)


def confirm(notation: str, board: BoardInput) -> str | None:
    """What a move that starts the end of the game will do, to be confirmed first.

    Playing one's last cards with an empty deck starts the final round (every other
    player has one more turn). `pass` needs no question: it exists only when nothing
    can be played or drawn (GW-2.4).
    """
    _ = board.gettext
    body = board.body
    seat = board.seat
    hand: Mapping[str, int] = body.get("hand") or {}
    if seat is None or body.get("final_round") or body.get("cards_stopped"):
        return None
    if int(body["players"][seat]["deck_size"]) or _kind_of(notation) is None:
        return None
    m = PLAY.fullmatch(notation)
    played = int(m[1] or 1) if m else 1
    if played < sum(int(n) for n in hand.values()):
        return None
    return _("This plays your last card: every other player has one more turn, then the game ends.")


def render(board: BoardInput) -> Board:
    """The board as the viewer of `board.view` sees it, with its legal actions placed."""
    return _Drawing(board).draw()
