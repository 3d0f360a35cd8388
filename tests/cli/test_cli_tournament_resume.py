"""A resumed tournament forecasts only the games it still has to play."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tianxia.cli.app import app
from tianxia.cli.main import _load_commands

runner = CliRunner()


def _run(out: Path, games: int) -> str:
    _load_commands()
    args = ["tournament", "greatwall", "--bots", "random,greedy", "-n", str(games)]
    result = runner.invoke(app, [*args, "-j", "1", "--seed", "3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())  # rich wraps lines at the terminal's width


def test_a_finished_tournament_resumed_forecasts_nothing_and_plays_nothing(tmp_path: Path) -> None:
    first = _run(tmp_path, 3)
    assert "left for 2 more games" in first
    journal = tmp_path / "games.jsonl"
    before = journal.read_text(encoding="utf-8")
    again = _run(tmp_path, 3)
    assert "3 of 3 games already played" in again
    assert "left for" not in again
    assert journal.read_text(encoding="utf-8") == before


def test_a_longer_resumed_tournament_forecasts_only_what_remains(tmp_path: Path) -> None:
    _run(tmp_path, 2)
    longer = _run(tmp_path, 5)
    assert "2 of 5 games already played" in longer
    assert "left for 2 more games" in longer  # after the first of its three new games
    assert "left for 4 more games" not in longer
