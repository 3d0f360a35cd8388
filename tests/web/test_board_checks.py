"""The board checks themselves catch what they are for."""

from __future__ import annotations

import pytest

from .board_checks import check_labels_apart

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
