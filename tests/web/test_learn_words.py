"""How to play and the lessons call a thing by the word the board, the log and the rules
use for it, so a reader never wonders whether two words mean two things."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("babel")

from tianxia.web.i18n import translations

WEB = Path(__file__).resolve().parents[2] / "src" / "tianxia" / "web"


def _german(data: Any) -> list[str]:
    """Every German text of a how-to or lessons file."""
    if isinstance(data, dict):
        return [
            t
            for k, v in data.items()
            for t in ([v] if k == "de" and isinstance(v, str) else _german(v))
        ]
    if isinstance(data, list):
        return [t for v in data for t in _german(v)]
    return []


@pytest.mark.parametrize("kind", ["howto", "lessons"])
def test_mandarins_german_texts_call_a_tile_what_the_board_calls_it(kind: str) -> None:
    word = str(translations("de").gettext("tiles"))
    assert word == "Plättchen"
    texts = _german(tomllib.loads((WEB / kind / "mandarin.toml").read_text(encoding="utf-8")))
    assert texts
    assert any(word in t for t in texts)
    for text in texts:
        assert not re.search(r"Stein(e|s)?\b|Tierstein|Kaiserstein", text), text
