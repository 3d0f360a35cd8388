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
the list.
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
    seat_colour,
    seat_label,
    seat_marker,
    spot,
    wrap,
)

WIDTH = 520.0
HEAD = 44.0  # the awaited decision and the turn count
CX = WIDTH / 2
CY = HEAD + 246.0
R_SQUARE = 178.0  # centre of the ring's squares
SQUARE = 28.0
R_LABEL = 223.0  # the animal's name and its sector holder, outside the ring
STONE = 10.0
STONE_ROW = 20.0  # mandarins sharing a square stand in rows of two, inwards
RING_BOTTOM = CY + 246.0

MARGIN = 8.0
BAND = 6  # animals side by side in a collection: two bands of six
COLUMN = (WIDTH - 2 * MARGIN) / BAND
TILE_W = 72.0  # a tile in a collection
LOT_TILE_W = 56.0  # a tile lying in the middle of the ring
TILE_H = 24.0
TILE_STEP = 27.0
SEAT_LINE = 30.0
BAND_HEAD = 18.0  # the animals' names over their tiles
PANEL_GAP = 6.0
LOT_PER_ROW = 4

MUTED = "#8a8378"
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

    def put(self, actions: Sequence[str], inner: str, label: str) -> str:
        self.placed.update(actions)
        return spot(actions, inner, label)


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


class _Drawing:
    def __init__(self, board: BoardInput) -> None:
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

    # -- names ---------------------------------------------------------------------------

    def who(self, seat: int) -> str:
        if seat == self.viewer:
            return self._("{seat} (you)").format(seat=seat_label(seat))
        return seat_label(seat)

    def tile_words(self, tile: str) -> str:
        if tile in PAGODA_TILES:
            return self._("{tile} (pagoda)").format(tile=tile)
        return tile

    def status(self) -> str:
        _ = self._
        b = self.body
        phase = b["phase"]
        actor = self.who(self.to_move) if self.to_move is not None else ""
        owner = self.who(int(b["turn_of"])) if b.get("turn_of", -1) >= 0 else ""
        if phase == "over":
            winners = [seat_label(w) for w in b.get("winners", [])]
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
        line = lines.get(phase, str(b.get("prompt", "")))
        if phase != "start" and self.actions.cash:
            # Cashing in is open on turn whenever the seat holds tiles (MA-2.1), not
            # only before the roll; the tiles to click are easy to miss otherwise.
            line = _("{line}; {actor} may cash in tiles first").format(line=line, actor=actor)
        return line.format(
            actor=actor, owner=owner, debtor=seat_label(debtor) if debtor >= 0 else ""
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
        if q % 3 == self.character_square:
            sector = q // 3
            out += text(
                x, y + 6, self.characters[sector], size=17, fill="#fff4d6", font_weight="bold"
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
        lx, ly = self.at(3 * k + self.character_square, R_LABEL)
        weight = "bold" if holder >= 0 else "normal"
        parts.append(text(lx, ly - 3, self._(animal), size=13, font_weight=weight))
        if holder >= 0:
            parts.append(seat_marker(holder, lx, ly + 12, 7.5))
        inner = f'<g class="sector">{"".join(parts)}</g>'
        label = self._("{animal} {character}: choose this sign").format(
            animal=self._(animal), character=self.characters[k]
        )
        return self.spots.put(actions, inner, label)

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
                side = 0.0 if in_row == 1 else (-10.0 if col == 0 else 10.0)
                x, y = self.at(q, R_SQUARE - row * STONE_ROW)
                x += side * tangent[0]
                y += side * tangent[1]
                if seat == turn_of and b["phase"] != "over":
                    out.append(
                        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{STONE + 4:.1f}" fill="#fff" '
                        f'fill-opacity="0.8" stroke="{INK}" stroke-width="1.5" '
                        f'stroke-dasharray="3 2"/>'
                    )
                out.append(seat_marker(seat, x, y, STONE))
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

    # -- the middle: dispenser, die, lot, auction ------------------------------------------

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
        size = 12.0 if width >= TILE_W else 11.0
        if name in PAGODA_TILES:
            # A small pagoda: two roofs over a body, drawn at the tile's right end.
            px, py = x + width - 9, y + 5
            out += (
                f'<polygon points="{px - 5:.1f},{py + 5:.1f} {px:.1f},{py:.1f} '
                f'{px + 5:.1f},{py + 5:.1f}" fill="{ink}"/>'
                f'<polygon points="{px - 6.5:.1f},{py + 10:.1f} {px:.1f},{py + 5:.1f} '
                f'{px + 6.5:.1f},{py + 10:.1f}" fill="{ink}"/>'
                f'<rect x="{px - 2.5:.1f}" y="{py + 10:.1f}" width="5" height="4" fill="{ink}"/>'
            )
            out += text(x + (width - 16) / 2 + 2, y + 16.5, words, size=size, fill=ink)
        else:
            out += text(x + width / 2, y + 16.5, words, size=size, fill=ink)
        return f"<g><title>{esc(self.tile_words(name))}</title>{out}</g>"

    def tile_back(self, x: float, y: float, width: float) -> str:
        return (
            f"<g><title>{esc(self._('face down'))}</title>"
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{TILE_H:.1f}" rx="3" '
            f'fill="{TILE_BACK}" stroke="{INK}" stroke-width="0.8"/>'
            + text(x + width / 2, y + 17, "?", size=14, fill="#f3e6c4", font_weight="bold")
            + "</g>"
        )

    def dispenser(self) -> str:
        x, y, w, h = CX - 104, CY - 112, 92.0, 48.0
        actions = self.actions.dispenser
        stroke = HINT if actions else f'stroke="{INK}" stroke-width="1"'
        inner = (
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="5" '
            f'fill="{TILE_BACK}" {stroke}/>'
            + text(x + w / 2, y + 15, self._("dispenser"), size=11, fill="#f3e6c4")
            + text(
                x + w / 2,
                y + 38,
                self.body["dispenser"],
                size=18,
                fill="#ffffff",
                font_weight="bold",
            )
        )
        label = self._("dispenser, {count} tiles: draw another tile").format(
            count=self.body["dispenser"]
        )
        return self.spots.put(actions, inner, label)

    def die(self) -> str:
        size = 44.0
        x, y = CX + 14, CY - 114
        pips = int(self.body.get("last_roll") or 0)
        actions = self.actions.die
        stroke = HINT if actions else f'stroke="{INK}" stroke-width="1.2"'
        inner = [
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{size:.1f}" height="{size:.1f}" rx="7" '
            f'fill="#ffffff" {stroke}/>'
        ]
        for dx, dy in PIPS.get(pips, ()):
            inner.append(
                f'<circle cx="{x + size / 2 + dx * 12:.1f}" cy="{y + size / 2 + dy * 12:.1f}" '
                f'r="4" fill="{INK}"/>'
            )
        caption = self._("rolled {pips}").format(pips=pips) if pips else self._("die")
        inner.append(text(x + size + 8, y + 20, caption, size=11, anchor="start"))
        rolls = int(self.body.get("rolls") or 0)
        if rolls > 1:
            inner.append(
                text(
                    x + size + 8,
                    y + 34,
                    self._("roll {n}").format(n=rolls),
                    size=10,
                    anchor="start",
                    fill=MUTED,
                )
            )
        label = self._("the die: roll")
        return self.spots.put(actions, "".join(inner), label)

    def lot(self) -> str:
        lot = self.body.get("lot") or {}
        face_up: list[str] = list(lot.get("face_up", []))
        face_down = int(lot.get("face_down", 0))
        count = len(face_up) + face_down
        if not count:
            return ""
        top = CY - 38
        rows = (count + LOT_PER_ROW - 1) // LOT_PER_ROW
        width = min(count, LOT_PER_ROW) * (LOT_TILE_W + 4) - 4
        left = CX - width / 2
        inner = [
            f'<rect x="{left - 6:.1f}" y="{top - 20:.1f}" width="{width + 12:.1f}" '
            f'height="{rows * TILE_STEP + 26:.1f}" rx="5" fill="#fffaf0" '
            + (HINT if self.actions.lot else f'stroke="{MUTED}" stroke-width="1"')
            + "/>",
            text(CX, top - 7, self._("drawn this turn"), size=11),
        ]
        shown: list[str | None] = [*face_up, *([None] * face_down)]
        for i, name in enumerate(shown):
            row, col = divmod(i, LOT_PER_ROW)
            in_row = min(LOT_PER_ROW, count - row * LOT_PER_ROW)
            x = CX - (in_row * (LOT_TILE_W + 4) - 4) / 2 + col * (LOT_TILE_W + 4)
            y = top + row * TILE_STEP
            inner.append(
                self.tile(name, x, y, LOT_TILE_W) if name else self.tile_back(x, y, LOT_TILE_W)
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
        return self.spots.put(self.actions.lot, "".join(inner), label)

    def auction(self) -> str:
        auction = self.body.get("auction")
        if not auction:
            return ""
        _ = self._
        seller = int(auction.get("seller", -1))
        lot = self.body.get("lot") or {}
        count = len(lot.get("face_up", [])) + int(lot.get("face_down", 0))
        lot_rows = (count + LOT_PER_ROW - 1) // LOT_PER_ROW
        # Below the lot, however many rows of tiles it has.
        y = CY + 32 + max(0, lot_rows - 1) * TILE_STEP
        if seller < 0:
            title = _("Auction for the bank")
        else:
            title = _("Special auction by {seat}").format(seat=self.who(seller))
        out = [text(CX, y, title, size=14, font_weight="bold")]
        bidder = int(auction.get("high_bidder", -1))
        if bidder >= 0:
            out.append(
                text(
                    CX,
                    y + 19,
                    _("high bid {amount} yuan by {seat}").format(
                        amount=auction.get("high_bid", 0), seat=self.who(bidder)
                    ),
                    size=13,
                )
            )
        else:
            out.append(text(CX, y + 19, _("no bid yet"), size=13, fill=MUTED))
        bidders = [s for s in range(self.players) if s != seller]
        out_of = set(auction.get("out", []))
        overbid = set(auction.get("overbid", []))
        step = 48.0
        x0 = CX - step * (len(bidders) - 1) / 2
        for i, seat in enumerate(bidders):
            x, my = x0 + i * step, y + 46
            if seat == self.to_move:
                out.append(
                    f'<circle cx="{x:.1f}" cy="{my:.1f}" r="14" fill="none" stroke="{INK}" '
                    f'stroke-width="1.5" stroke-dasharray="3 2"/>'
                )
            out.append(seat_marker(seat, x, my, 9.5))
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
                    f'<line x1="{x - 10:.1f}" y1="{my + 10:.1f}" x2="{x + 10:.1f}" '
                    f'y2="{my - 10:.1f}" stroke="{INK}" stroke-width="2"/>'
                )
            out.append(text(x, my + 27, note, size=11))
        return f'<g class="auction">{"".join(out)}</g>'

    def result(self) -> str:
        b = self.body
        if b["phase"] != "over":
            return ""
        _ = self._
        winners = [seat_label(w) for w in b.get("winners", [])]
        y = CY + 50
        out = [text(CX, y, _("Game over"), size=15, font_weight="bold")]
        if winners:
            out.append(
                text(CX, y + 20, _("won by {winners}").format(winners=", ".join(winners)), size=13)
            )
        end = b.get("end")
        if end == "collection":
            out.append(text(CX, y + 38, _("a collection is complete"), size=11, fill=MUTED))
        elif end == "cap":
            out.append(text(CX, y + 38, _("the turn limit is reached"), size=11, fill=MUTED))
        return "".join(out)

    def middle(self) -> str:
        b = self.body
        parts = [self.dispenser(), self.die(), self.lot(), self.auction(), self.result()]
        receiver = int(b.get("receiver", -1))
        if receiver >= 0 and b["phase"] == "reveal":
            parts.append(
                text(
                    CX,
                    CY + 120,
                    self._("the lot goes to {seat}").format(seat=self.who(receiver)),
                    size=11,
                )
            )
        return "".join(parts)

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
            height = SEAT_LINE + sum(BAND_HEAD + r * TILE_STEP + 4 for r in rows) + 4
        else:
            height = SEAT_LINE + BAND_HEAD + 4
        own = seat == self.viewer
        turn = b["phase"] != "over" and seat == b.get("turn_of")
        fill = "#fff3c4" if turn else "#ffffff"
        out = [
            f'<rect x="{MARGIN:.1f}" y="{top:.1f}" width="{WIDTH - 2 * MARGIN:.1f}" '
            f'height="{height:.1f}" rx="6" fill="{fill}" stroke="{INK}" '
            f'stroke-width="{2.5 if own else 0.8}"/>',
            seat_marker(seat, MARGIN + 16, top + 16, 9),
        ]
        sign = b["signs"][seat] if seat < len(b["signs"]) else None
        name = seat_label(seat) + (f" · {self._(sign)}" if sign else "")
        out.append(text(MARGIN + 32, top + 21, name, size=15, anchor="start", font_weight="bold"))
        badges = self.badges(seat)
        if badges:
            out.append(
                text(
                    max(MARGIN + 140, MARGIN + 44 + 9 * len(name)),
                    top + 21,
                    " · ".join(badges),
                    size=13,
                    anchor="start",
                    font_style="italic",
                )
            )
        out.append(text(WIDTH - MARGIN - 8, top + 21, self.money(seat), size=14, anchor="end"))
        holders: list[int] = list(b["sector_holders"])
        y = top + SEAT_LINE
        for band, band_rows in zip(bands, rows) if tiles else ():
            for col, animal in enumerate(band):
                k = self.animals.index(animal)
                x = MARGIN + col * COLUMN
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
                weight = "bold" if held or stack else "normal"
                out.append(text(cx, y + 13, self._(animal), size=12, fill=ink, font_weight=weight))
                for i, tile in enumerate(stack):
                    tx, ty = cx - TILE_W / 2, y + BAND_HEAD + i * TILE_STEP
                    actions = self.actions.tile.get(tile, [])
                    inner = self.tile(tile, tx, ty)
                    if actions:
                        inner += (
                            f'<rect x="{tx - 1.5:.1f}" y="{ty - 1.5:.1f}" '
                            f'width="{TILE_W + 3:.1f}" height="{TILE_H + 3:.1f}" rx="4" '
                            f'fill="none" {HINT}/>'
                        )
                    label = self.tile_label(seat, tile, actions)
                    out.append(self.spots.put(actions, inner, label))
            y += BAND_HEAD + band_rows * TILE_STEP + 4
        if not tiles:
            out.append(
                text(
                    CX,
                    top + SEAT_LINE + 13,
                    self._("no tiles yet"),
                    size=12,
                    fill=MUTED,
                )
            )
        return f'<g class="seat seat{seat}">{"".join(out)}</g>', height

    def tile_label(self, seat: int, tile: str, actions: Sequence[str]) -> str:
        words = self.tile_words(tile)
        if any(a.startswith("cash") for a in actions):
            return self._("your {tile}: cash in").format(tile=words)
        if actions:
            return self._("{seat}'s {tile}: take it").format(seat=seat_label(seat), tile=words)
        return words

    # -- the whole -----------------------------------------------------------------------

    def head(self) -> str:
        b = self.body
        # The awaited decision stays inside the board: one line when it fits, else two
        # at a smaller size (a German prompt with its cash-in note runs to 100 letters).
        room = WIDTH - 2 * MARGIN - 8
        size, lines = 15.0, wrap(self.status(), 15.0, room, bold=True)
        while len(lines) > 2 and size > 9:
            size -= 0.5
            lines = wrap(self.status(), size, room, bold=True)
        if len(lines) == 1:
            status = text(MARGIN + 4, 19, lines[0], size=size, anchor="start", font_weight="bold")
        else:
            size = min(size, 13.0)
            status = "".join(
                text(
                    MARGIN + 4,
                    14 + i * (size + 2),
                    line,
                    size=size,
                    anchor="start",
                    font_weight="bold",
                )
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
        below = 35 if len(lines) == 1 else 14 + 2 * (size + 2) + 6
        out.append(text(MARGIN + 4, below, info, size=11, anchor="start", fill=MUTED))
        return "".join(out)

    def draw(self) -> Board:
        parts = [self.head(), self.ring(), self.middle()]
        top = RING_BOTTOM + 4
        for seat in range(self.players):
            panel, height = self.panel(seat, top)
            parts.append(panel)
            top += height + PANEL_GAP
        title = self._("Mandarin board")
        return Board(document(WIDTH, top + 2, parts, title), self.spots.placed)


def render(board: BoardInput) -> Board:
    """The Mandarin board as the viewer of `board.view` sees it."""
    return _Drawing(board).draw()
