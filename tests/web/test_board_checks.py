"""The board checks themselves catch what they are for."""

from __future__ import annotations

import pytest

from .board_checks import check_labels_apart, check_taps_apart

SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 390 200">'


def _labels(*texts: tuple[float, float, str]) -> str:
    body = "".join(f'<text x="{x}" y="{y}" font-size="12">{t}</text>' for x, y, t in texts)
    return SVG_OPEN + body + "</svg>"


def test_labels_that_run_into_each_other_are_caught() -> None:
    # "#21" ends near x=20, and "Resting camels" starts at x=15 on the same line.
    with pytest.raises(AssertionError, match="overlap"):
        check_labels_apart(
            _labels((0, 20, "#21"), (300, 90, "far away"), (15, 20, "Resting camels"))
        )


def test_labels_apart_pass_however_many() -> None:
    check_labels_apart(
        _labels(*((float(40 * (k % 9)), float(14 * (k // 9) + 14), "ab") for k in range(90)))
    )


def _spot(inner: str, label: str) -> str:
    return f'<g class="spot" aria-label="{label}" data-actions="[&quot;x&quot;]">{inner}</g>'


def test_tap_areas_that_overlap_are_caught() -> None:
    # A field's round hit area reaches over its neighbour's (Zhao.5 and Wei.2).
    near = (
        SVG_OPEN
        + _spot('<circle cx="100" cy="100" r="22"/>', "Zhao.5")
        + _spot('<circle cx="140" cy="100" r="22"/>', "Wei.2")
    )
    with pytest.raises(AssertionError, match=r"Zhao\.5"):
        check_taps_apart(near + "</svg>")
    # A piece under a dragon's square tap area.
    under = (
        SVG_OPEN
        + _spot('<rect x="60" y="60" width="60" height="60"/>', "Qin dragon")
        + _spot('<g transform="translate(100,100)"><circle cx="0" cy="0" r="10"/></g>', "Qin.5")
    )
    with pytest.raises(AssertionError, match="Qin"):
        check_taps_apart(under + "</svg>")


def test_tap_areas_that_only_touch_pass() -> None:
    # Round areas side by side, and ring sectors sharing an edge (their boxes overlap).
    ring = "".join(
        _spot(f'<circle cx="{50 + 44 * k}" cy="50" r="22"/>', f"field {k}") for k in range(6)
    )
    sectors = _spot('<polygon points="100,150 200,150 200,190"/>', "a") + _spot(
        '<polygon points="100,150 200,190 100,190"/>', "b"
    )
    check_taps_apart(SVG_OPEN + ring + sectors + "</svg>")


def test_a_cards_mark_stays_inside_the_pseudo_locales_markers() -> None:
    from tianxia.web.boards.svg import initials

    plain = initials({"green": "green", "grey": "grey", "red": "red"})
    assert plain == {"green": "Gree", "grey": "Grey", "red": "R"}
    marked = initials({"green": "⟦green⟧", "grey": "⟦grey⟧", "red": "⟦red⟧"})
    assert marked == {"green": "⟦Gree⟧", "grey": "⟦Grey⟧", "red": "⟦R⟧"}
