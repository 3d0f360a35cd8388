"""What every board must satisfy, checked over seeded random games at every step."""

from __future__ import annotations

import json
import math
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence

from tianxia.core import load_game
from tianxia.core.match import Match
from tianxia.web.boards import Board, render

SVG = "{http://www.w3.org/2000/svg}"

# A phone: the board scaled to the screen's width, and what a finger and an eye need there.
PHONE_WIDTH = 390.0
MIN_TAP = 44.0  # CSS px, each way
MIN_FONT = 12.0  # CSS px
_Box = tuple[float, float, float, float]  # x0, y0, x1, y1
_Matrix = tuple[float, float, float, float, float, float]  # a b c d e f, as SVG writes it


def _times(m: _Matrix, n: _Matrix) -> _Matrix:
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + c * b2,
        b * a2 + d * b2,
        a * c2 + c * d2,
        b * c2 + d * d2,
        a * e2 + c * f2 + e,
        b * e2 + d * f2 + f,
    )


def _transform(attr: str | None) -> _Matrix:
    """The matrix of a `transform` attribute (translate, rotate, scale, matrix)."""
    m: _Matrix = (1, 0, 0, 1, 0, 0)
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", attr or ""):
        v = [float(x) for x in re.split(r"[\s,]+", args.strip()) if x]
        if name == "translate":
            step: _Matrix = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0.0)
        elif name == "scale":
            step = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        elif name == "rotate":
            r = math.radians(v[0])
            cx, cy = (v[1], v[2]) if len(v) == 3 else (0.0, 0.0)
            rot: _Matrix = (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0)
            step = _times(_times((1, 0, 0, 1, cx, cy), rot), (1, 0, 0, 1, -cx, -cy))
        elif name == "matrix":
            step = (v[0], v[1], v[2], v[3], v[4], v[5])
        else:
            raise AssertionError(f"unknown transform {name}")
        m = _times(m, step)
    return m


def _corners(el: ET.Element) -> list[tuple[float, float]]:
    """The corners of a shape's own box (no text: a spot is tapped on its shapes)."""
    tag = el.tag.removeprefix(SVG)
    num = lambda k: float(el.get(k) or 0)  # noqa: E731
    if tag == "rect":
        x, y, w, h = num("x"), num("y"), num("width"), num("height")
        return [(x, y), (x + w, y + h), (x + w, y), (x, y + h)]
    if tag in ("circle", "ellipse"):
        rx = num("r") if tag == "circle" else num("rx")
        ry = num("r") if tag == "circle" else num("ry")
        cx, cy = num("cx"), num("cy")
        return [(cx - rx, cy - ry), (cx + rx, cy + ry), (cx + rx, cy - ry), (cx - rx, cy + ry)]
    if tag in ("polygon", "polyline"):
        v = [float(x) for x in re.split(r"[\s,]+", (el.get("points") or "").strip()) if x]
        return list(zip(v[0::2], v[1::2]))
    if tag == "line":
        return [(num("x1"), num("y1")), (num("x2"), num("y2"))]
    return []


def _box(el: ET.Element, m: _Matrix) -> _Box | None:
    m = _times(m, _transform(el.get("transform")))
    pts = [(m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]) for x, y in _corners(el)]
    boxes = [b for child in el if (b := _box(child, m)) is not None]
    if pts:
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    if not boxes:
        return None
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def check_phone(svg: str | ET.Element, phone_width: float = PHONE_WIDTH) -> None:
    """On a phone `phone_width` CSS px wide showing the whole board's width: every spot
    can be tapped (its shapes span at least MIN_TAP each way) and every text is at least
    MIN_FONT high, and no two spots' tap areas overlap."""
    root = ET.fromstring(svg) if isinstance(svg, str) else svg
    view_box = [float(v) for v in (root.get("viewBox") or "").split()]
    px = phone_width / view_box[2]  # CSS px per SVG unit
    for g in root.iter(f"{SVG}g"):
        if "spot" not in (g.get("class") or "").split():
            continue
        box = _box(g, (1, 0, 0, 1, 0, 0))
        assert box is not None, f"a spot without a shape: {g.get('aria-label')}"
        # What lies outside the board is not drawn, so not tapped either.
        x0, y0 = max(box[0], view_box[0]), max(box[1], view_box[1])
        x1 = min(box[2], view_box[0] + view_box[2])
        y1 = min(box[3], view_box[1] + view_box[3])
        w, h = (x1 - x0) * px, (y1 - y0) * px
        assert min(w, h) >= MIN_TAP - 0.05, (
            f"{g.get('aria-label')!r} is {w:.0f}x{h:.0f} px to tap on a phone"
        )
    for t in root.iter(f"{SVG}text"):
        size = float(t.get("font-size") or 0) * px
        assert size >= MIN_FONT - 0.05, f"{''.join(t.itertext())!r} is {size:.1f} px on a phone"
    check_taps_apart(root)


# A tap area in board units: ("circle", (cx, cy, r)) or ("poly", (x0, y0, x1, y1, ...)).
_Shape = tuple[str, tuple[float, ...]]


def _tap_shapes(el: ET.Element, m: _Matrix, out: list[_Shape]) -> None:
    """The shapes a spot is tapped on (its drawing and its hit areas, not its text)."""
    m = _times(m, _transform(el.get("transform")))
    tag = el.tag.removeprefix(SVG)
    if tag == "text":
        return
    num = lambda k: float(el.get(k) or 0)  # noqa: E731
    if tag == "circle":
        scale = math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))
        cx, cy = num("cx"), num("cy")
        out.append(
            (
                "circle",
                (m[0] * cx + m[2] * cy + m[4], m[1] * cx + m[3] * cy + m[5], num("r") * scale),
            )
        )
    else:
        if tag == "rect":
            x, y, w, h = num("x"), num("y"), num("width"), num("height")
            pts = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
        else:
            pts = _corners(el)
        if len(pts) >= 3:
            flat = [
                v
                for px, py in pts
                for v in (m[0] * px + m[2] * py + m[4], m[1] * px + m[3] * py + m[5])
            ]
            out.append(("poly", tuple(flat)))
    for child in el:
        _tap_shapes(child, m, out)


def _inside(shape: _Shape, x: float, y: float) -> bool:
    kind, v = shape
    if kind == "circle":
        return math.hypot(x - v[0], y - v[1]) < v[2]
    n = len(v) // 2
    hit = False
    for k in range(n):
        x0, y0, x1, y1 = v[2 * k], v[2 * k + 1], v[2 * ((k + 1) % n)], v[2 * ((k + 1) % n) + 1]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


def _shape_box(shape: _Shape) -> _Box:
    kind, v = shape
    if kind == "circle":
        return (v[0] - v[2], v[1] - v[2], v[0] + v[2], v[1] + v[2])
    return (min(v[0::2]), min(v[1::2]), max(v[0::2]), max(v[1::2]))


def _meet(a: list[_Shape], b: list[_Shape], box: _Box, slack: float, step: float = 1.0) -> bool:
    """Some point of `box` (on a grid of `step`) lies inside a shape of each spot, and so
    do the corners of a square of 2 `slack` about it (two areas that share an edge touch,
    they do not overlap)."""

    def deep(shapes: list[_Shape], x: float, y: float) -> bool:
        return all(
            any(_inside(sh, x + dx, y + dy) for sh in shapes)
            for dx, dy in (
                (0, 0),
                (-slack, -slack),
                (slack, -slack),
                (-slack, slack),
                (slack, slack),
            )
        )

    x = box[0] + step / 2
    while x < box[2]:
        y = box[1] + step / 2
        while y < box[3]:
            if deep(a, x, y) and deep(b, x, y):
                return True
            y += step
        x += step
    return False


def check_taps_apart(svg: str | ET.Element, slack: float = 0.5) -> None:
    """No two spots' tap areas overlap (by more than `slack` units each way): a tap lands
    on one thing, never on a piece that lies under another's area."""
    root = ET.fromstring(svg) if isinstance(svg, str) else svg
    found: list[tuple[str, list[_Shape], _Box]] = []

    def walk(el: ET.Element, m: _Matrix) -> None:
        m = _times(m, _transform(el.get("transform")))
        for child in el:
            if "spot" in (child.get("class") or "").split():
                shapes: list[_Shape] = []
                _tap_shapes(child, m, shapes)
                boxes = [_shape_box(sh) for sh in shapes]
                outer = (
                    min(b[0] for b in boxes),
                    min(b[1] for b in boxes),
                    max(b[2] for b in boxes),
                    max(b[3] for b in boxes),
                )
                found.append((child.get("aria-label") or "", shapes, outer))
            walk(child, m)  # a spot inside a spot is caught as an overlap

    walk(root, (1, 0, 0, 1, 0, 0))
    found.sort(key=lambda f: f[2][0])
    for i, (la, sa, ba) in enumerate(found):
        for lb, sb, bb in found[i + 1 :]:
            if bb[0] >= ba[2] - slack:
                break
            common = (max(ba[0], bb[0]), max(ba[1], bb[1]), min(ba[2], bb[2]), min(ba[3], bb[3]))
            if common[2] - common[0] <= slack or common[3] - common[1] <= slack:
                continue
            inner = (common[0] + slack, common[1] + slack, common[2] - slack, common[3] - slack)
            assert not _meet(sa, sb, inner, slack), f"the tap areas of {la!r} and {lb!r} overlap"


def _text_boxes(el: ET.Element, m: _Matrix, out: list[tuple[str, _Box]]) -> None:
    m = _times(m, _transform(el.get("transform")))
    if el.tag == f"{SVG}text":
        words = "".join(el.itertext())
        size = float(el.get("font-size") or 0)
        bold = el.get("font-weight") == "bold"
        # As the common sans-serif fonts set it, near enough to tell two labels apart.
        w = len(words) * size * (0.6 if bold else 0.55)
        x, y = float(el.get("x") or 0), float(el.get("y") or 0)
        x -= {"middle": w / 2, "end": w}.get(el.get("text-anchor") or "start", 0.0)
        corners = [(x, y - 0.75 * size), (x + w, y + 0.2 * size)]
        pts = [(m[0] * a + m[2] * b + m[4], m[1] * a + m[3] * b + m[5]) for a, b in corners]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        out.append((words, (min(xs), min(ys), max(xs), max(ys))))
        return
    for child in el:
        _text_boxes(child, m, out)


def check_labels_apart(svg: str | ET.Element, slack: float = 1.5) -> None:
    """No two texts of a board overlap (by more than `slack` units each way), so no label
    runs into another ("#21Resting camels")."""
    boxes: list[tuple[str, _Box]] = []
    root = ET.fromstring(svg) if isinstance(svg, str) else svg
    _text_boxes(root, (1, 0, 0, 1, 0, 0), boxes)
    # A sweep from left to right: only boxes that start before one ends can overlap it,
    # so a board with hundreds of labels is checked in about n log n, not n squared.
    boxes.sort(key=lambda item: item[1][0])
    for i, (a, ba) in enumerate(boxes):
        for b, bb in boxes[i + 1 :]:
            if bb[0] >= ba[2] - slack:
                break
            w = min(ba[2], bb[2]) - max(ba[0], bb[0])
            h = min(ba[3], bb[3]) - max(ba[1], bb[1])
            assert w <= slack or h <= slack, f"{a!r} and {b!r} overlap"


def spots(svg: str, picks: bool | None = None) -> list[list[str]]:
    """The actions of each clickable spot, in document order: all of them, or only the
    picks (things picked up first, `data-pick`) or only the places (`picks=False`; a pick
    that is a place too offers its `data-into` as a place)."""
    root = ET.fromstring(svg)
    out = []
    for g in root.iter(f"{SVG}g"):
        if "spot" not in (g.get("class") or "").split():
            continue
        is_pick = g.get("data-pick") is not None
        if picks in (None, is_pick):
            out.append(json.loads(g.get("data-actions") or "[]"))
        if is_pick and picks is not True and g.get("data-into"):
            out.append(json.loads(g.get("data-into") or "[]"))
    return out


def check_board(board: Board, legal: list[str]) -> None:
    root = ET.fromstring(board.svg)  # well-formed, or this raises
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox")
    found = spots(board.svg)
    # An action sits on one place at most, and on one pick at most (the thing it plays).
    for kind in (True, False):
        counted = Counter(a for actions in spots(board.svg, kind) for a in actions)
        assert all(n == 1 for n in counted.values()), f"an action on two spots: {counted}"
    assert {a for actions in found for a in actions} == board.placed
    assert board.placed <= set(legal), board.placed - set(legal)
    for actions in found:
        assert actions, "a spot offers nothing"
    picks = [g.get("data-pick") for g in root.iter(f"{SVG}g") if g.get("data-pick") is not None]
    assert len(picks) == len(set(picks)), f"two picks of one key: {picks}"
    ids = [e.get("id") for e in root.iter() if e.get("id") is not None]
    assert len(ids) == len(set(ids)), f"an id twice: {Counter(ids).most_common(3)}"


def play_and_check(
    name: str,
    players: int,
    seed: int,
    steps: int = 400,
    phone: bool = False,
    labels: bool = False,
    names: Sequence[str] = (),
    **options: object,
) -> dict[str, int]:
    """Play a seeded random game of `name`, rendering every seat and a spectator at every
    step (with the players' `names`; with `phone`, checking each board for a phone too;
    with `labels`, that no label overlaps another); returns how many legal actions were
    placed and listed in all."""
    game = load_game(name, players, **options)
    match = Match(game, seed=seed)
    rng = random.Random(seed)
    totals = {"placed": 0, "listed": 0}
    for _ in range(steps):
        state = match.state
        deciding = state.current_player()
        for seat in [None, *range(players)]:
            view = state.envelope(seat, match.seq)
            legal = [str(a) for a in state.legal_actions()] if seat == deciding else []
            board = render(game, view, legal, names=names)
            check_board(board, legal)
            if phone or labels:
                root = ET.fromstring(board.svg)
                if phone:
                    check_phone(root)
                if labels:
                    check_labels_apart(root)
            if seat == deciding:
                totals["placed"] += len(board.placed)
                totals["listed"] += len(legal) - len(board.placed)
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            match.play(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            match.play(rng.choice(state.legal_actions()))
    return totals
