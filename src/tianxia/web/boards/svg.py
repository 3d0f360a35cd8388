"""Small pieces every board uses: escaping, clickable spots, seat colours and shapes.

Colours are the Okabe-Ito palette (distinguishable with the common colour-vision
deficiencies); every seat also has its own shape and a label, so no piece is told apart
by colour alone.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from html import escape

# Okabe-Ito, without black (used for ink) and yellow first avoided on white.
SEAT_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442")
SEAT_SHAPES = ("circle", "square", "triangle", "diamond", "pentagon", "hexagon", "star")
INK = "#1a1a1a"
PAPER = "#fbf7ee"


def esc(text: object) -> str:
    """Text safe inside SVG content and attribute values."""
    return escape(str(text), quote=True)


def seat_label(seat: int) -> str:
    return f"P{seat + 1}"


def seat_name(names: Sequence[str], seat: int) -> str:
    """The one name of `seat` on every face: its player's name, else its P-number."""
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return seat_label(seat)


SEAT_WORD = re.compile(r"\bP(\d+)\b")


def named(sentence: str, names: Sequence[str]) -> str:
    """An engine sentence (which numbers seats P1, P2, ...) with the players' names."""
    if not names:
        return sentence
    return SEAT_WORD.sub(lambda m: seat_name(names, int(m.group(1)) - 1), sentence)


def initials(words: dict[str, str]) -> dict[str, str]:
    """Each key's mark in the reader's language: the shortest start of its word that no
    other word starts with ("geel" Ge, "groen" Gr, "rood" R), so a card reads without
    its colour in Dutch and German as in English."""
    # The pseudo-locale's markers wrap each word: the mark is cut from the word inside
    # them and wrapped again, so it still reads as translated.
    wrapped = all(w.startswith("⟦") and w.endswith("⟧") for w in words.values())
    plain = {k: w[1:-1] if wrapped else w for k, w in words.items()}
    out = {}
    for key, word in plain.items():
        others = [w.casefold() for k, w in plain.items() if k != key]
        n = 1
        while n < len(word) and any(o.startswith(word[:n].casefold()) for o in others):
            n += 1
        mark = word[:1].upper() + word[1:n]
        out[key] = f"⟦{mark}⟧" if wrapped else mark
    return out


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _polygon(cx: float, cy: float, r: float, sides: int, turn: float = -90.0) -> str:
    points = []
    for k in range(sides):
        a = math.radians(turn + 360.0 * k / sides)
        points.append(f"{cx + r * math.cos(a):.1f},{cy + r * math.sin(a):.1f}")
    return " ".join(points)


def seat_marker(
    seat: int,
    cx: float,
    cy: float,
    r: float,
    label: bool = True,
    size: float | None = None,
    name: str | None = None,
) -> str:
    """A piece of `seat`: its colour, its own shape and (if `label`) its P-number, written
    `size` high (by default in proportion to the piece); its title is the seat's `name`
    where one is known."""
    colour = seat_colour(seat)
    shape = SEAT_SHAPES[seat % len(SEAT_SHAPES)]
    style = f'fill="{colour}" stroke="{INK}" stroke-width="1"'
    if shape == "circle":
        body = f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" {style}/>'
    elif shape == "square":
        s = r * 1.7
        body = f'<rect x="{cx - s / 2:.1f}" y="{cy - s / 2:.1f}" width="{s:.1f}" height="{s:.1f}" {style}/>'
    elif shape == "star":
        pts = []
        for k in range(10):
            rr = r * 1.15 if k % 2 == 0 else r * 0.5
            a = math.radians(-90 + 36 * k)
            pts.append(f"{cx + rr * math.cos(a):.1f},{cy + rr * math.sin(a):.1f}")
        body = f'<polygon points="{" ".join(pts)}" {style}/>'
    else:
        sides = {"triangle": 3, "diamond": 4, "pentagon": 5, "hexagon": 6}[shape]
        turn = 0.0 if shape == "diamond" else -90.0
        body = f'<polygon points="{_polygon(cx, cy, r * 1.15, sides, turn)}" {style}/>'
    if label:
        size = size or max(6.0, r * 0.9)
        body += (
            f'<text x="{cx:.1f}" y="{cy + size * 0.35:.1f}" font-size="{size:.1f}" '
            f'text-anchor="middle" fill="#fff" stroke="{INK}" stroke-width="0.3" '
            f'font-weight="bold">{seat + 1}</text>'
        )
    return f'<g class="piece seat{seat}"><title>{esc(name or seat_label(seat))}</title>{body}</g>'


def spot(
    actions: Sequence[str],
    inner: str,
    label: str,
    *,
    pick: str | None = None,
    ident: str | None = None,
    into: Sequence[str] = (),
) -> str:
    """`inner` as a thing to click (and to reach with Tab) that offers `actions`.

    The page sends the action when there is one, and asks which when there are several.
    A `pick` (a card in hand, a piece) is only selected by a click: its actions are then
    offered on their targets. A pick may be a target as well (`into`: the moves that go
    there, as between two provinces of one player): with another thing picked whose
    moves go there, a click plays one of them instead of picking it. `ident` is the
    spot's stable id. Without actions `inner` is returned as it is: nothing to click.
    """
    if not actions:
        return inner
    data = esc(json.dumps(list(actions)))
    extra = f' data-pick="{esc(pick)}"' if pick is not None else ""
    if pick is not None and into:
        extra += f' data-into="{esc(json.dumps(list(into)))}"'
    extra += f' id="{esc(ident)}"' if ident is not None else ""
    return (
        f'<g class="spot" tabindex="0" role="button" aria-label="{esc(label)}" '
        f'data-actions="{data}"{extra}><title>{esc(label)}</title>{inner}</g>'
    )


# A phone shows the board across its 390 CSS px: a finger needs 44 px, an eye 12 px.
PHONE_WIDTH = 390.0


def readable(width: float) -> float:
    """The smallest font size, in units of a board `width` wide, that reads on a phone
    (rounded up to the tenth the SVG is written with)."""
    return math.ceil(120.0 * width / PHONE_WIDTH) / 10


def tappable(width: float) -> float:
    """The smallest side of a tap target, in units of a board `width` wide (rounded up
    to a whole unit, so a half side written to a tenth is never short)."""
    return float(math.ceil(44.0 * width / PHONE_WIDTH))


def hit(x: float, y: float, w: float, h: float) -> str:
    """An invisible area that takes a spot's taps where its drawing is smaller."""
    return (
        f'<rect class="hit" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
        f'fill="transparent"/>'
    )


def text_width(content: str, size: float, bold: bool = False) -> float:
    """A text's width as the common sans-serif fonts set it, near enough to lay out by."""
    return len(content) * size * (0.7 if bold else 0.6)


def wrap(content: str, size: float, width: float, bold: bool = False) -> list[str]:
    """`content` broken at spaces into lines no wider than `width` (a word too long for
    a line keeps a line of its own)."""
    lines: list[str] = []
    for word in content.split(" "):
        if lines and text_width(lines[-1] + " " + word, size, bold) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


# The widths (CSS px) style.css holds a board to on a desk, as `svg.board.desk-<width>`.
DESK_WIDTHS = (560.0, 580.0, 640.0)


# The font of the pages (style.css), for the boards' text wherever a board is shown.
FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans', sans-serif"


def document(
    width: float,
    height: float,
    parts: Iterable[str],
    title: str,
    max_width: float | None = None,
) -> str:
    """The whole inline `<svg>`: scales to its container, keeps its proportions. A named
    group, not an image: an image's insides are hidden from assistive technology, and
    its spots are controls. A board drawn for a phone's width reads best on a desk at
    `max_width` CSS px, not stretched across the page (its text would double): a class
    of style.css says so (`DESK_WIDTHS`), since the pages' content security policy
    allows no style attribute.

    Raises:
        ValueError: `max_width` is not one of `DESK_WIDTHS`.
    """
    if max_width and max_width not in DESK_WIDTHS:
        raise ValueError(f"no class of style.css holds a board to {max_width} px")
    desk = f" desk-{max_width:.0f}" if max_width else ""
    # The pages' sans-serif, said on the drawing itself: a board shown as a picture (the
    # lobby's cards, how to play) gets no style from the page, and a browser's default
    # serif would set its text narrower than the boards measure it.
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board{desk}" viewBox="0 0 {width:.0f} '
        f'{height:.0f}" role="group" aria-label="{esc(title)}" preserveAspectRatio="xMidYMid meet" '
        f'font-family="{FONT_FAMILY}">'
        f'<rect width="100%" height="100%" fill="{PAPER}"/>' + "".join(parts) + "</svg>"
    )


def text(
    x: float, y: float, content: object, size: float = 12, anchor: str = "middle", **attrs: str
) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{esc(v)}"' for k, v in attrs.items())
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" text-anchor="{anchor}"'
        f' fill="{INK}"{extra}>{esc(content)}</text>'
    )
