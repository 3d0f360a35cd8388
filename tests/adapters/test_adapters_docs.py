"""Every snippet of docs/research.md runs, in order, in one namespace."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def snippets() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.M | re.S)


def test_the_tour_has_snippets() -> None:
    assert len(snippets()) >= 6


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_every_snippet_of_the_research_tour_runs(capsys: pytest.CaptureFixture[str]) -> None:
    namespace: dict[str, object] = {"__name__": "research_tour"}
    for i, code in enumerate(snippets()):
        try:
            exec(compile(code, f"{DOC.name}[snippet {i}]", "exec"), namespace)
        except Exception as e:
            raise AssertionError(f"snippet {i} of {DOC.name} fails:\n{code}") from e
    out = capsys.readouterr().out
    assert "IS-MCTS as seat 0" in out
    assert "reproduced" in out
    assert "| openspiel |" in out
    assert "snapshots: ['snapshot 0'" in out
    assert "mean return of 8 random games" in out
    assert "rank rewards paid per seat" in out
