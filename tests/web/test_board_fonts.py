"""Every board carries the pages' sans-serif itself: shown as a picture (the lobby's
cards, how to play), a board gets no style from the page."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("babel")

from tianxia.web.pages import picture

TITLES = ["china", "greatwall", "emperor", "mandarin", "silkroad"]


@pytest.mark.parametrize("name", TITLES)
def test_a_boards_picture_is_set_in_the_pages_sans_serif(name: str) -> None:
    root = ET.fromstring(picture(name, "nl"))
    family = root.get("font-family") or ""
    assert family.endswith("sans-serif"), family
    # No text of the drawing asks for another family of its own.
    others = {t.get("font-family") for t in root.iter() if t.get("font-family")} - {family}
    assert not others, others
