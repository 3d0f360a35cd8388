"""Die Seidenstraße: the track from Xi'an to Venice as a snake of fields with the trade
cities, the merchants on it, the cards before each player, the viewer's hand, the wind
rose, the bazaar table and the piles.

Reads the observation of `docs/rules/silkroad.md` and the game's `layout()` (track
length, start fields, cities, card texts, bazaar table). Clickable: the start fields
(`start`), the viewer's hand cards (`play`, `lay`), the cards before the viewer (`give`,
`drop`), the viewer's bazaar card (`bazaar`), the alternatives of the card being carried
out (`carry`) and the merchants (`pick`, `miles`). Only `wait` is left to the page's list.
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
    seat_colour,
    seat_marker,
    seat_name,
    spot,
)

WIDTH = 600
MARGIN = 28
PER_ROW = 8
CELL_W = 68
CELL_H = 66
GAP = 24  # between rows of the track: room for the road's turn and the city names
TRACK_TOP = 96
TOKEN_W = 42.0  # a merchant's seat marker and colour tag, with room around them
TOKEN_H = 26.0

ROAD = "#d9c39a"
FIELD = "#fffdf6"
CITY = "#f6b26b"
VENICE = "#f1c232"
LINE = "#8a7a5c"
FAINT = "#6b6257"
HILITE = "#b8860b"
CARD = "#fffaf0"
CARD_BACK = "#7a4b2a"
TURN_TINT = "#f3e6c8"

# The layout keeps the names printed on the German board; the page speaks English.
CITY_NAMES = {
    "Samarkand": "Samarkand",
    "Buchara": "Bukhara",
    "Bagdad": "Baghdad",
    "Byzanz": "Byzantium",
    "Venedig": "Venice",
}

# The merchants' own colours (wind rose, `play #3 white`); their owner is told by the
# seat marker beside the colour's initial, so neither is read from colour alone.
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
    size: float = 12,
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
    """Top-left corner of a field's cell: the start fields run right to left above field
    1 (the last start field directly over it), then the track snakes in rows of eight."""
    if field <= 0:
        return MARGIN + (-field) * CELL_W, TRACK_TOP
    field = min(field, length)
    row, k = divmod(field - 1, PER_ROW)
    if row % 2 == 1:
        k = PER_ROW - 1 - k
    return MARGIN + k * CELL_W, TRACK_TOP + (row + 1) * (CELL_H + GAP)


@functools.lru_cache(maxsize=8)
def ground(length: int, starts: tuple[str, ...], towns: tuple[tuple[int, int], ...]) -> str:
    """What the printed board shows before anyone plays: the road, the fields with their
    numbers, the cities' first payments, the start fields and Xi'an's square. It is the
    bulk of the drawing and the same for every view, so it is drawn once."""
    first = dict(towns)
    fields = range(1 - len(starts), length + 1)
    out: list[str] = []
    pts = []
    for f in fields:
        x, y = cell_xy(f, length)
        pts.append(f"{x + CELL_W / 2:.0f},{y + CELL_H / 2:.0f}")
    out.append(
        f'<polyline points="{" ".join(pts)}" fill="none" stroke="{ROAD}" '
        f'stroke-width="16" stroke-linejoin="round" stroke-linecap="round"/>'
    )
    sx = MARGIN + len(starts) * CELL_W + 8
    out.append(
        f'<rect x="{sx:.0f}" y="{TRACK_TOP + 3}" width="{WIDTH - MARGIN - sx:.0f}" '
        f'height="{CELL_H - 6}" rx="8" fill="{FIELD}" stroke="{LINE}"/>'
    )
    out.append(f'<g stroke="{LINE}" font-size="11" text-anchor="start">')
    for f in fields:
        x, y = cell_xy(f, length)
        fill, width = FIELD, 1
        if f in first:
            fill, width = (VENICE if f == length else CITY), 2
        out.append(
            f'<g class="field" data-field="{f}"><rect x="{x + 2:.0f}" y="{y + 2:.0f}" '
            f'width="{CELL_W - 4}" height="{CELL_H - 4}" rx="6" fill="{fill}" '
            f'stroke-width="{width}"/>'
        )
        if f <= 0:
            out.append(
                f'<text x="{x + 8:.0f}" y="{y + 15:.0f}" font-size="12" font-weight="bold" '
                f'stroke="none" fill="{INK}">{esc(starts[f - 1 + len(starts)])}</text>'
            )
        else:
            out.append(
                f'<text x="{x + 7:.0f}" y="{y + 14:.0f}" stroke="none" fill="{FAINT}">{f}</text>'
            )
        if f in first:
            out.append(
                f'<text x="{x + CELL_W - 7:.0f}" y="{y + 14:.0f}" text-anchor="end" '
                f'font-weight="bold" stroke="none" fill="{INK}">{first[f]} oz</text>'
            )
        out.append("</g>")
    out.append("</g>")
    return "".join(out)


class Legal:
    """The viewer's legal actions sorted by the thing on the board they belong to."""

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
            elif verb in ("give", "drop") and len(words) >= 2 and words[1].startswith("#"):
                self.display[int(words[1][1:]) - 1].append(a)
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
        self.length = int(self.layout.get("length", 80))
        self.starts: list[str] = list(self.layout.get("start_fields", ["A", "B", "C"]))
        self.cards: list[Mapping[str, Any]] = list(self.layout.get("cards", []))
        self.players = int(self.obs["players"])
        to_move = self.obs.get("to_move")
        self.to_move = to_move if isinstance(to_move, int) and to_move >= 0 else None

    # -- helpers ---------------------------------------------------------------------

    def who(self, seat: int) -> str:
        return seat_name(self.names, seat)

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
        title = f"{card_no(int(card))} {_(self.title(int(card)))}" if card is not None else ""
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
            return _("{seat}: share {miles} bazaar miles among your merchants").format(
                seat=mover, miles=f"{int(p.get('miles') or 0):+d}"
            )
        return _(phase)

    def spot(self, actions: Sequence[str], inner: str, label: str) -> str:
        if not actions:
            return inner
        self.placed.update(actions)
        return spot(actions, inner, label)

    def title(self, kind: int) -> str:
        if 0 <= kind < len(self.cards):
            return str(self.cards[kind].get("title", ""))
        return ""

    def card_text(self, kind: int) -> str:
        if 0 <= kind < len(self.cards):
            return str(self.cards[kind].get("text", ""))
        return ""

    def owner_of(self, colour: str) -> int | None:
        for m in self.obs["merchants"]:
            if m["colour"] == colour:
                owner: int = m["owner"]
                return owner
        return None

    def merchant_token(
        self, colour: str, owner: int, x: float, y: float, scale: float, field: int | None
    ) -> str:
        """A merchant: its owner's seat marker and, beside it, a tag in the merchant's own
        colour with the colour's initial; (x, y) is the token's centre."""
        fill = MERCHANT_FILL.get(colour, "#999")
        letter = "#1a1a1a" if colour in DARK_LETTER else "#ffffff"
        body = (
            seat_marker(owner, -9, 0, 10)
            + f'<rect x="3" y="-10" width="16" height="20" rx="3" fill="{fill}" '
            f'stroke="{INK}" stroke-width="1"/>'
            + f'<text x="11" y="5" font-size="13" font-weight="bold" text-anchor="middle" '
            f'fill="{letter}">{esc(colour[:1].upper())}</text>'
        )
        where = "" if field is None else field
        return (
            f'<g class="merchant" data-colour="{esc(colour)}" data-field="{where}" '
            f'transform="translate({x:.1f},{y:.1f}) scale({scale:.2f})">'
            f"<title>{esc(self._(colour))} ({esc(self.who(owner))})</title>{body}</g>"
        )

    def merchant_spot(
        self, colour: str, owner: int, x: float, y: float, scale: float, field: int | None
    ) -> str:
        actions = self.legal.merchant.get(colour, [])
        token = self.merchant_token(colour, owner, x, y, scale, field)
        if not actions:
            return token
        if actions[0].startswith("miles"):
            steps = ", ".join(a.split()[-1] for a in actions)
            label = f"{self._(colour)} ({self.who(owner)}): {self._('bazaar miles')} {steps}"
        else:
            label = f"{self._('name the merchant')}: {self._(colour)} ({self.who(owner)})"
        ring = (
            f'<rect x="{x - TOKEN_W / 2 * scale:.1f}" y="{y - TOKEN_H / 2 * scale:.1f}" '
            f'width="{TOKEN_W * scale:.1f}" height="{TOKEN_H * scale:.1f}" rx="5" fill="none" '
            f'stroke="{HILITE}" stroke-width="2.5"/>'
        )
        return self.spot(actions, ring + token, label)

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
            in_row = min(cols, len(merchants) - r * cols)
            cx = x + w / 2 + (c - (in_row - 1) / 2) * TOKEN_W * scale
            cy = y + h / 2 + (r - (rows - 1) / 2) * TOKEN_H * scale
            out.append(self.merchant_spot(m["colour"], int(m["owner"]), cx, cy, scale, field))
        return "".join(out)

    # -- the track -------------------------------------------------------------------

    def track(self) -> tuple[list[str], float]:
        _ = self._
        obs = self.obs
        length = self.length
        starts = len(self.starts)
        cities = list(self.layout.get("cities", []))
        towns = tuple((int(c["field"]), int(c["first"])) for c in cities)
        out = [ground(length, tuple(self.starts), towns)]
        milestone = obs.get("milestone")
        for c in cities:
            f = int(c["field"])
            x, y = cell_xy(f, length)
            name = _(city_name(str(c["name"])))
            if c["name"] == milestone:
                # The next city to pay: a red frame and a flag, as the milestone stone does.
                name += " ⚑"
                out.append(
                    f'<rect class="milestone" data-field="{f}" x="{x + 2:.1f}" y="{y + 2:.1f}" '
                    f'width="{CELL_W - 4}" height="{CELL_H - 4}" rx="6" fill="none" '
                    f'stroke="#8b1a1a" stroke-width="3.5"/>'
                )
            out.append(text(x + CELL_W / 2, y - 6, name, 12, font_weight="bold", fill="#7a3b00"))
        for k, name in enumerate(self.starts):
            actions = self.legal.start.get(name, [])
            if not actions:
                continue
            f = k + 1 - starts
            x, y = cell_xy(f, length)
            nxt = next((m for m in obs["merchants"] if m.get("field") is None), None)
            who = f" {_('the')} {_(nxt['colour'])} {_('merchant')}" if nxt else ""
            ring = (
                f'<g class="start" data-field="{f}"><rect x="{x + 4:.1f}" y="{y + 4:.1f}" '
                f'width="{CELL_W - 8}" height="{CELL_H - 8}" rx="5" fill="{FIELD}" '
                f'fill-opacity="0.01" stroke="{HILITE}" stroke-width="3" '
                f'stroke-dasharray="6 3"/></g>'
            )
            out.append(self.spot(actions, ring, f"{_('start field')} {name}: {_('place')}{who}"))
        # Xi'an, where the journey starts, beside the start fields.
        sx = MARGIN + starts * CELL_W + 8
        out.append(text(sx + 10, TRACK_TOP + 22, _("Xi'an"), 15, "start", font_weight="bold"))
        here: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
        waiting: list[Mapping[str, Any]] = []
        for m in obs["merchants"]:
            if m.get("field") is None:
                waiting.append(m)
            else:
                here[max(1 - starts, min(length, int(m["field"])))].append(m)
        if waiting:
            out.append(
                text(sx + 10, TRACK_TOP + 40, _("waiting to start"), 11, "start", fill=FAINT)
            )
            out.append(
                self.crowd(waiting, sx + 110, TRACK_TOP + 6, WIDTH - MARGIN - sx - 116, CELL_H - 12)
            )
        else:
            out.append(
                text(sx + 10, TRACK_TOP + 40, _("start fields") + " ⟵", 11, "start", fill=FAINT)
            )
        for f in sorted(here):
            x, y = cell_xy(f, length)
            out.append(self.crowd(here[f], x + 4, y + 17, CELL_W - 8, CELL_H - 21, f))
        return out, cell_xy(length, length)[1] + CELL_H

    # -- panels ----------------------------------------------------------------------

    def header(self) -> list[str]:
        _ = self._
        obs = self.obs
        out = [
            text(MARGIN, 26, _("Die Seidenstraße — the Silk Road"), 18, "start", font_weight="bold")
        ]
        status = f"{_('round')} {obs.get('round', 1)} · {_('turn')} {obs.get('turn', 0) + 1}"
        if obs.get("ended"):
            ended = _("reached Venice") if obs["ended"] == "venice" else _("no one could go on")
            status = f"{_('The journey is over')}: {ended}"
            silver = list(obs["silver"])
            best = max(silver)
            winners = [self.who(i) for i, v in enumerate(silver) if v == best]
            status += f" · {' & '.join(winners)} {_('wins')}"
        elif self.to_move is not None and self.to_move == self.viewer:
            status += " · " + _("your move")
        out.append(text(MARGIN, 48, status, 13, "start", font_weight="bold"))
        lines = [
            text(MARGIN, 66 + i * 14, line, 12.5, "start", fill=FAINT, font_style="italic")
            for i, line in enumerate(wrap(self.prompt(), 80)[:2])
        ]
        out.append(f'<g class="prompt">{"".join(lines)}</g>')
        return out

    def card_lines(self, kind: int) -> list[str]:
        """The card's text wrapped to a hand card, each alternative on lines of its own."""
        alts = alternatives(self.card_text(kind))
        if list(alts) == ["I"]:
            return wrap(alts["I"], 26)
        lines: list[str] = []
        for numeral, words in alts.items():
            lines += wrap(f"{numeral}: {words}", 26)
        return lines

    def hand_card_height(self, kind: int) -> float:
        title = max(1, min(2, len(wrap(self.title(kind), 20))))
        body = len(self.card_lines(kind))
        return 17 + 14 * title + 4 + 14 * max(0, body - 1) + 12

    def hand_card(
        self, kind: int, x: float, y: float, w: float, h: float, actions: list[str]
    ) -> str:
        _ = self._
        title = self.title(kind)
        body = [
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="7" fill="{CARD}" '
            f'stroke="{HILITE if actions else LINE}" stroke-width="{2.5 if actions else 1.2}"/>',
            text(x + 8, y + 17, card_no(kind), 13, "start", font_weight="bold"),
        ]
        lines = wrap(title, 20)
        for i, line in enumerate(lines[:2]):
            body.append(text(x + 34, y + 17 + i * 14, line, 12, "start", font_weight="bold"))
        top = y + 17 + max(1, min(2, len(lines))) * 14 + 4
        for i, line in enumerate(self.card_lines(kind)):
            body.append(text(x + 8, top + i * 14, line, 11.5, "start"))
        inner = f'<g class="card hand" data-card="{kind}">{"".join(body)}</g>'
        if not actions:
            return inner
        plays = [a.split()[-1] for a in actions if a.startswith("play")]
        what = []
        if plays:
            what.append(f"{_('play for')} {', '.join(_(c) for c in plays)}")
        if any(a.startswith("lay") for a in actions):
            what.append(_("lay it without effect"))
        label = f"{card_no(kind)} {title}: {'; '.join(what)}"
        return self.spot(actions, inner, label)

    def hand(self, top: float) -> tuple[list[str], float]:
        _ = self._
        hand = self.obs.get("hand")
        if self.viewer is None or hand is None:
            return [], top
        out = [text(MARGIN, top + 14, _("Your hand"), 14, "start", font_weight="bold")]
        cards = list(hand)
        if not cards:
            out.append(text(MARGIN + 90, top + 14, _("no cards"), 11, "start", fill=FAINT))
            return out, top + 26
        w, gap = 176.0, 8.0
        h = max(self.hand_card_height(int(k)) for k in cards)
        placed: set[int] = set()
        for i, kind in enumerate(cards):
            x = MARGIN + (i % 3) * (w + gap)
            y = top + 24 + (i // 3) * (h + gap)
            # Two copies of a kind take the same actions: the first copy carries them.
            actions = self.legal.hand.get(kind, []) if kind not in placed else []
            placed.add(kind)
            out.append(self.hand_card(int(kind), x, y, w, h, actions))
        rows = (len(cards) + 2) // 3
        return out, top + 24 + rows * (h + gap)

    def pending(self, top: float) -> tuple[list[str], float]:
        _ = self._
        p = self.obs.get("pending") or {}
        kind = p.get("card")
        out: list[str] = []
        if self.obs.get("ended"):
            return [], top
        if kind is None:
            miles = p.get("miles")
            if miles is None:
                return [], top
            out.append(
                text(MARGIN, top + 14, _("Bazaar miles to share"), 14, "start", font_weight="bold")
            )
            out.append(
                text(
                    MARGIN + 190,
                    top + 14,
                    f"{miles:+d} — " + _("click a merchant of yours"),
                    12,
                    "start",
                )
            )
            return out, top + 28
        kind = int(kind)
        mode = p.get("mode")
        merchant = p.get("merchant")
        head = f"{_('Carrying out')} {card_no(kind)} {self.title(kind)}"
        out.append(text(MARGIN, top + 14, head, 14, "start", font_weight="bold"))
        sub = []
        if merchant:
            owner = self.owner_of(str(merchant))
            sub.append(
                f"{_('for')} {_(str(merchant))}"
                + (f" ({self.who(owner)})" if owner is not None else "")
            )
        if mode:
            sub.append(_("played (A)") if mode == "A" else _("given (B)"))
        if p.get("numeral"):
            sub.append(f"{_('alternative')} {p['numeral']}")
        if p.get("group"):
            sub.append(f"{_('group')}: {', '.join(_(c) for c in p['group'])}")
        out.append(text(MARGIN, top + 30, " · ".join(sub), 11, "start", fill=FAINT))
        alts = alternatives(self.card_text(kind))
        for numeral in self.legal.carry:
            alts.setdefault(numeral, "")
        y = top + 40
        for numeral in ("I", "II", "III"):
            if numeral not in alts:
                continue
            actions = self.legal.carry.get(numeral, [])
            lines = wrap(alts[numeral], 60) or [""]
            h = 10 + 14 * len(lines)
            chosen = p.get("numeral") == numeral
            body = [
                f'<rect x="{MARGIN}" y="{y:.1f}" width="{WIDTH - 2 * MARGIN}" height="{h}" rx="5" '
                f'fill="{TURN_TINT if chosen else CARD}" stroke="{HILITE if actions else LINE}" '
                f'stroke-width="{2.5 if actions else 1}"/>',
                text(MARGIN + 10, y + 17, numeral, 13, "start", font_weight="bold"),
            ]
            for i, line in enumerate(lines):
                body.append(text(MARGIN + 42, y + 17 + i * 14, line, 11.5, "start"))
            inner = f'<g class="alternative" data-numeral="{numeral}">{"".join(body)}</g>'
            groups = [" & ".join(_(c) for c in a.split()[2:]) for a in actions]
            with_ = "; ".join(g for g in groups if g)
            label = f"{card_no(kind)} {_('alternative')} {numeral}" + (
                f": {_('with')} {with_}" if with_ else ""
            )
            out.append(self.spot(actions, inner, label))
            y += h + 4
        return out, y + 4

    def players_panel(self, top: float) -> tuple[list[str], float]:
        _ = self._
        obs = self.obs
        out = [text(MARGIN, top + 14, _("Players"), 14, "start", font_weight="bold")]
        cols = [
            (MARGIN + 4, _("player")),
            (MARGIN + 104, _("silver")),
            (MARGIN + 160, _("hand")),
            (MARGIN + 204, _("bazaar")),
            (MARGIN + 256, _("cards before him")),
        ]
        for x, name in cols:
            out.append(text(x, top + 32, name, 11, "start", fill=FAINT))
        row_h = 52.0
        y0 = top + 38
        turn_player = obs.get("turn_player")
        for seat in range(self.players):
            y = y0 + seat * row_h
            mine = seat == self.viewer
            if seat == turn_player and not obs.get("ended"):
                out.append(
                    f'<rect x="{MARGIN - 4}" y="{y:.1f}" width="{WIDTH - 2 * MARGIN + 8}" '
                    f'height="{row_h - 4}" rx="6" fill="{TURN_TINT}"/>'
                )
            if mine:
                out.append(
                    f'<rect x="{MARGIN - 4}" y="{y:.1f}" width="{WIDTH - 2 * MARGIN + 8}" '
                    f'height="{row_h - 4}" rx="6" fill="none" stroke="{seat_colour(seat)}" '
                    f'stroke-width="2"/>'
                )
            cy = y + (row_h - 4) / 2
            out.append(seat_marker(seat, MARGIN + 14, cy, 10))
            out.append(text(MARGIN + 30, cy - 2, self.who(seat), 13, "start", font_weight="bold"))
            notes = []
            if mine:
                notes.append(_("you"))
            if seat == self.to_move:
                notes.append("▶ " + _("decides"))
            elif seat == turn_player and not obs.get("ended"):
                notes.append(_("turn"))
            if notes:
                out.append(text(MARGIN + 30, cy + 12, " · ".join(notes), 10.5, "start", fill=FAINT))
            out.append(
                text(
                    MARGIN + 104,
                    cy + 2,
                    f"{obs['silver'][seat]} oz",
                    14,
                    "start",
                    font_weight="bold",
                )
            )
            cost = (obs.get("penalties_due") or [0] * self.players)[seat]
            if cost and not obs.get("ended"):
                out.append(
                    text(
                        MARGIN + 104,
                        cy + 16,
                        f"{_('cards')} −{cost}",
                        10.5,
                        "start",
                        fill="#8b1a1a",
                    )
                )
            out.append(self.card_backs(MARGIN + 160, cy, int(obs["hand_sizes"][seat])))
            out.append(self.bazaar_cards(seat, MARGIN + 204, cy))
            out.append(self.display(seat, MARGIN + 256, y + 2, row_h - 8))
        return out, y0 + self.players * row_h

    def card_backs(self, x: float, cy: float, count: int) -> str:
        """Hidden hand cards: backs only, and how many."""
        parts = []
        for i in range(min(count, 3)):
            parts.append(
                f'<rect x="{x + i * 5:.1f}" y="{cy - 14 + i * 2:.1f}" width="18" height="26" '
                f'rx="3" '
                f'fill="{CARD_BACK}" stroke="{INK}" stroke-width="0.8"/>'
            )
        if count == 0:
            parts.append(
                f'<rect x="{x:.1f}" y="{cy - 14:.1f}" width="18" height="26" rx="3" fill="none" '
                f'stroke="{LINE}" stroke-dasharray="3 2"/>'
            )
        parts.append(text(x + 38, cy + 5, count, 13, "middle", font_weight="bold"))
        return f'<g class="hand-count">{"".join(parts)}</g>'

    def bazaar_cards(self, seat: int, x: float, cy: float) -> str:
        _ = self._
        count = int(self.obs["bazaar_cards"][seat])
        allowed = bool((self.obs.get("bazaar_allowed") or [False] * self.players)[seat])
        allowed = allowed and not self.obs.get("ended")
        actions = self.legal.bazaar if seat == self.viewer else []
        stroke = HILITE if actions else INK
        parts = []
        for i in range(count):
            parts.append(
                f'<rect x="{x + i * 6:.1f}" y="{cy - 17 + i * 2:.1f}" width="20" height="24" '
                f'rx="3" '
                f'fill="#2f6b5a" stroke="{stroke}" stroke-width="{2.5 if actions else 0.8}"/>'
            )
        if count:
            parts.append(
                text(
                    x + 10 + (count - 1) * 6,
                    cy - 1 + (count - 1) * 2,
                    "B",
                    11,
                    fill="#ffffff",
                    font_weight="bold",
                )
            )
            if allowed:
                parts.append(text(x + 16, cy + 20, _("may call"), 9.5, fill=FAINT))
        else:
            parts.append(text(x + 12, cy + 5, "–", 12))
        inner = f'<g class="bazaar-card" data-seat="{seat}">{"".join(parts)}</g>'
        return self.spot(actions, inner, _("Call a bazaar"))

    def display(self, seat: int, x: float, y: float, h: float) -> str:
        _ = self._
        cards = [int(k) for k in self.obs["displays"][seat]]
        out = []
        w, gap = 92.0, 4.0
        placed: set[int] = set()
        for i, kind in enumerate(cards[:3]):
            cx = x + i * (w + gap)
            actions: list[str] = []
            if seat == self.viewer and kind not in placed:
                actions = self.legal.display.get(kind, [])
            placed.add(kind)
            body = [
                f'<rect x="{cx:.1f}" y="{y:.1f}" width="{w}" height="{h:.1f}" rx="5" fill="{CARD}" '
                f'stroke="{HILITE if actions else LINE}" stroke-width="{2.5 if actions else 1}"/>',
                text(cx + 5, y + 13, card_no(kind), 11, "start", font_weight="bold"),
            ]
            for k, line in enumerate(wrap(self.title(kind), 15)[:2]):
                body.append(text(cx + 5, y + 27 + k * 12, line, 10.5, "start"))
            inner = f'<g class="card display" data-card="{kind}">{"".join(body)}</g>'
            if actions:
                gives = [a.split()[-1] for a in actions if a.startswith("give")]
                what = []
                if gives:
                    what.append(f"{_('give to')} {', '.join(_(c) for c in gives)}")
                if any(a.startswith("drop") for a in actions):
                    what.append(_("give it up"))
                inner = self.spot(
                    actions, inner, f"{card_no(kind)} {self.title(kind)}: {'; '.join(what)}"
                )
            out.append(inner)
        if len(cards) > 3:
            out.append(text(x + 3 * (w + gap), y + h / 2 + 4, f"+{len(cards) - 3}", 11, "start"))
        if not cards:
            out.append(text(x + 4, y + h / 2 + 4, _("none"), 10.5, "start", fill=FAINT))
        return f'<g class="displays" data-seat="{seat}">{"".join(out)}</g>'

    def wind_rose(self, cx: float, cy: float, r: float) -> list[str]:
        """The merchants' colours round the rose in seat order; the two marked ones carry a
        black stone."""
        _ = self._
        merchants = list(self.obs["merchants"])
        marked = list(self.obs.get("wind_rose") or [])
        n = max(1, len(merchants))
        out = [text(cx, cy - r - 32, _("Wind rose"), 13, font_weight="bold")]
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
            lx, ly = cx + r * 0.62 * math.cos(mid), cy + r * 0.62 * math.sin(mid)
            letter = "#1a1a1a" if m["colour"] in DARK_LETTER else "#ffffff"
            out.append(
                text(lx, ly + 4, m["colour"][:1].upper(), 12, fill=letter, font_weight="bold")
            )
            ox, oy = cx + (r + 15) * math.cos(mid), cy + (r + 15) * math.sin(mid)
            out.append(seat_marker(int(m["owner"]), ox, oy, 9))
            if m["colour"] in marked:
                sx, sy = cx + r * 0.32 * math.cos(mid), cy + r * 0.32 * math.sin(mid)
                out.append(
                    f'<circle class="rose-stone" data-colour="{esc(m["colour"])}" cx="{sx:.1f}" '
                    f'cy="{sy:.1f}" r="6" fill="#111" stroke="#fff" stroke-width="1.5"/>'
                )
        out.append(text(cx, cy + r + 34, f"{_('marked')}: {', '.join(_(c) for c in marked)}", 11.5))
        return out

    def bazaar_table(self, x: float, top: float) -> list[str]:
        _ = self._
        rows = list(self.layout.get("bazaar", []))
        marker = int(self.obs.get("bazaar_marker", 1))
        out = [text(x, top + 12, _("Bazaar table"), 13, "start", font_weight="bold")]
        for k, place in enumerate((_("1st"), _("2nd"), _("3rd"))):
            out.append(text(x + 42 + k * 26, top + 28, place, 10.5, "end", fill=FAINT))
        out.append(text(x + 128, top + 28, _("miles"), 10.5, "end", fill=FAINT))
        for i, row in enumerate(rows):
            y = top + 32 + i * 17
            on = i + 1 == marker
            out.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="134" height="16" rx="3" '
                f'fill="{TURN_TINT if on else CARD}" stroke="{HILITE if on else LINE}" '
                f'stroke-width="{2 if on else 0.6}"/>'
            )
            out.append(text(x + 8, y + 12, i + 1, 11.5, font_weight="bold"))
            for k, v in enumerate(row["ounces"]):
                out.append(text(x + 42 + k * 26, y + 12, v, 11.5, "end"))
            out.append(text(x + 128, y + 12, f"{row['miles']:+d}", 11.5, "end"))
            if on:
                arrow = text(x - 4, y + 12, "▶", 11, "end", fill="#8b1a1a")
                out.append(f'<g class="bazaar-marker">{arrow}</g>')
        if marker > len(rows):
            # A printed track may be shorter than the stack of bazaar cards (SR-6.5): the
            # marker then leaves it while bazaar cards are still held, and they are dead.
            cards = int(self.layout.get("bazaar_cards", len(rows)))
            note = _("all bazaars held") if marker > cards else _("the bazaar track has run out")
            label = text(x, top + 32 + len(rows) * 17 + 12, note, 11, "start", fill=FAINT)
            out.append(f'<g class="bazaar-past-track">{label}</g>')
        return out

    def piles(self, x: float, top: float) -> list[str]:
        _ = self._
        obs = self.obs
        out = [text(x, top + 12, _("Cards"), 13, "start", font_weight="bold")]
        pile = int(obs.get("pile", 0))
        out.append(
            f'<rect x="{x:.1f}" y="{top + 22:.1f}" width="30" height="42" rx="4" '
            f'fill="{CARD_BACK}" '
            f'stroke="{INK}"/>'
        )
        out.append(text(x + 15, top + 48, pile, 13, fill="#ffffff", font_weight="bold"))
        out.append(text(x + 38, top + 38, _("pile"), 11, "start"))
        bazaars = int(obs.get("pile_bazaars", 0))
        out.append(
            text(x + 38, top + 52, f"{bazaars} {_('bazaar cards')}", 11, "start", fill=FAINT)
        )
        discard = len(obs.get("discard") or [])
        out.append(
            f'<rect x="{x:.1f}" y="{top + 74:.1f}" width="30" height="42" rx="4" fill="{CARD}" '
            f'stroke="{INK}"/>'
        )
        out.append(text(x + 15, top + 100, discard, 13, font_weight="bold"))
        out.append(text(x + 38, top + 92, _("discard"), 11, "start"))
        out.append(
            text(
                x + 38,
                top + 106,
                f"{_('reshuffled')} {obs.get('reshuffles', 0)}×",
                10,
                "start",
                fill=FAINT,
            )
        )
        nxt = obs.get("milestone")
        out.append(text(x, top + 136, _("next city to pay"), 11, "start", fill=FAINT))
        out.append(
            text(
                x,
                top + 152,
                _(city_name(str(nxt))) + " ⚑" if nxt else _("all paid"),
                12,
                "start",
                font_weight="bold",
            )
        )
        return out

    def paint(self) -> Board:
        parts = self.header()
        track, y = self.track()
        parts += track
        y += 16
        pending, y = self.pending(y)
        parts += pending
        hand, y = self.hand(y)
        parts += hand
        panel, y = self.players_panel(y + 6)
        parts += panel
        top = y + 16
        parts += self.wind_rose(MARGIN + 90, top + 100, 62)
        parts += self.bazaar_table(MARGIN + 232, top + 18)
        parts += self.piles(MARGIN + 420, top + 18)
        height = top + 232
        svg = document(WIDTH, height, parts, self._("Die Seidenstraße board"))
        return Board(svg, self.placed)


def render(board: BoardInput) -> Board:
    return Painter(board).paint()
