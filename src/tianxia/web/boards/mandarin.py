"""Mandarin, the zodiac game: the ring of twelve animal sectors with the mandarins on it,
the dispenser, the die, the lot and the auction in the middle, and every seat's
collection of tiles below.

Each sector is drawn as its three squares (coloured, character, coloured), with the
animal's name outside the ring and the seat holding the sector under it (its squares
tinted too). A collection is two bands of six animals, each animal's tiles stacked in
colour order under its name, the name inverted where the seat holds the sector; the
pagoda (Emperor) tile carries a small pagoda. Money: the viewer's own purse, the others' only once the
game is over and the observation shows them. Face-down tiles of the lot are backs.

Actions placed on the board: `sign X` on sector X; `cash T` on the viewer's tile T;
`take T` on tile T in the passed player's or the debtor's collection; `roll` on the die;
`draw` on the dispenser; `keep` and `offer` on the lot. Bids and `pass` are left to
the page (its number stepper). Nothing is picked up first: every move names one thing
on the board (a sector, a tile, the die, the dispenser, the lot), so each is a target.

The ring is drawn small enough that the animals' names fit beside it and the auction
and the end of the game are told under it, so that on a phone, where the board spans
390 CSS px, no text is under 12 px and nothing to tap under 44 px.

Every element that lasts from one view to the next has an id (`mn-sector-rat`,
`mn-tile-ox-red`, `mn-stone-2`, ...), and what the other seats' last moves changed has
the class `recent`.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tianxia.games.mandarin.data import TABLES
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

WIDTH = 520.0
FONT = readable(WIDTH)  # the smallest text: 12 CSS px on a phone
TAP = tappable(WIDTH)  # the smallest tap target: 44 CSS px on a phone
DESK_WIDTH = 640.0  # CSS px on a wide screen: text some 20 px high, not stretched to the page
HEAD = 100.0  # up to three lines of the awaited decision, and the turn count
CX = WIDTH / 2
CY = HEAD + 210.0
R_SQUARE = 168.0  # centre of the ring's squares
SQUARE = 28.0
R_LABEL = R_SQUARE + SQUARE / 2 + 6  # the animal's name and its holder, outside the ring
STONE = 11.0
STONE_ROW = 24.0  # mandarins sharing a square stand in rows of two, inwards
RING_BOTTOM = CY + 228.0

MARGIN = 8.0
BAND = 6  # animals side by side in a collection: two bands of six
# A collection's columns keep clear of its seat's box, a clickable tile's outline too.
COLUMN_INSET = 4.0
COLUMN = (WIDTH - 2 * MARGIN - 2 * COLUMN_INSET) / BAND
TILE_W = 76.0  # a tile in a collection
LOT_TILE_W = 76.0  # a tile lying in the middle of the ring
TILE_H = 30.0
TILE_STEP = 34.0  # rows of the lot in the ring's middle
# A collection's tiles one under another: a tile's tap area (TAP high) ends where the
# next one's begins.
STACK_STEP = TAP
SEAT_LINE = 50.0  # name, sign and purse; then what the seat is doing
BAND_HEAD = 22.0  # the animals' names over their tiles
PANEL_GAP = 6.0
LOT_PER_ROW = 3

MUTED = "#6f695e"
SECTOR_FILLS = ("#f3e6c4", "#ead8ae")  # neighbouring sectors alternate, as printed
CHARACTER_FILL = "#a3201b"
TILE_BACK = "#4b3b2a"
HINT = 'stroke="#1a1a1a" stroke-width="2" stroke-dasharray="4 2"'
# The six tile colours and the ink that reads on them; the colour's name is written on
# every tile too, so no tile is known by its colour alone.
TILE_FILLS = {
    "red": ("#d62728", "#ffffff"),
    "yellow": ("#f2c80f", INK),
    "green": ("#2e9e44", "#ffffff"),
    "blue": ("#1f66b4", "#ffffff"),
    "pink": ("#f6a9cb", INK),
    "purple": ("#7e4fa6", "#ffffff"),
}
# Which tile bears the pagoda is printed on the tile: the same for every viewer.
PAGODA_TILES = frozenset(TABLES.tile_names[t] for t in TABLES.pagoda_tiles)
COLOUR_ORDER = {c: i for i, c in enumerate(TABLES.colours)}
PIPS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


def _tint(colour: str, share: float) -> str:
    """`colour` mixed with white, `share` of the colour kept."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(255 - (255 - c) * share) for c in rgb]
    return "#" + "".join(f"{c:02x}" for c in mixed)


def text(
    x: float,
    y: float,
    content: object,
    size: float = 12,
    anchor: str = "middle",
    fill: str = INK,
    **attrs: str,
) -> str:
    """Real `<text>` in any ink: light words on dark tiles and squares need their own."""
    extra = "".join(f' {k.replace("_", "-")}="{esc(v)}"' for k, v in attrs.items())
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" text-anchor="{anchor}"'
        f' fill="{fill}"{extra}>{esc(content)}</text>'
    )


def _colour_of(tile: str) -> str:
    return tile.partition("-")[2]


def _animal_of(tile: str) -> str:
    return tile.partition("-")[0]


class _Placer:
    """Wraps things in spots and remembers which actions went on the board."""

    def __init__(self) -> None:
        self.placed: set[str] = set()

    def put(
        self,
        actions: Sequence[str],
        inner: str,
        label: str,
        ident: str,
        box: tuple[float, float, float, float] | None = None,
    ) -> str:
        """`inner` offering `actions` under the id `ident` (on its own group when there is
        nothing to click); `box` (x, y, w, h) is widened to a phone's tap size by an
        invisible area."""
        if not actions:
            return f'<g id="{ident}">{inner}</g>'
        self.placed.update(actions)
        if box is not None:
            x, y, w, h = box
            if w < TAP or h < TAP:
                hw, hh = max(w, TAP), max(h, TAP)
                inner += hit(x + w / 2 - hw / 2, y + h / 2 - hh / 2, hw, hh)
        return spot(actions, inner, label, ident=ident)


class _Actions:
    """The legal actions sorted by the place they belong to."""

    def __init__(self, legal: Sequence[str]) -> None:
        self.sign: dict[str, list[str]] = defaultdict(list)
        self.tile: dict[str, list[str]] = defaultdict(list)
        self.die: list[str] = []
        self.dispenser: list[str] = []
        self.lot: list[str] = []
        self.cash = False  # some tile of the viewer's may be cashed in now
        for action in legal:
            verb, _, rest = action.partition(" ")
            if verb == "sign":
                self.sign[rest].append(action)
            elif verb in ("cash", "take"):
                self.tile[rest].append(action)
                self.cash = self.cash or verb == "cash"
            elif action == "roll":
                self.die.append(action)
            elif action == "draw":
                self.dispenser.append(action)
            elif action in ("keep", "offer"):
                self.lot.append(action)


def _changed(recent: Sequence[tuple[int | None, str]], turn_of: int) -> set[tuple[str, str]]:
    """What the moves in `recent` changed: the sector signed, the tile cashed in or
    taken (where it lies now), the die and the mandarin it moved, the dispenser and the
    lot a draw changed, the auction a bid or a pass changed, the seat that kept a lot."""
    out: set[tuple[str, str]] = set()
    for seat, action in recent:
        verb, _, rest = action.partition(" ")
        mover = seat if seat is not None else turn_of
        if verb == "sign":
            out.add(("sector", rest))
        elif verb in ("cash", "take"):
            out.add(("tile", rest))
            if verb == "cash":
                out.add(("dispenser", ""))
        elif verb in ("roll", "die"):
            out.add(("die", ""))
            if verb == "die" and mover >= 0:
                out.add(("stone", str(mover)))
        elif action in ("draw", "face up", "face down") or verb == "tile":
            out.add(("dispenser", ""))
            out.add(("lot", ""))
            if verb == "tile":
                out.add(("tile", rest))
        elif verb in ("bid", "pass", "offer"):
            out.add(("auction", ""))
        elif action == "keep" and mover >= 0:
            out.add(("seat", str(mover)))
    return out


class _Drawing:
    def __init__(self, board: BoardInput) -> None:
        self.board = board
        self.body: Mapping[str, Any] = board.body
        self.layout = board.layout
        self.viewer = board.seat
        self._: Callable[[str], str] = board.gettext
        self.actions = _Actions(board.legal)
        self.spots = _Placer()
        self.animals: list[str] = list(self.layout["animals"])
        self.characters: list[str] = list(self.layout["characters"])
        self.character_square: int = int(self.layout["character_square"])
        self.squares = 3 * len(self.animals)
        self.players: int = int(self.body["players"])
        to_move = self.body.get("to_move")
        self.to_move = to_move if isinstance(to_move, int) and to_move >= 0 else None
        self.recent = _changed(board.recent, int(self.body.get("turn_of", -1)))
        self.occupied = {q for q in self.body["positions"] if q is not None}

    def mark(self, kind: str, name: str = "") -> str:
        return " recent" if (kind, name) in self.recent else ""

    # -- names ---------------------------------------------------------------------------

    def name(self, seat: int) -> str:
        return self.board.name(seat)

    def who(self, seat: int) -> str:
        if seat == self.viewer:
            return self._("{seat} (you)").format(seat=self.name(seat))
        return self.name(seat)

    def tile_words(self, tile: str) -> str:
        words = f"{self._(_animal_of(tile))} {self._(_colour_of(tile))}"
        if tile in PAGODA_TILES:
            return self._("{tile} (pagoda)").format(tile=words)
        return words

    def status(self) -> str:
        _ = self._
        b = self.body
        phase = b["phase"]
        actor = self.who(self.to_move) if self.to_move is not None else ""
        owner = self.who(int(b["turn_of"])) if b.get("turn_of", -1) >= 0 else ""
        if phase == "over":
            winners = [self.name(w) for w in b.get("winners", [])]
            if not winners:
                return _("Game over")
            return _("Game over: {winners} won").format(winners=", ".join(winners))
        lines = {
            "sign": _("{actor} chooses an animal sign"),
            "start": _("{actor} may cash in tiles, then rolls"),
            "die": _("the die is rolled for {owner}"),
            "take": _("{actor} takes a tile from a passed player"),
            "seize": _("{actor} takes a tile from bankrupt {debtor}"),
            "face": _("a tile drops from the dispenser for {owner}"),
            "tile": _("a tile drops from the dispenser for {owner}"),
            "choose": _("{actor} keeps the drawn tiles or draws again"),
            "auction": _("{actor} bids or passes"),
            "reveal": _("the face-down tiles are turned over"),
        }
        debtor = int(b.get("debtor", -1))
        # A phase without words of its own still reads in the reader's language.
        line = lines.get(phase, _("{actor} decides"))
        if phase != "start" and self.actions.cash:
            # Cashing in is open on turn whenever the seat holds tiles (MA-2.1), not
            # only before the roll; the tiles to click are easy to miss otherwise. Only
            # the seat that decides is offered them, so the line speaks to it.
            line = _("{line}; you may cash in tiles first").format(line=line)
        return line.format(
            actor=actor, owner=owner, debtor=self.name(debtor) if debtor >= 0 else ""
        )

    # -- the ring ------------------------------------------------------------------------

    def angle(self, square: float) -> float:
        # The rat's character square sits at the top and the squares run clockwise.
        turn = (square - self.character_square) * 360.0 / self.squares
        return math.radians(-90.0 + turn)

    def at(self, square: float, radius: float) -> tuple[float, float]:
        a = self.angle(square)
        return CX + radius * math.cos(a), CY + radius * math.sin(a)

    def square(self, q: int, fill: str, hint: bool) -> str:
        x, y = self.at(q, R_SQUARE)
        deg = math.degrees(self.angle(q)) + 90.0
        half = SQUARE / 2
        stroke = HINT if hint else f'stroke="{INK}" stroke-width="0.8"'
        out = (
            f'<rect x="{-half:.1f}" y="{-half:.1f}" width="{SQUARE:.1f}" height="{SQUARE:.1f}" '
            f'rx="2" fill="{fill}" {stroke} '
            f'transform="translate({x:.1f},{y:.1f}) rotate({deg:.1f})"/>'
        )
        # A mandarin standing on the character hides it (the sector's title still names it).
        if q % 3 == self.character_square and q not in self.occupied:
            sector = q // 3
            out += text(
                x, y + 6, self.characters[sector], size=18, fill="#fff4d6", font_weight="bold"
            )
        return out

    def sector(self, k: int, holder: int) -> str:
        animal = self.animals[k]
        base = SECTOR_FILLS[k % 2] if holder < 0 else _tint(seat_colour(holder), 0.35)
        actions = self.actions.sign.get(animal, [])
        parts = []
        for q in range(3 * k, 3 * k + 3):
            fill = CHARACTER_FILL if q % 3 == self.character_square else base
            parts.append(self.square(q, fill, bool(actions)))
        # The name beside the ring, on the side away from it, so it never runs off.
        q = 3 * k + self.character_square
        a = self.angle(q)
        lx, ly = self.at(q, R_LABEL)
        words = self._(animal)
        width = text_width(words, FONT, bold=holder >= 0)
        if math.cos(a) > 0.35:
            anchor, left = "start", lx
        elif math.cos(a) < -0.35:
            anchor, left = "end", lx - width
        else:
            anchor, left = "middle", lx - width / 2
        base_y = ly - 2 if math.sin(a) < -0.35 else (ly + 14 if math.sin(a) > 0.35 else ly + 6)
        weight = "bold" if holder >= 0 else "normal"
        parts.append(text(lx, base_y, words, size=FONT, anchor=anchor, font_weight=weight))
        if holder >= 0:
            if anchor == "middle":
                mx, my = left + width + 13, base_y - 5
            else:
                mx, my = (left + 10 if anchor == "start" else left + width - 10), base_y + 17
            parts.append(seat_marker(holder, mx, my, 10, size=FONT, name=self.name(holder)))
        if actions:
            # The whole sector, squares and the ring's breadth about them, takes the tap.
            arc = [3 * k - 0.5 + 3 * i / 6 for i in range(7)]
            outer = [self.at(s, R_SQUARE + TAP / 2) for s in arc]
            inner = [self.at(s, R_SQUARE - TAP / 2) for s in reversed(arc)]
            points = " ".join(f"{x:.1f},{y:.1f}" for x, y in outer + inner)
            parts.append(f'<polygon class="hit" points="{points}" fill="transparent"/>')
        group = f'<g class="sector{self.mark("sector", animal)}">{"".join(parts)}</g>'
        label = self._("{animal} {character}: choose this sign").format(
            animal=self._(animal), character=self.characters[k]
        )
        return self.spots.put(actions, group, label, f"mn-sector-{animal}")

    def stones(self) -> str:
        b = self.body
        here: dict[int, list[int]] = defaultdict(list)
        for seat, q in enumerate(b["positions"]):
            if q is not None and 0 <= q < self.squares:
                here[q].append(seat)
        turn_of = int(b.get("turn_of", -1))
        out = []
        for q in sorted(here):
            seats = here[q]
            a = self.angle(q)
            tangent = (-math.sin(a), math.cos(a))
            for k, seat in enumerate(seats):
                row, col = divmod(k, 2)
                in_row = min(2, len(seats) - 2 * row)
                side = 0.0 if in_row == 1 else (-12.0 if col == 0 else 12.0)
                x, y = self.at(q, R_SQUARE - row * STONE_ROW)
                x += side * tangent[0]
                y += side * tangent[1]
                parts = []
                if seat == turn_of and b["phase"] != "over":
                    parts.append(
                        f'<circle class="turn-mark" cx="{x:.1f}" cy="{y:.1f}" '
                        f'r="{STONE + 4:.1f}" fill="#fff" fill-opacity="0.8" stroke="{INK}" '
                        f'stroke-width="1.5" stroke-dasharray="3 2"/>'
                    )
                parts.append(seat_marker(seat, x, y, STONE, size=FONT, name=self.name(seat)))
                mark = self.mark("stone", str(seat))
                out.append(f'<g class="stone{mark}" id="mn-stone-{seat}">{"".join(parts)}</g>')
        return "".join(out)

    def ring(self) -> str:
        holders: list[int] = list(self.body["sector_holders"])
        parts = [
            f'<circle cx="{CX:.1f}" cy="{CY:.1f}" r="{R_SQUARE - SQUARE / 2 - 4:.1f}" '
            f'fill="#f8efdc" stroke="{MUTED}" stroke-width="1"/>'
        ]
        for k in range(len(self.animals)):
            holder = holders[k] if k < len(holders) else -1
            parts.append(self.sector(k, holder))
        parts.append(self.stones())
        return "".join(parts)

    # -- the middle: dispenser, die, lot ---------------------------------------------------

    def tile(self, name: str, x: float, y: float, width: float = TILE_W) -> str:
        """A face-up tile with its top-left corner at (x, y): its colour's name, and the
        pagoda if it bears one."""
        colour = _colour_of(name)
        fill, ink = TILE_FILLS.get(colour, ("#bbbbbb", INK))
        out = (
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{TILE_H:.1f}" rx="3" '
            f'fill="{fill}" stroke="{INK}" stroke-width="0.8"/>'
        )
        words = self._(colour)
        if name in PAGODA_TILES:
            # A small pagoda: two roofs over a body, drawn at the tile's right end.
            px, py = x + width - 10, y + 7
            out += (
                f'<g class="pagoda"><polygon points="{px - 5:.1f},{py + 5:.1f} {px:.1f},{py:.1f} '
                f'{px + 5:.1f},{py + 5:.1f}" fill="{ink}"/>'
                f'<polygon points="{px - 6.5:.1f},{py + 10:.1f} {px:.1f},{py + 5:.1f} '
                f'{px + 6.5:.1f},{py + 10:.1f}" fill="{ink}"/>'
                f'<rect x="{px - 2.5:.1f}" y="{py + 10:.1f}" width="5" height="5" fill="{ink}"/>'
                "</g>"
            )
            out += text(x + (width - 18) / 2 + 2, y + 21, words, size=FONT, fill=ink)
        else:
            out += text(x + width / 2, y + 21, words, size=FONT, fill=ink)
        return f"<title>{esc(self.tile_words(name))}</title>{out}"

    def tile_back(self, x: float, y: float, width: float) -> str:
        return (
            f"<title>{esc(self._('face down'))}</title>"
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{TILE_H:.1f}" rx="3" '
            f'fill="{TILE_BACK}" stroke="{INK}" stroke-width="0.8"/>'
            + text(x + width / 2, y + 21, "?", size=FONT, fill="#f3e6c4", font_weight="bold")
        )

    def dispenser(self) -> str:
        x, y, w, h = CX - 100, CY - 105, 96.0, 52.0
        actions = self.actions.dispenser
        stroke = HINT if actions else f'stroke="{INK}" stroke-width="1"'
        inner = (
            f'<g class="dispenser{self.mark("dispenser")}">'
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="5" '
            f'fill="{TILE_BACK}" {stroke}/>'
            + text(x + w / 2, y + 19, self._("dispenser"), size=FONT, fill="#f3e6c4")
            + text(
                x + w / 2,
                y + 43,
                self.body["dispenser"],
                size=20,
                fill="#ffffff",
                font_weight="bold",
            )
            + "</g>"
        )
        label = self._("dispenser, {count} tiles: draw another tile").format(
            count=self.body["dispenser"]
        )
        return self.spots.put(actions, inner, label, "mn-dispenser", (x, y, w, h))

    def die(self) -> str:
        size = 48.0
        x, y = CX + 10, CY - 105
        pips = int(self.body.get("last_roll") or 0)
        actions = self.actions.die
        stroke = HINT if actions else f'stroke="{INK}" stroke-width="1.2"'
        inner = [
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{size:.1f}" height="{size:.1f}" rx="7" '
            f'fill="#ffffff" {stroke}/>'
        ]
        for dx, dy in PIPS.get(pips, ()):
            inner.append(
                f'<circle cx="{x + size / 2 + dx * 13:.1f}" cy="{y + size / 2 + dy * 13:.1f}" '
                f'r="4.5" fill="{INK}"/>'
            )
        caption = self._("rolled {pips}").format(pips=pips) if pips else self._("die")
        rolls = int(self.body.get("rolls") or 0)
        if rolls > 1:
            caption += " · " + self._("roll {n}").format(n=rolls)
        # Under the die: beside it the words would reach the ring's squares.
        inner.append(text(x + size / 2, y + size + 20, caption, size=FONT))
        label = self._("the die: roll")
        group = f'<g class="die{self.mark("die")}">{"".join(inner)}</g>'
        return self.spots.put(actions, group, label, "mn-die", (x, y, size, size))

    def lot(self) -> str:
        lot = self.body.get("lot") or {}
        face_up: list[str] = list(lot.get("face_up", []))
        face_down = int(lot.get("face_down", 0))
        count = len(face_up) + face_down
        if not count:
            return ""
        top = CY + 12
        rows = (count + LOT_PER_ROW - 1) // LOT_PER_ROW
        heading = self._("drawn this turn")
        # As wide as its tiles, or as its heading (one tile is narrower than the words).
        width = max(min(count, LOT_PER_ROW) * (LOT_TILE_W + 4) - 4, text_width(heading, FONT))
        left = CX - width / 2
        box = (left - 6, top - 28, width + 12, rows * TILE_STEP + 34)
        inner = [
            f'<rect x="{box[0]:.1f}" y="{box[1]:.1f}" width="{box[2]:.1f}" '
            f'height="{box[3]:.1f}" rx="5" fill="#fffaf0" '
            + (HINT if self.actions.lot else f'stroke="{MUTED}" stroke-width="1"')
            + "/>",
            text(CX, top - 9, heading, size=FONT),
        ]
        shown: list[str | None] = [*face_up, *([None] * face_down)]
        for i, name in enumerate(shown):
            row, col = divmod(i, LOT_PER_ROW)
            in_row = min(LOT_PER_ROW, count - row * LOT_PER_ROW)
            x = CX - (in_row * (LOT_TILE_W + 4) - 4) / 2 + col * (LOT_TILE_W + 4)
            y = top + row * TILE_STEP
            if name:
                mark = self.mark("tile", name)
                inner.append(
                    f'<g class="tile{mark}" id="mn-tile-{name}">'
                    + self.tile(name, x, y, LOT_TILE_W)
                    + "</g>"
                )
            else:
                inner.append(
                    f'<g class="tile" id="mn-lot-back-{i}">'
                    + self.tile_back(x, y, LOT_TILE_W)
                    + "</g>"
                )
        words = ", ".join(self.tile_words(t) for t in face_up)
        if face_down:
            down = self._("{n} face down").format(n=face_down)
            words = f"{words}, {down}" if words else down
        if "offer" in self.actions.lot:
            how = self._("keep them or offer them")
        else:
            how = self._("keep them")
        label = self._("the drawn tiles ({tiles}): {how}").format(tiles=words, how=how)
        group = f'<g class="lot{self.mark("lot")}">{"".join(inner)}</g>'
        return self.spots.put(self.actions.lot, group, label, "mn-lot", box)

    def middle(self) -> str:
        return "".join([self.dispenser(), self.die(), self.lot()])

    # -- under the ring: the auction, the lot's receiver, the end ----------------------------

    def news(self, top: float) -> tuple[str, float]:
        """The auction, the lot's receiver or the game's end, told under the ring."""
        _ = self._
        b = self.body
        out: list[str] = []
        y = top
        room = WIDTH - 2 * MARGIN - 16

        def line(words: str, bold: bool = False, fill: str = INK) -> None:
            nonlocal y
            for part in wrap(words, FONT, room, bold=bold):
                y += 21
                weight = {"font_weight": "bold"} if bold else {}
                out.append(text(CX, y, part, size=FONT, fill=fill, **weight))

        auction = b.get("auction")
        if auction:
            seller = int(auction.get("seller", -1))
            if seller < 0:
                line(_("Auction for the bank"), bold=True)
            else:
                line(_("Special auction by {seat}").format(seat=self.who(seller)), bold=True)
            bidder = int(auction.get("high_bidder", -1))
            if bidder >= 0:
                line(
                    _("high bid {amount} yuan by {seat}").format(
                        amount=auction.get("high_bid", 0), seat=self.who(bidder)
                    )
                )
            else:
                line(_("no bid yet"), fill=MUTED)
            bidders = [s for s in range(self.players) if s != seller]
            out_of = set(auction.get("out", []))
            overbid = set(auction.get("overbid", []))
            step = min(110.0, room / max(1, len(bidders)))
            x0 = CX - step * (len(bidders) - 1) / 2
            my = y + 24
            for i, seat in enumerate(bidders):
                x = x0 + i * step
                if seat == self.to_move:
                    out.append(
                        f'<circle cx="{x:.1f}" cy="{my:.1f}" r="15" fill="none" stroke="{INK}" '
                        f'stroke-width="1.5" stroke-dasharray="3 2"/>'
                    )
                out.append(seat_marker(seat, x, my, 11, size=FONT, name=self.name(seat)))
                if seat in overbid:
                    note = _("over-bid")
                elif seat in out_of:
                    note = _("out")
                elif seat == self.to_move:
                    note = _("to bid")
                elif seat == bidder:
                    note = _("high")
                else:
                    note = _("in")
                if seat in out_of:
                    out.append(
                        f'<line x1="{x - 11:.1f}" y1="{my + 11:.1f}" x2="{x + 11:.1f}" '
                        f'y2="{my - 11:.1f}" stroke="{INK}" stroke-width="2"/>'
                    )
                out.append(text(x, my + 34, note, size=FONT))
            y = my + 42
        receiver = int(b.get("receiver", -1))
        if receiver >= 0 and b["phase"] == "reveal":
            line(_("the lot goes to {seat}").format(seat=self.who(receiver)))
        if b["phase"] == "over":
            line(_("Game over"), bold=True)
            winners = [self.name(w) for w in b.get("winners", [])]
            if winners:
                line(_("won by {winners}").format(winners=", ".join(winners)))
            end = b.get("end")
            if end == "collection":
                line(_("a collection is complete"), fill=MUTED)
            elif end == "cap":
                line(_("the turn limit is reached"), fill=MUTED)
        if not out:
            return "", top
        mark = self.mark("auction")
        box = (
            f'<rect x="{MARGIN:.1f}" y="{top:.1f}" width="{WIDTH - 2 * MARGIN:.1f}" '
            f'height="{y - top + 10:.1f}" rx="6" fill="#fffaf0" stroke="{MUTED}"/>'
        )
        return f'<g class="news{mark}" id="mn-news">{box}{"".join(out)}</g>', y + 16

    # -- the collections -----------------------------------------------------------------

    def money(self, seat: int) -> str:
        all_money = self.body.get("all_money")
        if all_money is not None:
            return self._("{amount} yuan").format(amount=all_money[seat])
        if seat == self.viewer and self.body.get("money") is not None:
            return self._("{amount} yuan").format(amount=self.body["money"])
        return self._("? yuan")

    def badges(self, seat: int) -> list[str]:
        _ = self._
        b = self.body
        out = []
        if seat == self.viewer:
            out.append(_("you"))
        if b["phase"] != "over" and seat == b.get("turn_of"):
            out.append(_("turn"))
        if seat == self.to_move and seat != b.get("turn_of"):
            out.append(_("to move"))
        if b["phase"] == "take" and seat in b.get("passed", []):
            out.append(_("passed"))
        if b["phase"] == "seize" and seat == b.get("debtor"):
            out.append(_("bankrupt"))
        if seat in b.get("winners", []):
            out.append(_("winner"))
        return out

    def panel(self, seat: int, top: float) -> tuple[str, float]:
        b = self.body
        tiles: list[str] = list(b["collections"][seat])
        by_animal: dict[str, list[str]] = defaultdict(list)
        for tile in tiles:
            by_animal[_animal_of(tile)].append(tile)
        for stack in by_animal.values():
            stack.sort(key=lambda t: (COLOUR_ORDER.get(_colour_of(t), 99), t))
        bands = [self.animals[i : i + BAND] for i in range(0, len(self.animals), BAND)]
        rows = [max(len(by_animal.get(a, [])) for a in band) for band in bands]
        if tiles:
            height = SEAT_LINE + sum(BAND_HEAD + r * STACK_STEP + 6 for r in rows) + 4
        else:
            height = SEAT_LINE + BAND_HEAD + 8
        own = seat == self.viewer
        turn = b["phase"] != "over" and seat == b.get("turn_of")
        fill = "#fff3c4" if turn else "#ffffff"
        out = [
            f'<rect x="{MARGIN:.1f}" y="{top:.1f}" width="{WIDTH - 2 * MARGIN:.1f}" '
            f'height="{height:.1f}" rx="6" fill="{fill}" stroke="{INK}" '
            f'stroke-width="{2.5 if own else 0.8}"/>',
            seat_marker(seat, MARGIN + 18, top + 17, 10, size=FONT, name=self.name(seat)),
        ]
        sign = b["signs"][seat] if seat < len(b["signs"]) else None
        money = self.money(seat)
        room = WIDTH - 2 * MARGIN - 46 - text_width(money, FONT) - 16
        name = _fit(self.name(seat), FONT, room - (90 if sign else 0))
        if sign:
            name += f" · {self._(sign)}"
        out.append(text(MARGIN + 34, top + 23, name, size=FONT, anchor="start", font_weight="bold"))
        out.append(text(WIDTH - MARGIN - 8, top + 23, money, size=FONT, anchor="end"))
        badges = self.badges(seat)
        if badges:
            out.append(
                text(
                    MARGIN + 34,
                    top + 43,
                    " · ".join(badges),
                    size=FONT,
                    anchor="start",
                    font_style="italic",
                )
            )
        holders: list[int] = list(b["sector_holders"])
        y = top + SEAT_LINE
        for band, band_rows in zip(bands, rows) if tiles else ():
            for col, animal in enumerate(band):
                k = self.animals.index(animal)
                x = MARGIN + COLUMN_INSET + col * COLUMN
                cx = x + COLUMN / 2
                held = k < len(holders) and holders[k] == seat
                stack = by_animal.get(animal, [])
                if held:
                    # The sector this seat holds: its animal's name inverted, not coloured.
                    out.append(
                        f'<rect x="{cx - TILE_W / 2:.1f}" y="{y + 1:.1f}" '
                        f'width="{TILE_W:.1f}" height="{BAND_HEAD - 2:.1f}" rx="2" '
                        f'fill="{INK}"><title>{esc(self._("holds the sector"))}</title></rect>'
                    )
                ink = "#ffffff" if held else (INK if stack else MUTED)
                out.append(text(cx, y + 16, self._(animal), size=FONT, fill=ink))
                for i, tile in enumerate(stack):
                    tx, ty = cx - TILE_W / 2, y + BAND_HEAD + 2 + i * STACK_STEP
                    actions = self.actions.tile.get(tile, [])
                    inner = self.tile(tile, tx, ty)
                    if actions:
                        inner += (
                            f'<rect x="{tx - 1.5:.1f}" y="{ty - 1.5:.1f}" '
                            f'width="{TILE_W + 3:.1f}" height="{TILE_H + 3:.1f}" rx="4" '
                            f'fill="none" {HINT}/>'
                        )
                    inner = f'<g class="tile{self.mark("tile", tile)}">{inner}</g>'
                    label = self.tile_label(seat, tile, actions)
                    out.append(
                        self.spots.put(
                            actions, inner, label, f"mn-tile-{tile}", (tx, ty, TILE_W, TILE_H)
                        )
                    )
            y += BAND_HEAD + band_rows * STACK_STEP + 6
        if not tiles:
            out.append(
                text(CX, top + SEAT_LINE + 16, self._("no tiles yet"), size=FONT, fill=MUTED)
            )
        mark = self.mark("seat", str(seat))
        return (
            f'<g class="seat seat{seat}{mark}" id="mn-seat-{seat}">{"".join(out)}</g>',
            height,
        )

    def tile_label(self, seat: int, tile: str, actions: Sequence[str]) -> str:
        words = self.tile_words(tile)
        if any(a.startswith("cash") for a in actions):
            return self._("your {tile}: cash in").format(tile=words)
        if actions:
            return self._("{seat}'s {tile}: take it").format(seat=self.name(seat), tile=words)
        return words

    # -- the legend ------------------------------------------------------------------------

    def legend(self, top: float) -> tuple[str, float]:
        """The board's symbols in words, each beside a small drawing of itself."""
        _ = self._

        def character(y: float) -> str:
            return (
                f'<rect x="{MARGIN + 6:.1f}" y="{y - 14:.1f}" width="28" height="28" rx="2" '
                f'fill="{CHARACTER_FILL}"/>'
                + text(MARGIN + 20, y + 6, self.characters[0], size=18, fill="#fff4d6")
            )

        def pagoda(y: float) -> str:
            return (
                f'<rect x="{MARGIN:.1f}" y="{y - 15:.1f}" width="40" height="{TILE_H:.1f}" '
                f'rx="3" fill="{TILE_FILLS["red"][0]}" stroke="{INK}" stroke-width="0.8"/>'
                f'<polygon points="{MARGIN + 15:.1f},{y - 3:.1f} {MARGIN + 20:.1f},{y - 8:.1f} '
                f'{MARGIN + 25:.1f},{y - 3:.1f}" fill="#fff"/>'
                f'<polygon points="{MARGIN + 13.5:.1f},{y + 2:.1f} {MARGIN + 20:.1f},{y - 3:.1f} '
                f'{MARGIN + 26.5:.1f},{y + 2:.1f}" fill="#fff"/>'
                f'<rect x="{MARGIN + 17.5:.1f}" y="{y + 2:.1f}" width="5" height="5" fill="#fff"/>'
            )

        def back(y: float) -> str:
            return (
                f'<rect x="{MARGIN:.1f}" y="{y - 15:.1f}" width="40" height="{TILE_H:.1f}" '
                f'rx="3" fill="{TILE_BACK}"/>'
                + text(MARGIN + 20, y + 6, "?", size=FONT, fill="#f3e6c4", font_weight="bold")
            )

        def held(y: float) -> str:
            return (
                f'<rect x="{MARGIN:.1f}" y="{y - 11:.1f}" width="40" height="20" rx="2" '
                f'fill="{INK}"/>'
            )

        def turn(y: float) -> str:
            return (
                f'<circle cx="{MARGIN + 20:.1f}" cy="{y:.1f}" r="{STONE + 4:.1f}" fill="#fff" '
                f'stroke="{INK}" stroke-width="1.5" stroke-dasharray="3 2"/>'
                + seat_marker(0, MARGIN + 20, y, STONE, label=False, name=self.name(0))
            )

        def hint(y: float) -> str:
            return (
                f'<rect x="{MARGIN:.1f}" y="{y - 14:.1f}" width="40" height="28" rx="4" '
                f'fill="none" {HINT}/>'
            )

        symbols: list[tuple[Callable[[float], str], str]] = [
            (character, _("red square with a character: the animal's sign on the ring")),
            (
                pagoda,
                _(
                    "pagoda on a tile: the animal's Emperor tile, cashed in for 400 yuan (others 200)"
                ),
            ),
            (back, _("a tile drawn face down, turned over at the end of the turn")),
            (held, _("an animal's name inverted in a collection: that seat holds the sector")),
            (turn, _("dashed ring around a mandarin: the seat whose turn it is")),
        ]
        if self.viewer is not None:
            # A spectator, a replay seen by everyone and the lobby's picture click nothing.
            symbols.append((hint, _("dashed outline: you may click this now")))
        out = [text(MARGIN, top + 20, _("Legend"), size=FONT, anchor="start", font_weight="bold")]
        y = top + 34
        for drawing, words in symbols:
            lines = wrap(words, FONT, WIDTH - MARGIN - 60)
            out.append(drawing(y + 10 * len(lines)))
            for k, line in enumerate(lines):
                out.append(text(MARGIN + 52, y + 16 + 20 * k, line, size=FONT, anchor="start"))
            y += 20 * len(lines) + 12
        return f'<g class="legend" id="mn-legend">{"".join(out)}</g>', y

    # -- the whole -----------------------------------------------------------------------

    def head(self) -> str:
        b = self.body
        # The awaited decision stays inside the board: up to three lines (a German prompt
        # with its cash-in note runs to 100 letters).
        lines = wrap(self.status(), FONT, WIDTH - 2 * MARGIN - 8, bold=True)[:3]
        status = "".join(
            text(MARGIN + 4, 22 + 20 * i, line, size=FONT, anchor="start", font_weight="bold")
            for i, line in enumerate(lines)
        )
        out = [f'<g class="prompt">{status}</g>']
        turns = int(b.get("turns", 0))
        cap = int(b.get("turn_cap", 0))
        info = self._("turn {n} of {cap}").format(
            n=min(turns + 1, cap) if cap else turns + 1, cap=cap
        )
        if b.get("money_variant"):
            info += " · " + self._("money variant: the richest wins")
        below = 22 + 20 * len(lines) + 2
        out.append(text(MARGIN + 4, below, info, size=FONT, anchor="start", fill=MUTED))
        return "".join(out)

    def draw(self) -> Board:
        parts = [self.head(), self.ring(), self.middle()]
        news, top = self.news(RING_BOTTOM)
        parts.append(news)
        top += 4
        for seat in range(self.players):
            panel, height = self.panel(seat, top)
            parts.append(panel)
            top += height + PANEL_GAP
        legend, top = self.legend(top)
        parts.append(legend)
        title = self._("Mandarin board")
        return Board(document(WIDTH, top + 6, parts, title, DESK_WIDTH), self.spots.placed)


def _fit(name: str, size: float, width: float) -> str:
    """`name` cut short with an ellipsis where it would run wider than `width`."""
    if text_width(name, size, True) <= width:
        return name
    while name and text_width(name + "…", size, True) > width:
        name = name[:-1]
    return name + "…"


def confirm(notation: str, board: BoardInput) -> str | None:
    """What a move that cannot be taken back will do, to be confirmed first: cashing in
    gives a tile up for good (MA-2.1), and a pass leaves the auction for good (MA-4.3)."""
    _ = board.gettext
    verb, _sep, tile = notation.partition(" ")
    if verb == "cash" and tile:
        words = f"{_(_animal_of(tile))} {_(_colour_of(tile))}"
        amount = 400 if tile in PAGODA_TILES else 200
        return _(
            "Cash in your {tile} tile for {amount} yuan: it goes back into the dispenser."
        ).format(tile=words, amount=amount)
    if notation == "pass" and board.body.get("auction"):
        return _("Pass: you leave this auction and may not bid on this lot again.")
    return None


def score_parts(
    body: Mapping[str, Any], scores: Sequence[Any]
) -> tuple[list[dict[str, Any]] | None, str]:
    """The end's score, a seat's wealth, as its money and its tiles' worth (every purse
    is shown once the game is over), and how the winner was found: a collection wins
    whatever the wealth (MA-8.1), the turn limit and the money variant go by wealth."""
    from tianxia.web.i18n import N_

    money = body.get("all_money")
    if not isinstance(money, list) or len(money) != len(scores):
        return None, ""
    parts: list[dict[str, Any]] = [
        {N_("money"): m, N_("tiles"): int(w) - m} for m, w in zip(money, scores, strict=True)
    ]
    if body.get("end") == "collection" and not body.get("money_variant"):
        return parts, N_(
            "The first to complete a collection wins, whatever the score. The score is"
            " each player's wealth: money, plus 200 yuan a tile and 400 a pagoda tile."
        )
    return parts, N_("The wealthiest wins: money, plus 200 yuan a tile and 400 a pagoda tile.")


def render(board: BoardInput) -> Board:
    """The Mandarin board as the viewer of `board.view` sees it."""
    return _Drawing(board).draw()
