"""The Great Wall of China: the wall's sections side by side, then the viewer's hand and
the seats.

Each section shows its face-up fame tiles, the cards played at it place by place from
the top down (the printed wall's left to right; a dragon overlapping the card it covers)
and each seat's total there. Below: the viewer's hand by kind and its deck, every seat's
hand and deck sizes and the fame won, the bag.

Actions placed on the board: `take X` on the section's tile; `lay V on Xp` and
`dragon on Xp` on card place p (several tile values there are one spot); `play ... X`
and `horseman X` on the open slot at the end of the section; `draw` on the viewer's deck.
`pass` is left to the list.
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
    seat_colour,
    seat_label,
    seat_marker,
    spot,
)

WIDTH = 600.0
MARGIN = 8.0
GAP = 8.0
HEAD = 58.0  # title and the awaited decision
SECTION_HEAD = 26.0  # the section's letter
TILE_BAND = 42.0  # its face-up fame tiles
CARD_H = 22.0
COVER_STEP = 16.0  # a card on top shows this much of the one it covers
PLACE_GAP = 4.0
SEAT_ROW = 30.0

TILE_FILL = "#f2c14e"
TILE_BACK = "#8c6a3a"
CARD_BACK = "#6b4f2a"
MUTED = "#8a8378"
SECTION_FILL = "#efe6d2"
TARGET = "#b03a2e"
CLOSED_FILL = "#dcd8cf"

TAKE = re.compile(r"take ([A-Z])")
LAY = re.compile(r"lay (\d+) on ([A-Z])(\d+)")
COVER = re.compile(r"dragon on ([A-Z])(\d+)")
PLAY = re.compile(r"play (?:\d+ )?\w+ ([A-Z])")
HORSEMAN = re.compile(r"horseman ([A-Z])")


def text(
    x: float,
    y: float,
    content: object,
    size: float = 12,
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


class _Actions:
    """The legal actions sorted by the place on the board they belong to."""

    def __init__(self, legal: Sequence[str]) -> None:
        self.take: dict[str, list[str]] = {}
        self.card: dict[tuple[str, int], list[str]] = {}
        self.build: dict[str, list[str]] = {}
        self.draw: list[str] = []
        for action in legal:
            if m := TAKE.fullmatch(action):
                self.take.setdefault(m[1], []).append(action)
            elif m := LAY.fullmatch(action):
                self.card.setdefault((m[2], int(m[3])), []).append(action)
            elif m := COVER.fullmatch(action):
                self.card.setdefault((m[1], int(m[2])), []).append(action)
            elif (m := PLAY.fullmatch(action)) or (m := HORSEMAN.fullmatch(action)):
                self.build.setdefault(m[1], []).append(action)
            elif action == "draw":
                self.draw.append(action)


def _tile(x: float, y: float, size: float, value: object) -> str:
    return (
        f'<g class="tile"><rect x="{x:.1f}" y="{y:.1f}" width="{size:.1f}" height="{size:.1f}" '
        f'rx="3" fill="{TILE_FILL}" stroke="{INK}" stroke-width="1"/>'
        + text(x + size / 2, y + size / 2 + size * 0.2, value, size * 0.55, bold=True)
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

    def _spot(
        self,
        actions: Sequence[str],
        inner: str,
        label: str,
        frame: tuple[float, float, float, float] | None = None,
    ) -> str:
        """`inner` offering `actions`; `frame` (x, y, w, h) is outlined so the place
        reads as one to click even before the page's pointer styles apply."""
        if not actions:
            return inner
        self.placed.update(actions)
        if frame is not None:
            x, y, w, h = frame
            inner += (
                f'<rect class="target" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
                f'rx="5" fill="none" stroke="{TARGET}" stroke-width="2.5" stroke-dasharray="6 3"/>'
            )
        return spot(actions, inner, label)

    # -- the wall --------------------------------------------------------------

    def _card(
        self, x: float, y: float, w: float, seat: int, kind: str, covered: bool, tile: object
    ) -> str:
        colour = seat_colour(seat)
        fill = "#d9d6d0" if covered else _tint(colour, 0.22)
        opacity = ' opacity="0.6"' if covered else ""
        parts = [
            f'<g class="card seat{seat} {kind}{" covered" if covered else ""}"{opacity}>',
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{CARD_H:.1f}" rx="3" '
            f'fill="{fill}" stroke="{colour}" stroke-width="2"/>',
            seat_marker(seat, x + 11, y + CARD_H / 2, 8.5),
            text(x + 22, y + 15.5, self._(kind), 13, anchor="start"),
        ]
        right = x + w - 5
        if tile is not None:
            # The fame tile lies on the card: its value lowers the owner's total.
            parts.append(_tile(right - 18, y + 2, 18, tile))
            right -= 22
        parts.append(text(right, y + 16, self.values.get(kind, ""), 14, "end", bold=True))
        if covered:
            parts.append(
                f'<line x1="{x + 20:.1f}" y1="{y + CARD_H / 2:.1f}" x2="{x + w - 4:.1f}" '
                f'y2="{y + CARD_H / 2:.1f}" stroke="{INK}" stroke-width="1"/>'
            )
        parts.append("</g>")
        return "".join(parts)

    def _place(
        self, name: str, number: int, stack: Sequence[Any], x: float, y: float, w: float
    ) -> str:
        placed = self.tile_on_card.get(name)
        tile = placed["value"] if placed is not None and placed["card"] == number else None
        parts = [text(x + 6, y + 15, number, 10, fill=MUTED)]
        cx, cw = x + 13, w - 15
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
        owner = seat_label(int(top_seat))
        inner = f'<g class="place" data-place="{name}{number}">{"".join(parts)}</g>'
        actions = self.actions.card.get((name, number), [])
        if not actions:
            return inner
        if all(a.startswith("lay") for a in actions):
            tiles = " or ".join(a.split()[1] for a in actions)
            label = f"{name}{number} ({owner} {top_kind}): {self._('lay fame tile')} {tiles}"
        else:
            label = f"{name}{number} ({owner} {top_kind}): {self._('cover with the dragon')}"
        frame = (x + 12, y - 2, w - 13, _place_height(stack) + 4)
        return self._spot(actions, inner, label, frame)

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
        return 24.0 * ((self.n + cols - 1) // cols) + 6

    def _section(
        self, section: Mapping[str, Any], x: float, y: float, w: float, h: float
    ) -> list[str]:
        name = str(section["name"])
        is_open = bool(section["open"])
        parts = [
            f'<rect class="section" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
            f'rx="5" fill="{SECTION_FILL if is_open else CLOSED_FILL}" stroke="{INK}" '
            f'stroke-width="1.2"/>',
            text(x + 8, y + 20, name, 18, anchor="start", bold=True),
        ]
        if not is_open:
            parts.append(text(x + 28, y + 19, self._("closed"), 12, anchor="start", fill=MUTED))
        # The face-up fame tiles, the prize for leading here.
        tiles = list(section["tiles"])
        ty = y + SECTION_HEAD
        if tiles:
            inner = "".join(_tile(x + 8 + 38 * i, ty + 2, 32, v) for i, v in enumerate(tiles))
            take = self.actions.take.get(name, [])
            label = f"{name}: {self._('take the fame tile')} {' '.join(map(str, tiles))}"
            frame = (x + 5, ty - 1, 38.0 * len(tiles), 38.0)
            parts.append(self._spot(take, f'<g class="tiles">{inner}</g>', label, frame))
        elif is_open:
            parts.append(text(x + 8, ty + 22, self._("no tiles"), 12, anchor="start", fill=MUTED))
        cy = ty + TILE_BAND
        for i, stack in enumerate(section["cards"]):
            if stack:
                parts.append(self._place(name, i + 1, stack, x, cy, w))
            cy += _place_height(stack) + PLACE_GAP
        build = self.actions.build.get(name, [])
        if build:
            slot = (
                f'<g class="slot"><rect x="{x + 13:.1f}" y="{cy:.1f}" width="{w - 15:.1f}" '
                f'height="{CARD_H:.1f}" rx="3" fill="#ffffff" fill-opacity="0.6" stroke="{INK}" '
                f'stroke-dasharray="4 3"/>'
                + text(x + 13 + (w - 15) / 2, cy + 15.5, "+ " + self._("play here"), 12)
                + "</g>"
            )
            kinds = sorted({a.split()[-2] for a in build})
            parts.append(self._spot(build, slot, f"{name}: {self._('play')} {', '.join(kinds)}"))
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
            cx = x + 4 + cell * (seat % cols)
            cyy = base + 4 + 24 * (seat // cols)
            if seat == leader and is_open:
                parts.append(
                    f'<rect x="{cx + 1:.1f}" y="{cyy:.1f}" width="{cell - 2:.1f}" height="21" '
                    f'rx="3" fill="{TILE_FILL}" fill-opacity="0.55"/>'
                )
            parts.append(seat_marker(seat, cx + 11, cyy + 10.5, 8.5))
            parts.append(text(cx + 23, cyy + 16, total, 14, anchor="start", bold=True))
        return [f'<g class="wall-section" data-section="{name}">', *parts, "</g>"]

    # -- below the wall --------------------------------------------------------

    def _hand(self, y: float) -> tuple[list[str], float]:
        hand: Mapping[str, int] | None = self.body.get("hand")
        seat = self.board.seat
        if hand is None or seat is None:
            return [], y
        parts = [text(MARGIN, y + 14, self._("Your hand"), 14, anchor="start", bold=True)]
        colour = seat_colour(seat)
        x = MARGIN
        cy = y + 22
        cw, ch = 64.0, 46.0
        if not hand:
            parts.append(text(x, cy + 28, self._("empty"), 13, anchor="start", fill=MUTED))
        for kind in KINDS:
            count = hand.get(kind, 0)
            if not count:
                continue
            parts.append(
                f'<g class="hand-card {kind}"><rect x="{x:.1f}" y="{cy:.1f}" width="{cw:.1f}" '
                f'height="{ch:.1f}" rx="4" fill="{_tint(colour, 0.22)}" stroke="{colour}" '
                f'stroke-width="2"/>'
                + text(x + cw / 2, cy + 17, self._(kind), 12)
                + text(x + 6, cy + 38, self.values.get(kind, ""), 14, "start", bold=True)
                + text(x + cw - 6, cy + 38, f"×{count}", 14, "end", bold=True)
                + "</g>"
            )
            x += cw + 6
        # The deck: its size is public, its contents known to its owner but never its order.
        deck_size = int(self.players[seat]["deck_size"])
        dx = WIDTH - MARGIN - 52
        pile = (
            f'<g class="deck"><rect x="{dx + 4:.1f}" y="{cy - 3:.1f}" width="48" height="{ch:.1f}" '
            f'rx="4" fill="{CARD_BACK}" stroke="{INK}"/>'
            f'<rect x="{dx:.1f}" y="{cy:.1f}" width="48" height="{ch:.1f}" rx="4" '
            f'fill="{CARD_BACK}" stroke="{INK}"/>'
            + text(dx + 24, cy + 20, self._("deck"), 11, fill="#ffffff")
            + text(dx + 24, cy + 38, deck_size, 15, fill="#ffffff", bold=True)
            + "</g>"
        )
        label = f"{self._('draw a card from your deck')} ({deck_size})"
        parts.append(self._spot(self.actions.draw, pile, label, (dx - 4, cy - 7, 60, ch + 11)))
        deck: Mapping[str, int] = self.body.get("deck") or {}
        inside = ", ".join(f"{c} {self._(k)}" for k in KINDS if (c := deck.get(k, 0)))
        if inside:
            parts.append(
                text(
                    dx + 48,
                    cy + ch + 14,
                    f"{self._('deck holds')}: {inside}",
                    11,
                    "end",
                    fill=MUTED,
                )
            )
        return parts, cy + ch + 22

    def _seats(self, y: float) -> tuple[list[str], float]:
        # At the end nobody has a turn any more.
        turn = -1 if self.body["phase"] == "over" else int(self.body["turn_of"])
        deciding = int(self.body["current_player"])
        me = self.board.seat
        parts = [
            text(MARGIN + 205, y + 12, self._("hand"), 11, fill=MUTED),
            text(MARGIN + 250, y + 12, self._("deck"), 11, fill=MUTED),
            text(MARGIN + 300, y + 12, self._("fame"), 11, fill=MUTED),
            text(MARGIN + 330, y + 12, self._("tiles won"), 11, "start", fill=MUTED),
        ]
        y += 16
        won_x = MARGIN + 330
        per_line = int((WIDTH - MARGIN - won_x) // 24)
        ry = y
        for seat, player in enumerate(self.players):
            won = [int(v) for v in player["won"]]
            # A seat that has won many tiles gets a taller row rather than tiles off the edge.
            height = SEAT_ROW + 24 * max(0, (len(won) - 1) // per_line)
            row = []
            if seat == me:
                row.append(
                    f'<rect x="{MARGIN:.1f}" y="{ry:.1f}" width="{WIDTH - 2 * MARGIN:.1f}" '
                    f'height="{height - 3:.1f}" rx="4" fill="{_tint(seat_colour(seat), 0.15)}" '
                    f'stroke="{seat_colour(seat)}" stroke-width="1.5"/>'
                )
            if seat == turn:
                row.append(text(MARGIN + 10, ry + 19, "▶", 14))
            row.append(seat_marker(seat, MARGIN + 32, ry + 13.5, 9))
            name = seat_label(seat)
            if seat == me:
                name += f" ({self._('you')})"
            row.append(text(MARGIN + 46, ry + 19, name, 14, anchor="start", bold=True))
            if seat == turn:
                note = self._("to decide") if seat == deciding else self._("their turn")
                row.append(text(MARGIN + 120, ry + 19, note, 11, anchor="start", fill=MUTED))
            row.append(text(MARGIN + 205, ry + 19, player["hand_size"], 14))
            row.append(text(MARGIN + 250, ry + 19, player["deck_size"], 14))
            row.append(text(MARGIN + 300, ry + 19, player["fame"], 15, bold=True))
            for i, v in enumerate(won):
                line, col = divmod(i, per_line)
                row.append(_tile(won_x + 24 * col, ry + 3 + 24 * line, 21, v))
            parts.append(f'<g class="seat seat{seat}">{"".join(row)}</g>')
            ry += height
        return parts, ry

    def _bag(self, y: float) -> tuple[list[str], float]:
        bag: Mapping[str, int] = self.body.get("bag") or {}
        size = int(self.body.get("bag_size", 0))
        parts = [
            f'<rect x="{MARGIN:.1f}" y="{y:.1f}" width="22" height="22" rx="3" '
            f'fill="{TILE_BACK}" stroke="{INK}"/>',
            text(MARGIN + 30, y + 16, f"{self._('bag')}: {size}", 13, "start", bold=True),
        ]
        known = "  ".join(f"{v}×{c}" for v, c in sorted(bag.items(), key=lambda kv: int(kv[0])))
        if known:
            parts.append(text(MARGIN + 95, y + 16, known, 12, "start", fill=MUTED))
        boxed: Mapping[str, int] = self.body.get("boxed") or {}
        if boxed:
            out = "  ".join(f"{v}×{c}" for v, c in sorted(boxed.items(), key=lambda kv: int(kv[0])))
            parts.append(
                text(WIDTH - MARGIN, y + 16, f"{self._('boxed')}: {out}", 12, "end", fill=MUTED)
            )
        return parts, y + 30

    # -- the whole ---------------------------------------------------------------

    def draw(self) -> Board:
        body = self.body
        sections: list[Mapping[str, Any]] = list(body["sections"])
        parts = [
            text(MARGIN, 22, self._("The Great Wall"), 18, anchor="start", bold=True),
            f'<g class="prompt">{text(MARGIN, 44, body.get("pending", ""), 13, anchor="start")}</g>',
        ]
        flags = []
        if body.get("cards_stopped"):
            flags.append(self._("no more cards are played"))
        elif body.get("final_round"):
            flags.append(f"{self._('final round')}: {seat_label(int(body['emptied_by']))}")
        if flags:
            parts.append(
                text(
                    WIDTH - MARGIN,
                    22,
                    " · ".join(flags),
                    13,
                    "end",
                    fill="#b03a2e",
                    bold=True,
                )
            )
        count = max(1, len(sections))
        sw = (WIDTH - 2 * MARGIN - GAP * (count - 1)) / count
        sh = max((self._section_height(s) for s in sections), default=SECTION_HEAD) + (
            self._totals_height()
        )
        for i, section in enumerate(sections):
            parts += self._section(section, MARGIN + i * (sw + GAP), HEAD, sw, sh)
        y = HEAD + sh + 12
        hand, y = self._hand(y)
        seats, y = self._seats(y + 4)
        bag, y = self._bag(y + 6)
        parts += hand + seats + bag
        svg = document(WIDTH, y + MARGIN, parts, self._("The Great Wall of China"))
        return Board(svg, self.placed)


def render(board: BoardInput) -> Board:
    """The board as the viewer of `board.view` sees it, with its legal actions placed."""
    return _Drawing(board).draw()
