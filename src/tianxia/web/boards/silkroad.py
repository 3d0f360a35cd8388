"""Die Seidenstraße: what the player on turn works with at the top (the card being carried
out, the hand, the merchants as cards to play on), then the track from Xi'an to Venice as
a snake of fields with the trade cities and the merchants on it, the players with the
cards before them, the wind rose, the bazaar table and the piles.

Reads the observation of `docs/rules/silkroad.md` and the game's `layout()` (track
length, start fields, cities, card texts, bazaar table). Moves are picked then placed: a
hand card (`play`, `lay`) or a card before the viewer (`give`, `drop`) is picked first,
then the merchant it goes to; the start fields (`start`), the viewer's bazaar card
(`bazaar`), the alternatives of the card being carried out (`carry`) and the merchants
(`pick`, `miles`) are places. Only `wait` is left to the page's list.

The board is as wide as a phone shows it, one unit a CSS pixel there: no text under 12,
no place or pick under 44 each way.
"""

from __future__ import annotations

import functools
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from tianxia.web.boards import Board, BoardInput
from tianxia.web.boards.svg import (
    INK,
    document,
    esc,
    hit,
    initials,
    readable,
    seat_colour,
    seat_marker,
    seat_name,
    spot,
    tappable,
    text_width,
)
from tianxia.web.boards.svg import wrap as wrap_to
from tianxia.web.i18n import N_

WIDTH = 390.0
FONT = readable(WIDTH)  # 12
TAP = tappable(WIDTH)  # 44
DESK_WIDTH = 560.0  # CSS px: the widest the board is shown
MARGIN = 6.0
INNER = WIDTH - 2 * MARGIN
PER_ROW = 8
CELL_W = INNER / PER_ROW
CELL_H = 56.0
GAP = 18.0  # between rows of the track: room for the road's turn and the city names
TOKEN_W = 22.0  # a merchant on the track: its colour and its owner's shape
TOKEN_H = 14.0
CHIP_W = (INNER - 6) / 2
CHIP_H = 46.0
CARD_W = (INNER - 6) / 2
LINE_H = 15.0

ROAD = "#d9c39a"
FIELD = "#fffdf6"
CITY = "#f6b26b"
VENICE = "#f1c232"
LINE = "#8a7a5c"
FAINT = "#5f574c"
HILITE = "#b8860b"
CARD = "#fffaf0"
CARD_BACK = "#7a4b2a"
TURN_TINT = "#f3e6c8"

# The layout keeps the names printed on the German board; the page says them in words of
# the player's language.
CITY_NAMES = {
    "Samarkand": N_("Samarkand"),
    "Buchara": N_("Bukhara"),
    "Bagdad": N_("Baghdad"),
    "Byzanz": N_("Byzantium"),
    "Venedig": N_("Venice"),
}

# The merchants' own colours (wind rose, `play #3 white`); their owner is told by the
# seat marker beside the colour, so neither is read from colour alone.
MERCHANT_FILL = {
    "white": "#ffffff",
    "yellow": "#f5d033",
    "blue": "#3a6fd8",
    "purple": "#8e44ad",
    "green": "#2e9e4f",
    "red": "#d0312d",
    "orange": "#f08c1a",
}
DARK_LETTER = {"white", "yellow", "orange"}

Obs = Mapping[str, Any]


def text(
    x: float,
    y: float,
    content: object,
    size: float = FONT,
    anchor: str = "middle",
    fill: str = INK,
    **attrs: str,
) -> str:
    """`svg.text` with a fill of its own (light letters on dark pieces, faint notes)."""
    extra = "".join(f' {k.replace("_", "-")}="{esc(v)}"' for k, v in attrs.items())
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" text-anchor="{anchor}"'
        f' fill="{fill}"{extra}>{esc(content)}</text>'
    )


def city_name(name: str) -> str:
    return CITY_NAMES.get(name, name)


def card_no(kind: int) -> str:
    return f"#{kind + 1}"


def wrap(words: str, width: int) -> list[str]:
    """Greedy word wrap to lines of at most `width` characters (longer words stay whole)."""
    lines: list[str] = []
    line = ""
    for word in words.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


def alternatives(card_text: str) -> dict[str, str]:
    """The card's text split at its numerals ("I: ... II: ..."); a card without numerals is
    one alternative I."""
    out: dict[str, str] = {}
    numeral = ""
    for word in card_text.split():
        if word in ("I:", "II:", "III:"):
            numeral = word[:-1]
            out[numeral] = ""
        else:
            key = numeral or "I"
            out[key] = f"{out.get(key, '')} {word}".strip()
    return out


def cell_xy(field: int, length: int) -> tuple[float, float]:
    """Top-left corner of a field's cell, from the track's top: the start fields run right
    to left above field 1 (the last start field directly over it), then the track snakes
    in rows of eight."""
    if field <= 0:
        return MARGIN + (-field) * CELL_W, GAP
    field = min(field, length)
    row, k = divmod(field - 1, PER_ROW)
    if row % 2 == 1:
        k = PER_ROW - 1 - k
    return MARGIN + k * CELL_W, GAP + (row + 1) * (CELL_H + GAP)


def track_height(length: int) -> float:
    return cell_xy(length, length)[1] + CELL_H + 4


@functools.lru_cache(maxsize=8)
def ground(
    length: int, starts: tuple[str, ...], towns: tuple[tuple[int, int], ...], oz: str = "{n} oz"
) -> str:
    """What the printed board shows before anyone plays: the road, the fields with their
    numbers, the cities' payments, the start fields. It is the bulk of the drawing and the
    same for every view, so it is drawn once."""
    first = dict(towns)
    fields = range(1 - len(starts), length + 1)
    out: list[str] = []
    pts = []
    for f in fields:
        x, y = cell_xy(f, length)
        pts.append(f"{x + CELL_W / 2:.0f},{y + CELL_H / 2:.0f}")
    out.append(
        f'<polyline points="{" ".join(pts)}" fill="none" stroke="{ROAD}" '
        f'stroke-width="14" stroke-linejoin="round" stroke-linecap="round"/>'
    )
    for f in fields:
        x, y = cell_xy(f, length)
        fill, width = FIELD, 1
        if f in first:
            fill, width = (VENICE if f == length else CITY), 2
        out.append(
            f'<g class="field" data-field="{f}" id="sr-field-{f}"><rect x="{x + 1.5:.1f}" '
            f'y="{y + 1.5:.1f}" width="{CELL_W - 3:.1f}" height="{CELL_H - 3}" rx="5" '
            f'fill="{fill}" stroke="{LINE}" stroke-width="{width}"/>'
        )
        if f <= 0:
            out.append(
                text(x + 6, y + 15, starts[f - 1 + len(starts)], 13, "start", font_weight="bold")
            )
        else:
            out.append(text(x + 5, y + 14, f, FONT, "start", fill=FAINT))
        if f in first:
            out.append(
                text(
                    x + CELL_W - 5,
                    y + CELL_H - 6,
                    oz.format(n=first[f]),
                    FONT,
                    "end",
                    font_weight="bold",
                )
            )
        out.append("</g>")
    return "".join(out)


class Legal:
    """The viewer's legal actions sorted by the thing on the board they belong to: what is
    picked (a hand card, a card before the viewer) and where it goes (a merchant)."""

    def __init__(self, legal: Sequence[str]) -> None:
        self.start: dict[str, list[str]] = defaultdict(list)
        self.hand: dict[int, list[str]] = defaultdict(list)
        self.display: dict[int, list[str]] = defaultdict(list)
        self.carry: dict[str, list[str]] = defaultdict(list)
        self.merchant: dict[str, list[str]] = defaultdict(list)
        self.bazaar: list[str] = []
        for a in legal:
            words = a.split()
            verb = words[0] if words else ""
            if verb == "start" and len(words) == 2:
                self.start[words[1]].append(a)
            elif verb in ("play", "lay") and len(words) >= 2 and words[1].startswith("#"):
                self.hand[int(words[1][1:]) - 1].append(a)
                if verb == "play" and len(words) == 3:
                    self.merchant[words[2]].append(a)
            elif verb in ("give", "drop") and len(words) >= 2 and words[1].startswith("#"):
                self.display[int(words[1][1:]) - 1].append(a)
                if verb == "give" and len(words) == 3:
                    self.merchant[words[2]].append(a)
            elif verb == "carry" and len(words) >= 2:
                self.carry[words[1]].append(a)
            elif verb in ("pick", "miles") and len(words) >= 2:
                self.merchant[words[1]].append(a)
            elif verb == "bazaar":
                self.bazaar.append(a)


class Painter:
    """Draws one board; collects the actions it placed on spots."""

    def __init__(self, board: BoardInput) -> None:
        self.obs: Obs = board.body
        self.layout = board.layout
        self.viewer = board.seat
        self.legal = Legal(board.legal)
        self._ = board.gettext
        self.names = board.names
        self.placed: set[str] = set()
        # A merchant's mark in the reader's language ("Ge" and "Gr": geel, groen).
        self.marks = initials(
            {str(m["colour"]): self._(str(m["colour"])) for m in self.obs["merchants"]}
        )
        self.length = int(self.layout.get("length", 80))
        self.starts: list[str] = list(self.layout.get("start_fields", ["A", "B", "C"]))
        self.cards: list[Mapping[str, Any]] = list(self.layout.get("cards", []))
        self.players = int(self.obs["players"])
        to_move = self.obs.get("to_move")
        self.to_move = to_move if isinstance(to_move, int) and to_move >= 0 else None
        # What the other seats' last moves changed: merchants, start fields, seats.
        self.recent_merchants: set[str] = set()
        self.recent_fields: set[int] = set()
        self.recent_seats: set[int] = set()
        for seat, notation in board.recent:
            words = notation.split()
            verb = words[0] if words else ""
            if verb == "start" and len(words) == 2 and words[1] in self.starts:
                self.recent_fields.add(self.starts.index(words[1]) + 1 - len(self.starts))
            elif verb in ("play", "give") and len(words) == 3:
                self.recent_merchants.add(words[2])
            elif verb in ("pick", "miles") and len(words) >= 2:
                self.recent_merchants.add(words[1])
            if seat is not None and verb in ("play", "give", "lay", "drop", "bazaar"):
                self.recent_seats.add(seat)

    # -- helpers ---------------------------------------------------------------------

    def who(self, seat: int) -> str:
        return seat_name(self.names, seat)

    def spot(self, actions: Sequence[str], inner: str, label: str, pick: str | None = None) -> str:
        if not actions:
            return inner
        self.placed.update(actions)
        return spot(actions, inner, label, pick=pick)

    def title(self, kind: int) -> str:
        if 0 <= kind < len(self.cards):
            return self._(str(self.cards[kind].get("title", "")))
        return ""

    def card_text(self, kind: int) -> str:
        if 0 <= kind < len(self.cards):
            return self._(str(self.cards[kind].get("text", "")))
        return ""

    def owner_of(self, colour: str) -> int | None:
        for m in self.obs["merchants"]:
            if m["colour"] == colour:
                owner: int = m["owner"]
                return owner
        return None

    def recent(self, cls: str, changed: bool) -> str:
        return f"{cls} recent" if changed else cls

    def prompt(self) -> str:
        """The decision awaited, in the viewer's language, naming seats as the board does
        (the observation's `decision` is the engine's English)."""
        _ = self._
        obs = self.obs
        phase = str(obs.get("phase", ""))
        mover = self.who(self.to_move) if self.to_move is not None else ""
        turn_player = obs.get("turn_player")
        on_turn = self.who(int(turn_player)) if isinstance(turn_player, int) else ""
        p = obs.get("pending") or {}
        card = p.get("card")
        title = f"{card_no(int(card))} {self.title(int(card))}" if card is not None else ""
        merchant = _(str(p.get("merchant") or ""))
        if phase == "deal":
            return _("The hand cards are being dealt")
        if phase == "place":
            nxt = next((m for m in obs["merchants"] if m.get("field") is None), None)
            return _("{seat}: place the {colour} merchant on start field A, B or C").format(
                seat=mover, colour=_(str(nxt["colour"])) if nxt else ""
            )
        if phase == "end":
            return _("The journey is over")
        if phase == "turn":
            return _("{seat}: play a card (A), give one away (B) or call a bazaar (C)").format(
                seat=mover
            )
        if phase == "draw":
            return _("{seat} draws up to three hand cards").format(seat=on_turn)
        if phase == "carry":
            return _("{seat}: choose how {colour} carries out {card}").format(
                seat=mover, colour=merchant, card=title
            )
        if phase == "pick":
            return _("{seat}: name the merchant {card} means").format(seat=mover, card=title)
        if phase == "miles":
            miles = f"{int(p.get('miles') or 0):+d}"
            if self.to_move != self.viewer:
                return _("{seat} shares {miles} bazaar miles among their merchants").format(
                    seat=mover, miles=miles
                )
            return _("{seat}: share {miles} bazaar miles among your merchants").format(
                seat=mover, miles=miles
            )
        return _(phase)

    def lines(
        self, x: float, y: float, words: str, width: float, size: float = FONT, **attrs: str
    ) -> tuple[list[str], float]:
        """`words` wrapped to `width`, a line every LINE_H from `y`; returns the y below."""
        out = []
        for line in wrap_to(words, size, width, bold=attrs.get("font_weight") == "bold"):
            out.append(text(x, y, line, size, "start", **attrs))
            y += LINE_H if size <= 13 else size + 4
        return out, y

    # -- the head --------------------------------------------------------------------

    def header(self) -> tuple[list[str], float]:
        _ = self._
        obs = self.obs
        out = [text(MARGIN, 20, _("The Silk Road"), 15, "start", font_weight="bold")]
        status = _("round {round} · turn {turn}").format(
            round=obs.get("round", 1), turn=obs.get("turn", 0) + 1
        )
        if obs.get("ended"):
            ended = _("reached Venice") if obs["ended"] == "venice" else _("no one could go on")
            silver = list(obs["silver"])
            best = max(silver)
            winners = " & ".join(self.who(i) for i, v in enumerate(silver) if v == best)
            status = _("The journey is over: {how} · {winners} wins").format(
                how=ended, winners=winners
            )
        elif self.to_move is not None and self.to_move == self.viewer:
            status += " · " + _("your move")
        drawn, y = self.lines(MARGIN, 38, status, INNER, 13, font_weight="bold")
        out += drawn
        asked, y = self.lines(MARGIN, y + 2, self.prompt(), INNER, 13, font_style="italic")
        out.append(f'<g class="prompt">{"".join(asked)}</g>')
        return out, y

    def pending(self, top: float) -> tuple[list[str], float]:
        """The card being carried out, its alternatives to choose from; or the bazaar
        miles left to share."""
        _ = self._
        p = self.obs.get("pending") or {}
        kind = p.get("card")
        if self.obs.get("ended"):
            return [], top
        out: list[str] = ['<g id="sr-pending">']
        if kind is None:
            miles = p.get("miles")
            if miles is None:
                return [], top
            if self.to_move == self.viewer:
                words = _("Bazaar miles to share: {miles} — tap a merchant of yours")
            else:
                words = _("Bazaar miles to share: {miles}")
            words = words.format(miles=f"{miles:+d}")
            drawn, y = self.lines(MARGIN, top + 14, words, INNER, 13, font_weight="bold")
            return [*out, *drawn, "</g>"], y
        kind = int(kind)
        merchant = p.get("merchant")
        head = _("Carrying out {card}").format(card=f"{card_no(kind)} {self.title(kind)}")
        drawn, y = self.lines(MARGIN, top + 14, head, INNER, 13, font_weight="bold")
        out += drawn
        sub = []
        if merchant:
            owner = self.owner_of(str(merchant))
            sub.append(
                _("for {colour}").format(colour=_(str(merchant)))
                + (f" ({self.who(owner)})" if owner is not None else "")
            )
        mode = p.get("mode")
        if mode:
            sub.append(_("played (A)") if mode == "A" else _("given (B)"))
        if p.get("numeral"):
            sub.append(_("alternative {numeral}").format(numeral=p["numeral"]))
        if p.get("group"):
            sub.append(_("group: {colours}").format(colours=", ".join(_(c) for c in p["group"])))
        drawn, y = self.lines(MARGIN, y, " · ".join(sub), INNER, fill=FAINT)
        out += drawn
        alts = alternatives(str(self.cards[kind].get("text", "")) if kind < len(self.cards) else "")
        for numeral in self.legal.carry:
            alts.setdefault(numeral, "")
        y += 2
        for numeral in ("I", "II", "III"):
            if numeral not in alts:
                continue
            actions = self.legal.carry.get(numeral, [])
            body_lines = wrap_to(_(alts[numeral]) if alts[numeral] else "", FONT, INNER - 44)
            h = max(TAP, 12 + LINE_H * len(body_lines))
            chosen = p.get("numeral") == numeral
            body = [
                f'<rect x="{MARGIN}" y="{y:.1f}" width="{INNER}" height="{h:.1f}" rx="5" '
                f'fill="{TURN_TINT if chosen else CARD}" stroke="{HILITE if actions else LINE}" '
                f'stroke-width="{2.5 if actions else 1}"/>',
                text(MARGIN + 10, y + 18, numeral, 13, "start", font_weight="bold"),
            ]
            for i, line in enumerate(body_lines):
                body.append(text(MARGIN + 40, y + 18 + i * LINE_H, line, FONT, "start"))
            inner = (
                f'<g class="alternative" data-numeral="{numeral}" id="sr-alt-{numeral}">'
                f"{''.join(body)}</g>"
            )
            groups = [" & ".join(_(c) for c in a.split()[2:]) for a in actions]
            with_ = "; ".join(g for g in groups if g)
            label = _("{card} alternative {numeral}").format(card=card_no(kind), numeral=numeral)
            if with_:
                label += ": " + _("with {colours}").format(colours=with_)
            out.append(self.spot(actions, inner, label))
            y += h + 4
        out.append("</g>")
        return out, y + 2

    # -- what the viewer plays with --------------------------------------------------

    def hand_card(
        self, kind: int, ident: str, x: float, y: float, h: float, actions: list[str]
    ) -> str:
        _ = self._
        title = self.title(kind)
        w = CARD_W
        body = [
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="7" '
            f'fill="{CARD}" stroke="{HILITE if actions else LINE}" '
            f'stroke-width="{2.5 if actions else 1.2}"/>',
        ]
        head = wrap_to(f"{card_no(kind)} {title}", 13, w - 14, bold=True)
        for i, line in enumerate(head):
            body.append(text(x + 7, y + 17 + i * 16, line, 13, "start", font_weight="bold"))
        top = y + 17 + 16 * len(head)
        for i, line in enumerate(self.card_lines(kind, w - 14)):
            body.append(text(x + 7, top + i * LINE_H, line, FONT, "start"))
        inner = f'<g class="card hand" data-card="{kind}" id="{ident}">{"".join(body)}</g>'
        if not actions:
            return inner
        plays = [a.split()[-1] for a in actions if a.startswith("play")]
        what = []
        if plays:
            what.append(_("play it for {colours}").format(colours=", ".join(_(c) for c in plays)))
        if any(a.startswith("lay") for a in actions):
            what.append(_("lay it without effect"))
        label = f"{card_no(kind)} {title}: {self.card_text(kind)} ({'; '.join(what)})"
        return self.spot(actions, inner, label, pick=f"sr-hand-{kind}")

    def card_lines(self, kind: int, width: float) -> list[str]:
        """The card's text wrapped to `width`, each alternative on lines of its own."""
        raw = str(self.cards[kind].get("text", "")) if 0 <= kind < len(self.cards) else ""
        alts = alternatives(raw)
        if list(alts) == ["I"]:
            return wrap_to(self.card_text(kind), FONT, width)
        lines: list[str] = []
        for numeral, words in alts.items():
            lines += wrap_to(f"{numeral}: {self._(words)}", FONT, width)
        return lines

    def card_height(self, kind: int) -> float:
        head = wrap_to(f"{card_no(kind)} {self.title(kind)}", 13, CARD_W - 14, bold=True)
        body = self.card_lines(kind, CARD_W - 14)
        return max(TAP, 10 + 16 * len(head) + LINE_H * len(body))

    def hand(self, top: float) -> tuple[list[str], float]:
        _ = self._
        hand = self.obs.get("hand")
        if self.viewer is None or hand is None:
            return [], top
        picking = any(self.legal.hand.values())
        head = _("Your hand") + (
            " — " + _("pick a card, then the merchant it is for") if picking else ""
        )
        out, y = self.lines(MARGIN, top + 14, head, INNER, 13, font_weight="bold")
        out.insert(0, '<g class="hand-cards" id="sr-hand">')
        cards = [int(k) for k in hand]
        if not cards:
            out.append(text(MARGIN, y + 6, _("no cards"), FONT, "start", fill=FAINT))
            y += 16
        placed: set[int] = set()
        copies: dict[int, int] = defaultdict(int)
        row_h = 0.0
        for i, kind in enumerate(cards):
            x = MARGIN + (i % 2) * (CARD_W + 6)
            if i % 2 == 0:
                y += row_h + (4 if i else 0)
                pair = cards[i : i + 2]
                row_h = max(self.card_height(k) for k in pair)
            # Two copies of a kind take the same actions: the first copy carries them.
            actions = self.legal.hand.get(kind, []) if kind not in placed else []
            placed.add(kind)
            ident = f"sr-hand-{kind}-{copies[kind]}"
            copies[kind] += 1
            out.append(self.hand_card(kind, ident, x, y - 8, row_h, actions))
        y += row_h - 8
        if self.legal.bazaar:
            y += 6
            inner = (
                f'<g class="bazaar-card" data-seat="{self.viewer}" id="sr-call-bazaar">'
                f'<rect x="{MARGIN}" y="{y:.1f}" width="{INNER}" height="{TAP}" rx="7" '
                f'fill="#2f6b5a" stroke="{HILITE}" stroke-width="2.5"/>'
                + text(
                    WIDTH / 2, y + 27, _("Call a bazaar (C)"), 13, fill="#fff", font_weight="bold"
                )
                + "</g>"
            )
            out.append(self.spot(self.legal.bazaar, inner, _("Call a bazaar")))
            y += TAP
        out.append("</g>")
        return out, y + 6

    def merchants_panel(self, top: float) -> tuple[list[str], float]:
        """Every merchant as a card to tap: its colour, owner and field. A picked card is
        played (or given) by tapping the merchant it is for; bazaar miles and a card's
        merchant are named here too."""
        _ = self._
        out = [
            '<g class="merchants" id="sr-merchants">',
            text(MARGIN, top + 14, _("Merchants"), 13, "start", font_weight="bold"),
        ]
        y0 = top + 22
        merchants = list(self.obs["merchants"])
        for i, m in enumerate(merchants):
            colour = str(m["colour"])
            owner = int(m["owner"])
            x = MARGIN + (i % 2) * (CHIP_W + 6)
            y = y0 + (i // 2) * (CHIP_H + 4)
            actions = self.legal.merchant.get(colour, [])
            field = m.get("field")
            if field is None:
                where = _("Xi'an")
            elif int(field) <= 0:
                where = _("field {n}").format(n=self.starts[int(field) - 1 + len(self.starts)])
            elif int(field) >= self.length:
                where = _("Venice")
            else:
                where = _("field {n}").format(n=field)
            fill = MERCHANT_FILL.get(colour, "#999")
            letter = INK if colour in DARK_LETTER else "#ffffff"
            body = [
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{CHIP_W:.1f}" height="{CHIP_H}" rx="6" '
                f'fill="{CARD}" stroke="{HILITE if actions else LINE}" '
                f'stroke-width="{2.5 if actions else 1}"/>',
                f'<rect x="{x + 6:.1f}" y="{y + 8:.1f}" width="22" height="30" rx="3" '
                f'fill="{fill}" stroke="{INK}"/>',
                text(x + 17, y + 28, self.marks[colour], 13, fill=letter, font_weight="bold"),
                seat_marker(owner, x + 44, y + 23, 9, size=FONT),
                text(x + 58, y + 20, _(colour), 13, "start", font_weight="bold"),
                text(x + CHIP_W - 6, y + 20, where, FONT, "end"),
                text(x + 58, y + 37, self.who(owner), FONT, "start"),
            ]
            cls = self.recent("merchant-card", colour in self.recent_merchants)
            inner = (
                f'<g class="{cls}" data-colour="{esc(colour)}" id="sr-chip-{esc(colour)}">'
                f"{''.join(body)}</g>"
            )
            label = f"{_(colour)} ({self.who(owner)}), {where}"
            if actions and all(a.startswith("miles") for a in actions):
                steps = ", ".join(a.split()[-1] for a in actions)
                label += ": " + _("bazaar miles {steps}").format(steps=steps)
            elif actions and all(a.startswith("pick") for a in actions):
                label = _("name the merchant") + ": " + label
            out.append(self.spot(actions, inner, label))
        rows = (len(merchants) + 1) // 2
        out.append("</g>")
        return out, y0 + rows * (CHIP_H + 4) + 4

    # -- the track -------------------------------------------------------------------

    def merchant_token(
        self, colour: str, owner: int, x: float, y: float, scale: float, field: int | None
    ) -> str:
        """A merchant on the track: a tag in its own colour and its owner's shape beside
        it; (x, y) is the token's centre. Words are on the merchant's card above."""
        fill = MERCHANT_FILL.get(colour, "#999")
        body = (
            f'<rect x="-11" y="-7" width="10" height="14" rx="2" fill="{fill}" '
            f'stroke="{INK}" stroke-width="1"/>' + seat_marker(owner, 5, 0, 6, label=False)
        )
        where = "" if field is None else field
        cls = self.recent("merchant", colour in self.recent_merchants)
        return (
            f'<g class="{cls}" data-colour="{esc(colour)}" data-field="{where}" '
            f'id="sr-merchant-{esc(colour)}" '
            f'transform="translate({x:.1f},{y:.1f}) scale({scale:.2f})">'
            f"<title>{esc(self._(colour))} ({esc(self.who(owner))})</title>{body}</g>"
        )

    def crowd(
        self,
        merchants: list[Mapping[str, Any]],
        x: float,
        y: float,
        w: float,
        h: float,
        field: int | None = None,
    ) -> str:
        """Merchants side by side in the box (x, y, w, h), in as many rows as lets them be
        largest, smaller when many."""
        n = len(merchants)
        if not n:
            return ""

        def fit(cols: int) -> float:
            rows = (n + cols - 1) // cols
            return min(1.0, h / (rows * TOKEN_H), w / (cols * TOKEN_W))

        cols = max(range(1, n + 1), key=lambda c: (fit(c), -c))
        rows = (n + cols - 1) // cols
        scale = fit(cols)
        out = []
        for i, m in enumerate(merchants):
            r, c = divmod(i, cols)
            in_row = min(cols, n - r * cols)
            cx = x + w / 2 + (c - (in_row - 1) / 2) * TOKEN_W * scale
            cy = y + h / 2 + (r - (rows - 1) / 2) * TOKEN_H * scale
            out.append(self.merchant_token(m["colour"], int(m["owner"]), cx, cy, scale, field))
        return "".join(out)

    def track(self, top: float) -> tuple[list[str], float]:
        _ = self._
        obs = self.obs
        length = self.length
        starts = len(self.starts)
        cities = list(self.layout.get("cities", []))
        towns = tuple((int(c["field"]), int(c["first"])) for c in cities)
        out = [
            f'<g class="track" id="sr-track" transform="translate(0,{top:.1f})">',
            ground(length, tuple(self.starts), towns, self._("{n} oz")),
        ]
        milestone = obs.get("milestone")
        for c in cities:
            f = int(c["field"])
            x, y = cell_xy(f, length)
            name = _(city_name(str(c["name"])))
            if c["name"] == milestone:
                # The next city to pay: a red frame, as the milestone stone does.
                out.append(
                    f'<rect class="milestone" data-field="{f}" x="{x + 1.5:.1f}" '
                    f'y="{y + 1.5:.1f}" width="{CELL_W - 3:.1f}" height="{CELL_H - 3}" rx="5" '
                    f'fill="none" stroke="#8b1a1a" stroke-width="3.5"/>'
                )
            cx = min(WIDTH - MARGIN - text_width(name, FONT, True) / 2, x + CELL_W / 2)
            cx = max(MARGIN + text_width(name, FONT, True) / 2, cx)
            out.append(text(cx, y - 5, name, FONT, font_weight="bold", fill="#7a3b00"))
        nxt = next((m for m in obs["merchants"] if m.get("field") is None), None)
        for k, name in enumerate(self.starts):
            f = k + 1 - starts
            x, y = cell_xy(f, length)
            actions = self.legal.start.get(name, [])
            cls = self.recent("start", f in self.recent_fields)
            ring = (
                f'<g class="{cls}" data-field="{f}" id="sr-start-{esc(name)}">'
                f'<rect x="{x + 3:.1f}" y="{y + 3:.1f}" width="{CELL_W - 6:.1f}" '
                f'height="{CELL_H - 6}" rx="5" fill="{FIELD}" fill-opacity="0.01" '
                f'stroke="{HILITE if actions else "none"}" stroke-width="3" '
                f'stroke-dasharray="6 3"/>{hit(x, y, CELL_W, CELL_H)}</g>'
            )
            who = _(str(nxt["colour"])) if nxt else ""
            label = _("start field {name}: place the {colour} merchant here").format(
                name=name, colour=who
            )
            out.append(self.spot(actions, ring, label))
        # Xi'an, where the journey starts, beside the start fields.
        sx = MARGIN + starts * CELL_W + 6
        out.append(
            f'<rect x="{sx:.1f}" y="{GAP + 1.5:.1f}" width="{WIDTH - MARGIN - sx:.1f}" '
            f'height="{CELL_H - 3}" rx="6" fill="{FIELD}" stroke="{LINE}"/>'
        )
        out.append(text(sx + 8, GAP + 18, _("Xi'an"), 13, "start", font_weight="bold"))
        here: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
        waiting: list[Mapping[str, Any]] = []
        for m in obs["merchants"]:
            if m.get("field") is None:
                waiting.append(m)
            else:
                here[max(1 - starts, min(length, int(m["field"])))].append(m)
        if waiting:
            out.append(self.crowd(waiting, sx + 6, GAP + 24, WIDTH - MARGIN - sx - 12, CELL_H - 30))
        else:
            out.append(text(sx + 8, GAP + 38, _("← start fields"), FONT, "start", fill=FAINT))
        for f in sorted(here):
            x, y = cell_xy(f, length)
            out.append(self.crowd(here[f], x + 3, y + 18, CELL_W - 6, CELL_H - 34, f))
        out.append("</g>")
        return out, top + track_height(length)

    # -- the players -----------------------------------------------------------------

    def players_panel(self, top: float) -> tuple[list[str], float]:
        _ = self._
        obs = self.obs
        out = [text(MARGIN, top + 14, _("Players"), 13, "start", font_weight="bold")]
        y = top + 22
        turn_player = obs.get("turn_player")
        for seat in range(self.players):
            mine = seat == self.viewer
            cards = [int(k) for k in self.obs["displays"][seat]]
            h = 44.0 + (52.0 if cards else 0.0)
            cls = self.recent(f"seat-row seat{seat}", seat in self.recent_seats)
            row = [f'<g class="{cls}" id="sr-seat-{seat}">']
            tint = TURN_TINT if seat == turn_player and not obs.get("ended") else "#ffffff"
            stroke = seat_colour(seat) if mine else LINE
            row.append(
                f'<rect x="{MARGIN}" y="{y:.1f}" width="{INNER}" height="{h - 4:.1f}" rx="6" '
                f'fill="{tint}" stroke="{stroke}" stroke-width="{2 if mine else 1}"/>'
            )
            row.append(seat_marker(seat, MARGIN + 14, y + 13, 9, size=FONT))
            notes = [self.who(seat)]
            if mine:
                notes.append(_("you"))
            if seat == self.to_move:
                notes.append(_("decides"))
            elif seat == turn_player and not obs.get("ended"):
                notes.append(_("on turn"))
            row.append(
                text(MARGIN + 28, y + 18, " · ".join(notes), 13, "start", font_weight="bold")
            )
            row.append(
                text(
                    WIDTH - MARGIN - 6,
                    y + 18,
                    _("{n} oz").format(n=obs["silver"][seat]),
                    14,
                    "end",
                    font_weight="bold",
                )
            )
            facts = [
                _("hand {n}").format(n=int(obs["hand_sizes"][seat])),
                _("bazaar cards {n}").format(n=int(obs["bazaar_cards"][seat])),
            ]
            allowed = (obs.get("bazaar_allowed") or [False] * self.players)[seat]
            if allowed and int(obs["bazaar_cards"][seat]) and not obs.get("ended"):
                facts.append(_("may call a bazaar"))
            cost = (obs.get("penalties_due") or [0] * self.players)[seat]
            if cost and not obs.get("ended"):
                facts.append(_("cards before: −{n} oz").format(n=cost))
            row.append(text(MARGIN + 28, y + 35, " · ".join(facts), FONT, "start"))
            if cards:
                row.append(self.display(seat, cards, MARGIN + 6, y + 42, 46))
            row.append("</g>")
            out += row
            y += h
        return out, y

    def display(self, seat: int, cards: list[int], x: float, y: float, h: float) -> str:
        """The cards before a player, open to all; the viewer picks one of theirs to give
        it to a merchant or give it up."""
        _ = self._
        out = []
        gap = 4.0
        w = (INNER - 12 - 2 * gap) / 3
        placed: set[int] = set()
        copies: dict[int, int] = defaultdict(int)
        for i, kind in enumerate(cards[:3]):
            cx = x + i * (w + gap)
            actions: list[str] = []
            if seat == self.viewer and kind not in placed:
                actions = self.legal.display.get(kind, [])
            placed.add(kind)
            body = [
                f'<rect x="{cx:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="5" '
                f'fill="{CARD}" stroke="{HILITE if actions else LINE}" '
                f'stroke-width="{2.5 if actions else 1}"/>'
            ]
            words = wrap_to(f"{card_no(kind)} {self.title(kind)}", FONT, w - 10)
            for k, line in enumerate(words[:2]):
                body.append(text(cx + 5, y + 18 + k * LINE_H, line, FONT, "start"))
            ident = f"sr-display-{seat}-{kind}-{copies[kind]}"
            copies[kind] += 1
            inner = f'<g class="card display" data-card="{kind}" id="{ident}">{"".join(body)}</g>'
            if actions:
                gives = [a.split()[-1] for a in actions if a.startswith("give")]
                what = []
                if gives:
                    what.append(
                        _("give it to {colours}").format(colours=", ".join(_(c) for c in gives))
                    )
                if any(a.startswith("drop") for a in actions):
                    what.append(_("give it up"))
                label = f"{card_no(kind)} {self.title(kind)}: {'; '.join(what)}"
                inner = self.spot(actions, inner, label, pick=f"sr-display-{kind}")
            out.append(inner)
        if len(cards) > 3:
            more = f"+{len(cards) - 3}"
            out.append(text(WIDTH - MARGIN - 8, y - 4, more, FONT, "end"))
        return f'<g class="displays" data-seat="{seat}">{"".join(out)}</g>'

    # -- the rose, the bazaar and the piles ------------------------------------------

    def wind_rose(self, cx: float, top: float, r: float) -> tuple[list[str], float]:
        """The merchants' colours round the rose in seat order; the two marked ones carry a
        black stone."""
        _ = self._
        merchants = list(self.obs["merchants"])
        marked = list(self.obs.get("wind_rose") or [])
        n = max(1, len(merchants))
        cy = top + 34 + r
        out = ['<g id="sr-rose">', text(cx, top + 14, _("Wind rose"), 13, font_weight="bold")]
        for i, m in enumerate(merchants):
            a0 = math.radians(-90 + 360 * i / n - 180 / n)
            a1 = math.radians(-90 + 360 * (i + 1) / n - 180 / n)
            x0, y0 = cx + r * math.cos(a0), cy + r * math.sin(a0)
            x1, y1 = cx + r * math.cos(a1), cy + r * math.sin(a1)
            large = 1 if 360 / n > 180 else 0
            fill = MERCHANT_FILL.get(m["colour"], "#999")
            out.append(
                f'<path d="M{cx:.1f},{cy:.1f} L{x0:.1f},{y0:.1f} A{r:.1f},{r:.1f} 0 {large} 1 '
                f'{x1:.1f},{y1:.1f} Z" fill="{fill}" stroke="{INK}" stroke-width="1"/>'
            )
            mid = math.radians(-90 + 360 * i / n)
            lx, ly = cx + r * 0.66 * math.cos(mid), cy + r * 0.66 * math.sin(mid)
            letter = INK if m["colour"] in DARK_LETTER else "#ffffff"
            out.append(
                text(
                    lx,
                    ly + 4,
                    self.marks[str(m["colour"])],
                    FONT,
                    fill=letter,
                    font_weight="bold",
                )
            )
            ox, oy = cx + (r + 13) * math.cos(mid), cy + (r + 13) * math.sin(mid)
            out.append(seat_marker(int(m["owner"]), ox, oy, 8, size=FONT))
            if m["colour"] in marked:
                sx, sy = cx + r * 0.3 * math.cos(mid), cy + r * 0.3 * math.sin(mid)
                out.append(
                    f'<circle class="rose-stone" data-colour="{esc(m["colour"])}" cx="{sx:.1f}" '
                    f'cy="{sy:.1f}" r="5" fill="#111" stroke="#fff" stroke-width="1.5"/>'
                )
        y = cy + r + 36
        words = _("black stones: {colours}").format(colours=", ".join(_(c) for c in marked))
        drawn, y = self.lines(cx - r - 20, y, words, 2 * r + 40)
        out += drawn
        out.append("</g>")
        return out, y

    def bazaar_table(self, x: float, top: float) -> tuple[list[str], float]:
        _ = self._
        rows = list(self.layout.get("bazaar", []))
        marker = int(self.obs.get("bazaar_marker", 1))
        w = WIDTH - MARGIN - x
        cols = [x + 0.34 * w, x + 0.52 * w, x + 0.70 * w, x + w - 6]
        out = [
            '<g id="sr-bazaar">',
            text(x, top + 14, _("Bazaar table"), 13, "start", font_weight="bold"),
        ]
        for k, place in enumerate((_("1st"), _("2nd"), _("3rd"), _("miles"))):
            out.append(text(cols[k], top + 32, place, FONT, "end", fill=FAINT))
        y = top + 38
        for i, row in enumerate(rows):
            on = i + 1 == marker
            out.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="17" rx="3" '
                f'fill="{TURN_TINT if on else CARD}" stroke="{HILITE if on else LINE}" '
                f'stroke-width="{2 if on else 0.6}"/>'
            )
            out.append(text(x + 10, y + 13, i + 1, FONT, font_weight="bold"))
            for k, v in enumerate(row["ounces"]):
                out.append(text(cols[k], y + 13, v, FONT, "end"))
            out.append(text(cols[3], y + 13, f"{row['miles']:+d}", FONT, "end"))
            if on:
                out.append(
                    f'<g class="bazaar-marker"><polygon points="{x - 5:.1f},{y + 3:.1f} '
                    f'{x - 5:.1f},{y + 14:.1f} {x:.1f},{y + 8.5:.1f}" fill="#8b1a1a"/></g>'
                )
            y += 18
        if marker > len(rows):
            # A printed track may be shorter than the stack of bazaar cards (SR-6.5): the
            # marker then leaves it while bazaar cards are still held, and they are dead.
            cards = int(self.layout.get("bazaar_cards", len(rows)))
            note = _("all bazaars held") if marker > cards else _("the bazaar track has run out")
            drawn, y = self.lines(x, y + 14, note, w, fill=FAINT)
            out.append(f'<g class="bazaar-past-track">{"".join(drawn)}</g>')
        out.append("</g>")
        return out, y

    def piles(self, top: float) -> tuple[list[str], float]:
        _ = self._
        obs = self.obs
        out = ['<g id="sr-piles">']
        pile = int(obs.get("pile", 0))
        discard = len(obs.get("discard") or [])
        x = MARGIN
        out.append(
            f'<rect x="{x:.1f}" y="{top:.1f}" width="30" height="42" rx="4" fill="{CARD_BACK}" '
            f'stroke="{INK}"/>'
            + text(x + 15, top + 26, pile, 13, fill="#ffffff", font_weight="bold")
        )
        out.append(
            f'<rect x="{x + 36:.1f}" y="{top:.1f}" width="30" height="42" rx="4" fill="{CARD}" '
            f'stroke="{INK}"/>' + text(x + 51, top + 26, discard, 13, font_weight="bold")
        )
        words = _(
            "pile {pile} cards ({bazaars} bazaar cards) · discard {discard} · reshuffled {n}×"
        ).format(
            pile=pile,
            bazaars=int(obs.get("pile_bazaars", 0)),
            discard=discard,
            n=obs.get("reshuffles", 0),
        )
        nxt = obs.get("milestone")
        words += " · " + (
            _("next city to pay: {city}").format(city=_(city_name(str(nxt))))
            if nxt
            else _("all cities paid")
        )
        drawn, y = self.lines(x + 74, top + 12, words, WIDTH - MARGIN - x - 74)
        out += drawn
        out.append("</g>")
        return out, max(y, top + 46)

    def legend(self, top: float) -> tuple[list[str], float]:
        """The symbols of the board in words."""
        _ = self._
        out = ['<g class="legend" id="sr-legend">']
        out.append(text(MARGIN, top + 14, _("Legend"), 13, "start", font_weight="bold"))
        token = (
            f'<rect x="0" y="-11" width="10" height="14" rx="2" fill="{MERCHANT_FILL["blue"]}" '
            f'stroke="{INK}"/>' + seat_marker(0, 17, -4, 6, label=False)
        )
        frame = (
            f'<rect x="0" y="-13" width="24" height="18" rx="4" fill="{CITY}" stroke="#8b1a1a" '
            'stroke-width="3"/>'
        )
        stone = '<circle cx="6" cy="-4" r="5" fill="#111" stroke="#fff" stroke-width="1.5"/>'
        marker = '<polygon points="0,-10 0,1 6,-4.5" fill="#8b1a1a"/>'
        items = [
            (24, token, _("a merchant on the track: its colour, then its owner's shape")),
            (24, frame, _("red frame: the next city to pay; oz: what it pays the first")),
            (12, stone, _("black stone on the wind rose: a marked merchant")),
            (12, marker, _("red arrow on the bazaar table: the next bazaar")),
        ]
        y = top + 34
        for w, sign, words in items:
            out.append(f'<g transform="translate({MARGIN:.1f},{y:.1f})">{sign}</g>')
            drawn, y = self.lines(MARGIN + w + 8, y, words, INNER - w - 8)
            out += drawn
            y += 4
        out.append("</g>")
        return out, y

    def paint(self) -> Board:
        parts, y = self.header()
        pending, y = self.pending(y)
        parts += pending
        hand, y = self.hand(y)
        parts += hand
        merchants, y = self.merchants_panel(y)
        parts += merchants
        track, y = self.track(y + 4)
        parts += track
        panel, y = self.players_panel(y + 4)
        parts += panel
        rose, low = self.wind_rose(MARGIN + 80, y + 4, 56)
        parts += rose
        table, low2 = self.bazaar_table(MARGIN + 184, y + 4)
        parts += table
        piles, y = self.piles(max(low, low2) + 6)
        parts += piles
        legend, y = self.legend(y + 4)
        parts += legend
        # Drawn for a phone's width: on a desk it reads best at about one and a half times
        # that, with the hand and the merchants in one view.
        svg = document(WIDTH, y + 6, parts, self._("The Silk Road"), max_width=DESK_WIDTH)
        return Board(svg, self.placed)


def _dead(notation: str) -> int | None:
    words = notation.split()
    if len(words) == 2 and words[0] in ("lay", "drop") and words[1].startswith("#"):
        try:
            return int(words[1][1:]) - 1
        except ValueError:
            return None
    return None


def score_parts(
    body: Mapping[str, Any], scores: Sequence[Any]
) -> tuple[list[dict[str, Any]] | None, str]:
    """The score is silver alone, but who reached Venice is what the board shows last:
    the end's summary says that silver decides (SR-9.1, SR-9.3)."""
    return None, N_(
        "The score is each player's silver in ounces, after paying for the cards before"
        " them: the most silver wins, whoever reached Venice."
    )


def confirm(notation: str, board: BoardInput) -> str | None:
    """Laying a dead hand card, or giving up a dead card before you, spends the turn on
    nothing: asked first, in words."""
    kind = _dead(notation)
    if kind is None:
        return None
    _ = board.gettext
    cards = list(board.layout.get("cards", []))
    title = _(str(cards[kind].get("title", ""))) if 0 <= kind < len(cards) else ""
    card = f"{card_no(kind)} {title}".strip()
    if notation.startswith("lay"):
        return _("Lay {card} face up without effect? It does nothing, and your turn ends.").format(
            card=card
        )
    return _("Give up {card} before you? It does nothing, and your turn ends.").format(card=card)


def render(board: BoardInput) -> Board:
    return Painter(board).paint()
