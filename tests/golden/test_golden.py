"""Golden playthroughs: every title plays exactly as recorded (decisions, counts, views)."""

from __future__ import annotations

import json

import pytest

from tianxia.play import golden


@pytest.mark.parametrize("case", golden.cases(), ids=lambda c: c.filename)
def test_playthrough_matches_recording(case: golden.Case) -> None:
    expected = json.loads((golden.DEFAULT_DIR / case.filename).read_text(encoding="utf-8"))
    actual = golden.record(case)
    assert golden.first_difference(expected, actual) is None


def test_every_title_has_a_playthrough() -> None:
    import tianxia
    from tianxia.core.registry import game_class

    built_in = {
        n for n in tianxia.list_games() if game_class(n).__module__.startswith("tianxia.games.")
    }
    assert {c.game for c in golden.cases()} == built_in


def test_a_changed_step_is_reported() -> None:
    case = golden.cases()[0]
    expected = json.loads((golden.DEFAULT_DIR / case.filename).read_text(encoding="utf-8"))
    altered = json.loads(json.dumps(expected))
    altered["steps"][5][1] += 1
    assert golden.first_difference(expected, altered) == (
        f"step 5: legal {expected['steps'][5][1]!r} -> {altered['steps'][5][1]!r}"
    )
